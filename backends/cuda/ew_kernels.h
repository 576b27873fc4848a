/* ew_kernels.h - the element-wise computations of nested_sin and axpb
 * (doc/workloads.md#built-in-workloads): the functors their unfused passes
 * give elementwise.h, and nested_sin's fused kernel with its launch.  A
 * header of its own so that tests/hostk/ compiles the same kernels as host
 * code (RN_HOST_KERNELS, host_kernels.h) and runs them on the CPU. */
#ifndef BACKENDS_CUDA_EW_KERNELS_H
#define BACKENDS_CUDA_EW_KERNELS_H

#include "elementwise.h"
#include "host_math.h"

#include <math.h>

template <typename T> __device__ inline T dsin(T x);
template <> __device__ inline float dsin<float>(float x) { return sinf(x); }
template <> __device__ inline double dsin<double>(double x) { return sin(x); }

/* D nested sines (the fused kernel); D == 0 means `depth` of them (a run-time count).  A
 * compile-time count lets the compiler interleave the four independent
 * elements below; the run-time loop is the fallback for unusual depths. */
template <typename T, int D> __device__ inline T nest(T v, int depth)
{
    if (D > 0) {
#pragma unroll
        for (int d = 0; d < D; d++)
            v = dsin<T>(v);
    } else {
        for (int d = 0; d < depth; d++)
            v = dsin<T>(v);
    }
    return v;
}

/* One sine, for the unfused passes (elementwise.h's access pattern, as
 * PyTorch's torch.sin). */
template <typename T> struct sin_op {
    __device__ T operator()(T x) const { return dsin<T>(x); }
};

/* The fused kernel: each thread takes four elements one grid-stride apart: the loads of a warp
 * stay coalesced and four of them are in flight before the first sine. */
template <typename T, int D>
__global__ void sin_kernel(T *__restrict__ y, const T *__restrict__ x, size_t n, int depth)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        T v[4];
#pragma unroll
        for (int k = 0; k < 4; k++)
            v[k] = x[i + k * stride];
#pragma unroll
        for (int k = 0; k < 4; k++)
            v[k] = nest<T, D>(v[k], depth);
#pragma unroll
        for (int k = 0; k < 4; k++)
            y[i + k * stride] = v[k];
    }
    for (; i < n; i += stride)
        y[i] = nest<T, D>(x[i], depth);
}

static inline unsigned grid_for4(size_t n)
{
    return grid_for((n + 3) / 4);
}

/* One launch of `depth` nested sines over len elements. */
#ifndef RN_HOST_KERNELS
template <typename T>
static inline void launch_sin(T *y, const T *x, size_t len, int depth, cudaStream_t st)
{
    unsigned g = grid_for4(len);
    switch (depth) {
    case 1: sin_kernel<T, 1><<<g, 256, 0, st>>>(y, x, len, depth); break;
    case 2: sin_kernel<T, 2><<<g, 256, 0, st>>>(y, x, len, depth); break;
    case 3: sin_kernel<T, 3><<<g, 256, 0, st>>>(y, x, len, depth); break;
    case 4: sin_kernel<T, 4><<<g, 256, 0, st>>>(y, x, len, depth); break;
    default: sin_kernel<T, 0><<<g, 256, 0, st>>>(y, x, len, depth); break;
    }
}
#else
template <typename T>
static inline void launch_sin(T *y, const T *x, size_t len, int depth, cudaStream_t st)
{
    unsigned g = grid_for4(len);
    switch (depth) {
    case 1: rn_host_launch(g, 256, st, [&] { sin_kernel<T, 1>(y, x, len, depth); }); break;
    case 2: rn_host_launch(g, 256, st, [&] { sin_kernel<T, 2>(y, x, len, depth); }); break;
    case 3: rn_host_launch(g, 256, st, [&] { sin_kernel<T, 3>(y, x, len, depth); }); break;
    case 4: rn_host_launch(g, 256, st, [&] { sin_kernel<T, 4>(y, x, len, depth); }); break;
    default: rn_host_launch(g, 256, st, [&] { sin_kernel<T, 0>(y, x, len, depth); }); break;
    }
}
#endif

/* x = -b / a, element by element (elementwise.h's vectorised access) */
template <typename T> struct solve_op {
    __device__ T operator()(T a, T b) const { return -b / a; }
};

#endif
