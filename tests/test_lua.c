/* test_lua.c - the Lua module (runner/lua/, doc/lua.md#lua): the tensor
 * API on the CPU against the Philox reference, operators and shapes, memory
 * (GC, <close>, release), device mixing, error messages with file:line and a
 * traceback, the sandbox (every escape refused, allowed under allow_unsafe),
 * hooks (skip, before, after, runaway loops stopped), validation, and the
 * example workloads in lua/.  Fixtures: tests/lua/. */
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

#include "registry/backends.h"
#include "lua/lua_engine.h"
#include "philox.h"

extern const rn_tensor_ops cpu_tensor_ops;

static char root[PATH_MAX], fixtures[PATH_MAX], project_lua[PATH_MAX];

static void configure(int unsafe)
{
    const char *r = getenv("RUNNER_ROOT");
    snprintf(root, sizeof root, "%s", r && *r ? r : ".");
    snprintf(fixtures, sizeof fixtures, "%s/tests/lua", root);
    snprintf(project_lua, sizeof project_lua, "%s/lua", root);
    lua_engine_configure(fixtures, project_lua, unsafe);
    /* until (and after) the CPU backend registers its ops itself */
    lua_engine_override_tensor_ops(RN_DEV_CPU, &cpu_tensor_ops);
    lua_hooks_set_time_limit(1.0);
}

static void init(void)
{
    configure(0);
}

TestSuite(lua, .init = init);

static rn_trial trial(const char *workload, uint64_t seed)
{
    rn_trial t = {.workload = workload, .device = RN_DEV_CPU, .threads = 1, .size = -1,
                  .seed = seed};
    return t;
}

static void *prep_t(const rn_trial *t)
{
    void *st = NULL;
    rn_error err = {{0}};
    int rc = lua_workload_impl()->prepare(t, &st, &err);
    cr_assert_eq(rc, 0, "prepare %s: %d: %s", t->workload, rc, err.msg);
    cr_assert_not_null(st);
    return st;
}

static void *prep(const char *workload, uint64_t seed)
{
    rn_trial t = trial(workload, seed);
    return prep_t(&t);
}

static void release(void *st)
{
    lua_workload_impl()->release(st);
}

/* Helpers every eval chunk can use. */
static const char *const prelude =
    "local function same(t, want, tol)\n"
    "  tol = tol or 0\n"
    "  local got = t:totable()\n"
    "  if #got ~= #want then error(('size %d, want %d'):format(#got, #want), 2) end\n"
    "  for i = 1, #want do\n"
    "    if math.abs(got[i] - want[i]) > tol then\n"
    "      error(('element %d = %.9g, want %.9g'):format(i, got[i], want[i]), 2)\n"
    "    end\n"
    "  end\n"
    "end\n";

static int eval(void *st, const char *chunk, char *out, size_t len, char *msg, size_t mlen)
{
    char *src = malloc(strlen(prelude) + strlen(chunk) + 1);
    strcpy(src, prelude);
    strcat(src, chunk);
    rn_error err = {{0}};
    char dummy[8];
    int rc = lua_workload_eval(st, src, out ? out : dummy, out ? len : sizeof dummy, &err);
    free(src);
    if (msg)
        snprintf(msg, mlen, "%s", err.msg);
    return rc;
}

static void ok(void *st, const char *chunk)
{
    char msg[1024];
    int rc = eval(st, chunk, NULL, 0, msg, sizeof msg);
    cr_assert_eq(rc, 0, "%s\n-> %s", chunk, msg);
}

static void fails(void *st, const char *chunk, const char *want)
{
    char msg[1024];
    int rc = eval(st, chunk, NULL, 0, msg, sizeof msg);
    cr_assert_neq(rc, 0, "%s: succeeded, expected an error with '%s'", chunk, want);
    cr_assert(strstr(msg, want), "%s:\n  got  '%s'\n  want '%s'", chunk, msg, want);
}

static double num(void *st, const char *expr)
{
    char chunk[1024], out[128], msg[1024];
    snprintf(chunk, sizeof chunk, "return string.format('%%.17g', %s)", expr);
    int rc = eval(st, chunk, out, sizeof out, msg, sizeof msg);
    cr_assert_eq(rc, 0, "%s: %s", expr, msg);
    return strtod(out, NULL);
}

/* --- random numbers ------------------------------------------------------ */

static double u(uint64_t seed, uint64_t i)
{
    return (double)rn_uniform(seed, LUA_TENSOR_STREAM, i);
}

