/* vmath.h - vector code generation for the element-wise kernels.
 *
 * CPU_CLONES compiles a kernel three times (AVX-512, AVX2, baseline SSE2)
 * and picks the variant for the running CPU at load time (an ifunc), so the
 * one binary is fast on any x86-64 machine without -march=native.
 *
 * glibc's libmvec has vector sinf/sin (_ZGVeN16v_sinf, _ZGVdN8v_sinf, ...),
 * but <math.h> only announces them under -ffast-math, which we do not want
 * for the whole build (it would also loosen the reference checks).  We
 * announce them ourselves, so that an `omp simd` loop calling sinf() calls
 * the vector variant: 16 floats per call on AVX-512 instead of one.  They are
 * accurate to a few ulp and do not set errno, which our inputs never need. */
#ifndef BACKENDS_CPU_VMATH_H
#define BACKENDS_CPU_VMATH_H

#include <math.h>

/* Overridable so that the AVX2 and baseline variants can be tested on an
 * AVX-512 machine: -DCPU_CLONES= or -DCPU_CLONES='__attribute__((target("avx2")))'. */
#ifndef CPU_CLONES
#if defined(__x86_64__) && !defined(__clang__)
#define CPU_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CPU_CLONES
#endif
#endif

#if defined(__x86_64__) && defined(__GLIBC__) && !defined(__FAST_MATH__)
#if __GLIBC_PREREQ(2, 22)
float sinf(float) __attribute__((simd("notinbranch")));
double sin(double) __attribute__((simd("notinbranch")));
/* the tensor API's expf and powf (tensor.c, fuse.c: the same variants fused
 * and unfused) */
float expf(float) __attribute__((simd("notinbranch")));
float powf(float, float) __attribute__((simd("notinbranch")));
#endif
#endif

#endif
