/* elementwise.h - the memory access of PyTorch's element-wise kernels
 * (aten/src/ATen/native/cuda/CUDALoops.cuh), written once for every
 * unfused element-wise pass of the CUDA backend: nested_sin's one pass per
 * sine, axpb's solve and the tensor API's unary and binary operations
 * (doc/workloads.md#built-in-workloads).
 *
 * y[i] = f(x0[i], x1[i], ...) for i < n, where an input of one element
 * ("one") stands for every i.  When y and every full-length input start on
 * 16 bytes, each thread moves 16-byte vectors (float4, double2): RN_EW_UNROLL
 * of them loaded, then computed, then stored, so that 64 bytes per input
 * and thread are in flight (PyTorch: 128 threads, 4 elements a thread and
 * a vector of 4); the n % (16 / sizeof(T)) elements past the last whole
 * vector are a scalar tail.  Otherwise (a chunk of io: overlap that starts
 * mid-vector) the same loop runs on single elements.  Enough blocks for
 * every element in one pass up to RN_EW_MAX_BLOCKS (a grid-stride loop
 * takes the rest): 2^28 floats are 131072 blocks of 128 threads.  ptxas
 * (nvcc 13.0, sm_90, nested_sin's sine) gives the vector kernel 40
 * registers a thread in f32 (44 in f64), so at most 12 blocks (10 in f64)
 * are resident per SM, not the 16 that 2048 threads would allow: 12 x 128
 * threads x 64 bytes = 96 KiB in flight per SM.
 *
 * f is a functor with a __device__ operator() taking NIN values of T; each
 * element gets exactly the operations it got in a one-element-per-thread
 * loop, so results are bit-identical whichever path runs.
 *
 * The kernels have no cross-thread synchronisation, so RN_HOST_KERNELS
 * compiles them as host C++ (host_kernels.h: a launch is a loop over every
 * block and thread) for tests/hostk/, under AddressSanitizer and UBSan's
 * alignment check (doc/contributing/testing.md#gpu-code-on-the-cpu).
 * RN_SEED_FAULT=1..3 builds a seeded fault that those tests must catch: 1 the
 * tail one element short, 2 the vector path taken on 4-byte alignment, 3 a
 * missing bound check on the vector loads. */
#ifndef BACKENDS_CUDA_ELEMENTWISE_H
#define BACKENDS_CUDA_ELEMENTWISE_H

#ifdef RN_HOST_KERNELS
#include "host_kernels.h"
#else
#include <cuda_runtime.h>
#endif
#include <stddef.h>
#include <stdint.h>

#ifndef RN_SEED_FAULT
#define RN_SEED_FAULT 0
#endif

#define RN_EW_THREADS 128
#define RN_EW_UNROLL 4
/* the tests lower it to reach the grid-stride loop's later passes at small n */
#ifndef RN_EW_MAX_BLOCKS
#define RN_EW_MAX_BLOCKS (1u << 20)
#endif

/* 16 bytes of T, aligned so that one load or store moves them */
template <typename T> struct alignas(16) rn_pack {
    static constexpr int n = 16 / (int)sizeof(T);
    T v[n];
};

/* What one pass reads and writes. */
template <typename T, int NIN> struct rn_ew_args {
    T *y;
    const T *x[NIN];
    int one[NIN]; /* x[j] has one element, for every i */
    size_t n;
};

template <typename T, int NIN, typename F>
__device__ __forceinline__ T rn_ew_apply(const F &f, const T (&v)[NIN])
{
    if constexpr (NIN == 1)
        return f(v[0]);
    else if constexpr (NIN == 2)
        return f(v[0], v[1]);
    else
        return f(v[0], v[1], v[2]);
}

/* Element i, one at a time (the tail, and the unaligned path). */
template <typename T, int NIN, typename F>
__device__ __forceinline__ void rn_ew_one(const rn_ew_args<T, NIN> &a, const F &f, size_t i)
{
    T v[NIN];
#pragma unroll
    for (int j = 0; j < NIN; j++)
        v[j] = a.x[j][a.one[j] ? 0 : i];
    a.y[i] = rn_ew_apply<T, NIN>(f, v);
}

/* The vector path: whole vectors base + k * blockDim.x (k < RN_EW_UNROLL),
 * so that each of a warp's loads is 512 contiguous bytes, then the tail. */
