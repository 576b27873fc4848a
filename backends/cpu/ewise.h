/* ewise.h - the element-wise f32 kernels of the tensor API, written once
 * for its unfused ops (tensor.c) and its fused expressions (fuse.c), so that
 * a fused result equals the unfused ops' bit for bit
 * (doc/lua.md#fused-expressions).  Each is an `omp simd` loop compiled per
 * ISA (CPU_CLONES, vmath.h); the destination may be an operand (in place). */
#ifndef BACKENDS_CPU_EWISE_H
#define BACKENDS_CPU_EWISE_H

#include <stddef.h>

#include "backend.h"

/* d[i] = op(s[i]) for i < n; k: pow's exponent */
typedef void (*cpu_unary_fn)(float *d, const float *s, size_t n, float k);
/* d[i] = a[i] op b[i] for i < n */
typedef void (*cpu_binary_fn)(float *d, const float *a, const float *b, size_t n);

/* The kernel of `op` (RN_UN_POW: for exponent k, with the special cases 2,
 * 1, 0, 3, 0.5 and -1 that powf would compute more slowly), or NULL for an
 * unknown op. */
cpu_unary_fn cpu_ew_unary(rn_unary_op op, double k);

/* The kernels of the binary ops, [rn_binary_op][shape]: shape 0 operands of
 * equal sizes, 1 a one-element left operand (a[0] for all), 2 a one-element
 * right operand. */
extern const cpu_binary_fn cpu_ew_binary[4][3];

#endif
