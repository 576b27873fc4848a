/* mlp_host.cc - mlp_train's CUDA kernels (backends/cuda/mlp_kernels.h)
 * compiled as host code and run on the CPU by tests/hostk/run.sh under
 * AddressSanitizer and UBSan (doc/contributing/testing.md#gpu-code-on-the-cpu):
 * each kernel at the grid mlp_train.cu launches (grid_for) and at grids of
 * 1 to 3 blocks (the grid-stride loop's later passes), over shapes around a
 * block's 256 threads, every buffer its own allocation of exactly its size,
 * each result compared bit for bit with the same arithmetic written as a
 * plain loop.  Exit 0, or 1 with the first difference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "cuda/host_math.h"
#include "cuda/mlp_kernels.h"

static int failures;

template <typename T> static bool same(const std::vector<T> &a, const std::vector<T> &b)
{
    return a.size() == b.size() && memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

#define EXPECT_SAME(a, b, ...)                                                               \
    do {                                                                                     \
        if (!same(a, b) && failures++ < 10) {                                                \
            fprintf(stderr, __VA_ARGS__);                                                    \
            fputc('\n', stderr);                                                             \
        }                                                                                    \
    } while (0)

static float val(size_t i, int k)
{
    return (float)((int)((i * 2654435761u + (unsigned)k * 97u) % 2001) - 1000) / 250.0f;
}

static std::vector<float> vec(size_t n, int k)
{
    std::vector<float> v(n);
    for (size_t i = 0; i < n; i++)
        v[i] = val(i, k);
    return v;
}

/* every grid to try for n elements */
static std::vector<unsigned> grids(size_t n)
{
    return {grid_for(n), 1u, 2u, 3u};
}

static void one_shape(int B, int f, int C)
{
    int rows = B + 5;
    size_t nb = (size_t)B * f, nz = (size_t)B * C;
    std::vector<float> X = vec((size_t)rows * f, 1), bias = vec((size_t)C, 2), z0 = vec(nz, 3);
    std::vector<int> Y(rows), perm(B);
    for (int r = 0; r < rows; r++)
        Y[r] = (r * 7) % C;
    for (int r = 0; r < B; r++)
        perm[r] = (r * 13 + 5) % rows;
    for (unsigned g : grids(nb)) {
        /* gather */
        std::vector<float> xb(nb, NAN), want(nb);
        std::vector<int> yb(B, -1), ywant(B);
        for (int r = 0; r < B; r++) {
            for (int c = 0; c < f; c++)
                want[(size_t)r * f + c] = X[(size_t)perm[r] * f + c];
            ywant[r] = Y[perm[r]];
        }
        rn_host_launch(g, 256, nullptr, [&] {
            mlp_k_gather(X.data(), Y.data(), perm.data(), B, f, xb.data(), yb.data());
        });
        EXPECT_SAME(xb, want, "mlp_k_gather B=%d f=%d grid %u: features differ", B, f, g);
        EXPECT_SAME(yb, ywant, "mlp_k_gather B=%d f=%d grid %u: labels differ", B, f, g);
    }
    for (unsigned g : grids(nz)) {
        /* bias + ReLU */
        std::vector<float> z = z0, want = z0;
        for (size_t i = 0; i < nz; i++) {
            float v = want[i] + bias[i % (size_t)C];
            want[i] = v > 0.0f ? v : 0.0f;
        }
        rn_host_launch(g, 256, nullptr, [&] { mlp_k_bias_relu(z.data(), bias.data(), B, C); });
        EXPECT_SAME(z, want, "mlp_k_bias_relu B=%d out=%d grid %u", B, C, g);
        /* the ReLU mask */
        std::vector<float> d = vec(nz, 4), dwant = d;
        for (size_t i = 0; i < nz; i++)
            dwant[i] = z0[i] > 0.0f ? dwant[i] : 0.0f;
        rn_host_launch(g, 256, nullptr, [&] { mlp_k_relu_mask(d.data(), z0.data(), nz); });
        EXPECT_SAME(d, dwant, "mlp_k_relu_mask n=%zu grid %u", nz, g);
        /* fill */
        std::vector<float> x(nz, NAN), xwant(nz, 0.5f);
        rn_host_launch(g, 256, nullptr, [&] { mlp_k_fill(x.data(), nz, 0.5f); });
        EXPECT_SAME(x, xwant, "mlp_k_fill n=%zu grid %u", nz, g);
    }
    for (unsigned g : grids((size_t)B)) {
        /* softmax cross-entropy gradient, one thread a row */
        std::vector<float> dz(nz, NAN), want(nz);
        for (int r = 0; r < B; r++) {
            const float *zr = z0.data() + (size_t)r * C;
            float mx = zr[0] + bias[0];
            for (int j = 1; j < C; j++)
                mx = fmaxf(mx, zr[j] + bias[j]);
            float s = 0.0f;
            for (int j = 0; j < C; j++)
                s += expf(zr[j] + bias[j] - mx);
            float inv_s = 1.0f / s, inv_b = 1.0f / (float)B;
            for (int j = 0; j < C; j++)
                want[(size_t)r * C + j] =
                    (expf(zr[j] + bias[j] - mx) * inv_s - (j == Y[r] ? 1.0f : 0.0f)) * inv_b;
        }
        rn_host_launch(g, 256, nullptr, [&] {
            mlp_k_softmax_xent(z0.data(), bias.data(), Y.data(), B, C, dz.data());
        });
        EXPECT_SAME(dz, want, "mlp_k_softmax_xent B=%d C=%d grid %u", B, C, g);
    }
}

