/* test_plugin.c - `workload: plugin:PATH:NAME` and `runner new workload`
 * (doc/own-code-plugins.md): a plugin built against the public header runs
 * in a sweep, checked, its parameters and extra columns passed through; one
 * built for another interface version, one lacking a required function or
 * its runner_plugin() are skipped naming what, as is a file that does not
 * load; a crash fails its trial, a hang is stopped at its timeout, and the
 * next trial runs; CUDA trials are skipped with the CUDA backend's reason
 * where it cannot run; every malformed spec and missing library is a
 * file:line:col error with exit 2, at validation and before a run; and
 * `runner new workload` writes a plugin that builds and runs as written.
 * The plugins: tests/plugin/test_plugin_lib.c and, in C++,
 * tests/plugin/cpp_plugin.cc (the Makefile's PLUGINS);
 * tests/plugin-install.sh builds one against the installed header. */
#include "base/csv.h"
#include "base/util.h"
#include "experiment/registry/plugin.h"
#include "experiment/registry/plugin_template.h"
#include "runproc.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* $RUNNER_FAKES/plugin-VARIANT.so */
static const char *lib(const char *variant)
{
    static char p[8][4096];
    static int k;
    const char *dir = getenv("RUNNER_FAKES");
    cr_assert(dir, "RUNNER_FAKES is not set (run through make test)");
    char *out = p[k++ % 8];
    snprintf(out, 4096, "%s/plugin-%s.so", dir, variant);
    cr_assert_eq(access(out, R_OK), 0, "%s is missing (make the PLUGINS)", out);
    return out;
}

/* The last run of run_plugin. */
static proc_out last;

/* Runs yaml_fmt with a and b for its %s, asserts its exit status is `want`
 * (-1: any) and reads its trials. */
static char *run_plugin(const char *yaml_fmt, const char *a, const char *b, int want, csv_table *t)
{
    char yaml[8192];
    snprintf(yaml, sizeof yaml, yaml_fmt, a, b);
    char *d = run_yaml(yaml, NULL, &last);
    if (want >= 0)
        cr_assert_eq(last.status, want, "%s", last.err);
    read_trials(d, t);
    return d;
}

/* run_plugin of one workload of plugin-VARIANT.so with `rest` after it, and
 * no warm-up time. */
static char *plugin(const char *variant, const char *name, const char *rest, int want, csv_table *t)
{
    char fmt[4096];
    snprintf(fmt, sizeof fmt, "workload: plugin:%%s:%s\nwarmup_time: 0\n%s", name, rest);
    return run_plugin(fmt, lib(variant), "", want, t);
}

Test(plugin, runs_checked_with_params_and_columns)
{
    csv_table t;
    char *d =
        plugin("ok", "axpy", "params: {scale: 3}\nsweep: {size: [1, 100]}\nrepeats: 3\n", 0, &t);
    expect_statuses(&t, "ok|ok");
    for (int i = 1; i <= 2; i++) {
        cr_expect_str_eq(cell(&t, i, "samples"), "3");
        cr_expect_str_eq(cell(&t, i, "scale"), "3");
    }
    /* extras(): y[n-1] = 3 (n-1) + 1, the parameter reached the plugin */
    cr_expect_str_eq(cell(&t, 1, "last_y"), "1");
    cr_expect_str_eq(cell(&t, 2, "last_y"), "298");
    trials_done(&t, d);
}

/* A plugin's extra columns go through the runner's reserved names
 * (doc/results.md#reserved-column-names): one named `median` fails its
 * trial, and no measured cell takes its value. */
Test(plugin, an_extra_column_the_runner_writes_fails_the_trial)
{
    csv_table t;
    char *d = plugin("ok", "hostile", "size: 10\nrepeats: 2\n", 1, &t);
    expect_trial(&t, 1, "failed", "extras() returned column `median`");
    cr_expect_str_neq(cell(&t, 1, "median"), "0");
    trials_done(&t, d);
}

/* plugin, whose trials must be as expect_statuses' `list` says. */
static void plugin_trials(const char *variant, const char *name, const char *rest, int want,
                          const char *list)
{
    csv_table t;
    char *d = plugin(variant, name, rest, want, &t);
    expect_statuses(&t, list);
    trials_done(&t, d);
}

