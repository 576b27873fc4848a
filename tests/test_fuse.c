/* test_fuse.c - ctx:fuse() (doc/lua.md#fused-expressions): fused results equal
 * the unfused tensor ops bit for bit on the CPU (one and several inputs,
 * broadcast, numbers, shared subexpressions, every pow case, sizes around
 * the block and the threading threshold); the errors (wrong arity, varargs,
 * operations that are not element-wise, captured tensors, bad results and
 * arguments) with their messages; the expression text and the compile
 * time; and, where lib/runner-cuda.so and NVRTC are present, the CUDA
 * source of an expression compiled by NVRTC (no GPU needed).  Fixtures:
 * tests/lua/. */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/lua/lua_engine.h"

extern const rn_tensor_ops cpu_tensor_ops;

static void init(void)
{
    static char fixtures[PATH_MAX], lua[PATH_MAX];
    const char *r = getenv("RUNNER_ROOT");
    snprintf(fixtures, sizeof fixtures, "%s/tests/lua", r && *r ? r : ".");
    snprintf(lua, sizeof lua, "%s/lua", r && *r ? r : ".");
    lua_engine_configure(fixtures, lua, 0);
    lua_engine_override_tensor_ops(RN_DEV_CPU, &cpu_tensor_ops);
}

TestSuite(fuse, .init = init);

static void *prep(void)
{
    rn_trial t = {.workload = "lua:empty.lua", .device = RN_DEV_CPU, .threads = 2, .size = -1};
    void *st = NULL;
    rn_error err = {{0}};
    cr_assert_eq(lua_workload_impl()->prepare(&t, &st, &err), 0, "%s", err.msg);
    return st;
}

static int eval(void *st, const char *chunk, char *out, size_t len, char *msg, size_t mlen)
{
    rn_error err = {{0}};
    char dummy[8];
    int rc = lua_workload_eval(st, chunk, out ? out : dummy, out ? len : sizeof dummy, &err);
    snprintf(msg, mlen, "%s", err.msg);
    return rc;
}

static void ok(void *st, const char *chunk)
{
    char msg[1024];
    cr_assert_eq(eval(st, chunk, NULL, 0, msg, sizeof msg), 0, "%s\n-> %s", chunk, msg);
}

static void fails(void *st, const char *chunk, const char *want)
{
    char msg[1024];
    int rc = eval(st, chunk, NULL, 0, msg, sizeof msg);
    cr_assert_neq(rc, 0, "%s: succeeded, expected an error with '%s'", chunk, want);
    cr_assert(strstr(msg, want), "%s:\n  got  '%s'\n  want '%s'", chunk, msg, want);
}

/* Compares two tensors element by element, exactly. */
static const char *const same =
    "local function same(a, b, what)\n"
    "  local x, y = a:totable(), b:totable()\n"
    "  assert(#x == #y, what .. ': sizes ' .. #x .. ' and ' .. #y)\n"
    "  for i = 1, #x do\n"
    "    if x[i] ~= y[i] and (x[i] == x[i] or y[i] == y[i]) then\n"
    "      error(('%s: element %d: %.9g fused, %.9g unfused'):format(what, i, x[i], y[i]))\n"
    "    end\n"
    "  end\n"
    "end\n";

