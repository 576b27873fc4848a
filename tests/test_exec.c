/* test_exec.c - `runner exec` (doc/own-code.md#one-line-mode): every
 * option and command it refuses (exit 2, the reason on stderr, nothing
 * written), the split of a command given as one text, and the experiment
 * file it writes: valid (runner validate), saved in the run folder, and run
 * again from there as `runner FILE.yaml`, from any folder. */
#include "cli/exec.h"
#include "scenario.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* `runner exec ARGS...` (NULL-ended) in folder cwd (NULL: here) */
static void exec_in(const char *cwd, proc_out *r, ...)
{
    char *args[64] = {"exec"};
    int n = 1;
    va_list ap;
    va_start(ap, r);
    for (const char *a; n < 63 && (a = va_arg(ap, const char *));)
        args[n++] = (char *)a;
    va_end(ap);
    args[n] = NULL;
    int o, e;
    pid_t pid = start_in(cwd, NULL, args, &o, &e);
    finish(pid, o, e, r);
}

/* exec ARGS must exit 2 saying `msg`, print nothing on stdout and write
 * nothing into the folder it ran in */
#define REFUSED(msg, ...)                                                                    \
    do {                                                                                     \
        char *d_ = tmpdir();                                                                 \
        proc_out r_;                                                                         \
        exec_in(d_, &r_, __VA_ARGS__, NULL);                                                 \
        cr_assert_eq(r_.status, 2, "exit %d: %s", r_.status, r_.err);                        \
        cr_assert(strstr(r_.err, msg), "want '%s' in: %s", msg, r_.err);                     \
        cr_assert_str_eq(r_.out, "");                                                        \
        char ls_[4200];                                                                      \
        snprintf(ls_, sizeof ls_, "%s/results", d_);                                         \
        cr_assert(access(ls_, F_OK) != 0, "%s written", ls_);                                \
        rm_rf(d_);                                                                           \
        free(d_);                                                                            \
    } while (0)

Test(exec, refuses_no_command_and_unknown_options)
{
    REFUSED("no command: give one after --", "-r", "3");
    REFUSED("unknown option '--warmpu'; did you mean '--warmup'?", "--warmpu", "3", "--",
            "true");
    REFUSED("--shell bash: runner exec runs no shell", "--shell", "bash", "--", "true");
    REFUSED("unknown protocol 'persistant' (per_call or persistent); did you mean 'persistent'?",
            "--protocol", "persistant", "--", "true");
    REFUSED("--timeout needs a value", "true", "--timeout");
    REFUSED("--output needs a value, not an empty text", "--output", "", "--", "true");
}

Test(exec, refuses_bad_counts)
{
    REFUSED("--runs takes an integer from 1", "--runs", "0", "--", "true");
    REFUSED("-r takes an integer from 1", "-r", "x", "--", "true");
    REFUSED("-w takes an integer >= 0", "-w", "-1", "--", "true");
    REFUSED("--min-runs is above --max-runs", "-m", "9", "-M", "3", "--", "true");
    REFUSED("--runs sets the number of samples", "-r", "5", "-M", "9", "--", "true");
}

Test(exec, refuses_bad_parameters)
{
    REFUSED("--parameter-list n needs its values", "true", "-L", "n");
    REFUSED("--parameter-list n takes its values after the name", "-L", "n", "-r", "3", "--",
            "echo", "{n}");
    REFUSED("an empty value in '1,,2'", "-L", "n=1,,2", "--", "echo", "{n}");
    REFUSED("the value '1' is given twice", "-L", "n", "1,2,1", "--", "echo", "{n}");
    REFUSED("a parameter's name is a word of letters, digits and _, not '1n'", "-L", "1n=1",
            "--", "true");
    REFUSED("'repeats' is a key of the experiment file, not a parameter (use --runs)", "-L",
            "repeats=1,2", "--", "true");
    REFUSED("parameter 'n' is given twice", "-L", "n=1", "-P", "n", "1", "2", "--", "echo",
            "{n}");
    REFUSED("--parameter-scan n takes integers MIN MAX, not '0.5'", "-P", "n", "0.5", "2", "--",
            "echo", "{n}");
    REFUSED("--parameter-scan n: MAX is below MIN", "-P", "n", "5", "-2", "--", "echo", "{n}");
    REFUSED("--parameter-scan n needs MIN and MAX", "true", "-P", "n", "1");
    REFUSED("--parameter-scan n takes MIN and MAX after the name", "-P", "n", "1", "--", "true");
    REFUSED("--parameter-step-size goes after a --parameter-scan", "-D", "2", "--", "true");
    REFUSED("--parameter-step-size takes an integer >= 1, not '0'", "-P", "n", "1", "4", "-D",
            "0", "--", "echo", "{n}");
    REFUSED("unknown placeholder {m}; did you mean {n}?", "-L", "n=1,2", "--", "echo", "{m}");
    REFUSED("parameter 'n' is not used by the command 'true': write {n} where its value goes",
            "-L", "n=1,2", "--", "true");
}

