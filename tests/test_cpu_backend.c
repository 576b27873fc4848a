/* test_cpu_backend.c - the CPU backend: Philox known answers, fills, every
 * workload's prepare / run / check at small sizes, check() catching a wrong
 * output, skips, and the backend table. */
#include "cpu_trial.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "cpu/fill.h"
#include "cpu/mem.h"
#include "philox.h"

/* --- Philox4x32-10 known-answer vectors (Random123 kat_vectors) ---------- */

static void kat(const uint32_t c[4], const uint32_t k[2], const uint32_t want[4])
{
    rn_philox_out o = rn_philox4x32(c[0], c[1], c[2], c[3], k[0], k[1]);
    for (int i = 0; i < 4; i++)
        cr_expect_eq(o.v[i], want[i], "word %d: %08x, want %08x", i, o.v[i], want[i]);
    /* The vector batch must agree with the scalar function. */
    uint32_t w[4 * CPU_PHILOX_LANES];
    uint64_t blk = ((uint64_t)c[1] << 32) | c[0];
    cpu_philox_lanes(blk, c[2], c[3], ((uint64_t)k[1] << 32) | k[0], w);
    for (int i = 0; i < 4; i++)
        cr_expect_eq(w[i * CPU_PHILOX_LANES], want[i], "lane 0 word %d: %08x, want %08x", i,
                     w[i * CPU_PHILOX_LANES], want[i]);
}

