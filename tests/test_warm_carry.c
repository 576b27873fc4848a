/* test_warm_carry.c - a backend's warm_carry (doc/timing.md#how-a-trial-is-timed,
 * step 4), with the fake GPU: a worker's next trial of the same workload on
 * the same device, started soon after the last one's calls, warms the
 * core's 0.01 s at least instead of the backend's min_warm; another
 * workload, another device or a longer gap pays min_warm again. */
#include "base/csv.h"
#include "scenario.h"
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs `yaml` (and hooks.lua with `hooks`, when not NULL) with the fake
 * CUDA backend and the environment's NAME=VALUE pairs of env (NULL-ended);
 * reads trials.csv into t and the run's wall time into *elapsed. */
static void run_carry(const char *yaml, const char *hooks, const char *const *env, csv_table *t,
                      double *elapsed)
{
    char *d = tmpdir(), exp[SCENARIO_PATH], out[SCENARIO_PATH], fake[4096], p[8192];
    if (hooks)
        file_at(d, "hooks.lua", hooks, p);
    experiment_at(d, "f.yaml", yaml, exp, out);
    snprintf(fake, sizeof fake, "%s/fake-1.so", getenv("RUNNER_FAKES"));
    setenv("RUNNER_CUDA_BACKEND", fake, 1);
    for (int i = 0; env[i]; i += 2)
        setenv(env[i], env[i + 1], 1);
    proc_out r;
    double a = mono_now();
    run_quiet(out, exp, &r);
    if (elapsed)
        *elapsed = mono_now() - a;
    for (int i = 0; env[i]; i += 2)
        unsetenv(env[i]);
    unsetenv("RUNNER_CUDA_BACKEND");
    cr_assert_eq(r.status, 0, "%s", r.err);
    newest_run_file(out, "f", "trials.csv", p, sizeof p);
    cr_assert_eq(csv_read(p, t), 0, "no trials.csv: %s", r.err);
    for (int row = 1; row < t->nrows; row++)
        cr_assert_str_eq(cell(t, row, "status"), "ok", "%s", cell(t, row, "reason"));
    free(d);
}

static double warmed(const csv_table *t, int row)
{
    return atof(cell(t, row, "warmup_time"));
}

/* FAKE_CALL_SECONDS: calls of 1 ms, steady from the start, so that the
 * steady-state rule ends a warmup soon after its least time (the fake's
 * bare calls of a few ns vary enough on a busy machine to keep the rounds
 * going up to warmup_time) */
#define CALLS "FAKE_CALL_SECONDS", "0.001"
static const char *const carry_env[] = {"FAKE_DEVICES", "1", "FAKE_MIN_WARM", "0.3",
                                        "FAKE_WARM_CARRY", "1", CALLS, NULL};

/* The first trial warms the fake's min_warm of 0.3 s; the next three, of
 * the same workload on the same device, carry its warmth. */
Test(warm_carry, later_trials_of_a_workload_on_a_device_warm_less, .timeout = 30)
{
    csv_table t;
    run_carry("workload: noop\ndevice: cuda\nrepeats: 3\nwarmup_time: 1s\n"
              "sweep:\n  seed: [1, 2, 3, 4]\n",
              NULL, carry_env, &t, NULL);
    cr_assert_eq(t.nrows, 5, "four trials");
    cr_assert_geq(warmed(&t, 1), 0.3, "trial 1 warmed %g s", warmed(&t, 1));
    for (int row = 2; row <= 4; row++)
        cr_assert_lt(warmed(&t, row), 0.25, "trial %d warmed %g s", row, warmed(&t, row));
    csv_free(&t);
}

/* noop, selftest, noop, selftest: each follows another workload, so each
 * pays min_warm; so does each of cuda:0, cuda:1, cuda:0, cuda:1. */
Test(warm_carry, another_workload_or_device_between_pays_min_warm_again, .timeout = 30)
{
    csv_table t;
    run_carry("device: cuda\nrepeats: 3\nwarmup_time: 1s\n"
              "sweep:\n  seed: [1, 2]\n  workload: [noop, selftest]\n",
              NULL, carry_env, &t, NULL);
    cr_assert_eq(t.nrows, 5, "four trials");
    for (int row = 1; row <= 4; row++)
        cr_assert_geq(warmed(&t, row), 0.3, "trial %d (%s) warmed %g s", row,
                      cell(&t, row, "workload"), warmed(&t, row));
    csv_free(&t);
    static const char *const two[] = {"FAKE_DEVICES", "2", "FAKE_MIN_WARM", "0.3",
                                      "FAKE_WARM_CARRY", "1", CALLS, NULL};
    run_carry("workload: noop\nrepeats: 3\nwarmup_time: 1s\n"
              "sweep:\n  seed: [1, 2]\n  device: ['cuda:0', 'cuda:1']\n",
              NULL, two, &t, NULL);
    cr_assert_eq(t.nrows, 5, "four trials");
    for (int row = 1; row <= 4; row++)
        cr_assert_geq(warmed(&t, row), 0.3, "trial %d (%s) warmed %g s", row,
                      cell(&t, row, "device"), warmed(&t, row));
    csv_free(&t);
}

