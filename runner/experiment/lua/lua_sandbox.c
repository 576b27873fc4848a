/* lua_sandbox.c - Lua states for the runner: the sandboxed standard library,
 * a require confined to two folders, error messages with a traceback on one
 * line, and the time limit of hook code.  See lua_engine.h. */
#define LUA_ENGINE_INTERNAL
#include "experiment/lua/lua_engine.h"
#include "base/util.h"

#include <lauxlib.h>
#include <limits.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static struct {
    char exp_dir[PATH_MAX];
    char lua_dir[PATH_MAX]; /* "": not configured, lua_project_dir() */
    int unsafe;
} cfg = {".", "", 0};

void lua_engine_configure(const char *experiment_dir, const char *project_lua_dir,
                          int allow_unsafe)
{
    if (experiment_dir)
        snprintf(cfg.exp_dir, sizeof cfg.exp_dir, "%s", *experiment_dir ? experiment_dir : ".");
    if (project_lua_dir)
        snprintf(cfg.lua_dir, sizeof cfg.lua_dir, "%s", project_lua_dir);
    if (allow_unsafe >= 0)
        cfg.unsafe = allow_unsafe != 0;
}

static const char *lua_dir(void)
{
    if (!cfg.lua_dir[0])
        lua_project_dir(cfg.lua_dir, sizeof cfg.lua_dir);
    return cfg.lua_dir;
}

int lua_project_dir(char *out, size_t len)
{
    const char *env = getenv("RUNNER_LUA_DIR");
    if (env && *env) {
        snprintf(out, len, "%s", env);
        return 0;
    }
    /* bin/runner, build/bin/runner, PREFIX/bin/runner */
    static const char *const rel[] = {"../lua", "../../lua", "../share/runner/lua"};
    char found[4096];
    if (find_beside_exe(rel, 3, 1, found, sizeof found) == 0) {
        lx_join(out, len, found, "."); /* normalised, as lx_join writes paths */
        return 0;
    }
    snprintf(out, len, "lua");
    return -1;
}

const char *lx_experiment_dir(void)
{
    return cfg.exp_dir;
}

int lx_unsafe(void)
{
    return cfg.unsafe;
}

/* --- paths --------------------------------------------------------------- */