/* tests/plugin/cpp_plugin.cc: the header in C++20, RN_PLUGIN's C linkage */
Test(plugin, a_cplusplus_plugin_runs)
{
    plugin_trials("cpp", "sum", "sweep: {size: [10, 1000]}\nrepeats: 2\n", 0, "ok|ok");
}

Test(plugin, relative_path_and_the_plugin_refuses_a_parameter)
{
    char *d = tmpdir(), link[4096];
    snprintf(link, sizeof link, "%s/mine.so", d);
    cr_assert_eq(symlink(lib("ok"), link), 0);
    proc_out r;
    csv_table t;
    /* parameters pass through unchecked: picky's prepare() refuses `sclae` */
    run_trials_in(d,
                  "workload: plugin:mine.so:picky\n"
                  "sweep:\n  p: [{label: a, scale: 2}, {label: b, sclae: 2}]\n"
                  "repeats: 2\nwarmup_time: 0\n",
                  1, &r, &t);
    expect_statuses(&t, "ok|failed: unknown parameter 'sclae'");
    trials_done(&t, d);
}

Test(plugin, another_interface_version_is_skipped_naming_both)
{
    csv_table t;
    char *d = plugin("abi", "axpy", "repeats: 2\n", 0, &t);
    char want[128];
    snprintf(want, sizeof want, "this runner has version %d", RN_WORKLOAD_INTERFACE);
    expect_trial(&t, 1, "skipped", "built for workload interface version 99");
    expect_trial(&t, 1, "skipped", want);
    trials_done(&t, d);
}

Test(plugin, a_missing_required_function_is_skipped_naming_it)
{
    csv_table t;
    char *d = run_plugin("sweep:\n  workload: [plugin:%s:axpy, plugin:%s:axpy]\n"
                         "repeats: 2\nwarmup_time: 0\n",
                         lib("norelease"), lib("nosym"), 0, &t);
    expect_statuses(&t, "skipped: lacks the required function release|"
                        "skipped: lacks the required function runner_plugin()");
    trials_done(&t, d);
}

Test(plugin, a_workload_the_library_lacks_fails_listing_its_own)
{
    plugin_trials("ok", "axpby", "repeats: 2\n", 1,
                  "failed: has no workload 'axpby' (it has: axpy, picky, hostile)");
}

Test(plugin, a_crash_fails_its_trial_and_the_sweep_goes_on)
{
    plugin_trials("crash", "axpy", "sweep: {size: [1, 2, 3]}\nrepeats: 2\n", 1,
                  "ok|failed: signal 11|ok");
}

Test(plugin, a_hang_is_stopped_at_the_timeout_and_the_sweep_goes_on)
{
    plugin_trials("hang", "axpy", "sweep: {size: [1, 2, 3]}\nrepeats: 2\ntimeout: 1s\n", 1,
                  "ok|timeout|ok");
}

/* A file that is no shared library: skipped with the loader's message. */
Test(plugin, a_library_that_does_not_load_is_skipped)
{
    char *d = dir_with("text.so", "not a library\n");
    proc_out r;
    csv_table t;
    run_trials_in(d, "workload: plugin:text.so:axpy\nrepeats: 2\nwarmup_time: 0\n", 0, &r, &t);
    expect_trial(&t, 1, "skipped", "plugin text.so does not load: ");
    trials_done(&t, d);
}

/* A CUDA trial of a plugin: skipped for the same reason as a built-in
 * workload's where the CUDA backend cannot run (the plugin is not loaded). */
Test(plugin, cuda_trials_skip_with_the_backends_reason)
{
    csv_table t;
    char *d = run_plugin("device: cuda\nsweep:\n  workload: [plugin:%s:axpy, noop]\n"
                         "repeats: 2\nwarmup_time: 0\n%s",
                         lib("abi"), "", -1, &t);
    if (!strcmp(cell(&t, 2, "status"), "ok")) {
        trials_done(&t, d);
        cr_skip_test("a CUDA device is here");
    }
    cr_assert_eq(last.status, 0, "%s", last.err);
    expect_trial(&t, 1, "skipped", cell(&t, 2, "reason"));
    cr_expect_str_eq(cell(&t, 1, "reason"), cell(&t, 2, "reason"));
    cr_expect(!strstr(cell(&t, 1, "reason"), "plugin"), "%s", cell(&t, 1, "reason"));
    trials_done(&t, d);
}