static double normal(uint64_t seed, uint64_t i)
{
    double u1 = u(seed, 2 * i), u2 = u(seed, 2 * i + 1);
    return (double)(float)(sqrt(-2.0 * log(1.0 - u1)) * cos(6.283185307179586 * u2));
}

Test(lua, rand_draws_philox_with_an_advancing_offset)
{
    void *st = prep("lua:empty.lua", 1234);
    ok(st, "A = ctx:rand(5):totable(); B = ctx:rand(3):totable()");
    for (int i = 0; i < 5; i++) {
        char e[32];
        snprintf(e, sizeof e, "A[%d]", i + 1);
        cr_expect_eq(num(st, e), u(1234, (uint64_t)i), "rand(5)[%d]", i);
    }
    for (int i = 0; i < 3; i++) {
        char e[32];
        snprintf(e, sizeof e, "B[%d]", i + 1);
        cr_expect_eq(num(st, e), u(1234, (uint64_t)(5 + i)), "second rand(3)[%d]", i);
    }
    /* offset 8: randn(2) uses normal numbers 4 and 5 (draws 8..11), then rand at 12 */
    ok(st, "N = ctx:randn(2):totable(); C = ctx:rand(1):item()");
    cr_expect_float_eq(num(st, "N[1]"), normal(1234, 4), 1e-6);
    cr_expect_float_eq(num(st, "N[2]"), normal(1234, 5), 1e-6);
    cr_expect_eq(num(st, "C"), u(1234, 12));
    /* matrix draws too: 2 x 3 from offset 13 */
    ok(st, "M = ctx:matrix(2, 3):totable()");
    cr_expect_eq(num(st, "#M"), 6);
    cr_expect_eq(num(st, "M[6]"), u(1234, 18));
    release(st);
}

Test(lua, large_draws_use_the_vector_path_and_threads_and_still_match)
{
    void *st = prep("lua:empty.lua", 99);
    /* offset 3 then 100003 numbers: unaligned head, vector batches over
     * threads, a tail; then a large randn */
    ok(st, "ctx:rand(3); X = ctx:rand(100003):totable(); Z = ctx:randn(50001):totable()");
    static const int idx[] = {0, 1, 60, 61, 64, 4096, 50000, 99999, 100002};
    for (size_t k = 0; k < sizeof idx / sizeof idx[0]; k++) {
        char e[32];
        snprintf(e, sizeof e, "X[%d]", idx[k] + 1);
        cr_expect_eq(num(st, e), u(99, 3 + (uint64_t)idx[k]), "X[%d]", idx[k]);
    }
    /* offset 100006 -> normal numbers from 50003 */
    static const int zi[] = {0, 1, 511, 512, 513, 25000, 50000};
    for (size_t k = 0; k < sizeof zi / sizeof zi[0]; k++) {
        char e[32];
        snprintf(e, sizeof e, "Z[%d]", zi[k] + 1);
        cr_expect_float_eq(num(st, e), normal(99, 50003 + (uint64_t)zi[k]), 1e-5, "Z[%d]", zi[k]);
    }
    /* offset 2 * (50003 + 50001): a mid-sized draw on this thread, head and tail */
    ok(st, "Y = ctx:rand(77):totable()");
    for (int i = 0; i < 77; i++) {
        char e[32];
        snprintf(e, sizeof e, "Y[%d]", i + 1);
        cr_expect_eq(num(st, e), u(99, 200008 + (uint64_t)i), "Y[%d]", i);
    }
    release(st);
}

Test(lua, same_seed_same_numbers_other_seed_other_numbers)
{
    void *a = prep("lua:empty.lua", 7), *b = prep("lua:empty.lua", 7), *c = prep("lua:empty.lua", 8);
    double x = num(a, "ctx:rand(10):sum():item()");
    cr_expect_eq(x, num(b, "ctx:rand(10):sum():item()"));
    cr_expect_neq(x, num(c, "ctx:rand(10):sum():item()"));
    release(a);
    release(b);
    release(c);
}

/* --- constructors, operators, shapes ------------------------------------- */

