/* ew_host.cc - the CUDA backend's element-wise kernels (elementwise.h,
 * ew_kernels.h) compiled as host code (RN_HOST_KERNELS: a launch loops
 * over every block and thread) and run on the CPU, built by tests/hostk/run.sh
 * under AddressSanitizer and UBSan with its alignment check
 * (doc/contributing/testing.md#gpu-code-on-the-cpu).  Every buffer is its own
 * allocation of exactly the elements the call may touch, so a read or write
 * past an end is a sanitizer error, and a 16-byte vector load from an
 * address not on 16 bytes is UBSan's "misaligned address".  Each result is
 * compared bit for bit with the functor applied on the host, and the
 * elements before the output's start stay untouched.
 *
 *   ew_host            every n in 0..4096 at every element offset: one input
 *                      (sin), two (axpb's solve), three with broadcast inputs;
 *                      f32 and f64; io: overlap's chunks; the grid-stride
 *                      loop's later passes (the block cap lowered); the fused
 *                      sine kernel at depths 1-5
 *   ew_host --large    2^31 + 7 floats in place, vector and scalar paths
 *                      (about 8.6 GB)
 * Exit 0 when everything matched, 1 at the first mismatch (printed). */
#include <initializer_list>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern unsigned rn_host_max_blocks;
#include "cuda/ew_kernels.h"
#include "cuda/probe_fill.h"

unsigned rn_host_max_blocks = 1u << 20; /* RN_EW_MAX_BLOCKS (-D) */

static long checked, failures;

#define FAIL(...)                                                                            \
    do {                                                                                     \
        if (failures++ < 10)                                                                 \
            fprintf(stderr, __VA_ARGS__);                                                    \
    } while (0)

/* n elements of T starting `off` elements into an allocation of exactly
 * off + n, on 16 bytes (posix_memalign); NULL-safe for n == 0 */
template <typename T> struct buf {
    void *base = nullptr;
    T *p = nullptr;
    size_t n = 0, off = 0;
    buf(size_t n_, size_t off_) : n(n_), off(off_)
    {
        size_t bytes = (n + off) * sizeof(T);
        if (posix_memalign(&base, 16, bytes ? bytes : 1) != 0) {
            fprintf(stderr, "ew_host: out of memory\n");
            exit(2);
        }
        memset(base, 0xff, bytes); /* NaN: what no kernel may leave */
        p = (T *)base + off;
    }
    ~buf() { free(base); }
    buf(const buf &) = delete;
    buf &operator=(const buf &) = delete;
};

/* the inputs' values: varied, never 0 (axpb divides) */
template <typename T> static T value(size_t i, int j)
{
    return (T)(1.0 + (double)((i * 2654435761u + (unsigned)j * 40503u) % 1000) / 997.0);
}

static int same_bits(const void *a, const void *b, size_t sz)
{
    return memcmp(a, b, sz) == 0;
}

/* y must hold f(x..) on [0, n) and the poison on [-yoff, 0) */
template <typename T, int NIN, typename F>
static void expect(const char *what, const buf<T> &y, const rn_ew_args<T, NIN> &a, const F &f,
                   size_t lo, size_t hi)
{
    for (size_t i = lo; i < hi; i++) {
        T v[NIN];
        for (int j = 0; j < NIN; j++)
            v[j] = a.x[j][a.one[j] ? 0 : i];
        T want = rn_ew_apply<T, NIN>(f, v);
        checked++;
        if (!same_bits(&y.p[i], &want, sizeof want)) {
            FAIL("%s: %s n=%zu y offset %zu: y[%zu] = %g, want %g\n", what,
                 sizeof(T) == 4 ? "f32" : "f64", a.n, y.off, i, (double)y.p[i], (double)want);
            return;
        }
    }
    unsigned char poison[sizeof(T)];
    memset(poison, 0xff, sizeof poison);
    for (size_t i = 0; i < y.off; i++)
        if (!same_bits((T *)y.base + i, poison, sizeof(T))) {
            FAIL("%s: n=%zu: an element before the output was written\n", what, a.n);
            return;
        }
}

/* ops of one, two and three inputs: sin (nested_sin's unfused pass),
 * -b / a (axpb), and a*b + c for the broadcast cases */
template <typename T> struct fma_op {
    T operator()(T a, T b, T c) const { return a * b + c; }
};

/* y = f(x..) over n elements, the inputs and y each `xoff` / `yoff`
 * elements past 16 bytes; inputs with one[j] have one element */
