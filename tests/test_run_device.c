/* test_run_device.c - the worker's side of the backend hooks, with the fake
 * GPU: min_warm, device time, the throttle check, cold facts, a GPU fault. */
#include "base/csv.h"
#include "experiment/machine/sysload.h"
#include "scenario.h"
#include <criterion/criterion.h>
#include <ctype.h>
#include <math.h>
#include <dirent.h>
#include <sched.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *fake_report; /* report.md of the last run_fake */

static void run_fake(const char *yaml, const char *env, const char *val, proc_out *r,
                     csv_table *t, double *elapsed)
{
    char *d = tmpdir(), exp[SCENARIO_PATH], out[SCENARIO_PATH], fake[4096], p[8192];
    experiment_at(d, "f.yaml", yaml, exp, out);
    snprintf(fake, sizeof fake, "%s/fake-1.so", getenv("RUNNER_FAKES"));
    setenv("RUNNER_CUDA_BACKEND", fake, 1);
    setenv("FAKE_DEVICES", "1", 1);
    if (env)
        setenv(env, val, 1);
    struct timespec a, z;
    clock_gettime(CLOCK_MONOTONIC, &a);
    run_quiet(out, exp, r);
    clock_gettime(CLOCK_MONOTONIC, &z);
    if (elapsed)
        *elapsed = (double)(z.tv_sec - a.tv_sec) + (double)(z.tv_nsec - a.tv_nsec) * 1e-9;
    unsetenv("RUNNER_CUDA_BACKEND");
    unsetenv("FAKE_DEVICES");
    if (env)
        unsetenv(env);
    newest_run_file(out, "f", "trials.csv", p, sizeof p);
    cr_assert_eq(csv_read(p, t), 0, "no trials.csv: %s", r->err);
    newest_run_file(out, "f", "report.md", p, sizeof p);
    free(fake_report);
    fake_report = read_all(p);
    free(d);
}

/* A backend's min_warm (doc/timing.md#how-a-trial-is-timed, step 4): the fake
 * asks for 0.3 s, so both trials warm that long, the second too, where the
 * core's own floor is 0.01 s for a worker's later trials (0.05 s for its
 * first); a shorter `warmup_time` still caps it. */
