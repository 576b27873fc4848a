/* test_compare_blocks.c - verdicts that hold on a shared machine
 * (doc/compare.md#what-one-run-can-show): a trial's worker blocks are its
 * replicates, every verdict states the change it could have detected, and a
 * comparison that could not see a change as large as the threshold, or
 * whose CPUs ran at other speeds, is `inconclusive` (exit 3, never 0).
 * And on the run side (doc/timing.md#blocks-across-processes-and-cpus):
 * blocks on the CPUs in turn, the CPUs' speed in meta.json, a short trial on
 * a loaded machine flagged busy, a spawn-corrected sample at 0 flagged. */
#include "base/csv.h"
#include "base/util.h"
#include "runproc.h"

#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* One trial of a hand-made run: block b's samples are base x speed[cpu of
 * b] x (1 + jitter[b]); blocks "0:5 1:5 ..." (NULL: no blocks column
 * value, an older run). */
typedef struct trial_spec {
    const char *size;
    double base;
    int nblocks;
    double slow0, slow1; /* the two CPUs' factors */
    const double *jitter;
    const char *blocks; /* the cell as written, NULL: made from the blocks */
    const char *clock;  /* clock_gflops cell */
} trial_spec;

#define PER_BLOCK 5

static char *make_run(const char *dir, const char *name, const trial_spec *s, int n,
                      const char *meta)
{
    char *d = xasprintf("%s/%s", dir, name);
    cr_assert_eq(make_dirs(d), 0);
    strbuf t = {0}, m = {0};
    sb_puts(&t, "trial,size,status,reason,samples,median,blocks,clock_gflops,noise\n");
    sb_puts(&m, "trial,sample,seconds,device_seconds\n");
    for (int i = 0; i < n; i++) {
        strbuf b = {0};
        int k = 0;
        for (int j = 0; j < s[i].nblocks; j++) {
            sb_printf(&b, "%s%d:%d", j ? " " : "", j % 2, PER_BLOCK);
            for (int q = 0; q < PER_BLOCK; q++)
                sb_printf(&m, "%d,%d,%.9g,\n", i, k++,
                          s[i].base * (j % 2 ? s[i].slow1 : s[i].slow0) *
                              (1 + (s[i].jitter ? s[i].jitter[j] : 0)) * (1 + 0.0005 * q));
        }
        sb_printf(&t, "%d,%s,ok,,%d,,%s,%s,\n", i, s[i].size, k, s[i].blocks ? s[i].blocks : b.s,
                  s[i].clock ? s[i].clock : "");
        sb_free(&b);
    }
    write_text(d, "trials.csv", t.s);
    write_text(d, "samples.csv", m.s);
    write_text(d, "meta.json", meta ? meta : "{\"host\": {\"hostname\": \"vm\", \"online_cpus\": 2}}\n");
    sb_free(&t);
    sb_free(&m);
    return d;
}

/* runner compare A B --format FMT: its status, its output in *out (malloc'd). */
static int compare_out(const char *a, const char *b, const char *fmt, char **out)
{
    proc_out r;
    run((char *[]){"compare", (char *)a, (char *)b, "--format", (char *)fmt, NULL}, &r);
    *out = xstrdup(r.out);
    cr_assert(r.status != 2, "%s%s", r.out, r.err);
    return r.status;
}

static int compare_csv(const char *a, const char *b, csv_table *v)
{
    char *out;
    int rc = compare_out(a, b, "csv", &out);
    csv_parse(out, strlen(out), v);
    cr_assert_gt(v->nrows, 1, "%s", out);
    return rc;
}

static const char *col_of(const csv_table *v, const char *size, const char *col)
{
    int sc = csv_col(v, "size"), c = csv_col(v, col);
    cr_assert(c >= 0, "no column %s", col);
    for (int r = 1; r < v->nrows; r++)
        if (!strcmp(v->rows[r][sc], size))
            return v->rows[r][c];
    cr_assert_fail("no row for size %s", size);
    return NULL;
}

static const double J1[] = {0.01, -0.01, 0.0, 0.012, -0.008, 0.004};
static const double J2[] = {-0.006, 0.01, 0.008, -0.01, 0.002, -0.004};

/* The case: the two CPUs 1.5x apart, and which one is slow changed
 * between the runs.  Every run holds both speeds, so the unchanged code is
 * `same`, exit 0; a run in one mode only (all its blocks on the slow CPU)
 * would read 1.25x slower. */
