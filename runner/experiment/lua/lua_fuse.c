/* lua_fuse.c - ctx:fuse(fn) of the Lua tensor API
 * (doc/lua.md#fused-expressions): an element-wise tensor expression turned into one kernel.
 *
 * ctx:fuse(fn) calls fn once with one placeholder ("fuse expression") per
 * parameter.  The placeholders record what fn does with them (sin, exp,
 * abs, neg, pow, + - * / between them and with numbers) as the nodes of an
 * rn_fuse_expr (backend.h); anything else (sum, matmul, item, #, a
 * comparison, a tensor fn did not get as a parameter) is an error that
 * names the operation.  The result must be one expression.  The fused
 * function is then compiled for ctx's device by that device's
 * rn_tensor_ops.fuse_compile (CPU: a block program, backends/cpu/fuse.c;
 * CUDA: NVRTC, backends/cuda/fuse.cu), and for another device the first time
 * it is called with tensors there.  Calling it, f(a, b, ...), takes one
 * tensor per parameter (same size, or one element), all on one device, and
 * returns a new tensor.  f:expression() gives the expression as text,
 * f:compile_seconds() the time its compilations took (the run-time cost of
 * fusion, reported apart from the calls).
 *
 * ctx:fuse (added to ctx by lt_fuse_open, after lt_open) and the fused
 * function's __call are C closures with the tensor functions' three upvalues
 * (lt_open), so that they can make tensors.
 */
#define LUA_ENGINE_INTERNAL
#include "experiment/lua/lua_engine.h"

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TRACE_MT "runner.fuse_trace"
#define EXPR_MT "runner.fuse_expression"
#define FUSED_MT "runner.fused"
#define MAX_KERNELS 8   /* devices one fused function is compiled for */
#define TEXT_MAX 4096   /* f:expression() longer than this is cut */

/* One ctx:fuse() call's recording. */
typedef struct trace {
    int ninputs, n, done;
    rn_fuse_node nodes[RN_FUSE_MAX_NODES];
} trace;

/* A placeholder: node `node` of the trace in its user value. */
typedef struct expr {
    int node;
} expr;

typedef struct fused {
    int ninputs, nnodes;
    rn_fuse_node *nodes;
    char *key, *text;
    char names[RN_FUSE_MAX_INPUTS][32];
    double compile_seconds;
    struct {
        rn_device_kind kind;
        int dev;
        const rn_tensor_ops *ops;
        void *kernel;
    } k[MAX_KERNELS];
    int nk;
} fused;

/* --- recording ----------------------------------------------------------- */

static const char *const ALLOWED = "sin, exp, abs, neg, pow(k), +, -, *, / and numbers";

/* The trace of the placeholder at index i (which is one), its node in *node. */
static trace *expr_trace(lua_State *L, int i, int *node)
{
    expr *x = luaL_checkudata(L, i, EXPR_MT);
    lua_getiuservalue(L, i, 1);
    trace *t = lua_touserdata(L, -1);
    lua_pop(L, 1); /* the placeholder's user value keeps it alive */
    if (t->done)
        luaL_error(L, "fuse: an expression was used after its ctx:fuse() returned (keep the "
                      "fused function, not its expressions)");
    *node = x->node;
    return t;
}

/* A new node of t, pushed as a placeholder; `trace_at` is the index of the
 * trace's userdata. */
static void push_node(lua_State *L, trace *t, int trace_at, rn_fuse_node nd)
{
    if (t->n == RN_FUSE_MAX_NODES)
        luaL_error(L, "fuse: the expression has more than %d operations", RN_FUSE_MAX_NODES);
    t->nodes[t->n] = nd;
    expr *x = lua_newuserdatauv(L, sizeof *x, 1);
    x->node = t->n++;
    lua_pushvalue(L, trace_at);
    lua_setiuservalue(L, -2, 1);
    luaL_setmetatable(L, EXPR_MT);
}

