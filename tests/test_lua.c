/* test_lua.c - the Lua module (runner/lua/, doc/lua.md#lua): workloads'
 * p and ctx, their life from setup to teardown, error messages with
 * file:line and a traceback, the sandbox (every escape refused, allowed under
 * allow_unsafe), hooks (skip, before, after, runaway loops stopped),
 * validation, the example workloads in lua/, and the memory cap.  Fixtures:
 * tests/lua/. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "experiment/lua/lua_engine.h"
#include "lua_fixture.h"
#include "philox.h"
#include "experiment/registry/backends.h"
#include "runproc.h"

TestSuite(lua, .init = init);

/* --- the workload's life ------------------------------------------------- */

Test(lua, p_and_ctx_fields)
{
    rn_param params[] = {
        {"length", "5", 5}, {"flag", "false", 0}, {"name", "abc", NAN}, {"ratio", "0.25", 0.25},
    };
    rn_trial t = trial("lua:empty.lua", 11);
    t.params = params;
    t.nparams = 4;
    t.size = 9;
    t.threads = 3;
    void *st = prep_t(&t);
    ok(st, "assert(p.size == 9 and math.type(p.size) == 'integer', 'size')\n"
           "assert(p.length == 5 and math.type(p.length) == 'integer', 'length')\n"
           "assert(p.flag == false, 'flag'); assert(p.name == 'abc', 'name')\n"
           "assert(p.ratio == 0.25, 'ratio'); assert(p.extra == 'x', 'a default')\n"
           "assert(p.dtype == 'f32' and p.device == 'cpu' and p.io == 'with', 'keys')\n"
           "assert(p.threads == 3 and p.seed == 11, 'threads, seed')\n"
           "assert(ctx.params == p and ctx.device == 'cpu' and ctx.threads == 3, 'ctx')\n");
    release(st);
    /* size < 0: unset, the file's default */
    st = prep("lua:empty.lua", 0);
    cr_expect_eq(num(st, "p.size"), 7);
    cr_expect_eq(num(st, "p.length"), 3);
    release(st);
}

typedef struct columns {
    char text[8][64];
    int n;
} columns;

static void add_column(void *ctx, const char *k, const char *v)
{
    columns *c = ctx;
    if (c->n < 8)
        snprintf(c->text[c->n++], sizeof c->text[0], "%s=%s", k, v);
}

Test(lua, full_life_setup_run_check_flops_teardown)
{
    rn_trial t = trial("lua:full.lua", 3);
    void *st = prep_t(&t);
    rn_sample s;
    rn_error err = {{0}};
    for (int i = 0; i < 3; i++)
        cr_assert_eq(lua_workload_impl()->run(st, &s, &err), 0, "%s", err.msg);
    cr_expect_eq(num(st, "state.runs"), 3);
    cr_expect_eq(lua_workload_impl()->check(st, &err), 0, "%s", err.msg);
    cr_expect_eq(lua_workload_flops(st), 32);
    cr_expect(isnan(lua_workload_bytes(st)));
    cr_assert_not_null(lua_workload_impl()->extras);
    columns cols = {0};
    lua_workload_impl()->extras(st, &cols, add_column);
    cr_assert_eq(cols.n, 3);
    cr_expect_str_eq(cols.text[0], "half=0.5");
    cr_expect_str_eq(cols.text[1], "note=two words");
    cr_expect_str_eq(cols.text[2], "runs=3");
    release(st);
    st = prep("lua:empty.lua", 0);
    cr_expect(isnan(lua_workload_flops(st)));
    cr_expect_eq(lua_workload_impl()->check(st, &err), 0, "no check(): passes");
    release(st);
}

/* Issue 14: failures of flops(), bytes() and extras() are returned to the
 * caller (lua_workload_diagnostic), never printed by the library. */