/* ---- bad input: file:line:col, exit 2, at validation and before a run ---- */

static void expect_bad(const char *yaml, const char *where, const char *msg)
{
    char *d = tmpdir(), path[4096];
    write_text(d, "e.yaml", yaml);
    snprintf(path, sizeof path, "%s/e.yaml", d);
    char want[4200];
    snprintf(want, sizeof want, "%s:%s: error: %s", path, where, msg);
    char *validate[] = {"validate", path, NULL};
    char *run_it[] = {"--quiet", "--no-plots", path, NULL};
    char **cmds[] = {validate, run_it};
    for (int i = 0; i < 2; i++) {
        proc_out r;
        run(cmds[i], &r);
        cr_expect_eq(r.status, 2, "%s: %s", cmds[i][0], r.err);
        cr_expect(strstr(r.err, want), "%s: want '%s' in:\n%s", cmds[i][0], want, r.err);
    }
    char rd[4200];
    snprintf(rd, sizeof rd, "%s/results", d);
    cr_expect_neq(access(rd, F_OK), 0, "a run folder was made");
    rm_rf(d);
    free(d);
}

Test(plugin_bad, malformed_specs)
{
    expect_bad("workload: 'plugin:'\n", "1:11",
               "'workload: plugin:' needs a library and a workload name");
    expect_bad("workload: plugin:x.so\n", "1:11", "'plugin:x.so' needs ':NAME' after");
    expect_bad("workload: 'plugin:x.so:'\n", "1:11", "'plugin:x.so:' needs a workload name");
    expect_bad("workload: plugin::axpy\n", "1:11", "'plugin::axpy' needs the library's path");
    expect_bad("workload: 'plugin:x.so:a b'\n", "1:11", "'plugin:x.so:a b': the workload name 'a b' may hold");
    expect_bad("sweep:\n  workload: [noop, 'plugin:x.so:']\n", "2:20",
               "'plugin:x.so:' needs a workload name");
}

Test(plugin_bad, a_library_that_does_not_exist)
{
    expect_bad("workload: plugin:nothere.so:axpy\n", "1:11",
               "plugin library 'nothere.so' not found");
    expect_bad("sweep:\n  workload:\n    - noop\n    - plugin:lib/nothere.so:axpy\n", "4:7",
               "plugin library 'lib/nothere.so' not found");
    expect_bad("workload: plugin:/:axpy\n", "1:11", "plugin library '/' is not a file");
}

Test(plugin_bad, spec_parse_api)
{
    char path[64], name[64], why[256];
    cr_assert_eq(plugin_spec_parse("plugin:a/b:c.so:w_1", path, sizeof path, name, sizeof name,
                                   why, sizeof why),
                 0, "%s", why);
    cr_expect_str_eq(path, "a/b:c.so"); /* NAME after the last ':' */
    cr_expect_str_eq(name, "w_1");
    cr_expect_eq(plugin_spec_parse("lua:x.lua", NULL, 0, NULL, 0, why, sizeof why), -1);
    cr_expect_eq(plugin_is_spec("plugin:"), 1);
    cr_expect_eq(plugin_is_spec("noop"), 0);
}

/* ---- runner new workload -------------------------------------------------- */