Test(compare_blocks, two_speed_modes_across_processes_give_no_false_slower, .timeout = 30)
{
    char *d = tmpdir();
    trial_spec o[] = {{"1", 1e-3, 6, 1.0, 1.5, J1, NULL, NULL}};
    trial_spec n[] = {{"1", 1e-3, 6, 1.5, 1.0, J2, NULL, NULL}};
    char *a = make_run(d, "a", o, 1, NULL), *b = make_run(d, "b", n, 1, NULL);
    csv_table v;
    cr_expect_eq(compare_csv(a, b, &v), 0);
    cr_expect_str_eq(col_of(&v, "1", "verdict"), "same");
    cr_expect_str_eq(col_of(&v, "1", "basis"), "blocks");
    double det = atof(col_of(&v, "1", "detectable"));
    cr_expect(det > 0 && det < 0.05, "detectable %g", det);
    csv_free(&v);
    free(a);
    free(b);
    free(d);
}

/* A real 1.5x with tight blocks is slower (exit 1); the text form states
 * the detectable change of every verdict. */
Test(compare_blocks, compare_prints_the_detectable_change, .timeout = 30)
{
    char *d = tmpdir();
    trial_spec o[] = {{"1", 1e-3, 6, 1.0, 1.4, J1, NULL, NULL}, {"2", 1e-3, 6, 1.0, 1.4, J1, NULL, NULL}};
    trial_spec n[] = {{"1", 1.5e-3, 6, 1.0, 1.4, J2, NULL, NULL}, {"2", 1e-3, 6, 1.0, 1.4, J2, NULL, NULL}};
    char *a = make_run(d, "a", o, 2, NULL), *b = make_run(d, "b", n, 2, NULL);
    char *out;
    cr_expect_eq(compare_out(a, b, "text", &out), 1);
    cr_expect(strstr(out, "detectable"), "%s", out);
    cr_expect(strstr(out, "\u00b1"), "%s", out);
    cr_expect(strstr(out, "slower"), "%s", out);
    free(out);
    csv_table v;
    cr_expect_eq(compare_csv(a, b, &v), 1);
    cr_expect_str_eq(col_of(&v, "1", "verdict"), "slower");
    cr_expect_str_eq(col_of(&v, "2", "verdict"), "same");
    csv_free(&v);
    free(a);
    free(b);
    free(d);
}

/* Workers in two speed modes 1.85x apart, the modes not the CPUs (both
 * CPUs ran blocks of both), in other shares in the two runs: the fast
 * modes are compared (basis `modes`), so the unchanged code is `same`, and
 * the code made 1.5x slower, in a run with more slow workers, `slower`.
 * The means over all blocks would read 0.74x and 1.13x. */
Test(compare_blocks, two_speed_modes_in_other_shares_compare_the_fast_modes, .timeout = 30)
{
    static const double many_slow[] = {0.0, 0.85, 0.86, 0.01, 0.85, -0.01, 0.84, 0.86, 0.005, 0.85};
    static const double few_slow[] = {0.01, 0.0, 0.005, 0.85, -0.005, 0.0, 0.01, 0.86, -0.01, 0.005};
    char *d = tmpdir();
    trial_spec o[] = {{"1", 1e-3, 10, 1.0, 1.0, many_slow, NULL, "100"}};
    trial_spec n[] = {{"1", 1e-3, 10, 1.0, 1.0, few_slow, NULL, "100"}};
    trial_spec s[] = {{"1", 1.5e-3, 10, 1.0, 1.0, many_slow, NULL, "100"}};
    char *a = make_run(d, "a", o, 1, NULL), *b = make_run(d, "b", n, 1, NULL);
    char *c = make_run(d, "c", s, 1, NULL);
    csv_table v;
    cr_expect_eq(compare_csv(a, b, &v), 0);
    cr_expect_str_eq(col_of(&v, "1", "verdict"), "same");
    cr_expect_str_eq(col_of(&v, "1", "basis"), "modes");
    cr_expect_str_eq(col_of(&v, "1", "why"), "fast mode: 4 of 10 blocks, 8 of 10");
    double r = atof(col_of(&v, "1", "ratio"));
    cr_expect(fabs(r - 1) < 0.02, "ratio %g", r);
    csv_free(&v);
    cr_expect_eq(compare_csv(b, c, &v), 1);
    cr_expect_str_eq(col_of(&v, "1", "verdict"), "slower");
    r = atof(col_of(&v, "1", "ratio"));
    cr_expect(fabs(r - 1.5) < 0.03, "ratio %g", r);
    csv_free(&v);
    FREE_ALL(a, b, c, d);
}

