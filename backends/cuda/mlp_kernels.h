/* mlp_kernels.h - mlp_train's own kernels on CUDA (mlp_train.cu):
 * grid-stride loops, 256 threads a block, no cross-thread
 * synchronisation, so that tests/hostk/mlp_host.cc runs them on the CPU as
 * host code (RN_HOST_KERNELS, host_kernels.h) under ASan and UBSan. */
#ifndef BACKENDS_CUDA_MLP_KERNELS_H
#define BACKENDS_CUDA_MLP_KERNELS_H

#ifdef RN_HOST_KERNELS
#include "host_kernels.h"
#else
#include <cuda_runtime.h>
#endif
#include "mlp_data.h"

#include <math.h>
#include <stddef.h>


#define MLP_GRID_LOOP(i, n)                                                                        \
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < (n);                        \
         i += (size_t)gridDim.x * blockDim.x)

/* xb[r][c] = X[perm[r]][c], yb[r] = Y[perm[r]] */
__global__ void mlp_k_gather(const float *X, const int *Y, const int *perm, int B, int f,
                             float *xb, int *yb)
{
    MLP_GRID_LOOP(i, (size_t)B * f)
    {
        size_t r = i / (size_t)f, c = i % (size_t)f;
        int src = perm[r];
        xb[i] = X[(size_t)src * f + c];
        if (c == 0)
            yb[r] = Y[src];
    }
}

/* z = max(z + b, 0), z: B x out row-major */
__global__ void mlp_k_bias_relu(float *z, const float *b, int B, int out)
{
    MLP_GRID_LOOP(i, (size_t)B * out)
    {
        float v = z[i] + b[i % (size_t)out];
        z[i] = v > 0.0f ? v : 0.0f;
    }
}

/* dz = (softmax(z + b) - onehot(y)) / B, one thread a row */
__global__ void mlp_k_softmax_xent(const float *z, const float *b, const int *y, int B, int C,
                                   float *dz)
{
    MLP_GRID_LOOP(r, (size_t)B)
    {
        const float *zr = z + r * C;
        float *dr = dz + r * C;
        float mx = zr[0] + b[0];
        for (int j = 1; j < C; j++)
            mx = fmaxf(mx, zr[j] + b[j]);
        float s = 0.0f;
        for (int j = 0; j < C; j++)
            s += expf(zr[j] + b[j] - mx);
        float inv_s = 1.0f / s, inv_b = 1.0f / (float)B;
        int t = y[r];
        for (int j = 0; j < C; j++)
            dr[j] = (expf(zr[j] + b[j] - mx) * inv_s - (j == t ? 1.0f : 0.0f)) * inv_b;
    }
}

/* d = 0 where the ReLU output a is 0 */
__global__ void mlp_k_relu_mask(float *d, const float *a, size_t n)
{
    MLP_GRID_LOOP(i, n)
    {
        d[i] = a[i] > 0.0f ? d[i] : 0.0f;
    }
}

/* AdamW (mlp_data.h): the first nw parameters are weights (decayed) */
__global__ void mlp_k_adamw(float *p, const float *g, float *m, float *v, size_t n, size_t nw,
                            float decay, float step, float inv_bc2s)
{
    const float b1 = (float)MLP_BETA1, b2 = (float)MLP_BETA2, eps = (float)MLP_EPS;
    MLP_GRID_LOOP(i, n)
    {
        float gi = g[i];
        float mi = b1 * m[i] + (1.0f - b1) * gi;
        float vi = b2 * v[i] + (1.0f - b2) * gi * gi;
        m[i] = mi;
        v[i] = vi;
        p[i] = p[i] * (i < nw ? decay : 1.0f) - step * mi / (sqrtf(vi) * inv_bc2s + eps);
    }
}

__global__ void mlp_k_fill(float *x, size_t n, float value)
{
    MLP_GRID_LOOP(i, n)
    {
        x[i] = value;
    }
}

#endif