template <typename T, int NIN, typename F>
__global__ void __launch_bounds__(RN_EW_THREADS) rn_ew_vec(rn_ew_args<T, NIN> a, F f)
{
    typedef rn_pack<T> P;
    constexpr int V = P::n;
    const size_t nvec = a.n / V;
    const size_t step = (size_t)gridDim.x * RN_EW_THREADS * RN_EW_UNROLL;
    for (size_t base = (size_t)blockIdx.x * RN_EW_THREADS * RN_EW_UNROLL + threadIdx.x;
         base < nvec; base += step) {
        P in[NIN][RN_EW_UNROLL];
#pragma unroll
        for (int k = 0; k < RN_EW_UNROLL; k++) {
            size_t q = base + (size_t)k * RN_EW_THREADS;
#pragma unroll
            for (int j = 0; j < NIN; j++) {
                if (a.one[j]) {
#pragma unroll
                    for (int e = 0; e < V; e++)
                        in[j][k].v[e] = a.x[j][0];
                } else if (q < nvec || RN_SEED_FAULT == 3) {
                    in[j][k] = reinterpret_cast<const P *>(a.x[j])[q];
                }
            }
        }
#pragma unroll
        for (int k = 0; k < RN_EW_UNROLL; k++) {
            size_t q = base + (size_t)k * RN_EW_THREADS;
            if (q >= nvec)
                break;
            P out;
#pragma unroll
            for (int e = 0; e < V; e++) {
                T v[NIN];
#pragma unroll
                for (int j = 0; j < NIN; j++)
                    v[j] = in[j][k].v[e];
                out.v[e] = rn_ew_apply<T, NIN>(f, v);
            }
            reinterpret_cast<P *>(a.y)[q] = out;
        }
    }
    /* the tail: fewer than V elements, one a thread of the first block */
    size_t i = nvec * V + (size_t)blockIdx.x * RN_EW_THREADS + threadIdx.x;
    if (blockIdx.x == 0 && i + (RN_SEED_FAULT == 1) < a.n)
        rn_ew_one<T, NIN>(a, f, i);
}

/* The unaligned path: the same loop on single elements. */
template <typename T, int NIN, typename F>
__global__ void __launch_bounds__(RN_EW_THREADS) rn_ew_scalar(rn_ew_args<T, NIN> a, F f)
{
    const size_t step = (size_t)gridDim.x * RN_EW_THREADS * RN_EW_UNROLL;
    for (size_t base = (size_t)blockIdx.x * RN_EW_THREADS * RN_EW_UNROLL + threadIdx.x;
         base < a.n; base += step) {
        T in[NIN][RN_EW_UNROLL];
#pragma unroll
        for (int k = 0; k < RN_EW_UNROLL; k++) {
            size_t i = base + (size_t)k * RN_EW_THREADS;
#pragma unroll
            for (int j = 0; j < NIN; j++)
                if (i < a.n)
                    in[j][k] = a.x[j][a.one[j] ? 0 : i];
        }
#pragma unroll
        for (int k = 0; k < RN_EW_UNROLL; k++) {
            size_t i = base + (size_t)k * RN_EW_THREADS;
            if (i >= a.n)
                break;
            T v[NIN];
#pragma unroll
            for (int j = 0; j < NIN; j++)
                v[j] = in[j][k];
            a.y[i] = rn_ew_apply<T, NIN>(f, v);
        }
    }
}

static inline unsigned rn_ew_blocks(size_t units)
{
    size_t per = (size_t)RN_EW_THREADS * RN_EW_UNROLL;
    size_t b = (units + per - 1) / per;
    if (b > RN_EW_MAX_BLOCKS)
        b = RN_EW_MAX_BLOCKS;
    return b ? (unsigned)b : 1u;
}

/* Launches y = f(x...) over a.n elements on stream st (a launch error is left
 * for the caller's CK_LAUNCH).  n == 0 launches nothing. */
template <typename T, int NIN, typename F>
static inline void rn_ew_launch(const rn_ew_args<T, NIN> &a, const F &f, cudaStream_t st)
{
    if (a.n == 0)
        return;
    uintptr_t bits = (uintptr_t)a.y;
    for (int j = 0; j < NIN; j++)
        if (!a.one[j])
            bits |= (uintptr_t)a.x[j];
    if (bits % (RN_SEED_FAULT == 2 ? 4 : 16) == 0)
#ifndef RN_HOST_KERNELS
        rn_ew_vec<T, NIN, F><<<rn_ew_blocks(a.n / rn_pack<T>::n), RN_EW_THREADS, 0, st>>>(a, f);
    else
        rn_ew_scalar<T, NIN, F><<<rn_ew_blocks(a.n), RN_EW_THREADS, 0, st>>>(a, f);
#else
        rn_host_launch(rn_ew_blocks(a.n / rn_pack<T>::n), RN_EW_THREADS, st,
                       [&] { rn_ew_vec<T, NIN, F>(a, f); });
    else
        rn_host_launch(rn_ew_blocks(a.n), RN_EW_THREADS, st, [&] { rn_ew_scalar<T, NIN, F>(a, f); });
#endif
}

/* The common cases: one input, and two of full length. */
template <typename T, typename F>
static inline void rn_ew_map1(T *y, const T *x, size_t n, const F &f, cudaStream_t st)
{
    rn_ew_args<T, 1> a = {y, {x}, {0}, n};
    rn_ew_launch<T, 1>(a, f, st);
}

template <typename T, typename F>
static inline void rn_ew_map2(T *y, const T *x0, const T *x1, size_t n, const F &f,
                              cudaStream_t st)
{
    rn_ew_args<T, 2> a = {y, {x0, x1}, {0, 0}, n};
    rn_ew_launch<T, 2>(a, f, st);
}

#endif
