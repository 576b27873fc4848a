/* sumsq.c - a C program measured by runner's `workload: command` with
 * `protocol: persistent` (doc/own-code.md#the-protocol): the sum of the
 * squares of `size` floats.
 *
 * The runner starts it once and keeps it for the trials; requests come one
 * JSON line at a time on the fd $RUNNER_PROTOCOL_FDS names first, replies
 * go as one JSON line each to the second (stdout stays the program's own).
 * The runner writes its requests on one line with no spaces, so a few
 * strstr() calls read them here; a larger program would use a JSON library.
 *
 *   cc -O2 -o sumsq sumsq.c && runner sumsq.yaml
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) /* the runner's clock: CLOCK_MONOTONIC */
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* the number after "name": in a request, or dflt */
static double number(const char *line, const char *name, double dflt)
{
    char key[64];
    snprintf(key, sizeof key, "\"%s\":", name);
    const char *p = strstr(line, key);
    return p ? atof(p + strlen(key)) : dflt;
}

int main(void)
{
    int in_fd, out_fd;
    const char *fds = getenv("RUNNER_PROTOCOL_FDS");
    if (!fds || sscanf(fds, "%d,%d", &in_fd, &out_fd) != 2) {
        fprintf(stderr, "sumsq: start me from runner (protocol: persistent)\n");
        return 2;
    }
    FILE *in = fdopen(in_fd, "r"), *out = fdopen(out_fd, "w");
    char *line = NULL;
    size_t cap = 0;
    float *x = NULL;
    long n = 0;
    volatile double sink = 0; /* the result, so the loop is not optimised away */
    while (getline(&line, &cap, in) > 0) { /* end of file: the runner is done */
        if (strstr(line, "\"op\":\"setup\"")) {
            /* untimed: every parameter of the trial is in "params" */
            n = (long)number(line, "size", 1000);
            free(x);
            x = malloc((size_t)(n > 0 ? n : 1) * sizeof *x);
            if (!x) {
                fprintf(out, "{\"error\": \"out of memory for %ld floats\"}\n", n);
            } else {
                for (long i = 0; i < n; i++)
                    x[i] = (float)(i % 7) / 7.0f;
                fprintf(out, "{\"ok\": true, \"flops\": %ld, \"bytes\": %ld}\n", 2 * n,
                        n * (long)sizeof *x);
            }
        } else if (strstr(line, "\"op\":\"run\"")) {
            /* k calls, timed by the program itself (a GPU program would
             * synchronise its device before reading the clock again) */
            long k = (long)number(line, "k", 1);
            double t0 = now(), s = 0;
            for (long j = 0; j < k; j++) {
                s = 0;
                for (long i = 0; i < n; i++)
                    s += (double)x[i] * x[i];
            }
            double t1 = now();
            sink = s;
            fprintf(out, "{\"seconds\": %.9f}\n", t1 - t0);
        } else if (strstr(line, "\"op\":\"check\"")) {
            double want = 0; /* the sum written another way */
            for (long i = 0; i < n; i++)
                want += pow((i % 7) / 7.0, 2);
            if (fabs(sink - want) > 1e-6 * (1 + want))
                fprintf(out, "{\"error\": \"sum %.9g, expected %.9g\"}\n", sink, want);
            else
                fprintf(out, "{\"ok\": true, \"extras\": {\"sum\": %.9g}}\n", sink);
        } else if (strstr(line, "\"op\":\"teardown\"")) {
            free(x);
            x = NULL;
            fprintf(out, "{\"ok\": true}\n");
        } else {
            fprintf(out, "{\"error\": \"unknown request\"}\n");
        }
        fflush(out);
    }
    free(line);
    free(x);
    return 0;
}
