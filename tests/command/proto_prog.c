/* proto_prog.c - a test program for `workload: command` (tests/test_command.c).
 *
 * proto_prog --spin S [--exit N] [--signal N]: spins S seconds on
 *   CLOCK_MONOTONIC (per_call), then exits N or raises signal N.
 * proto_prog (no arguments): speaks the persistent protocol on the fds of
 *   $RUNNER_PROTOCOL_FDS; the trial's parameter `action` picks a misdeed:
 *   ok (each call spins `spin` seconds, default 0), skip, setup_error,
 *   crash (segfault in run), exit (exits in run), hang (never answers
 *   run), garbage (prints to stdout, then answers), malformed (answers run
 *   with a line that is not JSON), liar (reports 10 s for a call), wrong
 *   (check fails), reserved (an extra column named median), teardown_error, quit (exits after its teardown).  It writes "started pid" to stderr when
 *   it starts, so a test can count the starts. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "request_field.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void spin(double s)
{
    double end = now() + s;
    while (now() < end)
        ;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "--spin")) {
        spin(atof(argv[2]));
        for (int i = 3; i + 1 < argc; i += 2) {
            if (!strcmp(argv[i], "--exit")) {
                fprintf(stderr, "proto_prog: exiting with %s as asked\n", argv[i + 1]);
                return atoi(argv[i + 1]);
            }
            if (!strcmp(argv[i], "--signal"))
                raise(atoi(argv[i + 1]));
        }
        return 0;
    }
    const char *fds = getenv("RUNNER_PROTOCOL_FDS");
    int rfd, wfd;
    if (!fds || sscanf(fds, "%d,%d", &rfd, &wfd) != 2) {
        fprintf(stderr, "proto_prog: RUNNER_PROTOCOL_FDS is not set\n");
        return 2;
    }
    fprintf(stderr, "started %d\n", (int)getpid());
    FILE *in = fdopen(rfd, "r"), *out = fdopen(wfd, "w");
    char line[65536], action[64] = "ok", v[64];
    double per_call = 0;
    while (fgets(line, sizeof line, in)) {
        char op[32] = "";
        field(line, "op", op, sizeof op);
        if (!strcmp(op, "setup")) {
            snprintf(action, sizeof action, "%s", field(line, "action", v, sizeof v) ? v : "ok");
            per_call = field(line, "spin", v, sizeof v) ? atof(v) : 0;
            if (!strcmp(action, "skip"))
                fprintf(out, "{\"skip\": \"nothing to do here\"}\n");
            else if (!strcmp(action, "setup_error"))
                fprintf(out, "{\"error\": \"cannot set up\"}\n");
            else
                fprintf(out, "{\"ok\": true, \"flops\": 1000}\n");
        } else if (!strcmp(op, "run")) {
            int k = field(line, "k", v, sizeof v) ? atoi(v) : 1;
            if (k > 0 && !strcmp(action, "crash")) {
                fprintf(stderr, "proto_prog: about to crash\n");
                fflush(stderr);
                raise(SIGSEGV);
            }
            if (k > 0 && !strcmp(action, "exit")) {
                fprintf(stderr, "proto_prog: leaving early\n");
                return 4;
            }
            if (k > 0 && !strcmp(action, "hang"))
                for (;;)
                    pause();
            if (k > 0 && !strcmp(action, "malformed")) {
                fprintf(out, "this is not json\n");
                fflush(out);
                continue;
            }
            if (!strcmp(action, "garbage")) {
                printf("garbage {\"seconds\": 99}\n");
                fflush(stdout);
            }
            double t0 = now();
            for (int i = 0; i < k; i++)
                spin(per_call);
            double t = now() - t0;
            if (k > 0 && !strcmp(action, "liar"))
                t = 10;
            fprintf(out, "{\"seconds\": %.9f, \"extras\": {\"calls_seen\": %d}}\n", t, k);
        } else if (!strcmp(op, "check")) {
            if (!strcmp(action, "wrong"))
                fprintf(out, "{\"error\": \"the answer is 41, not 42\"}\n");
            else if (!strcmp(action, "reserved")) /* a column the runner writes */
                fprintf(out, "{\"ok\": true, \"extras\": {\"median\": 1}}\n");
            else
                fprintf(out, "{\"ok\": true, \"extras\": {\"checked\": \"yes\"}}\n");
        } else if (!strcmp(op, "teardown")) {
            if (!strcmp(action, "teardown_error"))
                fprintf(out, "{\"error\": \"cannot let go\"}\n");
            else
                fprintf(out, "{\"ok\": true}\n");
            if (!strcmp(action, "quit")) /* after its trial, before the next */
                return 0;
        } else {
            fprintf(out, "{\"error\": \"unknown op\"}\n");
        }
        fflush(out);
    }
    return 0;
}