Test(lua, constructors)
{
    void *st = prep("lua:empty.lua", 0);
    ok(st, "same(ctx:zeros(3), {0, 0, 0}); same(ctx:ones(2), {1, 1})\n"
           "same(ctx:tensor{1.5, -2, 3}, {1.5, -2, 3})\n"
           "local m = ctx:tensor{{1, 2, 3}, {4, 5, 6}}\n"
           "local r, c = m:shape(); assert(r == 2 and c == 3, 'shape')\n"
           "same(m, {1, 2, 3, 4, 5, 6})\n"
           "assert(#ctx:zeros(0) == 0 and #ctx:ones(100000) == 100000)\n"
           "same(ctx:zeros(40000):sum(), {0}); same(ctx:ones(40000):sum(), {40000})\n"
           "assert(ctx:rand(4):device() == 'cpu')\n"
           "assert(tostring(ctx:tensor{1, 2}) == 'tensor{1, 2} on cpu', tostring(ctx:tensor{1, 2}))\n"
           "assert(tostring(ctx:matrix(2, 3)) == 'tensor(2x3, cpu)')\n"
           "ctx:sync()");
    fails(st, "ctx:rand(-1)", "rand: n = -1 must be >= 0");
    fails(st, "ctx:rand(1.5)", "number has no integer representation");
    fails(st, "ctx:tensor{1, 'x'}", "tensor: element 2 is not a number");
    fails(st, "ctx:tensor{{1, 2}, {3}}", "tensor: row 2 is not a list of 2 numbers");
    fails(st, "ctx:matrix(0, 3)", "matrix: 0 x 3");
    release(st);
}

Test(lua, operators_and_broadcast)
{
    void *st = prep("lua:empty.lua", 0);
    ok(st, "local a, b = ctx:tensor{1, 2, 4}, ctx:tensor{4, 5, 6}\n"
           "same(a + b, {5, 7, 10}); same(a - b, {-3, -3, -2})\n"
           "same(a * b, {4, 10, 24}); same(b / a, {4, 2.5, 1.5})\n"
           "same(-a, {-1, -2, -4}); same(a:neg(), {-1, -2, -4})\n"
           "same(a + 1, {2, 3, 5}); same(1 + a, {2, 3, 5})\n"
           "same(2 - a, {1, 0, -2}); same(a - 2, {-1, 0, 2})\n"
           "same(a * 2, {2, 4, 8}); same(8 / a, {8, 4, 2}); same(a / 2, {0.5, 1, 2})\n"
           "same(a * ctx:tensor{3}, {3, 6, 12}); same(ctx:tensor{3} - a, {2, 1, -1})\n"
           "assert(#a == 3)\n"
           "same(a:pow(2), {1, 4, 16}); same(a:pow(3), {1, 8, 64})\n"
           "same(a:pow(0.5), {1, math.sqrt(2), 2}, 1e-6); same(a:pow(1.5), {1, 2^1.5, 8}, 1e-5)\n"
           "same(a:pow(0), {1, 1, 1}); same(a:pow(-1), {1, 0.5, 0.25})\n"
           "same(a:sin(), {math.sin(1), math.sin(2), math.sin(4)}, 1e-6)\n"
           "same(a:exp(), {math.exp(1), math.exp(2), math.exp(4)}, 1e-4)\n"
           "same((-a):abs(), {1, 2, 4})\n"
           "local s = a:sum(); assert(#s == 1 and s:item() == 7)\n"
           "same(ctx:tensor{{1, 2}, {3, 4}} * 2, {2, 4, 6, 8})\n");
    /* an empty tensor broadcast with a single number stays empty (issue 14:
     * zeros(0) + ones(1) read an element that does not exist) */
    ok(st, "local z, o = ctx:zeros(0), ctx:ones(1)\n"
           "assert(#(z + o) == 0 and #(o + z) == 0 and #(z * 3) == 0 and #(3 - z) == 0)\n"
           "assert(#(z + z) == 0 and #(z:sum()) == 1)\n");
    /* large: the threaded kernels */
    ok(st, "local x = ctx:rand(100000)\n"
           "local X = x:totable()\n"
           "local y, e, q, r, d = x:sin(), x:exp(), x:pow(2.5), x * x + x, (x + 1) / (x - 2)\n"
           "local Y, E, Q, R, D = y:totable(), e:totable(), q:totable(), r:totable(), d:totable()\n"
           "for _, i in ipairs{1, 17, 40000, 65537, 100000} do\n"
           "  local v = X[i]\n"
           "  assert(math.abs(Y[i] - math.sin(v)) < 1e-6, 'sin ' .. i)\n"
           "  assert(math.abs(E[i] - math.exp(v)) < 1e-5, 'exp ' .. i)\n"
           "  assert(math.abs(Q[i] - v^2.5) < 1e-6, 'pow ' .. i)\n"
           "  assert(math.abs(R[i] - (v * v + v)) < 1e-6, 'mul add ' .. i)\n"
           "  assert(math.abs(D[i] - (v + 1) / (v - 2)) < 1e-5, 'div ' .. i)\n"
           "end\n"
           "local want = 0; for i = 1, #X do want = want + X[i] end\n"
           "assert(math.abs(x:sum():item() - want) < 1e-2, 'sum')\n");
    release(st);
}

