/* lua_engine.h - everything Lua (doc/lua.md#lua): workloads written in Lua
 * (`workload: lua:PATH`), their tensor API, experiment hooks, and the checks
 * behind `runner validate`.  This module is the only code that touches a Lua
 * stack; the rest of the runner sees plain C.
 *
 * Sandbox (the default): base (without dofile and loadfile; `load` takes
 * text chunks only), string, table, math, utf8, coroutine, os.clock /
 * os.time / os.date / os.difftime, and a `require` that loads NAME.lua only
 * from the experiment's folder and the project's lua/ folder.  No io, no
 * debug, no package.loadlib, no binary chunks.  With allow_unsafe the full
 * standard library is open and `require` is Lua's own (package.path gets
 * the two folders in front).
 *
 * Hook code (hooks files, and the top level of files checked by
 * lua_file_check) runs under a time limit, checked every 1000 Lua
 * instructions: a hook stuck in a loop fails with "hook NAME() stopped: ran
 * more than 5 s (infinite loop?)".  Workload code has no such check (the
 * trial's timeout covers it, and run() must stay cheap).
 *
 * Errors come back as one line: "FILE:LINE: message | stack traceback: | ...".
 */
#ifndef RUNNER_LUA_ENGINE_H
#define RUNNER_LUA_ENGINE_H
/* public header of runner/experiment/lua/ */

#include "backend.h"

#include <stddef.h>

/* Where lua:PATH and require are resolved, and whether the sandbox is off.
 * Call before anything else below; calling it again (one experiment after
 * another) replaces the settings for states created afterwards.  A NULL
 * folder or allow_unsafe < 0 keeps that setting (so the config loader can
 * set just the experiment's folder).  Unconfigured: ".", lua_project_dir(),
 * sandboxed. */
void lua_engine_configure(const char *experiment_dir, const char *project_lua_dir,
                          int allow_unsafe);

/* The project's lua/ folder for lua_engine_configure: $RUNNER_LUA_DIR, else
 * lua/ beside the executable's bin/ (bin/runner, build/bin/runner), else
 * PREFIX/share/runner/lua (make install).  0, or -1 with "lua" in out. */
int lua_project_dir(char *out, size_t len);

/* --- workloads ----------------------------------------------------------- */

/* ctx's random numbers: ctx:rand(n) is rn_uniform(seed, LUA_TENSOR_STREAM,
 * offset + i), the offset starting at 0 in each trial and advancing by n per
 * draw (ctx:matrix too); ctx:randn(n) uses the draws 2(o + i), 2(o + i) + 1
 * with o = ceil(offset / 2), and moves the offset past them. */
#define LUA_TENSOR_STREAM 0x4C7561u /* "Lua" */

/* The impl for `workload: lua:PATH` (t->workload is the literal "lua:PATH",
 * PATH relative to the experiment's folder unless absolute).  prepare()
 * returns 0, 2 (skip: the trial's device has no backend or no tensor
 * support here; err says why) or -1 (failed: a Lua error, a missing file).
 * run() ends by waiting for every device the state used.  Its `extras`
 * hook reports the table the file's optional extras(ctx, p, state) returns
 * as columns of the trial's row (an extension: the Lua twin of mlp_train's loss). */
const rn_workload_impl *lua_workload_impl(void);

/* Runs the file's teardown(ctx, p, state) once (later calls, and release,
 * do nothing); 0, or -1 with the Lua error in err.  The worker calls it
 * before release() so that a failing teardown fails its own trial. */
int lua_workload_teardown(void *state, rn_error *err);

/* Operations per run() from the file's flops(p) / bytes(p); NaN when the
 * file has no such function or it fails or returns no number.  `state` is
 * the state prepare() made. */
double lua_workload_flops(void *state);
double lua_workload_bytes(void *state);
/* What failed in extras(), flops() or bytes() of this state so far (their
 * errors, joined by "; "), or NULL: the caller reports it (the worker puts it
 * in the trial's lua_warning column); this module never prints. */
const char *lua_workload_diagnostic(void *state);

/* `runner validate`: loads PATH as text, runs it in the sandbox and checks
 * that it returns a table with a `run` function (and that setup, check,
 * teardown, flops, bytes, extras are functions, defaults a table and
 * size_means text where present).
 * 0, or -1 with "PATH:LINE: message" (syntax) or "PATH: message" in err. */
int lua_file_check(const char *path, char *err, size_t len);
/* What `size` counts in the workload file at PATH: its table's `size_means`
 * ("iterations"); 0, or -1 when it has none or cannot be loaded. */
int lua_file_size_means(const char *path, char *out, size_t len);

/* --- hooks (run in the runner's main process) --------------------------- */

typedef struct lua_hooks lua_hooks;