void lx_join(char *out, size_t len, const char *dir, const char *path)
{
    char buf[2 * PATH_MAX + 2];
    if (path[0] == '/' || !dir || !*dir)
        snprintf(buf, sizeof buf, "%s", path);
    else
        snprintf(buf, sizeof buf, "%s/%s", dir, path);
    int absolute = buf[0] == '/';
    /* split into components, drop "." and fold "x/.." */
    char *comp[PATH_MAX / 2];
    int n = 0;
    for (char *save = NULL, *c = strtok_r(buf, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
        if (!strcmp(c, "."))
            continue;
        if (!strcmp(c, "..")) {
            if (n > 0 && strcmp(comp[n - 1], "..")) {
                n--;
                continue;
            }
            if (absolute) /* "/.." is "/" */
                continue;
        }
        if (n < (int)(sizeof comp / sizeof comp[0]))
            comp[n++] = c;
    }
    size_t o = 0;
    if (len == 0)
        return;
    out[0] = '\0';
    if (absolute)
        o += (size_t)snprintf(out, len, "/");
    for (int i = 0; i < n && o < len; i++)
        o += (size_t)snprintf(out + o, len - o, "%s%s", i ? "/" : "", comp[i]);
    if (!absolute && n == 0)
        snprintf(out, len, ".");
}

/* --- errors -------------------------------------------------------------- */

static int msgh(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            msg = lua_tostring(L, -1);
        else
            msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

void lx_push_msgh(lua_State *L)
{
    lua_pushcfunction(L, msgh);
}

void lx_error_text(lua_State *L, char *out, size_t len)
{
    const char *m = lua_tostring(L, -1);
    if (!m)
        m = "(error object is not a string)";
    size_t o = 0;
    for (; *m && o + 1 < len; m++) {
        if (*m == '\n') {
            const char *sep = " | ";
            for (int i = 0; sep[i] && o + 1 < len; i++)
                out[o++] = sep[i];
        } else if (*m != '\t' && *m != '\r') {
            out[o++] = *m;
        }
    }
    if (len)
        out[o < len ? o : len - 1] = '\0';
    lua_pop(L, 1);
}

/* --- the time limit ------------------------------------------------------ */

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double hook_limit = 5.0;

void lua_hooks_set_time_limit(double seconds)
{
    hook_limit = seconds > 0 ? seconds : 5.0;
}

double lua_hooks_time_limit(void)
{
    return hook_limit;
}

/* What every state (and each of its coroutines, which copy the main
 * thread's extra space) points at: the time limit in force, the memory
 * cap's accounting, and how deep coroutine.close calls are nested. */
typedef struct lx_state {
    lx_limit *lim;
    size_t used, cap;
    int close_depth;
} lx_state;

static lx_state *state_of(lua_State *L)
{
    return *(lx_state **)lua_getextraspace(L);
}

static void count_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lx_state *xs = state_of(L);
    lx_limit *lim = xs ? xs->lim : NULL;
    if (!lim || lim->deadline <= 0 || mono() < lim->deadline) {
        /* a coroutine stopped in an earlier call: back to the usual rate */
        if (lua_gethookcount(L) == 1)
            lua_sethook(L, count_hook, LUA_MASKCOUNT, 1000);
        return;
    }
    /* From now on every instruction fails, so that a pcall() in the
     * runaway code cannot catch this and carry on. */
    lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
    char secs[32];
    snprintf(secs, sizeof secs, "%g", lim->limit);
    /* in a hook, level 0 is the Lua function that was running */
    luaL_where(L, 0);
    lua_pushfstring(L, "%s stopped: ran more than %s s (infinite loop?)", lim->what, secs);
    lua_concat(L, 2);
    lua_error(L);
}

void lx_limit_attach(lua_State *L, lx_limit *lim)
{
    state_of(L)->lim = lim;
    lim->deadline = 0;
    lua_sethook(L, count_hook, LUA_MASKCOUNT, 1000);
}

void lx_limit_start(lua_State *L, lx_limit *lim, const char *what)
{
    lim->what = what;
    lim->limit = hook_limit;
    lim->deadline = mono() + hook_limit;
    lua_sethook(L, count_hook, LUA_MASKCOUNT, 1000);
}

void lx_limit_stop(lx_limit *lim)
{
    lim->deadline = 0;
}

/* --- the sandbox --------------------------------------------------------- */

/* load() with the mode forced to "t": binary chunks are refused. */
static int sb_load(lua_State *L)
{
    int n = lua_gettop(L);
    if (n < 1)
        return luaL_argerror(L, 1, "value expected");
    if (n < 2)
        lua_settop(L, 2); /* chunkname: nil is "none" to load() */
    int base = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_pushliteral(L, "t");
    if (n >= 4) /* an explicit env, even nil, is not the same as none */
        lua_pushvalue(L, 4);
    lua_call(L, n >= 4 ? 4 : 3, LUA_MULTRET);
    return lua_gettop(L) - base;
}

/* A module name that stays inside a folder: letters, digits, '_', '-' and
 * dots between them (a dot is a subfolder, as in Lua). */
static const char *bad_module_name(const char *name)
{
    if (!*name)
        return "an empty name";
    if (name[0] == '/')
        return "an absolute path";
    if (strstr(name, ".."))
        return "'..'";
    for (const char *c = name; *c; c++) {
        if (*c == '/')
            return "'/'";
        if (*c == '\\')
            return "'\\'";
    }
    if (name[0] == '.' || name[strlen(name) - 1] == '.')
        return "a leading or trailing '.'";
    for (const char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_' || *c == '-' || *c == '.'))
            return "characters other than letters, digits, '_', '-' and '.'";
    return NULL;
}

/* realpath(file) lies under realpath(dir) (a symlink may not lead out). */
static int inside(const char *dir, const char *file)
{
    char rd[PATH_MAX], rf[PATH_MAX];
    if (!realpath(dir, rd) || !realpath(file, rf))
        return 0;
    size_t n = strlen(rd);
    return !strncmp(rd, rf, n) && (rf[n] == '/' || (n == 1 && rd[0] == '/'));
}

static int sb_require(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    lua_settop(L, 1);
    lua_getfield(L, lua_upvalueindex(1), name); /* package.loaded[name] */
    if (lua_toboolean(L, -1))
        return 1;
    lua_pop(L, 1);
    const char *bad = bad_module_name(name);
    if (bad)
        return luaL_error(L,
                          "require '%s': module names may not contain %s; the sandbox loads "
                          "NAME.lua only from %s and %s (--allow-unsafe-lua lifts this)",
                          name, bad, cfg.exp_dir, lua_dir());
    char rel[PATH_MAX];
    snprintf(rel, sizeof rel, "%s.lua", name);
    for (char *c = rel; *c && strcmp(c, ".lua"); c++)
        if (*c == '.')
            *c = '/';
    const char *dirs[2] = {cfg.exp_dir, lua_dir()};
    char tried[2][PATH_MAX];
    for (int i = 0; i < 2; i++) {
        char path[PATH_MAX];
        lx_join(path, sizeof path, dirs[i], rel);
        snprintf(tried[i], sizeof tried[i], "%s", path);
        if (access(path, R_OK) != 0)
            continue;
        if (!inside(dirs[i], path))
            return luaL_error(L, "require '%s': %s leads outside %s", name, path, dirs[i]);
        if (luaL_loadfilex(L, path, "t") != LUA_OK)
            return lua_error(L);
        lua_pushstring(L, name);
        lua_pushstring(L, path);
        lua_call(L, 2, 1);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            lua_pushboolean(L, 1);
        }
        lua_pushvalue(L, -1);
        lua_setfield(L, lua_upvalueindex(1), name);
        lua_pushstring(L, path);
        return 2;
    }
    return luaL_error(L, "module '%s' not found (no file %s, no file %s)", name, tried[0],
                      tried[1]);
}

/* coroutine.close(co) with a depth limit.  Lua 5.4.4 (Debian's) does not
 * count a coroutine.close made from a __close handler against the C-stack
 * limit, so 20,000 nested ones overflow the C stack (fixed upstream in
 * 5.4.5).  Past LX_CLOSE_DEPTH nested calls this raises a Lua error instead
 * (doc/lua.md#the-sandbox). */
#define LX_CLOSE_DEPTH 100
static int guarded_close(lua_State *L)
{
    lx_state *xs = state_of(L);
    if (xs && xs->close_depth >= LX_CLOSE_DEPTH)
        return luaL_error(L, "coroutine.close nested more than %d deep", LX_CLOSE_DEPTH);
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    if (xs)
        xs->close_depth++;
    int rc = lua_pcall(L, n, LUA_MULTRET, 0);
    if (xs)
        xs->close_depth--;
    if (rc != LUA_OK)
        return lua_error(L);
    return lua_gettop(L);
}

/* Replaces coroutine.close (the global table's and package.loaded's, which
 * are the same table) with guarded_close. */
static void guard_coroutine_close(lua_State *L)
{
    if (lua_getglobal(L, LUA_COLIBNAME) == LUA_TTABLE) {
        lua_getfield(L, -1, "close");
        lua_pushcclosure(L, guarded_close, 1);
        lua_setfield(L, -2, "close");
    }
    lua_pop(L, 1);
}

static void open_lib(lua_State *L, const char *name, lua_CFunction f)
{
    luaL_requiref(L, name, f, 1);
    lua_pop(L, 1);
}

static void open_sandbox(lua_State *L)
{
    open_lib(L, LUA_GNAME, luaopen_base);
    open_lib(L, LUA_STRLIBNAME, luaopen_string);
    open_lib(L, LUA_TABLIBNAME, luaopen_table);
    open_lib(L, LUA_MATHLIBNAME, luaopen_math);
    open_lib(L, LUA_UTF8LIBNAME, luaopen_utf8);
    open_lib(L, LUA_COLIBNAME, luaopen_coroutine);

    lua_pushnil(L);
    lua_setglobal(L, "dofile");
    lua_pushnil(L);
    lua_setglobal(L, "loadfile");
    lua_getglobal(L, "load");
    lua_pushcclosure(L, sb_load, 1);
    lua_setglobal(L, "load");

    /* os: the clock and dates only.  The full table is never reachable:
     * it is opened without a global and replaced in the loaded table. */
    luaL_requiref(L, LUA_OSLIBNAME, luaopen_os, 0);
    lua_createtable(L, 0, 4);
    static const char *const keep[] = {"clock", "time", "date", "difftime"};
    for (int i = 0; i < 4; i++) {
        lua_getfield(L, -2, keep[i]);
        lua_setfield(L, -2, keep[i]);
    }
    lua_remove(L, -2);
    lua_pushvalue(L, -1);
    lua_setglobal(L, LUA_OSLIBNAME);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_insert(L, -2);
    lua_setfield(L, -2, LUA_OSLIBNAME);
    lua_pop(L, 1);

    /* package: a loaded table of its own, and the path for information */
    lua_createtable(L, 0, 2);
    lua_newtable(L); /* package.loaded */
    static const char *const libs[] = {LUA_GNAME,    LUA_STRLIBNAME,  LUA_TABLIBNAME,
                                       LUA_MATHLIBNAME, LUA_UTF8LIBNAME, LUA_COLIBNAME,
                                       LUA_OSLIBNAME};
    for (int i = 0; i < 7; i++) {
        lua_getglobal(L, libs[i]);
        lua_setfield(L, -2, libs[i]);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "loaded");
    lua_pushcclosure(L, sb_require, 1);
    lua_setglobal(L, "require");
    lua_pushfstring(L, "%s/?.lua;%s/?.lua", cfg.exp_dir, lua_dir());
    lua_setfield(L, -2, "path");
    lua_setglobal(L, "package");
}

static void open_unsafe(lua_State *L)
{
    luaL_openlibs(L);
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "path");
    lua_pushfstring(L, "%s/?.lua;%s/?.lua;%s", cfg.exp_dir, lua_dir(), lua_tostring(L, -1));
    lua_setfield(L, -3, "path");
    lua_pop(L, 2);
}

