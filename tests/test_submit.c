/* test_submit.c - `runner submit` and `runner status` without Slurm:
 * both commands against fake sbatch/squeue scripts ($RUNNER_SBATCH,
 * $RUNNER_SQUEUE, $RUNNER_SCONTROL), resubmission, status, and the merge
 * job's `latest`.  tests/slurm/run.sh does the same on a real cluster. */
#include "runproc.h"
#include "cli/commands.h"
#include "slurm/slurm.h"
#include "base/util.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char *text_of(const char *path)
{
    char *t = read_file(path, NULL);
    return t ? t : xstrdup("");
}

/* ---- the commands, against fake sbatch and squeue ------------------------------------------ */

static const char *const fake_sbatch =
    "#!/bin/sh\n"
    "printf '%s\\n' \"$*\" >>\"$0.log\"\n"
    "n=$(wc -l <\"$0.log\")\n"
    "echo \"$((100 + n));testcluster\"\n";

typedef struct fixture {
    char *dir, *exp, *out, *sbatch, *log, *squeue;
} fixture;

/* A folder with sub.yaml and fake sbatch and squeue, which the runner is
 * told to use. */
static fixture fixture_made(void)
{
    fixture made, *f = &made;
    f->dir = tmpdir();
    f->exp = xasprintf("%s/sub.yaml", f->dir);
    write_file(f->exp,
        "name: subtest\nworkload: selftest\nsweep:\n  seed: {range: [1, 10]}\nrepeats: 1\nwarmups: 0\n",
        0);
    f->out = xasprintf("%s/out dir/it's", f->dir);
    f->sbatch = xasprintf("%s/sbatch", f->dir);
    f->log = xasprintf("%s/sbatch.log", f->dir);
    f->squeue = xasprintf("%s/squeue", f->dir);
    write_file(f->sbatch, fake_sbatch, 1);
    write_file(f->squeue, "#!/bin/sh\n", 1); /* nothing in the queue */
    setenv("RUNNER_SBATCH", f->sbatch, 1);
    setenv("RUNNER_SQUEUE", f->squeue, 1);
    setenv("RUNNER_SCONTROL", "/nonexistent/scontrol", 1);
    return made;
}

static void fixture_free(fixture *f)
{
    rm_rf(f->dir);
    free(f->dir);
    free(f->exp);
    free(f->out);
    free(f->sbatch);
    free(f->log);
    free(f->squeue);
}

static int submit(int n, ...)
{
    char *args[16];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        args[i] = va_arg(ap, char *);
    va_end(ap);
    args[n] = NULL;
    return cmd_submit_main(n, args);
}

/* The run folder submit made: the one folder in OUTPUT/subtest other than
 * `latest` (submit does not move latest: the merge earns it). */
static char *latest(const fixture *f)
{
    char *e = xasprintf("%s/subtest", f->out);
    DIR *d = opendir(e);
    cr_assert(d, "no %s", e);
    char *r = NULL;
    struct dirent *de;
    while ((de = readdir(d)))
        if (de->d_name[0] != '.' && strcmp(de->d_name, "latest")) {
            cr_assert_null(r, "two runs in %s", e);
            r = xasprintf("%s/%s", e, de->d_name);
        }
    closedir(d);
    cr_assert(r, "no run in %s", e);
    free(e);
    return r;
}

static void shard_state(const char *run, int k, int n, int rows, int finished)
{
    char *d = xasprintf("%s/shard-%d-of-%d", run, k, n);
    mkdir(d, 0755);
    char *p = xasprintf("%s/trials.csv", d);
    strbuf b = {0};
    sb_puts(&b, "trial,seed,status\n");
    for (int r = 0; r < rows; r++)
        sb_printf(&b, "%d,%d,ok\n", k - 1 + r * n, k + r * n);
    write_file(p, b.s, 0);
    free(p);
    p = xasprintf("%s/meta.json", d);
    write_file(p, finished ? "{\"finished\": true}\n" : "{\"finished\": false}\n", 0);
    free(p);
    free(d);
    sb_free(&b);
}