static int unary(lua_State *L, rn_fuse_op op, double k)
{
    int a;
    trace *t = expr_trace(L, 1, &a);
    lua_getiuservalue(L, 1, 1);
    int at = lua_gettop(L);
    push_node(L, t, at, (rn_fuse_node){op, a, -1, 0, k});
    return 1;
}

static int e_sin(lua_State *L) { return unary(L, RN_FN_SIN, 0); }
static int e_exp(lua_State *L) { return unary(L, RN_FN_EXP, 0); }
static int e_abs(lua_State *L) { return unary(L, RN_FN_ABS, 0); }
static int e_neg(lua_State *L) { return unary(L, RN_FN_NEG, 0); }

static int e_pow(lua_State *L)
{
    luaL_checkudata(L, 1, EXPR_MT);
    if (lua_type(L, 2) != LUA_TNUMBER)
        return luaL_error(L, "fuse: pow: the exponent must be a number, got %s",
                          lt_type_name(L, 2));
    return unary(L, RN_FN_POW, lua_tonumber(L, 2));
}

/* An operand of a binary operation: its node, a new constant node for a
 * number, or an error naming what it is. */
static int operand(lua_State *L, int i, trace *t, int trace_at, const char *verb)
{
    if (luaL_testudata(L, i, EXPR_MT)) {
        int node;
        trace *u = expr_trace(L, i, &node);
        if (u != t)
            luaL_error(L, "fuse: cannot %s expressions of two ctx:fuse() calls", verb);
        return node;
    }
    if (lua_type(L, i) == LUA_TNUMBER) {
        push_node(L, t, trace_at, (rn_fuse_node){RN_FN_CONST, -1, -1, 0, lua_tonumber(L, i)});
        int node = t->n - 1;
        lua_pop(L, 1);
        return node;
    }
    const char *what = lt_type_name(L, i);
    if (!strcmp(what, "tensor"))
        luaL_error(L, "fuse: cannot %s an expression and a tensor the function did not get as "
                      "a parameter (pass it as an argument of the fused function)",
                   verb);
    return luaL_error(L, "fuse: cannot %s an expression and a %s", verb, what);
}

static int binary(lua_State *L, rn_fuse_op op, const char *verb)
{
    int ei = luaL_testudata(L, 1, EXPR_MT) ? 1 : 2, dummy;
    trace *t = expr_trace(L, ei, &dummy);
    lua_getiuservalue(L, ei, 1);
    int at = lua_gettop(L);
    int a = operand(L, 1, t, at, verb), b = operand(L, 2, t, at, verb);
    push_node(L, t, at, (rn_fuse_node){op, a, b, 0, 0});
    return 1;
}

static int e_add(lua_State *L) { return binary(L, RN_FN_ADD, "add"); }
static int e_sub(lua_State *L) { return binary(L, RN_FN_SUB, "subtract"); }
static int e_mul(lua_State *L) { return binary(L, RN_FN_MUL, "multiply"); }
static int e_div(lua_State *L) { return binary(L, RN_FN_DIV, "divide"); }

/* Operations that are not element-wise, with what they are. */
static int not_elementwise(lua_State *L, const char *op)
{
    return luaL_error(L, "fuse: %s is not element-wise; a fused function may use only %s", op,
                      ALLOWED);
}

static int e_index(lua_State *L)
{
    static const luaL_Reg methods[] = {{"sin", e_sin}, {"exp", e_exp}, {"abs", e_abs},
                                       {"neg", e_neg}, {"pow", e_pow}, {NULL, NULL}};
    const char *k = lua_tostring(L, 2);
    for (int i = 0; k && methods[i].name; i++)
        if (!strcmp(k, methods[i].name)) {
            lua_pushcfunction(L, methods[i].func);
            return 1;
        }
    static const char *const tensor_only[] = {"sum", "matmul", "item", "to", "totable",
                                              "shape", "device", NULL};
    for (int i = 0; k && tensor_only[i]; i++)
        if (!strcmp(k, tensor_only[i])) {
            lua_pushfstring(L, "%s()", k);
            return not_elementwise(L, lua_tostring(L, -1));
        }
    return luaL_error(L, "fuse: an expression has no method '%s'; a fused function may use "
                         "only %s",
                      k ? k : luaL_typename(L, 2), ALLOWED);
}