static int sh(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

Test(plugin_new, writes_a_plugin_that_builds_and_runs)
{
    char *d = tmpdir(), dir[4096], so[4200], yaml[4200], cmd[16384];
    snprintf(dir, sizeof dir, "%s/p", d);
    char *args[] = {"new", "workload", "saxpy", "--dir", dir, NULL};
    proc_out r;
    run(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "saxpy.c"), "%s", r.out);
    snprintf(yaml, sizeof yaml, "%s/saxpy.yaml", dir);
    /* not built yet: validation says so at the workload's value */
    char *val[] = {"validate", yaml, NULL};
    run(val, &r);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, ":4:11: error: plugin library 'saxpy.so' not found"), "%s", r.err);
    /* built as its Makefile does, with the source tree's header in place of
     * pkg-config's (tests/plugin-install.sh builds it with the installed one) */
    const char *root = getenv("RUNNER_ROOT");
    snprintf(so, sizeof so, "%s/saxpy.so", dir);
    snprintf(cmd, sizeof cmd,
             "cc -O2 -std=c11 -Wall -Wextra -Werror -fPIC -shared -I%s/include -o %s %s/saxpy.c",
             root ? root : ".", so, dir);
    cr_assert_eq(sh(cmd), 0, "%s", cmd);
    char rd[4200];
    snprintf(rd, sizeof rd, "%s/run", d);
    char *go[] = {"--quiet", "--no-plots", "--run-dir", rd, "--filter", "size=1024", yaml, NULL};
    run(go, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    csv_table t;
    read_trials(d, &t);
    cr_assert_eq(t.nrows, 2);
    cr_expect_str_eq(cell(&t, 1, "status"), "ok", "%s", cell(&t, 1, "reason"));
    cr_expect_neq(cell(&t, 1, "gflops")[0], '\0', "work() gives the gflops column");
    csv_free(&t);
    rm_rf(d);
    free(d);
}

Test(plugin_new, cuda_writes_its_cuda_half)
{
    char *d = tmpdir(), dir[4096], p[4200];
    snprintf(dir, sizeof dir, "%s/g", d);
    char *args[] = {"new", "workload", "k2", "--cuda", "--dir", dir, NULL};
    proc_out r;
    run(args, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    const char *files[] = {"k2.c", "k2.cu", "k2.h", "Makefile", "k2.yaml"};
    for (int i = 0; i < 5; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        cr_expect_eq(access(p, R_OK), 0, "%s", p);
    }
    snprintf(p, sizeof p, "%s/Makefile", dir);
    char *mk = read_file(p, NULL);
    cr_assert(mk);
    cr_expect(strstr(mk, "pkg-config --cflags runner") && strstr(mk, "$(NVCC)"), "%s", mk);
    cr_expect(strstr(mk, "\n\t$(NVCC) -shared -o $@ k2.o k2_cuda.o"), "%s", mk);
    free(mk);
    rm_rf(d);
    free(d);
}

Test(plugin_new, refusals)
{
    char *d = tmpdir(), dir[4096];
    snprintf(dir, sizeof dir, "%s/x", d);
    struct {
        char *args[8];
        const char *msg;
    } cases[] = {
        {{"new", NULL}, "usage: runner new workload NAME"},
        {{"new", "plugin", "x", NULL}, "unknown kind 'plugin'"},
        {{"new", "workload", NULL}, "takes one NAME"},
        {{"new", "workload", "a", "b", NULL}, "takes one NAME, not more"},
        {{"new", "workload", "9lives", "--dir", dir, NULL}, "'9lives' cannot name a workload"},
        {{"new", "workload", "a-b", "--dir", dir, NULL}, "'a-b' cannot name a workload"},
        {{"new", "workload", "ok", "--cud", NULL}, "unknown option '--cud'; did you mean '--cuda'?"},
        {{"new", "workload", "ok", "--dir", NULL}, "--dir"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        proc_out r;
        run(cases[i].args, &r);
        cr_expect_eq(r.status, 2, "case %zu: %s", i, r.err);
        cr_expect(strstr(r.err, cases[i].msg), "case %zu: want '%s' in %s", i, cases[i].msg,
                  r.err);
    }
    /* a file that exists is never overwritten, and nothing is written */
    write_text(d, "Makefile", "mine\n");
    char *args[] = {"new", "workload", "w", "--dir", d, NULL};
    proc_out r;
    run(args, &r);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "Makefile exists (runner new never overwrites a file)"), "%s", r.err);
    char p[4200];
    snprintf(p, sizeof p, "%s/w.c", d);
    cr_expect_neq(access(p, F_OK), 0, "w.c was written");
    char *mk = read_file(strcat(strcpy(p, d), "/Makefile"), NULL);
    cr_expect_str_eq(mk, "mine\n");
    free(mk);
    char *help[] = {"new", "--help", NULL};
    run(help, &r);
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "usage: runner new workload NAME [--cuda] [--dir DIR]"));
    cr_expect_eq(plugin_name_ok("_a1"), 1);
    cr_expect_eq(plugin_name_ok(""), 0);
    rm_rf(d);
    free(d);
}
