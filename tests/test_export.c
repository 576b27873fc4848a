/* test_export.c - `runner export RUN_DIR --format json|csv`
 * (doc/results.md#results): a run's trials with their samples, the experiment folder
 * standing for its latest run, and a missing run. */
#include "base/csv.h"
#include "results/rundir/rundir.h"
#include "runproc.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* EXP/<run-id>/ with three trials (one with device times, one skipped with
 * no sample, a label with a comma) and EXP/latest -> <run-id>. */
static char *make_run(void)
{
    char *exp = tmpdir();
    char run_dir[4096];
    snprintf(run_dir, sizeof run_dir, "%s/20260101T000000Z", exp);
    cr_assert_eq(mkdir(run_dir, 0755), 0);
    write_text(run_dir, "trials.csv",
               "trial,target,size,status,reason,samples,median\n"
               "0,\"CPU, serial\",10,ok,,2,1.5e-05\n"
               "1,GPU,10,ok,,2,0.25\n"
               "2,GPU,100,skipped,no CUDA device,0,\n");
    write_text(run_dir, "samples.csv",
               "trial,sample,seconds,device_seconds\n"
               "0,0,1.4e-05,\n"
               "1,0,0.25,0.24\n"
               "0,1,1.6e-05,\n"
               "1,1,0.26,0.25\n");
    write_text(run_dir, "meta.json", "{\"host\": {\"hostname\": \"box\"}, \"finished\": true}\n");
    char link[4096];
    snprintf(link, sizeof link, "%s/latest", exp);
    cr_assert_eq(symlink("20260101T000000Z", link), 0);
    return exp;
}

Test(export, json_has_meta_trials_and_samples, .timeout = 30)
{
    char *exp = make_run();
    proc_out r;
    /* the experiment folder stands for its latest run */
    run((char *[]){"export", exp, "--format", "json", NULL}, &r);
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    json_object *root = json_tokener_parse(r.out);
    cr_assert_not_null(root, "not JSON: %s", r.out);
    json_object *meta, *trials, *v;
    cr_assert(json_object_object_get_ex(root, "meta", &meta));
    cr_assert(json_object_object_get_ex(meta, "finished", &v));
    cr_assert(json_object_get_boolean(v));
    cr_assert(json_object_object_get_ex(root, "trials", &trials));
    cr_assert_eq(json_object_array_length(trials), 3);

    json_object *t0 = json_object_array_get_idx(trials, 0);
    cr_assert(json_object_object_get_ex(t0, "trial", &v));
    cr_assert(json_object_is_type(v, json_type_int));
    cr_assert(json_object_object_get_ex(t0, "target", &v));
    cr_assert_str_eq(json_object_get_string(v), "CPU, serial");
    cr_assert(json_object_object_get_ex(t0, "median", &v));
    cr_assert(json_object_is_type(v, json_type_double));
    cr_assert_float_eq(json_object_get_double(v), 1.5e-05, 1e-12);
    /* numbers keep their text */
    cr_assert(strstr(r.out, "1.5e-05"), "%s", r.out);
    cr_assert(json_object_object_get_ex(t0, "reason", &v));
    cr_assert_null(v);
    json_object *s;
    cr_assert(json_object_object_get_ex(t0, "samples", &s));
    cr_assert_eq(json_object_array_length(s), 2);
    json_object *s1 = json_object_array_get_idx(s, 1);
    cr_assert(json_object_object_get_ex(s1, "sample", &v));
    cr_assert_eq(json_object_get_int(v), 1);
    cr_assert(json_object_object_get_ex(s1, "seconds", &v));
    cr_assert_float_eq(json_object_get_double(v), 1.6e-05, 1e-12);
    cr_assert_not(json_object_object_get_ex(s1, "device_seconds", &v));

    json_object *t1 = json_object_array_get_idx(trials, 1);
    cr_assert(json_object_object_get_ex(t1, "samples", &s));
    cr_assert_eq(json_object_array_length(s), 2);
    cr_assert(json_object_object_get_ex(json_object_array_get_idx(s, 0), "device_seconds", &v));
    cr_assert_float_eq(json_object_get_double(v), 0.24, 1e-12);

    json_object *t2 = json_object_array_get_idx(trials, 2);
    cr_assert(json_object_object_get_ex(t2, "reason", &v));
    cr_assert_str_eq(json_object_get_string(v), "no CUDA device");
    cr_assert(json_object_object_get_ex(t2, "samples", &s));
    cr_assert_eq(json_object_array_length(s), 0);
    json_object_put(root);
    free(exp);
}