Test(submit_cmd, submits_the_array_then_the_merge_after_it, .timeout = 30)
{
    fixture f = fixture_made();
    cr_assert_eq(submit(6, f.exp, "--shards", "4", "--time=10", "--output", f.out), 0);
    char *run = latest(&f);
    char *p = xasprintf("%s/job.sbatch", run);
    char *job = text_of(p);
    cr_assert(strstr(job, "#SBATCH --array=0-3\n"));
    cr_assert(strstr(job, "#SBATCH --time=10\n"));
    cr_assert(strstr(job, "--shard \"$((task + 1))/4\""));
    free(p);
    p = xasprintf("%s/merge.sbatch", run);
    cr_assert_eq(access(p, R_OK), 0);
    free(p);
    p = xasprintf("%s/experiment.yaml", run);
    char *copy = text_of(p), *orig = text_of(f.exp);
    cr_assert_str_eq(copy, orig);
    free(p);
    char *log = text_of(f.log);
    char *want = xasprintf("--parsable %s/job.sbatch\n"
                           "--parsable --dependency=afterany:101 %s/merge.sbatch\n",
                           run, run);
    cr_assert_str_eq(log, want);
    p = xasprintf("%s/slurm-jobs.txt", run);
    char *jobs = text_of(p);
    char *wj = xasprintf("# runner submit: the Slurm jobs of this run, oldest first\n"
                         "experiment %s/experiment.yaml\nshards 4\narray 101 0-3\nmerge 102 after 101\n",
                         run);
    cr_assert_str_eq(jobs, wj);
    free(p);
    free(jobs);
    free(wj);
    free(want);
    free(log);
    free(copy);
    free(orig);
    free(job);
    free(run);
    fixture_free(&f);
}

Test(submit_cmd, more_shards_than_trials_are_cut_down, .timeout = 30)
{
    fixture f = fixture_made();
    cr_assert_eq(submit(5, f.exp, "--shards=50", "--output", f.out, "--gpus-per-shard=1"), 0);
    char *run = latest(&f);
    char *p = xasprintf("%s/job.sbatch", run);
    char *job = text_of(p);
    cr_assert(strstr(job, "#SBATCH --array=0-9\n"));
    cr_assert(strstr(job, "#SBATCH --gres=gpu:1\n"));
    free(job);
    free(p);
    free(run);
    fixture_free(&f);
}

Test(submit_cmd, no_sbatch_exit_2_with_the_scripts_written, .timeout = 30)
{
    fixture f = fixture_made();
    setenv("RUNNER_SBATCH", "/nonexistent/sbatch", 1);
    cr_assert_eq(submit(3, f.exp, "--output", f.out), 2);
    char *run = latest(&f);
    char *p = xasprintf("%s/job.sbatch", run);
    cr_assert_eq(access(p, R_OK), 0);
    free(p);
    free(run);
    fixture_free(&f);
}

Test(submit_cmd, sbatch_failing_is_exit_2, .timeout = 30)
{
    fixture f = fixture_made();
    write_file(f.sbatch, "#!/bin/sh\necho 'sbatch: error: invalid partition specified' >&2\nexit 1\n", 1);
    cr_assert_eq(submit(5, f.exp, "--output", f.out, "--partition", "nope"), 2);
    fixture_free(&f);
}

