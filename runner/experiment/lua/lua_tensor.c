/* lua_tensor.c - the tensor API of Lua workloads (doc/lua.md#lua): the
 * operators, methods and ctx functions, each run by the rn_tensor_ops of the
 * tensor's device (backend.h).  What a tensor is and where its memory comes
 * from: lua_tensor_store.c.
 *
 * Every C function here has three upvalues: the metatable of external
 * tensors, the engine (light userdata), the metatable of inline tensors
 * (the metatables tell a tensor from other userdata).
 */
#define LUA_ENGINE_INTERNAL
#include "experiment/lua/lua_engine.h"
#include "experiment/lua/lua_tensor_store.h"

#include "experiment/registry/backends.h"

#include <lauxlib.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* --- operators ----------------------------------------------------------- */

static int binop(lua_State *L, rn_binary_op op, const char *verb)
{
    lt_tensor *a = lt_testt(L, 1), *b = lt_testt(L, 2);
    float ha = 0, hb = 0;
    const lt_tensor *like;
    if (a && b) {
        lt_same_device(L, a, b, verb);
        int fit = (a->n == b->n && a->rows == b->rows && a->cols == b->cols) || a->n == 1 ||
                  b->n == 1;
        if (!fit) {
            char sa[48], sb[48];
            return luaL_error(L, "cannot %s %s and %s: the shapes do not fit (same shape, or "
                                 "one of them a single number)",
                              verb, lt_shape_text(sa, sizeof sa, a), lt_shape_text(sb, sizeof sb, b));
        }
        /* broadcasting over an empty tensor gives an empty one: a single
         * number never stands in for elements that do not exist */
        if (a->n == 0 || b->n == 0)
            like = a->n == 0 ? a : b;
        else
            like = (b->n > a->n) ? b : a;
    } else {
        int num = a ? 2 : 1;
        if (lua_type(L, num) != LUA_TNUMBER) /* __name: "fuse expression" (lua_fuse.c) */
            return luaL_error(L, "cannot %s a %s and a %s", verb,
                              a ? "tensor" : lt_type_name(L, 1), a ? lt_type_name(L, 2) : "tensor");
        if (a)
            hb = (float)lua_tonumber(L, 2);
        else
            ha = (float)lua_tonumber(L, 1);
        like = a ? a : b;
    }
    const float *pa = a ? a->data : lt_scalar_on(L, like, &ha);
    const float *pb = b ? b->data : lt_scalar_on(L, like, &hb);
    size_t na = a ? a->n : 1, nb = b ? b->n : 1;
    lt_tensor *r = lt_newt(L, like->eng, like->kind, like->dev, like->ops, like->n, like->rows,
                        like->cols);
    rn_error err;
    err.msg[0] = '\0';
    if (like->ops->binary(like->dev, op, r->data, pa, na, pb, nb, &err) != 0)
        return lt_fail(L, verb, &err);
    return 1;
}

/* A Lua function that is fn(L, ...): the operators (binop), the methods of
 * one unary op (unop) and ctx's fills (fill_new) differ only in what they
 * pass it. */
#define LUA_CALL(name, fn, ...)                                                                   \
    static int name(lua_State *L)                                                                 \
    {                                                                                             \
        return fn(L, __VA_ARGS__);                                                                \
    }

LUA_CALL(t_add, binop, RN_BIN_ADD, "add")
LUA_CALL(t_sub, binop, RN_BIN_SUB, "subtract")
LUA_CALL(t_mul, binop, RN_BIN_MUL, "multiply")
LUA_CALL(t_div, binop, RN_BIN_DIV, "divide")

static int unop(lua_State *L, rn_unary_op op, double arg, const char *fn)
{
    lt_tensor *a = lt_check(L, 1, fn);
    lt_tensor *r = lt_newt(L, a->eng, a->kind, a->dev, a->ops, a->n, a->rows, a->cols);
    rn_error err;
    err.msg[0] = '\0';
    if (a->ops->unary(a->dev, op, r->data, a->data, a->n, arg, &err) != 0)
        return lt_fail(L, fn, &err);
    return 1;
}

LUA_CALL(t_unm, unop, RN_UN_NEG, 0, "neg")
LUA_CALL(t_sin, unop, RN_UN_SIN, 0, "sin")
LUA_CALL(t_exp, unop, RN_UN_EXP, 0, "exp")
LUA_CALL(t_abs, unop, RN_UN_ABS, 0, "abs")

