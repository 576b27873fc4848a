/* test_lua_tensor.c - the tensor API of Lua workloads
 * (doc/lua.md#the-tensor-api) on the CPU against the Philox reference:
 * operators and shapes, memory (GC, <close>, release, reused buffers) and
 * device mixing. */
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

#include "lua_fixture.h"
#include "experiment/registry/backends.h"
#include "experiment/lua/lua_engine.h"
#include "philox.h"

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
    static const char *const bad[][2] = {
        {"ctx:rand(-1)", "rand: n = -1 must be >= 0"},
        {"ctx:rand(1.5)", "number has no integer representation"},
        {"ctx:tensor{1, 'x'}", "tensor: element 2 is not a number"},
        {"ctx:tensor{{1, 2}, {3}}", "tensor: row 2 is not a list of 2 numbers"},
        {"ctx:matrix(0, 3)", "matrix: 0 x 3"},
        {NULL},
    };
    fails_each(st, bad);
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
    static const char *const bad[][2] = {
        {"ctx:matrix(3, 4):matmul(ctx:matrix(5, 2))", "matmul: 3x4 and 5x2 do not fit"},
        {"ctx:matrix(3, 4):matmul(ctx:rand(5))", "matmul: 3x4 and a vector of 5 do not fit"},
        {"ctx:rand(4):matmul(ctx:rand(4))", "matmul: the left operand must be a matrix"},
        {"return ctx:rand(3) + ctx:rand(4)",
         "cannot add a vector of 3 and a vector of 4: the shapes do not fit"},
        {"return ctx:matrix(2, 3) * ctx:matrix(3, 2)", "cannot multiply 2x3 and 3x2"},
        {"return ctx:rand(3):item()", "item: the tensor has 3 elements"},
        {"return ctx:rand(3) + 'x'", "cannot add a tensor and a string"},
        {"return ctx:rand(3):pow('x')", "pow: the exponent must be a number"},
        {"return ctx:rand(3):to('tpu')", "to: unknown device 'tpu'"},
        {NULL},
    };
    fails_each(st, bad);
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