Test(submit_cmd, invalid_options_and_files_exit_2, .timeout = 30)
{
    fixture f = fixture_made();
    cr_assert_eq(submit(5, f.exp, "--time", "1h", "--output", f.out), 2);
    cr_assert_eq(submit(5, f.exp, "--shards", "0", "--output", f.out), 2);
    cr_assert_eq(submit(5, f.exp, "--sbatch-arg", "--mem=1G\n#SBATCH --x", "--output", f.out), 2);
    cr_assert_eq(submit(4, f.exp, "--sbatch-arg=--array=1-2", "--output", f.out), 2);
    cr_assert_eq(submit(4, f.exp, "--shard=3", "--output", f.out), 2);
    cr_assert_eq(submit(1, "--partition"), 2);
    cr_assert_eq(submit(0), 2);
    cr_assert_eq(submit(2, f.exp, f.exp), 2);
    cr_assert_eq(submit(3, "--resume", f.dir, "--shards=2"), 2);
    char *bad = xasprintf("%s/bad.yaml", f.dir);
    write_file(bad, "workload: nosuch\n", 0);
    cr_assert_eq(submit(3, bad, "--output", f.out), 2);
    cr_assert_eq(access(f.log, F_OK), -1, "sbatch never ran");
    free(bad);
    fixture_free(&f);
}

Test(submit_cmd, resume_resubmits_missing_and_unfinished_shards, .timeout = 30)
{
    fixture f = fixture_made();
    cr_assert_eq(submit(5, f.exp, "--shards", "4", "--output", f.out), 0);
    char *run = latest(&f);
    shard_state(run, 1, 4, 3, 1);
    shard_state(run, 2, 4, 1, 0); /* cancelled */
    shard_state(run, 3, 4, 2, 1);
    /* shard 4: never started */
    unlink(f.log);
    cr_assert_eq(submit(4, "--resume", run, "--time", "2-0"), 0);
    char *log = text_of(f.log);
    char *want = xasprintf("--parsable --array=1,3 --time=2-0 %s/job.sbatch\n"
                           "--parsable --dependency=afterany:101 --time=2-0 %s/merge.sbatch\n",
                           run, run);
    cr_assert_str_eq(log, want);
    char *p = xasprintf("%s/slurm-jobs.txt", run);
    char *jobs = text_of(p);
    cr_assert(strstr(jobs, "array 101 0-3\nmerge 102 after 101\narray 101 1,3\nmerge 102 after 101\n"),
              "%s", jobs);
    free(jobs);
    free(p);
    free(want);
    free(log);
    /* a shard still in the queue is not submitted twice */
    write_file(f.squeue, "#!/bin/sh\necho '101_3 RUNNING'\n", 1);
    unlink(f.log);
    cr_assert_eq(submit(2, "--resume", run), 2);
    cr_assert_eq(access(f.log, F_OK), -1, "sbatch never ran");
    /* nothing left to do */
    shard_state(run, 2, 4, 3, 1);
    shard_state(run, 4, 4, 2, 1);
    cr_assert_eq(submit(2, "--resume", run), 0);
    cr_assert_eq(access(f.log, F_OK), -1, "sbatch never ran");
    free(run);
    fixture_free(&f);
}

static char *status_of(const char *run, int *rc)
{
    char *path = xasprintf("%s.status", run);
    fflush(stdout);
    int saved = dup(1);
    FILE *o = freopen(path, "w", stdout);
    cr_assert(o);
    char *args[] = {(char *)run, NULL};
    *rc = cmd_status_main(1, args);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    char *out = text_of(path);
    unlink(path);
    free(path);
    return out;
}

