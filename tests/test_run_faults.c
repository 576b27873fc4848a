/* test_run_faults.c - the runner as a user runs it when things go wrong: exit
 * codes, crashing and hanging trials, hooks and teardowns, timeouts, skipped
 * trials, validation warnings. */
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

Test(run, crashing_hanging_and_failing_trials_are_recorded_and_the_sweep_goes_on, .timeout = 30)
{
    const char *yaml =
        "workload: selftest\nrepeats: 3\ntimeout: 1s\n"
        "sweep:\n  action: [none, segfault, abort, hang, fail, wrong, exit, sleep]\n";
    proc_out r;
    csv_table t;
    char *d = run_fresh("crash.yaml", yaml, 0, &r, &t);
    cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
    cr_assert_eq(t.nrows, 9);
    int st = csv_col(&t, "status"), rs = csv_col(&t, "reason"), ns = csv_col(&t, "samples");
    const char *want[][2] = {{"ok", ""},
                             {"failed", "the worker crashed: signal 11 (Segmentation fault)"},
                             {"failed", "the worker crashed: signal 6 (Aborted)"},
                             {"timeout", "stopped at the 1.00 s timeout"},
                             {"failed", "selftest: failed on purpose"},
                             {"failed", "wrong result: selftest: output 1 but the reference is 2"},
                             {"failed", "the worker exited with status 7"},
                             {"ok", ""}};
    for (int i = 0; i < 8; i++) {
        cr_assert_str_eq(t.rows[i + 1][st], want[i][0], "trial %d", i);
        cr_assert(strstr(t.rows[i + 1][rs], want[i][1]), "trial %d reason: %s", i,
                  t.rows[i + 1][rs]);
    }
    cr_assert_str_eq(t.rows[8][ns], "3", "the trial after the crashes still ran");
    csv_free(&t);
    cr_assert(strstr(r.err, "trial 1 (action=segfault) failed: the worker crashed"), "%s", r.err);
    free(d);
}

Test(run, exit_codes, .timeout = 30)
{
    proc_out r;
    char *d = tmpdir(), ok[SCENARIO_PATH], bad[SCENARIO_PATH], out[SCENARIO_PATH];
    file_at(d, "ok.yaml", "workload: noop\nrepeats: 3\n", ok);
    file_at(d, "bad.yaml", "workload: noop\nrepeat: 3\n", bad);
    snprintf(out, sizeof out, "%s/out", d);
    run_expect(out, ok, 0, &r);
    /* an invalid file among valid ones: nothing runs, exit 2 */
    expect_exit((char *[]){"--quiet", "--output", out, ok, bad, NULL}, 2,
                "bad.yaml:2:1: error: unknown key 'repeat'; did you mean 'repeats'?");
    expect_exit((char *[]){"--bogus", ok, NULL}, 2, "unknown option '--bogus'");
    expect_exit((char *[]){"--filter", "nosuch=1", ok, NULL}, 2, "--filter: unknown key 'nosuch'");
    expect_exit((char *[]){"--filter", "broken", ok, NULL}, 2, "--filter takes KEY=GLOB");
    expect_exit((char *[]){"validate", "/nonexistent.yaml", NULL}, 2,
                "/nonexistent.yaml: error: cannot open: No such file or directory");
    expect_exit((char *[]){"list", "gadgets", NULL}, 2, "usage: runner list workloads | devices");
    free(d);
}

Test(run, read_only_output_is_refused_before_any_trial, .timeout = 30)
{
    if (geteuid() == 0) {
        /* root writes anywhere; use a path under a regular file instead */
    }
    char *d = tmpdir(), ok[SCENARIO_PATH], out[SCENARIO_PATH];
    file_at(d, "ok.yaml", "workload: noop\n", ok);
    write_text(d, "file", "x");
    snprintf(out, sizeof out, "%s/file/sub", d);
    expect_exit((char *[]){"--quiet", "--output", out, ok, NULL}, 2,
                "cannot write to the output folder");
    free(d);
}

