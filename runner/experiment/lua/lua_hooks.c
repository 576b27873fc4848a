/* lua_hooks.c - an experiment's hooks file (doc/lua.md#lua): skip(trial),
 * before_trial(trial), after_trial(trial, result), each optional, run in the
 * runner's main process under the sandbox and a time limit. */
#define LUA_ENGINE_INTERNAL
#include "experiment/lua/lua_engine.h"
#include "base/value.h"

#include <lauxlib.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct lua_hooks {
    lua_State *L;
    lx_limit lim;
    int r_skip, r_before, r_after;
    char path[PATH_MAX];
};

/* The checks after the hooks file's top level returned its table (at 1),
 * inside lua_pcall: a lua_getfield on the user's table may run an __index
 * metamethod, which may fail or loop (doc/lua.md#the-sandbox). */
static int hooks_fields(lua_State *L)
{
    lua_hooks *h = lua_touserdata(L, 2);
    if (!lua_istable(L, 1))
        return luaL_error(L,
                          "%s: a hooks file must return a table of functions (skip, before_trial, "
                          "after_trial); it returned %s",
                          h->path, luaL_typename(L, 1));
    static const char *const names[] = {"skip", "before_trial", "after_trial"};
    for (int i = 0; i < 3; i++) {
        int t = lua_getfield(L, 1, names[i]);
        lua_pop(L, 1);
        if (t != LUA_TNIL && t != LUA_TFUNCTION)
            return luaL_error(L, "%s: '%s' must be a function; it is a %s", h->path, names[i],
                              lua_typename(L, t));
    }
    h->r_skip = lx_ref_function(L, 1, "skip");
    h->r_before = lx_ref_function(L, 1, "before_trial");
    h->r_after = lx_ref_function(L, 1, "after_trial");
    return 0;
}

/* Runs the loaded chunk (at 1), then hooks_fields on what it returned. */
static int hooks_load(lua_State *L)
{
    lua_hooks *h = lua_touserdata(L, 2);
    lua_settop(L, 1);
    lua_call(L, 0, 1);
    lua_pushcfunction(L, hooks_fields);
    lua_insert(L, 1);
    lua_pushlightuserdata(L, h);
    lua_call(L, 2, 0);
    return 0;
}

/* An error raised by our own checks has no Lua position worth showing:
 * the traceback the message handler added is cut. */
static void plain_error(lua_hooks *h, char *err)
{
    size_t n = strlen(h->path);
    char *tb = strstr(err, " | stack traceback:");
    if (tb && !strncmp(err, h->path, n) && err[n] == ':' && err[n + 1] == ' ')
        *tb = '\0';
}

lua_hooks *lua_hooks_open(const char *path, char *err, size_t len)
{
    if (access(path, R_OK) != 0) {
        snprintf(err, len, "%s: hooks file not found or not readable", path);
        return NULL;
    }
    lua_hooks *h = calloc(1, sizeof *h);
    if (!h || !(h->L = lx_newstate())) {
        snprintf(err, len, "%s: cannot create a Lua state", path);
        free(h);
        return NULL;
    }
    snprintf(h->path, sizeof h->path, "%s", path);
    h->r_skip = h->r_before = h->r_after = LUA_NOREF;
    lua_State *L = h->L;
    lx_limit_attach(L, &h->lim);
    if (luaL_loadfilex(L, path, "t") != LUA_OK) {
        lx_error_text(L, err, len);
        goto fail;
    }
    lx_push_msgh(L);
    lua_insert(L, 1);
    lua_pushcfunction(L, hooks_load);
    lua_insert(L, 2);
    lua_pushlightuserdata(L, h);
    lx_limit_start(L, &h->lim, "loading the hooks file");
    int rc = lua_pcall(L, 2, 0, 1);
    lx_limit_stop(&h->lim);
    if (rc != LUA_OK) {
        lx_error_text(L, err, len);
        plain_error(h, err);
        goto fail;
    }
    lua_settop(L, 0);
    return h;
fail:
    lx_close(L);
    free(h);
    return NULL;
}

void lua_hooks_close(lua_hooks *h)
{
    if (!h)
        return;
    lx_close(h->L);
    free(h);
}

int lua_hooks_has(const lua_hooks *h, const char *name)
{
    if (!h)
        return 0;
    if (!strcmp(name, "skip"))
        return h->r_skip != LUA_NOREF;
    if (!strcmp(name, "before_trial"))
        return h->r_before != LUA_NOREF;
    if (!strcmp(name, "after_trial"))
        return h->r_after != LUA_NOREF;
    return 0;
}

