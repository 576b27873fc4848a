/* test_hostile.c - programs and plugins that misbehave on purpose
 * (doc/own-code.md#what-the-runner-guarantees): the runner never waits for
 * a reply from a program that ended, never hangs on a worker that closed
 * its pipe, ends at once on SIGTERM with its finished trials saved, never
 * believes (or crashes on) bytes the worker did not write, leaves no
 * process of a trial running after the trial or after a runner killed
 * with SIGKILL, keeps only the tail of a program's stderr, and says
 * truthfully what happened.  The programs: tests/command/hostile_prog.c;
 * the plugins: tests/plugin/test_plugin_lib.c (closefds, forge, selfkill,
 * pidfile). */
#include "base/csv.h"
#include "scenario.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *fake(const char *name)
{
    static char p[4][4096];
    static int k;
    const char *f = getenv("RUNNER_FAKES");
    cr_assert(f, "RUNNER_FAKES is not set (make test sets it)");
    char *out = p[k++ % 4];
    snprintf(out, 4096, "%s/%s", f, name);
    cr_assert_eq(access(out, R_OK), 0, "%s is missing (make the FAKES and PLUGINS)", out);
    return out;
}

/* runs `yaml` (its %s: fake(name)) and reads its trials; *took: seconds */
static char *run_timed(const char *fmt, const char *name, int want, csv_table *t, double *took)
{
    char yaml[8192];
    snprintf(yaml, sizeof yaml, fmt, fake(name));
    proc_out r;
    double t0 = mono_now();
    char *d = run_trials(yaml, want, &r, t);
    if (took)
        *took = mono_now() - t0;
    return d;
}

/* The pid in `file`, waited for up to 30 s (0: never written). */
static long pid_in(const char *file)
{
    for (int i = 0; i < 3000; i++) {
        char *s = read_all(file);
        long pid = s ? atol(s) : 0;
        free(s);
        if (pid > 1)
            return pid;
        usleep(10000);
    }
    return 0;
}

/* `pid` ends within 3 s; killed if it does not (the test fails). */
static void expect_gone(long pid, const char *what)
{
    cr_assert(pid > 1, "%s never wrote its pid", what);
    int alive = 1;
    for (int i = 0; i < 300 && (alive = proc_running(pid)); i++)
        usleep(10000);
    if (alive)
        kill((pid_t)pid, SIGKILL);
    cr_assert(!alive, "%s (pid %ld) outlived what it belonged to", what, pid);
}

/* --- high: hangs and forged messages --------------------------------------- */

/* The program exits while a child it forked keeps its reply pipe open (a
 * data loader, multiprocessing): the trial fails at once with its exit
 * status and stderr, not at the timeout (or never, without one). */
Test(hostile, a_program_that_exits_while_its_child_holds_the_pipe_fails_at_once, .timeout = 40)
{
    csv_table t;
    double took;
    char *d = run_timed("workload: command\ncommand: [%s]\nprotocol: persistent\n"
                        "params: {action: fork_exit}\ntimeout: 10s\nrepeats: 2\n",
                        "command/hostile_prog", 1, &t, &took);
    expect_trial(&t, 1, "failed",
                 "the program exited with status 1 before answering setup; stderr: "
                 "hostile_prog: leaving; a child keeps the pipe");
    cr_assert_lt(took, 6.0, "the run took %.1f s with a 10 s timeout", took);
    trials_done(&t, d);
}

/* A plugin closes the worker's descriptors, then blocks: its trial fails
 * within about a second, and the next one runs. */
Test(hostile, a_plugin_that_closes_its_descriptors_and_blocks_fails_its_trial, .timeout = 40)
{
    csv_table t;
    double took;
    char *d = run_timed("workload: plugin:%s:axpy\nwarmup_time: 0\nsweep: {size: [1, 2, 3]}\n"
                        "repeats: 2\ntimeout: 20s\n",
                        "plugin-closefds.so", 1, &t, &took);
    expect_statuses(&t, "ok|failed: the worker closed its pipe to the runner and did not end|ok");
    cr_assert_lt(took, 10.0, "the run took %.1f s", took);
    trials_done(&t, d);
}