static int t_pow(lua_State *L)
{
    lt_check(L, 1, "pow");
    if (lua_type(L, 2) != LUA_TNUMBER)
        return luaL_error(L, "pow: the exponent must be a number, got %s", luaL_typename(L, 2));
    return unop(L, RN_UN_POW, lua_tonumber(L, 2), "pow");
}

static int t_sum(lua_State *L)
{
    lt_tensor *a = lt_check(L, 1, "sum");
    lt_tensor *r = lt_newt(L, a->eng, a->kind, a->dev, a->ops, 1, 0, 0);
    rn_error err;
    err.msg[0] = '\0';
    if (a->ops->sum(a->dev, r->data, a->data, a->n, &err) != 0)
        return lt_fail(L, "sum", &err);
    return 1;
}

static int t_matmul(lua_State *L)
{
    lt_tensor *a = lt_check(L, 1, "matmul");
    lt_tensor *b = lt_testt(L, 2);
    if (!b)
        return luaL_error(L, "matmul: the right operand must be a tensor, got %s",
                          luaL_typename(L, 2));
    lt_same_device(L, a, b, "matmul");
    char sa[48], sb[48];
    if (a->rows <= 0)
        return luaL_error(L, "matmul: the left operand must be a matrix (ctx:matrix), not %s",
                          lt_shape_text(sa, sizeof sa, a));
    int m = a->rows, k = a->cols, n;
    if (b->rows > 0 ? b->rows != k : b->n != (size_t)k)
        return luaL_error(L, "matmul: %s and %s do not fit", lt_shape_text(sa, sizeof sa, a),
                          lt_shape_text(sb, sizeof sb, b));
    n = b->rows > 0 ? b->cols : 1;
    lt_tensor *r = b->rows > 0 ? lt_newt(L, a->eng, a->kind, a->dev, a->ops, (size_t)m * (size_t)n, m, n)
                               : lt_newt(L, a->eng, a->kind, a->dev, a->ops, (size_t)m, 0, 0);
    rn_error err;
    err.msg[0] = '\0';
    if (a->ops->matmul(a->dev, r->data, a->data, b->data, m, n, k, &err) != 0)
        return lt_fail(L, "matmul", &err);
    return 1;
}

static int t_item(lua_State *L)
{
    lt_tensor *a = lt_check(L, 1, "item");
    if (a->n != 1)
        return luaL_error(L, "item: the tensor has %I elements; item() needs exactly one "
                             "(sum() it first?)",
                          (lua_Integer)a->n);
    float v;
    if (a->kind == RN_DEV_CPU) {
        v = a->data[0];
    } else {
        rn_error err;
        err.msg[0] = '\0';
        if (a->ops->download(a->dev, &v, a->data, 1, &err) != 0)
            return lt_fail(L, "item", &err);
    }
    lua_pushnumber(L, (lua_Number)v);
    return 1;
}

/* The tensor's numbers in host memory: its own buffer on the CPU, else a
 * copy in a userdata pushed on the stack (collected with the rest). */
static const float *host_view(lua_State *L, const lt_tensor *a)
{
    if (a->kind == RN_DEV_CPU)
        return a->data;
    float *h = lua_newuserdatauv(L, (a->n ? a->n : 1) * sizeof *h, 0);
    rn_error err;
    err.msg[0] = '\0';
    if (a->ops->download(a->dev, h, a->data, a->n, &err) != 0)
        lt_fail(L, "download", &err);
    return h;
}

/* "cpu", "cuda", "cuda:N" */
static int parse_device(const char *s, rn_device_kind *kind, int *dev)
{
    if (!strcmp(s, "cpu")) {
        *kind = RN_DEV_CPU;
        *dev = 0;
        return 0;
    }
    if (!strncmp(s, "cuda", 4)) {
        *kind = RN_DEV_CUDA;
        if (!s[4]) {
            *dev = 0;
            return 0;
        }
        char *end;
        long v = s[4] == ':' && s[5] >= '0' && s[5] <= '9' ? strtol(s + 5, &end, 10) : -1;
        if (v < 0 || v > 1023 || *end)
            return -1;
        *dev = (int)v;
        return 0;
    }
    return -1;
}

