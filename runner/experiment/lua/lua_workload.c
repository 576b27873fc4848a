/* lua_workload.c - `workload: lua:PATH`: one Lua state per trial, the
 * file's functions called through lua_pcall with a traceback, and the
 * checks of `runner validate`.  See lua_engine.h and doc/lua.md#workloads-in-lua. */
#define LUA_ENGINE_INTERNAL
#include "experiment/lua/lua_engine.h"

#include "experiment/registry/backends.h"

#include <lauxlib.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

typedef struct lw_state {
    lua_State *L;
    lt_engine eng;
    int r_run, r_check, r_teardown, r_flops, r_bytes, r_extras, r_ctx, r_p, r_state;
    char file[PATH_MAX];
    char diag[1024]; /* failures of extras(), flops(), bytes(): for the caller */
} lw_state;

/* Notes a failure for lua_workload_diagnostic(): a library module never
 * prints (only the CLI does). */
static void note(lw_state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(lw_state *s, const char *fmt, ...)
{
    size_t used = strlen(s->diag);
    if (used + 3 >= sizeof s->diag)
        return;
    if (used) {
        memcpy(s->diag + used, "; ", 3);
        used += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->diag + used, sizeof s->diag - used, fmt, ap);
    va_end(ap);
}

#define ERR(...) snprintf(err->msg, sizeof err->msg, __VA_ARGS__)

/* Calls the function below nargs arguments on the stack with the message
 * handler; 0 with nres results, or -1 with the error in out. */
static int pcall(lua_State *L, int nargs, int nres, char *out, size_t len)
{
    int base = lua_gettop(L) - nargs;
    lx_push_msgh(L);
    lua_insert(L, base);
    int rc = lua_pcall(L, nargs, nres, base);
    if (rc != LUA_OK) {
        lx_error_text(L, out, len);
        lua_remove(L, base);
        return -1;
    }
    lua_remove(L, base);
    return 0;
}

/* What a field of the returned table should be, or NULL if it is fine. */
static const char *field_problem(lua_State *L, int table, const char *name, int type)
{
    int t = lua_getfield(L, table, name);
    lua_pop(L, 1);
    if (t == LUA_TNIL || t == type)
        return NULL;
    return lua_typename(L, t);
}

/* Checks the table a workload file returned (at index `table`); 0, or -1
 * with "FILE: message" in out. */
static int check_table(lua_State *L, int table, const char *file, char *out, size_t len)
{
    if (!lua_istable(L, table)) {
        snprintf(out, len,
                 "%s: a Lua workload must return a table with a run function "
                 "(return {run = function(ctx, p, state) ... end}); it returned %s",
                 file, luaL_typename(L, table));
        return -1;
    }
    int t = lua_getfield(L, table, "run");
    lua_pop(L, 1);
    if (t != LUA_TFUNCTION) {
        snprintf(out, len,
                 "%s: the returned table has no 'run' function (run = function(ctx, p, state) "
                 "... end)%s%s",
                 file, t == LUA_TNIL ? "" : "; run is a ", t == LUA_TNIL ? "" : lua_typename(L, t));
        return -1;
    }
    static const char *const fns[] = {"setup", "check", "teardown", "flops", "bytes", "extras"};
    for (int i = 0; i < 6; i++) {
        const char *bad = field_problem(L, table, fns[i], LUA_TFUNCTION);
        if (bad) {
            snprintf(out, len, "%s: '%s' must be a function; it is a %s", file, fns[i], bad);
            return -1;
        }
    }
    const char *bad = field_problem(L, table, "defaults", LUA_TTABLE);
    if (bad) {
        snprintf(out, len, "%s: 'defaults' must be a table; it is a %s", file, bad);
        return -1;
    }
    bad = field_problem(L, table, "size_means", LUA_TSTRING);
    if (bad) {
        snprintf(out, len, "%s: 'size_means' must be text (what size counts); it is a %s", file,
                 bad);
        return -1;
    }
    return 0;
}

/* Pushes a parameter's value: a number (an integer where it is one), a
 * boolean, or the text. */
static void push_value(lua_State *L, const char *text)
{
    if (!strcmp(text, "true") || !strcmp(text, "false")) {
        lua_pushboolean(L, text[0] == 't');
        return;
    }
    if (*text && lua_stringtonumber(L, text) != 0)
        return;
    lua_pushstring(L, text);
}

static const char *io_name(rn_io io)
{
    return io == RN_IO_WITH ? "with" : io == RN_IO_WITHOUT ? "without" : "overlap";
}

/* p: the file's defaults, then the trial's values over them. */
static void build_p(lua_State *L, int table, const rn_trial *t, const char *device)
{
    lua_newtable(L);
    int p = lua_gettop(L);
    if (lua_getfield(L, table, "defaults") == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_settable(L, p);
        }
    }
    lua_pop(L, 1);
    if (t->size >= 0) {
        lua_pushinteger(L, (lua_Integer)t->size);
        lua_setfield(L, p, "size");
    }
    for (int i = 0; i < t->nparams; i++) {
        const rn_param *q = &t->params[i];
        if (!q->name)
            continue;
        if (q->text)
            push_value(L, q->text);
        else
            lua_pushnumber(L, q->num);
        lua_setfield(L, p, q->name);
    }
    lua_pushstring(L, rn_dtype_name(t->dtype));
    lua_setfield(L, p, "dtype");
    lua_pushstring(L, device);
    lua_setfield(L, p, "device");
    lua_pushinteger(L, t->threads);
    lua_setfield(L, p, "threads");
    lua_pushinteger(L, (lua_Integer)t->seed);
    lua_setfield(L, p, "seed");
    lua_pushstring(L, io_name(t->io));
    lua_setfield(L, p, "io");
}