/* SIGTERM while a plugin's trial hangs (no timeout): the runner ends
 * within 2 s (exit 130) and the trial that finished is saved. */
Test(hostile, sigterm_during_a_hanging_plugin_trial_ends_the_run_with_its_trials, .timeout = 40)
{
    char *d = tmpdir(), exp[SCENARIO_PATH], out[SCENARIO_PATH], yaml[8192];
    snprintf(yaml, sizeof yaml,
             "name: h\nworkload: plugin:%s:axpy\nwarmup_time: 0\nsweep: {size: [1, 2]}\n"
             "repeats: 2\n",
             fake("plugin-hang.so"));
    experiment_at(d, "h.yaml", yaml, exp, out);
    int o, e;
    pid_t pid = start((char *[]){"--quiet", "--no-plots", "--output", out, exp, NULL}, &o, &e);
    usleep(2500 * 1000); /* trial 1 done, trial 2 blocked */
    double t0 = mono_now();
    kill(pid, SIGTERM);
    proc_out r;
    finish(pid, o, e, &r);
    double took = mono_now() - t0;
    cr_expect_eq(r.status, 130, "exit %d: %s", r.status, r.err);
    cr_expect_lt(took, 2.0, "ended %.2f s after SIGTERM", took);
    csv_table t;
    read_newest(out, "h", "trials.csv", &t);
    expect_trial(&t, 1, "ok", NULL);
    trials_done(&t, d);
}

/* A per_call program writes a forged "trial done" (status 1000) into
 * every pipe of the worker's it can open through /proc/PPID/fd: it can open
 * none (the worker is not dumpable), or, run as root, it can, and its
 * trial fails saying so; the runner, which never uses a status it did not
 * check, goes on either way. */
Test(hostile, a_per_call_program_cannot_forge_the_workers_messages, .timeout = 40)
{
    char yaml[8192];
    snprintf(yaml, sizeof yaml,
             "workload: command\ncommand: [%s, --forge]\nprotocol: per_call\n"
             "sweep: {size: [1, 2]}\nrepeats: 3\n",
             fake("command/hostile_prog"));
    proc_out r;
    char *d = tmpdir();
    run_yaml_in(d, yaml, NULL, &r);
    cr_assert(r.status == 0 || r.status == 1, "exit %d: %s", r.status, r.err);
    csv_table t;
    read_trials(d, &t);
    cr_assert_eq(t.nrows, 3);
    for (int i = 1; i <= 2; i++)
        if (strcmp(cell(&t, i, "status"), "ok"))
            expect_trial(&t, i, "failed", "held bytes the worker did not write");
    trials_done(&t, d);
}

/* A plugin, inside the worker, can write into its pipe: the bytes lack the
 * worker's nonce, so its trial fails saying so, and the next one runs. */
Test(hostile, a_plugin_that_forges_a_message_fails_only_its_trial, .timeout = 40)
{
    csv_table t;
    char *d = run_timed("workload: plugin:%s:axpy\nwarmup_time: 0\nsweep: {size: [1, 2, 3]}\n"
                        "repeats: 2\n",
                        "plugin-forge.so", 1, &t, NULL);
    expect_statuses(&t, "ok|failed: held bytes the worker did not write|ok");
    trials_done(&t, d);
}

/* --- medium: processes and output ------------------------------------------ */

/* kill -9 of the runner while a trial's program runs: the program (a
 * per_call run, a persistent program's helper in its group) dies too. */
static void dies_with_the_runner(const char *yaml_fmt)
{
    char *d = tmpdir(), exp[SCENARIO_PATH], out[SCENARIO_PATH], yaml[8192], pidf[4096];
    snprintf(pidf, sizeof pidf, "%s/prog.pid", d);
    snprintf(yaml, sizeof yaml, yaml_fmt, fake("command/hostile_prog"), pidf, pidf);
    experiment_at(d, "k.yaml", yaml, exp, out);
    int o, e;
    pid_t pid = start((char *[]){"--quiet", "--no-plots", "--output", out, exp, NULL}, &o, &e);
    long prog = pid_in(pidf);
    kill(pid, SIGKILL);
    proc_out r;
    finish(pid, o, e, &r);
    expect_gone(prog, "a trial's process");
    rm_rf(d);
    free(d);
}

