/* hostile_prog.c - a program of `workload: command` that misbehaves on
 * purpose (tests/test_hostile.c, doc/own-code.md#what-the-runner-guarantees).
 *
 * per_call, by its first argument:
 *   --forge        writes a forged "trial done" header (status 1000) into
 *                  every pipe of its parent's it can open through
 *                  /proc/PPID/fd, says on stderr how many it reached, exits 0
 *   --daemon FILE  leaves a daemon (setsid, double fork) that writes its pid
 *                  to FILE and sleeps 60 s; exits 0
 *   --sleep FILE   writes its pid to FILE, sleeps 60 s
 *   --flood        writes 32 MiB to stderr, waits 0.3 s, and exits 3 if its
 *                  stderr file holds more than 4 MiB in memory (st_blocks)
 * persistent (no argument), by the setup parameter `action`; $PIDFILE
 * names the file a process writes its pid to:
 *   ok            answers every request (echoing its id)
 *   fork_exit     at setup, forks a child that keeps the reply pipe and
 *                 sleeps, writes to stderr and exits 1
 *   close_pipes   at setup, closes fds 3 and 4 and sleeps 60 s
 *   dup_reply     answers each run request twice
 *   stale_id      answers run requests with the id of the one before
 *   check_garbage answers check with a line that is not JSON
 *   stderr_flood  at its first run with k > 0 writes 32 MiB to stderr,
 *                 waits 0.3 s, and reports the bytes its stderr file holds
 *                 in memory (st_blocks) as the column stderr_held
 *   helper        at setup, forks a helper in its group (pid to $PIDFILE)
 *                 that sleeps 60 s; each call spins `spin` seconds
 *   daemon        at setup, leaves a setsid daemon (pid to $PIDFILE)
 *   daemon_hang   as daemon, then never answers run */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "request_field.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void write_pid(const char *file)
{
    if (!file)
        return;
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s.tmp", file);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    fprintf(f, "%d\n", (int)getpid());
    fclose(f);
    rename(tmp, file); /* whole, or not there */
}

static void sleep_s(int s)
{
    struct timespec t = {s, 0};
    while (nanosleep(&t, &t) < 0)
        ;
}

/* A daemon: out of the caller's group and session, its parent gone. */
static void daemon_off(const char *file)
{
    /* the caller goes on once the daemon has written its pid: a trial that
     * ended first would sweep it before it could (the test then sees no pid) */
    int ready[2];
    if (pipe(ready) < 0)
        return;
    pid_t p = fork();
    if (p != 0) { /* the caller goes on */
        char c;
        close(ready[1]);
        if (p > 0)
            waitpid(p, NULL, 0);
        while (read(ready[0], &c, 1) < 0 && errno == EINTR)
            ;
        close(ready[0]);
        return;
    }
    setsid();
    if (fork() != 0)
        _exit(0);
    write_pid(file);
    for (int fd = 3; fd < 64; fd++)
        close(fd); /* the ready pipe too: the caller reads its end */
    sleep_s(60);
    _exit(0);
}

/* 32 MiB to stderr, then 0.3 s for the runner to cut it: the bytes its
 * file holds in memory */
static long long flood(void)
{
    static char junk[1 << 20];
    memset(junk, 'x', sizeof junk);
    for (int i = 0; i < 32; i++)
        if (write(2, junk, sizeof junk) < 0)
            break;
    struct timespec t = {0, 300 * 1000 * 1000};
    nanosleep(&t, NULL);
    struct stat st;
    return fstat(2, &st) == 0 ? (long long)st.st_blocks * 512 : 0;
}

