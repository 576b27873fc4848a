/* selftest.c - a workload that misbehaves on purpose, to check the harness:
 * the supervisor must record a segfault, an abort, a hang (timeout), an
 * early exit, a failed run and a wrong result, and carry on with the sweep.
 * `action: sleep` sleeps `seconds` per call: a known duration for checking
 * the timer.  `in_process: K` limits the action to process K of a
 * `parallel: processes` trial. */
#include "frame.h"
#include "selftest_params.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct selftest {
    char action[16];
    double seconds;
    int calls;
} selftest;

static int st_prepare(const rn_trial *t, void **state, rn_error *err)
{
    selftest *s = cpu_state_new(sizeof *s, "selftest", err);
    if (!s)
        return 1;
    int rc = rn_selftest_params(t, s->action, sizeof s->action, &s->seconds, err);
    if (rc) {
        free(s);
        return rc;
    }
    *state = s;
    return 0;
}

static int st_run(void *state, rn_sample *out, rn_error *err)
{
    (void)out;
    selftest *s = state;
    s->calls++;
    const char *a = s->action;
    if (!strcmp(a, "segfault"))
        raise(SIGSEGV);
    else if (!strcmp(a, "abort"))
        abort();
    else if (!strcmp(a, "exit"))
        _exit(7);
    else if (!strcmp(a, "hang"))
        for (;;)
            pause();
    else if (!strcmp(a, "fail")) {
        snprintf(err->msg, sizeof err->msg, "selftest: failed on purpose (call %d)", s->calls);
        return 1;
    } else if (!strcmp(a, "sleep")) {
        struct timespec ts = {(time_t)s->seconds,
                              (long)((s->seconds - (double)(time_t)s->seconds) * 1e9)};
        while (nanosleep(&ts, &ts) < 0)
            ;
    }
    return 0;
}

static int st_check(void *state, rn_error *err)
{
    selftest *s = state;
    if (!strcmp(s->action, "wrong")) {
        snprintf(err->msg, sizeof err->msg, "selftest: output 1 but the reference is 2");
        return 1;
    }
    return 0;
}

/* An extra column, so that tests see a column appear in mid-run. */
static void st_extras(void *state, void *ctx, void (*cb)(void *ctx, const char *k, const char *v))
{
    selftest *s = state;
    char buf[32];
    snprintf(buf, sizeof buf, "%d", s->calls);
    cb(ctx, "calls", buf);
}

static void st_release(void *state)
{
    free(state);
}

CPU_WORKLOAD(selftest, st_prepare, st_run, st_check, st_release, .extras = st_extras)