/* Calls the file's function `ref` as f(ctx, p, state): 0, or the Lua error
 * in err. */
static int call_user(lw_state *s, int ref, rn_error *err)
{
    lua_State *L = s->L;
    lua_settop(L, 0);
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->r_ctx);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->r_p);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->r_state);
    int rc = pcall(L, 3, 0, err->msg, sizeof err->msg);
    lua_settop(L, 0);
    return rc;
}

int lua_workload_teardown(void *st, rn_error *err)
{
    lw_state *s = st;
    if (!s || !s->L || s->r_teardown == LUA_NOREF)
        return 0;
    int ref = s->r_teardown;
    s->r_teardown = LUA_NOREF; /* once */
    return call_user(s, ref, err);
}

static void lw_release(void *st)
{
    lw_state *s = st;
    if (!s)
        return;
    lua_State *L = s->L;
    rn_error ignored; /* the worker calls lua_workload_teardown first and
                       * reports its error; here only a teardown not yet run */
    lua_workload_teardown(s, &ignored);
    lt_release_all(&s->eng);
    if (L)
        lx_close(L); /* the tensors' __gc find them already freed */
    free(s);
}

typedef struct prep_call {
    lw_state *s;
    const rn_trial *t;
    const char *device;
    lx_answer a;
} prep_call;

/* In lua_pcall: the file's chunk (at 1) is run, its table checked, p and
 * ctx built, setup(ctx, p) called. */