Test(run, a_backend_min_warm_holds_every_trial_warming, .timeout = 30)
{
    proc_out r;
    csv_table t;
    run_fake("workload: noop\ndevice: cuda\nrepeats: 3\nwarmup_time: 1s\nsweep:\n  seed: [1, 2]\n",
             "FAKE_MIN_WARM", "0.3", &r, &t, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    for (int row = 1; row <= 2; row++) {
        expect_trial(&t, row, "ok", NULL);
        cr_assert_geq(atof(cell(&t, row, "warmup_time")), 0.3, "trial %d warmed %s s", row,
                      cell(&t, row, "warmup_time"));
    }
    csv_free(&t);
    run_fake("workload: noop\ndevice: cuda\nrepeats: 3\nwarmup_time: 0.02s\n"
             "sweep:\n  seed: [1, 2]\n",
             "FAKE_MIN_WARM", "0.3", &r, &t, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_lt(atof(cell(&t, 2, "warmup_time")), 0.25, "warmed %s s past warmup_time: 0.02s",
                 cell(&t, 2, "warmup_time"));
    csv_free(&t);
}

/* A batch's device time is the mean over its calls, as its wall time is
 * (doc/timing.md#how-a-trial-is-timed, step 6): the fake's calls take 1, 2, 3,
 * 1, 2, 3 ms of device time, so batches of two read 1.5, 2.5 and 2 ms;
 * the last call of each batch alone read 1, 2 or 3 ms. */
Test(run, a_batch_device_time_is_the_mean_of_its_calls, .timeout = 30)
{
    proc_out r;
    csv_table t;
    run_fake("workload: noop\ndevice: cuda\nrepeats: 6\nbatch: 2\n", NULL, NULL, &r, &t, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    expect_trial(&t, 1, "ok", NULL);
    double lo = atof(cell(&t, 1, "device_min")), hi = atof(cell(&t, 1, "device_max"));
    cr_assert(fabs(lo - 0.0015) < 1e-9 && fabs(hi - 0.0025) < 1e-9, "device times %g to %g", lo,
              hi);
    csv_free(&t);
}

/* The worker announces every framed batch (batch_begin, doc/timing.md#how-a-trial-is-timed,
 * step 6): the discarded batches and the 6 samples, each with its batch size
 * (and the steady rounds' batches, which no sample_check frames),
 * so that a backend may time the batch as one pair of events; the fake
 * reports the batch's device time on its last call only (the others NAN),
 * fails a batch that got fewer calls than announced, and the samples still
 * read the mean over their calls. */
Test(run, every_sample_batch_is_announced_to_the_backend, .timeout = 30)
{
    proc_out r;
    csv_table t;
    run_fake("workload: noop\ndevice: cuda\nrepeats: 6\nbatch: 3\n", NULL, NULL, &r, &t, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(cell(&t, 1, "status"), "ok", "%s", cell(&t, 1, "reason"));
    int begins = atoi(cell(&t, 1, "batch_begins")), checks = atoi(cell(&t, 1, "sample_checks"));
    cr_assert_geq(begins, checks, "an announcement per framed batch: %d for %d", begins, checks);
    cr_assert_str_eq(cell(&t, 1, "lone_calls"), "1", "calls outside an announced batch: %s",
                     cell(&t, 1, "lone_calls"));
    cr_assert_gt(begins, 6, "the discarded batches were announced too: %d", begins);
    /* three calls of 1, 2 and 3 ms in some order: every batch's mean is 2 ms */
    cr_assert(fabs(atof(cell(&t, 1, "device_median")) - 0.002) < 1e-9, "device median %s",
              cell(&t, 1, "device_median"));
    csv_free(&t);
}

/* The batch probe and the steady-state rounds announce their batches too
 * (batch.h batch_announce): a backend that times a batch as one (CUDA's
 * io: without: the calls run back to back, one wait at the end) must see
 * them run as the samples run, or the probe sizes the batch by synchronised
 * calls (a ~10 us kernel's samples then lasted about 0.55 ms, not the 1 ms
 * aimed at) and steadiness is judged in another regime.  Only the warmups
 * run alone: every other call is in an announced batch. */
Test(run, the_batch_probe_and_steady_rounds_are_announced, .timeout = 30)
{
    proc_out r;
    csv_table t;
    run_fake("workload: noop\ndevice: cuda\nrepeats: 4\nwarmups: 3\nwarmup_time: 0.05s\n", NULL,
             NULL, &r, &t, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(cell(&t, 1, "status"), "ok", "%s", cell(&t, 1, "reason"));
    cr_assert_str_eq(cell(&t, 1, "lone_calls"), "3", "calls outside an announced batch: %s",
                     cell(&t, 1, "lone_calls"));
    cr_assert_gt(atoi(cell(&t, 1, "batch_size")), 1, "batch %s", cell(&t, 1, "batch_size"));
    csv_free(&t);
}

/* Throttled samples are retaken after a growing recovery delay (50 + 100 +
 * 200 ms for three), each sample is framed by sample_begin and sample_check
 * (warmups: 0, so that no discarded batch takes the first checks). */
Test(run, throttled_samples_are_retaken_after_a_recovery_delay, .timeout = 30)
{
    proc_out r;
    csv_table t;
    double el;
    run_fake("workload: noop\ndevice: cuda\nrepeats: 5\nbatch: 1\nwarmups: 0\n", "FAKE_THROTTLE", "3",
             &r, &t, &el);
    cr_assert_eq(r.status, 0, "%s", r.err);
    expect_trial(&t, 1, "ok", NULL);
    cr_assert_str_eq(cell(&t, 1, "samples"), "5");
    cr_assert(!strncmp(cell(&t, 1, "throttled_samples"), "3 (SM clock 900 MHz", 19), "got %s",
              cell(&t, 1, "throttled_samples"));
    /* the fake fails its check when sample_begin did not come first */
    cr_assert_str_eq(cell(&t, 1, "sample_begins"), "8");
    cr_assert_str_eq(cell(&t, 1, "sample_checks"), "8");
    cr_assert_eq(csv_col(&t, "throttled_kept"), -1, "no throttled sample was kept");
    cr_assert_eq(csv_col(&t, "throttle_check"), -1, "the check was on");
    cr_assert_geq(el, 0.35, "three recovery delays take 0.35 s; the run took %.3f s", el);
    csv_free(&t);
}

/* The discarded batches (doc/timing.md#how-a-trial-is-timed, step 5) are framed
 * by sample_begin and sample_check like samples, so that the first timed
 * sample follows the same device calls as every later one (on an H200 the
 * first sample of short CUDA trials read up to 1.4x the median when only
 * timed samples were stamped); a throttle seen there is neither retaken nor
 * counted, since the batch is dropped anyway. */
Test(run, discarded_batches_are_framed_by_the_throttle_check, .timeout = 30)
{
    proc_out r;
    csv_table t;
    run_fake("workload: noop\ndevice: cuda\nrepeats: 5\nbatch: 1\nwarmups: 1\n", "FAKE_THROTTLE",
             "3", &r, &t, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    expect_trial(&t, 1, "ok", NULL);
    cr_assert_str_eq(cell(&t, 1, "samples"), "5");
    cr_assert_eq(csv_col(&t, "throttled_samples"), -1, "the discarded batches took the 3 throttles");
    cr_assert_eq(csv_col(&t, "throttled_kept"), -1);
    int begins = atoi(cell(&t, 1, "sample_begins")), checks = atoi(cell(&t, 1, "sample_checks"));
    cr_assert_eq(begins, checks, "every check after its begin");
    cr_assert_gt(checks, 5 + 3, "the discarded batches were checked too: %d checks", checks);
    csv_free(&t);
}

/* A device throttled for good: after 6 retakes in a row the samples are kept
 * and counted, not retaken for ever and not kept silently. */
Test(run, samples_of_a_device_throttled_for_good_are_kept_and_counted, .timeout = 30)
{
    proc_out r;
    csv_table t;
    run_fake("workload: noop\ndevice: cuda\nrepeats: 4\nbatch: 1\n", "FAKE_THROTTLE", "-1", &r, &t,
             NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(cell(&t, 1, "samples"), "4");
    cr_assert(!strncmp(cell(&t, 1, "throttled_samples"), "6 (", 3), "got %s",
              cell(&t, 1, "throttled_samples"));
    cr_assert_str_eq(cell(&t, 1, "throttled_kept"), "4");
    cr_assert(fake_report && strstr(fake_report, "kept 4 samples taken while the device was "
                                                 "throttled"),
              "no warning in report.md");
    csv_free(&t);
}

/* sample_check answering "cannot tell" turns the check off for the trial,
 * with the reason in throttle_check. */
Test(run, a_throttle_check_that_cannot_tell_is_recorded_as_off, .timeout = 30)
{
    proc_out r;
    csv_table t;
    run_fake("workload: noop\ndevice: cuda\nrepeats: 5\nbatch: 1\n", "FAKE_CHECK", "unknown", &r,
             &t, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(cell(&t, 1, "samples"), "5");
    cr_assert_str_eq(cell(&t, 1, "throttle_check"), "off: NVML is not loaded (fake)");
    cr_assert_str_eq(cell(&t, 1, "sample_checks"), "1", "asked once, then no more");
    cr_assert_eq(csv_col(&t, "throttled_samples"), -1);
    cr_assert(fake_report && strstr(fake_report, "throttle check off: NVML is not loaded (fake)"));
    csv_free(&t);
}

/* cold_facts after the first call: cold_context and cold_module for the
 * trial that paid them (the first of the worker), beside `cold`. */
Test(run, cold_facts_become_columns, .timeout = 30)
{
    proc_out r;
    csv_table t;
    run_fake("workload: noop\ndevice: cuda\nrepeats: 3\nsweep:\n  warmups: [1, 0]\n", NULL, NULL,
             &r, &t, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(t.nrows, 3);
    cr_assert_str_eq(cell(&t, 1, "cold_context"), "0.25");
    cr_assert_str_eq(cell(&t, 1, "cold_module"), "0.004");
    cr_assert_neq(cell(&t, 1, "cold")[0], '\0', "cold stays");
    /* the same worker: the second trial paid nothing of the kind */
    cr_assert_str_eq(cell(&t, 2, "cold_context"), "");
    cr_assert_str_eq(cell(&t, 2, "cold"), "", "warmups: 0 has no cold");
    csv_free(&t);
}

/* Device times (CUDA events) get the wall-time statistics in trials.csv;
 * a CPU trial leaves them empty.  The fake's device times are 1, 2, 3 ms. */
Test(run, device_time_statistics_in_trials_csv, .timeout = 30)
{
    proc_out r;
    csv_table t;
    run_fake("workload: noop\nrepeats: 6\nbatch: 1\nwarmups: 0\nsweep:\n  device: [cpu, cuda]\n",
             NULL, NULL, &r, &t, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_gt(csv_col(&t, "device_median"), csv_col(&t, "gbps"));
    cr_assert_str_eq(cell(&t, 1, "device_median"), "");
    cr_assert_str_eq(cell(&t, 1, "device_median_ci_low"), "");
    cr_assert_str_eq(cell(&t, 2, "device_min"), "0.001");
    cr_assert_str_eq(cell(&t, 2, "device_median"), "0.002");
    cr_assert_str_eq(cell(&t, 2, "device_max"), "0.003");
    /* the median's interval over 6 samples: [min, max], 1 - 2 / 2^6 */
    double lo = atof(cell(&t, 2, "device_median_ci_low"));
    double hi = atof(cell(&t, 2, "device_median_ci_high"));
    cr_assert(lo < 0.002 && hi > 0.002 && lo > 0.0009 && hi < 0.0031, "CI [%g, %g]", lo, hi);
    cr_assert_str_eq(cell(&t, 2, "device_ci_level"), "0.96875");
    cr_assert_str_eq(cell(&t, 1, "ci_level"), "0.96875");
    cr_assert_str_eq(cell(&t, 2, "device_mean"), "0.002");
    csv_free(&t);
}

/* A CUDA member faulting in a `concurrent` trial (device cpu) leaves a
 * sticky error in its worker: the worker retires, so the next CUDA trial
 * runs in a fresh one instead of failing with the stale error. */
Test(run, a_gpu_fault_in_a_concurrent_trial_retires_the_worker, .timeout = 30)
{
    proc_out r;
    csv_table t;
    run_fake("repeats: 2\nparams:\n  members:\n"
             "    - {workload: selftest, device: cuda, action: fault}\n"
             "    - {workload: noop, device: cpu}\n"
             "sweep:\n  case:\n    - {label: fault, workload: concurrent, device: cpu}\n"
             "    - {label: after, workload: noop, device: cuda}\n",
             NULL, NULL, &r, &t, NULL);
    cr_assert_eq(r.status, 1, "%s", r.err);
    cr_assert_eq(t.nrows, 3);
    cr_assert_str_eq(cell(&t, 1, "status"), "failed");
    cr_assert(strstr(cell(&t, 1, "reason"), "cudaErrorIllegalAddress"), "%s",
              cell(&t, 1, "reason"));
    cr_assert_str_eq(cell(&t, 2, "status"), "ok", "stale error: %s", cell(&t, 2, "reason"));
    csv_free(&t);
}

/* Issue 15: every ok trial's interval holds its median; no duration in
 * trials.csv is negative; report.md prints none negative, and the CI column
 * says its own coverage where 5 samples cannot reach 95 %. */
Test(run, intervals_hold_the_median_and_no_duration_is_negative, .timeout = 60)
{
    proc_out r;
    csv_table t;
    run_fake("batch: 1\nsweep:\n  repeats: [5, 40]\n"
             "  case:\n    - {label: none, workload: selftest, action: none}\n"
             "    - {label: sleep, workload: selftest, action: sleep, seconds: 0.0005}\n"
             "    - {label: noop, workload: noop, device: cuda}\n",
             NULL, NULL, &r, &t, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    static const char *const dur[] = {"cold", "min", "median", "mean", "stddev", "max",
                                      "median_ci_low", "median_ci_high", "warmup_time",
                                      "device_min", "device_median", "device_median_ci_low",
                                      "device_median_ci_high"};
    for (int i = 1; i < t.nrows; i++) {
        cr_assert_str_eq(cell(&t, i, "status"), "ok", "row %d: %s", i, cell(&t, i, "reason"));
        assert_row_durations(&t, i, dur, sizeof dur / sizeof dur[0]);
        double level = atof(cell(&t, i, "ci_level"));
        if (!strcmp(cell(&t, i, "samples"), "5"))
            cr_assert_float_eq(level, 0.9375, 1e-12);
        else
            cr_assert(level >= 0.95 && level < 0.97, "row %d: level %g", i, level);
    }
    cr_assert(fake_report && strstr(fake_report, "(93.75 %)"), "%s", fake_report);
    for (const char *p = fake_report; (p = strstr(p, " -")); p++)
        cr_assert(!(p[2] >= '0' && p[2] <= '9'), "a negative number in report.md: %.40s", p);
    csv_free(&t);
}
