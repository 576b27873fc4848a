/* probe_fill.h - the inputs of the CUDA ceilings probe's GEMMs
 * (ceilings.cu, doc/ceilings.md#the-ceilings): random non-zero values, never
 * zeros.  A power-limited GPU (H100, H200) holds higher clocks on zeros,
 * whose multiplies toggle few bits, so a GEMM on zeros reads a ceiling the
 * GPU does not reach on real data (PyTorch on an H200 here: bf16 GEMM 788
 * TFLOP/s on random data, 894 on zeros), and every pct_of_peak against it
 * reads low.
 *
 * Element i is written as the bits of its type: a uniform mantissa, a
 * magnitude in [0.5, 2) and either sign, from a hash of i and the seed: no
 * zero, subnormal, Inf or NaN in f32, f64, f16 or bf16.  No cross-thread
 * synchronisation: tests/hostk/ew_host.cc runs it on the CPU. */
#ifndef BACKENDS_CUDA_PROBE_FILL_H
#define BACKENDS_CUDA_PROBE_FILL_H

#ifdef RN_HOST_KERNELS
#include "host_kernels.h"
#else
#include <cuda_runtime.h>
#endif
#include <stddef.h>
#include <stdint.h>

enum { PROBE_F32, PROBE_F64, PROBE_F16, PROBE_BF16 };

/* 32 well-mixed bits of (i, seed) (a 64-bit finaliser, as splitmix64's) */
__host__ __device__ inline uint32_t probe_hash(uint64_t i, uint32_t seed)
{
    uint64_t z = i * 0x9e3779b97f4a7c15ull + seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* the value's bits: sign (bit 31 of h), binade [0.5, 1) or [1, 2) (bit
 * 30), mantissa (the low bits) */
__host__ __device__ inline void probe_value(void *p, size_t i, int kind, uint32_t seed)
{
    uint32_t h = probe_hash(i, seed), s = h >> 31, up = (h >> 30) & 1u, m = h & 0x7fffffu;
    uint32_t f = s << 31 | (126u + up) << 23 | m;
    if (kind == PROBE_F32)
        ((uint32_t *)p)[i] = f;
    else if (kind == PROBE_F64)
        ((uint64_t *)p)[i] = (uint64_t)s << 63 | (uint64_t)(1022u + up) << 52 | (uint64_t)m << 29;
    else if (kind == PROBE_F16)
        ((uint16_t *)p)[i] = (uint16_t)(s << 15 | (14u + up) << 10 | m >> 13);
    else
        ((uint16_t *)p)[i] = (uint16_t)(f >> 16);
}

__global__ void probe_fill(void *p, size_t n, int kind, uint32_t seed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        probe_value(p, i, kind, seed);
}

#endif
