/* lua_tensor_store.c - see lua_tensor_store.h: f32 tensors as full
 * userdata, the devices they live on and where their memory comes from.
 *
 * A CPU tensor of up to INLINE_MAX numbers keeps them inside its userdata:
 * one allocation, no finalizer to run, and Lua's collector sees the memory,
 * so it paces itself on it.  Larger CPU tensors and every tensor on another
 * device get their buffer from the device's alloc(), a __gc to give it
 * back, and a place on the engine's list, so that release frees whatever
 * the collector has not reached; a freed buffer is kept for the next tensor
 * of its size (up to 1024 buffers, 512 MiB).  That memory is invisible to
 * Lua, so when the bytes alive pass a threshold the engine runs a full
 * collection first.
 * The two kinds have two metatables (only the external one has __gc) with
 * the same methods.
 *
 * Every C function here has three upvalues: the metatable of external
 * tensors, the engine (light userdata), the metatable of inline tensors
 * (the metatables tell a tensor from other userdata).
 */
#define LUA_ENGINE_INTERNAL
#include "experiment/lua/lua_tensor_store.h"

#include "experiment/registry/backends.h"

#include <lauxlib.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* floats: 64 KiB.  A larger tensor inside its userdata went back to glibc
 * when collected, which unmapped it or trimmed it off the heap (its moving
 * mmap threshold), and the next op faulted the pages in again: a fresh
 * worker's fuse_sin.lua unfused calls alternated between two speeds (2^17
 * floats: 140 and 260 us, never settling, against 56 us; issue 15).  From
 * here up, the freed-buffer cache below serves them. */
#define INLINE_MAX ((size_t)1 << 14)
#define ALIGN 64                       /* bytes, for the vector kernels */
#define CACHE_MAX_BYTES ((size_t)512 << 20) /* freed buffers kept for reuse */

/* --- devices ------------------------------------------------------------- */

static const rn_tensor_ops *override_ops[2];
static int overridden[2];

void lua_engine_override_tensor_ops(rn_device_kind kind, const rn_tensor_ops *ops)
{
    if ((int)kind < 0 || (int)kind > 1)
        return;
    override_ops[kind] = ops;
    overridden[kind] = ops != NULL;
}

int lt_ops_overridden(rn_device_kind kind)
{
    return (int)kind >= 0 && (int)kind <= 1 && overridden[kind];
}

const char *lt_kind_name(rn_device_kind k)
{
    return k == RN_DEV_CPU ? "cpu" : "cuda";
}

const rn_tensor_ops *lt_ops(rn_device_kind kind, char *why, size_t len)
{
    if (overridden[kind])
        return override_ops[kind];
    char w[512] = "";
    const rn_backend *b = backend_for(kind, w, sizeof w);
    if (!b) {
        snprintf(why, len, "device %s is not available here: %s", lt_kind_name(kind), w);
        return NULL;
    }
    if (!b->tensor)
        snprintf(why, len, "device %s has no tensor support in this build", lt_kind_name(kind));
    return b->tensor;
}

const char *lt_dev_text(char *buf, size_t len, rn_device_kind k, int dev)
{
    if (k == RN_DEV_CPU)
        snprintf(buf, len, "cpu");
    else
        snprintf(buf, len, "cuda:%d", dev);
    return buf;
}

/* --- tensors ------------------------------------------------------------- */

lt_engine *lt_engine_of(lua_State *L)
{
    return lua_touserdata(L, lua_upvalueindex(2));
}

static void mark(lt_engine *e, rn_device_kind kind, int dev, const rn_tensor_ops *ops)
{
    if (dev >= 0 && dev < 32)
        e->touched[kind] |= 1u << dev;
    e->touched_ops[kind] = ops;
}

/* The index of a cached buffer of exactly n floats on (kind, dev), or -1. */
static int cache_find(const lt_engine *e, rn_device_kind kind, int dev, const rn_tensor_ops *ops,
                      size_t n)
{
    for (int i = e->ncache - 1; i >= 0; i--) {
        const struct lt_block *b = &e->cache[i];
        if (b->n == n && b->kind == kind && b->dev == dev && b->ops == ops)
            return i;
    }
    return -1;
}

/* A cached buffer of exactly n floats on (kind, dev), or NULL. */
static float *cache_take(lt_engine *e, rn_device_kind kind, int dev, const rn_tensor_ops *ops,
                         size_t n)
{
    int i = cache_find(e, kind, dev, ops, n);
    if (i < 0)
        return NULL;
    float *p = e->cache[i].p;
    e->cache_bytes -= n * sizeof(float);
    e->cache[i] = e->cache[--e->ncache];
    return p;
}

