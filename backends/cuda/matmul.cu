/* matmul.cu - GEMM through cuBLAS in f32, f64, f16 and bf16, with the
 * copies timed (io: with), without them (io: without), or pipelined over
 * three streams in row chunks of A and C (io: overlap). */
#include "cuda_backend.h"
#include "verify_tol.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NSTREAMS 3

typedef struct mm {
    int m, n, k;
    rn_dtype dt;
    rn_io io;
    cublasMath_t math;
    size_t esz;
    int pinned, inject, hold; /* hold: blocking_kernel */
    void *hA, *hB, *hC;
    void *dA, *dB, *dC;
    cudaEvent_t b_ready;
    cuda_lanes ln; /* NSTREAMS streams, their end events, the timer */
} mm;

static cudaDataType_t cuda_type(rn_dtype d)
{
    return d == RN_F16 ? CUDA_R_16F : d == RN_BF16 ? CUDA_R_16BF : d == RN_F64 ? CUDA_R_64F
                                                                                  : CUDA_R_32F;
}

/* element i of a host buffer of dtype d, as a double */
static double get(const void *p, rn_dtype d, size_t i)
{
    switch (d) {
    case RN_F32:
        return ((const float *)p)[i];
    case RN_F64:
        return ((const double *)p)[i];
    case RN_F16:
        return __half2float(((const __half *)p)[i]);
    default:
        return __bfloat162float(((const __nv_bfloat16 *)p)[i]);
    }
}

/* host inputs: the CPU backend's uniform numbers, rounded to dtype d; 1
 * when the temporary cannot be had (the trial fails rather than run on
 * uninitialised inputs) */
static int fill(void *p, rn_dtype d, size_t n, uint64_t seed, uint32_t stream, rn_error *err)
{
    float *tmp = (float *)malloc(n * sizeof(float) + 1);
    if (!tmp) {
        snprintf(err->msg, sizeof err->msg, "matmul: out of host memory (%zu inputs)", n);
        return 1;
    }
    host_fill_uniform(tmp, n, seed, stream, 0.0f, 1.0f);
    for (size_t i = 0; i < n; i++) {
        if (d == RN_F32)
            ((float *)p)[i] = tmp[i];
        else if (d == RN_F64)
            ((double *)p)[i] = tmp[i];
        else if (d == RN_F16)
            ((__half *)p)[i] = __float2half(tmp[i]);
        else
            ((__nv_bfloat16 *)p)[i] = __float2bfloat16(tmp[i]);
    }
    free(tmp);
    return 0;
}

static int release_all(mm *s)
{
    cudaFree(s->dA);
    cudaFree(s->dB);
    cudaFree(s->dC);
    host_free(s->hA, s->pinned);
    host_free(s->hB, s->pinned);
    host_free(s->hC, s->pinned);
    lanes_free(&s->ln);
    if (s->b_ready)
        cudaEventDestroy(s->b_ready);
    free(s);
    return 0;
}

static void mm_release(void *state)
{
    if (state)
        release_all((mm *)state);
}