Test(exec, refuses_bad_commands_and_names)
{
    REFUSED("'|' at column 9 of 'sleep 1 | cat': runner exec runs no shell", "sleep 1 | cat");
    REFUSED("'$' at column 7 of 'echo \"$HOME\"'", "echo \"$HOME\"");
    REFUSED("has an unclosed ' (at column 6)", "echo 'a");
    REFUSED("an empty command", "  ");
    REFUSED("program 'no-such-program-x46' not found on PATH", "--", "no-such-program-x46");
    REFUSED("program './nothing' not found (in the current folder)", "--", "./nothing");
    REFUSED("2 --command-name for 1 command: one per command", "-n", "a", "-n", "b", "true");
    REFUSED("--command-name takes a name of letters", "-n", "a/b", "true");
    REFUSED("--command-name a is given twice", "-n", "a", "-n", "a", "true", "false");
    REFUSED("--export-json /no/such/folder/x.json: its folder does not exist",
            "--export-json", "/no/such/folder/x.json", "true");
}

Test(exec, refuses_a_bad_prepare)
{
    REFUSED("2 --prepare for 3 commands: give one for every command, or one per command", "-p",
            "true", "--prepare", "true", "true", "true", "true");
    REFUSED("--prepare runs before each run of a per_call program; a persistent program's",
            "--protocol", "persistent", "-p", "true", "--", "true");
    REFUSED("--prepare needs a value, not an empty text", "--prepare", "", "--", "true");
    REFUSED("--prepare needs a value", "true", "--prepare");
    REFUSED("'rm -f out{m}': unknown placeholder {m}; did you mean {n}?", "-L", "n=1,2", "-p",
            "rm -f out{m}", "--", "echo", "{n}");
}

Test(exec, refuses_a_program_that_is_not_executable)
{
    char *d = tmpdir(), p[4200];
    snprintf(p, sizeof p, "%s/prog", d);
    write_file(p, "#!/bin/sh\n", 0);
    proc_out r;
    exec_in(d, &r, "--", "./prog", NULL);
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, "program './prog' is not executable"), "%s", r.err);
    rm_rf(d);
    free(d);
}

static char **split_ok(const char *line, int want)
{
    char **w, err[512];
    int n;
    cr_assert_eq(exec_split(line, &w, &n, err, sizeof err), 0, "%s: %s", line, err);
    cr_assert_eq(n, want, "%s: %d words", line, n);
    return w;
}

Test(exec, splits_a_command_as_hyperfine_without_a_shell)
{
    char **w = split_ok("  python3 -c 'print(2*3)' \"a b\" c\\ d '' x{n}  ", 7);
    cr_assert_str_eq(w[0], "python3");
    cr_assert_str_eq(w[2], "print(2*3)");
    cr_assert_str_eq(w[3], "a b");
    cr_assert_str_eq(w[4], "c d");
    cr_assert_str_eq(w[5], "");
    cr_assert_str_eq(w[6], "x{n}");
    cr_assert_null(w[7]);
    for (int i = 0; w[i]; i++)
        free(w[i]);
    free(w);
    w = split_ok("awk '{print $1}' \"say \\\"hi\\\"\"", 3);
    cr_assert_str_eq(w[1], "{print $1}");
    cr_assert_str_eq(w[2], "say \"hi\"");
    for (int i = 0; w[i]; i++)
        free(w[i]);
    free(w);
    char *name = exec_default_name((char *[]){"/usr/bin/python3", "mm.py", "{n}"}, 3);
    cr_assert_str_eq(name, "python3-mm.py-n");
    free(name);
}