template <typename T, int NIN, typename F>
static void one_call(const char *what, size_t n, size_t xoff, size_t yoff, const int *one,
                     const F &f)
{
    buf<T> y(n, yoff);
    buf<T> *x[NIN];
    rn_ew_args<T, NIN> a;
    a.y = y.p;
    a.n = n;
    for (int j = 0; j < NIN; j++) {
        size_t len = one[j] ? 1 : n;
        x[j] = new buf<T>(len, one[j] ? 0 : xoff);
        for (size_t i = 0; i < len; i++)
            x[j]->p[i] = value<T>(i, j);
        a.x[j] = x[j]->p;
        a.one[j] = one[j];
    }
    rn_ew_launch<T, NIN>(a, f, nullptr);
    expect<T, NIN>(what, y, a, f, 0, n);
    for (int j = 0; j < NIN; j++)
        delete x[j];
}

/* io: overlap: RN_CUDA_CHUNKS launches, each on its chunk (frame.h
 * cuda_array_part), most of them starting mid-vector */
template <typename T, int NIN, typename F>
static void chunked(const char *what, size_t n, size_t off0, const F &f)
{
    buf<T> y(n, off0);
    buf<T> *x[NIN];
    rn_ew_args<T, NIN> whole;
    whole.y = y.p;
    whole.n = n;
    for (int j = 0; j < NIN; j++) {
        x[j] = new buf<T>(n, off0);
        for (size_t i = 0; i < n; i++)
            x[j]->p[i] = value<T>(i, j);
        whole.x[j] = x[j]->p;
        whole.one[j] = 0;
    }
    for (int c = 0; c < RN_CUDA_CHUNKS; c++) {
        size_t off, len = chunk_of(n, RN_CUDA_CHUNKS, c, &off);
        if (len == 0)
            break;
        rn_ew_args<T, NIN> a = whole;
        a.y = whole.y + off;
        a.n = len;
        for (int j = 0; j < NIN; j++)
            a.x[j] = whole.x[j] + off;
        rn_ew_launch<T, NIN>(a, f, nullptr);
    }
    expect<T, NIN>(what, y, whole, f, 0, n);
    for (int j = 0; j < NIN; j++)
        delete x[j];
}

/* every n up to top at every element offset (n past 600 in steps of
 * `step`): one input, two, and io: overlap's chunks; the mixed alignments,
 * the broadcast inputs and two-input chunks at every n up to 600, then
 * every 5th step */
template <typename T> static void sweep(size_t top, size_t step)
{
    constexpr size_t V = 16 / sizeof(T);
    static const int none[3] = {0, 0, 0}, last[3] = {0, 0, 1}, first[3] = {1, 0, 0};
    for (size_t n = 0, k = 0; n <= top; n += n < 600 ? 1 : step, k++) {
        for (size_t o = 0; o < V; o++) {
            one_call<T, 1>("map1 (sin)", n, o, o, none, sin_op<T>());
            one_call<T, 2>("map2 (solve)", n, o, o, none, solve_op<T>());
            chunked<T, 1>("overlap chunks (sin)", n, o, sin_op<T>());
            if (n >= 600 && k % 5)
                continue;
            one_call<T, 1>("map1, y on 16 bytes", n, o, 0, none, sin_op<T>());
            one_call<T, 2>("map2, inputs on 16 bytes", n, 0, o, none, solve_op<T>());
            one_call<T, 3>("map3, last input broadcast", n, o, o, last, fma_op<T>());
            one_call<T, 3>("map3, first input broadcast", n, o, o, first, fma_op<T>());
            chunked<T, 2>("overlap chunks (solve)", n, o, solve_op<T>());
        }
        if (failures)
            return;
    }
}

/* the fused kernel (ew_kernels.h sin_kernel): depth 1-4 compiled in, 5 the
 * run-time loop */
template <typename T> static void fused(size_t top, size_t step)
{
    for (size_t n = 0; n <= top; n += n < 600 ? 1 : step)
        for (int depth = 1; depth <= 5; depth++) {
            buf<T> x(n, 0), y(n, 0);
            for (size_t i = 0; i < n; i++)
                x.p[i] = value<T>(i, 0);
            launch_sin<T>(y.p, x.p, n, depth, nullptr);
            for (size_t i = 0; i < n; i++) {
                T want = nest<T, 0>(x.p[i], depth);
                checked++;
                if (!same_bits(&y.p[i], &want, sizeof want)) {
                    FAIL("fused sin depth %d: n=%zu: y[%zu] = %g, want %g\n", depth, n, i,
                         (double)y.p[i], (double)want);
                    return;
                }
            }
        }
}