/* Blocks that spread 30 %: no change seen, but none of 10 % could have
 * been: inconclusive, exit 3 (never 0), with the reason. */
Test(compare_blocks, too_noisy_to_see_the_threshold_is_inconclusive, .timeout = 30)
{
    static const double wide[] = {0.3, -0.2, -0.25, 0.2, 0.0, 0.1};
    char *d = tmpdir();
    trial_spec o[] = {{"1", 1e-3, 6, 1.0, 1.0, wide, NULL, NULL}};
    trial_spec n[] = {{"1", 1e-3, 6, 1.0, 1.0, J2, NULL, NULL}};
    char *a = make_run(d, "a", o, 1, NULL), *b = make_run(d, "b", n, 1, NULL);
    csv_table v;
    cr_expect_eq(compare_csv(a, b, &v), 3);
    cr_expect_str_eq(col_of(&v, "1", "verdict"), "inconclusive");
    cr_expect(strstr(col_of(&v, "1", "why"), "detectable"), "%s", col_of(&v, "1", "why"));
    csv_free(&v);
    free(a);
    free(b);
    free(d);
}

/* The CPUs of NEW measured 1.3x slower (clock_gflops, or meta.json's
 * cpu_speed), and every sample 1.3x slower: not a change of the code:
 * inconclusive, exit 3.  At the same clocks it is slower. */
Test(compare_blocks, two_runs_at_clocks_1_3x_apart_are_not_judged_a_change, .timeout = 30)
{
    char *d = tmpdir();
    trial_spec o[] = {{"1", 1e-3, 6, 1.0, 1.0, J1, NULL, "100"}};
    trial_spec n[] = {{"1", 1.3e-3, 6, 1.0, 1.0, J2, NULL, "76.9"}};
    trial_spec same_clock[] = {{"1", 1.3e-3, 6, 1.0, 1.0, J2, NULL, "100"}};
    char *a = make_run(d, "a", o, 1, NULL), *b = make_run(d, "b", n, 1, NULL);
    char *c = make_run(d, "c", same_clock, 1, NULL);
    csv_table v;
    cr_expect_eq(compare_csv(a, b, &v), 3);
    cr_expect_str_eq(col_of(&v, "1", "verdict"), "inconclusive");
    cr_expect(strstr(col_of(&v, "1", "why"), "CPU speed"), "%s", col_of(&v, "1", "why"));
    csv_free(&v);
    cr_expect_eq(compare_csv(a, c, &v), 1);
    cr_expect_str_eq(col_of(&v, "1", "verdict"), "slower");
    csv_free(&v);
    /* the run's speed from meta.json when the trials have none */
    trial_spec o2[] = {{"1", 1e-3, 6, 1.0, 1.0, J1, NULL, NULL}};
    trial_spec n2[] = {{"1", 1e-3, 6, 1.0, 1.0, J2, NULL, NULL}};
    char *e = make_run(d, "e", o2, 1, "{\"cpu_speed\": {\"gflops\": {\"0\": 100, \"1\": 100}}}\n");
    char *f = make_run(d, "f", n2, 1, "{\"cpu_speed\": {\"gflops\": {\"0\": 77, \"1\": 77}}}\n");
    cr_expect_eq(compare_csv(e, f, &v), 3);
    cr_expect_str_eq(col_of(&v, "1", "verdict"), "inconclusive");
    csv_free(&v);
    FREE_ALL(a, b, c, e, f, d);
}

/* Bad input: one block a run (no noise measured), a blocks cell that does
 * not fit the samples, a tampered cpu_speed, an older run without blocks:
 * read without a crash, judged conservatively. */