Test(lua, matmul_and_shape_errors)
{
    void *st = prep("lua:empty.lua", 0);
    ok(st, "local A = ctx:tensor{{1, 2}, {3, 4}, {5, 6}}\n"
           "local B = ctx:tensor{{1, 0, 2}, {0, 1, 3}}\n"
           "local C = A:matmul(B); local r, c = C:shape(); assert(r == 3 and c == 3)\n"
           "same(C, {1, 2, 8, 3, 4, 18, 5, 6, 28})\n"
           "local v = A:matmul(ctx:tensor{1, 1}); assert(v:shape() == 3)\n"
           "same(v, {3, 7, 11})\n"
           "local W, x = ctx:matrix(300, 200), ctx:rand(200)\n"
           "local y = W:matmul(x):totable(); local Wt, xt = W:totable(), x:totable()\n"
           "local want = 0; for j = 1, 200 do want = want + Wt[199 * 200 + j] * xt[j] end\n"
           "assert(math.abs(y[200] - want) < 1e-4, 'matvec row 200')\n");
    fails(st, "ctx:matrix(3, 4):matmul(ctx:matrix(5, 2))", "matmul: 3x4 and 5x2 do not fit");
    fails(st, "ctx:matrix(3, 4):matmul(ctx:rand(5))", "matmul: 3x4 and a vector of 5 do not fit");
    fails(st, "ctx:rand(4):matmul(ctx:rand(4))", "matmul: the left operand must be a matrix");
    fails(st, "return ctx:rand(3) + ctx:rand(4)",
          "cannot add a vector of 3 and a vector of 4: the shapes do not fit");
    fails(st, "return ctx:matrix(2, 3) * ctx:matrix(3, 2)", "cannot multiply 2x3 and 3x2");
    fails(st, "return ctx:rand(3):item()", "item: the tensor has 3 elements");
    fails(st, "return ctx:rand(3) + 'x'", "cannot add a tensor and a string");
    fails(st, "return ctx:rand(3):pow('x')", "pow: the exponent must be a number");
    fails(st, "return ctx:rand(3):to('tpu')", "to: unknown device 'tpu'");
    release(st);
}

Test(lua, errors_in_tensor_calls_name_the_lua_line)
{
    void *st = prep("lua:empty.lua", 0);
    /* the prelude has 10 lines: the chunk's first line is eval:11 */
    fails(st, "local x = ctx:rand(2)\nreturn x + ctx:rand(3)", "eval:12: cannot add");
    release(st);
}

/* --- memory -------------------------------------------------------------- */

static long allocs, frees;

static void *count_alloc(int dev, size_t n, rn_error *err)
{
    allocs++;
    return cpu_tensor_ops.alloc(dev, n, err);
}

static void count_release(int dev, void *p)
{
    frees++;
    cpu_tensor_ops.release(dev, p);
}

static rn_tensor_ops counting;

static void use_counting(rn_device_kind kind)
{
    counting = cpu_tensor_ops;
    counting.alloc = count_alloc;
    counting.release = count_release;
    lua_engine_override_tensor_ops(kind, &counting);
}

Test(lua, garbage_collection_frees_tensors)
{
    use_counting(RN_DEV_CUDA); /* a fake "cuda": every tensor there has a device buffer */
    rn_trial t = trial("lua:empty.lua", 0);
    t.device = RN_DEV_CUDA;
    void *st = prep_t(&t);
    long base = lua_workload_live_tensors(st);
    ok(st, "T = {}; for i = 1, 100 do T[i] = ctx:rand(100) end; KEEP = ctx:rand(3)");
    long before = lua_workload_live_tensors(st);
    cr_expect_eq(before, base + 101);
    ok(st, "T = nil; collectgarbage(); collectgarbage()");
    long after = lua_workload_live_tensors(st);
    cr_expect_eq(after, base + 1, "only KEEP survives: %ld live (base %ld)", after, base);
    release(st);
    cr_expect_eq(allocs, frees, "%ld allocations, %ld frees", allocs, frees);

    /* large CPU tensors have device buffers too */
    st = prep("lua:empty.lua", 0);
    ok(st, "T = {}; for i = 1, 3 do T[i] = ctx:zeros(300000) end");
    cr_expect_eq(lua_workload_live_tensors(st), 3);
    ok(st, "T = nil; collectgarbage()");
    cr_expect_eq(lua_workload_live_tensors(st), 0);
    release(st);
}