/* A trial as a hook sees it: a table of every key -> value (text that reads
 * as a number becomes a number, "true"/"false" booleans; NULL values are
 * left out) plus `index`. */
typedef struct lua_trial_view {
    long long index;
    int n;
    const char *const *keys;
    const char *const *values;
} lua_trial_view;

/* A trial's result as after_trial() sees it; NaN numbers become nil, NULL
 * strings nil. */
typedef struct lua_result_view {
    const char *status, *reason;
    int samples;
    double min, median, mean, stddev, max, gflops, gbps;
} lua_result_view;

/* The extra columns after_trial() returned: string keys (sorted) -> text of
 * a string, number or boolean value.  Free with lua_extra_free(). */
#define LUA_EXTRA_MAX 32
typedef struct lua_extra {
    int n;
    char *keys[LUA_EXTRA_MAX];
    char *values[LUA_EXTRA_MAX];
} lua_extra;

/* Loads a hooks file (under the sandbox unless allow_unsafe).  NULL with
 * "PATH:LINE: message" in err when it cannot be loaded or does not return a
 * table.  The hooks skip, before_trial, after_trial are each optional. */
lua_hooks *lua_hooks_open(const char *path, char *err, size_t len);
/* 1 = skip (reason filled), 0 = run, -1 = hook error (reason = message).
 * skip() returning a string skips with it as the reason; true skips with a
 * generic reason; nil or false runs the trial. */
int lua_hooks_skip(lua_hooks *h, const lua_trial_view *t, char *reason, size_t len);
/* 0, or -1 with the error in err (no hook: 0). */
int lua_hooks_before(lua_hooks *h, const lua_trial_view *t, char *err, size_t len);
/* 0 with *out filled (out->n = 0 when the hook returned nothing), or -1
 * with the error in err and *out empty. */
int lua_hooks_after(lua_hooks *h, const lua_trial_view *t, const lua_result_view *r,
                    lua_extra *out, char *err, size_t len);
void lua_hooks_close(lua_hooks *h);
void lua_extra_free(lua_extra *x);
/* Which hooks a file defines (for messages and tests). */
int lua_hooks_has(const lua_hooks *h, const char *name);

/* The memory cap of each Lua state (doc/lua.md#the-sandbox): bytes Lua may
 * allocate, tensor buffers aside.  $RUNNER_LUA_MEMORY_MB, else
 * LUA_MEMORY_DEFAULT_MB; lua_engine_set_memory_limit(n > 0) overrides both
 * (0: back to them).  States created afterwards get it. */
#define LUA_MEMORY_DEFAULT_MB 1024
size_t lua_engine_memory_limit(void);
void lua_engine_set_memory_limit(size_t bytes);

/* --- for tests and benchmarks ------------------------------------------- */

/* The time limit of hook code, in seconds (default 5). */
void lua_hooks_set_time_limit(double seconds);
double lua_hooks_time_limit(void);
/* Replaces the tensor ops used for a device kind (NULL: back to the
 * backend's own).  Lets a test give "cuda" the CPU ops to check device
 * mixing and :to() without a GPU, or run the CPU API before the CPU
 * backend registers its ops. */
void lua_engine_override_tensor_ops(rn_device_kind kind, const rn_tensor_ops *ops);
/* Tensors alive in a workload state (prepare()'s state) that hold a buffer
 * from the device's alloc(): every tensor off the CPU, CPU tensors above
 * 1 MiB (smaller CPU tensors live inside their userdata). */
long lua_workload_live_tensors(void *state);
/* Runs a Lua string in a workload state (after prepare): `chunk` sees
 * globals ctx, p and state; what it returns, tostring()ed, goes to out ("" for
 * nothing).  0, or -1 with the Lua error in err. */
int lua_workload_eval(void *state, const char *chunk, char *out, size_t outlen,
                      rn_error *err);

#ifdef LUA_ENGINE_INTERNAL
/* --- shared by the lua_*.c files only ----------------------------------- */
#include <lua.h>

typedef struct lt_tensor lt_tensor;
struct lt_engine;

struct lt_tensor {
    float *data;
    size_t n;
    int rows, cols; /* rows > 0: a rows x cols matrix, else a vector of n */
    rn_device_kind kind;
    int dev;
    const rn_tensor_ops *ops;
    struct lt_engine *eng;
    lt_tensor *prev, *next; /* the engine's list (external buffers only) */
    unsigned char external; /* data from ops->alloc, else inside the userdata */
    unsigned char closed;   /* freed (by <close>, __gc or release) */
};

/* One Lua state's tensor bookkeeping: the ctx of a workload (or of nothing,
 * in a hooks state). */