/* Keeps a freed buffer for reuse, or releases it when the cache is full. */
static void cache_put(lt_engine *e, const lt_tensor *t)
{
    size_t bytes = t->n * sizeof(float);
    if (e->ncache == (int)(sizeof e->cache / sizeof e->cache[0]) ||
        e->cache_bytes + bytes > CACHE_MAX_BYTES) {
        t->ops->release(t->dev, t->data);
        return;
    }
    e->cache[e->ncache++] = (struct lt_block){t->data, t->n, t->dev, t->kind, t->ops};
    e->cache_bytes += bytes;
}

static void cache_flush(lt_engine *e)
{
    for (int i = 0; i < e->ncache; i++)
        e->cache[i].ops->release(e->cache[i].dev, e->cache[i].p);
    e->ncache = 0;
    e->cache_bytes = 0;
}

/* A new tensor on the stack top, its buffer allocated (not filled).
 * Upvalues: 1 the metatable of external tensors (with __gc), 3 the one of
 * inline tensors. */
lt_tensor *lt_newt(lua_State *L, lt_engine *e, rn_device_kind kind, int dev,
                       const rn_tensor_ops *ops, size_t n, int rows, int cols)
{
    int inl = kind == RN_DEV_CPU && n <= INLINE_MAX;
    size_t bytes = n * sizeof(float);
    lt_tensor *t;
    if (inl) {
        t = lua_newuserdatauv(L, sizeof *t + ALIGN + bytes, 0);
        uintptr_t p = (uintptr_t)(t + 1);
        t->data = (float *)((p + ALIGN - 1) & ~(uintptr_t)(ALIGN - 1));
        lua_pushvalue(L, lua_upvalueindex(3));
    } else {
        if (e->live_bytes + bytes > e->gc_at) {
            lua_gc(L, LUA_GCCOLLECT);
            size_t twice = 2 * (e->live_bytes + bytes);
            e->gc_at = twice > LT_GC_MIN_BYTES ? twice : LT_GC_MIN_BYTES;
        } else {
            /* the collector's debt, as if the buffer were Lua's (at least
             * 1 KiB: a device tensor is worth collecting even when small);
             * a buffer the cache holds is no new memory, so only that 1 KiB,
             * which keeps garbage tensors coming back to the cache (the
             * whole size cost 2.5 us an op at 2^16 floats) */
            size_t kib = cache_find(e, kind, dev, ops, n) >= 0 ? 0 : bytes / 1024;
            lua_gc(L, LUA_GCSTEP, (int)(kib < 1 ? 1 : kib > 65536 ? 65536 : kib));
        }
        t = lua_newuserdatauv(L, sizeof *t, 0);
        t->data = NULL;
        lua_pushvalue(L, lua_upvalueindex(1));
    }
    t->n = n;
    t->rows = rows;
    t->cols = cols;
    t->kind = kind;
    t->dev = dev;
    t->ops = ops;
    t->eng = e;
    t->prev = t->next = NULL;
    t->external = (unsigned char)!inl;
    t->closed = 1; /* until its buffer exists */
    lua_setmetatable(L, -2);
    mark(e, kind, dev, ops);
    if (inl) {
        t->closed = 0;
        return t;
    }
    t->data = cache_take(e, kind, dev, ops, n);
    rn_error err;
    err.msg[0] = '\0';
    if (!t->data)
        t->data = ops->alloc(dev, n ? n : 1, &err);
    if (!t->data && e->ncache > 0) { /* out of memory: give the cache back, retry */
        cache_flush(e);
        err.msg[0] = '\0';
        t->data = ops->alloc(dev, n ? n : 1, &err);
    }
    if (!t->data) {
        char d[32];
        luaL_error(L, "cannot allocate a tensor of %I floats on %s: %s", (lua_Integer)n,
                   lt_dev_text(d, sizeof d, kind, dev), err.msg[0] ? err.msg : "out of memory");
    }
    t->closed = 0;
    t->next = e->live;
    if (e->live)
        e->live->prev = t;
    e->live = t;
    e->nlive++;
    e->live_bytes += bytes;
    return t;
}

void lt_freet(lt_tensor *t)
{
    if (t->closed)
        return;
    t->closed = 1;
    if (!t->external)
        return; /* Lua frees the userdata, numbers and all */
    lt_engine *e = t->eng;
    cache_put(e, t);
    t->data = NULL;
    if (t->prev)
        t->prev->next = t->next;
    else
        e->live = t->next;
    if (t->next)
        t->next->prev = t->prev;
    t->prev = t->next = NULL;
    e->nlive--;
    e->live_bytes -= t->n * sizeof(float);
}