static int mm_setup(mm *s, const rn_trial *t, rn_error *err)
{
    size_t a = (size_t)s->m * s->k, b = (size_t)s->k * s->n, c = (size_t)s->m * s->n;
    s->hA = host_alloc(a * s->esz, s->pinned, err);
    s->hB = host_alloc(b * s->esz, s->pinned, err);
    s->hC = host_alloc(c * s->esz, s->pinned, err);
    if (!s->hA || !s->hB || !s->hC)
        return 1;
    /* streams 0 and 1 of the seed, as on the CPU */
    if (fill(s->hA, s->dt, a, t->seed, 0, err) || fill(s->hB, s->dt, b, t->seed, 1, err))
        return 1;
    CK(cudaMalloc(&s->dA, a * s->esz + 1));
    CK(cudaMalloc(&s->dB, b * s->esz + 1));
    CK(cudaMalloc(&s->dC, c * s->esz + 1));
    if (lanes_init(&s->ln, NSTREAMS, 1, err))
        return 1;
    CK(cudaEventCreateWithFlags(&s->b_ready, cudaEventDisableTiming));
    /* poison (NaN in every dtype) where the run must write: a copy or a
     * GEMM that never ran fails the check (doc/workloads.md#verification) */
    memset(s->hC, 0xff, c * s->esz);
    CK(cudaMemset(s->dC, 0xff, c * s->esz));
    if (s->io == RN_IO_WITHOUT) { /* resident: uploaded once, untimed */
        CK(cudaMemcpy(s->dA, s->hA, a * s->esz, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(s->dB, s->hB, b * s->esz, cudaMemcpyHostToDevice));
    } else {
        CK(cudaMemset(s->dA, 0xff, a * s->esz));
        CK(cudaMemset(s->dB, 0xff, b * s->esz));
    }
    /* a pageable cudaMemcpy may return before its DMA lands, and the memsets
     * run on the legacy stream: run()'s non-blocking streams wait for neither */
    CK(cudaDeviceSynchronize());
    return 0;
}

static int mm_prepare(const rn_trial *t, void **state, rn_error *err)
{
    mm *s = (mm *)state_calloc(sizeof *s, "matmul", err);
    if (!s)
        return 1;
    double m = rn_param_num(t, "m", -1), k = rn_param_num(t, "k", -1);
    s->n = (int)t->size;
    s->m = m >= 0 ? (int)m : s->n;
    s->k = k >= 0 ? (int)k : s->n;
    s->dt = t->dtype;
    s->io = t->io;
    s->esz = rn_dtype_size(t->dtype);
    s->pinned = rn_host_pinned(t);
    s->inject = rn_inject(t);
    s->hold = rn_param_num(t, "blocking_kernel", 0) != 0;
    const char *math = rn_param_text(t, "math", "default");
    s->math = !strcmp(math, "tf32")       ? CUBLAS_TF32_TENSOR_OP_MATH
              : !strcmp(math, "pedantic") ? CUBLAS_PEDANTIC_MATH
                                          : CUBLAS_DEFAULT_MATH;
    return prepare_done(state, s, mm_setup(s, t, err), mm_release);
}

/* C rows [r0, r0+rows) = A rows x B, on stream st.  cuBLAS is column-major:
 * the row-major product is C^T = B^T A^T. */
static int gemm(mm *s, cudaStream_t st, int r0, int rows, rn_error *err)
{
    /* k >= 1 (validation refuses k: 0 and m: 0, doc/workloads.md#built-in-workloads): cuBLAS
     * would reject ld = 0; with n = 0 (size 0) nothing is computed */
    if (rows == 0 || s->n == 0 || s->k == 0 || s->inject == RN_INJECT_SKIP_KERNEL)
        return 0;
    cublasHandle_t h; /* this thread's for stream st: see cuda_blas */
    if (cuda_blas(&h, st, err))
        return 1;
    CKB(cublasSetMathMode(h, s->math));
    const char *A = (const char *)s->dA + (size_t)r0 * s->k * s->esz;
    char *C = (char *)s->dC + (size_t)r0 * s->n * s->esz;
    if (s->dt == RN_F32) {
        const float one = 1, zero = 0;
        CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, s->n, rows, s->k, &one,
                        (const float *)s->dB, s->n, (const float *)A, s->k, &zero, (float *)C,
                        s->n));
    } else if (s->dt == RN_F64) {
        const double one = 1, zero = 0;
        CKB(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, s->n, rows, s->k, &one,
                        (const double *)s->dB, s->n, (const double *)A, s->k, &zero,
                        (double *)C, s->n));
    } else {
        const float one = 1, zero = 0;
        cudaDataType_t ty = cuda_type(s->dt);
        CKB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, s->n, rows, s->k, &one, s->dB, ty,
                         s->n, A, ty, s->k, &zero, C, ty, s->n, CUBLAS_COMPUTE_32F,
                         CUBLAS_GEMM_DEFAULT));
    }
    return 0;
}

/* A timed copy of the run, unless fault injection skips it. */
static cudaError_t mm_copy(mm *s, void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                           cudaStream_t st)
{
    if (s->inject == RN_INJECT_SKIP_COPY)
        return cudaSuccess;
    return cudaMemcpyAsync(dst, src, bytes, kind, st);
}