static int prep_body(lua_State *L)
{
    prep_call *pc = lua_touserdata(L, 2);
    lw_state *s = pc->s;
    lua_settop(L, 1);
    lua_call(L, 0, 1);
    int table = lua_gettop(L);
    if (check_table(L, table, s->file, pc->a.msg, pc->a.len) != 0) {
        pc->a.rc = -1;
        return 0;
    }
    s->r_run = lx_ref_function(L, table, "run");
    s->r_check = lx_ref_function(L, table, "check");
    s->r_teardown = lx_ref_function(L, table, "teardown");
    s->r_flops = lx_ref_function(L, table, "flops");
    s->r_bytes = lx_ref_function(L, table, "bytes");
    s->r_extras = lx_ref_function(L, table, "extras");
    int setup = lx_ref_function(L, table, "setup");

    build_p(L, table, pc->t, pc->device);
    int p = lua_gettop(L);
    lua_newtable(L); /* ctx */
    lt_open(L, &s->eng);
    lt_fuse_open(L, &s->eng); /* ctx:fuse */
    lua_pushstring(L, pc->device);
    lua_setfield(L, -2, "device");
    lua_pushinteger(L, pc->t->threads);
    lua_setfield(L, -2, "threads");
    lua_pushvalue(L, p);
    lua_setfield(L, -2, "params");
    int ctx = lua_gettop(L);
    lua_pushvalue(L, ctx);
    s->r_ctx = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pushvalue(L, p);
    s->r_p = luaL_ref(L, LUA_REGISTRYINDEX);

    if (setup != LUA_NOREF) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, setup);
        luaL_unref(L, LUA_REGISTRYINDEX, setup);
        lua_pushvalue(L, ctx);
        lua_pushvalue(L, p);
        lua_call(L, 2, 1);
        s->r_state = luaL_ref(L, LUA_REGISTRYINDEX); /* nil: LUA_REFNIL */
    } else {
        s->r_state = LUA_REFNIL;
    }
    return 0;
}

static int lw_prepare(const rn_trial *t, void **state, rn_error *err)
{
    *state = NULL;
    const char *rel = t->workload && !strncmp(t->workload, "lua:", 4) ? t->workload + 4 : "";
    if (!*rel) {
        ERR("'workload: lua:' needs a file, e.g. lua:intensive.lua");
        return -1;
    }
    lw_state *s = calloc(1, sizeof *s);
    if (!s) {
        ERR("out of memory");
        return -1;
    }
    s->r_run = s->r_check = s->r_teardown = s->r_flops = s->r_bytes = s->r_extras = LUA_NOREF;
    s->r_ctx = s->r_p = s->r_state = LUA_NOREF;
    lx_join(s->file, sizeof s->file, lx_experiment_dir(), rel);
    if (access(s->file, R_OK) != 0) {
        ERR("Lua workload file '%.900s' not found", s->file);
        free(s);
        return -1;
    }

    /* the device: skipped (not failed) where it cannot run here */
    char device[32];
    if (t->device == RN_DEV_CPU)
        snprintf(device, sizeof device, "cpu");
    else
        snprintf(device, sizeof device, "cuda:%d", t->device_index);
    lt_engine *e = &s->eng;
    e->seed = t->seed;
    e->stream = LUA_TENSOR_STREAM; /* apart from the built-ins' 0, 1, ... */
    e->kind = t->device;
    e->dev = t->device_index;
    e->ops = lt_ops(t->device, e->no_ops_why, sizeof e->no_ops_why);
    if (!e->ops) {
        snprintf(err->msg, sizeof err->msg, "%s", e->no_ops_why);
        free(s);
        return 2;
    }
    /* host threads: the trial's count applies to CPU tensors in any trial */
    const rn_backend *cpu = backend_for(RN_DEV_CPU, err->msg, sizeof err->msg);
    if (cpu && cpu->select && t->device != RN_DEV_CPU && cpu->select(t, err) != 0) {
        free(s);
        return -1;
    }

    lua_State *L = s->L = lx_newstate();
    if (!L) {
        ERR("cannot create a Lua state (out of memory)");
        free(s);
        return -1;
    }
    *state = s;
    if (luaL_loadfilex(L, s->file, "t") != LUA_OK) {
        lx_error_text(L, err->msg, sizeof err->msg);
        goto fail;
    }
    /* everything from the file's top level to setup() inside one pcall:
     * a lua_getfield on the returned table may run the user's __index, and
     * any allocation may fail under the memory cap (doc/lua.md#the-sandbox) */
    prep_call pc = {s, t, device, {err->msg, sizeof err->msg, 0}};
    lx_push_msgh(L);
    lua_insert(L, 1);
    lua_pushcfunction(L, prep_body);
    lua_insert(L, 2);
    lua_pushlightuserdata(L, &pc);
    if (lua_pcall(L, 2, 0, 1) != LUA_OK) {
        lx_error_text(L, err->msg, sizeof err->msg);
        goto fail;
    }
    if (pc.a.rc != 0)
        goto fail;
    lua_settop(L, 0);
    if (lt_sync_all(e, err) != 0)
        goto fail;
    return 0;
fail:
    s->r_teardown = LUA_NOREF; /* setup did not finish: nothing to tear down */
    lw_release(s);
    *state = NULL;
    return -1;
}

