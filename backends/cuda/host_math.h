/* host_math.h - the CUDA backend's host-side index arithmetic, in plain C
 * (no CUDA header): the chunks of io: overlap, grid sizes, and which
 * elements check() compares.  Plain so that the tests compile it on a
 * machine without a GPU (tests/test_cuda_check.c, tests/hostk/). */
#ifndef BACKENDS_CUDA_HOST_MATH_H
#define BACKENDS_CUDA_HOST_MATH_H

#include <stddef.h>
#include <stdint.h>

/* io: overlap's chunks (frame.h cuda_array_run) */
#define RN_CUDA_CHUNKS 16

/* Chunk c of `chunks` equal ones (the last shorter) over n elements: its
 * first element in *off and its length, 0 past the end. */
static inline size_t chunk_of(size_t n, int chunks, int c, size_t *off)
{
    size_t per = (n + (size_t)chunks - 1) / (size_t)chunks;
    *off = (size_t)c * per;
    return *off >= n ? 0 : *off + per > n ? n - *off : per;
}

/* Threads per block and blocks for n elements (grid-stride loops). */
static inline unsigned grid_for(size_t n)
{
    size_t b = (n + 255) / 256;
    if (b > 65535u * 16)
        b = 65535u * 16;
    return b ? (unsigned)b : 1u;
}

/* check()'s sample of an output of n elements (doc/workloads.md#verification):
 * every element up to RN_CHECK_ALL; above, RN_CHECK_SAMPLES of them, where
 * a GPU kernel's index math goes wrong first:
 *   - the first and the last RN_CHECK_EDGE (the element-wise kernels' scalar
 *     tail is the last n % 4 at most);
 *   - both sides of every power of two from 2^12 below n: where a
 *     grid-stride loop's second pass starts (elementwise.h at its block cap:
 *     2^29 vectors, 2^31 floats or 2^30 doubles; the scalar path 2^29
 *     elements; grid_for's cap 2^28 threads) and where a 32-bit index
 *     overflows (2^31, 2^32);
 *   - the first two and the last two of each io: overlap chunk (each chunk
 *     is a launch of its own, with its own tail);
 *   - the rest spread by a multiplicative hash.
 * Element q (q < check_count(n)) of the sample; the same on every run. */
#define RN_CHECK_ALL 4096
#define RN_CHECK_SAMPLES 256
#define RN_CHECK_EDGE 8

static inline int check_count(size_t n)
{
    return n <= RN_CHECK_ALL ? (int)n : RN_CHECK_SAMPLES;
}

/* the powers of two 2^12 .. below n, each giving two elements */
static inline int check_pow2s(size_t n)
{
    int k = 0;
    while (12 + k < 63 && ((size_t)1 << (12 + k)) < n)
        k++;
    return k;
}

static inline size_t check_index(size_t n, int q)
{
    if (n <= RN_CHECK_ALL)
        return (size_t)q;
    if (q < RN_CHECK_EDGE)
        return (size_t)q;
    q -= RN_CHECK_EDGE;
    if (q < RN_CHECK_EDGE)
        return n - RN_CHECK_EDGE + (size_t)q;
    q -= RN_CHECK_EDGE;
    int p = 2 * check_pow2s(n);
    if (q < p)
        return ((size_t)1 << (12 + q / 2)) - 1 + (size_t)(q % 2);
    q -= p;
    if (q < 4 * RN_CUDA_CHUNKS) {
        size_t off, len = chunk_of(n, RN_CUDA_CHUNKS, q / 4, &off);
        int e = q % 4; /* first, second, second to last, last */
        return len == 0 ? n - 1 : e < 2 ? off + (size_t)e : off + len - (size_t)(4 - e);
    }
    q += p + 2 * RN_CHECK_EDGE;
    return (size_t)(((uint64_t)q * 2654435761ull) % n);
}

#endif