Test(fuse, results_equal_the_unfused_ops_bit_for_bit, .timeout = 60)
{
    void *st = prep();
    char chunk[8192];
    const long sizes[] = {0, 1, 5, 1023, 1024, 1025, 3000, 70001};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        snprintf(chunk, sizeof chunk,
                 "%s"
                 "local n = %ld\n"
                 "local x, y = ctx:randn(n) * 3, ctx:rand(n) + 0.5\n"
                 "local c = ctx:tensor{0.75}\n"
                 "local cases = {\n"
                 "  {function(x) return x:sin():sin():sin():sin() end, function(x) return "
                 "x:sin():sin():sin():sin() end, {x}},\n"
                 "  {function(a, b) return (a * b + 2) / (b - 0.25) end, function(a, b) return "
                 "(a * b + 2) / (b - 0.25) end, {x, y}},\n"
                 "  {function(a) return 2 - a end, function(a) return 2 - a end, {x}},\n"
                 "  {function(a) return -(1 / a) end, function(a) return -(1 / a) end, {y}},\n"
                 "  {function(a) local s = a:sin(); return s * s + s:abs() - s:exp() end, "
                 "function(a) local s = a:sin(); return s * s + s:abs() - s:exp() end, {x}},\n"
                 "  {function(a) return a:pow(2) + a:pow(3) + a:pow(0.5) + a:pow(-1) + "
                 "a:pow(1.5) + a:pow(0) + a:pow(1) end, function(a) return a:pow(2) + a:pow(3) + "
                 "a:pow(0.5) + a:pow(-1) + a:pow(1.5) + a:pow(0) + a:pow(1) end, {y}},\n"
                 "  {function(a, s) return a * s + s:neg() end, function(a, s) return a * s + "
                 "s:neg() end, {x, c}},\n"
                 "  {function(s, a) return s:exp() * a end, function(s, a) return s:exp() * a "
                 "end, {c, x}},\n"
                 "  {function(a, b) return a end, function(a, b) return a + 0 end, {x, y}},\n"
                 "  {function(a) return -a:abs():neg() end, function(a) return -(-(a:abs())) "
                 "end, {x}},\n"
                 "}\n"
                 "for k, case in ipairs(cases) do\n"
                 "  if case[2] then\n"
                 "    local f = ctx:fuse(case[1])\n"
                 "    same(f(table.unpack(case[3])), case[2](table.unpack(case[3])), 'case ' .. k "
                 ".. ' n ' .. n)\n"
                 "  end\n"
                 "end\n"
                 "local g = ctx:fuse(function(s) return s:sin() + 1 end)\n"
                 "local r = g(c); assert(#r == 1 and r:item() == (c:sin() + 1):item())\n"
                 "local z = ctx:fuse(function(a, s) return a + s end)(ctx:zeros(0), c)\n"
                 "assert(#z == 0, 'an empty tensor broadcast with one number stays empty')\n",
                 same, sizes[i]);
        ok(st, chunk);
    }
    /* a matrix keeps its shape */
    ok(st, "local m = ctx:matrix(3, 4)\n"
           "local r, c = ctx:fuse(function(a) return a * 2 end)(m):shape()\n"
           "assert(r == 3 and c == 4)\n");
    lua_workload_impl()->release(st);
}

Test(fuse, expression_text_and_compile_time)
{
    void *st = prep();
    ok(st, "local f = ctx:fuse(function(x) return x:sin():sin():sin():sin() end)\n"
           "assert(f:expression() == 'sin(sin(sin(sin(x))))', f:expression())\n"
           "local s = f:compile_seconds()\n"
           "assert(type(s) == 'number' and s >= 0 and s < 1, s)\n"
           "local g = ctx:fuse(function(a, b) return (a - 1.5) * b:pow(3) / -b end)\n"
           "assert(g:expression() == '(((a - 1.5) * pow(b, 3)) / -(b))', g:expression())\n"
           "assert(tostring(g):find('fused function: ', 1, true))\n");
    lua_workload_impl()->release(st);
}