static int lw_run(void *st, rn_sample *smp, rn_error *err)
{
    (void)smp;
    lw_state *s = st;
    lua_State *L = s->L;
    lx_push_msgh(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->r_run);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->r_ctx);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->r_p);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->r_state);
    if (lua_pcall(L, 3, 0, 1) != LUA_OK) {
        lx_error_text(L, err->msg, sizeof err->msg);
        lua_settop(L, 0);
        return -1;
    }
    lua_settop(L, 0);
    return lt_sync_all(&s->eng, err);
}

static int lw_check(void *st, rn_error *err)
{
    lw_state *s = st;
    return s->r_check == LUA_NOREF ? 0 : call_user(s, s->r_check, err);
}

/* extras(ctx, p, state) -> {column = value}: columns of the trial's row after
 * the samples (doc/lua.md#workloads-in-lua, like the built-ins' loss). */
static void lw_extras(void *st, void *cbctx, void (*cb)(void *ctx, const char *k, const char *v))
{
    lw_state *s = st;
    if (s->r_extras == LUA_NOREF)
        return;
    lua_State *L = s->L;
    lua_settop(L, 0);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->r_extras);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->r_ctx);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->r_p);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->r_state);
    char msg[1024];
    lua_extra x;
    if (pcall(L, 3, 1, msg, sizeof msg) != 0) {
        note(s, "%s", msg);
    } else if (lua_istable(L, -1)) {
        char who[PATH_MAX + 32];
        snprintf(who, sizeof who, "%s: extras()", s->file);
        if (lx_table_columns(L, -1, who, &x, msg, sizeof msg) != 0) {
            note(s, "%s", msg);
        } else {
            for (int i = 0; i < x.n; i++)
                cb(cbctx, x.keys[i], x.values[i]);
            lua_extra_free(&x);
        }
    } else if (!lua_isnil(L, -1)) {
        note(s, "%s: extras() must return a table of columns or nil", s->file);
    }
    lua_settop(L, 0);
}

static void lw_work(void *st, double *flops, double *bytes)
{
    *flops = lua_workload_flops(st);
    *bytes = lua_workload_bytes(st);
}

static const rn_workload_impl impl = {
    .name = "lua", .prepare = lw_prepare, .run = lw_run, .check = lw_check, .release = lw_release,
    .extras = lw_extras, .work = lw_work, .teardown = lua_workload_teardown,
    .diagnostic = lua_workload_diagnostic,
};

const rn_workload_impl *lua_workload_impl(void)
{
    return &impl;
}

static double count(void *st, int ref)
{
    lw_state *s = st;
    if (!s || ref == LUA_NOREF)
        return NAN;
    lua_State *L = s->L;
    lua_settop(L, 0);
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->r_p);
    char msg[1024];
    if (pcall(L, 1, 1, msg, sizeof msg) != 0) {
        note(s, "%s", msg);
        return NAN;
    }
    int isnum;
    double v = lua_tonumberx(L, -1, &isnum);
    lua_settop(L, 0);
    return isnum ? v : NAN;
}