Test(cpu_philox, kat_zero)
{
    kat((uint32_t[]){0, 0, 0, 0}, (uint32_t[]){0, 0},
        (uint32_t[]){0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
}

Test(cpu_philox, kat_ones)
{
    kat((uint32_t[]){0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
        (uint32_t[]){0xffffffff, 0xffffffff},
        (uint32_t[]){0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
}

Test(cpu_philox, kat_pi)
{
    kat((uint32_t[]){0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
        (uint32_t[]){0xa4093822, 0x299f31d0},
        (uint32_t[]){0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
}

Test(cpu_philox, lanes_match_scalar_across_the_32_bit_counter_boundary)
{
    uint64_t blk0 = 0xfffffff8ull, seed = 0x0123456789abcdefull;
    uint32_t w[4 * CPU_PHILOX_LANES];
    cpu_philox_lanes(blk0, 7, 9, seed, w);
    for (int l = 0; l < CPU_PHILOX_LANES; l++) {
        uint64_t b = blk0 + (uint64_t)l;
        rn_philox_out o = rn_philox4x32((uint32_t)b, (uint32_t)(b >> 32), 7, 9, (uint32_t)seed,
                                        (uint32_t)(seed >> 32));
        for (int q = 0; q < 4; q++)
            cr_assert_eq(w[q * CPU_PHILOX_LANES + l], o.v[q], "lane %d word %d", l, q);
    }
}

/* --- fills --------------------------------------------------------------- */

Test(cpu_fill, values_are_rn_uniform_on_any_thread_count)
{
    const size_t n = 100003; /* not a multiple of a batch or of a thread's share */
    const uint64_t seed = 0xfeedface12345ull;
    float *f1 = malloc(n * sizeof *f1), *f2 = malloc(n * sizeof *f2), *f3 = malloc(n * sizeof *f3);
    double *d2 = malloc(n * sizeof *d2);
    cr_assert(f1 && f2 && f3 && d2);
    cr_assert_eq(cpu_fill_uniform(f1, RN_F32, n, seed, 5, 1), 0);
    cr_assert_eq(cpu_fill_uniform(f2, RN_F32, n, seed, 5, 2), 0);
    cr_assert_eq(cpu_fill_uniform(f3, RN_F32, n, seed, 5, 3), 0);
    cr_assert_eq(cpu_fill_uniform(d2, RN_F64, n, seed, 5, 2), 0);
    for (size_t i = 0; i < n; i++) {
        float want = rn_uniform(seed, 5, i);
        cr_assert(f1[i] == want && f2[i] == want && f3[i] == want && d2[i] == (double)want,
                  "element %zu: %g %g %g %g, want %g", i, f1[i], f2[i], f3[i], d2[i], want);
        cr_assert(want >= 0 && want < 1);
    }
    cr_assert_eq(cpu_fill_uniform(f1, RN_F16, n, seed, 5, 1), -1);
    free(f1);
    free(f2);
    free(f3);
    free(d2);
}

/* --- buffers -------------------------------------------------------------- */

/* 4K aliasing (mem.c): a worker's first axpb trial, whose three arrays were
 * mapped one by one at the same offset in a page, ran 6-17 % slower.  Large
 * buffers allocated one after another now start at different offsets, and
 * every buffer stays 64-byte aligned and writable to its last cache line. */
Test(cpu_mem, large_buffers_start_at_different_offsets_in_a_page)
{
    enum { N = 8 };
    void *big[N];
    rn_error err = {{0}};
    for (int i = 0; i < N; i++) {
        big[i] = cpu_alloc(1000000, 4, "axpb", "a", &err);
        cr_assert_not_null(big[i], "%s", err.msg);
        cr_assert_eq((uintptr_t)big[i] % 64, 0);
        memset(big[i], i, 4000000); /* ASan: all of it is the buffer's */
    }
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++)
            cr_expect_neq((uintptr_t)big[i] % 4096, (uintptr_t)big[j] % 4096,
                          "buffers %d and %d share an offset in their page", i, j);
    for (size_t n = 0; n < 20; n++) {
        unsigned char *p = cpu_alloc(n, 1, "t", "small", &err);
        cr_assert_not_null(p, "%s", err.msg);
        cr_assert_eq((uintptr_t)p % 64, 0);
        memset(p, 1, 64); /* always one whole cache line */
        cpu_free(p);
    }
    for (int i = 0; i < N; i++)
        cpu_free(big[i]);
    cpu_free(NULL);
}

/* --- workloads ------------------------------------------------------------ */

static rn_trial trial(const char *workload, rn_dtype dtype, long long size, int threads,
                      const rn_param *params, int nparams)
{
    return cpu_trial(workload, dtype, size, threads, 42, params, nparams);
}

/* prepare, run twice (the second run must not depend on the first), check,
 * release; returns the state's check result via *checked. */
static void run_and_check(const rn_workload_impl *w, const rn_trial *t)
{
    rn_error err = {{0}};
    void *state = NULL;
    int rc = w->prepare(t, &state, &err);
    cr_assert_eq(rc, 0, "%s prepare (size %lld, %s, %d threads): %s", w->name, t->size,
                 rn_dtype_name(t->dtype), t->threads, err.msg);
    rn_sample s;
    rn_sample_clear(&s);
    for (int i = 0; i < 2; i++)
        cr_assert_eq(w->run(state, &s, &err), 0, "%s run: %s", w->name, err.msg);
    if (w->check)
        cr_assert_eq(w->check(state, &err), 0, "%s check (size %lld, %s, %d threads): %s",
                     w->name, t->size, rn_dtype_name(t->dtype), t->threads, err.msg);
    w->release(state);
}

static const long long sizes[] = {0, 1, 3, 17, 64, 257, 1000};

static void sweep(const rn_workload_impl *w, rn_dtype dtype, const rn_param *p, int np)
{
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int threads = 1; threads <= 3; threads += 2) {
            rn_trial t = trial(w->name, dtype, sizes[i], threads, p, np);
            run_and_check(w, &t);
        }
}

Test(cpu_matmul, square_f32_f64)
{
    const long long n[] = {0, 1, 7, 33, 64, 100};
    for (int d = RN_F32; d <= RN_F64; d++)
        for (size_t i = 0; i < sizeof n / sizeof n[0]; i++) {
            rn_trial t = trial("matmul", (rn_dtype)d, n[i], 2, NULL, 0);
            run_and_check(&cpu_matmul, &t);
        }
}

Test(cpu_matmul, m_and_k_override_size)
{
    const rn_param p[] = {{"m", "5", 5}, {"k", "300", 300}};
    for (int d = RN_F32; d <= RN_F64; d++) {
        rn_trial t = trial("matmul", (rn_dtype)d, 40, 1, p, 2);
        run_and_check(&cpu_matmul, &t);
    }
}

Test(cpu_matmul, negative_param_means_size)
{
    const rn_param p[] = {{"m", "-1", -1}};
    rn_trial t = trial("matmul", RN_F32, 20, 1, p, 1);
    run_and_check(&cpu_matmul, &t);
}

Test(cpu_nested_sin, fused_and_unfused)
{
    const int depths[] = {1, 2, 3, 4, 9};
    for (int d = RN_F32; d <= RN_F64; d++)
        for (int f = 0; f <= 1; f++)
            for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
                char dt[8];
                snprintf(dt, sizeof dt, "%d", depths[i]);
                const rn_param p[] = {{"depth", dt, depths[i]},
                                      {"fused", f ? "true" : "false", f}};
                sweep(&cpu_nested_sin, (rn_dtype)d, p, 2);
            }
}

Test(cpu_nested_sin, default_depth_and_large_size)
{
    rn_trial t = trial("nested_sin", RN_F32, (1 << 16) + 5, 2, NULL, 0);
    run_and_check(&cpu_nested_sin, &t);
}

Test(cpu_nested_sin, fused_equals_unfused)
{
    /* Same kernels, same order of operations: bit-identical outputs. */
    float out[2][300];
    for (int f = 0; f <= 1; f++) {
        const rn_param p[] = {{"depth", "5", 5}, {"fused", f ? "true" : "false", f}};
        rn_trial t = trial("nested_sin", RN_F32, 300, 1, p, 2);
        rn_error err = {{0}};
        void *state;
        cr_assert_eq(cpu_nested_sin.prepare(&t, &state, &err), 0, "%s", err.msg);
        cr_assert_eq(cpu_nested_sin.run(state, NULL, &err), 0, "%s", err.msg);
        memcpy(out[f], *(float **)state, sizeof out[f]); /* cpu_output.data is first */
        cpu_nested_sin.release(state);
    }
    cr_assert_eq(memcmp(out[0], out[1], sizeof out[0]), 0);
}

Test(cpu_sumsq, lengths_and_sizes)
{
    const int lengths[] = {1, 3, 63, 64, 65, 1000};
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        char lt[16];
        snprintf(lt, sizeof lt, "%d", lengths[i]);
        const rn_param p[] = {{"length", lt, lengths[i]}};
        sweep(&cpu_sumsq, RN_F32, p, 1);
    }
    rn_trial t = trial("sumsq", RN_F32, 20, 1, NULL, 0); /* default length */
    run_and_check(&cpu_sumsq, &t);
    /* Long iterations: check() compares only a few of them, still in time. */
    const rn_param big[] = {{"length", "3000000", 3e6}};
    rn_trial b = trial("sumsq", RN_F32, 40, 2, big, 1);
    run_and_check(&cpu_sumsq, &b);
}

/* The total of a run, through the test hook's view of the state. */
static double sumsq_total(int threads, double *first_sum)
{
    rn_trial t = trial("sumsq", RN_F32, 999, threads, NULL, 0);
    rn_error err = {{0}};
    void *state;
    cr_assert_eq(cpu_sumsq.prepare(&t, &state, &err), 0, "%s", err.msg);
    cr_assert_eq(cpu_sumsq.run(state, NULL, &err), 0, "%s", err.msg);
    double total = 0, *sums = *(double **)state;
    for (int i = 0; i < 999; i++)
        total += sums[i];
    *first_sum = sums[0];
    cpu_sumsq.release(state);
    return total;
}

Test(cpu_sumsq, thread_count_changes_nothing_but_rounding)
{
    double s1, s3;
    double t1 = sumsq_total(1, &s1), t3 = sumsq_total(3, &s3);
    cr_assert_eq(s1, s3); /* each iteration's sum is computed the same way */
    cr_assert_float_eq(t1, t3, 1e-9 * t1);
    /* E[u^2] = 1/3: 999 iterations of 1000 numbers. */
    cr_assert(t1 > 999 * 1000 / 3.0 * 0.99 && t1 < 999 * 1000 / 3.0 * 1.01, "total %g", t1);
}

Test(cpu_axpb, f32_f64)
{
    for (int d = RN_F32; d <= RN_F64; d++)
        sweep(&cpu_axpb, (rn_dtype)d, NULL, 0);
}

Test(cpu_noop, does_nothing)
{
    for (int d = RN_F32; d <= RN_BF16; d++) {
        rn_trial t = trial("noop", (rn_dtype)d, 0, 1, NULL, 0);
        run_and_check(&cpu_noop, &t);
    }
    cr_assert_null(cpu_noop.check);
}

/* --- check() catches a wrong output -------------------------------------- */

/* Corrupts output element `index` after a run; check must fail with a
 * message starting with `prefix`. */
static void expect_caught(const rn_workload_impl *w, const rn_trial *t, size_t index,
                          const char *prefix)
{
    rn_error err = {{0}};
    void *state;
    cr_assert_eq(w->prepare(t, &state, &err), 0, "%s", err.msg);
    cr_assert_eq(w->run(state, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(w->check(state, &err), 0, "%s", err.msg);
    cr_assert_eq(cpu_test_corrupt(state, index), 0);
    cr_assert_neq(w->check(state, &err), 0, "%s: check missed a corrupted output", w->name);
    cr_expect(strncmp(err.msg, prefix, strlen(prefix)) == 0, "message: %s (want %s...)",
              err.msg, prefix);
    cr_expect(strstr(err.msg, "but the reference is") && strstr(err.msg, "relative error"),
              "message: %s", err.msg);
    w->release(state);
}

Test(cpu_check, catches_corruption)
{
    for (int d = RN_F32; d <= RN_F64; d++) {
        rn_trial m = trial("matmul", (rn_dtype)d, 50, 1, NULL, 0); /* 2500 entries: sampled */
        expect_caught(&cpu_matmul, &m, 50 * 50 - 1, "matmul: C[49][49] = ");
        rn_trial small = trial("matmul", (rn_dtype)d, 10, 1, NULL, 0);
        expect_caught(&cpu_matmul, &small, 12, "matmul: C[1][2] = ");

        const rn_param p[] = {{"fused", "true", 1}};
        rn_trial s = trial("nested_sin", (rn_dtype)d, 5000, 2, p, 1);
        expect_caught(&cpu_nested_sin, &s, 0, "nested_sin: y[0] = ");

        rn_trial a = trial("axpb", (rn_dtype)d, 100, 1, NULL, 0);
        expect_caught(&cpu_axpb, &a, 37, "axpb: x[37] = ");
    }
    rn_trial q = trial("sumsq", RN_F32, 10, 1, NULL, 0);
    expect_caught(&cpu_sumsq, &q, 4, "sumsq: the sum of iteration 4 = ");
}

Test(cpu_check, message_format)
{
    /* 16 x 16 = 256 entries: all are compared, so the corrupted one is found. */
    rn_trial t = trial("matmul", RN_F32, 16, 1, NULL, 0);
    rn_error err = {{0}};
    void *state;
    cr_assert_eq(cpu_matmul.prepare(&t, &state, &err), 0, "%s", err.msg);
    cr_assert_eq(cpu_matmul.run(state, NULL, &err), 0, "%s", err.msg);
    float *c = *(float **)state; /* cpu_output.data is first */
    float want = c[12 * 16 + 10];
    c[12 * 16 + 10] *= 1.032f;
    cr_assert_neq(cpu_matmul.check(state, &err), 0);
    double got, ref, rel, tol;
    unsigned i, j;
    cr_assert_eq(sscanf(err.msg,
                        "matmul: C[%u][%u] = %lf but the reference is %lf (relative error %le > "
                        "%le)",
                        &i, &j, &got, &ref, &rel, &tol),
                 6, "message: %s", err.msg);
    cr_expect(i == 12 && j == 10, "message: %s", err.msg);
    cr_expect_float_eq(got, want * 1.032f, 1e-3 * want, "message: %s", err.msg);
    cr_expect_float_eq(ref, want, 1e-5 * want, "message: %s", err.msg);
    cr_expect(rel > 0.03 && rel < 0.035 && tol == 1e-5, "message: %s", err.msg);
    cpu_matmul.release(state);
}

Test(cpu_check, corrupt_hook_bounds)
{
    rn_trial t = trial("axpb", RN_F32, 10, 1, NULL, 0);
    rn_error err = {{0}};
    void *state;
    cr_assert_eq(cpu_axpb.prepare(&t, &state, &err), 0, "%s", err.msg);
    cr_expect_eq(cpu_test_corrupt(state, 10), -1);
    cr_expect_eq(cpu_test_corrupt(NULL, 0), -1);
    cpu_axpb.release(state);
    rn_trial n = trial("noop", RN_F32, 0, 1, NULL, 0);
    cr_assert_eq(cpu_noop.prepare(&n, &state, &err), 0);
    cr_expect_eq(cpu_test_corrupt(state, 0), -1);
    cpu_noop.release(state);
}

/* --- skips and errors ----------------------------------------------------- */

Test(cpu_skip, unsupported_dtypes)
{
    const rn_workload_impl *ws[] = {&cpu_matmul, &cpu_nested_sin, &cpu_axpb};
    for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++)
        for (int d = RN_F16; d <= RN_BF16; d++) {
            rn_trial t = trial(ws[i]->name, (rn_dtype)d, 8, 1, NULL, 0);
            rn_error err = {{0}};
            void *state = (void *)1;
            cr_assert_eq(ws[i]->prepare(&t, &state, &err), RN_PREPARE_SKIP, "%s %s",
                         ws[i]->name, rn_dtype_name(t.dtype));
            cr_expect_null(state);
            char want[64];
            snprintf(want, sizeof want, "dtype %s is not supported by the cpu backend",
                     rn_dtype_name(t.dtype));
            cr_expect_str_eq(err.msg, want);
        }
    rn_trial t = trial("sumsq", RN_F64, 8, 1, NULL, 0);
    rn_error err = {{0}};
    void *state;
    cr_expect_eq(cpu_sumsq.prepare(&t, &state, &err), RN_PREPARE_SKIP);
}

Test(cpu_errors, impossible_sizes_fail_cleanly)
{
    rn_error err = {{0}};
    void *state = (void *)1;
    rn_trial t = trial("axpb", RN_F64, 1ll << 55, 1, NULL, 0); /* 2^58 bytes */
    cr_assert_neq(cpu_axpb.prepare(&t, &state, &err), 0);
    cr_expect_null(state);
    cr_expect(strstr(err.msg, "axpb: cannot allocate a") != NULL, "message: %s", err.msg);
    rn_trial neg = trial("nested_sin", RN_F32, -5, 1, NULL, 0);
    cr_assert_neq(cpu_nested_sin.prepare(&neg, &state, &err), 0);
    cr_expect(strstr(err.msg, "out of range") != NULL, "message: %s", err.msg);
    const rn_param mk[] = {{"m", "2147483647", 2147483647.0}, {"k", "2147483647", 2147483647.0}};
    rn_trial huge = trial("matmul", RN_F64, 4, 1, mk, 2); /* m * k * 8 overflows */
    cr_assert_neq(cpu_matmul.prepare(&huge, &state, &err), 0);
    cr_expect(strstr(err.msg, "matmul: A of") && strstr(err.msg, "is too large"), "message: %s",
              err.msg);
    const rn_param p[] = {{"k", "3000000000", 3e9}};
    rn_trial big = trial("matmul", RN_F32, 4, 1, p, 1);
    cr_assert_neq(cpu_matmul.prepare(&big, &state, &err), 0);
    cr_expect(strstr(err.msg, "above the BLAS limit") != NULL, "message: %s", err.msg);
}

/* --- the backend table ---------------------------------------------------- */

static void count_fact(void *ctx, const char *key, const char *value)
{
    int *seen = ctx;
    cr_expect(value && *value, "fact %s is empty", key);
    if (strcmp(key, "blas") == 0)
        seen[0]++;
    else if (strcmp(key, "blas_core") == 0)
        seen[1]++;
    else if (strcmp(key, "blas_threads") == 0)
        seen[2]++;
    else if (strcmp(key, "openblas_coretype_warning") == 0)
        seen[3]++;
}

Test(cpu_backend, table)
{
    const rn_backend *b = cpu_backend();
    cr_assert_eq(b->abi, RN_BACKEND_ABI);
    cr_assert_str_eq(b->name, "cpu");
    char why[64];
    cr_assert_eq(b->probe(why, sizeof why), 0);
    cr_assert_eq(b->device_count(), 1);
    rn_device_info info;
    cr_assert_eq(b->device_info(0, &info), 0);
    cr_expect(info.name[0] != '\0');
    cr_expect(info.memory_bytes > 0 && info.free_bytes > 0 &&
              info.free_bytes <= info.memory_bytes);
    cr_expect_neq(b->device_info(1, &info), 0);
    const char *names[] = {"matmul", "nested_sin", "sumsq", "axpb", "noop"};
    for (size_t i = 0; i < 5; i++) {
        const rn_workload_impl *w = b->workload(names[i]);
        cr_assert_not_null(w, "%s", names[i]);
        cr_expect_str_eq(w->name, names[i]);
    }
    cr_expect_null(b->workload("memcpy"));
    cr_expect_not_null(b->workload("mlp_train"));
    double free_bytes;
    cr_expect_eq(b->free_memory(0, &free_bytes), 0);
    cr_expect(free_bytes > 0);
    rn_trial t = trial("matmul", RN_F32, 8, 2, NULL, 0);
    rn_error err;
    cr_expect_eq(b->select(&t, &err), 0);
    t.threads = 0;
    cr_expect_neq(b->select(&t, &err), 0);
    int seen[4] = {0};
    unsetenv("OPENBLAS_CORETYPE");
    b->env_info(seen, count_fact);
    /* the warning fact only when OpenBLAS runs kernels below this CPU */
    cr_expect(seen[0] == 1 && seen[1] == 1 && seen[2] == 1 &&
              seen[3] == (cpu_coretype_warning() != NULL));
}

static int thread_count(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* select() + a whole trial in a fresh process (a worker), exit status its
 * thread count at the end. */
static int threads_after(const char *workload, int threads)
{
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        const rn_backend *b = cpu_backend();
        rn_trial t = trial(workload, RN_F32, 100000, threads, NULL, 0);
        rn_error err = {{0}};
        void *st = NULL;
        const rn_workload_impl *w = b->workload(workload);
        rn_sample smp;
        rn_sample_clear(&smp);
        if (b->select(&t, &err) || w->prepare(&t, &st, &err) || w->run(st, &smp, &err))
            _exit(100);
        w->release(st);
        _exit(thread_count());
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* OpenBLAS's pool, started in a fresh worker, spins for about 0.1 s; when
 * select() started it for every trial, a worker's first axpb trial ran
 * beside that spin (cpu_backend.c).  Only a workload that calls BLAS may
 * start it: the matmul row shows the count would see the pool. */
Test(cpu_backend, a_trial_that_never_calls_blas_starts_no_blas_threads)
{
    cr_expect_eq(threads_after("axpb", 1), 1);
    cr_expect_eq(threads_after("sumsq", 1), 1);
    if (sysconf(_SC_NPROCESSORS_ONLN) >= 2)
        cr_expect_gt(threads_after("matmul", 2), 1);
}

Test(cpu_backend, coretype_warning)
{
    unsetenv("OPENBLAS_CORETYPE");
    /* unset now, but OpenBLAS chose its kernels when it was loaded: a core
     * below this CPU is then reported as what OpenBLAS runs */
    const char *w0 = cpu_coretype_warning();
    cr_expect(!w0 || strstr(w0, "detected this CPU as"), "%s", w0);
    setenv("OPENBLAS_CORETYPE", "NotACore", 1);
    cr_expect_null(cpu_coretype_warning()); /* OpenBLAS ignores it and says so itself */
    setenv("OPENBLAS_CORETYPE", "skylakex", 1);
    cr_expect_null(cpu_coretype_warning()); /* never below anything */
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        const char *cores[] = {"Haswell", "zen", "SANDYBRIDGE"};
        const char *forces[] = {"forces AVX2 kernels", "forces AVX2 kernels",
                                "forces AVX kernels"};
        for (int i = 0; i < 3; i++) {
            setenv("OPENBLAS_CORETYPE", cores[i], 1);
            const char *w = cpu_coretype_warning();
            cr_assert_not_null(w, "%s", cores[i]);
            cr_expect(strstr(w, forces[i]) && strstr(w, "unset OPENBLAS_CORETYPE"), "%s", w);
        }
        setenv("OPENBLAS_CORETYPE", "Haswell", 1);
        cr_expect(strstr(cpu_coretype_warning(), "about half speed"));
        int seen[4] = {0};
        cpu_backend()->env_info(seen, count_fact);
        cr_expect_eq(seen[3], 1);
    }
    unsetenv("OPENBLAS_CORETYPE");
}

/* OpenBLAS's own detection below the CPU (a VM hiding its model): warned
 * with the core to set; a forced core is judged as before. */
Test(cpu_backend, coretype_misdetected)
{
    char m[384];
    const char *w = cpu_coretype_warning_for(NULL, "Prescott", "AVX-512", m, sizeof m);
    cr_assert_not_null(w);
    cr_expect(strstr(w, "detected this CPU as Prescott and runs SSE kernels on a CPU with AVX-512"),
              "%s", w);
    cr_expect(strstr(w, "OPENBLAS_CORETYPE=SkylakeX"), "%s", w);
    cr_expect(strstr(w, "several times slower"), "%s", w);
    w = cpu_coretype_warning_for("", "Haswell", "AVX2", m, sizeof m);
    cr_expect_null(w, "Haswell on AVX2 is right");
    cr_expect_null(cpu_coretype_warning_for(NULL, "Cooperlake", "AVX-512", m, sizeof m));
    cr_expect_null(cpu_coretype_warning_for(NULL, "NoSuchCore", "AVX-512", m, sizeof m));
    w = cpu_coretype_warning_for(NULL, "Sandybridge", "AVX2", m, sizeof m);
    cr_assert_not_null(w);
    cr_expect(strstr(w, "OPENBLAS_CORETYPE=Haswell") && strstr(w, "about half speed"), "%s", w);
    w = cpu_coretype_warning_for("Haswell", "Haswell", "AVX-512", m, sizeof m);
    cr_assert_not_null(w);
    cr_expect(strstr(w, "OPENBLAS_CORETYPE=Haswell forces AVX2 kernels"), "%s", w);
}