/* the ceilings probe's inputs (probe_fill.h): every element written, none
 * zero, none outside [0.5, 2) in magnitude, both signs, varied */
static double half_bits(uint16_t h, int bf16)
{
    if (bf16) {
        uint32_t f = (uint32_t)h << 16;
        float v;
        memcpy(&v, &f, sizeof v);
        return v;
    }
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? NAN : ldexp(1024 + m, e - 25);
    return h >> 15 ? -v : v;
}

static void probe_inputs(void)
{
    const size_t n = 100003;
    for (int kind = PROBE_F32; kind <= PROBE_BF16; kind++) {
        size_t esz = kind == PROBE_F64 ? 8 : kind == PROBE_F32 ? 4 : 2;
        buf<unsigned char> b(n * esz, 0);
        rn_host_launch(grid_for(n), 256, nullptr, [&] { probe_fill(b.p, n, kind, 7); });
        size_t neg = 0, small = 0;
        double prev = 0;
        size_t same = 0;
        for (size_t i = 0; i < n; i++) {
            double v;
            if (kind == PROBE_F32) {
                float f;
                memcpy(&f, b.p + i * 4, 4);
                v = f;
            } else if (kind == PROBE_F64) {
                memcpy(&v, b.p + i * 8, 8);
            } else {
                uint16_t h;
                memcpy(&h, b.p + i * 2, 2);
                v = half_bits(h, kind == PROBE_BF16);
            }
            checked++;
            if (!(fabs(v) >= 0.5 && fabs(v) < 2)) {
                FAIL("probe_fill kind %d: element %zu is %g\n", kind, i, v);
                return;
            }
            neg += v < 0;
            small += fabs(v) < 1;
            same += v == prev;
            prev = v;
        }
        if (neg < n / 3 || neg > 2 * n / 3 || small < n / 3 || small > 2 * n / 3 || same > n / 100)
            FAIL("probe_fill kind %d: %zu negative, %zu below 1, %zu repeats of %zu\n", kind, neg,
                 small, same, n);
    }
}

template <typename T> struct twice_op {
    T operator()(T x) const { return x + x; }
};

/* 2^31 + 7 floats in place: the vector path (two grid-stride passes: 2^29
 * vectors a pass) and, one element in, the scalar path (2^29 elements a
 * pass); indices past 2^31 must not wrap */
static int large(void)
{
    const size_t n = (1ull << 31) + 7, guard = 64;
    float *p = (float *)aligned_alloc(64, (n + guard) * sizeof(float) / 64 * 64 + 64);
    if (!p) {
        printf("ew_host --large: skipped: cannot allocate %zu bytes\n", (n + guard) * 4);
        return 0;
    }
    for (int pass = 0; pass < 2; pass++) {
        size_t off = (size_t)pass, len = n - off;
        for (size_t i = 0; i < n + guard; i++)
            p[i] = (float)(i & 0xffff);
        rn_ew_map1(p + off, p + off, len, twice_op<float>(), nullptr);
        for (size_t i = 0; i < n + guard; i++) {
            float want = i >= off && i < n ? 2.0f * (float)(i & 0xffff) : (float)(i & 0xffff);
            if (p[i] != want) {
                printf("ew_host --large: %s path: p[%zu] = %g, want %g\n",
                       pass ? "scalar" : "vector", i, (double)p[i], (double)want);
                free(p);
                return 1;
            }
        }
        printf("ew_host --large: %s path, %zu floats in place: every element right, "
               "none past the end written (grid %u)\n",
               pass ? "scalar" : "vector", len, rn_host_last_grid);
    }
    free(p);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--large"))
        return large();
    /* every n up to 4096 at every offset; the grid-stride loop's later
     * passes with the cap at 1 and 3 blocks (a pass of 512 and 1536 vectors,
     * 512 and 1536 scalar elements) */
    sweep<float>(4096, 1);
    sweep<double>(4096, 1);
    probe_inputs();
    fused<float>(4096, 7);
    fused<double>(4096, 7);
    long base = checked;
    for (unsigned cap : {1u, 3u}) {
        rn_host_max_blocks = cap;
        sweep<float>(4096, 13);
        sweep<double>(4096, 13);
    }
    rn_host_max_blocks = 1u << 20;
    if (failures) {
        printf("ew_host: %ld mismatches (first ones above)\n", failures);
        return 1;
    }
    printf("ew_host: %ld elements matched (%ld with the block cap lowered), %lu launches\n",
           checked, checked - base, rn_host_launches);
    return 0;
}