Test(submit_cmd, status_counts_trials_and_asks_squeue, .timeout = 30)
{
    fixture f = fixture_made();
    cr_assert_eq(submit(5, f.exp, "--shards", "3", "--output", f.out), 0);
    char *run = latest(&f);
    /* 10 trials in 3 shards: 4, 3, 3 */
    shard_state(run, 1, 3, 4, 1);
    shard_state(run, 2, 3, 1, 0);
    write_file(f.squeue,
        "#!/bin/sh\n"
        "case \"$*\" in\n"
        "  *' 101 '*) echo '101_1 RUNNING'; echo '101_2 PENDING' ;;\n"
        "  *' 102 '*) echo '102 PENDING' ;;\n"
        "esac\n",
        1);
    int rc;
    char *out = status_of(run, &rc);
    cr_assert_eq(rc, 1, "%s", out);
    expect_parts(
        out,
        (const char *const[]){
            "1/3          4/4           finished     job 101_0: unknown (not in the queue)\n",
            "2/3          1/3           unfinished   job 101_1: RUNNING\n",
            "3/3          0/3           not started  job 101_2: PENDING\n",
            "merge job 102: PENDING\n", "1 of 3 shards finished; 5 of 10 trials done\n", NULL});
    free(out);
    /* scontrol knows the task squeue no longer lists */
    char *sc = xasprintf("%s/scontrol", f.dir);
    write_file(sc, "#!/bin/sh\nprintf 'JobId=104 ArrayJobId=101 ArrayTaskId=0\\n   JobState=COMPLETED Reason=None\\n'\n", 1);
    setenv("RUNNER_SCONTROL", sc, 1);
    shard_state(run, 2, 3, 3, 1);
    shard_state(run, 3, 3, 3, 1);
    out = status_of(run, &rc);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "job 101_0: COMPLETED\n"), "%s", out);
    cr_assert(strstr(out, "3 of 3 shards finished; 10 of 10 trials done\n"), "%s", out);
    free(out);
    free(sc);
    /* a run folder of plain --shard runs: N from its folders, no Slurm */
    char *plain = xasprintf("%s/plain", f.dir);
    mkdir(plain, 0755);
    shard_state(plain, 1, 2, 1, 1);
    out = status_of(plain, &rc);
    cr_assert_eq(rc, 1, "%s", out);
    cr_assert(strstr(out, ": 2 shards\n"), "%s", out);
    cr_assert(strstr(out, "2/2          0/?           not started"), "%s", out);
    free(out);
    char *args[] = {"/nonexistent/run", NULL};
    cr_assert_eq(cmd_status_main(1, args), 2);
    cr_assert_eq(cmd_status_main(1, (char *[]){f.dir, NULL}), 2, "no shards, no job.sbatch");
    free(plain);
    free(run);
    fixture_free(&f);
}

/* Issue 14: a job.sbatch edited to ask for 10^8 shards is refused at once
 * (it walked every shard for minutes), and so are such shard folders. */
Test(submit_cmd, status_of_a_tampered_job_sbatch_is_bounded, .timeout = 20)
{
    fixture f = fixture_made();
    char *run = xasprintf("%s/tampered", f.dir);
    mkdir(run, 0755);
    char *job = xasprintf("%s/job.sbatch", run);
    write_file(job, "#!/bin/sh\n#SBATCH --array=0-99999999\n", 0);
    cr_assert_eq(slurm_script_shards("#SBATCH --array=0-99999999\n"), -1);
    cr_assert_eq(slurm_script_shards("x=$((SLURM_ARRAY_TASK_ID + 1))/100000000\n"), -1);
    cr_assert_eq(slurm_script_shards("#SBATCH --array=0-99999\n"), 100000);
    double t0 = now_seconds();
    int rc;
    char *out = status_of(run, &rc);
    cr_assert_eq(rc, 2, "%s", out);
    free(out);
    cr_assert_eq(submit(2, "--resume", run), 2);
    cr_assert_lt(now_seconds() - t0, 5.0);
    /* folders that name too many shards are no count either */
    unlink(job);
    char *sd = xasprintf("%s/shard-1-of-99999999", run);
    mkdir(sd, 0755);
    cr_assert_eq(cmd_status_main(1, (char *[]){run, NULL}), 2);
    free(sd);
    free(job);
    free(run);
    fixture_free(&f);
}