/* The trial table: every key -> value (numbers and booleans converted),
 * plus index. */
static void push_trial(lua_State *L, const lua_trial_view *t)
{
    lua_createtable(L, 0, t->n + 1);
    for (int i = 0; i < t->n; i++) {
        const char *k = t->keys[i], *v = t->values[i];
        if (!k || !v)
            continue;
        if (!strcmp(v, "true") || !strcmp(v, "false"))
            lua_pushboolean(L, v[0] == 't');
        else if (!*v || lua_stringtonumber(L, v) == 0)
            lua_pushstring(L, v);
        lua_setfield(L, -2, k);
    }
    lua_pushinteger(L, (lua_Integer)t->index);
    lua_setfield(L, -2, "index");
}

static void set_num(lua_State *L, const char *k, double v)
{
    if (isnan(v))
        return;
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

static void push_result(lua_State *L, const lua_result_view *r)
{
    lua_createtable(L, 0, 12);
    if (r->status) {
        lua_pushstring(L, r->status);
        lua_setfield(L, -2, "status");
    }
    if (r->reason && *r->reason) {
        lua_pushstring(L, r->reason);
        lua_setfield(L, -2, "reason");
    }
    lua_pushinteger(L, r->samples);
    lua_setfield(L, -2, "samples");
    set_num(L, "min", r->min);
    set_num(L, "median", r->median);
    set_num(L, "mean", r->mean);
    set_num(L, "stddev", r->stddev);
    set_num(L, "max", r->max);
    set_num(L, "gflops", r->gflops);
    set_num(L, "gbps", r->gbps);
}

/* One call of a hook, everything done inside lua_pcall (hook_body): the
 * arguments are built there (an allocation may fail under the memory cap)
 * and the result read there (a tostring may allocate too). */
typedef enum { HK_SKIP, HK_BEFORE, HK_AFTER } hook_kind;
typedef struct hook_call {
    lua_hooks *h;
    hook_kind kind;
    const lua_trial_view *t;
    const lua_result_view *r;
    lua_extra *out;
    lx_answer a;
} hook_call;

static int hook_body(lua_State *L)
{
    hook_call *c = lua_touserdata(L, 1);
    lua_hooks *h = c->h;
    int ref = c->kind == HK_SKIP ? h->r_skip : c->kind == HK_BEFORE ? h->r_before : h->r_after;
    lua_settop(L, 0);
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    push_trial(L, c->t);
    if (c->kind == HK_AFTER)
        push_result(L, c->r);
    lua_call(L, c->kind == HK_AFTER ? 2 : 1, 1);
    c->a.rc = 0;
    if (c->kind == HK_SKIP) {
        switch (lua_type(L, -1)) {
        case LUA_TNIL:
            break;
        case LUA_TBOOLEAN:
            if (lua_toboolean(L, -1)) {
                snprintf(c->a.msg, c->a.len, "skipped by the hooks' skip()");
                c->a.rc = 1;
            }
            break;
        case LUA_TSTRING:
        case LUA_TNUMBER: {
            const char *s = lua_tostring(L, -1);
            snprintf(c->a.msg, c->a.len, "%s", *s ? s : "skipped by the hooks' skip()");
            c->a.rc = 1;
            break;
        }
        default:
            snprintf(c->a.msg, c->a.len,
                     "%s: skip() must return a reason string (skip) or nil (run); it returned a "
                     "%s",
                     h->path, luaL_typename(L, -1));
            c->a.rc = -1;
        }
    } else if (c->kind == HK_AFTER) {
        int type = lua_type(L, -1);
        if (type == LUA_TTABLE) {
            char who[PATH_MAX + 32];
            snprintf(who, sizeof who, "%s: after_trial()", h->path);
            c->a.rc = lx_table_columns(L, -1, who, c->out, c->a.msg, c->a.len);
        } else if (type != LUA_TNIL) {
            snprintf(c->a.msg, c->a.len,
                     "%s: after_trial() must return a table of extra columns or nil; it returned "
                     "a %s",
                     h->path, lua_typename(L, type));
            c->a.rc = -1;
        }
    }
    return 0;
}

/* Runs hook_body for `c` under the message handler and the time limit. */
static int call(hook_call *c, const char *what)
{
    lua_State *L = c->h->L;
    lua_settop(L, 0);
    lx_push_msgh(L);
    lua_pushcfunction(L, hook_body);
    lua_pushlightuserdata(L, c);
    lx_limit_start(L, &c->h->lim, what);
    int rc = lua_pcall(L, 1, 0, 1);
    lx_limit_stop(&c->h->lim);
    if (rc != LUA_OK) {
        lx_error_text(L, c->a.msg, c->a.len);
        if (c->out)
            lua_extra_free(c->out);
        c->a.rc = -1;
    }
    lua_settop(L, 0);
    return c->a.rc;
}

int lua_hooks_skip(lua_hooks *h, const lua_trial_view *t, char *reason, size_t len)
{
    if (!h || h->r_skip == LUA_NOREF)
        return 0;
    hook_call c = {h, HK_SKIP, t, NULL, NULL, {reason, len, 0}};
    return call(&c, "hook skip()");
}

int lua_hooks_before(lua_hooks *h, const lua_trial_view *t, char *err, size_t len)
{
    if (!h || h->r_before == LUA_NOREF)
        return 0;
    hook_call c = {h, HK_BEFORE, t, NULL, NULL, {err, len, 0}};
    return call(&c, "hook before_trial()");
}

static int good_column(const char *k)
{
    if (!*k)
        return 0;
    for (const char *c = k; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_' || *c == '-' || *c == '.'))
            return 0;
    return 1;
}

/* The text of a number: an integer as one, else the shortest that reads
 * back the same (format_double); NaN is an empty cell. */
static void number_text(lua_State *L, int i, char *out, size_t len)
{
    if (lua_isinteger(L, i)) {
        snprintf(out, len, "%lld", (long long)lua_tointeger(L, i));
        return;
    }
    double v = lua_tonumber(L, i);
    if (isnan(v)) {
        snprintf(out, len, "%s", "");
        return;
    }
    format_double(out, (int)len, v);
}

static char *xdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

int lx_table_columns(lua_State *L, int tab, const char *who, lua_extra *out, char *err,
                     size_t len)
{
    memset(out, 0, sizeof *out);
    tab = lua_absindex(L, tab);
    int top = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, tab)) {
        /* key at -2, value at -1 */
        if (lua_type(L, -2) != LUA_TSTRING) {
            snprintf(err, len,
                     "%s returned a table with a %s key; extra columns are named by strings "
                     "({name = value})",
                     who, luaL_typename(L, -2));
            goto fail;
        }
        const char *k = lua_tostring(L, -2);
        if (!good_column(k)) {
            snprintf(err, len,
                     "%s: column name '%s' may hold only letters, digits, '_', '-' and '.'", who,
                     k);
            goto fail;
        }
        char num[64];
        const char *v;
        switch (lua_type(L, -1)) {
        case LUA_TSTRING:
            v = lua_tostring(L, -1);
            break;
        case LUA_TNUMBER:
            number_text(L, -1, num, sizeof num);
            v = num;
            break;
        case LUA_TBOOLEAN:
            v = lua_toboolean(L, -1) ? "true" : "false";
            break;
        default:
            snprintf(err, len, "%s: column '%s' is a %s; give a string, number or boolean", who,
                     k, luaL_typename(L, -1));
            goto fail;
        }
        if (out->n == LUA_EXTRA_MAX) {
            snprintf(err, len, "%s returned more than %d extra columns", who, LUA_EXTRA_MAX);
            goto fail;
        }
        out->keys[out->n] = xdup(k);
        out->values[out->n] = xdup(v);
        out->n++;
        if (!out->keys[out->n - 1] || !out->values[out->n - 1]) {
            snprintf(err, len, "out of memory");
            goto fail;
        }
        lua_pop(L, 1);
    }
    /* sorted by key, the values carried along */
    for (int i = 1; i < out->n; i++)
        for (int j = i; j > 0 && strcmp(out->keys[j - 1], out->keys[j]) > 0; j--) {
            char *k = out->keys[j], *v = out->values[j];
            out->keys[j] = out->keys[j - 1];
            out->values[j] = out->values[j - 1];
            out->keys[j - 1] = k;
            out->values[j - 1] = v;
        }
    lua_settop(L, top);
    return 0;
fail:
    lua_settop(L, top);
    lua_extra_free(out);
    return -1;
}

int lua_hooks_after(lua_hooks *h, const lua_trial_view *t, const lua_result_view *r,
                    lua_extra *out, char *err, size_t len)
{
    memset(out, 0, sizeof *out);
    if (!h || h->r_after == LUA_NOREF)
        return 0;
    hook_call c = {h, HK_AFTER, t, r, out, {err, len, 0}};
    return call(&c, "hook after_trial()");
}

void lua_extra_free(lua_extra *x)
{
    if (!x)
        return;
    for (int i = 0; i < x->n; i++) {
        free(x->keys[i]);
        free(x->values[i]);
    }
    x->n = 0;
}