Test(lua, close_frees_at_once_and_use_after_close_is_an_error)
{
    void *st = prep("lua:empty.lua", 0);
    long base = lua_workload_live_tensors(st);
    ok(st, "do local t <close> = ctx:rand(300000); SAVED = t end");
    cr_expect_eq(lua_workload_live_tensors(st), base);
    fails(st, "return SAVED:sum()", "a tensor was used after it was closed");
    ok(st, "do local t <close> = ctx:rand(10); SMALL = t end");
    fails(st, "return SMALL + 1", "a tensor was used after it was closed");
    release(st);
}

Test(lua, release_frees_every_tensor)
{
    use_counting(RN_DEV_CPU);
    allocs = frees = 0;
    void *st = prep("lua:full.lua", 0);
    ok(st, "KEEP = {}; for i = 1, 5 do KEEP[i] = ctx:rand(300000) end\n"
           "for i = 6, 50 do KEEP[i] = ctx:rand(64) end");
    cr_expect_eq(allocs, 5);
    rn_sample s;
    rn_error err = {{0}};
    cr_assert_eq(lua_workload_impl()->run(st, &s, &err), 0, "%s", err.msg);
    release(st);
    cr_expect_eq(allocs, frees, "%ld allocations, %ld frees", allocs, frees);

    use_counting(RN_DEV_CUDA);
    allocs = frees = 0;
    rn_trial t = trial("lua:full.lua", 0);
    t.device = RN_DEV_CUDA;
    st = prep_t(&t);
    ok(st, "KEEP = {}; for i = 1, 50 do KEEP[i] = ctx:rand(64) + 1 end");
    cr_assert_eq(lua_workload_impl()->run(st, &s, &err), 0, "%s", err.msg);
    cr_expect_gt(allocs, 50);
    release(st);
    cr_expect_eq(allocs, frees, "fake cuda: %ld allocations, %ld frees", allocs, frees);
}

Test(lua, device_buffers_are_reused)
{
    use_counting(RN_DEV_CUDA);
    rn_trial t = trial("lua:empty.lua", 0);
    t.device = RN_DEV_CUDA;
    void *st = prep_t(&t);
    allocs = frees = 0;
    ok(st, "for i = 1, 1000 do local x = ctx:rand(100):pow(2):sum():item() end\n"
           "collectgarbage()\n"
           "for i = 1, 1000 do local x = ctx:rand(100):pow(2):sum():item() end");
    cr_expect_lt(allocs, 400, "%ld device allocations for 3000 tensors", allocs);
    cr_expect_lt(frees, 100, "%ld buffers released before the end", frees);
    release(st);
    cr_expect_eq(allocs, frees, "%ld allocations, %ld frees", allocs, frees);
}

Test(lua, small_cpu_tensors_allocate_nothing_beyond_the_userdata)
{
    use_counting(RN_DEV_CPU);
    void *st = prep("lua:empty.lua", 0);
    allocs = 0;
    ok(st, "local t = ctx:rand(1); for i = 1, 1000 do t = (t:sin() + 1):sum() end\n"
           "for i = 1, 100 do local x = ctx:rand(1000):pow(2):sum():item() end");
    cr_expect_eq(allocs, 0, "%ld device allocations for small tensors", allocs);
    release(st);
}

/* --- devices ------------------------------------------------------------- */

