/* gpu_nominal.h - a CUDA GPU's nominal peaks (doc/ceilings.md#the-ceilings),
 * the figures the vendor publishes, from what the device reports: plain C,
 * so that the tests check the table without a GPU
 * (tests/test_gpu_nominal.c). */
#ifndef BACKENDS_GPU_NOMINAL_H
#define BACKENDS_GPU_NOMINAL_H

#ifdef __cplusplus
extern "C" {
#endif

/* The nominal GFLOP/s of a dense GEMM of `kind` ("fp32", "tf32", "fp16",
 * "bf16", "fp64") on a device named `name` of compute capability
 * major.minor with `sms` SMs whose highest SM clock is `sm_mhz`
 * (cudaDevAttrClockRate); NAN for an architecture the table lacks. */
double gpu_nominal_gflops(const char *name, int major, int minor, int sms, double sm_mhz,
                          const char *kind);

/* The SM clock, MHz, of the vendor's published 16-bit and TF32 tensor
 * figures for this device (lower than the highest clock on Hopper). */
double gpu_tensor_mhz(const char *name, int major, double sm_mhz);

#ifdef __cplusplus
}
#endif

#endif
