/* ewise.c - the element-wise kernels of the tensor API (ewise.h).  Even at
 * 1000 numbers a scalar loop costs several times the vector one. */
#include "ewise.h"

#include "vmath.h"

#define UNARY_KERNEL(NAME, EXPR)                                                        \
    CPU_CLONES static void NAME(float *d, const float *s, size_t n, float k)             \
    {                                                                                   \
        (void)k;                                                                        \
        _Pragma("omp simd") for (size_t i = 0; i < n; i++)                              \
        {                                                                               \
            float x = s[i];                                                             \
            d[i] = (EXPR);                                                              \
        }                                                                               \
    }

UNARY_KERNEL(u_neg, -x)
UNARY_KERNEL(u_abs, fabsf(x))
UNARY_KERNEL(u_sin, sinf(x))
UNARY_KERNEL(u_exp, expf(x))
UNARY_KERNEL(u_pow, powf(x, k))
UNARY_KERNEL(u_square, x *x)
UNARY_KERNEL(u_cube, x *x *x)
UNARY_KERNEL(u_sqrt, sqrtf(x))
UNARY_KERNEL(u_recip, 1.0f / x)
UNARY_KERNEL(u_copy, x)
UNARY_KERNEL(u_one, 1.0f + 0.0f * x)

cpu_unary_fn cpu_ew_unary(rn_unary_op op, double k)
{
    switch (op) {
    case RN_UN_NEG:
        return u_neg;
    case RN_UN_ABS:
        return u_abs;
    case RN_UN_SIN:
        return u_sin;
    case RN_UN_EXP:
        return u_exp;
    case RN_UN_POW:
        return k == 2     ? u_square
               : k == 1   ? u_copy
               : k == 0   ? u_one
               : k == 3   ? u_cube
               : k == 0.5 ? u_sqrt
               : k == -1  ? u_recip
                          : u_pow;
    }
    return NULL;
}

#define BINARY_KERNELS(NAME, OP)                                                        \
    CPU_CLONES static void NAME##_vv(float *d, const float *a, const float *b, size_t n)  \
    {                                                                                   \
        _Pragma("omp simd") for (size_t i = 0; i < n; i++) d[i] = a[i] OP b[i];         \
    }                                                                                   \
    CPU_CLONES static void NAME##_sv(float *d, const float *a, const float *b, size_t n)  \
    {                                                                                   \
        float x = a[0];                                                                 \
        _Pragma("omp simd") for (size_t i = 0; i < n; i++) d[i] = x OP b[i];            \
    }                                                                                   \
    CPU_CLONES static void NAME##_vs(float *d, const float *a, const float *b, size_t n)  \
    {                                                                                   \
        float y = b[0];                                                                 \
        _Pragma("omp simd") for (size_t i = 0; i < n; i++) d[i] = a[i] OP y;            \
    }

BINARY_KERNELS(b_add, +)
BINARY_KERNELS(b_sub, -)
BINARY_KERNELS(b_mul, *)
BINARY_KERNELS(b_div, /)

const cpu_binary_fn cpu_ew_binary[4][3] = {
    [RN_BIN_ADD] = {b_add_vv, b_add_sv, b_add_vs},
    [RN_BIN_SUB] = {b_sub_vv, b_sub_sv, b_sub_vs},
    [RN_BIN_MUL] = {b_mul_vv, b_mul_sv, b_mul_vs},
    [RN_BIN_DIV] = {b_div_vv, b_div_sv, b_div_vs},
};