/* --- the memory cap ----------------------------------------------------- */

static size_t mem_cap_set; /* 0: $RUNNER_LUA_MEMORY_MB, else the default */

void lua_engine_set_memory_limit(size_t bytes)
{
    mem_cap_set = bytes;
}

size_t lua_engine_memory_limit(void)
{
    if (mem_cap_set)
        return mem_cap_set;
    const char *env = getenv("RUNNER_LUA_MEMORY_MB");
    if (env && *env) {
        char *end;
        unsigned long long mb = strtoull(env, &end, 10);
        if (!*end && mb > 0 && mb < (1ull << 40))
            return (size_t)mb << 20;
    }
    return (size_t)LUA_MEMORY_DEFAULT_MB << 20;
}

/* Lua's allocator with a cap: past it an allocation fails, which Lua turns
 * into a "not enough memory" error the pcall around the call catches
 * (doc/lua.md#the-sandbox).  Tensor buffers are not Lua allocations. */
static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    lx_state *xs = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        xs->used -= old;
        return NULL;
    }
    if (nsize > old && xs->used - old + nsize > xs->cap)
        return NULL;
    void *p = realloc(ptr, nsize);
    if (p)
        xs->used = xs->used - old + nsize;
    return p;
}

static int panic(lua_State *L)
{
    /* only reached by a bug of ours: every call into Lua is protected */
    const char *m = lua_tostring(L, -1);
    fprintf(stderr, "runner: unprotected Lua error: %s\n", m ? m : "?");
    abort();
}

lua_State *lx_newstate(void)
{
    lx_state *xs = calloc(1, sizeof *xs);
    if (!xs)
        return NULL;
    xs->cap = lua_engine_memory_limit();
    lua_State *L = lua_newstate(capped_alloc, xs);
    if (!L) {
        free(xs);
        return NULL;
    }
    lua_atpanic(L, panic);
    *(lx_state **)lua_getextraspace(L) = xs;
    if (cfg.unsafe)
        open_unsafe(L);
    else
        open_sandbox(L);
    guard_coroutine_close(L);
    return L;
}

int lx_ref_function(lua_State *L, int table, const char *name)
{
    lua_getfield(L, table, name);
    if (lua_isfunction(L, -1))
        return luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pop(L, 1);
    return LUA_NOREF;
}

void lx_close(lua_State *L)
{
    if (!L)
        return;
    void *ud;
    lua_getallocf(L, &ud);
    lx_state *xs = ud;
    /* Finalizers run with Lua's hooks off, so a looping __gc is not
     * stopped here: it is the process around this state that is killed
     * (the worker at the trial's timeout, the hooks and validate children
     * at theirs: doc/results.md#guarantees). */
    lua_close(L);
    free(xs);
}