Test(compare_blocks, one_block_older_or_tampered_runs_are_judged_conservatively, .timeout = 30)
{
    char *d = tmpdir();
    trial_spec one[] = {{"1", 1e-3, 1, 1.0, 1.0, NULL, NULL, NULL}};
    char *a = make_run(d, "a", one, 1, NULL), *b = make_run(d, "b", one, 1, NULL);
    csv_table v;
    cr_expect_eq(compare_csv(a, b, &v), 3);
    cr_expect_str_eq(col_of(&v, "1", "verdict"), "inconclusive");
    cr_expect_str_eq(col_of(&v, "1", "detectable"), "inf");
    csv_free(&v);
    /* tampered: counts that do not add up, a CPU that is not a number */
    trial_spec bad1[] = {{"1", 1e-3, 6, 1.0, 1.0, J1, "0:5 1:5 0:999", "nan"}};
    trial_spec bad2[] = {{"1", 1e-3, 6, 1.0, 1.0, J2, "x:5 1:5 0:5 1:5 0:5 1:5", "-3"}};
    char *c = make_run(d, "c", bad1, 1, "{\"cpu_speed\": {\"gflops\": {\"0\": \"fast\"}}}\n");
    char *e = make_run(d, "e", bad2, 1, "{\"cpu_speed\": 7}\n");
    cr_expect_eq(compare_csv(c, e, &v), 0);
    cr_expect_str_eq(col_of(&v, "1", "basis"), "cuts"); /* as an older run */
    csv_free(&v);
    /* an older run (no blocks column at all) against a new one */
    char *o = xasprintf("%s/old", d);
    cr_assert_eq(make_dirs(o), 0);
    write_text(o, "trials.csv", "trial,size,status,reason,samples,median\n0,1,ok,,20,\n");
    strbuf s = {0};
    sb_puts(&s, "trial,sample,seconds,device_seconds\n");
    for (int j = 0; j < 20; j++)
        sb_printf(&s, "0,%d,%.9g,\n", j, 1e-3 * (1 + 0.001 * j));
    write_text(o, "samples.csv", s.s);
    sb_free(&s);
    trial_spec nw[] = {{"1", 1e-3, 6, 1.0, 1.0, J2, NULL, "90"}};
    char *f = make_run(d, "f", nw, 1, NULL);
    int rc = compare_csv(o, f, &v);
    cr_expect(rc == 0 || rc == 3, "exit %d", rc);
    cr_expect_str_eq(col_of(&v, "1", "basis"), "cuts");
    csv_free(&v);
    FREE_ALL(a, b, c, e, f, o, d);
}

/* ---- the run side ---------------------------------------------------------- */

/* A one-thread trial's samples come in blocks on the CPUs in turn, each
 * CPU's speed is in meta.json, and the blocks add up to the samples. */
Test(run_blocks, one_thread_blocks_turn_over_the_cpus, .timeout = 120)
{
    proc_out r;
    csv_table t;
    char *d = run_trials("workload: noop\nthreads: 1\nrepeats: 12\nwarmups: 1\n", 0, &r, &t);
    const char *b = cell(&t, 1, "blocks");
    int total = 0, n = 0, cpus[2] = {0, 0};
    for (const char *p = b; *p;) {
        int cpu = *p == '?' ? -1 : atoi(p);
        const char *c = strchr(p, ':');
        cr_assert(c, "blocks %s", b);
        total += atoi(c + 1);
        n++;
        if (cpu >= 0 && cpu < 2)
            cpus[cpu]++;
        p = strchr(c, ' ') ? strchr(c, ' ') + 1 : c + strlen(c);
    }
    cr_expect_eq(n, 4, "blocks %s", b);
    cr_expect_eq(total, 12, "blocks %s", b);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (ncpu >= 2) /* both CPUs in every run */
        cr_expect(cpus[0] == 2 && cpus[1] == 2, "blocks %s", b);
    char *mp = xasprintf("%s/run/meta.json", d);
    char *meta = read_file(mp, NULL);
    cr_assert(meta);
    cr_expect(strstr(meta, "\"cpu_speed\""), "%s", meta);
    cr_expect(strstr(meta, "\"run_load\""), "%s", meta);
    FREE_ALL(mp, meta);
    trials_done(&t, d);
}

/* A trial of a few milliseconds while two other processes spin: /proc
 * counts in 10 ms ticks, so the trial alone says nothing; the last 0.2 s
 * of the run does, and the trial is flagged busy. */