Test(hostile, a_per_call_program_dies_with_a_runner_killed_by_sigkill, .timeout = 40)
{
    dies_with_the_runner("workload: command\ncommand: [%s, --sleep, %s]\nprotocol: per_call\n"
                         "env: {X: \"%s\"}\nrepeats: 1\n");
}

/* A daemon (setsid, its parent gone) a persistent program left, the
 * program still waiting: kill -9 of the runner ends it too (the worker
 * that adopted it ends what it adopted as it dies). */
Test(hostile, a_daemon_dies_with_a_runner_killed_by_sigkill, .timeout = 40)
{
    dies_with_the_runner("workload: command\ncommand: [%s]\nprotocol: persistent\n"
                         "env: {PIDFILE: \"%s\", X: \"%s\"}\n"
                         "params: {action: daemon_hang}\nrepeats: 2\n");
}

Test(hostile, a_persistent_programs_helper_dies_with_a_runner_killed_by_sigkill, .timeout = 40)
{
    dies_with_the_runner("workload: command\ncommand: [%s]\nprotocol: persistent\n"
                         "env: {PIDFILE: \"%s\", X: \"%s\"}\n"
                         "params: {action: helper, spin: 0.01}\nrepeats: 100000\n");
}

/* A daemon (setsid, its parent gone) that a trial left is killed at the
 * trial's end, and at its timeout. */
static void daemon_is_killed(const char *action, const char *more, int want)
{
    char *d = tmpdir(), yaml[8192], pidf[4096];
    snprintf(pidf, sizeof pidf, "%s/daemon.pid", d);
    snprintf(yaml, sizeof yaml,
             "workload: command\ncommand: [%s]\nprotocol: persistent\nenv: {PIDFILE: \"%s\"}\n"
             "params: {action: %s}\nrepeats: 2\n%s",
             fake("command/hostile_prog"), pidf, action, more);
    proc_out r;
    run_yaml_in(d, yaml, NULL, &r);
    cr_assert_eq(r.status, want, "exit %d: %s", r.status, r.err);
    expect_gone(pid_in(pidf), "a daemon the trial left");
    rm_rf(d);
    free(d);
}

Test(hostile, a_daemon_a_trial_left_is_killed_at_its_end, .timeout = 40)
{
    daemon_is_killed("daemon", "", 0);
}

Test(hostile, a_daemon_of_a_timed_out_trial_is_killed, .timeout = 40)
{
    daemon_is_killed("daemon_hang", "timeout: 1s\n", 1);
}

/* 32 MiB on stderr in one request: the file that keeps it holds its tail,
 * not all of it. */
Test(hostile, a_programs_stderr_is_kept_to_its_tail, .timeout = 40)
{
    csv_table t;
    char *d = run_timed("workload: command\ncommand: [%s]\nprotocol: persistent\n"
                        "params: {action: stderr_flood}\nrepeats: 2\n",
                        "command/hostile_prog", 0, &t, NULL);
    expect_trial(&t, 1, "ok", NULL);
    double held = cell_num(&t, 1, "stderr_held");
    cr_assert(held >= 0 && held < 4 << 20, "the program's stderr holds %.0f bytes", held);
    trials_done(&t, d);
}

/* The same for one run of a per_call program (it fails when its stderr
 * file holds more than 4 MiB). */
Test(hostile, a_per_call_programs_stderr_is_kept_to_its_tail, .timeout = 60)
{
    csv_table t;
    char *d = run_timed("workload: command\ncommand: [%s, --flood]\nprotocol: per_call\n"
                        "repeats: 1\nwarmups: 0\nbatch: 1\n",
                        "command/hostile_prog", 0, &t, NULL);
    expect_trial(&t, 1, "ok", NULL);
    trials_done(&t, d);
}

