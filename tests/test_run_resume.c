/* test_run_resume.c - interrupted runs and the run folder as a transaction:
 * SIGINT, SIGKILL and --resume, a full disk, an edited sweep, the lock, a
 * damaged row, `latest`, planted links. */
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

Test(run, sigint_saves_finished_trials_and_resume_completes, .timeout = 60)
{
    char exp[SCENARIO_PATH], out[SCENARIO_PATH];
    char *d = experiment_in("slow.yaml",
                            "workload: selftest\nparams: {action: sleep, seconds: 0.02}\nrepeats: 2\nwarmups: 0\n"
                            "sweep:\n  size: {range: [1, 30]}\n", exp, out);
    int o, e;
    pid_t pid = start((char *[]){"--quiet", "--no-plots", "--output", out, exp, NULL}, &o, &e);
    usleep(400 * 1000);
    /* and until a trial is saved, however slowly a loaded machine starts */
    char p[4096];
    for (int i = 0; i < 3000; i++) {
        newest_run_file(out, "slow", "trials.csv", p, sizeof p);
        if (count_lines(p) >= 2)
            break;
        usleep(10000);
    }
    kill(pid, SIGINT);
    proc_out r;
    finish(pid, o, e, &r);
    cr_assert_eq(r.status, 130, "exit %d: %s", r.status, r.err);
    cr_assert(strstr(r.err, "runner --resume"), "%s", r.err);
    newest_run_file(out, "slow", "trials.csv", p, sizeof p);
    int rows = count_lines(p) - 1;
    cr_assert(rows > 0 && rows < 30, "%d rows saved", rows);
    run((char *[]){"--quiet", "--no-plots", "--resume", "--output", out, exp, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(count_lines(p), 31);
    free(d);
}

/* Runs a slow sweep (sizes 1-30, two 20 ms samples each) into a --run-dir
 * with `filter` (NULL: none), interrupts it after `ms` and a first saved
 * trial, checks that the message names "runner --run-dir DIR<opts> FILE"
 * to continue, and runs that command; *saved and *after are trials.csv's
 * rows then and at the end. */
static void interrupt_and_continue(const char *filter, int ms, const char *opts, int *saved,
                                   int *after)
{
    char *d = tmpdir(), exp[SCENARIO_PATH], rd[SCENARIO_PATH], want[8400], p[SCENARIO_PATH];
    file_at(d, "slow.yaml",
            "workload: selftest\nparams: {action: sleep, seconds: 0.02}\nrepeats: 2\nwarmups: 0\n"
            "sweep:\n  size: {range: [1, 30]}\n", exp);
    snprintf(rd, sizeof rd, "%s/rd", d);
    snprintf(p, sizeof p, "%s/trials.csv", rd);
    char *args[] = {"--quiet", "--no-plots", "--run-dir", rd, exp, NULL, NULL, NULL};
    if (filter) {
        args[4] = "--filter";
        args[5] = (char *)filter;
        args[6] = exp;
    }
    int o, e;
    pid_t pid = start(args, &o, &e);
    usleep((useconds_t)ms * 1000);
    /* and until a trial is saved, however slowly a loaded machine starts */
    for (int i = 0; i < 3000 && count_lines(p) < 2; i++)
        usleep(10000);
    kill(pid, SIGINT);
    proc_out r;
    finish(pid, o, e, &r);
    cr_assert_eq(r.status, 130, "exit %d: %s", r.status, r.err);
    snprintf(want, sizeof want, "Continue with: runner --run-dir %s%s %s\n", rd, opts, exp);
    cr_assert(strstr(r.err, want), "%s", r.err);
    *saved = count_lines(p) - 1;
    run(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    *after = count_lines(p) - 1;
    free(d);
}

/* A --run-dir run is continued by running it again into that folder: the
 * interrupted message names that command, not --resume under --output. */
Test(run, sigint_in_a_run_dir_names_the_run_dir_to_continue, .timeout = 60)
{
    int rows, after;
    interrupt_and_continue(NULL, 400, "", &rows, &after);
    cr_assert(rows > 0 && rows < 30, "%d rows saved", rows);
    cr_assert_eq(after, 30);
}

/* The continue command keeps the --filter that chose the trials (quoted
 * for the shell): run as printed, it finishes the filtered sweep, not the
 * whole experiment. */
Test(run, sigint_names_the_filters_to_continue_with, .timeout = 60)
{
    int rows, after;
    interrupt_and_continue("size=1*", 250, " --filter 'size=1*'", &rows, &after);
    cr_assert_eq(after, 11, "sizes 1 and 10-19 once each");
}

/* Kill the runner with SIGKILL at random moments, resume each time: every
 * trial must end up exactly once, with whole rows and no orphan samples. */
Test(run, sigkill_and_resume_lose_and_duplicate_nothing, .timeout = 120)
{
    char *d = dir_with("k.yaml",
                       "workload: selftest\nparams: {action: sleep, seconds: 0.008}\nrepeats: 3\nwarmups: 1\n"
                       "sweep:\n  size: {range: [0, 199]}\n");
    /* no CUDA library to load: start-up stays short, kills land in trials too */
    setenv("RUNNER_CUDA_BACKEND", "/nonexistent", 1);
    char exp[4096], out[4096];
    snprintf(exp, sizeof exp, "%s/k.yaml", d);
    snprintf(out, sizeof out, "%s/out", d);
    /* anywhere: start-up, inside a trial, between trials, in a write */
    proc_out r;
    int kills = kill_and_resume(exp, out, 200, 50, 5000, 150000, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char p[4096];
    csv_table t;
    read_newest(out, "k", "trials.csv", &t);
    cr_assert(!t.torn);
    cr_assert_eq(t.nrows, 201, "200 trials expected, got %d rows (after %d kills)", t.nrows - 1,
                 kills);
    int seen[200] = {0};
    for (int i = 1; i < t.nrows; i++) {
        cr_assert_eq(t.nfields[i], t.nfields[0], "row %d is torn", i);
        int id = atoi(t.rows[i][0]);
        cr_assert(id >= 0 && id < 200);
        seen[id]++;
    }
    for (int i = 0; i < 200; i++)
        cr_assert_eq(seen[i], 1, "trial %d appears %d times", i, seen[i]);
    csv_free(&t);
    newest_run_file(out, "k", "samples.csv", p, sizeof p);
    cr_assert_eq(csv_read(p, &t), 0);
    int per[200] = {0};
    for (int i = 1; i < t.nrows; i++)
        per[atoi(t.rows[i][0])]++;
    for (int i = 0; i < 200; i++)
        cr_assert_eq(per[i], 3, "trial %d has %d samples", i, per[i]);
    csv_free(&t);
    unsetenv("RUNNER_CUDA_BACKEND");
    cr_assert_geq(kills, 30, "only %d kills landed before the run finished", kills);
    cr_log_info("kill-and-resume: %d kills, 200 trials, 0 lost, 0 duplicated", kills);
    free(d);
}

/* A full disk: a clear error, exit 1, and no file with half a line. */
Test(run, full_disk_gives_a_clear_error_and_no_torn_file, .timeout = 60)
{
    char *d = tmpdir();
    char mnt[4096];
    snprintf(mnt, sizeof mnt, "%s/small", d);
    mkdir(mnt, 0755);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "mount -t tmpfs -o size=200k tmpfs %s 2>/dev/null", mnt);
    if (system(cmd) != 0) {
        free(d);
        cr_skip_test("cannot mount a small tmpfs here (needs root): disk-full case not run");
    }
    write_text(d, "df.yaml", "workload: selftest\nrepeats: 200\nsweep:\n  size: {range: [1, 400]}\n");
    char exp[4096];
    snprintf(exp, sizeof exp, "%s/df.yaml", d);
    proc_out r;
    run_quiet(mnt, exp, &r);
    char p[8192];
    newest_run_file(mnt, "df", "trials.csv", p, sizeof p);
    csv_table t;
    int rc = csv_read(p, &t);
    int torn_trials = rc == 0 ? t.torn : -1, rows = rc == 0 ? t.nrows : 0;
    if (rc == 0)
        csv_free(&t);
    newest_run_file(mnt, "df", "samples.csv", p, sizeof p);
    rc = csv_read(p, &t);
    int torn_samples = rc == 0 ? t.torn : -1;
    if (rc == 0)
        csv_free(&t);
    snprintf(cmd, sizeof cmd, "umount %s", mnt);
    if (system(cmd) != 0)
        cr_log_warn("could not unmount %s", mnt);
    cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
    cr_assert(strstr(r.err, "No space left on device"), "%s", r.err);
    cr_assert_eq(torn_trials, 0, "trials.csv ends in half a line");
    cr_assert_eq(torn_samples, 0, "samples.csv ends in half a line");
    cr_assert(rows > 1 && rows < 401, "%d rows", rows);
    free(d);
}

/* A trial whose row could not be written is not counted ok (issue 14): the
 * summary's ok count is the number of ok rows the file holds.  The file size
 * limit (ulimit -f, SIGXFSZ ignored) stands in for a full disk without root. */
Test(run, a_trial_whose_row_failed_to_write_is_not_counted, .timeout = 60)
{
    char *d = dir_with("fz.yaml", "workload: selftest\nrepeats: 20\nsweep:\n  size: {range: [1, 400]}\n");
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "cd %s && trap '' XFSZ && ulimit -f 24 && exec %s --quiet --no-plots --output out "
             "fz.yaml >out.txt 2>err.txt",
             d, runner_bin());
    if (system(cmd) < 0)
        cr_log_warn("system failed");
    char p[8192], errp[4096];
    snprintf(errp, sizeof errp, "%s/err.txt", d);
    FILE *f = fopen(errp, "r");
    cr_assert_not_null(f);
    char err[65536];
    size_t n = fread(err, 1, sizeof err - 1, f);
    err[n] = '\0';
    fclose(f);
    char out[4096];
    snprintf(out, sizeof out, "%s/out", d);
    newest_run_file(out, "fz", "trials.csv", p, sizeof p);
    csv_table t;
    cr_assert_eq(csv_read(p, &t), 0, "%s", p);
    int sc = csv_col(&t, "status"), ok_rows = 0;
    for (int r = 1; r < t.nrows; r++)
        ok_rows += sc < t.nfields[r] && !strcmp(t.rows[r][sc], "ok");
    int rows = t.nrows - 1, torn = t.torn;
    csv_free(&t);
    cr_assert(strstr(err, "File too large"), "%s", err);
    cr_assert_eq(torn, 0);
    cr_assert(rows > 0 && rows < 400, "%d rows", rows);
    const char *sum = strstr(err, "fz: ");
    cr_assert_not_null(sum, "%s", err);
    long long ok = -1;
    cr_assert_eq(sscanf(sum, "fz: %lld ok", &ok), 1, "%s", sum);
    cr_assert_eq(ok, ok_rows, "the summary counts %lld ok, trials.csv holds %d: %s", ok, ok_rows,
                 err);
    free(d);
}

/* --- issue 14: run folders are transactions ----------------------------- */

static void make_run(const char *d, const char *range, char *exp, char *out, size_t len)
{
    char y[512];
    snprintf(y, sizeof y,
             "name: tx\nworkload: selftest\nrepeats: 1\nwarmups: 0\n"
             "sweep:\n  size: {range: %s}\n", range);
    write_text(d, "tx.yaml", y);
    snprintf(exp, len, "%s/tx.yaml", d);
    snprintf(out, len, "%s/out", d);
}

/* An edited sweep (same columns) was resumed silently, old and new sizes
 * mixed, exit 0; now --resume refuses with what differs. */
Test(run, resume_refuses_an_edited_sweep, .timeout = 60)
{
    char *d = tmpdir(), exp[4096], out[4096], p[8192];
    make_run(d, "[0, 19]", exp, out, sizeof exp);
    proc_out r;
    run_expect(out, exp, 0, &r);
    /* mark it unfinished, as a killed run is */
    newest_run_file(out, "tx", "meta.json", p, sizeof p);
    char *m = read_all(p);
    char *f = strstr(m, "\"finished\": true");
    cr_assert_not_null(f, "%s", m);
    memcpy(f, "\"finished\":false", 16);
    FILE *fp = fopen(p, "w");
    fputs(m, fp);
    fclose(fp);
    free(m);
    make_run(d, "[1000, 1019]", exp, out, sizeof exp);
    run((char *[]){"--quiet", "--no-plots", "--resume", "--output", out, exp, NULL}, &r);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, "trial 0 was 0,") && strstr(r.err, "is 1000,") &&
                  strstr(r.err, "the sweep was edited"),
              "%s", r.err);
    newest_run_file(out, "tx", "trials.csv", p, sizeof p);
    cr_expect_eq(count_lines(p), 21, "nothing was added");
    free(d);
}