Test(lua, mixing_devices_is_refused_and_to_moves_tensors)
{
    use_counting(RN_DEV_CUDA); /* a fake "cuda" whose memory is the host's */
    void *st = prep("lua:empty.lua", 5);
    ok(st, "local a = ctx:tensor{1, 2, 3}\n"
           "local g = a:to('cuda'); assert(g:device() == 'cuda:0')\n"
           "same(g:to('cpu'), {1, 2, 3})\n"
           "same((g + 1):to('cpu'), {2, 3, 4}); same((10 - g):to('cpu'), {9, 8, 7})\n"
           "assert(g:sum():item() == 6); assert(g:to('cuda') == g)\n"
           "same(g:to('cuda:1'):to('cpu'), {1, 2, 3})\n");
    fails(st, "local a = ctx:rand(3); return a + a:to('cuda')",
          "cannot add a cpu tensor and a cuda:0 tensor: move one with :to()");
    fails(st, "local g = ctx:rand(3):to('cuda'); return g * g:to('cuda:1')",
          "cannot multiply a cuda:0 tensor and a cuda:1 tensor: move one with :to()");
    fails(st, "local g = ctx:matrix(2, 2):to('cuda'); return g:matmul(ctx:rand(2))",
          "cannot matmul a cuda:0 tensor and a cpu tensor");
    release(st);
    cr_expect_eq(allocs, frees, "fake cuda: %ld allocations, %ld frees", allocs, frees);

    /* a trial on the fake device: ctx makes tensors there */
    rn_trial t = trial("lua:empty.lua", 5);
    t.device = RN_DEV_CUDA;
    st = prep_t(&t);
    ok(st, "assert(ctx.device == 'cuda:0'); local x = ctx:rand(4)\n"
           "assert(x:device() == 'cuda:0')\n"
           "local h = x:to('cpu'):totable()\n"
           "same(x:to('cpu') * 2, {2 * h[1], 2 * h[2], 2 * h[3], 2 * h[4]})");
    release(st);
}

Test(lua, no_cuda_tensor_support_fails_cleanly)
{
    char why[512];
    const rn_backend *b = backend_for(RN_DEV_CUDA, why, sizeof why);
    if (b && b->tensor)
        cr_skip_test("this machine has a CUDA backend with tensor ops");
    void *st = prep("lua:empty.lua", 0);
    fails(st, "return ctx:rand(3):to('cuda')", "device cuda");
    release(st);
    rn_trial t = trial("lua:empty.lua", 0);
    t.device = RN_DEV_CUDA;
    void *s2 = NULL;
    rn_error err = {{0}};
    int rc = lua_workload_impl()->prepare(&t, &s2, &err);
    cr_expect_eq(rc, 2, "a trial on a device without tensor ops is skipped (rc %d: %s)", rc,
                 err.msg);
    cr_expect(strstr(err.msg, "device cuda"), "%s", err.msg);
    cr_expect_null(s2);
}

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
    cr_expect(strstr(d, "no flops here"), "%s", d);
    cr_expect(strstr(d, "no bytes either"), "%s", d);
    cr_expect(strstr(d, "extras() must return a table of columns or nil"), "%s", d);
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
        snprintf(path, sizeof path, "%s/%s", fixtures, name);
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
    snprintf(path, sizeof path, "%s/%s", fixtures, name);
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
    snprintf(path, sizeof path, "%s/hooks_syntax.lua", fixtures);
    cr_expect_null(lua_hooks_open(path, err, sizeof err));
    cr_expect(strstr(err, "hooks_syntax.lua:3:"), "%s", err);
    snprintf(path, sizeof path, "%s/not_table.lua", fixtures);
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
    snprintf(path, sizeof path, "%s/%s", fixtures, name);
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
    snprintf(path, sizeof path, "%s/tests/bad/lua_close_nesting.lua", root);
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

/* A CPU tensor over 2^14 numbers has its own buffer, and a freed one serves
 * the next tensor of its size (doc/lua.md#the-tensor-api): ops that make and
 * close 2^16-float tensors in a loop allocate a handful of buffers, not one
 * an op; the reused buffers hold the new results; such tensors do not count
 * against the Lua memory cap. */
Test(lua, cpu_buffers_of_large_tensors_are_reused, .timeout = 30)
{
    use_counting(RN_DEV_CPU);
    lua_engine_set_memory_limit((size_t)8 << 20);
    void *st = prep("lua:empty.lua", 0);
    allocs = frees = 0;
    ok(st, "local x = ctx:rand(1 << 16)\n"
           "local want = x:sin():sum():item()\n"
           "for i = 1, 400 do\n"
           "  local y <close> = x:sin()\n"
           "  assert(y:sum():item() == want, 'call ' .. i)\n"
           "  local z <close> = x * i\n"
           "  assert(math.abs(z:sum():item() - i * x:sum():item()) <= 1e-3 * i * x:sum():item())\n"
           "end");
    cr_expect_lt(allocs, 10, "%ld buffers for 800 tensors of 2^16 floats", allocs);
    ok(st, "KEEP = {}; for i = 1, 64 do KEEP[i] = ctx:rand(1 << 16) end");
    release(st);
    cr_expect_eq(allocs, frees, "%ld allocations, %ld frees", allocs, frees);
    lua_engine_set_memory_limit(0);
}