static int forge(void)
{
    struct {
        int type, status;
        unsigned len;
        int retire;
        unsigned nonce;
    } h = {4, 1000, 0, 0, 0};
    int reached = 0;
    for (int fd = 0; fd < 256; fd++) {
        char p[64], target[128];
        snprintf(p, sizeof p, "/proc/%d/fd/%d", (int)getppid(), fd);
        ssize_t n = readlink(p, target, sizeof target - 1);
        if (n <= 0)
            continue;
        target[n] = '\0';
        if (strncmp(target, "pipe:", 5))
            continue;
        int w = open(p, O_WRONLY | O_NONBLOCK);
        if (w < 0)
            continue;
        if (write(w, &h, sizeof h) == (ssize_t)sizeof h)
            reached++;
        close(w);
    }
    fprintf(stderr, "hostile_prog: forged into %d pipes\n", reached);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--forge"))
        return forge();
    if (argc >= 3 && !strcmp(argv[1], "--daemon")) {
        daemon_off(argv[2]);
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "--flood")) {
        long long held = flood();
        if (held > 4 << 20) {
            fprintf(stderr, "\nhostile_prog: stderr holds %lld bytes\n", held);
            return 3;
        }
        return 0;
    }
    if (argc >= 3 && !strcmp(argv[1], "--sleep")) {
        write_pid(argv[2]);
        sleep_s(60);
        return 0;
    }
    FILE *in = fdopen(3, "r"), *out = fdopen(4, "w");
    if (!in || !out)
        return 2;
    const char *pidfile = getenv("PIDFILE");
    char line[65536], action[64] = "ok", v[64];
    double spin = 0;
    long long last_id = 0, held = -1;
    while (fgets(line, sizeof line, in)) {
        char op[32] = "", id[32] = "0";
        field(line, "op", op, sizeof op);
        field(line, "id", id, sizeof id);
        long long rid = atoll(id);
        if (!strcmp(op, "setup")) {
            snprintf(action, sizeof action, "%s", field(line, "action", v, sizeof v) ? v : "ok");
            spin = field(line, "spin", v, sizeof v) ? atof(v) : 0;
            if (!strcmp(action, "fork_exit")) {
                if (fork() == 0) {
                    sleep_s(60);
                    _exit(0);
                }
                fprintf(stderr, "hostile_prog: leaving; a child keeps the pipe\n");
                return 1;
            }
            if (!strcmp(action, "close_pipes")) {
                close(3);
                close(4);
                sleep_s(60);
                return 0;
            }
            if (!strcmp(action, "helper") && fork() == 0) {
                for (int fd = 3; fd < 64; fd++)
                    close(fd);
                write_pid(pidfile);
                sleep_s(60);
                _exit(0);
            }
            if (!strncmp(action, "daemon", 6))
                daemon_off(pidfile);
            fprintf(out, "{\"ok\": true, \"id\": %lld}\n", rid);
        } else if (!strcmp(op, "run")) {
            int k = field(line, "k", v, sizeof v) ? atoi(v) : 1;
            if (k > 0 && !strcmp(action, "daemon_hang"))
                for (;;)
                    pause();
            if (k > 0 && held < 0 && !strcmp(action, "stderr_flood"))
                held = flood();
            double t0 = now();
            for (int i = 0; i < k; i++)
                for (double end = now() + spin; now() < end;)
                    ;
            double t = now() - t0;
            long long echo = !strcmp(action, "stale_id") && k > 0 ? last_id : rid;
            if (held >= 0)
                fprintf(out, "{\"seconds\": %.9f, \"id\": %lld, \"extras\": {\"stderr_held\": %lld}}\n",
                        t, echo, held);
            else
                fprintf(out, "{\"seconds\": %.9f, \"id\": %lld}\n", t, echo);
            if (k > 0 && !strcmp(action, "dup_reply"))
                fprintf(out, "{\"seconds\": %.9f, \"id\": %lld}\n", t, rid);
        } else if (!strcmp(op, "check")) {
            if (!strcmp(action, "check_garbage"))
                fprintf(out, "all good, I think\n");
            else
                fprintf(out, "{\"ok\": true, \"id\": %lld}\n", rid);
        } else {
            fprintf(out, "{\"ok\": true, \"id\": %lld}\n", rid);
        }
        fflush(out);
        last_id = rid;
    }
    return 0;
}