static void adamw(size_t n, size_t nw)
{
    for (unsigned g : grids(n)) {
        std::vector<float> p = vec(n, 5), gr = vec(n, 6), m = vec(n, 7), v(n);
        for (size_t i = 0; i < n; i++)
            v[i] = fabsf(val(i, 8));
        std::vector<float> pw = p, mw = m, vw = v;
        const float b1 = (float)MLP_BETA1, b2 = (float)MLP_BETA2, eps = (float)MLP_EPS;
        const float decay = 0.999f, step = 1e-3f, inv_bc2s = 0.7f;
        for (size_t i = 0; i < n; i++) {
            float gi = gr[i];
            float mi = b1 * mw[i] + (1.0f - b1) * gi;
            float vi = b2 * vw[i] + (1.0f - b2) * gi * gi;
            mw[i] = mi;
            vw[i] = vi;
            pw[i] = pw[i] * (i < nw ? decay : 1.0f) - step * mi / (sqrtf(vi) * inv_bc2s + eps);
        }
        rn_host_launch(g, 256, nullptr, [&] {
            mlp_k_adamw(p.data(), gr.data(), m.data(), v.data(), n, nw, decay, step, inv_bc2s);
        });
        EXPECT_SAME(p, pw, "mlp_k_adamw n=%zu grid %u: parameters", n, g);
        EXPECT_SAME(m, mw, "mlp_k_adamw n=%zu grid %u: first moments", n, g);
        EXPECT_SAME(v, vw, "mlp_k_adamw n=%zu grid %u: second moments", n, g);
    }
}

int main(void)
{
    int shapes = 0;
    for (int B : {1, 3, 255, 256, 257, 700})
        for (int f : {1, 2, 7, 64})
            for (int C : {1, 2, 10, 33}) {
                one_shape(B, f, C);
                shapes++;
            }
    for (size_t n : {1u, 255u, 256u, 257u, 1000u, 5000u})
        adamw(n, n / 2);
    if (failures) {
        printf("mlp_host: %d kernels differ (above)\n", failures);
        return 1;
    }
    printf("mlp_train's 6 kernels matched on %d shapes and 6 AdamW sizes, 4 grids each\n", shapes);
    return 0;
}
