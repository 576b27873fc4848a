/* worker.c - see worker.h.  The timed loop is here: warmups (the first kept
 * as `cold`, the backend's cold_facts right after it), the batch grown to
 * the target sample time, warm rounds to steady state, discarded batches
 * through the timed loop, then `repeats` samples (or the median's stop
 * rule), each the host clock around one batch of run() calls, each of which
 * returns only once its device is idle; a sample the backend's sample_check
 * calls throttled is retaken after a recovery delay
 * (doc/timing.md#measurement-quality, "How a trial is timed"). */
#include "run/exec/worker.h"

#include "experiment/registry/backends.h"
#include "experiment/columns.h"
#include "run/exec/batch.h"
#include "run/exec/cmd_program.h"
#include "run/exec/cmd_workload.h"
#include "run/exec/concurrent.h"
#include "run/exec/energy.h"
#include "run/exec/procs.h"
#include "run/exec/plausible.h"
#include "run/exec/proto.h"
#include "run/exec/steady.h"
#include "run/exec/trace.h"
#include "run/exec/warmup_curve.h"
#include "run/exec/worker_out.h"
#include "stats/stats.h"
#include "experiment/trial.h"
#include "base/util.h"
#include "run/exec/trial_impl.h"
#include "experiment/registry/workloads.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

/* A workload's own columns are filtered (columns.h): a reserved name fails
 * the trial (doc/results.md#reserved-column-names). */
static const experiment *current_exp;

/* The backend names the first-time costs this trial paid (cold_context,
 * cold_module: doc/timing.md#how-a-trial-is-timed), once, right after the first
 * call of the trial, whichever that was. */
static void cold_facts_once(const rn_backend *b, const rn_trial *tr, int *done_already)
{
    if (*done_already)
        return;
    *done_already = 1;
    if (b && b->cold_facts)
        b->cold_facts(tr, NULL, wout_extra);
}

/* The throttle check (doc/timing.md#measurement-quality): a throttled sample is
 * retaken after a recovery delay, as nvbench waits one before it measures
 * again; the delay doubles while the device stays throttled, so a device
 * that needs longer to cool gets it, and a clean sample resets it. */
#define THROTTLE_RETAKES 100
/* still throttled after this many retakes in a row, the last ones after the
 * longest delay, the device is throttled for good (a power or clock cap):
 * waiting longer would only stretch the trial */
#define THROTTLE_IN_A_ROW 6
#define RECOVERY_FIRST 0.05
#define RECOVERY_MAX 1.0

