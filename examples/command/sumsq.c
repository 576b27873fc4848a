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

/* the request's id (the last "id": of the line: a parameter may be called
 * id too), echoed in the reply (doc/own-code.md#replies) */
static long long request_id(const char *line)
{
    const char *last = NULL;
    for (const char *p = line; (p = strstr(p, "\"id\":")); p++)
        last = p;
    return last ? atoll(last + 5) : 0;
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
        long long id = request_id(line);
        if (strstr(line, "\"op\":\"setup\"")) {
            /* untimed: every parameter of the trial is in "params" */
            n = (long)number(line, "size", 1000);
            free(x);
            x = malloc((size_t)(n > 0 ? n : 1) * sizeof *x);
            if (!x) {
                fprintf(out, "{\"id\": %lld, \"error\": \"out of memory for %ld floats\"}\n",
                        id, n);
            } else {
                for (long i = 0; i < n; i++)
                    x[i] = (float)(i % 7) / 7.0f;
                fprintf(out, "{\"id\": %lld, \"ok\": true, \"flops\": %ld, \"bytes\": %ld}\n", id, 2 * n,
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
            fprintf(out, "{\"id\": %lld, \"seconds\": %.9f}\n", id, t1 - t0);
        } else if (strstr(line, "\"op\":\"check\"")) {
            double want = 0; /* the sum written another way */
            for (long i = 0; i < n; i++)
                want += pow((i % 7) / 7.0, 2);
            if (fabs(sink - want) > 1e-6 * (1 + want))
                fprintf(out, "{\"id\": %lld, \"error\": \"sum %.9g, expected %.9g\"}\n", id,
                        sink, want);
            else
                fprintf(out, "{\"id\": %lld, \"ok\": true, \"extras\": {\"sum\": %.9g}}\n", id, sink);
        } else if (strstr(line, "\"op\":\"teardown\"")) {
            free(x);
            x = NULL;
            fprintf(out, "{\"id\": %lld, \"ok\": true}\n", id);
        } else {
            fprintf(out, "{\"id\": %lld, \"error\": \"unknown request\"}\n", id);
        }
        fflush(out);
    }
    free(line);
    free(x);
    return 0;
}
