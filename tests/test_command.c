/* test_command.c - `workload: command` (doc/own-code.md): both protocols
 * with a C program (tests/command/proto_prog.c, examples/command/sumsq.c)
 * and a Python one (tests/command/py_work.py through
 * python/runner_workload.py); placeholders; the program's own time against
 * a known spin; a crash, an early exit, a hang, garbage on stdout,
 * malformed replies, a time longer than the round trip; the torch studies'
 * skip without PyTorch.  Bad keys are in the corpus (tests/bad/command_*). */
#include "base/csv.h"
#include "experiment/machine/sysload.h"
#include "scenario.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* the row whose column `col` is `val` */
static int row_of(const csv_table *t, const char *col, const char *val)
{
    for (int i = 1; i < t->nrows; i++)
        if (!strcmp(cell(t, i, col), val))
            return i;
    cr_assert_fail("no trial with %s=%s", col, val);
    return -1;
}

static const char *prog(const char *name)
{
    static char p[2][1024];
    static int k;
    const char *f = getenv("RUNNER_FAKES");
    cr_assert(f, "RUNNER_FAKES is not set (make test sets it)");
    k ^= 1;
    snprintf(p[k], sizeof p[k], "%s/command/%s", f, name);
    return p[k];
}

static const char *root(void)
{
    const char *r = getenv("RUNNER_ROOT");
    cr_assert(r, "RUNNER_ROOT is not set (make test sets it)");
    return r;
}

/* Runs `yaml` (with %s for the program, given as prog), asserts its exit
 * status is `want` and reads its trials. */
static char *run_with(const char *fmt, const char *program, int want, csv_table *t)
{
    char yaml[4096];
    proc_out r;
    snprintf(yaml, sizeof yaml, fmt, program);
    return run_trials(yaml, want, &r, t);
}

/* run_with of the persistent command `program` with `rest` after the
 * experiment's head; persistent: tests/command/NAME, python: python3
 * tests/command/py_work.py. */
static char *run_persistent(const char *program, const char *rest, int want, csv_table *t)
{
    char fmt[4096];
    snprintf(fmt, sizeof fmt, "workload: command\ncommand: [%%s]\nprotocol: persistent\n%s", rest);
    return run_with(fmt, program, want, t);
}

/* run_with of `program` and its `args` as a per_call command, `rest` after
 * the experiment's head. */
static char *per_call(const char *program, const char *args, const char *rest, int want,
                      csv_table *t)
{
    char fmt[4096];
    snprintf(fmt, sizeof fmt, "workload: command\ncommand: [%%s%s]\nprotocol: per_call\n%s", args,
             rest);
    return run_with(fmt, program, want, t);
}

static char *persistent(const char *name, const char *rest, int want, csv_table *t)
{
    return run_persistent(prog(name), rest, want, t);
}

static char *python(const char *rest, int want, csv_table *t)
{
    char py[1024];
    snprintf(py, sizeof py, "python3, %s/tests/command/py_work.py", root());
    return run_persistent(py, rest, want, t);
}

/* --- persistent, a C program ------------------------------------------------ */

Test(command, persistent_c_program_runs_and_prints_harmlessly, .timeout = 60)
{
    csv_table t;
    char *d = persistent("proto_prog", "params: {spin: 0.0005}\nsweep:\n  action: [ok, garbage]\n"
                                       "repeats: 5\n",
                         0, &t);
    for (int i = 1; i <= 2; i++) {
        expect_trial(&t, i, "ok", NULL);
        cr_assert_str_eq(cell(&t, i, "samples"), "5");
        double med = cell_num(&t, i, "median"), rt = cell_num(&t, i, "round_trip_seconds");
        cr_assert(med >= 0.0005 && med < 0.01, "median %g for 0.5 ms calls", med);
        cr_assert(rt >= med, "the round trip %g is shorter than the program's time %g", rt, med);
        cr_assert(cell_num(&t, i, "protocol_seconds") > 0 && cell_num(&t, i, "protocol_seconds") < 0.1,
                  "protocol_seconds %s", cell(&t, i, "protocol_seconds"));
        /* the program's extras: its last run request had the sample's batch */
        const char *batch = *cell(&t, i, "batch_size") ? cell(&t, i, "batch_size") : "1";
        cr_assert_str_eq(cell(&t, i, "calls_seen"), batch);
        cr_assert_str_eq(cell(&t, i, "checked"), "yes");
        double g = 1000 / cell_num(&t, i, "median") / 1e9; /* the flops its setup stated */
        cr_assert(fabs(cell_num(&t, i, "gflops") - g) <= 1e-6 * g, "gflops %s", cell(&t, i, "gflops"));
    }
    /* one program for both trials: started in the first only */
    cr_assert(cell_num(&t, 1, "program_start_seconds") > 0);
    cr_assert_str_eq(cell(&t, 2, "program_start_seconds"), "", "the program was started again");
    trials_done(&t, d);
}