Test(fuse, wrong_arity_is_an_error_with_a_clear_message)
{
    void *st = prep();
    fails(st, "local f = ctx:fuse(function(x) return x:sin() end)\n"
              "return f(ctx:rand(3), ctx:rand(3))",
          "fused function takes 1 tensor (x), got 2 arguments");
    fails(st, "local f = ctx:fuse(function(x, y) return x + y end)\n return f(ctx:rand(3))",
          "fused function takes 2 tensors (x, y), got 1 argument");
    fails(st, "return ctx:fuse(function(x, ...) return x end)",
          "fuse: the function takes '...'; name one parameter per tensor");
    fails(st, "return ctx:fuse(function() return 1 end)",
          "fuse: the function takes 0 parameters; it needs 1 to 16, one per tensor");
    fails(st, "return ctx:fuse(function(a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q) return a end)",
          "fuse: the function takes 17 parameters");
    fails(st, "return ctx:fuse(3)", "fuse: expected a Lua function, got number");
    fails(st, "return ctx:fuse(math.sin)", "fuse: expected a Lua function, got a C function");
    lua_workload_impl()->release(st);
}

Test(fuse, operations_that_are_not_element_wise_are_refused_by_name)
{
    void *st = prep();
    const char *allowed = "a fused function may use only sin, exp, abs, neg, pow(k), +, -, *, / "
                          "and numbers";
    char want[256];
    const char *ops[][2] = {
        {"return x:sum()", "fuse: sum() is not element-wise"},
        {"return x:matmul(x)", "fuse: matmul() is not element-wise"},
        {"return x:item()", "fuse: item() is not element-wise"},
        {"return x:to('cpu')", "fuse: to() is not element-wise"},
        {"return x:totable()", "fuse: totable() is not element-wise"},
        {"return x + #x", "fuse: # (the size) is not element-wise"},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        char chunk[256];
        snprintf(chunk, sizeof chunk, "return ctx:fuse(function(x) %s end)", ops[i][0]);
        fails(st, chunk, ops[i][1]);
        snprintf(want, sizeof want, "%s", allowed);
        fails(st, chunk, want);
    }
    fails(st, "return ctx:fuse(function(x) return x:cos() end)",
          "fuse: an expression has no method 'cos'");
    fails(st, "return ctx:fuse(function(x) if x > 0 then return x end return -x end)",
          "fuse: an expression has no value to compare while it is recorded");
    fails(st, "return ctx:fuse(function(x) return x ^ 2 end)",
          "fuse: ^, //, %, .. and calls are not supported on an expression");
    fails(st, "return ctx:fuse(function(x) return x:pow('2') end)",
          "fuse: pow: the exponent must be a number, got string");
    fails(st, "return ctx:fuse(function(x) return x + 'a' end)",
          "fuse: cannot add an expression and a string");
    /* a tensor the function captured instead of taking it as a parameter */
    fails(st, "local t = ctx:rand(3)\nreturn ctx:fuse(function(x) return x * t end)",
          "fuse: cannot multiply an expression and a tensor the function did not get as a "
          "parameter");
    fails(st, "local t = ctx:rand(3)\nreturn ctx:fuse(function(x) return t + x end)",
          "cannot add a tensor and a fuse expression");
    /* an error of the function itself keeps its position */
    fails(st, "return ctx:fuse(function(x)\n error('mine')\n end)", "eval:2: mine");
    lua_workload_impl()->release(st);
}

Test(fuse, results_and_arguments_that_are_not_expressions_and_tensors)
{
    void *st = prep();
    fails(st, "return ctx:fuse(function(x) return 1 end)",
          "fuse: the function returned a number, not an expression of its parameters");
    fails(st, "return ctx:fuse(function(x) end)", "fuse: the function must return one "
                                                  "expression, it returned 0 values");
    fails(st, "return ctx:fuse(function(x) return x, x end)",
          "fuse: the function must return one expression, it returned 2 values");
    fails(st, "local t = ctx:rand(2)\nreturn ctx:fuse(function(x) return t end)",
          "fuse: the function returned a tensor it did not get as a parameter");
    fails(st, "local f = ctx:fuse(function(x, y) return x + y end)\nreturn f(ctx:rand(3), 2)",
          "fused function: argument 2 (y) is a number, not a tensor (numbers belong inside the "
          "function)");
    fails(st, "local f = ctx:fuse(function(x, y) return x + y end)\n"
              "return f(ctx:rand(3), ctx:rand(4))",
          "fused function: argument 1 (x) has 3 elements where another has 4: the sizes must "
          "be equal, or 1");
    fails(st, "local kept\nctx:fuse(function(x) kept = x; return x end)\nreturn kept:sin()",
          "fuse: an expression was used after its ctx:fuse() returned");
    fails(st, "local f = ctx:fuse(function(x) return x end)\n"
              "return ctx:fuse(function(y) return f(y) end)",
          "fused function: argument 1 (x) is a fuse expression, not a tensor");
    lua_workload_impl()->release(st);
}