typedef struct lt_engine {
    uint64_t seed;
    uint32_t stream;
    uint64_t offset;          /* next Philox counter of ctx's draws */
    rn_device_kind kind;      /* the trial's device: ctx creates tensors there */
    int dev;
    const rn_tensor_ops *ops; /* its ops; NULL: no_ops_why says why */
    char no_ops_why[600];
    lt_tensor *live;          /* every tensor with a device buffer, for release */
    long nlive;
    size_t live_bytes, gc_at; /* bytes of live tensors; collect when above gc_at */
    uint32_t touched[2];      /* per kind: bit d = device d has had work (sync) */
    const rn_tensor_ops *touched_ops[2];
    /* buffers of freed tensors kept for reuse, as PyTorch's caching
     * allocator keeps them: cudaMalloc / cudaFree per operation would cost
     * more than the operation (cudaFree even waits for the device) */
    struct lt_block {
        float *p;
        size_t n;
        int dev;
        rn_device_kind kind;
        const rn_tensor_ops *ops;
    } cache[1024];
    int ncache;
    size_t cache_bytes;
    float *scalar[2];         /* per kind: a device scratch for number operands */
    const rn_tensor_ops *scalar_ops[2];
    int scalar_dev[2];
    int mt_ref, mt_ref_ext;   /* the tensor metatables, kept in the registry */
} lt_engine;

/* The ops of a device kind ("why" filled and NULL when none). */
const rn_tensor_ops *lt_ops(rn_device_kind kind, char *why, size_t len);
/* Registers the tensor metatable and fills a ctx table (at the stack top)
 * with its methods, bound to `eng`. */
void lt_open(lua_State *L, lt_engine *eng);
/* Frees every tensor still alive (their userdata become empty). */
void lt_release_all(lt_engine *eng);
/* Tensors alive with a buffer from the device's alloc() (every tensor off
 * the CPU, CPU tensors above 1 MiB). */
long lt_live(const lt_engine *eng);
/* Waits for every device the state used. 0 or -1 with err. */
int lt_sync_all(lt_engine *eng, rn_error *err);

/* For C functions that have the tensor functions' three upvalues (lt_open):
 * the tensor at index i or NULL (an error when it was closed); a new tensor
 * on the stack top, on like's device with like's shape, of n elements; the
 * device as text ("cpu", "cuda:0"); a value's type for messages (its
 * metatable's __name, else Lua's type name). */
lt_tensor *lt_test(lua_State *L, int i);
lt_tensor *lt_new_like(lua_State *L, const lt_tensor *like, size_t n);
const char *lt_device_text(char *buf, size_t len, const lt_tensor *t);
const char *lt_type_name(lua_State *L, int i);

/* Adds ctx:fuse(fn) (lua_fuse.c, doc/lua.md#fused-expressions) to the ctx
 * table at the stack top, after lt_open(L, eng) made the tensor metatables. */
void lt_fuse_open(lua_State *L, lt_engine *eng);

/* The time limit of hook code: attach once per state, start before each
 * call into Lua, stop after it. */
typedef struct lx_limit {
    double deadline, limit; /* deadline 0: no call running */
    const char *what;       /* "hook skip()", ... */
} lx_limit;
void lx_limit_attach(lua_State *L, lx_limit *lim);
void lx_limit_start(lua_State *L, lx_limit *lim, const char *what);
void lx_limit_stop(lx_limit *lim);

/* The configured experiment folder, and whether the sandbox is off. */
const char *lx_experiment_dir(void);
int lx_unsafe(void);

/* A fresh state: sandboxed unless configured unsafe, under the memory cap,
 * with coroutine.close guarded.  Close it with lx_close, not lua_close. */
lua_State *lx_newstate(void);
void lx_close(lua_State *L);
/* Pushes the message handler (adds a traceback). */
void lx_push_msgh(lua_State *L);
/* The error at the stack top as one line in out, popped. */
void lx_error_text(lua_State *L, char *out, size_t len);
/* A reference (registry) to the function at table[name], or LUA_NOREF when
 * that is not a function. */
int lx_ref_function(lua_State *L, int table, const char *name);
/* What a call made inside lua_pcall answers its caller: a code, and why in
 * msg (len bytes, the caller's). */
typedef struct lx_answer {
    char *msg;
    size_t len;
    int rc;
} lx_answer;
/* The table at idx as extra columns (string keys -> text of scalar values,
 * sorted); `who` names the function in messages.  0, or -1 with err. */
int lx_table_columns(lua_State *L, int idx, const char *who, lua_extra *out, char *err,
                     size_t len);
/* Joins dir and a relative path, lexically cleaned ("a/./b/../c" -> "a/c"). */
void lx_join(char *out, size_t len, const char *dir, const char *path);
#endif

#endif