/* A sample is one run request of its batch: k calls, their time over k. */
Test(command, a_batch_is_one_request_of_k_calls, .timeout = 60)
{
    csv_table t;
    char *d = persistent("proto_prog", "params: {spin: 0.0005}\nbatch: 4\nrepeats: 3\n", 0, &t);
    expect_trial(&t, 1, "ok", NULL);
    cr_assert_str_eq(cell(&t, 1, "calls_seen"), "4");
    double med = cell_num(&t, 1, "median");
    cr_assert(med >= 0.0005 && med < 0.002, "median %g s for 0.5 ms calls in fours", med);
    cr_assert(cell_num(&t, 1, "round_trip_seconds") >= med);
    trials_done(&t, d);
}

Test(command, persistent_failures_fail_their_trial_and_the_sweep_goes_on, .timeout = 60)
{
    csv_table t;
    char *d = persistent("proto_prog",
                         "sweep:\n  action: [skip, crash, ok, exit, malformed, liar, wrong, "
                         "teardown_error, setup_error, reserved]\nrepeats: 3\n",
                         1, &t);
    static const struct {
        const char *action, *status, *reason;
    } want[] = {
        {"crash", "failed", "the program was killed by signal 11 (Segmentation fault) before "
                            "answering run; stderr: proto_prog: about to crash"},
        {"exit", "failed", "the program exited with status 4 before answering run; stderr: "},
        {"malformed", "failed", "the program's reply to run is not valid (not a JSON object"},
        {"liar", "failed", "the program reported 10 s for 1 call whose round trip took"},
        {"wrong", "failed", "wrong result: the answer is 41, not 42"},
        {"teardown_error", "failed", "teardown failed: cannot let go"},
        {"setup_error", "failed", "setup failed: cannot set up"},
        {"skip", "skipped", "nothing to do here"},
        {"reserved", "failed", "command: extras() returned column `median`, which the runner "
                               "writes; rename it"},
        {"ok", "ok", ""},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        expect_trial(&t, row_of(&t, "action", want[i].action), want[i].status, want[i].reason);
    cr_assert(strstr(cell(&t, row_of(&t, "action", "malformed"), "reason"), "'this is not json'"),
              "the line it could not read");
    /* after a failed trial the program is started afresh */
    cr_assert(cell_num(&t, row_of(&t, "action", "ok"), "program_start_seconds") > 0);
    trials_done(&t, d);
}

/* A program that ends between two trials is started again for the next,
 * which does not pay for it. */
Test(command, a_program_that_ended_after_its_trial_is_started_again, .timeout = 60)
{
    csv_table t;
    char *d = persistent("proto_prog", "sweep:\n  action: [quit, ok]\nrepeats: 2\n", 0, &t);
    for (int i = 1; i <= 2; i++) {
        expect_trial(&t, i, "ok", NULL);
        cr_assert(cell_num(&t, i, "program_start_seconds") > 0, "trial %d did not start it", i);
    }
    trials_done(&t, d);
}

Test(command, restart_per_trial_starts_the_program_for_every_trial, .timeout = 60)
{
    csv_table t;
    char *d = persistent("proto_prog", "restart: per_trial\nsweep:\n  size: [1, 2, 3]\nrepeats: 2\n",
                         0, &t);
    for (int i = 1; i <= 3; i++)
        cr_assert(cell_num(&t, i, "program_start_seconds") > 0, "trial %d was not a fresh start", i);
    trials_done(&t, d);
}

Test(command, a_hanging_program_is_stopped_at_its_timeout, .timeout = 60)
{
    csv_table t;
    double t0 = mono_now();
    char *d = persistent("proto_prog", "sweep:\n  action: [hang, ok]\ntimeout: 1s\nrepeats: 2\n",
                         1, &t);
    double took = mono_now() - t0;
    expect_trial(&t, row_of(&t, "action", "hang"), "timeout", NULL);
    cr_assert_str_eq(cell(&t, row_of(&t, "action", "ok"), "status"), "ok");
    cr_assert(took < 2.0 + 1.0, "the run took %.2f s with a 1 s timeout", took);
    trials_done(&t, d);
}

/* The sample is the program's own time: a call that spins 2 ms on
 * CLOCK_MONOTONIC reads 2 ms (median within 2 %), whatever the round trip.
 * A busy-wait overshoots when the OS takes its CPU away near the end, so
 * this runs in the timing suite (the machine to itself), and a run of the
 * three that meets it passes: a loaded machine can spoil one, not the
 * runner's arithmetic.  program: proto_prog's path or python3 and py_work.py. */
static void spin_within_2_percent(const char *program, const char *rest)
{
    double med = NAN;
    for (int attempt = 0; attempt < 3; attempt++) {
        csv_table t;
        char *d = run_persistent(program, rest, 0, &t);
        expect_trial(&t, 1, "ok", NULL);
        med = cell_num(&t, 1, "median");
        trials_done(&t, d);
        if (fabs(med - 0.002) / 0.002 < 0.02)
            return;
    }
    cr_assert_fail("median %g s for a 2 ms spin, three runs in a row", med);
}

Test(timing, command_c_spin_is_measured_within_2_percent, .timeout = 120)
{
    skip_unless_timing();
    spin_within_2_percent(prog("proto_prog"), "params: {spin: 0.002}\nrepeats: 21\nbatch: 1\n");
}

/* The program a persistent trial talks to is the trial's own work: its CPU
 * time is not other processes' load (it read other_cpu 1.0, `busy`, on an
 * idle machine: doc/timing.md#load). */
Test(timing, a_persistent_programs_own_cpu_is_not_other_load, .timeout = 120)
{
    skip_unless_timing();
    /* other processes' CPU over half a second first: on a machine already
     * busy the run reads their load, rightly, and says nothing of this */
    load_snap a, b;
    load_sum s = {0};
    load_snap_take(&a, 0);
    usleep(500000);
    load_snap_take(&b, 0);
    load_add(&s, &a, &b);
    if (s.wall > 0 && s.other / s.wall > 0.25)
        cr_skip_test("other processes use %.2f cores: the machine is not idle", s.other / s.wall);
    csv_table t;
    char *d = run_persistent(prog("proto_prog"), "params: {spin: 0.03}\nrepeats: 12\nbatch: 1\n",
                             0, &t);
    expect_trial(&t, 1, "ok", NULL);
    double other = cell_num(&t, 1, "other_cpu");
    cr_assert(other >= 0 && other < 0.5, "other_cpu %g for the trial's own program", other);
    /* no noise column at all when no trial has a noise flag */
    if (csv_col(&t, "noise") >= 0)
        cr_assert(!strstr(cell(&t, 1, "noise"), "busy"), "noise: %s", cell(&t, 1, "noise"));
    trials_done(&t, d);
}

Test(command, the_c_example_speaks_the_protocol, .timeout = 60)
{
    csv_table t;
    char *d = persistent("sumsq", "sweep:\n  size: [1000, 100000]\nrepeats: 3\n", 0, &t);
    for (int i = 1; i <= 2; i++) {
        expect_trial(&t, i, "ok", NULL);
        cr_assert(cell_num(&t, i, "gflops") > 0 && cell_num(&t, i, "gbps") > 0);
        cr_assert(cell_num(&t, i, "sum") > 0);
    }
    trials_done(&t, d);
}

/* --- per_call ------------------------------------------------------------------ */

Test(command, per_call_times_each_run_and_fails_on_status_or_signal, .timeout = 60)
{
    csv_table t;
    char *d = per_call(prog("proto_prog"), ", --spin, \"{secs}\", \"{how}\", \"{code}\"",
                       "params: {secs: 0.002}\nsweep:\n  end:\n"
                       "    - {label: fine, how: --exit, code: 0}\n"
                       "    - {label: status, how: --exit, code: 3}\n"
                       "    - {label: signal, how: --signal, code: 11}\nrepeats: 3\n",
                       1, &t);
    int ok = row_of(&t, "end", "fine"), st = row_of(&t, "end", "status"),
        sg = row_of(&t, "end", "signal");
    expect_trial(&t, ok, "ok", NULL);
    double med = cell_num(&t, ok, "median"), spawn = cell_num(&t, ok, "spawn_seconds");
    cr_assert(med >= 0.002, "median %g below the 2 ms the program spins", med);
    cr_assert(spawn > 0 && spawn < 0.5, "spawn_seconds %g", spawn);
    cr_assert_str_eq(cell(&t, st, "reason"), "the program exited with status 3; stderr: "
                                             "proto_prog: exiting with 3 as asked");
    expect_trial(&t, sg, "failed", "the program was killed by signal 11");
    trials_done(&t, d);
}

/* What a per_call run starts with (doc/own-code.md#how-the-program-runs),
 * sh checks it of itself: no signal blocked, SIGINT and SIGPIPE not ignored
 * (the worker ignores both), stdin and stdout on /dev/null, stderr in the
 * runner's memory file, a process group of its own. */
static const char sh_checks_its_start[] =
    ", -c, 's=/proc/$$/status; ign=$(sed -n \"s/^SigIgn:[[:space:]]*//p\" $s); "
    "blk=$(sed -n \"s/^SigBlk:[[:space:]]*//p\" $s); "
    "[ $((0x$ign & 0x1002)) -eq 0 ] || (echo \"ignored: $ign\" >&2; exit 1) || exit 1; "
    "[ $((0x$blk)) -eq 0 ] || (echo \"blocked: $blk\" >&2; exit 1) || exit 1; "
    "[ \"$(readlink /proc/$$/fd/0)$(readlink /proc/$$/fd/1)\" = /dev/null/dev/null ] || "
    "(echo \"stdin, stdout: $(readlink /proc/$$/fd/0) $(readlink /proc/$$/fd/1)\" >&2; exit 1) "
    "|| exit 1; case $(readlink /proc/$$/fd/2) in *memfd:runner-program-stderr*) ;; *) echo "
    "\"stderr: $(readlink /proc/$$/fd/2)\" >&2; exit 1;; esac; "
    "set -- $(cut -d\")\" -f2 /proc/$$/stat); [ \"$3\" = $$ ] || (echo \"group $3\" >&2; "
    "exit 1)'";

Test(command, a_per_call_run_starts_with_default_signals_and_its_own_fds_and_group,
     .timeout = 60)
{
    csv_table t;
    char *d = per_call("sh", sh_checks_its_start, "repeats: 3\nbatch: 1\n", 0, &t);
    expect_trial(&t, 1, "ok", NULL);
    trials_done(&t, d);
}

/* An empty call less the median start of an empty program: the fastest
 * of 21 such calls is well under one start (a loaded machine moves the
 * median, hardly the fastest), and never below 0. */
Test(command, subtract_spawn_takes_the_start_off, .timeout = 60)
{
    csv_table t;
    char *d = per_call(prog("proto_prog"), ", --spin, \"0\"",
                       "subtract_spawn: true\nrepeats: 21\nbatch: 1\n", 0, &t);
    double min = cell_num(&t, 1, "min"), spawn = cell_num(&t, 1, "spawn_seconds");
    cr_assert(spawn > 0 && min >= 0 && min < spawn,
              "the fastest empty call less the spawn: %g s (spawn %g s)", min, spawn);
    trials_done(&t, d);
}

/* Placeholders in the arguments and env, and the program's folder: sh checks them. */
static const char sh_checks_placeholders[] =
    ", -c, 'test \"$1-$2-$3\" = \"7-f64-1\" && test \"$X\" = \"cpu/{{x}}/2\" && test -f e.yaml', "
    "sh, \"{size}\", \"{dtype}\", \"{threads}\"";

Test(command, placeholders_are_replaced_in_arguments_and_env, .timeout = 60)
{
    csv_table t;
    const char *rest = "env: {X: \"{device}/{{x}}/{label_n}\"}\nsize: 7\ndtype: f64\nthreads: 1\n"
                       "params: {label_n: 2}\nrepeats: 2\n";
    char *d = per_call("sh", sh_checks_placeholders, rest, 0, &t);
    expect_trial(&t, 1, "ok", NULL);
    trials_done(&t, d);
}

/* A bare program name not on PATH: the hint names a file beside the
 * experiment only when that file exists (it once named ./benchx always). */
Test(command, a_program_not_on_path_names_a_file_beside_only_if_there_is_one, .timeout = 30)
{
    char *d = tmpdir();
    char exp[1024], prog_path[1024];
    write_text(d, "e.yaml", "workload: command\ncommand: [benchx-not-a-program]\n");
    snprintf(exp, sizeof exp, "%s/e.yaml", d);
    proc_out r;
    run((char *[]){"validate", exp, NULL}, &r);
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, "e.yaml:2:11: error: program 'benchx-not-a-program' not found on PATH"),
              "%s", r.err);
    cr_assert(!strstr(r.err, "beside"), "no such file, yet: %s", r.err);
    snprintf(prog_path, sizeof prog_path, "%s/benchx-not-a-program", d);
    write_file(prog_path, "#!/bin/sh\n", 1);
    run((char *[]){"validate", exp, NULL}, &r);
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, "(a file beside the experiment is ./benchx-not-a-program: write "
                            "[./benchx-not-a-program] to run it)"),
              "%s", r.err);
    rm_rf(d);
    free(d);
}