Test(run_blocks, a_short_trial_on_a_loaded_machine_is_flagged_busy, .timeout = 120)
{
    pid_t hog[2];
    for (int i = 0; i < 2; i++) {
        hog[i] = fork();
        cr_assert(hog[i] >= 0);
        if (hog[i] == 0) {
            alarm(60);
            for (volatile unsigned long x = 0;; x++)
                ;
        }
    }
    proc_out r;
    csv_table t;
    /* one sample of about 10-60 ms a trial, no warmup: every trial under 0.2
     * s, and 30 of them well past the run's first 0.2 s even on a fast CPU
     * (16 of 3-10 ms each once ran out before any trial could be judged) */
    char *d = dir_with("w.lua", "return {run = function(ctx, p, state)\n"
                                "  local x = 0\n  for i = 1, 1000000 do x = x + i * 0.5 end\n"
                                "  if x < 0 then error('x') end\nend}\n");
    run_trials_in(d, "workload: lua:w.lua\nsweep:\n  size: {range: [1, 30]}\nrepeats: 1\n"
                     "warmups: 0\n",
                  0, &r, &t);
    for (int i = 0; i < 2; i++) {
        kill(hog[i], SIGKILL);
        waitpid(hog[i], NULL, 0);
    }
    int last = t.nrows - 1, flagged = 0;
    for (int row = 1; row <= last; row++)
        flagged += strstr(cell(&t, row, "noise"), "busy: ") != NULL;
    /* the trials after the first 0.2 s of the run all see the hogs */
    cr_expect(strstr(cell(&t, last, "noise"), "busy: "), "last trial's noise: %s (%d flagged)",
              cell(&t, last, "noise"), flagged);
    cr_expect(cell_num(&t, last, "other_cpu") >= 0.5, "other_cpu %s", cell(&t, last, "other_cpu"));
    trials_done(&t, d);
}

/* subtract_spawn on a program that is itself an empty start: corrected
 * samples at 0, flagged in noise, never a silent ok. */
Test(run_blocks, a_spawn_corrected_sample_at_0_is_flagged, .timeout = 120)
{
    proc_out r;
    csv_table t;
    char *d = run_trials("workload: command\ncommand: [true]\nsubtract_spawn: true\n"
                         "repeats: 21\nbatch: 1\nwarmups: 1\n",
                         0, &r, &t);
    const char *noise = cell(&t, 1, "noise");
    cr_expect(strstr(noise, "spawn-corrected"), "noise: %s (min %s)", noise, cell(&t, 1, "min"));
    cr_expect(cell_num(&t, 1, "spawn_starts") >= 9 + 21, "spawn_starts %s", cell(&t, 1, "spawn_starts"));
    cr_expect(strlen(cell(&t, 1, "spawn_spread_seconds")) > 0);
    trials_done(&t, d);
}

/* Two trials with blocks are taken in rounds: the first block of each, then
 * the second of each, so a passing disturbance does not fall on every block
 * of one trial (doc/timing.md#blocks-across-processes-and-cpus).  Each
 * call appends the trial's size to a file: 1s, 2s, 1s, 2s (taken one after
 * another it read 1s then 2s). */
static void rounds_with(const char *hooks, int want)
{
    char *d = tmpdir();
    char *log = xasprintf("%s/calls.txt", d);
    if (hooks)
        write_text(d, "h.lua", hooks);
    char *yaml = xasprintf("workload: command\ncommand: [sh, -c, \"echo {size} >> %s\"]\n"
                           "sweep:\n  size: [1, 2]\nrepeats: 6\nwarmups: 0\n%s",
                           log, hooks ? "hooks: h.lua\n" : "");
    proc_out r;
    csv_table t;
    run_trials_in(d, yaml, 0, &r, &t);
    cr_expect_str_eq(cell(&t, 1, "blocks"), "?:3 ?:3");
    cr_expect_str_eq(cell(&t, 2, "blocks"), "?:3 ?:3");
    char *calls = read_file(log, NULL);
    cr_assert(calls);
    int stretches = 0;
    char last = 0;
    for (const char *p = calls; *p; p++)
        if (*p != '\n' && *p != last) {
            stretches++;
            last = *p;
        }
    cr_expect_eq(stretches, want, "calls in order: %s", calls);
    FREE_ALL(log, yaml, calls);
    trials_done(&t, d);
}

Test(run_blocks, consecutive_trials_take_their_blocks_in_rounds, .timeout = 120)
{
    rounds_with(NULL, 4);
}

/* With a hooks process, before_trial and after_trial bracket one trial:
 * its blocks one after another (1s, then 2s). */
Test(run_blocks, with_hooks_a_trials_blocks_follow_one_another, .timeout = 120)
{
    rounds_with("return {before_trial = function(t) end, after_trial = function(t, r) end}\n", 2);
}

