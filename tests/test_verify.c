/* test_verify.c - the verification rules shared by both backends
 * (backends/verify_tol.h), without a GPU: tolerances that a correct result
 * meets and a wrong one (an f64 path computed in f32, a product 4 f16 ulps
 * off) does not; memcpy's pattern against a poisoned destination; the
 * `inject` testing aid making the CPU checks fail; validation of
 * host_memory, inject, m and k; memcpy d2d bytes; mlp_train's memory
 * estimate with a dataset (doc/workloads.md#verification, "Fault injection",
 * "Host memory"). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config_fixture.h"
#include "experiment/config.h"
#include "cpu/cpu.h"
#include "philox.h"
#include "base/util.h"
#include "verify_tol.h"
#include "experiment/registry/workloads.h"

/* --- tolerances ----------------------------------------------------------- */

Test(verify_tol, within_is_relative_and_refuses_nan)
{
    cr_expect(rn_within(1.0, 1.0, 0));
    cr_expect(rn_within(0.0, 0.0, 0));
    cr_expect(rn_within(1.0 + 1e-13, 1.0, 1e-12));
    cr_expect(!rn_within(1.0 + 1e-11, 1.0, 1e-12));
    cr_expect(!rn_within(NAN, 1.0, 1));
    cr_expect(!rn_within(1.0, NAN, 1));
    /* no absolute floor: a tiny value is judged relative to itself */
    cr_expect(!rn_within(1e-9 * (1 + 1e-6), 1e-9, 1e-12));
    cr_expect(rn_within(1e-20, 0.0, 1e-12));
}

/* sin applied `depth` times in double, and in float (an f64 path that
 * silently computed in f32) */
static double nest_d(double x, int depth)
{
    for (int d = 0; d < depth; d++)
        x = sin(x);
    return x;
}
static double nest_f(double x, int depth)
{
    float v = (float)x;
    for (int d = 0; d < depth; d++)
        v = sinf(v);
    return v;
}

Test(verify_tol, nested_sin_f64_computed_in_f32_fails)
{
    double tol64 = rn_tol_nested_sin(RN_F64, 4), tol32 = rn_tol_nested_sin(RN_F32, 4);
    cr_assert_leq(tol64, 1e-12);
    int failed = 0;
    for (int i = 0; i < 256; i++) {
        double x = rn_uniform(7, 0, (uint64_t)i); /* the workload's inputs */
        double ref = nest_d(x, 4);
        /* the f64 result passes, and so does an f32 result at f32 */
        cr_assert(rn_within(nest_d(x, 4), ref, tol64));
        cr_assert(rn_within(nest_f(x, 4), ref, tol32), "f32 x=%g: %g vs %g", x, nest_f(x, 4),
                  ref);
        failed += !rn_within(nest_f(x, 4), ref, tol64);
    }
    /* the former check's absolute floor of 1e-6 passed all of these */
    cr_expect_geq(failed, 250, "only %d of 256 f32-computed f64 results failed", failed);
}

Test(verify_tol, axpb_f64_computed_in_f32_fails)
{
    int failed = 0;
    for (int i = 0; i < 256; i++) {
        double a = 1.0 + rn_uniform(7, 0, (uint64_t)i), b = rn_uniform(7, 1, (uint64_t)i);
        double ref = -b / a;
        double in_f32 = (double)(-(float)b / (float)a);
        cr_assert(rn_within(-b / a, ref, rn_tol_axpb(RN_F64)));
        cr_assert(rn_within(in_f32, ref, rn_tol_axpb(RN_F32)));
        failed += !rn_within(in_f32, ref, rn_tol_axpb(RN_F64));
    }
    cr_expect_geq(failed, 250, "only %d of 256 f32-computed f64 results failed", failed);
}

/* x rounded to `bits` significant bits, nearest even: f16 11, bf16 8 */
static double round_bits(double x, int bits)
{
    int e;
    double m = frexp(x, &e);
    return ldexp(nearbyint(ldexp(m, bits)), e - bits);
}

/* C = A B with k = 512 (the tests' and the GPU checks' size) as cublasGemmEx
 * computes it: inputs in the dtype, an FP32 sum, the result rounded to the
 * dtype; every entry must pass, and a result 4 ulps off must not. */
static void half_matmul(rn_dtype dt, int bits)
{
    const int k = 512, n = 16;
    double tol = rn_tol_matmul(dt, 0, k);
    float *a = malloc(sizeof(float) * (size_t)n * k), *b = malloc(sizeof(float) * (size_t)k * n);
    cr_assert(a && b);
    for (int i = 0; i < n * k; i++) {
        a[i] = (float)round_bits(rn_uniform(3, 0, (uint64_t)i), bits);
        b[i] = (float)round_bits(rn_uniform(3, 1, (uint64_t)i), bits);
    }
    double worst = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float acc = 0;
            double ref = 0;
            for (int l = 0; l < k; l++) {
                acc += a[i * k + l] * b[l * n + j];
                ref += (double)a[i * k + l] * b[l * n + j];
            }
            double got = round_bits(acc, bits);
            double e = rn_rel_error(got, ref);
            worst = e > worst ? e : worst;
            cr_assert(rn_within(got, ref, tol), "C[%d][%d] = %g vs %g: %.2e > %.2e", i, j, got,
                      ref, e, tol);
            double off = got * (1 + 4 * ldexp(1.0, 1 - bits)); /* 4 ulps */
            cr_assert(!rn_within(off, ref, tol), "4 ulps off passed: %.2e", rn_rel_error(off, ref));
        }
    cr_expect_lt(worst, tol / 1.9, "margin: worst %.2e, tolerance %.2e", worst, tol);
    free(a);
    free(b);
}

