/* backend_tables.h - the tables that every built-in backend fills, written
 * once for the CPU and the CUDA backend (plain C that nvcc compiles as C++
 * too; the fields in their order of declaration, runner/backend.h): its
 * rn_tensor_ops and the required hooks of its rn_backend, from functions
 * named after one pattern (doc/contributing/backends.md#backends). */
#ifndef BACKENDS_BACKEND_TABLES_H
#define BACKENDS_BACKEND_TABLES_H

#include <stdlib.h>
#include <string.h>

#include "backend.h"

/* The workloads of a backend, as its files register them
 * (RN_REGISTER_WORKLOAD, before main()); a backend's table of them is a
 * static rn_workload_list, zero to start with. */
typedef struct rn_workload_list {
    const rn_workload_impl *impls[128];
    int n;
} rn_workload_list;

static inline void rn_workload_list_add(rn_workload_list *l, const rn_workload_impl *w)
{
    if (l->n == (int)(sizeof l->impls / sizeof l->impls[0]))
        abort(); /* a build with more workloads than this table: raise its size */
    l->impls[l->n++] = w;
}

/* The workload `name`, or NULL where the backend has none of that name. */
static inline const rn_workload_impl *rn_workload_list_find(const rn_workload_list *l,
                                                             const char *name)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->impls[i]->name, name) == 0)
            return l->impls[i];
    return NULL;
}

/* An rn_tensor_ops initialiser: T##_alloc ... T##_sync, and the fused
 * expressions' FUSE##_fuse_compile, FUSE##_fuse_run, FUSE##_fuse_free. */
#define RN_TENSOR_OPS_OF(T, FUSE)                                                             \
    {                                                                                         \
        .alloc = T##_alloc, .release = T##_release, .upload = T##_upload,                     \
        .download = T##_download, .fill = T##_fill, .unary = T##_unary, .binary = T##_binary, \
        .sum = T##_sum, .matmul = T##_matmul, .sync = T##_sync,                               \
        .fuse_compile = FUSE##_fuse_compile, .fuse_run = FUSE##_fuse_run,                     \
        .fuse_free = FUSE##_fuse_free,                                                        \
    }

/* An rn_backend initialiser for the backend NAME: P##_probe,
 * P##_device_count, P##_device_info, P##_workload, P##_select,
 * P##_flush_caches, P##_free_memory and P##_env_info, then the optional
 * fields (.shutdown = ... onwards, in their order). */
#define RN_BACKEND_OF(NAME, P, ...)                                                           \
    {                                                                                         \
        .abi = RN_BACKEND_ABI, .name = #NAME, .probe = P##_probe,                             \
        .device_count = P##_device_count, .device_info = P##_device_info,                     \
        .workload = P##_workload, .select = P##_select, .flush_caches = P##_flush_caches,     \
        .free_memory = P##_free_memory, .env_info = P##_env_info, __VA_ARGS__                 \
    }

#endif