static int t_to(lua_State *L)
{
    lt_tensor *a = lt_check(L, 1, "to");
    const char *s = luaL_checkstring(L, 2);
    rn_device_kind kind;
    int dev;
    if (parse_device(s, &kind, &dev) < 0)
        return luaL_error(L, "to: unknown device '%s' (cpu, cuda or cuda:N)", s);
    if (kind == a->kind && (kind == RN_DEV_CPU || dev == a->dev)) {
        lua_settop(L, 1);
        return 1;
    }
    char why[600];
    const rn_tensor_ops *ops = lt_ops(kind, why, sizeof why);
    if (!ops)
        return luaL_error(L, "to('%s'): %s", s, why);
    if (!lt_ops_overridden(kind) && kind != RN_DEV_CPU) {
        const rn_backend *b = backend_for(kind, why, sizeof why);
        int count = b ? b->device_count() : 0;
        if (dev >= count)
            return luaL_error(L, "to('%s'): device %s:%d does not exist; this machine has %d",
                              s, lt_kind_name(kind), dev, count);
    }
    const float *h = a->kind == RN_DEV_CPU || kind == RN_DEV_CPU ? NULL : host_view(L, a);
    lt_tensor *r = lt_newt(L, a->eng, kind, dev, ops, a->n, a->rows, a->cols);
    rn_error err;
    err.msg[0] = '\0';
    int rc;
    if (a->kind == RN_DEV_CPU)
        rc = ops->upload(dev, r->data, a->data, a->n, &err);
    else if (kind == RN_DEV_CPU)
        rc = a->ops->download(a->dev, r->data, a->data, a->n, &err);
    else
        rc = ops->upload(dev, r->data, h, a->n, &err);
    if (rc != 0)
        return lt_fail(L, "to", &err);
    return 1;
}