/* --- low: what is said ------------------------------------------------------ */

Test(hostile, what_happened_is_said_truthfully, .timeout = 60)
{
    csv_table t;
    char *d = run_timed("workload: command\ncommand: [%s]\nprotocol: persistent\n"
                        "sweep: {action: [close_pipes, check_garbage, dup_reply, stale_id, ok]}\n"
                        "repeats: 3\nbatch: 1\n",
                        "command/hostile_prog", 1, &t, NULL);
    expect_statuses(&t, "failed: the program closed its reply pipe (fd 4) and did not exit (the "
                        "runner stopped it) before answering setup"
                        "|failed: the program's reply to check is not valid"
                        "|failed: the program wrote a line nobody asked for after its reply to run"
                        "|failed: the program's reply to run is not valid (it answers request"
                        "|ok");
    cr_assert(!strstr(cell(&t, 2, "reason"), "wrong result"), "%s", cell(&t, 2, "reason"));
    trials_done(&t, d);
}

/* A plugin that sends itself SIGKILL is not said to have run out of
 * memory when the kernel's count of out-of-memory kills did not move. */
Test(hostile, a_sigkill_the_plugin_sent_itself_is_not_out_of_memory, .timeout = 40)
{
    csv_table t;
    char *d = run_timed("workload: plugin:%s:axpy\nwarmup_time: 0\nsweep: {size: [1, 2]}\n"
                        "repeats: 2\n",
                        "plugin-selfkill.so", 1, &t, NULL);
    expect_trial(&t, 2, "failed", "the worker was killed by SIGKILL (");
    const char *why = cell(&t, 2, "reason");
    if (access("/proc/vmstat", R_OK) == 0)
        cr_assert(strstr(why, "not by the kernel's out-of-memory killer") ||
                      strstr(why, "the kernel's out-of-memory killer ran"),
                  "%s", why);
    trials_done(&t, d);
}

/* The worker is killed from outside while idle, between two trials (the
 * hook before the second holds the runner for a second): the second trial,
 * which never ran, runs in a fresh worker. */
Test(hostile, a_worker_killed_between_trials_costs_no_trial, .timeout = 90)
{
    char *d = tmpdir(), exp[SCENARIO_PATH], out[SCENARIO_PATH], yaml[8192], pidf[4096], env[4200];
    write_text(d, "h.lua", "return {before_trial = function(t)\n"
                           "  if t.size ~= 2 then return end\n"
                           "  local c = os.clock() while os.clock() - c < 1 do end end}\n");
    snprintf(yaml, sizeof yaml,
             "name: k\nworkload: plugin:%s:axpy\nwarmup_time: 0\nhooks: h.lua\n"
             "sweep: {size: [1, 2]}\nrepeats: 2\n",
             fake("plugin-pidfile.so"));
    experiment_at(d, "k.yaml", yaml, exp, out);
    snprintf(pidf, sizeof pidf, "%s/worker.pid", d);
    snprintf(env, sizeof env, "WORKER_PID_FILE=%s", pidf);
    int o, e;
    pid_t pid = start_in(NULL, env, (char *[]){"--quiet", "--no-plots", "--output", out, exp, NULL},
                         &o, &e);
    long worker = pid_in(pidf);
    cr_assert(worker > 1, "the worker did not write its pid");
    /* trial 1 saved: the hook before trial 2 runs (a second of CPU) */
    char csv[SCENARIO_PATH];
    for (int i = 0; i < 3000; i++) {
        newest_run_file(out, "k", "trials.csv", csv, sizeof csv);
        if (count_lines(csv) >= 2)
            break;
        usleep(10000);
    }
    kill((pid_t)worker, SIGKILL);
    proc_out r;
    finish(pid, o, e, &r);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    csv_table t;
    read_newest(out, "k", "trials.csv", &t);
    expect_statuses(&t, "ok|ok");
    trials_done(&t, d);
}