static int e_len(lua_State *L)
{
    return not_elementwise(L, "# (the size)");
}

static int e_compare(lua_State *L)
{
    return luaL_error(L, "fuse: an expression has no value to compare while it is recorded (a "
                         "fused function cannot branch on its elements); it may use only %s",
                      ALLOWED);
}

static int e_other(lua_State *L)
{
    return luaL_error(L, "fuse: ^, //, %%, .. and calls are not supported on an expression; "
                         "a fused function may use only %s",
                      ALLOWED);
}

static int e_tostring(lua_State *L)
{
    luaL_checkudata(L, 1, EXPR_MT);
    lua_pushliteral(L, "fuse expression");
    return 1;
}

static void expr_metatable(lua_State *L)
{
    if (!luaL_newmetatable(L, EXPR_MT)) {
        lua_pop(L, 1);
        return;
    }
    static const luaL_Reg mm[] = {
        {"__add", e_add},   {"__sub", e_sub},     {"__mul", e_mul},         {"__div", e_div},
        {"__unm", e_neg},   {"__index", e_index}, {"__len", e_len},         {"__lt", e_compare},
        {"__le", e_compare}, {"__pow", e_other},  {"__idiv", e_other},      {"__mod", e_other},
        {"__concat", e_other}, {"__call", e_other}, {"__tostring", e_tostring}, {NULL, NULL},
    };
    luaL_setfuncs(L, mm, 0);
    lua_pushliteral(L, "fuse expression");
    lua_setfield(L, -2, "__name");
    lua_pushliteral(L, "fuse expression");
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
}

/* --- text ----------------------------------------------------------------- */

typedef struct sbuf {
    char *p;
    size_t n, cap;
    int over;
} sbuf;

static void sb_add(sbuf *b, const char *s)
{
    size_t m = strlen(s);
    if (b->n + m + 1 > b->cap) {
        b->over = 1;
        return;
    }
    memcpy(b->p + b->n, s, m + 1);
    b->n += m;
}

/* Node i as an expression (shared nodes written out at each use). */
static void tree_text(const fused *f, int i, sbuf *b)
{
    if (b->over)
        return;
    const rn_fuse_node *nd = &f->nodes[i];
    char num[40];
    static const char *const fn[] = {[RN_FN_NEG] = "-", [RN_FN_SIN] = "sin",
                                     [RN_FN_EXP] = "exp", [RN_FN_ABS] = "abs"};
    static const char *const op[] = {[RN_FN_ADD] = " + ", [RN_FN_SUB] = " - ",
                                     [RN_FN_MUL] = " * ", [RN_FN_DIV] = " / "};
    switch (nd->op) {
    case RN_FN_INPUT:
        sb_add(b, f->names[nd->input]);
        return;
    case RN_FN_CONST:
        snprintf(num, sizeof num, "%.9g", nd->k);
        sb_add(b, num);
        return;
    case RN_FN_POW:
        sb_add(b, "pow(");
        tree_text(f, nd->a, b);
        snprintf(num, sizeof num, ", %.9g)", nd->k);
        sb_add(b, num);
        return;
    case RN_FN_NEG:
    case RN_FN_SIN:
    case RN_FN_EXP:
    case RN_FN_ABS:
        sb_add(b, fn[nd->op]);
        sb_add(b, "(");
        tree_text(f, nd->a, b);
        sb_add(b, ")");
        return;
    default:
        sb_add(b, "(");
        tree_text(f, nd->a, b);
        sb_add(b, op[nd->op]);
        tree_text(f, nd->b, b);
        sb_add(b, ")");
        return;
    }
}