Test(lua, failing_counts_and_extras_are_diagnostics_not_prints)
{
    char dir[] = "/tmp/runner-lwdiag-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[256], wl[300], errp[256];
    snprintf(path, sizeof path, "%s/bad_counts.lua", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("return {run = function() end,\n"
          "  flops = function(p) error('no flops here') end,\n"
          "  bytes = function(p) error('no bytes either') end,\n"
          "  extras = function() return 42 end}\n",
          f);
    fclose(f);
    snprintf(wl, sizeof wl, "lua:%s", path);
    void *st = prep(wl, 0);
    cr_expect_null(lua_workload_diagnostic(st));
    /* stderr into a file while the library works */
    snprintf(errp, sizeof errp, "%s/stderr", dir);
    fflush(stderr);
    int saved = dup(2), fd = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    cr_assert(saved >= 0 && fd >= 0);
    dup2(fd, 2);
    close(fd);
    double fl = lua_workload_flops(st), by = lua_workload_bytes(st);
    columns cols = {0};
    lua_workload_impl()->extras(st, &cols, add_column);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    struct stat sb;
    cr_assert_eq(stat(errp, &sb), 0);
    cr_expect_eq(sb.st_size, 0, "the library printed %lld bytes", (long long)sb.st_size);
    cr_expect(isnan(fl) && isnan(by));
    cr_expect_eq(cols.n, 0);
    const char *d = lua_workload_diagnostic(st);
    cr_assert_not_null(d);
    expect_parts(d, (const char *const[]){"no flops here", "no bytes either",
                                          "extras() must return a table of columns or nil", NULL});
    release(st);
    unlink(errp);
    unlink(path);
    rmdir(dir);
}

static void expect_error_fields(const char *msg, const char *where)
{
    cr_expect(strstr(msg, where), "'%s' not in '%s'", where, msg);
    cr_expect(strstr(msg, "stack traceback:"), "no traceback in '%s'", msg);
    cr_expect(!strchr(msg, '\n'), "the message is one line: '%s'", msg);
}

Test(lua, a_runtime_error_fails_the_trial_and_the_next_one_runs)
{
    void *st = prep("lua:run_error.lua", 0);
    rn_sample s;
    rn_error err = {{0}};
    cr_assert_eq(lua_workload_impl()->run(st, &s, &err), 0, "first run: %s", err.msg);
    cr_assert_neq(lua_workload_impl()->run(st, &s, &err), 0);
    expect_error_fields(err.msg, "run_error.lua:4: boom after 1 runs");
    cr_expect(strstr(err.msg, "run_error.lua:11:"), "the caller's line in the traceback: %s",
              err.msg);
    release(st);
    /* the same process, the next trial */
    st = prep("lua:full.lua", 0);
    cr_expect_eq(lua_workload_impl()->run(st, &s, &err), 0, "%s", err.msg);
    cr_expect_eq(lua_workload_impl()->check(st, &err), 0, "%s", err.msg);
    release(st);
}

static int prepare_fails(const char *wl, char *msg, size_t len)
{
    rn_trial t = trial(wl, 0);
    void *st = NULL;
    rn_error err = {{0}};
    int rc = lua_workload_impl()->prepare(&t, &st, &err);
    snprintf(msg, len, "%s", err.msg);
    cr_expect_null(st);
    return rc;
}

Test(lua, errors_in_setup_check_and_loading)
{
    char msg[1024];
    cr_expect_eq(prepare_fails("lua:setup_error.lua", msg, sizeof msg), -1);
    expect_error_fields(msg, "setup_error.lua:4: attempt to index a nil value");
    cr_expect_eq(prepare_fails("lua:syntax_error.lua", msg, sizeof msg), -1);
    cr_expect(strstr(msg, "syntax_error.lua:3:"), "%s", msg);
    cr_expect_eq(prepare_fails("lua:no_run.lua", msg, sizeof msg), -1);
    cr_expect(strstr(msg, "no 'run' function"), "%s", msg);
    cr_expect_eq(prepare_fails("lua:missing.lua", msg, sizeof msg), -1);
    cr_expect(strstr(msg, "missing.lua' not found"), "%s", msg);
    cr_expect_eq(prepare_fails("lua:", msg, sizeof msg), -1);

    void *st = prep("lua:check_error.lua", 0);
    rn_error err = {{0}};
    cr_expect_neq(lua_workload_impl()->check(st, &err), 0);
    expect_error_fields(err.msg, "check_error.lua:4: the result is wrong");
    fails(st, "error({})", "(error object is a table value)");
    release(st);
}

/* --- validation ---------------------------------------------------------- */

static int check_file(const char *name, char *err, size_t len)
{
    char path[PATH_MAX];
    if (name[0] == '/')
        snprintf(path, sizeof path, "%s", name);
    else
        snprintf(path, sizeof path, "%s/%s", lua_fixtures, name);
    return lua_file_check(path, err, len);
}

Test(lua, file_check)
{
    char err[1024];
    cr_expect_eq(check_file("full.lua", err, sizeof err), 0, "%s", err);
    cr_expect_eq(check_file("syntax_error.lua", err, sizeof err), -1);
    cr_expect(strstr(err, "tests/lua/syntax_error.lua:3:"), "file:line: %s", err);
    cr_expect_eq(check_file("no_run.lua", err, sizeof err), -1);
    cr_expect(strstr(err, "no_run.lua: the returned table has no 'run' function"), "%s", err);
    cr_expect_eq(check_file("not_table.lua", err, sizeof err), -1);
    cr_expect(strstr(err, "must return a table") && strstr(err, "it returned number"), "%s", err);
    cr_expect_eq(check_file("bad_field.lua", err, sizeof err), -1);
    cr_expect(strstr(err, "'check' must be a function; it is a string"), "%s", err);
    cr_expect_eq(check_file("top_level_io.lua", err, sizeof err), -1);
    cr_expect(strstr(err, "top_level_io.lua:2:") && strstr(err, "'io'"), "%s", err);
    cr_expect_eq(check_file("nothing_here.lua", err, sizeof err), -1);
    cr_expect(strstr(err, "not found"), "%s", err);
    time_t t0 = time(NULL);
    cr_expect_eq(check_file("top_level_loop.lua", err, sizeof err), -1);
    cr_expect(strstr(err, "stopped: ran more than"), "%s", err);
    cr_expect_lt(time(NULL) - t0, 5);
}

/* --- the sandbox --------------------------------------------------------- */

Test(lua, sandbox_refuses_every_escape)
{
    void *st = prep("lua:empty.lua", 0);
    fails(st, "return io.open('/etc/passwd')", "attempt to index a nil value (global 'io')");
    fails(st, "return io.popen('ls')", "(global 'io')");
    fails(st, "return os.execute('true')", "attempt to call a nil value (field 'execute')");
    fails(st, "return os.remove('/tmp/x')", "(field 'remove')");
    fails(st, "return os.rename('/tmp/x', '/tmp/y')", "(field 'rename')");
    fails(st, "return os.getenv('HOME')", "(field 'getenv')");
    fails(st, "return os.exit(1)", "(field 'exit')");
    fails(st, "return package.loaded.os.execute('true')", "(field 'execute')");
    fails(st, "return require('/etc/passwd')", "module names may not contain an absolute path");
    fails(st, "return require('../x')", "module names may not contain '..'");
    fails(st, "return require('sub/inner')", "module names may not contain '/'");
    fails(st, "return require('a\\\\b')", "may not contain '\\'");
    fails(st, "return require('nonexistent')", "module 'nonexistent' not found");
    fails(st, "return debug.getinfo(1)", "(global 'debug')");
    fails(st, "return package.loadlib('libc.so.6', 'system')", "(field 'loadlib')");
    fails(st, "return dofile('/etc/passwd')", "(global 'dofile')");
    fails(st, "return loadfile('/etc/passwd')", "(global 'loadfile')");
    fails(st, "return require('io')", "module 'io' not found");
    /* binary chunks: string.dump works, loading its output does not */
    ok(st, "local bin = string.dump(function() return 1 end)\n"
           "local f, msg = load(bin); assert(f == nil and msg:find('binary'), tostring(msg))\n"
           "f, msg = load(bin, 'x', 'b'); assert(f == nil and msg:find('binary'), tostring(msg))\n"
           "f, msg = load(bin, 'x', 'bt', {}); assert(f == nil, 'bt')\n"
           "assert(load('return 1 + 1')() == 2)\n"
           "assert(load('return y', 'c', 't', {y = 5})() == 5)\n"
           "assert(os.clock() >= 0 and os.time() > 0 and type(os.date()) == 'string')\n"
           "assert(require('mod_ok').answer == 42)\n"
           "assert(require('sub.inner').name == 'inner')\n"
           "assert(type(require('intensive').run) == 'function')\n"
           "assert(require('string') == string and require('mod_ok') == require('mod_ok'))");
    release(st);
}

Test(lua, sandbox_require_cannot_follow_a_symlink_out)
{
    char dir[] = "/tmp/runner-lua-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char outside[PATH_MAX + 32], link[PATH_MAX + 32], wl[PATH_MAX + 32];
    snprintf(outside, sizeof outside, "%s.outside.lua", dir);
    FILE *f = fopen(outside, "w");
    cr_assert_not_null(f);
    fputs("return {}\n", f);
    fclose(f);
    snprintf(link, sizeof link, "%s/evil.lua", dir);
    cr_assert_eq(symlink(outside, link), 0, "%s", strerror(errno));
    snprintf(wl, sizeof wl, "%s/w.lua", dir);
    f = fopen(wl, "w");
    fputs("return {run = function() end}\n", f);
    fclose(f);
    lua_engine_configure(dir, project_lua, 0);
    void *st = prep("lua:w.lua", 0);
    fails(st, "return require('evil')", "leads outside");
    release(st);
    unlink(link);
    unlink(wl);
    unlink(outside);
    rmdir(dir);
}

Test(lua, allow_unsafe_opens_the_standard_library)
{
    configure(1);
    void *st = prep("lua:empty.lua", 0);
    ok(st, "assert(type(io) == 'table' and type(io.open) == 'function')\n"
           "assert(type(os.execute) == 'function' and type(debug) == 'table')\n"
           "assert(type(package.loadlib) == 'function' and type(dofile) == 'function')\n"
           "local f = io.open('/dev/null'); assert(f); f:close()\n"
           "assert(require('mod_ok').answer == 42)\n"
           "local f2 = load(string.dump(function() return 3 end), 'd', 'b'); assert(f2() == 3)\n");
    release(st);
    char err[1024];
    cr_expect_eq(check_file("top_level_io.lua", err, sizeof err), 0, "%s", err);
}

/* --- hooks --------------------------------------------------------------- */

static lua_hooks *open_hooks(const char *name)
{
    char path[PATH_MAX], err[1024];
    snprintf(path, sizeof path, "%s/%s", lua_fixtures, name);
    lua_hooks *h = lua_hooks_open(path, err, sizeof err);
    cr_assert_not_null(h, "%s: %s", name, err);
    return h;
}

static const char *const tkeys[] = {"target", "size", "device", "flag"};

static lua_trial_view view(const char *const *values)
{
    lua_trial_view v = {.index = 4, .n = 4, .keys = tkeys, .values = values};
    return v;
}

static lua_result_view result(void)
{
    lua_result_view r = {.status = "ok", .reason = "", .samples = 5, .min = 0.25,
                         .median = 0.5, .mean = 0.5, .stddev = 0.1, .max = 1,
                         .gflops = NAN, .gbps = NAN};
    return r;
}

Test(lua, hooks_skip_before_after)
{
    lua_hooks *h = open_hooks("hooks_ok.lua");
    cr_expect(lua_hooks_has(h, "skip") && lua_hooks_has(h, "after_trial"));
    char reason[256];
    const char *small[] = {"CPU serial", "10", "cpu", "false"};
    const char *big[] = {"CPU serial", "200", "cpu", "false"};
    const char *flagged[] = {"GPU", "10", "cuda", "true"};
    lua_trial_view v = view(small);
    cr_expect_eq(lua_hooks_skip(h, &v, reason, sizeof reason), 0, "%s", reason);
    v = view(big);
    cr_expect_eq(lua_hooks_skip(h, &v, reason, sizeof reason), 1);
    cr_expect_str_eq(reason, "size 200 is too big");
    v = view(flagged);
    cr_expect_eq(lua_hooks_skip(h, &v, reason, sizeof reason), 1);
    cr_expect_str_eq(reason, "skipped by the hooks' skip()");

    v = view(small);
    cr_expect_eq(lua_hooks_before(h, &v, reason, sizeof reason), 0, "%s", reason);
    cr_expect_eq(lua_hooks_before(h, &v, reason, sizeof reason), 0, "%s", reason);
    lua_result_view r = result();
    lua_extra x;
    cr_assert_eq(lua_hooks_after(h, &v, &r, &x, reason, sizeof reason), 0, "%s", reason);
    static const char *const want[][2] = {
        {"befores", "2"},  {"gflops_given", "false"}, {"label", "CPU serial"}, {"n", "4"},
        {"ok", "true"},    {"third", "0.3333333333333333"}, {"us", "500000"},
    };
    cr_assert_eq(x.n, 7, "%d columns", x.n);
    for (int i = 0; i < 7; i++) {
        cr_expect_str_eq(x.keys[i], want[i][0]);
        cr_expect_str_eq(x.values[i], want[i][1], "%s", x.keys[i]);
    }
    lua_extra_free(&x);
    lua_hooks_close(h);

    h = open_hooks("hooks_none.lua");
    cr_expect_eq(lua_hooks_skip(h, &v, reason, sizeof reason), 0);
    cr_expect_eq(lua_hooks_before(h, &v, reason, sizeof reason), 0);
    cr_expect_eq(lua_hooks_after(h, &v, &r, &x, reason, sizeof reason), 0);
    cr_expect_eq(x.n, 0);
    lua_hooks_close(h);
}

Test(lua, hook_errors_name_the_file_and_line)
{
    lua_hooks *h = open_hooks("hooks_error.lua");
    const char *vals[] = {"CPU", "10", "cpu", "false"};
    lua_trial_view v = view(vals);
    char err[1024];
    cr_expect_eq(lua_hooks_before(h, &v, err, sizeof err), -1);
    expect_error_fields(err, "hooks_error.lua:3: before_trial cannot start 4");
    lua_result_view r = result();
    lua_extra x;
    cr_expect_eq(lua_hooks_after(h, &v, &r, &x, err, sizeof err), -1);
    cr_expect(strstr(err, "column 'bad' is a table"), "%s", err);
    cr_expect_eq(x.n, 0);
    cr_expect_eq(lua_hooks_skip(h, &v, err, sizeof err), -1);
    cr_expect(strstr(err, "skip() must return a reason string"), "%s", err);
    lua_hooks_close(h);

    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/hooks_syntax.lua", lua_fixtures);
    cr_expect_null(lua_hooks_open(path, err, sizeof err));
    cr_expect(strstr(err, "hooks_syntax.lua:3:"), "%s", err);
    snprintf(path, sizeof path, "%s/not_table.lua", lua_fixtures);
    cr_expect_null(lua_hooks_open(path, err, sizeof err));
    cr_expect(strstr(err, "must return a table"), "%s", err);

    h = open_hooks("hooks_sandbox.lua");
    cr_expect_eq(lua_hooks_before(h, &v, err, sizeof err), -1);
    cr_expect(strstr(err, "hooks_sandbox.lua:3:") && strstr(err, "'execute'"), "%s", err);
    cr_expect_eq(access("/tmp/runner-hook-escaped", F_OK), -1);
    lua_hooks_close(h);
}

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

Test(lua, runaway_hooks_are_stopped, .timeout = 20)
{
    lua_hooks *h = open_hooks("hooks_loop.lua");
    const char *vals[] = {"CPU", "10", "cpu", "false"};
    lua_trial_view v = view(vals);
    char err[1024];
    double t0 = mono();
    cr_expect_eq(lua_hooks_skip(h, &v, err, sizeof err), -1);
    double t1 = mono();
    cr_expect(strstr(err, "hooks_loop.lua:4: hook skip() stopped: ran more than 1 s "
                          "(infinite loop?)"),
              "%s", err);
    cr_expect_lt(t1 - t0, 3.0, "stopped after %.2f s", t1 - t0);
    /* a loop catching the error with pcall is stopped too */
    lua_result_view r = result();
    lua_extra x;
    cr_expect_eq(lua_hooks_after(h, &v, &r, &x, err, sizeof err), -1);
    cr_expect(strstr(err, "hook after_trial() stopped"), "%s", err);
    cr_expect_lt(mono() - t1, 3.0);
    /* and the state still works afterwards */
    cr_expect_eq(lua_hooks_before(h, &v, err, sizeof err), 0);
    lua_hooks_close(h);

    /* in a coroutine */
    h = open_hooks("hooks_coroutine.lua");
    t0 = mono();
    cr_expect_eq(lua_hooks_skip(h, &v, err, sizeof err), -1);
    cr_expect(strstr(err, "hooks_coroutine.lua:7: hook skip() stopped"), "%s", err);
    cr_expect_lt(mono() - t0, 3.0);
    cr_expect_eq(lua_hooks_before(h, &v, err, sizeof err), 0, "%s", err);
    lua_hooks_close(h);

    /* the default limit is 5 s: well under 10 */
    lua_hooks_set_time_limit(0);
    h = open_hooks("hooks_loop.lua");
    t0 = mono();
    cr_expect_eq(lua_hooks_skip(h, &v, err, sizeof err), -1);
    cr_expect(strstr(err, "ran more than 5 s (infinite loop?)"), "%s", err);
    cr_expect_lt(mono() - t0, 7.0);
    lua_hooks_close(h);
}

/* --- the examples in lua/ ------------------------------------------------ */

static void run_example(const char *wl, long long size, double flops)
{
    rn_trial t = trial(wl, 1);
    t.size = size;
    void *st = prep_t(&t);
    rn_sample s;
    rn_error err = {{0}};
    for (int i = 0; i < 2; i++)
        cr_assert_eq(lua_workload_impl()->run(st, &s, &err), 0, "%s: %s", wl, err.msg);
    cr_expect_eq(lua_workload_impl()->check(st, &err), 0, "%s: %s", wl, err.msg);
    if (!isnan(flops))
        cr_expect_eq(lua_workload_flops(st), flops, "%s flops", wl);
    release(st);
}

Test(lua, example_workloads_run_and_check)
{
    lua_engine_configure(project_lua, project_lua, 0);
    run_example("lua:intensive.lua", 50, 2.0 * 50 * 1000);
    run_example("lua:linear_eq.lua", 100000, 2.0 * 100000);
    run_example("lua:affine.lua", 1000, 2.0 * 1000 * 1000);
    run_example("lua:affine.lua", 37, NAN);
    char err[1024];
    static const char *const files[] = {"intensive.lua", "linear_eq.lua", "affine.lua"};
    for (int i = 0; i < 3; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", project_lua, files[i]);
        cr_expect_eq(lua_file_check(path, err, sizeof err), 0, "%s", err);
    }
}

Test(lua, example_hooks)
{
    char path[PATH_MAX], err[1024];
    snprintf(path, sizeof path, "%s/affine_hooks.lua", project_lua);
    lua_hooks *h = lua_hooks_open(path, err, sizeof err);
    cr_assert_not_null(h, "%s", err);
    const char *const keys[] = {"target", "size", "device", "threads"};
    const char *gpu_small[] = {"GPU", "64", "cuda", "all"};
    const char *cpu_small[] = {"CPU serial", "64", "cpu", "1"};
    lua_trial_view v = {.index = 0, .n = 4, .keys = keys, .values = gpu_small};
    char reason[256];
    cr_expect_eq(lua_hooks_skip(h, &v, reason, sizeof reason), 1);
    cr_expect(strstr(reason, "launch-bound"), "%s", reason);
    v.values = cpu_small;
    cr_expect_eq(lua_hooks_skip(h, &v, reason, sizeof reason), 0, "%s", reason);
    lua_result_view r = result();
    r.median = 1e-3;
    lua_extra x;
    cr_assert_eq(lua_hooks_after(h, &v, &r, &x, reason, sizeof reason), 0, "%s", reason);
    cr_assert_eq(x.n, 2);
    cr_expect_str_eq(x.keys[0], "us_per_call");
    cr_expect_str_eq(x.values[0], "1000");
    cr_expect_str_eq(x.keys[1], "w_gbps");
    cr_expect_str_eq(x.values[1], "0.016384");
    lua_extra_free(&x);
    r.median = NAN; /* a failed trial: no columns */
    cr_assert_eq(lua_hooks_after(h, &v, &r, &x, reason, sizeof reason), 0, "%s", reason);
    cr_expect_eq(x.n, 0);
    lua_hooks_close(h);
}

/* --- issue 14: nothing a user's file does crashes or hangs the process --- */

static int open_hooks_err(const char *name, char *err, size_t len)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", lua_fixtures, name);
    lua_hooks *h = lua_hooks_open(path, err, len);
    lua_hooks_close(h);
    return h ? 0 : -1;
}