/* size_means names the size axis of a command workload, which cannot say
 * itself what its size counts (it read "size (not stated)"); `runner plot`
 * keeps it where the program's script is gone (the run folder read
 * elsewhere: its saved experiment stood for nothing). */
Test(command, size_means_names_the_size_axis, .timeout = 60)
{
    char *d = tmpdir(), run_dir[SCENARIO_PATH], script[SCENARIO_PATH];
    write_text(d, "s.sh", "exit 0\n");
    run_e_yaml(d,
               "name: sm\nworkload: command\ncommand: [sh, s.sh]\nsize_means: numbers sorted\n"
               "repeats: 2\nsweep:\n  size: [1, 2]\n",
               "sm", run_dir);
    char *gp = run_text(run_dir, "plots/time.gp");
    cr_assert(strstr(gp, "set xlabel 'size (numbers sorted)'"), "%s", gp);
    free(gp);
    snprintf(script, sizeof script, "%s/s.sh", d);
    cr_assert_eq(unlink(script), 0);
    proc_out r;
    run((char *[]){"plot", run_dir, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    gp = run_text(run_dir, "plots/time.gp");
    cr_assert(strstr(gp, "set xlabel 'size (numbers sorted)'"), "%s\n%s", r.err, gp);
    free(gp);
    rm_rf(d);
    free(d);
}

/* The findings say that a command workload's dtype chose its ceiling: the
 * runner cannot see what the program computes in. */
Test(command, the_findings_name_the_dtype_that_chose_the_ceiling, .timeout = 60)
{
    char *d = tmpdir(), run_dir[SCENARIO_PATH], yaml[4096];
    snprintf(yaml, sizeof yaml,
             "name: dt\nworkload: command\ncommand: [%s]\nprotocol: persistent\n"
             "params: {spin: 0.0002}\nrepeats: 3\nsweep:\n  size: [1, 2]\n",
             prog("proto_prog"));
    run_e_yaml(d, yaml, "dt", run_dir);
    char *md = run_text(run_dir, "report.md");
    cr_assert(strstr(md, "of the fp32 ceiling at size = ") &&
                  strstr(md, "(the file's `dtype`, f32, chose this ceiling: set it to the "
                             "precision the code computes in)"),
              "%s", md);
    free(md);
    rm_rf(d);
    free(d);
}

/* --- Python ------------------------------------------------------------------- */

/* The guide's Python examples without torch (doc/own-code.md): sort.py, the
 * standard library alone, charts everywhere; numpy_matmul.py wherever the
 * python3 on PATH imports NumPy (python3-numpy, a test package), else every
 * trial says why it was skipped. */
Test(command, the_python_examples_without_torch_chart, .timeout = 120)
{
    const char *names[] = {"sort", "numpy_matmul"};
    int numpy = system("python3 -c 'import numpy' 2>/dev/null") == 0;
    for (int k = 0; k < 2; k++) {
        char *d = tmpdir(), e[4096], out[4096], p[4200];
        snprintf(e, sizeof e, "%s/examples/python/%s.yaml", root(), names[k]);
        snprintf(out, sizeof out, "%s/run", d);
        proc_out r;
        run((char *[]){"--quiet", "--run-dir", out, e, NULL}, &r);
        cr_assert_eq(r.status, 0, "%s: %s", names[k], r.err);
        csv_table t;
        read_trials(d, &t); /* D/run/trials.csv */
        cr_assert_gt(t.nrows, 4, "%s", names[k]);
        for (int i = 1; i < t.nrows; i++)
            if (k == 0 || numpy)
                expect_trial(&t, i, "ok", NULL);
            else
                expect_trial(&t, i, "skipped", "python module numpy not found");
        if (k == 0 || numpy) {
            snprintf(p, sizeof p, "%s/plots/time.png", out);
            cr_assert_eq(access(p, R_OK), 0, "no %s", p);
        }
        if (k == 1 && numpy) {
            snprintf(p, sizeof p, "%s/plots/roofline.png", out);
            cr_assert_eq(access(p, R_OK), 0, "no %s", p);
            cr_assert_str_eq(cell(&t, t.nrows - 1, "dtype"), "f64");
        }
        csv_free(&t);
        rm_rf(d);
        free(d);
    }
}


Test(command, python_helper_persistent_and_per_call, .timeout = 60)
{
    csv_table t;
    char *d = python("sweep:\n  size: [10, 1000]\nrepeats: 3\n", 0, &t);
    for (int i = 1; i <= 2; i++) {
        expect_trial(&t, i, "ok", NULL);
        cr_assert(cell_num(&t, i, "py_sum") > 0, "py_sum '%s'", cell(&t, i, "py_sum"));
        cr_assert(cell_num(&t, i, "gflops") > 0);
    }
    trials_done(&t, d);
    d = per_call("python3", ", -c, 'import sys; sys.exit(0)'", "repeats: 2\nwarmups: 0\n", 0, &t);
    expect_trial(&t, 1, "ok", NULL);
    trials_done(&t, d);
}

Test(timing, command_python_spin_is_measured_within_2_percent, .timeout = 120)
{
    skip_unless_timing();
    char py[1024];
    snprintf(py, sizeof py, "python3, %s/tests/command/py_work.py", root());
    spin_within_2_percent(py, "env: {PY_WORK_SPIN: '0.002'}\nsize: 1\nrepeats: 21\nbatch: 1\n");
}

Test(command, python_exceptions_fail_the_trial_with_their_message, .timeout = 60)
{
    csv_table t;
    char *d = python("env: {PY_WORK_FAIL: \"{where}\"}\nsize: 3\nsweep:\n"
                     "  where: [run, check, none]\nrepeats: 2\n",
                     1, &t);
    cr_assert_str_eq(cell(&t, row_of(&t, "where", "run"), "reason"),
                     "run failed: RuntimeError: run broken on purpose");
    cr_assert_str_eq(cell(&t, row_of(&t, "where", "check"), "reason"),
                     "wrong result: ValueError: check broken on purpose");
    cr_assert_str_eq(cell(&t, row_of(&t, "where", "none"), "status"), "ok");
    trials_done(&t, d);
}

/* Without the module a study needs, its trials are skipped with the reason,
 * as experiments/torch_*.yaml's are without PyTorch. */
Test(command, a_missing_python_module_skips_the_trials, .timeout = 60)
{
    csv_table t;
    char *d = python("env: {PY_WORK_NEED: runner_no_such_module}\nsweep:\n  size: [1, 2]\n", 0, &t);
    for (int i = 1; i <= 2; i++) {
        cr_assert_str_eq(cell(&t, i, "status"), "skipped");
        cr_assert_str_eq(cell(&t, i, "reason"), "python module runner_no_such_module not found");
    }
    trials_done(&t, d);
}

Test(command, the_torch_studies_skip_without_torch, .timeout = 60)
{
    proc_out r;
    char y[1024], out[1024];
    snprintf(y, sizeof y, "%s/experiments/torch_intensive.yaml", root());
    char *d = tmpdir();
    snprintf(out, sizeof out, "%s/run", d);
    char *args[] = {"--quiet", "--no-plots", "--filter", "workload=command",
                    "--filter", "size=10", "--run-dir", out, y, NULL};
    run(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    csv_table t;
    read_trials(d, &t);
    cr_assert_eq(t.nrows, 4);
    for (int i = 1; i < t.nrows; i++) {
        const char *why = cell(&t, i, "reason");
        if (!strcmp(cell(&t, i, "status"), "ok"))
            cr_skip_test("PyTorch is installed here: the study ran");
        cr_assert_str_eq(cell(&t, i, "status"), "skipped", "%s", why);
        cr_assert(!strcmp(why, "python module torch not found") ||
                      strstr(why, "no CUDA device"),
                  "%s", why);
    }
    trials_done(&t, d);
}