double lua_workload_flops(void *state)
{
    return state ? count(state, ((lw_state *)state)->r_flops) : NAN;
}

double lua_workload_bytes(void *state)
{
    return state ? count(state, ((lw_state *)state)->r_bytes) : NAN;
}

const char *lua_workload_diagnostic(void *state)
{
    lw_state *s = state;
    return s && s->diag[0] ? s->diag : NULL;
}

long lua_workload_live_tensors(void *state)
{
    return state ? lt_live(&((lw_state *)state)->eng) : 0;
}

int lua_workload_eval(void *state, const char *chunk, char *out, size_t outlen, rn_error *err)
{
    lw_state *s = state;
    lua_State *L = s->L;
    if (outlen)
        out[0] = '\0';
    lua_settop(L, 0);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->r_ctx);
    lua_setglobal(L, "ctx");
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->r_p);
    lua_setglobal(L, "p");
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->r_state);
    lua_setglobal(L, "state");
    if (luaL_loadbufferx(L, chunk, strlen(chunk), "=eval", "t") != LUA_OK) {
        lx_error_text(L, err->msg, sizeof err->msg);
        return -1;
    }
    if (pcall(L, 0, 1, err->msg, sizeof err->msg) != 0)
        return -1;
    if (!lua_isnone(L, 1) && !lua_isnil(L, 1) && outlen)
        snprintf(out, outlen, "%s", luaL_tolstring(L, 1, NULL));
    lua_settop(L, 0);
    return 0;
}

/* --- runner validate ----------------------------------------------------- */

typedef struct check_call {
    const char *path;
    lx_answer a;
    char *size_means; /* where to copy the table's size_means, or NULL */
    size_t size_means_len;
} check_call;

static int check_body(lua_State *L)
{
    check_call *cc = lua_touserdata(L, 2);
    lua_settop(L, 1);
    lua_call(L, 0, 1);
    cc->a.rc = check_table(L, 1, cc->path, cc->a.msg, cc->a.len);
    if (cc->a.rc == 0 && cc->size_means && lua_getfield(L, 1, "size_means") == LUA_TSTRING)
        snprintf(cc->size_means, cc->size_means_len, "%s", lua_tostring(L, -1));
    return 0;
}

static int file_check(const char *path, char *err, size_t len, char *size_means,
                      size_t size_means_len)
{
    if (access(path, R_OK) != 0) {
        snprintf(err, len, "%s: Lua file not found or not readable", path);
        return -1;
    }
    lua_State *L = lx_newstate();
    if (!L) {
        snprintf(err, len, "%s: cannot create a Lua state", path);
        return -1;
    }
    lx_limit lim;
    lx_limit_attach(L, &lim);
    int rc = -1;
    if (luaL_loadfilex(L, path, "t") != LUA_OK) {
        lx_error_text(L, err, len); /* "PATH:LINE: message" */
        goto out;
    }
    /* the top level and the checks of its table (whose lua_getfield may
     * run an __index) in one pcall, under the time limit */
    check_call cc = {path, {err, len, 0}, size_means, size_means_len};
    lua_pushcfunction(L, check_body);
    lua_insert(L, 1);
    lua_pushlightuserdata(L, &cc);
    lx_limit_start(L, &lim, "loading the file");
    int st = lua_pcall(L, 2, 0, 0);
    lx_limit_stop(&lim);
    if (st != LUA_OK) {
        lx_error_text(L, err, len);
        goto out;
    }
    rc = cc.a.rc;
out:
    lx_close(L);
    return rc;
}

int lua_file_check(const char *path, char *err, size_t len)
{
    return file_check(path, err, len, NULL, 0);
}

int lua_file_size_means(const char *path, char *out, size_t len)
{
    char err[1024];
    out[0] = '\0';
    return file_check(path, err, sizeof err, out, len) == 0 && out[0] ? 0 : -1;
}
