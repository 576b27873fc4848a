/* lua_tensor_store.h - tensors as Lua userdata: the device a tensor lives
 * on, its memory (kept inside the userdata when small, else from the
 * device's alloc(), with freed buffers reused), and the checks every
 * operation makes.  Internal to runner/lua/ (lua_tensor.c, lua_fuse.c).
 * The functions taking a lua_State need the tensor functions' three
 * upvalues (lt_open). */
#ifndef RUNNER_LUA_TENSOR_STORE_H
#define RUNNER_LUA_TENSOR_STORE_H
/* internal header of runner/experiment/lua/: other folders may not include it */

#ifndef LUA_ENGINE_INTERNAL
#define LUA_ENGINE_INTERNAL
#endif
#include "experiment/lua/lua_engine.h"

#define LT_GC_MIN_BYTES ((size_t)256 << 20) /* collect at least this far apart */

/* 1 when a test replaced the device's tensor operations. */
int lt_ops_overridden(rn_device_kind kind);
const char *lt_kind_name(rn_device_kind k);
const char *lt_dev_text(char *buf, size_t len, rn_device_kind k, int dev);
lt_engine *lt_engine_of(lua_State *L);
lt_tensor *lt_newt(lua_State *L, lt_engine *e, rn_device_kind kind, int dev,
                       const rn_tensor_ops *ops, size_t n, int rows, int cols);
void lt_freet(lt_tensor *t);
lt_tensor *lt_testt(lua_State *L, int i);
lt_tensor *lt_check(lua_State *L, int i, const char *fn);
const char *lt_shape_text(char *buf, size_t len, const lt_tensor *t);
void lt_same_device(lua_State *L, const lt_tensor *a, const lt_tensor *b, const char *verb);
int lt_fail(lua_State *L, const char *fn, const rn_error *err);
const float *lt_scalar_on(lua_State *L, const lt_tensor *like, float *host);

#endif