static int t_totable(lua_State *L)
{
    lt_tensor *a = lt_check(L, 1, "totable");
    if (a->n > (size_t)INT_MAX)
        return luaL_error(L, "totable: %I elements are too many for a table", (lua_Integer)a->n);
    const float *h = host_view(L, a);
    lua_createtable(L, (int)a->n, 0);
    for (size_t i = 0; i < a->n; i++) {
        lua_pushnumber(L, (lua_Number)h[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

static int t_shape(lua_State *L)
{
    lt_tensor *a = lt_check(L, 1, "shape");
    if (a->rows > 0) {
        lua_pushinteger(L, a->rows);
        lua_pushinteger(L, a->cols);
        return 2;
    }
    lua_pushinteger(L, (lua_Integer)a->n);
    return 1;
}

static int t_device(lua_State *L)
{
    lt_tensor *a = lt_check(L, 1, "device");
    char d[32];
    lua_pushstring(L, lt_dev_text(d, sizeof d, a->kind, a->dev));
    return 1;
}

static int t_len(lua_State *L)
{
    lt_tensor *a = lt_check(L, 1, "#");
    lua_pushinteger(L, (lua_Integer)a->n);
    return 1;
}

static int t_tostring(lua_State *L)
{
    lt_tensor *a = lt_testt(L, 1);
    if (!a)
        return luaL_error(L, "tostring: not a tensor");
    char d[32], sh[48];
    lt_dev_text(d, sizeof d, a->kind, a->dev);
    if (a->n > 8 || a->rows > 0) {
        lua_pushfstring(L, "tensor(%s, %s)", lt_shape_text(sh, sizeof sh, a), d);
        return 1;
    }
    const float *h = host_view(L, a);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, "tensor{");
    for (size_t i = 0; i < a->n; i++) {
        char num[40];
        snprintf(num, sizeof num, "%s%.9g", i ? ", " : "", (double)h[i]);
        luaL_addstring(&b, num);
    }
    luaL_addstring(&b, "} on ");
    luaL_addstring(&b, d);
    luaL_pushresult(&b);
    return 1;
}

/* __gc and __close (both metatables: on an inline tensor only marks it) */
static int t_gc(lua_State *L)
{
    lt_tensor *t = lua_touserdata(L, 1);
    if (t)
        lt_freet(t);
    return 0;
}

/* --- ctx ----------------------------------------------------------------- */

static const rn_tensor_ops *ctx_ops(lua_State *L, lt_engine *e)
{
    if (!e->ops)
        luaL_error(L, "%s", e->no_ops_why[0] ? e->no_ops_why : "the device has no tensor support");
    return e->ops;
}

static size_t check_count(lua_State *L, int i, const char *fn, const char *what)
{
    lua_Integer n = luaL_checkinteger(L, i);
    if (n < 0)
        luaL_error(L, "%s: %s = %I must be >= 0", fn, what, n);
    if ((unsigned long long)n > ((unsigned long long)1 << 56))
        luaL_error(L, "%s: %s = %I is too large", fn, what, n);
    return (size_t)n;
}

static int fill_new(lua_State *L, rn_fill_kind kind, double value, const char *fn)
{
    lt_engine *e = lt_engine_of(L);
    size_t n = check_count(L, 2, fn, "n");
    const rn_tensor_ops *ops = ctx_ops(L, e);
    lt_tensor *t = lt_newt(L, e, e->kind, e->dev, ops, n, 0, 0);
    rn_error err;
    err.msg[0] = '\0';
    /* normal number i of offset o uses uniform draws 2(o + i) and 2(o + i) + 1 */
    uint64_t off = kind == RN_FILL_NORMAL ? (e->offset + 1) / 2 : e->offset;
    if (ops->fill(e->dev, t->data, n, kind, value, e->seed, e->stream, off, &err) != 0)
        return lt_fail(L, fn, &err);
    if (kind == RN_FILL_UNIFORM)
        e->offset += n;
    else if (kind == RN_FILL_NORMAL)
        e->offset = 2 * (off + (uint64_t)n);
    return 1;
}

LUA_CALL(c_rand, fill_new, RN_FILL_UNIFORM, 0, "rand")
LUA_CALL(c_randn, fill_new, RN_FILL_NORMAL, 0, "randn")
LUA_CALL(c_zeros, fill_new, RN_FILL_CONST, 0, "zeros")
LUA_CALL(c_ones, fill_new, RN_FILL_CONST, 1, "ones")

static int c_matrix(lua_State *L)
{
    lt_engine *e = lt_engine_of(L);
    size_t rows = check_count(L, 2, "matrix", "rows"), cols = check_count(L, 3, "matrix", "cols");
    if (rows > INT_MAX || cols > INT_MAX || rows == 0 || cols == 0)
        return luaL_error(L, "matrix: %I x %I: rows and cols must be between 1 and %d",
                          (lua_Integer)rows, (lua_Integer)cols, INT_MAX);
    if (rows * cols > ((size_t)1 << 56))
        return luaL_error(L, "matrix: %I x %I is too large", (lua_Integer)rows, (lua_Integer)cols);
    const rn_tensor_ops *ops = ctx_ops(L, e);
    size_t n = rows * cols;
    lt_tensor *t = lt_newt(L, e, e->kind, e->dev, ops, n, (int)rows, (int)cols);
    rn_error err;
    err.msg[0] = '\0';
    if (ops->fill(e->dev, t->data, n, RN_FILL_UNIFORM, 0, e->seed, e->stream, e->offset, &err))
        return lt_fail(L, "matrix", &err);
    e->offset += n;
    return 1;
}

/* ctx:tensor{1, 2, 3} or ctx:tensor{{1, 2}, {3, 4}} (a matrix, by rows). */
static int c_tensor(lua_State *L)
{
    lt_engine *e = lt_engine_of(L);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    lua_Integer len = (lua_Integer)lua_rawlen(L, 2);
    int rows = 0, cols = 0;
    size_t n = (size_t)len;
    if (len > 0 && lua_rawgeti(L, 2, 1) == LUA_TTABLE) {
        lua_Integer c = (lua_Integer)lua_rawlen(L, -1);
        if (len > INT_MAX || c <= 0 || c > INT_MAX)
            return luaL_error(L, "tensor: a matrix needs 1 to %d rows of 1 to %d numbers",
                              INT_MAX, INT_MAX);
        rows = (int)len;
        cols = (int)c;
        n = (size_t)rows * (size_t)cols;
    }
    lua_settop(L, 2);
    const rn_tensor_ops *ops = ctx_ops(L, e);
    lt_tensor *t = lt_newt(L, e, e->kind, e->dev, ops, n, rows, cols); /* index 3 */
    float *h = e->kind == RN_DEV_CPU ? t->data
                                     : lua_newuserdatauv(L, (n ? n : 1) * sizeof *h, 0);
    for (lua_Integer i = 1; i <= len; i++) {
        if (rows > 0) {
            if (lua_rawgeti(L, 2, i) != LUA_TTABLE || (lua_Integer)lua_rawlen(L, -1) != cols)
                return luaL_error(L, "tensor: row %I is not a list of %d numbers", i, cols);
            for (int j = 1; j <= cols; j++) {
                int isnum;
                lua_rawgeti(L, -1, j);
                lua_Number v = lua_tonumberx(L, -1, &isnum);
                lua_pop(L, 1);
                if (!isnum)
                    return luaL_error(L, "tensor: element [%I][%d] is not a number", i, j);
                h[(size_t)(i - 1) * (size_t)cols + (size_t)(j - 1)] = (float)v;
            }
            lua_pop(L, 1);
        } else {
            int isnum;
            lua_rawgeti(L, 2, i);
            lua_Number v = lua_tonumberx(L, -1, &isnum);
            lua_pop(L, 1);
            if (!isnum)
                return luaL_error(L, "tensor: element %I is not a number", i);
            h[i - 1] = (float)v;
        }
    }
    if (e->kind != RN_DEV_CPU) {
        rn_error err;
        err.msg[0] = '\0';
        if (ops->upload(e->dev, t->data, h, n, &err) != 0)
            return lt_fail(L, "tensor", &err);
    }
    lua_settop(L, 3);
    return 1;
}

static int c_sync(lua_State *L)
{
    rn_error err;
    err.msg[0] = '\0';
    if (lt_sync_all(lt_engine_of(L), &err) != 0)
        return lt_fail(L, "sync", &err);
    return 0;
}

/* --- registration -------------------------------------------------------- */

static const luaL_Reg methods[] = {
    {"sin", t_sin},   {"exp", t_exp},         {"abs", t_abs},     {"neg", t_unm},
    {"pow", t_pow},   {"sum", t_sum},         {"matmul", t_matmul}, {"item", t_item},
    {"to", t_to},     {"totable", t_totable}, {"shape", t_shape}, {"device", t_device},
    {NULL, NULL},
};

static const luaL_Reg metamethods[] = {
    {"__add", t_add}, {"__sub", t_sub}, {"__mul", t_mul},           {"__div", t_div},
    {"__unm", t_unm}, {"__len", t_len}, {"__tostring", t_tostring}, {"__gc", t_gc},
    {"__close", t_gc}, {NULL, NULL},
};

static const luaL_Reg ctx_functions[] = {
    {"rand", c_rand},     {"randn", c_randn},   {"zeros", c_zeros}, {"ones", c_ones},
    {"tensor", c_tensor}, {"matrix", c_matrix}, {"sync", c_sync},   {NULL, NULL},
};

/* Pushes the functions of `l` into the table at the top, with the three
 * upvalues every function here has. */
static void set_funcs(lua_State *L, const luaL_Reg *l, int mt_ext, int mt_inl, lt_engine *e)
{
    lua_pushvalue(L, mt_ext);
    lua_pushlightuserdata(L, e);
    lua_pushvalue(L, mt_inl);
    luaL_setfuncs(L, l, 3);
}

void lt_open(lua_State *L, lt_engine *e)
{
    int ctx = lua_gettop(L);
    lua_newtable(L); /* metatable of external tensors */
    int ext = lua_gettop(L);
    lua_newtable(L); /* metatable of inline tensors: the same but __gc */
    int inl = lua_gettop(L);
    lua_newtable(L); /* methods, shared */
    set_funcs(L, methods, ext, inl, e);
    for (int m = ext; m <= inl; m++) {
        lua_pushvalue(L, -1);
        lua_setfield(L, m, "__index");
        lua_pushvalue(L, m);
        set_funcs(L, metamethods, ext, inl, e);
        lua_pushliteral(L, "tensor");
        lua_setfield(L, m, "__name");
        lua_pushliteral(L, "tensor");
        lua_setfield(L, m, "__metatable");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_setfield(L, inl, "__gc");
    lua_pushvalue(L, ctx);
    set_funcs(L, ctx_functions, ext, inl, e);
    lua_pop(L, 1);
    e->mt_ref = luaL_ref(L, LUA_REGISTRYINDEX); /* the inline metatable */
    e->mt_ref_ext = luaL_ref(L, LUA_REGISTRYINDEX);
    if (e->gc_at == 0)
        e->gc_at = LT_GC_MIN_BYTES;
}

long lt_live(const lt_engine *e)
{
    return e->nlive;
}
