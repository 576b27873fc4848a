/* cpu.h - the CPU backend: OpenBLAS for matmul, OpenMP + libmvec for the
 * element-wise workloads, Philox for every input.  Each workload is one
 * file that ends with CPU_WORKLOAD or CPU_KERNEL_WORKLOAD (frame.h), which
 * register it (RN_REGISTER_WORKLOAD, backend.h;
 * doc/contributing/adding-a-workload.md#adding-a-workload). */
#ifndef BACKENDS_CPU_CPU_H
#define BACKENDS_CPU_CPU_H

#include <stddef.h>

#include "backend.h"

const rn_backend *cpu_backend(void);
/* The packages' RAPL counters (rapl.c; doc/ceilings.md#energy-per-call). */
int cpu_energy(int dev, rn_energy *e, char *why, size_t len);
/* Adds a workload to the backend (RN_REGISTER_WORKLOAD). */
void cpu_register_workload(const rn_workload_impl *w);

/* OpenBLAS's thread count, set only when it changes.  Every caller of BLAS
 * sets it just before (matmul and mlp_train the trial's threads, tensor
 * GEMMs OpenMP's count, cnn_forward one BLAS thread per OpenMP thread);
 * select() does not, so a trial that never calls BLAS never wakes its pool. */
void cpu_blas_threads(int n);

/* A warning when OPENBLAS_CORETYPE forces kernels older than the CPU can
 * run (e.g. Haswell on an AVX-512 CPU), NULL when all is well.  The text
 * lives in a thread-local buffer, valid until the thread's next call. */
const char *cpu_coretype_warning(void);
/* The same for a given OPENBLAS_CORETYPE (or NULL), the core OpenBLAS
 * detected and the CPU's vector level ("SSE", "AVX", "AVX2", "AVX-512");
 * the text goes to msg; NULL when nothing is wrong. */
const char *cpu_coretype_warning_for(const char *forced, const char *detected, const char *isa,
                                     char *msg, size_t len);

/* The built-in workloads, for the tests that call them directly. */
extern const rn_workload_impl cpu_matmul;
extern const rn_workload_impl cpu_nested_sin;
extern const rn_workload_impl cpu_sumsq;
extern const rn_workload_impl cpu_axpb;
extern const rn_workload_impl cpu_noop;
extern const rn_workload_impl cpu_mlp_train;
extern const rn_workload_impl cpu_cnn_forward;
extern const rn_workload_impl cpu_selftest; /* misbehaves on purpose */

/* Fused expressions (fuse.c): the CPU's rn_tensor_ops.fuse_compile,
 * fuse_run and fuse_free (backend.h). */
int cpu_fuse_compile(int dev, const rn_fuse_expr *e, void **kernel, double *seconds,
                     rn_error *err);
int cpu_fuse_run(int dev, const void *kernel, float *dst, const float *const *in,
                 const size_t *nin, size_t n, rn_error *err);
void cpu_fuse_free(int dev, void *kernel);

/* Test hook: perturbs element `index` of the output of the last run() in a
 * prepared state (any workload with an output, i.e. all but noop), so that a
 * test can watch check() catch it.  Returns 0, or -1 when there is no such
 * element. */
int cpu_test_corrupt(void *state, size_t index);

/* Test hook: the f32 master parameters and the NCHW images of a prepared
 * cnn_forward state, the inputs of cnn_reference (cnn_model.h). */
void cpu_cnn_inputs(void *state, const float **params, const float **images);

/* The tensor operations of the Lua API on the CPU (tensor.c). */
extern const rn_tensor_ops cpu_tensor_ops;

#endif