/* The key: one line per node ("3 sin 2"), numbers as %a (exact). */
static char *key_text(const fused *f)
{
    size_t cap = (size_t)f->nnodes * 64 + 32;
    char *s = malloc(cap), *p = s;
    if (!s)
        return NULL;
    p += snprintf(p, cap, "inputs %d\n", f->ninputs);
    for (int i = 0; i < f->nnodes; i++) {
        const rn_fuse_node *nd = &f->nodes[i];
        p += snprintf(p, cap - (size_t)(p - s), "%d %d %d %d %d %a\n", i, (int)nd->op, nd->a,
                      nd->b, nd->input, nd->k);
    }
    return s;
}

/* --- the fused function ---------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The kernel of f for (kind, dev, ops), compiled when missing. */
static void *kernel_for(lua_State *L, fused *f, rn_device_kind kind, int dev,
                        const rn_tensor_ops *ops, const char *where)
{
    for (int i = 0; i < f->nk; i++)
        if (f->k[i].kind == kind && f->k[i].dev == dev && f->k[i].ops == ops)
            return f->k[i].kernel;
    if (!ops->fuse_compile || !ops->fuse_run || !ops->fuse_free)
        luaL_error(L, "fuse: %s has no fused kernels in this build", where);
    if (f->nk == MAX_KERNELS)
        luaL_error(L, "fuse: a fused function is compiled for %d devices at most", MAX_KERNELS);
    rn_fuse_expr e = {f->ninputs, f->nnodes, f->nodes, f->key};
    rn_error err;
    err.msg[0] = '\0';
    void *k = NULL;
    double secs = 0, t0 = now_s();
    if (ops->fuse_compile(dev, &e, &k, &secs, &err) != 0)
        luaL_error(L, "fuse: compiling %s for %s failed: %s", f->text, where,
                   err.msg[0] ? err.msg : "no reason given");
    /* the backend's own figure (0 for its cache), else the time it took */
    f->compile_seconds += secs == secs && secs >= 0 ? secs : now_s() - t0;
    f->k[f->nk].kind = kind;
    f->k[f->nk].dev = dev;
    f->k[f->nk].ops = ops;
    f->k[f->nk].kernel = k;
    f->nk++;
    return k;
}

static fused *check_fused(lua_State *L, int i)
{
    return luaL_checkudata(L, i, FUSED_MT);
}

static void names_text(const fused *f, char *out, size_t len)
{
    out[0] = '\0';
    size_t n = 0;
    for (int i = 0; i < f->ninputs && n + 1 < len; i++)
        n += (size_t)snprintf(out + n, len - n, "%s%s", i ? ", " : "", f->names[i]);
}

/* f(a, b, ...) */
static int f_call(lua_State *L)
{
    fused *f = check_fused(L, 1);
    int nargs = lua_gettop(L) - 1;
    char names[256];
    if (nargs != f->ninputs || nargs < 1) {
        names_text(f, names, sizeof names);
        return luaL_error(L, "fused function takes %d tensor%s (%s), got %d argument%s",
                          f->ninputs, f->ninputs == 1 ? "" : "s", names, nargs,
                          nargs == 1 ? "" : "s");
    }
    lt_tensor *t[RN_FUSE_MAX_INPUTS] = {NULL};
    for (int j = 0; j < nargs; j++) {
        t[j] = lt_test(L, j + 2);
        if (!t[j])
            return luaL_error(L, "fused function: argument %d (%s) is a %s, not a tensor "
                                 "(numbers belong inside the function)",
                              j + 1, f->names[j], lt_type_name(L, j + 2));
    }
    const lt_tensor *like = t[0];
    size_t n = t[0]->n;
    for (int j = 1; j < nargs; j++) {
        char d0[32], d1[32];
        if (t[j]->kind != t[0]->kind || t[j]->dev != t[0]->dev || t[j]->ops != t[0]->ops)
            return luaL_error(L, "fused function: cannot use a %s tensor and a %s tensor "
                                 "together: move one with :to()",
                              lt_device_text(d0, sizeof d0, t[0]),
                              lt_device_text(d1, sizeof d1, t[j]));
        if (t[j]->n > n)
            n = t[j]->n;
    }
    /* one-element arguments stand for every element; an empty one makes the
     * result empty (a single number never stands in for elements that do
     * not exist), as the tensor operators do */
    int empty = 0;
    for (int j = 0; j < nargs; j++)
        empty |= t[j]->n == 0;
    size_t want = empty ? 0 : n;
    for (int j = 0; j < nargs; j++) {
        if (t[j]->n != want && t[j]->n != 1)
            return luaL_error(L, "fused function: argument %d (%s) has %I elements where "
                                 "another has %I: the sizes must be equal, or 1",
                              j + 1, f->names[j], (lua_Integer)t[j]->n, (lua_Integer)want);
        if (t[j]->n == want && like->n != want)
            like = t[j];
    }
    n = want;
    char where[32];
    lt_device_text(where, sizeof where, like);
    void *k = kernel_for(L, f, like->kind, like->dev, like->ops, where);
    const float *in[RN_FUSE_MAX_INPUTS];
    size_t nin[RN_FUSE_MAX_INPUTS];
    for (int j = 0; j < nargs; j++) {
        in[j] = t[j]->data;
        nin[j] = empty ? 0 : t[j]->n;
    }
    lt_tensor *r = lt_new_like(L, like, n);
    rn_error err;
    err.msg[0] = '\0';
    if (like->ops->fuse_run(like->dev, k, r->data, in, nin, n, &err) != 0)
        return luaL_error(L, "fused function: %s", err.msg[0] ? err.msg : "the device failed");
    return 1;
}

