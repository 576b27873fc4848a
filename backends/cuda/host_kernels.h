/* host_kernels.h - just enough of CUDA, as host C++, to run a kernel
 * without cross-thread synchronisation (no __syncthreads, no shared
 * memory, no warp intrinsics) on the CPU: the keywords, the built-in
 * indices, and a launch that calls the kernel's body once for every block
 * and thread, one after another.  Included instead of <cuda_runtime.h>
 * when RN_HOST_KERNELS is defined (elementwise.h, ew_kernels.h); only the
 * tests build that way (tests/hostk/, doc/contributing/testing.md#gpu-code-on-the-cpu):
 * under AddressSanitizer every read and write a thread makes is checked
 * against its buffer's bounds, and UBSan's alignment check fails a 16-byte
 * vector load from an address not on 16 bytes, as the GPU would fault. */
#ifndef BACKENDS_CUDA_HOST_KERNELS_H
#define BACKENDS_CUDA_HOST_KERNELS_H

#ifndef RN_HOST_KERNELS
#error "host_kernels.h is for host builds of the kernels (RN_HOST_KERNELS)"
#endif

#include <stddef.h>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)

struct rn_host_dim {
    unsigned x, y, z;
};
inline thread_local rn_host_dim blockIdx, threadIdx, gridDim, blockDim;

typedef struct rn_host_stream *cudaStream_t;

/* What the launches did, for the tests: how many, and the last one's grid. */
inline thread_local unsigned long rn_host_launches;
inline thread_local unsigned rn_host_last_grid;

/* kernel<<<grid, threads, 0, st>>>(...): body() once for every block and
 * thread, in order (a kernel that needs them to run together cannot be
 * tested this way). */
template <typename B>
inline void rn_host_launch(unsigned grid, unsigned threads, cudaStream_t st, B body)
{
    (void)st;
    rn_host_launches++;
    rn_host_last_grid = grid;
    gridDim = {grid, 1, 1};
    blockDim = {threads, 1, 1};
    for (unsigned b = 0; b < grid; b++)
        for (unsigned t = 0; t < threads; t++) {
            blockIdx = {b, 0, 0};
            threadIdx = {t, 0, 0};
            body();
        }
}

#endif