Test(submit_cmd, a_file_without_name_runs_from_where_it_is, .timeout = 30)
{
    fixture f = fixture_made();
    char *exp = xasprintf("%s/noname.yaml", f.dir);
    write_file(exp, "workload: noop\nsweep:\n  seed: [1, 2]\n", 0);
    cr_assert_eq(submit(3, exp, "--output", f.out), 0);
    char *p = xasprintf("%s/noname", f.out);
    DIR *dd = opendir(p);
    cr_assert(dd);
    struct dirent *de;
    while ((de = readdir(dd)) && de->d_name[0] == '.')
        ;
    cr_assert(de && strcmp(de->d_name, "latest"), "one run, no latest");
    free(p);
    p = xasprintf("%s/noname/%s/job.sbatch", f.out, de->d_name);
    closedir(dd);
    char *job = text_of(p);
    strbuf want = {0};
    sh_quote(&want, exp);
    sb_putc(&want, '\n');
    size_t jl = strlen(job);
    cr_assert(jl > want.len && !strcmp(job + jl - want.len, want.s),
              "the shards run the original (a copy would be named 'experiment'):\n%s", job);
    sb_free(&want);
    free(job);
    free(p);
    free(exp);
    fixture_free(&f);
}

/* issue 16: latest is earned: submit leaves it alone; the merge of a
 * finished run with an ok trial moves it, an incomplete or all-failed one
 * does not */
static void shard_exp(const char *run, int k, int n)
{
    char *p = xasprintf("%s/shard-%d-of-%d/experiment.yaml", run, k, n);
    write_file(p, "name: subtest\nworkload: selftest\n", 0);
    free(p);
}

static int merge_quiet(const char *run)
{
    char *files[] = {(char *)run, NULL};
    cli c = {.cmd = CMD_MERGE, .files = files, .nfiles = 1, .quiet = 1, .no_plots = 1};
    return cmd_merge(&c);
}

Test(submit_cmd, latest_moves_at_the_merge_of_a_finished_run_with_an_ok_trial, .timeout = 30)
{
    fixture f = fixture_made();
    cr_assert_eq(submit(5, f.exp, "--shards", "2", "--output", f.out), 0);
    char *run = latest(&f);
    char *lnk = xasprintf("%s/subtest/latest", f.out);
    struct stat st;
    cr_assert(lstat(lnk, &st) < 0, "submit moved latest");
    /* one shard unfinished: merged, incomplete, latest not moved */
    shard_state(run, 1, 2, 5, 1);
    shard_state(run, 2, 2, 3, 0);
    shard_exp(run, 1, 2);
    shard_exp(run, 2, 2);
    cr_assert_neq(merge_quiet(run), 0);
    cr_assert(lstat(lnk, &st) < 0, "an incomplete merge moved latest");
    /* both finished: latest -> the run */
    shard_state(run, 2, 2, 5, 1);
    cr_assert_eq(merge_quiet(run), 0);
    char buf[256];
    ssize_t n = readlink(lnk, buf, sizeof buf - 1);
    cr_assert(n > 0, "the merge did not move latest");
    buf[n] = '\0';
    cr_assert_str_eq(buf, strrchr(run, '/') + 1);
    free(run);
    free(lnk);
    fixture_free(&f);
}

Test(submit_cmd, a_merge_with_no_ok_trial_leaves_latest, .timeout = 30)
{
    fixture f = fixture_made();
    cr_assert_eq(submit(5, f.exp, "--shards", "2", "--output", f.out), 0);
    char *run = latest(&f);
    for (int k = 1; k <= 2; k++) {
        char *p = xasprintf("%s/shard-%d-of-2", run, k);
        mkdir(p, 0755);
        free(p);
        p = xasprintf("%s/shard-%d-of-2/trials.csv", run, k);
        write_file(p, k == 1 ? "trial,seed,status\n0,1,failed\n" : "trial,seed,status\n1,2,skipped\n", 0);
        free(p);
        p = xasprintf("%s/shard-%d-of-2/meta.json", run, k);
        write_file(p, "{\"finished\": true}\n", 0);
        free(p);
        shard_exp(run, k, 2);
    }
    cr_assert_eq(merge_quiet(run), 0);
    char *lnk = xasprintf("%s/subtest/latest", f.out);
    struct stat st;
    cr_assert(lstat(lnk, &st) < 0, "a run with no ok trial became latest");
    free(run);
    free(lnk);
    fixture_free(&f);
}
