/* test_run_merge.c - the shards of a run and `runner merge`. */
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

/* --shard K/N: the N shards are the sweep, each trial once; merge joins them
 * into the trials of a local run, in order. */
Test(run, shards_merge_into_the_local_run, .timeout = 60)
{
    char *d = tmpdir(), exp[SCENARIO_PATH], out[SCENARIO_PATH], rd[SCENARIO_PATH], p[8192];
    file_at(d, "s.yaml", "workload: noop\nrepeats: 2\nsweep:\n  size: {range: [1, 10]}\n  seed: [1, 2]\n", exp);
    snprintf(out, sizeof out, "%s/local", d);
    snprintf(rd, sizeof rd, "%s/run", d);
    proc_out r;
    run_expect(out, exp, 0, &r);
    const char *ks[] = {"1/3", "2/3", "3/3"};
    for (int k = 0; k < 3; k++) {
        run((char *[]){"--quiet", "--shard", (char *)ks[k], "--run-dir", rd, exp, NULL}, &r);
        cr_assert_eq(r.status, 0, "%s", r.err);
    }
    run((char *[]){"merge", "--quiet", "--no-plots", rd, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    csv_table a, b;
    newest_run_file(out, "s", "trials.csv", p, sizeof p);
    cr_assert_eq(csv_read(p, &a), 0);
    snprintf(p, sizeof p, "%s/trials.csv", rd);
    cr_assert_eq(csv_read(p, &b), 0);
    cr_assert_eq(a.nrows, 21);
    cr_assert_eq(b.nrows, a.nrows);
    for (int i = 1; i < a.nrows; i++) {
        cr_assert_str_eq(b.rows[i][0], a.rows[i][0], "row %d", i);
        cr_assert_str_eq(b.rows[i][csv_col(&b, "size")], a.rows[i][csv_col(&a, "size")]);
        cr_assert_str_eq(b.rows[i][csv_col(&b, "seed")], a.rows[i][csv_col(&a, "seed")]);
    }
    csv_free(&a);
    csv_free(&b);
    snprintf(p, sizeof p, "%s/samples.csv", rd);
    cr_assert_eq(count_lines(p), 41);
    free(d);
}

Test(run, merge_reports_a_missing_shard, .timeout = 60)
{
    char *d = tmpdir(), exp[SCENARIO_PATH], rd[SCENARIO_PATH];
    file_at(d, "s.yaml", "workload: noop\nrepeats: 1\nsweep:\n  size: {range: [1, 6]}\n", exp);
    snprintf(rd, sizeof rd, "%s/run", d);
    proc_out r;
    run((char *[]){"--quiet", "--shard", "1/2", "--run-dir", rd, exp, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    expect_exit((char *[]){"merge", "--no-plots", rd, NULL}, 1, "merged 1 of 2 shards");
    expect_exit((char *[]){"--shard", "3/2", exp, NULL}, 2,
                "--shard takes K/N with 1 <= K <= N, not '3/2'");
    expect_exit((char *[]){"merge", "/nonexistent-run", NULL}, 2,
                "merge: cannot open /nonexistent-run");
    free(d);
}

/* A shard killed before its end (a Slurm time limit) keeps the cells of
 * columns its header did not have yet in trials.more.csv; merge read only
 * trials.csv and lost them.  Now they are merged, and the shard's files
 * are left as they are. */
Test(run, merge_keeps_a_killed_shards_late_columns, .timeout = 60)
{
    char *d = tmpdir(), exp[SCENARIO_PATH], rd[SCENARIO_PATH], p[8192], more[8192];
    write_text(d, "h.lua",
               "return {after_trial = function(trial, r)\n"
               "  return {['c' .. trial.size] = trial.size}\nend}\n");
    file_at(d, "k.yaml", "name: k\nworkload: selftest\nhooks: h.lua\nrepeats: 1\nwarmups: 0\n"
                         "sweep:\n  size: {range: [1, 20]}\n  action: [sleep]\n  seconds: [0.2]\n", exp);
    snprintf(rd, sizeof rd, "%s/run", d);
    snprintf(p, sizeof p, "%s/shard-1-of-2/trials.csv", rd);
    snprintf(more, sizeof more, "%s/shard-1-of-2/trials.more.csv", rd);
    proc_out r;
    run((char *[]){"--quiet", "--no-plots", "--shard", "2/2", "--run-dir", rd, exp, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* shard 1 killed once two of its ten trials are saved */
    int o, e;
    pid_t pid = start((char *[]){"--quiet", "--no-plots", "--shard", "1/2", "--run-dir", rd, exp, NULL},
                      &o, &e);
    for (int i = 0; i < 2000 && (count_lines(p) < 3 || access(more, F_OK) != 0); i++)
        usleep(10000);
    kill(pid, SIGKILL);
    finish(pid, o, e, &r);
    cr_assert_eq(access(more, F_OK), 0, "the killed shard left no trials.more.csv");
    int saved = count_lines(p) - 1;
    cr_assert(saved >= 2 && saved < 10, "%d trials saved", saved);
    run((char *[]){"merge", "--quiet", "--no-plots", rd, NULL}, &r);
    cr_assert_eq(r.status, 1, "incomplete: %s", r.err);
    cr_assert_eq(access(more, F_OK), 0, "merge removed the shard's trials.more.csv");
    snprintf(p, sizeof p, "%s/trials.csv", rd);
    csv_table t;
    cr_assert_eq(csv_read(p, &t), 0);
    cr_assert_eq(t.nrows, 1 + 10 + saved);
    int sz = csv_col(&t, "size");
    for (int i = 1; i < t.nrows; i++) {
        char name[32];
        snprintf(name, sizeof name, "c%s", t.rows[i][sz]);
        int c = csv_col(&t, name);
        cr_assert(c > 0, "no column %s", name);
        cr_assert_str_eq(t.rows[i][c], t.rows[i][sz], "trial %s lost its cell", t.rows[i][0]);
    }
    trials_done(&t, d);
}

/* Shards of two experiments were merged into one (exit 0, mixed trials);
 * now merge refuses, naming the two. */
Test(run, merge_refuses_shards_of_different_experiments, .timeout = 60)
{
    char *d = tmpdir(), a[SCENARIO_PATH], b[SCENARIO_PATH], rd[SCENARIO_PATH];
    file_at(d, "a.yaml", "name: m\nworkload: noop\nrepeats: 1\nsweep:\n  size: {range: [1, 4]}\n", a);
    file_at(d, "b.yaml", "name: m\nworkload: noop\nrepeats: 1\nsweep:\n  size: {range: [5, 8]}\n", b);
    snprintf(rd, sizeof rd, "%s/run", d);
    proc_out r;
    run((char *[]){"--quiet", "--shard", "1/2", "--run-dir", rd, a, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run((char *[]){"--quiet", "--shard", "2/2", "--run-dir", rd, b, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run((char *[]){"merge", "--quiet", "--no-plots", rd, NULL}, &r);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, "shard-1-of-2 and ") && strstr(r.err, "shard-2-of-2 hold different "
                                                                   "experiments"),
              "%s", r.err);
    free(d);
}

/* merge is O(n log n): 20,000 trials x 20 samples took 17 s (a scan of
 * every sample per trial); now well under 2 s. */
Test(run, merge_of_20000_trials_is_fast, .timeout = 120)
{
    char *d = tmpdir(), exp[SCENARIO_PATH], rd[SCENARIO_PATH], p[8192];
    file_at(d, "s.yaml", "name: big\nworkload: noop\nrepeats: 1\nsweep:\n  size: [1]\n", exp);
    snprintf(rd, sizeof rd, "%s/run", d);
    proc_out r;
    run((char *[]){"--quiet", "--shard", "1/1", "--run-dir", rd, exp, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* the one trial's row, copied under 20,000 ids, each with 20 samples */
    snprintf(p, sizeof p, "%s/shard-1-of-1/trials.csv", rd);
    char *all = read_all(p);
    char *row = strchr(all, '\n') + 1, *rest = strchr(row, ',');
    *strchr(rest, '\n') = '\0';
    row[-1] = '\0';
    FILE *f = fopen(p, "w");
    fprintf(f, "%s\n", all);
    for (int i = 0; i < 20000; i++)
        fprintf(f, "%d%s\n", i, rest);
    fclose(f);
    free(all);
    snprintf(p, sizeof p, "%s/shard-1-of-1/samples.csv", rd);
    f = fopen(p, "w");
    fprintf(f, "trial,sample,seconds,device_seconds\n");
    for (int i = 0; i < 20000; i++)
        for (int k = 0; k < 20; k++)
            fprintf(f, "%d,%d,0.001,\n", i, k);
    fclose(f);
    double t0 = mono_now();
    run((char *[]){"merge", "--quiet", "--no-plots", rd, NULL}, &r);
    double took = mono_now() - t0;
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect_lt(took, 2.0, "merge took %.2f s", took);
    snprintf(p, sizeof p, "%s/samples.csv", rd);
    cr_expect_eq(count_lines(p), 400001);
    fprintf(stderr, "merge of 20,000 trials x 20 samples: %.2f s\n", took);
    free(d);
}