static int mm_run(void *state, rn_sample *out, rn_error *err)
{
    mm *s = (mm *)state;
    size_t a = (size_t)s->m * s->k * s->esz, b = (size_t)s->k * s->n * s->esz,
           c = (size_t)s->m * s->n * s->esz;
    cudaStream_t s0 = s->ln.st[0];
    cudaEvent_t *ev = s->ln.tm.ev;
    if (s->io == RN_IO_WITHOUT) /* all asynchronous: may hold the stream; a batch as one */
        return timer_start_batch(&s->ln.tm, s0, s->hold, err) || gemm(s, s0, 0, s->m, err) ||
               timer_stop(&s->ln.tm, s0, out, 1, err);
    if (s->io == RN_IO_WITH) {
        CK(cudaEventRecord(ev[0], s0));
        CK(mm_copy(s, s->dA, s->hA, a, cudaMemcpyHostToDevice, s0));
        CK(mm_copy(s, s->dB, s->hB, b, cudaMemcpyHostToDevice, s0));
        CK(cudaEventRecord(ev[1], s0));
        if (gemm(s, s0, 0, s->m, err))
            return 1;
        CK(cudaEventRecord(ev[2], s0));
        CK(mm_copy(s, s->hC, s->dC, c, cudaMemcpyDeviceToHost, s0));
        CK(cudaEventRecord(ev[3], s0));
        return timer_phases(&s->ln.tm, out, err);
    }
    /* overlap: B first, then row chunks of A/C round-robin over the streams */
    CK(cudaEventRecord(ev[0], s0));
    CK(mm_copy(s, s->dB, s->hB, b, cudaMemcpyHostToDevice, s0));
    CK(cudaEventRecord(s->b_ready, s0));
    int chunks = s->m < 8 ? 1 : 8;
    int per = (s->m + chunks - 1) / chunks;
    if (lanes_fork(&s->ln, NSTREAMS, s->b_ready, err))
        return 1;
    for (int ch = 0; ch < chunks; ch++) {
        int r0 = ch * per, rows = r0 + per > s->m ? s->m - r0 : per;
        if (rows <= 0)
            break;
        cudaStream_t st = s->ln.st[ch % NSTREAMS];
        size_t ao = (size_t)r0 * s->k * s->esz, co = (size_t)r0 * s->n * s->esz;
        CK(mm_copy(s, (char *)s->dA + ao, (char *)s->hA + ao, (size_t)rows * s->k * s->esz,
                           cudaMemcpyHostToDevice, st));
        if (gemm(s, st, r0, rows, err))
            return 1;
        CK(mm_copy(s, (char *)s->hC + co, (char *)s->dC + co, (size_t)rows * s->n * s->esz,
                           cudaMemcpyDeviceToHost, st));
    }
    return join_streams(s->ln.st, s->ln.done, NSTREAMS, &s->ln.tm, out, err);
}

static int mm_check(void *state, rn_error *err)
{
    mm *s = (mm *)state;
    size_t c = (size_t)s->m * s->n;
    if (c == 0)
        return 0;
    /* io: with / overlap: the run's own download is what is checked (a
     * fresh download here would hide a skipped one); io: without: the
     * result stays on the device, so fetch it */
    if (s->io == RN_IO_WITHOUT)
        CK(cudaMemcpy(s->hC, s->dC, c * s->esz, cudaMemcpyDeviceToHost));
    /* doc/workloads.md#verification: f16 2e-3, bf16 8e-3, relative */
    double tol = rn_tol_matmul(s->dt, s->math == CUBLAS_TF32_TENSOR_OP_MATH, (double)s->k);
    int samples = check_count(c);
    for (int q = 0; q < samples; q++) {
        size_t idx = check_index(c, q);
        size_t i = idx / s->n, j = idx % s->n;
        double want = 0;
        for (int l = 0; l < s->k; l++)
            want += get(s->hA, s->dt, i * s->k + l) * get(s->hB, s->dt, (size_t)l * s->n + j);
        if (check_close(get(s->hC, s->dt, idx), want, tol, "matmul", err, "C[%zu][%zu]", i, j))
            return 1;
    }
    return 0;
}

CUDA_HOST_MEMORY_EXTRAS(mm_extras, mm)

const rn_workload_impl cuda_matmul = {
    .name = "matmul",
    .prepare = mm_prepare,
    .run = mm_run,
    .check = mm_check,
    .release = mm_release,
    .extras = mm_extras,
};

RN_REGISTER_WORKLOAD(cuda_register_workload, cuda_matmul)