/* Two runners on one run folder: the second exits 2 naming the first. */
Test(run, a_locked_run_is_refused, .timeout = 60)
{
    char *d = tmpdir(), exp[4096], out[4096], p[8192];
    make_run(d, "[0, 3]", exp, out, sizeof exp);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/shard", d);
    proc_out r;
    run((char *[]){"--quiet", "--no-plots", "--run-dir", dir, exp, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    snprintf(p, sizeof p, "%s/.lock", dir);
    int fd = open(p, O_RDWR);
    cr_assert_geq(fd, 0);
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    cr_assert_eq(fcntl(fd, F_SETLK, &fl), 0, "the lock is released at the end");
    run((char *[]){"--quiet", "--no-plots", "--run-dir", dir, exp, NULL}, &r);
    char want[64];
    snprintf(want, sizeof want, "run is locked by pid %d", (int)getpid());
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, want), "%s", r.err);
    close(fd);
    free(d);
}

/* A garbage line whose leading integer named a trial marked it done; now
 * the row is dropped and the trial runs again, once. */
Test(run, a_damaged_row_is_run_again, .timeout = 60)
{
    char *d = tmpdir(), exp[4096], out[4096], dir[4096], p[8192];
    make_run(d, "[0, 5]", exp, out, sizeof exp);
    snprintf(dir, sizeof dir, "%s/r", d);
    mkdir(dir, 0777);
    proc_out r;
    run((char *[]){"--quiet", "--no-plots", "--run-dir", dir, exp, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* keep the header and trials 0-2, then a garbage line for trial 3 */
    snprintf(p, sizeof p, "%s/trials.csv", dir);
    char *all = read_all(p);
    char *cut = all;
    for (int i = 0; i < 4; i++)
        cut = strchr(cut, '\n') + 1;
    *cut = '\0';
    FILE *f = fopen(p, "w");
    fprintf(f, "%s3garbage,not,a,row\n", all);
    fclose(f);
    free(all);
    expect_exit((char *[]){"--quiet", "--no-plots", "--run-dir", dir, exp, NULL}, 0,
                "1 damaged row of trials.csv dropped");
    csv_table t;
    cr_assert_eq(csv_read(p, &t), 0);
    cr_assert_eq(t.nrows, 7, "one row per trial");
    for (int i = 1; i < 7; i++) {
        char id[8];
        snprintf(id, sizeof id, "%d", i - 1);
        cr_expect_str_eq(t.rows[i][0], id);
        cr_expect_str_eq(t.rows[i][csv_col(&t, "status")], "ok");
    }
    trials_done(&t, d);
}

/* A link planted in a run folder's plots/ was written through by `runner
 * plot`; now the script is replaced by rename() and gnuplot's outputs are
 * cleared first. */
Test(run, plot_does_not_follow_planted_links, .timeout = 60)
{
    char *d = tmpdir(), exp[SCENARIO_PATH], out[SCENARIO_PATH], rd[8192], p[8192], victim[SCENARIO_PATH];
    file_at(d, "p.yaml", "name: p\nworkload: noop\nrepeats: 2\nsweep:\n  size: [1, 2, 4]\n", exp);
    file_at(d, "victim", "untouched\n", victim);
    snprintf(out, sizeof out, "%s/out", d);
    proc_out r;
    run((char *[]){"--quiet", "--output", out, exp, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    snprintf(rd, sizeof rd, "%s/p/latest", out);
    DIR *dir;
    snprintf(p, sizeof p, "%s/plots", rd);
    cr_assert_not_null(dir = opendir(p));
    struct dirent *de;
    int planted = 0;
    while ((de = readdir(dir))) {
        if (de->d_name[0] == '.')
            continue;
        char f[8192 + 300];
        snprintf(f, sizeof f, "%s/plots/%s", rd, de->d_name);
        unlink(f);
        cr_assert_eq(symlink(victim, f), 0);
        planted++;
    }
    closedir(dir);
    run((char *[]){"plot", rd, NULL}, &r);
    char *v = read_all(victim);
    cr_expect_str_eq(v, "untouched\n", "%d links planted; %s", planted, r.err);
    free(v);
    free(d);
}

/* issue 16: `latest` is earned (doc/results.md#results), an empty --filter is an error */
Test(run, latest_moves_only_to_a_finished_run_with_an_ok_trial, .timeout = 30)
{
    char *d = dir_with("l.yaml", "name: earn\nworkload: selftest\nrepeats: 2\n"
                                    "sweep:\n  action: [none, fail]\n");
    char exp[4096], out[4096], p[4096], first[4096] = "", now[4096] = "";
    snprintf(exp, sizeof exp, "%s/l.yaml", d);
    snprintf(out, sizeof out, "%s/out", d);
    snprintf(p, sizeof p, "%s/earn/latest", out);
    proc_out r;
    run((char *[]){"--quiet", "--no-plots", "--output", out, exp, "--filter", "action=none",
                   NULL},
        &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(readlink(p, first, sizeof first - 1) > 0);
    sleep(1); /* a new run id */
    /* every trial failed: the run is kept, latest stays on the earlier run */
    expect_exit((char *[]){"--no-plots", "--output", out, exp, "--filter", "action=fail", NULL}, 1,
                "latest not moved: the run has no ok trial");
    cr_assert(readlink(p, now, sizeof now - 1) > 0);
    cr_assert_str_eq(now, first);
    /* a filter that matches nothing: exit 2, quoted, nothing run, latest unchanged */
    run((char *[]){"--quiet", "--no-plots", "--output", out, exp, "--filter", "action=crash*",
                   "--filter", "seed=3", NULL},
        &r);
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, "--filter 'action=crash*', 'seed=3' matches none"), "%s", r.err);
    run((char *[]){"--quiet", "--no-plots", "--output", out, exp, "--filter", "action=crash*",
                   NULL},
        &r);
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, "l.yaml: --filter 'action=crash*' matches none of the 2 trials"), "%s",
              r.err);
    memset(now, 0, sizeof now);
    cr_assert(readlink(p, now, sizeof now - 1) > 0);
    cr_assert_str_eq(now, first);
    /* both trials, one ok: latest moves */
    sleep(1);
    run_expect(out, exp, 1, &r);
    memset(now, 0, sizeof now);
    cr_assert(readlink(p, now, sizeof now - 1) > 0);
    cr_assert_str_neq(now, first);
    free(d);
}