Test(run, cuda_trials_are_skipped_with_the_reason, .timeout = 30)
{
    proc_out r;
    csv_table t;
    char *d = run_fresh(
        "mm.yaml",
        "workload: matmul\nrepeats: 2\nsweep:\n  device: [cpu, cuda, 'cuda:3']\n  size: [8, 16]\n",
        5, &r, &t);
    cr_assert_eq(r.status, 0, "skips are not failures: %s", r.err);
    int st = csv_col(&t, "status"), rs = csv_col(&t, "reason");
    cr_assert_eq(t.nrows, 7);
    cr_assert_str_eq(t.rows[1][st], "ok");
    cr_assert_str_eq(t.rows[3][st], "skipped");
    cr_assert_str_eq(t.rows[3][rs], "no CUDA driver (fake)");
    trials_done(&t, d);
}

Test(run, concurrent_member_on_a_missing_device_is_skipped, .timeout = 30)
{
    proc_out r;
    csv_table t;
    char *d =
        run_fresh("c.yaml",
                  "workload: concurrent\nparams:\n  members:\n"
                  "    - {workload: noop, device: cpu}\n    - {workload: noop, device: 'cuda:1'}\n",
                  1, &r, &t);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(t.rows[1][csv_col(&t, "status")], "skipped");
    cr_assert_str_eq(t.rows[1][csv_col(&t, "reason")],
                     "member 2 needs fake:1; this machine has 0 fake devices");
    trials_done(&t, d);
}

/* A Lua workload stuck in a loop is stopped at its timeout; the next trial runs. */
Test(run, a_lua_loop_is_stopped_at_the_timeout, .timeout = 30)
{
    char *d = dir_with("spin.lua",
                       "return {run = function(ctx, p, s) if p.size == 1 then while true do end end end}\n");
    char exp[SCENARIO_PATH], out[SCENARIO_PATH];
    experiment_at(d, "l.yaml", "workload: lua:spin.lua\ntimeout: 1s\nrepeats: 2\nsweep:\n  size: [1, 2]\n", exp, out);
    proc_out r;
    run_expect(out, exp, 1, &r);
    csv_table t;
    read_newest(out, "l", "trials.csv", &t);
    cr_assert_str_eq(t.rows[1][csv_col(&t, "status")], "timeout");
    cr_assert_str_eq(t.rows[2][csv_col(&t, "status")], "ok");
    trials_done(&t, d);
}

/* Issue 14: with --allow-unsafe-lua, what a workload starts is killed with its
 * worker at the timeout (the worker's process group), not left running. */
Test(run, unsafe_lua_children_die_with_a_timed_out_worker, .timeout = 30)
{
    char *d = tmpdir();
    char lua[8192];
    snprintf(lua, sizeof lua,
             "return {run = function(ctx, p, s)\n"
             "  os.execute('sleep 60 & echo $! > %s/child.pid; wait')\n"
             "end}\n",
             d);
    write_text(d, "bg.lua", lua);
    char exp[SCENARIO_PATH], out[SCENARIO_PATH], pidp[4096];
    experiment_at(d, "b.yaml", "workload: lua:bg.lua\ntimeout: 1s\nrepeats: 1\nsweep:\n  size: [1]\n", exp, out);
    snprintf(pidp, sizeof pidp, "%s/child.pid", d);
    proc_out r;
    run((char *[]){"--quiet", "--no-plots", "--allow-unsafe-lua", "--output", out, exp, NULL}, &r);
    cr_assert_eq(r.status, 1, "%s", r.err);
    cr_assert(strstr(r.err, "timeout"), "%s", r.err);
    char *pid_text = read_all(pidp);
    cr_assert_not_null(pid_text, "the workload did not start its child: %s", r.err);
    long pid = atol(pid_text);
    free(pid_text);
    cr_assert(pid > 1);
    int alive = 1;
    for (int i = 0; i < 200 && (alive = proc_running(pid)); i++)
        usleep(10000);
    if (alive)
        kill((pid_t)pid, SIGKILL);
    cr_assert(!alive, "the workload's child %ld outlived the timed-out worker", pid);
    free(d);
}

/* `validate`, `--dry-run` and a run warn, at the timeout key, when
 * repeats: auto could be cut by a shorter timeout; the run goes on. */
