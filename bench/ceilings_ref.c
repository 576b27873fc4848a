/* ceilings_ref.c - bare references for bench/ceilings.sh
 * (doc/ceilings.md#the-ceilings): OpenBLAS SGEMM and DGEMM at n = 2048 on
 * one thread and on all, and a plain triad loop, each the best of 7 runs.
 * Prints "name value" lines (GFLOP/s, GB/s). */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void openblas_set_num_threads(int n);
int openblas_get_num_procs(void);

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double gemm(int f64, int threads)
{
    const int n = 2048;
    openblas_set_num_threads(threads);
    size_t e = (size_t)n * n;
    void *a = malloc(e * 8), *b = malloc(e * 8), *c = malloc(e * 8);
    for (size_t i = 0; i < e; i++) {
        if (f64)
            ((double *)a)[i] = 1e-3 * (double)(i % 97), ((double *)b)[i] = 1e-3 * (double)(i % 89);
        else
            ((float *)a)[i] = 1e-3f * (float)(i % 97), ((float *)b)[i] = 1e-3f * (float)(i % 89);
    }
    double best = INFINITY;
    for (int r = 0; r < 8; r++) {
        double t0 = now();
        if (f64)
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, a, n, b, n, 0, c, n);
        else
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, a, n, b, n, 0, c, n);
        double dt = now() - t0;
        if (r && dt < best)
            best = dt;
    }
    free(a), free(b), free(c);
    return 2.0 * n * (double)n * n / best / 1e9;
}

static double triad(void)
{
    size_t n = (size_t)32 << 20 >> 3; /* 32 MiB arrays */
    double *a = malloc(n * 8), *b = malloc(n * 8), *c = malloc(n * 8);
    for (size_t i = 0; i < n; i++)
        a[i] = 0, b[i] = (double)i, c[i] = (double)(i ^ 0x5555);
    double best = INFINITY;
    for (int r = 0; r < 8; r++) {
        double t0 = now();
#pragma omp parallel for
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] + 3.0 * c[i];
        double dt = now() - t0;
        if (r && dt < best)
            best = dt;
    }
    double s = a[n / 2];
    free(a), free(b), free(c);
    return s < 0 ? 0 : 3.0 * (double)n * 8 / best / 1e9;
}

int main(void)
{
    int all = openblas_get_num_procs();
    printf("sgemm_1core %.4g\n", gemm(0, 1));
    printf("dgemm_1core %.4g\n", gemm(1, 1));
    printf("sgemm %.4g\n", gemm(0, all));
    printf("dgemm %.4g\n", gemm(1, all));
    printf("triad %.4g\n", triad());
    return 0;
}
