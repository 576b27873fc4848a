/* cuda_backend.h - the CUDA backend's workloads and tensor operations. */
#ifndef BACKENDS_CUDA_BACKEND_H
#define BACKENDS_CUDA_BACKEND_H

#include "cuda_common.h"

/* Adds a workload to the backend: each workload's file ends with
 * RN_REGISTER_WORKLOAD(cuda_register_workload, ...)
 * (doc/contributing/adding-a-workload.md#adding-a-workload). */
void cuda_register_workload(const rn_workload_impl *w);
extern const rn_tensor_ops cuda_tensor_ops;

/* fuse.cu: rn_tensor_ops.fuse_compile, fuse_run, fuse_free (NVRTC) */
int cuda_fuse_compile(int dev, const rn_fuse_expr *e, void **kernel, double *seconds,
                      rn_error *err);
int cuda_fuse_run(int dev, const void *kernel, float *dst, const float *const *in,
                  const size_t *nin, size_t n, rn_error *err);
void cuda_fuse_free(int dev, void *kernel);

/* clock.cu: the mean SM clock over each sample (throttling) */
void cuda_sample_begin(const rn_trial *t);
int cuda_sample_check(const rn_trial *t, char *why, size_t len);
/* nvml.cu: other processes on the GPU, where NVML can tell */
int cuda_device_warning(const rn_trial *t, char *out, size_t len);
/* nvml.cu: the board's energy counter (doc/ceilings.md#energy-per-call) */
int cuda_energy(int dev, rn_energy *e, char *why, size_t len);
/* ceilings.cu: the device's GEMM peaks and bandwidths (doc/ceilings.md#the-ceilings) */
int cuda_ceilings(int dev, void *ctx, rn_ceiling_cb cb, char *why, size_t len);

#endif