/* runner exec --yaml ARGS in d: the file it prints, written as d/e.yaml */
static void yaml_of(const char *d, const char *const *args, char *path)
{
    char *argv[32] = {"exec", "--yaml"};
    int n = 2;
    for (; args[n - 2]; n++)
        argv[n] = (char *)args[n - 2];
    argv[n] = NULL;
    int o, e;
    proc_out r;
    pid_t pid = start_in(d, NULL, argv, &o, &e);
    finish(pid, o, e, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    file_at(d, "e.yaml", r.out, path);
}

Test(exec, the_file_it_prints_is_valid)
{
    char *d = tmpdir(), path[SCENARIO_PATH];
    yaml_of(d, (const char *[]){"-L", "n", "64,128,x y,007,0.50,-3", "-P", "k", "1", "9", "-D", "4", "-w", "2",
                                "-m", "10", "-M", "50", "--timeout", "90s", "--", "awk",
                                "BEGIN {x = \"{n}{k}\"}", NULL},
            path);
    char *text = read_all(path);
    expect_parts(text, (const char *[]){"workload: command\n",
                                        "command: [\"awk\", \"BEGIN {{x = \\\"{n}{k}\\\"}}\"]\n",
                                        "protocol: per_call\n",
                                        "  n: [64, 128, \"x y\", \"007\", \"0.50\", -3]\n",
                                        "  k: {range: [1, 9, 4]}\n", "repeats: auto\n",
                                        "stop: {min_samples: 10, max_samples: 50}\n",
                                        "warmups: 2\n", "timeout: \"90s\"\n", NULL});
    free(text);
    proc_out r;
    run((char *[]){"validate", path, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, ": 18 trials"), "%s", r.out);
    /* a relative program, a placeholder in it too, is made absolute */
    yaml_of(d, (const char *[]){"-L", "v", "a,b", "--", "./{v}/prog", NULL}, path);
    text = read_all(path);
    char want[4200];
    snprintf(want, sizeof want, "command: [\"%s/./{v}/prog\"]\n", d);
    cr_assert(strstr(text, want), "want %s in:\n%s", want, text);
    free(text);
    rm_rf(d);
    free(d);
}

Test(exec, a_prepare_is_in_the_file_once_for_all_or_one_per_command)
{
    char *d = tmpdir(), path[SCENARIO_PATH];
    /* a parameter used by the prepare only is used: each value prepares differently */
    yaml_of(d, (const char *[]){"-L", "n", "1,2", "-p", "rm -f out{n}.txt; echo '{}' > log", "--",
                                "true", NULL},
            path);
    char *text = read_all(path);
    cr_assert(strstr(text, "prepare: [\"sh\", \"-c\", \"rm -f out{n}.txt; echo '{{}}' > log\"]\n"),
              "%s", text);
    free(text);
    proc_out r;
    run((char *[]){"validate", path, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *argv[] = {"exec", "--yaml", "-p", "echo a", "-p", "echo b", "true", "false", NULL};
    int o, e;
    pid_t pid = start_in(d, NULL, argv, &o, &e);
    finish(pid, o, e, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    expect_parts(r.out, (const char *[]){"command: [\"true\"]\n", "prepare: [\"sh\", \"-c\", \"echo a\"]\n",
                                         "---\n", "command: [\"false\"]\n",
                                         "prepare: [\"sh\", \"-c\", \"echo b\"]\n", NULL});
    char *once[] = {"exec", "--yaml", "-p", "echo a", "true", "false", NULL};
    pid = start_in(d, NULL, once, &o, &e);
    finish(pid, o, e, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    expect_parts(r.out, (const char *[]){"prepare: [\"sh\", \"-c\", \"echo a\"]\n", "---\n",
                                         "prepare: [\"sh\", \"-c\", \"echo a\"]\n", NULL});
    rm_rf(d);
    free(d);
}

/* The lines of d/log, in order, joined ("pcpc"); their count in *n. */
static char *log_of(const char *d, int *n)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/log", d);
    char *text = read_all(p);
    cr_assert(text, "no %s", p);
    char *out = calloc(strlen(text) + 1, 1);
    cr_assert(out);
    int k = 0;
    for (char *c = text; *c; c++)
        if (*c != '\n')
            out[k++] = *c;
    *n = k;
    free(text);
    return out;
}

Test(exec, a_prepare_runs_before_every_run_and_the_saved_file_keeps_it, .timeout = 60)
{
    char *d = tmpdir();
    proc_out r;
    exec_in(d, &r, "--no-plots", "--no-history", "-w", "2", "-r", "5", "-n", "prep", "--prepare",
            "echo p >> log", "--", "sh", "-c", "echo c >> log; sleep 0.01", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    int n;
    char *seq = log_of(d, &n);
    csv_table t;
    char out[4200], saved[4300];
    snprintf(out, sizeof out, "%s/results", d);
    read_newest(out, "prep", "trials.csv", &t);
    expect_statuses(&t, "ok");
    /* every run of the program (warmups and samples) right after a prepare
     * of its own, and no other (the starts of `true` for spawn_seconds) */
    int runs = atoi(cell(&t, 1, "warmup_calls")) + atoi(cell(&t, 1, "samples"));
    cr_assert_geq(runs, 2 + 5);
    cr_assert_eq(n, 2 * runs, "%d lines for %d runs: %s", n, runs, seq);
    for (int i = 0; i < n; i++)
        cr_assert_eq(seq[i], i % 2 ? 'c' : 'p', "line %d: %s", i + 1, seq);
    free(seq);
    csv_free(&t);
    /* the file in the run folder carries it: run again, it prepares again */
    newest_run_file(out, "prep", "experiment.yaml", saved, sizeof saved);
    char *text = read_all(saved);
    cr_assert(strstr(text, "prepare: [\"sh\", \"-c\", \"echo p >> log\"]\n"), "%s", text);
    free(text);
    char lp[4200];
    snprintf(lp, sizeof lp, "%s/log", d);
    unlink(lp);
    int o, e;
    pid_t pid = start_in(d, NULL, (char *[]){"--quiet", "--no-plots", "--no-history", saved, NULL},
                         &o, &e);
    finish(pid, o, e, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    seq = log_of(d, &n);
    cr_assert_geq(n, 2 * (2 + 5), "%s", seq);
    cr_assert_eq(seq[0], 'p', "%s", seq);
    cr_assert_eq(seq[n - 1], 'c', "%s", seq);
    free(seq);
    rm_rf(d);
    free(d);
}

Test(exec, a_prepare_is_not_timed, .timeout = 60)
{
    char *d = tmpdir(), json[4200];
    snprintf(json, sizeof json, "%s/out.json", d);
    proc_out r;
    exec_in(d, &r, "--no-plots", "--no-history", "-w", "0", "-r", "3", "--export-json", json,
            "-p", "sleep 0.2; echo p >> log", "true", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    int n;
    free(log_of(d, &n));
    cr_assert_geq(n, 3, "%d prepares", n);
    char *text = read_all(json), *m = text ? strstr(text, "\"median\": ") : NULL;
    cr_assert(m, "no median in %s", text ? text : json);
    double median = atof(m + 10);
    /* a start of `true` takes about 1 ms; the prepare's 0.2 s is not in it */
    cr_assert(median > 0 && median < 0.1, "median %g s", median);
    free(text);
    rm_rf(d);
    free(d);
}

Test(exec, a_failing_prepare_fails_the_trial_with_its_reason, .timeout = 60)
{
    char *d = tmpdir();
    proc_out r;
    exec_in(d, &r, "--no-plots", "--no-history", "-r", "2", "-w", "0", "-p",
            "echo cannot clean >&2; exit 3", "true", NULL);
    cr_assert_eq(r.status, 1, "%s", r.err);
    cr_assert(strstr(r.out, "Benchmark 1: true\n  failed: the prepare command exited with status "
                            "3; stderr: cannot clean"),
              "%s", r.out);
    rm_rf(d);
    free(d);
}

Test(exec, runs_saves_its_file_and_that_file_runs_again_from_anywhere)
{
    char *d = tmpdir(), p[4200];
    snprintf(p, sizeof p, "%s/prog", d);
    write_file(p, "#!/bin/sh\nexit 0\n", 1);
    proc_out r;
    exec_in(d, &r, "--no-plots", "--no-history", "-r", "3", "-w", "0", "-L", "n=1,2", "-n",
            "mine", "--", "./prog", "{n}", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    expect_parts(r.out, (const char *[]){"Benchmark 1: ./prog 1\n  Time (median ± σ):",
                                         "Benchmark 2: ./prog 2\n", "Range (min … max):",
                                         "3 samples", NULL});
    cr_assert(strstr(r.err, "experiment file: results/mine/"), "%s", r.err);
    csv_table t;
    char out[4200], saved[4300];
    snprintf(out, sizeof out, "%s/results", d);
    read_newest(out, "mine", "trials.csv", &t);
    expect_statuses(&t, "ok|ok");
    csv_free(&t);
    newest_run_file(out, "mine", "experiment.yaml", saved, sizeof saved);
    /* run again from another folder: the program's path was made absolute */
    char *other = tmpdir(), out2[4200];
    snprintf(out2, sizeof out2, "%s/again", other);
    int o, e;
    pid_t pid = start_in(other, NULL,
                         (char *[]){"--quiet", "--no-plots", "--no-history", "--output", out2,
                                    saved, NULL},
                         &o, &e);
    finish(pid, o, e, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    read_newest(out2, "mine", "trials.csv", &t);
    expect_statuses(&t, "ok|ok");
    cr_assert_str_eq(cell(&t, 2, "n"), "2");
    csv_free(&t);
    rm_rf(other);
    free(other);
    rm_rf(d);
    free(d);
}

Test(exec, compares_several_commands_and_exports_json)
{
    char *d = tmpdir(), json[4200];
    snprintf(json, sizeof json, "%s/out.json", d);
    proc_out r;
    exec_in(d, &r, "--no-plots", "--no-history", "-r", "3", "-w", "0", "--export-json", json,
            "true", "sh -c 'exit 0'", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    expect_parts(r.out, (const char *[]){"Benchmark 1: true\n", "Benchmark 2: sh -c 'exit 0'\n",
                                         "\nSummary\n", "times faster than '", NULL});
    char *text = read_all(json);
    cr_assert(text, "no %s", json);
    expect_parts(text, (const char *[]){"\"results\"", "\"command\": \"true\"",
                                        "\"command\": \"sh -c 'exit 0'\"", "\"median\"",
                                        "\"times\"", "\"parameters\"", NULL});
    free(text);
    rm_rf(d);
    free(d);
}

Test(exec, a_failing_command_exits_1_with_its_reason)
{
    char *d = tmpdir();
    proc_out r;
    exec_in(d, &r, "--no-plots", "--no-history", "-r", "2", "-w", "0", "false", NULL);
    cr_assert_eq(r.status, 1, "%s", r.err);
    cr_assert(strstr(r.out, "Benchmark 1: false\n  failed: the program exited with status 1"),
              "%s", r.out);
    rm_rf(d);
    free(d);
}

Test(exec, an_interrupted_run_says_how_to_continue_it)
{
    char *d = tmpdir();
    char *args[] = {"exec", "--no-plots", "--no-history", "-r", "3", "-w", "0", "-L", "n=1,2,3,4",
                    "--", "sleep", "0.{n}", NULL};
    int o, e;
    pid_t pid = start_in(d, NULL, args, &o, &e);
    usleep(2500000); /* past the first trial (0.1 s x 3), into the later ones */
    kill(pid, SIGINT);
    proc_out r;
    finish(pid, o, e, &r);
    cr_assert_eq(r.status, 130, "%s", r.err);
    expect_parts(r.err, (const char *[]){"runner: interrupted; finished trials are saved. Continue "
                                         "with: runner --resume --output results results/sleep-0.-n/",
                                         "/experiment.yaml\n", NULL});
    rm_rf(d);
    free(d);
}