Test(export, csv_is_one_row_per_sample, .timeout = 30)
{
    char *exp = make_run();
    char dir[4096], path[4096];
    snprintf(dir, sizeof dir, "%s/20260101T000000Z", exp);
    proc_out r;
    run((char *[]){"export", "--format=csv", dir, NULL}, &r);
    cr_assert_eq(r.status, 0, "stderr: %s", r.err);
    snprintf(path, sizeof path, "%s/export.csv", exp);
    write_text(exp, "export.csv", r.out);
    csv_table t;
    cr_assert_eq(csv_read(path, &t), 0);
    cr_assert_eq(t.nrows, 6, "%s", r.out); /* header, 2 + 2 samples, 1 skipped trial */
    cr_assert_eq(t.nfields[0], 10);
    cr_assert_str_eq(t.rows[0][7], "sample");
    cr_assert_str_eq(t.rows[0][8], "seconds");
    cr_assert_str_eq(t.rows[0][9], "device_seconds");
    for (int i = 1; i < t.nrows; i++)
        cr_assert_eq(t.nfields[i], 10, "row %d", i);
    cr_assert_str_eq(t.rows[1][1], "CPU, serial");
    cr_assert_str_eq(t.rows[1][8], "1.4e-05");
    cr_assert_str_eq(t.rows[2][7], "1");
    cr_assert_str_eq(t.rows[2][8], "1.6e-05");
    cr_assert_str_eq(t.rows[3][0], "1");
    cr_assert_str_eq(t.rows[3][9], "0.24");
    cr_assert_str_eq(t.rows[5][3], "skipped");
    cr_assert_str_eq(t.rows[5][7], "");
    cr_assert_str_eq(t.rows[5][8], "");
    trials_done(&t, exp);
}

Test(export, a_missing_run_is_exit_2, .timeout = 30)
{
    char *d = tmpdir();
    char missing[4096];
    snprintf(missing, sizeof missing, "%s/no-such-run", d);
    proc_out r;
    run((char *[]){"export", missing, "--format", "json", NULL}, &r);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "no-such-run") && strstr(r.err, "No such file"), "%s", r.err);
    cr_assert_str_eq(r.out, "");
    /* a folder with no run in it */
    expect_exit((char *[]){"export", d, "--format", "csv", NULL}, 2, "no trials.csv");
    /* no --format, or a wrong one */
    expect_exit((char *[]){"export", d, NULL}, 2, "--format json|csv");
    expect_exit((char *[]){"export", d, "--format", "xml", NULL}, 2, "json or csv");
    free(d);
}

/* samples.csv's text in a temporary file, read into *s; the file's path in
 * path (unlinked by the caller). */
static void samples_from(const char *text, char *path, csv_table *s)
{
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    cr_assert_eq(csv_read(path, s), 0);
}

/* The one grouping of samples.csv by trial (export, compare and the
 * report's drift all read it): rows in file order, bad trial numbers left
 * out, and a trial run again keeps its last series only. */
Test(rundir, samples_grouped_by_trial_with_the_last_series)
{
    char path[] = "/tmp/rundir-samples-XXXXXX";
    const char *text = "trial,sample,seconds,device_seconds\n"
                       "2,0,0.5,\n"
                       "0,0,1,\n"
                       "x,0,9,\n"
                       "0,1,2,\n"
                       "2,1,0.6,\n"
                       "0,0,3,\n" /* trial 0 again: a new series */
                       "0,1,4,\n"
                       "0,,5,\n"; /* no sample number: kept */
    csv_table s;
    samples_from(text, path, &s);
    rundir_by_trial g;
    rundir_group_samples(&s, &g);
    cr_assert_eq(g.ntrials, 3);
    cr_expect_eq(g.n[0], 5);
    cr_expect_eq(g.n[1], 0);
    cr_expect_eq(g.n[2], 2);
    int n;
    const int *r = rundir_last_series(&s, &g, 0, &n);
    cr_assert_eq(n, 3);
    cr_expect_str_eq(s.rows[r[0]][2], "3");
    cr_expect_str_eq(s.rows[r[2]][2], "5");
    r = rundir_last_series(&s, &g, 2, &n);
    cr_assert_eq(n, 2);
    cr_expect_str_eq(s.rows[r[0]][2], "0.5");
    cr_expect_null(rundir_last_series(&s, &g, 1, &n));
    cr_expect_null(rundir_last_series(&s, &g, 7, &n));
    cr_expect_eq(rundir_trial_no("12"), 12);
    cr_expect_eq(rundir_trial_no("-1"), -1);
    cr_expect_eq(rundir_trial_no("1x"), -1);
    cr_expect_eq(rundir_trial_no(""), -1);
    rundir_by_trial_free(&g);
    csv_free(&s);
    unlink(path);
}

/* A trial number no experiment can have (past MAX_TRIALS - 1) is none: a
 * tampered samples.csv with trial 99999999 sized the index at 1.6 GB and
 * took 13 s (fuzz_export found it); the last possible number still counts. */
Test(rundir, a_trial_number_past_every_experiment_is_none, .timeout = 10)
{
    cr_expect_eq(rundir_trial_no("999999"), 999999);
    cr_expect_eq(rundir_trial_no("1000000"), -1);
    cr_expect_eq(rundir_trial_no("99999999"), -1);
    char path[] = "/tmp/rundir-samples-XXXXXX";
    const char *text = "trial,sample,seconds\n0,0,1\n99999999,0,2\n";
    csv_table s;
    samples_from(text, path, &s);
    rundir_by_trial g;
    rundir_group_samples(&s, &g);
    cr_expect_eq(g.ntrials, 1);
    rundir_by_trial_free(&g);
    csv_free(&s);
    unlink(path);
}
