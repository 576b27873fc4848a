/* command_bare.c - bench/command.sh's bare loops: what `workload: command`
 * costs without the runner (doc/own-code.md#what-the-protocol-costs).
 *   command_bare spawn N PROGRAM [ARG...]  posix_spawn + waitpid of PROGRAM,
 *                                          N times: the median, in seconds
 *   command_bare trip N PROGRAM [ARG...]   PROGRAM started once on the
 *                                          persistent protocol's pipes, one
 *                                          setup, then N {"op":"run","k":0}
 *                                          round trips: the median
 * Both time with CLOCK_MONOTONIC, as the runner does. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int line(FILE *in, char *buf, size_t n)
{
    return fgets(buf, (int)n, in) ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return fprintf(stderr, "usage: command_bare spawn|trip N PROGRAM [ARG...]\n"), 2;
    int n = atoi(argv[2]);
    double *d = calloc((size_t)n, sizeof *d);
    extern char **environ;
    if (!strcmp(argv[1], "spawn")) {
        for (int i = 0; i < n; i++) {
            pid_t pid;
            int st;
            double t0 = now();
            if (posix_spawnp(&pid, argv[3], NULL, NULL, argv + 3, environ) != 0)
                return perror("spawn"), 1;
            waitpid(pid, &st, 0);
            d[i] = now() - t0;
        }
    } else {
        int req[2], rep[2];
        if (pipe(req) || pipe(rep))
            return perror("pipe"), 1;
        setenv("RUNNER_PROTOCOL_FDS", "3,4", 1);
        pid_t pid = fork();
        if (pid == 0) {
            dup2(req[0], 3);
            dup2(rep[1], 4);
            execvp(argv[3], argv + 3);
            _exit(127);
        }
        close(req[0]);
        close(rep[1]);
        FILE *to = fdopen(req[1], "w"), *from = fdopen(rep[0], "r");
        char buf[65536];
        fprintf(to, "{\"trial\":0,\"params\":{\"size\":1,\"seed\":0,\"device\":\"cpu\","
                    "\"threads\":1},\"version\":1,\"op\":\"setup\"}\n");
        fflush(to);
        if (line(from, buf, sizeof buf) < 0)
            return fprintf(stderr, "no answer to setup\n"), 1;
        for (int i = 0; i < n; i++) {
            double t0 = now();
            fputs("{\"k\":0,\"op\":\"run\"}\n", to);
            fflush(to);
            if (line(from, buf, sizeof buf) < 0)
                return fprintf(stderr, "no answer to run\n"), 1;
            d[i] = now() - t0;
        }
        fclose(to);
        fclose(from);
        waitpid(pid, NULL, 0);
    }
    qsort(d, (size_t)n, sizeof *d, cmp);
    printf("%.9f\n", d[n / 2]);
    free(d);
    return 0;
}
