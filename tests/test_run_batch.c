/* test_run_batch.c - batches of small trials (doc/timing.md#batches-of-small-trials):
 * a worker that crashes inside a batch charges the crash to its own trial,
 * and SIGKILL at any moment of a run of small trials loses and duplicates
 * nothing after --resume, in batches and in rounds of blocks. */
#include "base/csv.h"
#include "scenario.h"
#include <criterion/criterion.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Small trials go in batches (30 that do nothing, then 30 that segfault,
 * four times over: batches run into the crashes); the segfaulting ones
 * each fail with the crash, and every other trial is ok with its one
 * sample (none is charged with a neighbour's crash, none is lost). */
Test(run, a_crash_in_a_batch_fails_its_own_trial_only, .timeout = 120)
{
    char exp[SCENARIO_PATH], out[SCENARIO_PATH];
    char *d = experiment_in("b.yaml",
                            "workload: selftest\nrepeats: 1\nwarmups: 0\nbatch: 1\n"
                            "sweep:\n  size: {range: [1, 4]}\n  action: [none, segfault]\n"
                            "  seed: {range: [1, 30]}\n",
                            exp, out);
    setenv("RUNNER_CUDA_BACKEND", "/nonexistent", 1);
    proc_out r;
    run_quiet(out, exp, &r);
    unsetenv("RUNNER_CUDA_BACKEND");
    cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
    csv_table t;
    read_newest(out, "b", "trials.csv", &t);
    cr_assert_eq(t.nrows, 241, "%d rows", t.nrows);
    int crashed = 0;
    for (int i = 1; i < t.nrows; i++) {
        cr_assert_eq(atoi(t.rows[i][0]), i - 1, "rows in trial order");
        const char *action = cell(&t, i, "action"), *status = cell(&t, i, "status");
        if (!strcmp(action, "segfault")) {
            cr_assert_str_eq(status, "failed", "trial %d", i - 1);
            cr_assert(strstr(cell(&t, i, "reason"), "the worker crashed: signal 11"), "trial %d: %s",
                      i - 1, cell(&t, i, "reason"));
            crashed++;
        } else {
            cr_assert_str_eq(status, "ok", "trial %d (%s): %s", i - 1, action, cell(&t, i, "reason"));
            cr_assert_str_eq(cell(&t, i, "samples"), "1", "trial %d", i - 1);
        }
    }
    cr_assert_eq(crashed, 120);
    csv_free(&t);
    free(d);
}

/* Experiment `yaml` (trials 0 .. n-1) run in D/out and SIGKILLed at random
 * moments (kills at most `most`, after 0.1-0.4 s), resumed each time:
 * every trial ends up exactly once, with `samples` samples, no row torn;
 * blocks: each row's `blocks` cell names two blocks or more.  The kills. */
static int kill_resume_check(const char *yaml, int n, int most, int samples, int blocks)
{
    char *d = tmpdir();
    write_text(d, "k.yaml", yaml);
    setenv("RUNNER_CUDA_BACKEND", "/nonexistent", 1);
    char exp[4096], out[4096];
    snprintf(exp, sizeof exp, "%s/k.yaml", d);
    snprintf(out, sizeof out, "%s/out", d);
    proc_out r;
    int kills = kill_and_resume(exp, out, 40, most, 100000, 300000, &r);
    unsetenv("RUNNER_CUDA_BACKEND");
    cr_assert_eq(r.status, 0, "%s", r.err);
    csv_table t;
    read_newest(out, "k", "trials.csv", &t);
    cr_assert(!t.torn);
    cr_assert_eq(t.nrows, n + 1, "%d trials, after %d kills", t.nrows - 1, kills);
    int *seen = xcalloc((size_t)n, sizeof *seen), *per = xcalloc((size_t)n, sizeof *per);
    int bc = csv_col(&t, "blocks");
    cr_assert(!blocks || bc >= 0);
    for (int i = 1; i < t.nrows; i++) {
        cr_assert_eq(t.nfields[i], t.nfields[0], "row %d is torn", i);
        int id = atoi(t.rows[i][0]);
        cr_assert(id >= 0 && id < n);
        seen[id]++;
        if (blocks)
            cr_assert(strchr(t.rows[i][bc], ' '), "trial %d blocks '%s'", id, t.rows[i][bc]);
    }
    for (int i = 0; i < n; i++)
        cr_assert_eq(seen[i], 1, "trial %d appears %d times", i, seen[i]);
    csv_free(&t);
    char p[4096];
    newest_run_file(out, "k", "samples.csv", p, sizeof p);
    cr_assert_eq(csv_read(p, &t), 0);
    for (int i = 1; i < t.nrows; i++)
        per[atoi(t.rows[i][0])]++;
    for (int i = 0; i < n; i++)
        cr_assert_eq(per[i], samples, "trial %d has %d samples", i, per[i]);
    csv_free(&t);
    free(seen);
    free(per);
    free(d);
    return kills;
}

/* SIGKILL at random moments of a run of 20,000 one-sample noop trials (in
 * batches: a kill lands inside one most of the time), resumed each time:
 * every trial ends up exactly once, with its one sample, and no row is torn. */
Test(run, sigkill_in_batches_and_resume_lose_and_duplicate_nothing, .timeout = 240)
{
    int kills = kill_resume_check("workload: noop\nrepeats: 1\nwarmups: 0\nbatch: 1\n"
                                  "sweep:\n  seed: {range: [1, 20000]}\n",
                                  20000, 8, 1, 0);
    cr_log_info("kill-and-resume in batches: %d kills, 20000 trials, 0 lost, 0 duplicated", kills);
}

/* Trials with blocks are taken in rounds, eight a group: SIGKILLs at
 * random moments and a resume lose and duplicate nothing, and every trial
 * has all its samples, its blocks whole (doc/timing.md#blocks-across-processes-and-cpus). */
Test(run, sigkill_in_block_rounds_and_resume_lose_and_duplicate_nothing, .timeout = 240)
{
    int kills = kill_resume_check("workload: noop\nthreads: 1\nrepeats: 6\nwarmups: 0\n"
                                  "sweep:\n  seed: {range: [1, 40]}\n",
                                  40, 5, 6, 1);
    cr_log_info("kill-and-resume in block rounds: %d kills", kills);
}