Test(verify_tol, matmul_f16_tolerance)
{
    cr_expect_lt(rn_tol_matmul(RN_F16, 0, 512), 2.1e-3);
    half_matmul(RN_F16, 11);
}

Test(verify_tol, matmul_bf16_tolerance)
{
    cr_expect_lt(rn_tol_matmul(RN_BF16, 0, 512), 8.1e-3);
    half_matmul(RN_BF16, 8);
}

Test(verify_tol, sumsq_double_sum_of_f32_squares_passes)
{
    const size_t length = 1 << 20;
    double sum = 0, ref = 0;
    for (size_t j = 0; j < length; j++) {
        float u = rn_uniform(5, 3, j);
        sum += (double)(u * u); /* f32 square, double sum: as the GPU now does */
        ref += (double)u * u;
    }
    cr_assert(rn_within(sum, ref, rn_tol_sumsq_gpu()), "%.3e", rn_rel_error(sum, ref));
}

/* --- memcpy's pattern ------------------------------------------------------- */

Test(verify_tol, poisoned_destination_never_matches_the_pattern)
{
    unsigned char buf[256];
    for (uint64_t seed = 0; seed < 300; seed += 37) {
        for (size_t off = 0; off < 1000; off += 333) {
            for (size_t i = 0; i < sizeof buf; i++)
                buf[i] = rn_pattern_byte(off + i, seed);
            cr_assert_eq(rn_pattern_mismatch(buf, off, sizeof buf, seed), (size_t)-1);
            memset(buf, RN_POISON_BYTE, sizeof buf);
            cr_assert_neq(rn_pattern_mismatch(buf, off, sizeof buf, seed), (size_t)-1,
                          "a poisoned buffer passed (seed %llu, offset %zu)",
                          (unsigned long long)seed, off);
            /* the bytes of an earlier trial with another seed fail too */
            for (size_t i = 0; i < sizeof buf; i++)
                buf[i] = rn_pattern_byte(off + i, seed + 1);
            cr_assert_neq(rn_pattern_mismatch(buf, off, sizeof buf, seed), (size_t)-1);
        }
    }
}

/* --- inject on the CPU backend ---------------------------------------------- */

static rn_trial cpu_trial(const char *workload, rn_dtype dt, long long size, const rn_param *p,
                          int np)
{
    return (rn_trial){.workload = workload,
                      .device = RN_DEV_CPU,
                      .threads = 2,
                      .dtype = dt,
                      .size = size,
                      .seed = 9,
                      .params = p,
                      .nparams = np};
}

/* prepare, run, check: returns check's answer (prepare and run must pass) */
static int run_check(const rn_workload_impl *w, const rn_trial *t, rn_error *err)
{
    void *state = NULL;
    cr_assert_eq(w->prepare(t, &state, err), 0, "%s prepare: %s", w->name, err->msg);
    cr_assert_eq(w->run(state, NULL, err), 0, "%s run: %s", w->name, err->msg);
    int rc = w->check(state, err);
    w->release(state);
    return rc;
}

Test(verify_inject, skip_kernel_fails_every_cpu_check)
{
    const rn_workload_impl *ws[] = {&cpu_axpb, &cpu_nested_sin, &cpu_matmul, &cpu_sumsq};
    const long long sizes[] = {5000, 5000, 24, 40};
    for (int i = 0; i < 4; i++)
        for (int dt = RN_F32; dt <= (ws[i] == &cpu_sumsq ? RN_F32 : RN_F64); dt++) {
            rn_error err = {{0}};
            const rn_param none[] = {{"inject", "none", 0}};
            rn_trial t = cpu_trial(ws[i]->name, (rn_dtype)dt, sizes[i], none, 1);
            cr_expect_eq(run_check(ws[i], &t, &err), 0, "%s inject none: %s", ws[i]->name,
                         err.msg);
            const rn_param skip[] = {{"inject", "skip_kernel", 0}};
            t = cpu_trial(ws[i]->name, (rn_dtype)dt, sizes[i], skip, 1);
            err.msg[0] = '\0';
            cr_expect_neq(run_check(ws[i], &t, &err), 0, "%s %s: a skipped kernel passed",
                          ws[i]->name, rn_dtype_name((rn_dtype)dt));
            cr_expect(strstr(err.msg, "nan") || strstr(err.msg, "NaN"), "%s: %s", ws[i]->name,
                      err.msg);
        }
}