/* warm_carry 0.1 s: trial 2 starts right after trial 1 and carries its
 * warmth; a before_trial hook keeps trial 3 waiting 0.3 s, longer than the
 * device stays warm, so it pays min_warm again (and trial 4, right after
 * it, carries that). */
Test(warm_carry, a_gap_longer_than_warm_carry_pays_min_warm_again, .timeout = 30)
{
    csv_table t;
    static const char *const env[] = {"FAKE_DEVICES", "1", "FAKE_MIN_WARM", "0.3",
                                      "FAKE_WARM_CARRY", "0.1", CALLS, NULL};
    run_carry("workload: noop\ndevice: cuda\nrepeats: 3\nwarmup_time: 1s\nhooks: hooks.lua\n"
              "sweep:\n  seed: [1, 2, 3, 4]\n",
              "return {before_trial = function(t)\n"
              "  if tonumber(t.seed) == 3 then\n"
              "    local c = os.clock()\n"
              "    while os.clock() - c < 0.3 do end\n"
              "  end\n"
              "end}\n",
              env, &t, NULL);
    cr_assert_eq(t.nrows, 5, "four trials");
    cr_assert_geq(warmed(&t, 1), 0.3, "trial 1 warmed %g s", warmed(&t, 1));
    cr_assert_lt(warmed(&t, 2), 0.25, "trial 2 warmed %g s", warmed(&t, 2));
    cr_assert_geq(warmed(&t, 3), 0.3, "trial 3 warmed %g s", warmed(&t, 3));
    cr_assert_lt(warmed(&t, 4), 0.25, "trial 4 warmed %g s", warmed(&t, 4));
    csv_free(&t);
}

/* order: interleaved: each round prepares and warms its trial afresh, one
 * sample each; the rounds take the two trials in turns, so only the first
 * round of the first trial pays min_warm (warmup_time sums the rounds). */
Test(warm_carry, interleaved_rounds_carry_the_warmth_too, .timeout = 30)
{
    csv_table t;
    run_carry("workload: noop\ndevice: cuda\nrepeats: 3\nwarmup_time: 1s\norder: interleaved\n"
              "sweep:\n  seed: [1, 2]\n",
              NULL, carry_env, &t, NULL);
    cr_assert_eq(t.nrows, 3, "two trials");
    for (int row = 1; row <= 2; row++)
        cr_assert_str_eq(cell(&t, row, "samples"), "3");
    cr_assert_geq(warmed(&t, 1), 0.3, "trial 1 warmed %g s", warmed(&t, 1));
    cr_assert_lt(warmed(&t, 2), 0.25, "trial 2 warmed %g s in three rounds", warmed(&t, 2));
    csv_free(&t);
}

/* Warm once, measure many (issue 38): 200 trials of 5 samples with a
 * min_warm of 0.05 s warm 10 s at least without the carry; carried, most
 * trials warm less than min_warm and the run takes about half as long (on
 * the 2-core VM at a load of 8: 8.7 s against 17.3 s; the steady-state
 * rule, the samples and the discarded batches all stretch with the load).
 * Both runs in turn, so that a busy machine slows both.  A timing test:
 * the wall times need the machine alone. */
Test(timing, a_sweep_of_200_trials_warms_once, .timeout = 180)
{
    skip_unless_timing();
    const char *yaml = "workload: noop\ndevice: cuda\nrepeats: 5\n"
                       "sweep:\n  seed: {range: [1, 200]}\n";
    csv_table t;
    double el, el_off;
    static const char *const off[] = {"FAKE_DEVICES", "1", "FAKE_MIN_WARM", "0.05", CALLS, NULL};
    run_carry(yaml, NULL, off, &t, &el_off);
    csv_free(&t);
    static const char *const on[] = {"FAKE_DEVICES", "1", "FAKE_MIN_WARM", "0.05",
                                     "FAKE_WARM_CARRY", "1", CALLS, NULL};
    run_carry(yaml, NULL, on, &t, &el);
    cr_assert_eq(t.nrows, 201, "200 trials");
    cr_assert_geq(warmed(&t, 1), 0.05, "trial 1 warmed %g s", warmed(&t, 1));
    int less = 0;
    for (int row = 2; row <= 200; row++)
        less += warmed(&t, row) < 0.05;
    cr_assert_geq(less, 150, "%d of trials 2-200 warmed less than min_warm", less);
    fprintf(stderr, "200 trials: %.2f s carried, %.2f s not; %d of 199 warmed < 0.05 s\n", el,
            el_off, less);
    cr_assert_lt(el, 0.7 * el_off, "the run took %.2f s carried, %.2f s not", el, el_off);
    csv_free(&t);
}