Test(run, validate_warns_when_timeout_is_under_max_time, .timeout = 30)
{
    char *d = tmpdir(), a[SCENARIO_PATH], b[SCENARIO_PATH];
    file_at(d, "a.yaml", "workload: noop\nrepeats: auto\ntimeout: 2s\n", a);
    file_at(d, "b.yaml", "workload: noop\nrepeats: auto\ntimeout: 20s\n", b);
    proc_out r;
    run((char *[]){"validate", a, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.err, "warning") && strstr(r.err, "timeout 2.00 s") &&
                  strstr(r.err, "max_time 15.00 s"),
              "%s", r.err);
    cr_assert(strstr(r.err, "a.yaml:3:10: warning: 1 trial with repeats: auto (the first: trial 0)"),
              "%s", r.err);
    run((char *[]){"--dry-run", a, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.err, "a.yaml:3:10: warning: ") && strstr(r.err, "timeout 2.00 s"), "%s", r.err);
    cr_assert(!strstr(r.out, "warning"), "the CSV on stdout stays clean: %s", r.out);
    /* a run: 10 s leaves a sanitizer build time to finish the trial */
    write_text(d, "c.yaml", "workload: noop\nrepeats: auto\ntimeout: 10s\n");
    char c[4096], out[4096];
    snprintf(c, sizeof c, "%s/c.yaml", d);
    snprintf(out, sizeof out, "%s/out", d);
    run_expect(out, c, 0, &r);
    cr_assert(strstr(r.err, "c.yaml:3:10: warning: ") && strstr(r.err, "timeout 10.00 s"), "%s", r.err);
    cr_assert(strstr(r.err, "1 ok, 0 failed"), "%s", r.err);
    run((char *[]){"validate", b, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(!strstr(r.err, "warning"), "%s", r.err);
    free(d);
}

/* --- issue 14: hooks in their own process ------------------------------- */

/* A hooks file that errs, crashes its process and hangs in a C function:
 * before, the crash killed the runner (rc 139) and the hang held the run
 * for 611 s; now each fails its own trial, the rest run, the report is
 * written. */
Test(run, crashing_and_hanging_hooks_fail_only_their_trial, .timeout = 60)
{
    char *d = dir_with("w.lua", "return {run = function() end}\n");
    write_text(d, "h.lua",
               "return {skip = function(t)\n"
               "  if t.size == 2 then error('plain error') end\n"
               "  if t.size == 3 then\n"
               "    local pid = io.open('/proc/self/stat'):read('n')\n"
               "    os.execute('kill -SEGV ' .. pid)\n"
               "  end\n"
               "  if t.size == 5 then string.find(('a'):rep(2000), 'a-a-a-a-a-a-a-a-b') end\n"
               "end,\n"
               "after_trial = function(t, r) return {seen = t.size} end}\n");
    char exp[SCENARIO_PATH], out[SCENARIO_PATH], p[8192];
    experiment_at(d, "h.yaml", "name: h\nworkload: lua:w.lua\nhooks: h.lua\nrepeats: 1\nwarmups: 0\n"
                               "sweep:\n  size: {range: [1, 6]}\n", exp, out);
    proc_out r;
    double t0 = mono_now();
    run((char *[]){"--quiet", "--no-plots", "--allow-unsafe-lua", "--output", out, exp, NULL}, &r);
    double took = mono_now() - t0;
    cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
    cr_expect_lt(took, 15.0, "took %.1f s", took);
    csv_table t;
    read_newest(out, "h", "trials.csv", &t);
    cr_assert_eq(t.nrows, 7);
    int st = csv_col(&t, "status"), rs = csv_col(&t, "reason"), seen = csv_col(&t, "seen");
    const char *want[] = {"ok", "failed", "failed", "ok", "failed", "ok"};
    for (int i = 0; i < 6; i++)
        cr_expect_str_eq(t.rows[i + 1][st], want[i], "trial %d: %s", i, t.rows[i + 1][rs]);
    cr_expect(strstr(t.rows[2][rs], "h.lua:2: plain error"), "%s", t.rows[2][rs]);
    cr_expect(strstr(t.rows[3][rs], "hooks process crashed in skip(): signal 11"), "%s",
              t.rows[3][rs]);
    cr_expect(strstr(t.rows[5][rs], "h.lua: skip() did not return within 6 s"), "%s",
              t.rows[5][rs]);
    /* the restarted hooks process serves the trials after each failure */
    cr_expect_str_eq(t.rows[4][seen], "4");
    cr_expect_str_eq(t.rows[6][seen], "6");
    csv_free(&t);
    newest_run_file(out, "h", "report.md", p, sizeof p);
    cr_expect_eq(access(p, F_OK), 0, "the report is written");
    free(d);
}

/* SIGTERM while a hook hangs in a C function: was ignored (the handler
 * only set a flag); now the run ends within 1 s. */
Test(run, sigterm_ends_a_run_stuck_in_a_hook_within_1s, .timeout = 30)
{
    char *d = dir_with("w.lua", "return {run = function() end}\n");
    write_text(d, "h.lua", "return {skip = function(t)\n"
                           "  string.find(('a'):rep(2000), 'a-a-a-a-a-a-a-a-b') end}\n");
    char exp[SCENARIO_PATH], out[SCENARIO_PATH];
    experiment_at(d, "h.yaml", "name: h\nworkload: lua:w.lua\nhooks: h.lua\nsweep:\n  size: [1, 2]\n", exp, out);
    int o, e;
    pid_t pid = start((char *[]){"--quiet", "--no-plots", "--output", out, exp, NULL}, &o, &e);
    usleep(500 * 1000);
    double t0 = mono_now();
    kill(pid, SIGTERM);
    proc_out r;
    finish(pid, o, e, &r);
    double took = mono_now() - t0;
    cr_expect_eq(r.status, 130, "exit %d: %s", r.status, r.err);
    cr_expect_lt(took, 1.0, "ended %.2f s after SIGTERM", took);
    free(d);
}

/* teardown runs inside its trial: a failing one fails that trial, a
 * looping one times that trial out; before, `done` went out before
 * teardown, so the error was only printed and the hang was charged to the
 * next, innocent trial. */
Test(run, teardown_failures_are_charged_to_their_own_trial, .timeout = 30)
{
    char *d = dir_with("td.lua", "return {run = function() end,\n"
                                    "  teardown = function(ctx, p)\n"
                                    "    if p.size == 1 then error('cannot let go') end\n"
                                    "    if p.size == 2 then while true do end end\n"
                                    "  end}\n");
    char exp[SCENARIO_PATH], out[SCENARIO_PATH];
    experiment_at(d, "td.yaml", "name: td\nworkload: lua:td.lua\ntimeout: 1s\nrepeats: 2\n"
                                "sweep:\n  size: [1, 2, 3]\n", exp, out);
    proc_out r;
    run_expect(out, exp, 1, &r);
    csv_table t;
    read_newest(out, "td", "trials.csv", &t);
    int st = csv_col(&t, "status"), rs = csv_col(&t, "reason");
    cr_expect_str_eq(t.rows[1][st], "failed");
    cr_expect(strstr(t.rows[1][rs], "teardown failed: ") && strstr(t.rows[1][rs], "cannot let go"),
              "%s", t.rows[1][rs]);
    cr_expect_str_eq(t.rows[2][st], "timeout", "%s", t.rows[2][rs]);
    cr_expect_str_eq(t.rows[3][st], "ok", "%s", t.rows[3][rs]);
    trials_done(&t, d);
}

/* issue 16: threads above the CPUs this process may use is a warning, with
 * where it is set; the file is still valid */
Test(run, threads_above_the_cpus_is_a_validation_warning, .timeout = 30)
{
    char *d = tmpdir(), exp[SCENARIO_PATH];
    file_at(d, "th.yaml", "workload: noop\nsweep:\n  threads: [1, 4096]\n", exp);
    proc_out r;
    expect_exit((char *[]){"validate", exp, NULL}, 0,
                "th.yaml:3:16: warning: threads 4096 is more than the");
    write_text(d, "th.yaml", "workload: noop\nthreads: 1\n");
    run((char *[]){"validate", exp, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(!strstr(r.err, "warning"), "%s", r.err);
    free(d);
}