Test(verify_inject, skip_copy_skips_a_cpu_trial)
{
    const rn_param skip[] = {{"inject", "skip_copy", 0}};
    rn_trial t = cpu_trial("axpb", RN_F32, 100, skip, 1);
    void *state = NULL;
    rn_error err = {{0}};
    cr_assert_eq(cpu_axpb.prepare(&t, &state, &err), RN_PREPARE_SKIP);
    cr_assert_null(state);
    cr_expect(strstr(err.msg, "skip_copy"), "%s", err.msg);
}

/* --- validation ------------------------------------------------------------- */

Test(verify_config, bad_values_are_errors_with_line_and_column)
{
    expect_parse_error("workload: matmul\nparams:\n  host_memory: locked\n",
                       "3:16: 'host_memory' must be auto, pageable or pinned, not 'locked'");
    expect_parse_error("workload: axpb\nsweep:\n  host_memory: [pinned, paged]\n",
                       "'host_memory' must be auto, pageable or pinned, not 'paged'");
    expect_parse_error("workload: sumsq\nparams: {inject: skip_copy}\n",
                       "2:18: 'inject' must be none or skip_kernel, not 'skip_copy'");
    expect_parse_error("workload: matmul\nparams: {k: 0}\n", "2:13: 'k' must be between 1 and");
    expect_parse_error("workload: matmul\nparams: {m: 0}\n", "2:13: 'm' must be between 1 and");
    /* sweepable, every value kept */
    diags d = {0};
    const char *text = "workload: nested_sin\ndevice: cuda\n"
                       "sweep:\n  host_memory: [pageable, pinned]\n  io: [with, overlap]\n";
    experiment *e = experiment_parse("t.yaml", text, strlen(text), &d);
    cr_assert(e, "%s", d.n ? d.items[0].msg : "");
    cr_expect_eq(e->ntrials, 4);
    experiment_free(e);
    diag_free(&d);
}

Test(verify_config, runner_exits_2_on_a_bad_host_memory)
{
    const char *bin = getenv("RUNNER_BIN");
    if (!bin)
        cr_skip_test("RUNNER_BIN is not set (make test sets it)");
    char dir[] = "/tmp/rn-verify-XXXXXX";
    cr_assert(mkdtemp(dir));
    char path[256], cmd[1024];
    snprintf(path, sizeof path, "%s/hm.yaml", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("workload: memcpy\ndevice: cuda\nparams:\n  host_memory: yes\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s validate %s 2>&1", bin, path);
    FILE *p = popen(cmd, "r");
    cr_assert(p);
    char out[4096] = "";
    size_t len = fread(out, 1, sizeof out - 1, p);
    out[len] = '\0';
    int status = pclose(p);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 2, "status %d: %s", status, out);
    cr_expect(strstr(out, "hm.yaml:4:16: error: 'host_memory' must be auto, pageable or pinned"),
              "%s", out);
    unlink(path);
    rmdir(dir);
}

/* --- what the runner computes from a trial ------------------------------------ */

Test(verify_workloads, memcpy_d2d_counts_bytes_read_and_written)
{
    const workload_desc *w = workload_find("memcpy");
    cr_assert(w && w->bytes);
    const rn_param d2d[] = {{"direction", "d2d", 0}}, h2d[] = {{"direction", "h2d", 0}};
    rn_trial t = {.workload = "memcpy", .size = 1000, .params = d2d, .nparams = 1};
    cr_expect_eq(w->bytes(&t), 2000.0);
    t.params = h2d;
    cr_expect_eq(w->bytes(&t), 1000.0);
}

Test(verify_workloads, mlp_memory_follows_the_dataset)
{
    char dir[] = "/tmp/rn-mlp-XXXXXX";
    cr_assert(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/d.csv", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("a,b,c,label\n", f); /* 3 features */
    for (int r = 0; r < 100000; r++)
        fprintf(f, "%d,%d,%d,%d\n", r, r + 1, r + 2, r % 2);
    fclose(f);
    const workload_desc *w = workload_find("mlp_train");
    cr_assert(w && w->memory);
    const rn_param syn[] = {{"epochs", "10", 10}};
    const rn_param ds[] = {{"epochs", "10", 10}, {"dataset", path, 0}};
    rn_trial t = {.workload = "mlp_train", .size = 10, .params = syn, .nparams = 1};
    double synthetic = w->memory(&t);
    t.params = ds;
    t.nparams = 2;
    double with_data = w->memory(&t);
    /* 100000 rows x (3 + 1) floats + 10 epochs x 100000 int32 at least */
    cr_expect_geq(with_data, 4.0 * (100000 * 4 + 10 * 100000), "%g", with_data);
    cr_expect_gt(with_data, 20 * synthetic, "%g vs %g", with_data, synthetic);
    unlink(path);
    rmdir(dir);
}