void lt_release_all(lt_engine *e)
{
    while (e->live)
        lt_freet(e->live);
    cache_flush(e);
    for (int k = 0; k < 2; k++) {
        if (e->scalar[k])
            e->scalar_ops[k]->release(e->scalar_dev[k], e->scalar[k]);
        e->scalar[k] = NULL;
    }
}

int lt_sync_all(lt_engine *e, rn_error *err)
{
    /* CPU ops are synchronous: only other devices are waited for. */
    for (int k = 1; k < 2; k++) {
        const rn_tensor_ops *ops = e->touched_ops[k];
        if (!ops)
            continue;
        for (int d = 0; d < 32; d++)
            if ((e->touched[k] >> d) & 1u)
                if (ops->sync(d, err) != 0)
                    return -1;
    }
    return 0;
}

/* The tensor at index i, or NULL if it is something else. */
lt_tensor *lt_testt(lua_State *L, int i)
{
    lt_tensor *t = lua_touserdata(L, i);
    if (!t || !lua_getmetatable(L, i))
        return NULL;
    int ok = lua_rawequal(L, -1, lua_upvalueindex(3)) || lua_rawequal(L, -1, lua_upvalueindex(1));
    lua_pop(L, 1);
    if (!ok)
        return NULL;
    if (t->closed)
        luaL_error(L, "a tensor was used after it was closed");
    return t;
}

lt_tensor *lt_check(lua_State *L, int i, const char *fn)
{
    lt_tensor *t = lt_testt(L, i);
    if (!t)
        luaL_error(L, "%s: expected a tensor, got %s (call it as t:%s(...))", fn,
                   luaL_typename(L, i), fn);
    return t;
}

const char *lt_shape_text(char *buf, size_t len, const lt_tensor *t)
{
    if (t->rows > 0)
        snprintf(buf, len, "%dx%d", t->rows, t->cols);
    else
        snprintf(buf, len, "a vector of %zu", t->n);
    return buf;
}

void lt_same_device(lua_State *L, const lt_tensor *a, const lt_tensor *b, const char *verb)
{
    if (a->kind == b->kind && (a->kind == RN_DEV_CPU || a->dev == b->dev))
        return;
    char da[32], db[32];
    luaL_error(L, "cannot %s a %s tensor and a %s tensor: move one with :to()", verb,
               lt_dev_text(da, sizeof da, a->kind, a->dev), lt_dev_text(db, sizeof db, b->kind, b->dev));
}

int lt_fail(lua_State *L, const char *fn, const rn_error *err)
{
    return luaL_error(L, "%s: %s", fn, err->msg[0] ? err->msg : "the device operation failed");
}

/* A device pointer holding one number, for `t + 2` off the CPU (on the CPU
 * the host float itself is passed). */
const float *lt_scalar_on(lua_State *L, const lt_tensor *like, float *host)
{
    if (like->kind == RN_DEV_CPU)
        return host;
    lt_engine *e = like->eng;
    int k = like->kind;
    rn_error err;
    err.msg[0] = '\0';
    if (!e->scalar[k] || e->scalar_dev[k] != like->dev || e->scalar_ops[k] != like->ops) {
        if (e->scalar[k])
            e->scalar_ops[k]->release(e->scalar_dev[k], e->scalar[k]);
        e->scalar[k] = like->ops->alloc(like->dev, 1, &err);
        if (!e->scalar[k])
            lt_fail(L, "scalar operand", &err);
        e->scalar_ops[k] = like->ops;
        e->scalar_dev[k] = like->dev;
    }
    if (like->ops->fill(like->dev, e->scalar[k], 1, RN_FILL_CONST, *host, 0, 0, 0, &err) != 0)
        lt_fail(L, "scalar operand", &err);
    return e->scalar[k];
}

/* --- for lua_fuse.c (lua_engine.h) ---------------------------------------- */

lt_tensor *lt_test(lua_State *L, int i)
{
    return lt_testt(L, i);
}

lt_tensor *lt_new_like(lua_State *L, const lt_tensor *like, size_t n)
{
    return lt_newt(L, like->eng, like->kind, like->dev, like->ops, n, like->rows, like->cols);
}

const char *lt_device_text(char *buf, size_t len, const lt_tensor *t)
{
    return lt_dev_text(buf, len, t->kind, t->dev);
}

const char *lt_type_name(lua_State *L, int i)
{
    if (luaL_getmetafield(L, i, "__name") != LUA_TNIL) {
        const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        lua_pop(L, 1);
        if (name)
            return name; /* kept alive by the metatable */
    }
    return luaL_typename(L, i);
}