/* A trial's timeout covers all its blocks, and the reason names the
 * trial's timeout and every sample taken, not what was left to the last
 * block ("stopped at the 19.05 ms timeout (0 samples taken)" before). */
Test(run_blocks, a_timeout_names_the_trials_timeout_and_its_samples, .timeout = 60)
{
    proc_out r;
    csv_table t;
    char *d = run_trials("workload: command\ncommand: [sleep, \"0.1\"]\nrepeats: 6\nwarmups: 0\n"
                         "timeout: 0.45\n",
                         1, &r, &t);
    cr_expect_str_eq(cell(&t, 1, "status"), "timeout");
    /* 3 on a quiet machine; fewer when it is loaded, but the samples the row holds */
    char *want = xasprintf("stopped at the 450.00 ms timeout (%s samples taken)",
                           cell(&t, 1, "samples"));
    cr_expect_str_eq(cell(&t, 1, "reason"), want);
    cr_expect(atoi(cell(&t, 1, "samples")) >= 1, "%s", cell(&t, 1, "reason"));
    free(want);
    trials_done(&t, d);
}

/* `workers: N` sets the blocks: N workers, the samples shared out, one
 * worker at 1 (no blocks); more workers than repeats, or with `repeats:
 * auto`, is an error at its place; runs with other workers still match. */
Test(run_blocks, workers_sets_the_number_of_blocks, .timeout = 120)
{
    proc_out r;
    csv_table t;
    char *d = run_trials("workload: noop\nthreads: 1\nrepeats: 6\nworkers: 3\n", 0, &r, &t);
    const char *b = cell(&t, 1, "blocks");
    cr_expect(strlen(b) == 11 && b[1] == ':' && b[2] == '2' && b[6] == '2' && b[10] == '2',
              "blocks %s", b);
    cr_expect_str_eq(cell(&t, 1, "samples"), "6");
    trials_done(&t, d);
    d = run_trials("workload: noop\nthreads: 1\nrepeats: 6\nworkers: 1\n", 0, &r, &t);
    cr_expect(csv_col(&t, "blocks") < 0 || !*cell(&t, 1, "blocks"), "one worker, no blocks");
    trials_done(&t, d);
}

Test(run_blocks, workers_beyond_the_repeats_are_an_error_at_their_place, .timeout = 60)
{
    static const struct {
        const char *yaml, *msg;
    } bad[] = {
        {"workload: noop\nrepeats: 6\nworkers: 8\n", "e.yaml:3:10: error: workers: 8 needs at least 8 repeats, not 6"},
        {"workload: noop\nrepeats: auto\nworkers: 2\n", "e.yaml:3:10: error: workers: 2 needs a number of repeats, not 'auto'"},
        {"workload: noop\nworkers: 6\n", "e.yaml:2:10: error: workers: 6 needs at least 6 repeats, not 5"},
        {"workload: noop\nrepeats: 6\nworkers: 0\n", "e.yaml:3:10: error"},
        {"workload: noop\nrepeats: 6\nworkers: many\n", "e.yaml:3:10: error"},
        {"workload: noop\nrepeats: 6\nsweep:\n  workers: [2, 9]\n", "e.yaml:4:16: error: workers: 9"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *d = tmpdir();
        proc_out r;
        run_yaml_in(d, bad[i].yaml, NULL, &r);
        cr_expect_eq(r.status, 2, "%s: %s", bad[i].yaml, r.err);
        cr_expect(strstr(r.err, bad[i].msg), "%s: %s", bad[i].yaml, r.err);
        rm_rf(d);
        free(d);
    }
}

Test(run_blocks, runs_with_other_workers_are_compared, .timeout = 120)
{
    proc_out r;
    csv_table t, u;
    char *a = run_trials("name: w\nworkload: noop\nthreads: 1\nrepeats: 6\nworkers: 2\n", 0, &r, &t);
    char *b = run_trials("name: w\nworkload: noop\nthreads: 1\nrepeats: 6\nworkers: 3\n", 0, &r, &u);
    char *ra = xasprintf("%s/run", a), *rb = xasprintf("%s/run", b);
    run((char *[]){"compare", ra, rb, "--format", "csv", NULL}, &r);
    cr_expect_neq(r.status, 2, "%s%s", r.out, r.err);
    cr_expect(strstr(r.out, "noop"), "%s", r.out);
    FREE_ALL(ra, rb);
    trials_done(&t, a);
    trials_done(&u, b);
}
