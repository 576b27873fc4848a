/* verify_tol.h - the tolerances and comparisons that check() uses, shared by
 * the CPU backend (C) and the CUDA backend (nvcc, host code) so that both
 * judge a result by the same rule, and so that the Criterion tests can
 * exercise them without a GPU (doc/workloads.md#verification).
 *
 * Everything here is static inline, plain C that also compiles as C++. */
#ifndef BACKENDS_VERIFY_TOL_H
#define BACKENDS_VERIFY_TOL_H

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "backend.h"

/* Relative error of got against ref; |got| when ref is 0 (an absolute test
 * only there).  No absolute floor anywhere else: a floor of 1e-6 swallowed a
 * 1e-12 relative tolerance, so an f64 result computed in f32 passed. */
static inline double rn_rel_error(double got, double ref)
{
    if (got == ref)
        return 0;
    if (ref == 0)
        return fabs(got);
    return fabs(got - ref) / fabs(ref);
}

/* 1 when got is within tol of ref (relative); NaN never is, an exact match
 * always is. */
static inline int rn_within(double got, double ref, double tol)
{
    if (got == ref)
        return 1;
    if (got != got || ref != ref)
        return 0;
    return rn_rel_error(got, ref) <= tol;
}

/* nested_sin: sin / sinf (libmvec, CUDA) are within 4 ulp; the errors add up
 * over the depth (sin neither amplifies nor damps relative errors much on
 * [0, 1)).  f64: 1e-12 at least, far below f32's 6e-8 rounding. */
static inline double rn_tol_nested_sin(rn_dtype d, int depth)
{
    double eps = d == RN_F64 ? DBL_EPSILON : FLT_EPSILON;
    double lo = d == RN_F64 ? 1e-12 : 1e-5;
    double t = 4.0 * depth * eps;
    return t > lo ? t : lo;
}

/* axpb: one correctly rounded division (IEEE on the CPU and in CUDA without
 * fast math): half an ulp, with margin. */
static inline double rn_tol_axpb(rn_dtype d)
{
    return d == RN_F64 ? 1e-15 : 1e-6;
}

/* matmul on the GPU, relative, per entry of C = A B with inputs uniform on
 * [0, 1) (every term positive, no cancellation; the reference sums the
 * dtype-rounded inputs in double):
 *   f16 / bf16  FP32 accumulation, then C rounded to the dtype: half an ulp
 *               of the output (2^-11 = 4.9e-4 for f16, 2^-8 = 3.9e-3 for
 *               bf16) plus the FP32 sum's error, which grows at worst like
 *               k * 2^-24 (3e-5 at k = 512): 2e-3 and 8e-3 leave a margin of
 *               about 4x and 2x over the output rounding, where the former
 *               1e-2 let a result 20 f16 ulps off pass;
 *   tf32        10-bit mantissa inputs: 2e-3;
 *   f32 / f64   sqrt(k) growth of the sum's rounding, as on the CPU. */
static inline double rn_tol_matmul(rn_dtype d, int tf32, double k)
{
    double acc = (k > 0 ? k : 0) * ldexp(1.0, -24);
    if (d == RN_F16)
        return 2e-3 + acc;
    if (d == RN_BF16)
        return 8e-3 + acc;
    if (d == RN_F64)
        return 1e-12;
    if (tf32)
        return 2e-3;
    double t = 1e-5 * sqrt(k > 0 ? k : 0) / 8;
    return t > 1e-5 ? t : 1e-5;
}

/* sumsq on the GPU: f32 squares (each within 2^-24 relative of the double
 * square, all positive) summed in double: the sum is within ~6e-8. */
static inline double rn_tol_sumsq_gpu(void)
{
    return 1e-6;
}

/* memcpy's pattern: byte i of a trial with seed `seed`.  131 is odd, so any
 * 256 consecutive bytes take every value once: a poisoned destination (one
 * value everywhere) matches at most one of them. */
static inline unsigned char rn_pattern_byte(size_t i, uint64_t seed)
{
    return (unsigned char)(i * 131 + seed);
}

/* The value destinations are cleared to before a copy (doc/workloads.md#built-in-workloads). */
#define RN_POISON_BYTE 0xA5

/* Index of the first byte of buf[0..n) (bytes off..off+n of the copy) that
 * differs from the pattern, or (size_t)-1 when all match. */
static inline size_t rn_pattern_mismatch(const unsigned char *buf, size_t off, size_t n,
                                         uint64_t seed)
{
    for (size_t i = 0; i < n; i++)
        if (buf[i] != rn_pattern_byte(off + i, seed))
            return off + i;
    return (size_t)-1;
}

/* The workloads' fault-injection parameter (doc/workloads.md#fault-injection):
 * 0 none, 1 skip_copy, 2 skip_kernel. */
enum { RN_INJECT_NONE = 0, RN_INJECT_SKIP_COPY = 1, RN_INJECT_SKIP_KERNEL = 2 };

static inline int rn_inject(const rn_trial *t)
{
    const char *v = rn_param_text(t, "inject", "none");
    return !strcmp(v, "skip_copy") ? RN_INJECT_SKIP_COPY
           : !strcmp(v, "skip_kernel") ? RN_INJECT_SKIP_KERNEL
                                       : RN_INJECT_NONE;
}

/* host_memory (doc/workloads.md#built-in-workloads): 1 pinned, 0 pageable.  `auto` (the
 * default) keeps each io mode's former choice: pinned for io: overlap (an
 * async copy from pageable memory does not overlap), pageable otherwise;
 * memcpy's `auto` follows its older `pinned` parameter. */
static inline int rn_host_pinned(const rn_trial *t)
{
    const char *v = rn_param_text(t, "host_memory", "auto");
    if (!strcmp(v, "pinned"))
        return 1;
    if (!strcmp(v, "pageable"))
        return 0;
    if (rn_trial_param(t, "pinned"))
        return rn_param_num(t, "pinned", 1) != 0;
    return t->io == RN_IO_OVERLAP;
}

#endif
