/* supervisor.h - runs trials in a worker process and survives its crashes,
 * hangs and out-of-memory kills: each is recorded, and the next trial gets a
 * fresh worker. */
#ifndef RUNNER_SUPERVISOR_H
#define RUNNER_SUPERVISOR_H
/* public header of runner/run/exec/ */

#include "backend.h"
#include "base/affinity.h"
#include "base/child.h"
#include "experiment/config.h"
#include "results/rundir/result.h"
#include "run/exec/guard.h"
#include "run/exec/trace_file.h"

#include <signal.h>
#include <sys/types.h>

/* Batches of small trials (doc/timing.md#batches-of-small-trials): once a
 * trial took under SUP_BATCH_UNDER from its command to its verdict, the
 * trials that follow it with the same worker send in one write, as many as
 * SUP_BATCH_SPAN holds (at most SUP_BATCH_MAX), and come back in one. */
#define SUP_BATCH_MAX 64
#define SUP_BATCH_UNDER 0.001
#define SUP_BATCH_SPAN 0.005

typedef struct supervisor {
    const experiment *e;
    child w;   /* the worker */
    pid_t pid; /* 0: no worker (w.pid) */
    int cmd_fd, res_fd;
    volatile sig_atomic_t *interrupted;
    char *rbuf; /* what the worker sent and is not read yet */
    size_t rpos, rlen;
    /* the worker's CPUs (affinity.h): a trial that wants others gets a new worker */
    char aff_key[320];
    cpu_set_t aff_set;
    int aff_threads, aff_pin;
    /* the last trial's affinity spec and threads, resolved into aff_why
     * (pin < 0: refused, aff_why the reason): the next trial with the same
     * ones resolves and formats nothing again */
    char *aff_spec;
    int aff_spec_threads, aff_spec_pin;
    cpu_set_t aff_spec_set;
    char aff_why[300];
    char aff_spec_key[320]; /* the worker key of that spec ("pin:threads:cpus") */
    int col_affinity, col_threads, col_wcurve; /* the experiment's columns, or -1 */
    char *payload; /* a message's payload, read into (MSG_MAX_PAYLOAD + 1) */
    int col_timeout;
    /* batches: which trials sup_run gets next, in trial order (1: trial t
     * will be run by sup_run with samples and warmups -1 and no timeout
     * unless the file gives it); NULL: no batches (hooks, a timeline) */
    int (*will_run)(void *ctx, long long t);
    void *will_run_ctx;
    long long ahead[SUP_BATCH_MAX]; /* sent to the worker in one batch */
    int nahead, ahead_pos;          /* ahead[ahead_pos] is answered next */
    double batch_at;                /* when the batch went */
    double per_trial;               /* seconds a trial, the last batch's; < 0: unknown */
    long long solo_until;           /* a batch broke: its trials go one a command */
    trace_file *trace; /* the run's timeline (doc/results.md#a-timeline-of-a-run), or NULL */
    pid_t group; /* the worker's command program's group (MSG_GROUP), or 0 */
    guard guard;            /* kills `group` if the runner dies (guard.h) */
    unsigned nonce;         /* in each of the worker's headers (proto.h) */
    long long oom_at_start; /* the kernel's OOM kills when the worker started, or -1 */
    /* a CPU list that replaces an unpinned trial's `affinity` (run/blocks.h:
     * blocks placed on the CPUs in turn), or NULL */
    const char *place;
} supervisor;

void sup_init(supervisor *S, const experiment *e, volatile sig_atomic_t *interrupted);
/* Runs trial t; timeout in seconds (0 = none).  `samples` and `warmups`
 * override the trial's own repeats and warmups when >= 0 (order:
 * interleaved takes one sample per round). */
void sup_run(supervisor *S, long long t, double timeout, int samples, int warmups,
             trial_result *out);
void sup_stop(supervisor *S);
/* sup_stop, and frees what the supervisor keeps between workers. */
void sup_free(supervisor *S);

#endif