static void sleep_seconds(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

/* The least time of the discarded batches after the warmup
 * (doc/timing.md#how-a-trial-is-timed, step 5; see run_loop). */
#define DISCARD_TIME 1e-3

/* The timed calls start now (concurrent: its rounds for the speedup;
 * processes: shared_cpu_calls). */
static void timed_begin(const rn_workload_impl *impl, void *state)
{
    if (impl->timed_begin)
        impl->timed_begin(state);
}

/* Prepares, warms up, samples and checks one trial with `impl`; `b` is the
 * backend of the trial's device (NULL for workloads the core drives). */
static void run_loop(const resolved_trial *r, const rn_workload_impl *impl, const rn_backend *b,
                     const workload_desc *desc, const stop_rule *rule, int fd)
{
    const rn_trial *tr = &r->t;
    rn_error err = {{0}};
    void *state = NULL;
    int cold_told = 0;
    stop_state st = {0}; /* repeats: auto */
    /* the previous trial's warmth (doc/timing.md#how-a-trial-is-timed, step 4) */
    steady_key key = {b, (int)tr->device, tr->device_index, tr->workload};
    double prev_end = steady_carry_take(&key);
    if (tr->cold_cache && (!b || !b->flush_caches)) {
        wout_done(fd, ST_SKIPPED, "cold_cache is not supported by the %s backend", b ? b->name : "core");
        return;
    }
    if (b && b->select && b->select(tr, &err) != 0) {
        wout_done(fd, ST_FAILED, "%s", err.msg);
        return;
    }
    trace_begin("prepare", -1);
    int rc = impl->prepare(tr, &state, &err);
    trace_end();
    if (rc != 0) {
        wout_done(fd, rc == RN_PREPARE_SKIP ? ST_SKIPPED : ST_FAILED, "%s", err.msg[0] ? err.msg : "prepare failed");
        return;
    }
    wout_hold();
    /* the work of one call: the workload's own count (Lua files state
     * theirs; parallel: processes sums its processes'), else the
     * registry's formulas */
    double counts[2] = {desc && desc->flops ? desc->flops(tr) : NAN,
                        desc && desc->bytes ? desc->bytes(tr) : NAN};
    if (impl->work)
        impl->work(state, &counts[0], &counts[1]);
    char why[400]; /* doc/own-code.md#what-the-runner-guarantees */
    if (plausible_work(counts, why, sizeof why) < 0) {
        wout_done(fd, ST_FAILED, "%s", why);
        goto out;
    }
    wout_msg(fd, MSG_COUNTS, 0, counts, sizeof counts);

    rn_sample s;
    double warm_start = now_seconds();
    long warm_calls = 0;
    /* the first warmup_curve calls are warmups too, each timed alone */
    wcurve curve;
    wcurve_init(&curve, r->warmup_curve);
    trace_begin("warmup", -1);
    for (int w = 0; w < r->warmups || w < curve.k; w++) {
        rn_sample_clear(&s);
        double t0 = now_seconds();
        rc = impl->run(state, &s, &err);
        double t1 = now_seconds();
        warm_calls++;
        if (rc != 0) {
            wout_done(fd, ST_FAILED, "%s", err.msg[0] ? err.msg : "run failed");
            goto out;
        }
        if (wcurve_add(&curve, t1 - t0))
            trace_span("call", w + 1, t0, t1, t1 - t0, 1, NULL);
        if (w == 0) {
            double cold = t1 - t0;
            wout_msg(fd, MSG_COLD, 0, &cold, sizeof cold);
            cold_facts_once(b, tr, &cold_told);
        }
    }
    char *curve_text = wcurve_text(&curve);
    if (curve_text) { /* K numbers: more than wout_extra's line holds */
        char *m = xasprintf("first_calls\t%s", curve_text);
        wout_msg(fd, MSG_EXTRA, 0, m, (unsigned)strlen(m));
        free(m);
        free(curve_text);
    }
    /* the core's own workloads call theirs other than once per call */
    int core = impl == &core_concurrent || impl == &core_processes || impl == &cmd_workload;
    int announce = b && b->batch_begin && !core;
    /* the probe's and the steady rounds' batches are announced as the
     * samples' are (batch.h batch_announce) */
    batch_announce ann = {announce ? b->batch_begin : NULL, tr};
    /* cold caches cannot be batched: each call needs its flush */
    int probed = r->batch <= 0 && !tr->cold_cache;
    int batch = r->batch > 0 ? r->batch
                : tr->cold_cache ? 1
                                 : choose_batch(impl, state, 1, r->sample_time, &ann, &err, &rc, &warm_calls);
    if (rc != 0) {
        wout_done(fd, ST_FAILED, "%s", err.msg[0] ? err.msg : "run failed");
        goto out;
    }
    if (probed) /* warmups: 0: the batch probe's first call paid them */
        cold_facts_once(b, tr, &cold_told);
    /* steady state (run/exec/steady.c): `warmups: 0` asks for cold samples */
    double warm_ratio = NAN;
    int steady = 1;
    double min_warm = b ? b->min_warm : 0;
    int carried = steady_carries(b, prev_end, warm_start);
    double settle = steady_settle(tr->threads, r->warmup_time, min_warm, carried);
    if (r->warmups > 0 &&
        (rc = steady_warm(impl, state, batch, &ann, warm_start, settle, r->warmup_time,
                          r->warmup_tolerance, &warm_calls, &steady, &warm_ratio, &err)) != 0) {
        wout_done(fd, ST_FAILED, "%s", err.msg[0] ? err.msg : "run failed");
        goto out;
    }
    /* the probe again, warm (doc/timing.md#batching): it only grows the batch */
    if (probed && r->warmups > 0) {
        batch = choose_batch(impl, state, batch, r->sample_time, &ann, &err, &rc, &warm_calls);
        if (rc != 0) {
            wout_done(fd, ST_FAILED, "%s", err.msg[0] ? err.msg : "run failed");
            goto out;
        }
    }
    double warm_time = now_seconds() - warm_start;
    trace_end(); /* warmup */
    static sample_buf buf;
    buf.n = 0;
    memset(buf.s, 0, sizeof buf.s);
    buf.last_flush = now_seconds();
    char warn[256];
    if (b && b->device_warning && b->device_warning(tr, warn, sizeof warn))
        wout_extra(NULL, "device_warning", warn);
    int throttled = 0, in_a_row = 0, retaking = 1, kept_throttled = 0;
    int check_on = b && b->sample_check;
    double recovery = RECOVERY_FIRST;
    char throttle_why[256] = "", check_off[300] = "";
    const char *stop = NULL;
    double measured = 0, start = now_seconds();
    /* the last warmups: batches through all of a sample's steps, then
     * dropped (doc/timing.md#how-a-trial-is-timed, step 5), so that the first
     * timed sample follows what every later one follows: at least one, and
     * as many as DISCARD_TIME (at most warmup_time) holds; one with
     * cold_cache, as each needs its flush.  A worker's first passes of the
     * timed code are slow: its first trial's 6 us Lua calls took 8, 7 and
     * 6.7 us, then 6.3 */
    int discard = r->warmups > 0, discard_calls = 0;
    /* device times averaged over a batch, for a workload whose last warmup
     * reported them (or, with no warmup, in case it does) */
    int add_device = batch > 1 && (r->warmups == 0 || sample_has_device(&s));
    double discard_left = tr->cold_cache ? 0 : fmin(DISCARD_TIME, r->warmup_time);
    double discard_t0 = 0;
    cmd_workload_batch(impl, batch); /* one request per batch: doc/own-code.md#persistent */
    if (!discard)
        timed_begin(impl, state);
    for (int n = 1; !stop; n++) {
        if (tr->cold_cache && b->flush_caches(tr, &err) != 0) {
            wout_samples(fd, &buf);
            wout_done(fd, ST_FAILED, "cannot flush the caches: %s", err.msg);
            goto out;
        }
        rn_sample_clear(&s);
        /* outside the timed region: what sample_check will judge starts
         * here; a discarded batch takes it too, so that the first timed
         * sample follows the same device calls as every later one */
        if (check_on && b->sample_begin)
            b->sample_begin(tr);
        /* the batch's boundary: a backend may time its calls as one
         * (doc/timing.md#how-a-trial-is-timed, step 6) */
        if (announce)
            b->batch_begin(tr, batch);
        struct timespec a, z;
        trace_range("sample", 1); /* a profiler's range, outside the timed region */
        clock_gettime(CLOCK_MONOTONIC, &a);
        if (!add_device) { /* the plain loop: a CPU call of 2 ns pays nothing more */
            rc = batch_run(impl, state, batch, &s, &err);
        } else {
            rc = batch_run_device(impl, state, batch, &s, &err);
        }
        clock_gettime(CLOCK_MONOTONIC, &z);
        trace_range("sample", 0);
        double ta = (double)a.tv_sec + (double)a.tv_nsec * 1e-9;
        double tz = (double)z.tv_sec + (double)z.tv_nsec * 1e-9;
        if (rc != 0) {
            wout_samples(fd, &buf);
            wout_done(fd, ST_FAILED, "%s", err.msg[0] ? err.msg : "run failed");
            goto out;
        }
        double wall = (double)(z.tv_sec - a.tv_sec) + (double)(z.tv_nsec - a.tv_nsec) * 1e-9;
        cold_facts_once(b, tr, &cold_told); /* warmups: 0 and no probe */
        /* a sample taken while the device was throttled is retaken, as
         * nvbench does (at most THROTTLE_RETAKES times a trial, and
         * THROTTLE_IN_A_ROW times in a row: after that they are kept, and
         * counted in throttled_kept, never silently) */
        if (check_on) {
            char why[256] = "";
            int c = b->sample_check(tr, why, sizeof why);
            if (c < 0) { /* cannot tell: say so, and stop asking */
                check_on = 0;
                snprintf(check_off, sizeof check_off, "off: %s",
                         why[0] ? why : "the backend cannot tell");
            } else if (c > 0 && !discard) { /* a discarded batch is dropped anyway */
                snprintf(throttle_why, sizeof throttle_why, "%s", why);
                if (retaking && throttled < THROTTLE_RETAKES && in_a_row < THROTTLE_IN_A_ROW) {
                    throttled++;
                    in_a_row++;
                    wout_samples(fd, &buf); /* a timeout keeps what was taken */
                    sleep_seconds(recovery);
                    recovery = recovery * 2 < RECOVERY_MAX ? recovery * 2 : RECOVERY_MAX;
                    n--;
                    continue;
                }
                retaking = 0; /* for the rest of the trial: kept and counted */
                kept_throttled++;
            } else if (c == 0) {
                recovery = RECOVERY_FIRST;
                in_a_row = 0;
            }
        }
        /* concurrent and parallel: processes time their own region (the
         * together call of a round, not its solo runs; from the barrier to
         * the last process's end), summed over the batch */
        s.seconds = core && isfinite(s.seconds) ? s.seconds / batch : wall / batch;
        if (plausible_sample(&s, counts, why, sizeof why) < 0) {
            wout_samples(fd, &buf);
            wout_done(fd, ST_FAILED, "%s", why);
            goto out;
        }
        if (!discard)
            trace_span("sample", n - 1, ta, tz, s.seconds, batch, &s);
        buf.s[buf.n++] = s;
        double now = (double)z.tv_sec + (double)z.tv_nsec * 1e-9;
        if ((buf.n == 256 || now - buf.last_flush > WOUT_FLUSH_EVERY) && !discard)
            wout_samples(fd, &buf);
        measured += wall;
        if (r->repeats > 0)
            stop = n >= r->repeats ? "repeats" : NULL;
        else if (!discard)
            stop = stop_add(&st, s.seconds, rule->rse, rule->min_samples, rule->max_samples,
                            rule->min_time, rule->max_time, measured, now - start);
        if (discard) { /* taken as a sample, then dropped: see above */
            buf.n--;
            measured = 0;
            stop = NULL;
            if (!discard_calls)
                discard_t0 = ta;
            discard_calls += batch;
            warm_calls += batch;
            warm_time += wall;
            n--;
            discard_left -= wall;
            if (discard_left <= 0) { /* one span for them all: a trace stays small */
                trace_span("discarded batches", -1, discard_t0, tz, (tz - discard_t0) / discard_calls,
                           discard_calls, NULL);
                discard = 0;
                timed_begin(impl, state);
            }
        }
    }
    wout_samples_end(fd, &buf);
    if (throttled) {
        char t[300];
        snprintf(t, sizeof t, "%d (%s)", throttled, throttle_why);
        wout_extra(NULL, "throttled_samples", t);
    }
    if (kept_throttled) {
        char t[32];
        snprintf(t, sizeof t, "%d", kept_throttled);
        wout_extra(NULL, "throttled_kept", t);
    }
    if (check_off[0])
        wout_extra(NULL, "throttle_check", check_off);
    if (r->repeats == 0) {
        wout_extra(NULL, "stop_reason", stop);
    }
    {
        char t[64];
        snprintf(t, sizeof t, "%ld", warm_calls);
        wout_extra(NULL, "warmup_calls", t);
        format_number(t, sizeof t, warm_time, 6);
        wout_extra(NULL, "warmup_time", t);
        if (!steady) { /* gave up: the last round against the fastest one */
            format_number(t, sizeof t, warm_ratio, 3);
            wout_extra(NULL, "warmup_unsteady", t);
        }
    }
    if (batch > 1) {
        char bs[16];
        snprintf(bs, sizeof bs, "%d", batch);
        wout_extra(NULL, "batch_size", bs);
    }
    if (r->energy) { /* doc/ceilings.md#energy-per-call: after the samples, untimed */
        trace_begin("energy", -1);
        rc = energy_measure(impl, state, batch, b, tr->device_index, counts[0], counts[1], wout_extra,
                            &err);
        trace_end();
        if (rc != 0) {
            wout_done(fd, ST_FAILED, "%s", err.msg[0] ? err.msg : "run failed");
            goto out;
        }
    }
    steady_carry_keep(&key, carried || warm_time >= min_warm, now_seconds());
    trace_begin("check", -1);
    int wrong = impl->check ? impl->check(state, &err) : 0;
    trace_end();
    if (wrong) { /* a command program that broke down is no wrong result */
        wout_done(fd, ST_FAILED, "%s%s",
                  impl == &cmd_workload && wrong == CMD_CHECK_BROKEN ? "" : "wrong result: ",
                  err.msg);
        goto out;
    }
    if (impl->extras) {
        columns_filter f = {current_exp, wout_extra, NULL, ""}; /* a reserved name fails it */
        impl->extras(state, &f, columns_filter_cb);
        if (f.bad[0]) {
            char list[1536];
            wout_done(fd, ST_FAILED, "%s: extras() returned column `%s`, which the runner writes; "
                 "rename it (reserved: %s)", tr->workload, f.bad,
                 columns_reserved_list(current_exp, list, sizeof list));
            goto out;
        }
    }
    const char *diag = impl->diagnostic ? impl->diagnostic(state) : NULL;
    if (diag) {
        char col[64], w[900]; /* one message: wout_extra drops what does not fit */
        snprintf(col, sizeof col, "%s_warning", impl->name);
        snprintf(w, sizeof w, "%s", diag);
        wout_extra(NULL, col, w);
    }
    wout_done(fd, ST_OK, NULL);
out:;
    stop_free(&st);
    /* the user's teardown first, so that its error can fail the trial */
    rn_error terr = {{0}};
    trace_begin("release", -1);
    int torn = impl->teardown ? impl->teardown(state, &terr) : 0;
    impl->release(state);
    trace_end();
    wcurve_free(&curve);
    wout_unhold(fd, torn, terr.msg);
}

void worker_run_trial(const experiment *e, const worker_cmd *cmd, int fd)
{
    resolved_trial r;
    trial_resolve(e, cmd->trial, &r);
    if (cmd->samples >= 0)
        r.repeats = cmd->samples;
    if (cmd->warmups >= 0)
        r.warmups = cmd->warmups;
    const rn_trial *tr = &r.t;
    wout_trial(fd, tr->device);
    current_exp = e;
    char why[1024];
    trace_start(cmd->trace);
    trace_begin("trial", (long)e->ids[cmd->trial]); /* its number in the trials table */

    if (!strcmp(tr->workload, "command")) { /* the user's program: doc/own-code.md */
        const rn_workload_impl *ci = cmd_workload_for(e, cmd->trial, &r, fd, why, sizeof why);
        if (ci) /* the CPU backend's select and cache flush; the program owns a GPU */
            run_loop(&r, ci, tr->device == RN_DEV_CPU ? backend_for(RN_DEV_CPU, why, sizeof why) : NULL,
                     NULL, &e->stop, fd);
        else
            wout_done(fd, ST_SKIPPED, "%s", why);
        goto out;
    }
    /* lua:PATH: no registry entry (dtypes, memory estimate); the file
     * states its own flops and bytes (run_loop asks after prepare) */
    const workload_desc *desc = r.lua || r.plugin ? NULL : workload_find(tr->workload);
    if (!r.lua && !r.plugin && !desc) {
        wout_done(fd, ST_FAILED, "unknown workload '%s'", tr->workload);
        goto out;
    }
    if (desc && !workload_supports_dtype(desc, rn_dtype_name(tr->dtype))) {
        wout_done(fd, ST_SKIPPED, "%s does not support dtype %s (it supports %s)", desc->name,
             rn_dtype_name(tr->dtype), desc->dtypes);
        goto out;
    }
    const char *no = procs_refusal(&r, desc); /* doc/timing.md#processes-and-threads */
    if (no) {
        wout_done(fd, ST_SKIPPED, "%s", no);
        goto out;
    }
    if (desc && !strcmp(desc->name, "concurrent")) {
        /* members name their own devices: the core drives their backends */
        run_loop(&r, &core_concurrent, NULL, desc, &e->stop, fd);
        goto out;
    }
    const rn_backend *b = backend_for(tr->device, why, sizeof why);
    if (!b) {
        wout_done(fd, ST_SKIPPED, "%s", why);
        goto out;
    }
    trace_marker(b);
    int ndev = b->device_count();
    if (tr->device_index >= ndev) {
        if (ndev == 0)
            wout_done(fd, ST_SKIPPED, "no CUDA device");
        else
            wout_done(fd, ST_SKIPPED, "%s:%d does not exist; this machine has %d", b->name,
                 tr->device_index, ndev);
        goto out;
    }
    int failed; /* a plugin is loaded here, in the worker (trial_impl.h) */
    const rn_workload_impl *impl = trial_impl(e, &r, b, desc, &failed, why, sizeof why);
    if (!impl) {
        wout_done(fd, failed ? ST_FAILED : ST_SKIPPED, "%s", why);
        goto out;
    }
    double need = desc && desc->memory ? desc->memory(tr) : 0, avail = 0;
    if (need > 0 && b->free_memory && b->free_memory(tr->device_index, &avail) == 0 &&
        need > 0.9 * avail) {
        char n1[32], n2[32];
        fmt_bytes(n1, sizeof n1, need);
        fmt_bytes(n2, sizeof n2, avail);
        wout_done(fd, ST_SKIPPED, "needs %s, %s available on %s", n1, n2,
             tr->device == RN_DEV_CPU ? "the host" : "the device");
        goto out;
    }
    if (r.processes) { /* the processes run impl; the worker times them */
        procs_spec ps = {r.processes, r.replicate, impl, b, desc, r.per_call};
        run_loop(&r, procs_workload(&ps), NULL, desc, &e->stop, fd);
        goto out;
    }
    run_loop(&r, impl, b, desc, &e->stop, fd);
out:
    trial_release(&r);
}

/* The next command into *cmd, 0 at EOF: a batch's commands (proto.h) are
 * read with one read(), not one each. */
static int next_cmd(int fd, worker_cmd *cmd)
{
    static char in[64 * sizeof(worker_cmd)];
    static size_t pos, len;
    while (len - pos < sizeof *cmd) {
        memmove(in, in + pos, len - pos);
        len -= pos;
        pos = 0;
        ssize_t n = read(fd, in + len, sizeof in - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0;
        len += (size_t)n;
    }
    memcpy(cmd, in + pos, sizeof *cmd);
    pos += sizeof *cmd;
    return 1;
}

void worker_main(const experiment *e, int cmd_fd, int res_fd)
{
    /* Ctrl-C reaches the whole process group: the supervisor decides. */
    signal(SIGINT, SIG_IGN);
    signal(SIGPIPE, SIG_DFL);
    /* what a trial's processes leave (a daemon whose parent ended) is
     * adopted by the worker, not init: cmd_sweep ends it */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    cmd_sweep_on_runner_death();
    for (;;) {
        worker_cmd cmd;
        if (!next_cmd(cmd_fd, &cmd))
            break;
        /* bytes something else wrote into the pipe (a program that opened
         * it through /proc) are no trial to run */
        if (cmd.trial < 0 || cmd.trial >= e->ntrials || cmd.more < 0 || cmd.more > 4096 ||
            cmd.samples < -1 || cmd.warmups < -1)
            _exit(3);
        wout_batch(cmd.more > 0); /* proto.h: a batch's verdicts go together */
        worker_run_trial(e, &cmd, res_fd);
        /* no process of the trial outlives it but a kept program
         * (doc/own-code.md#what-the-runner-guarantees) */
        cmd_sweep(cmd_workload_kept());
        if (cmd.more <= 0 || wout_retired()) {
            wout_batch(0);
            wout_flush(res_fd);
        }
        if (wout_retired())
            break;
    }
    cmd_workload_shutdown();
    backends_shutdown();
    _exit(0);
}