static int f_expression(lua_State *L)
{
    lua_pushstring(L, check_fused(L, 1)->text);
    return 1;
}

static int f_compile_seconds(lua_State *L)
{
    lua_pushnumber(L, check_fused(L, 1)->compile_seconds);
    return 1;
}

static int f_tostring(lua_State *L)
{
    lua_pushfstring(L, "fused function: %s", check_fused(L, 1)->text);
    return 1;
}

static int f_gc(lua_State *L)
{
    fused *f = luaL_testudata(L, 1, FUSED_MT);
    if (!f)
        return 0;
    for (int i = 0; i < f->nk; i++)
        f->k[i].ops->fuse_free(f->k[i].dev, f->k[i].kernel);
    f->nk = 0;
    free(f->nodes);
    free(f->key);
    free(f->text);
    f->nodes = NULL;
    f->key = f->text = NULL;
    return 0;
}

/* The fused functions' metatable, made once per state with the upvalues of
 * the ctx:fuse that made it first (one engine per state). */
static void fused_metatable(lua_State *L)
{
    if (!luaL_newmetatable(L, FUSED_MT))
        return;
    static const luaL_Reg mm[] = {{"__call", f_call}, {"__tostring", f_tostring}, {NULL, NULL}};
    static const luaL_Reg methods[] = {
        {"expression", f_expression}, {"compile_seconds", f_compile_seconds}, {NULL, NULL}};
    for (int u = 1; u <= 3; u++)
        lua_pushvalue(L, lua_upvalueindex(u));
    luaL_setfuncs(L, mm, 3);
    lua_pushcfunction(L, f_gc);
    lua_setfield(L, -2, "__gc");
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_setfield(L, -2, "__index");
    lua_pushliteral(L, "fused function");
    lua_setfield(L, -2, "__name");
    lua_pushliteral(L, "fused function");
    lua_setfield(L, -2, "__metatable");
}