/* --- CUDA: the source and NVRTC, without a GPU ----------------------------- */

typedef int (*compile_test_fn)(const rn_fuse_expr *e, int arch, size_t *bytes, double *seconds,
                               char *source, size_t source_len, char *msg, size_t len);

Test(fuse, cuda_source_compiles_with_nvrtc, .timeout = 60)
{
    char lib[PATH_MAX];
    const char *r = getenv("RUNNER_ROOT");
    snprintf(lib, sizeof lib, "%s/lib/runner-cuda.so", r && *r ? r : ".");
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        cr_skip_test("no CUDA backend here (%s)", dlerror());
    compile_test_fn compile = (compile_test_fn)dlsym(h, "runner_cuda_fuse_compile_test");
    cr_assert_not_null(compile, "runner-cuda.so lacks runner_cuda_fuse_compile_test");
    /* sin(sin(sin(sin(x)))) and (a * b + 2) / pow(b, 2.5) with an unused node */
    const rn_fuse_node sin4[] = {{RN_FN_INPUT, -1, -1, 0, 0}, {RN_FN_SIN, 0, -1, 0, 0},
                                 {RN_FN_SIN, 1, -1, 0, 0},    {RN_FN_SIN, 2, -1, 0, 0},
                                 {RN_FN_SIN, 3, -1, 0, 0}};
    const rn_fuse_node two[] = {{RN_FN_INPUT, -1, -1, 0, 0}, {RN_FN_INPUT, -1, -1, 1, 0},
                                {RN_FN_EXP, 0, -1, 0, 0},    {RN_FN_MUL, 0, 1, 0, 0},
                                {RN_FN_CONST, -1, -1, 0, 2}, {RN_FN_ADD, 3, 4, 0, 0},
                                {RN_FN_POW, 1, -1, 0, 2.5},  {RN_FN_DIV, 5, 6, 0, 0}};
    const rn_fuse_expr es[] = {{1, 5, sin4, "sin4"}, {2, 8, two, "two"}};
    const int archs[] = {80, 90};
    for (int i = 0; i < 2; i++)
        for (int a = 0; a < 2; a++) {
            size_t bytes = 0;
            double secs = 0;
            char src[4096], msg[1024];
            int rc = compile(&es[i], archs[a], &bytes, &secs, src, sizeof src, msg, sizeof msg);
            if (rc != 0 && strstr(msg, "NVRTC is not available"))
                cr_skip_test("%s", msg);
            cr_assert_eq(rc, 0, "expression %d, sm_%d: %s\n%s", i, archs[a], msg, src);
            cr_expect_gt(bytes, 100);
            cr_log_info("NVRTC: expression %d for sm_%d: %zu bytes in %.3f s", i, archs[a],
                        bytes, secs);
            if (i == 0)
                cr_expect(strstr(src, "const float v4 = sinf(v3);") &&
                              strstr(src, "y[i] = v4;"),
                          "%s", src);
            else
                cr_expect(!strstr(src, "expf") && strstr(src, "powf(v1, ") &&
                              strstr(src, "__int_as_float(0x40000000)"),
                          "the unused exp is left out; 2.0f exactly: %s", src);
        }
    /* the library stays loaded: unloading it unmaps the C++ runtime's pools
     * that NVRTC's loading made, which LeakSanitizer would report as leaks */
}