Test(lua, metamethods_on_user_tables_are_protected, .timeout = 20)
{
    char err[1024];
    /* these aborted the process with "PANIC: unprotected error" (rc 134) */
    cr_expect_eq(open_hooks_err("hooks_index_error.lua", err, sizeof err), -1);
    cr_expect(strstr(err, "hooks_index_error.lua:2: x"), "%s", err);
    cr_expect_eq(check_file("index_error.lua", err, sizeof err), -1);
    cr_expect(strstr(err, "index_error.lua:2: x"), "%s", err);
    rn_trial t = trial("lua:index_error.lua", 1);
    void *st = NULL;
    rn_error e = {{0}};
    cr_expect_eq(lua_workload_impl()->prepare(&t, &st, &e), -1);
    cr_expect(strstr(e.msg, "index_error.lua:2: x"), "%s", e.msg);
    /* an __index that loops hung for ever: now the time limit stops it */
    double t0 = mono();
    cr_expect_eq(open_hooks_err("hooks_index_loop.lua", err, sizeof err), -1);
    cr_expect(strstr(err, "stopped: ran more than 1 s"), "%s", err);
    cr_expect_lt(mono() - t0, 3.0);
}

Test(lua, deep_coroutine_close_nesting_is_an_error, .timeout = 20)
{
    static char err[16384]; /* each level prefixes its position */
    /* rc 139 (C-stack overflow, Lua 5.4.4) before the guard */
    char path[PATH_MAX]; /* the bad-input corpus holds the file */
    snprintf(path, sizeof path, "%s/tests/bad/lua_close_nesting.lua", lua_root);
    cr_expect_eq(check_file(path, err, sizeof err), -1);
    cr_expect(strstr(err, "coroutine.close nested more than 100 deep"), "%s", err);
    void *st = prep("lua:empty.lua", 0);
    ok(st, "local co = coroutine.create(function() coroutine.yield() end)\n"
           "coroutine.resume(co); assert(coroutine.close(co) == true)\n"
           "assert(coroutine.status(co) == 'dead')");
    release(st);
}

Test(lua, memory_cap_stops_a_state, .timeout = 30)
{
    lua_engine_set_memory_limit((size_t)64 << 20);
    char err[1024];
    cr_expect_eq(check_file("memory_hog.lua", err, sizeof err), -1);
    cr_expect(strstr(err, "not enough memory"), "%s", err);
    lua_engine_set_memory_limit(0);
    cr_expect_eq(lua_engine_memory_limit(), (size_t)LUA_MEMORY_DEFAULT_MB << 20);
}