/* ctx:fuse(fn) */
static int lt_fuse(lua_State *L)
{
    lt_engine *e = lua_touserdata(L, lua_upvalueindex(2));
    if (lua_type(L, 2) != LUA_TFUNCTION || lua_iscfunction(L, 2))
        return luaL_error(L, "fuse: expected a Lua function, got %s (call it as "
                             "ctx:fuse(function(x) ... end))",
                          lua_iscfunction(L, 2) ? "a C function" : lt_type_name(L, 2));
    lua_settop(L, 2);
    lua_Debug ar;
    lua_pushvalue(L, 2);
    lua_getinfo(L, ">u", &ar);
    if (ar.isvararg)
        return luaL_error(L, "fuse: the function takes '...'; name one parameter per tensor "
                             "(function(x, y) ... end)");
    if (ar.nparams < 1 || ar.nparams > RN_FUSE_MAX_INPUTS)
        return luaL_error(L, "fuse: the function takes %d parameters; it needs 1 to %d, one "
                             "per tensor",
                          (int)ar.nparams, RN_FUSE_MAX_INPUTS);
    int np = ar.nparams;
    expr_metatable(L);
    fused_metatable(L); /* index 3 */
    /* the recording (index 4) and one placeholder per parameter */
    trace *t = lua_newuserdatauv(L, sizeof *t, 0);
    memset(t, 0, sizeof *t);
    t->ninputs = np;
    lua_pushvalue(L, 2);
    for (int j = 0; j < np; j++)
        push_node(L, t, 4, (rn_fuse_node){RN_FN_INPUT, -1, -1, j, 0});
    int base = 4;
    int rc = lua_pcall(L, np, LUA_MULTRET, 0);
    t->done = 1; /* placeholders that escaped are of no use from now on */
    if (rc != LUA_OK)
        return lua_error(L); /* the function's own error, with its position */
    int nres = lua_gettop(L) - base;
    if (nres != 1)
        return luaL_error(L, "fuse: the function must return one expression, it returned %d "
                             "values",
                          nres);
    if (!luaL_testudata(L, -1, EXPR_MT)) {
        const char *what = lt_type_name(L, -1);
        if (!strcmp(what, "tensor"))
            return luaL_error(L, "fuse: the function returned a tensor it did not get as a "
                                 "parameter; it must return an expression of its parameters");
        return luaL_error(L, "fuse: the function returned a %s, not an expression of its "
                             "parameters",
                          what);
    }
    lua_getiuservalue(L, -1, 1);
    trace *u = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (u != t)
        return luaL_error(L, "fuse: the function returned an expression of another ctx:fuse()");
    int root = ((expr *)lua_touserdata(L, -1))->node;
    /* the fused function */
    fused *f = lua_newuserdatauv(L, sizeof *f, 0);
    memset(f, 0, sizeof *f);
    luaL_setmetatable(L, FUSED_MT);
    f->ninputs = np;
    f->nnodes = root + 1; /* later nodes are not the result's */
    f->nodes = malloc((size_t)f->nnodes * sizeof *f->nodes);
    if (!f->nodes)
        return luaL_error(L, "fuse: out of memory");
    memcpy(f->nodes, t->nodes, (size_t)f->nnodes * sizeof *f->nodes);
    lua_pushvalue(L, 2); /* lua_getlocal(L, NULL, i): the parameters' names */
    for (int j = 0; j < np; j++) {
        const char *name = lua_getlocal(L, NULL, j + 1);
        snprintf(f->names[j], sizeof f->names[j], "%s", name ? name : "?");
    }
    lua_pop(L, 1);
    f->key = key_text(f);
    char *text = malloc(TEXT_MAX);
    if (!f->key || !text) {
        free(text);
        return luaL_error(L, "fuse: out of memory");
    }
    sbuf b = {text, 0, TEXT_MAX - 32, 0};
    text[0] = '\0';
    tree_text(f, f->nnodes - 1, &b);
    if (b.over)
        snprintf(text + b.n, TEXT_MAX - b.n, "... (%d operations)", f->nnodes);
    f->text = text;
    /* compiled now for ctx's device: setup pays it, not the first timed call */
    if (e->ops) {
        char where[32];
        if (e->kind == RN_DEV_CPU)
            snprintf(where, sizeof where, "cpu");
        else
            snprintf(where, sizeof where, "cuda:%d", e->dev);
        kernel_for(L, f, e->kind, e->dev, e->ops, where);
    }
    return 1;
}

void lt_fuse_open(lua_State *L, lt_engine *e)
{
    /* the tensor functions' three upvalues (lt_open): the external tensors'
     * metatable, the engine, the inline tensors' metatable */
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->mt_ref_ext);
    lua_pushlightuserdata(L, e);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->mt_ref);
    lua_pushcclosure(L, lt_fuse, 3);
    lua_setfield(L, -2, "fuse");
}
