/* test_cnn.c - `cnn_forward` (doc/workloads.md#cnn_forward): the network's shape
 * and counts (ResNet-20's published size), the CPU backend's f32 and bf16
 * logits against the double direct-convolution reference on every image,
 * amp against pure bf16, check() catching a wrong logit, the tolerances
 * against the storage rounding emulated in the reference, and the skips
 * and errors. */
#include "cpu_trial.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cnn_model.h"
#include "cpu/cpu.h"
#include "experiment/registry/workloads.h"

static rn_trial trial(long long batch, rn_dtype dtype, int threads, const rn_param *p, int np)
{
    return cpu_trial("cnn_forward", dtype, batch, threads, 7, p, np);
}

static void *prepare_ok(const rn_trial *t)
{
    rn_error err = {{0}};
    void *st = NULL;
    cr_assert_eq(cpu_cnn_forward.prepare(t, &st, &err), 0, "prepare: %s", err.msg);
    cr_assert_not_null(st);
    return st;
}

static const float *logits_of(void *st)
{
    return *(const float **)st; /* cpu_output.data is first (verify.h) */
}

/* The largest error of every image's logits against the reference computed
 * with `emulate` (RN_F64: the f32 model), of the image's largest |logit|. */
static double worst_error(void *st, const rn_trial *t, rn_dtype emulate)
{
    cnn_cfg c;
    rn_error err;
    cr_assert_eq(cnn_config(t, &c, &err), 0, "%s", err.msg);
    const float *p, *img;
    cpu_cnn_inputs(st, &p, &img);
    const float *got = logits_of(st);
    double *ref = malloc((size_t)c.classes * sizeof *ref), worst = 0;
    for (long long b = 0; b < c.batch; b++) {
        cr_assert_eq(cnn_reference(&c, p, img, b, emulate, ref), 0);
        double m = 0;
        for (int j = 0; j < c.classes; j++)
            m = fabs(ref[j]) > m ? fabs(ref[j]) : m;
        cr_assert_gt(m, 0);
        for (int j = 0; j < c.classes; j++) {
            double e = fabs(got[b * c.classes + j] - ref[j]) / m;
            cr_assert(e == e, "image %lld logit %d is NaN", b, j);
            worst = e > worst ? e : worst;
        }
    }
    free(ref);
    return worst;
}

/* --- the network ----------------------------------------------------------- */

Test(cnn_model, resnet20_has_the_published_size)
{
    const rn_param p[] = {{"depth", "20", 20}};
    rn_trial t = trial(1, RN_F32, 1, p, 1);
    cnn_cfg c;
    rn_error err;
    cr_assert_eq(cnn_config(&t, &c, &err), 0, "%s", err.msg);
    cr_expect_eq(c.blocks, 3);
    cr_expect_eq(cnn_conv_count(&c), 21);
    cnn_cursor k;
    cnn_conv v;
    int n = 0, shortcuts = 0, sides[3] = {0};
    cnn_start(&k);
    while (cnn_next(&c, &k, &v) == 0) {
        n++;
        shortcuts += v.k == 1;
        cr_expect(v.src != v.dst && v.add != v.dst && v.add != v.src, "conv %d buffers", n);
        if (v.k == 1)
            cr_expect(v.stride == 2 && v.pad == 0 && v.relu == 0);
        if (v.cout == 16)
            sides[0] = v.hout;
        if (v.cout == 32)
            sides[1] = v.hout;
        if (v.cout == 64)
            sides[2] = v.hout;
    }
    cr_expect_eq(n, 21);
    cr_expect_eq(shortcuts, 2);
    cr_expect(sides[0] == 32 && sides[1] == 16 && sides[2] == 8, "%d %d %d", sides[0],
              sides[1], sides[2]);
    size_t fw, fb, total;
    cnn_param_layout(&c, &fw, &fb, &total);
    /* He et al.: ResNet-20 has 0.27M parameters (with projection shortcuts
     * and folded batch-norm biases, 0.272M here); about 41M multiply-adds */
    cr_expect(total > 265000 && total < 280000, "%zu parameters", total);
    double macs = cnn_macs_per_image(&c);
    cr_expect(macs > 40e6 && macs < 42e6, "%.4g multiply-adds", macs);
    cr_expect_eq(cnn_features(&c), 64);
    cr_expect_eq(cnn_final_side(&c), 8);
}

Test(cnn_model, depth_must_be_6n_plus_2)
{
    for (long long d = 0; d < 200; d++)
        cr_expect_eq(cnn_depth_ok(d) == 0, d >= 8 && (d - 2) % 6 == 0, "depth %lld", d);
    const rn_param p[] = {{"depth", "21", 21}};
    rn_trial t = trial(4, RN_F32, 1, p, 1);
    rn_error err = {{0}};
    void *st = (void *)1;
    cr_assert_neq(cpu_cnn_forward.prepare(&t, &st, &err), 0);
    cr_expect_null(st);
    cr_expect(strstr(err.msg, "cnn_forward: depth 21 is not 6n + 2"), "%s", err.msg);
}

Test(cnn_model, odd_sides_round_up_at_a_stride_of_2)
{
    const rn_param p[] = {{"depth", "8", 8}, {"image", "9", 9}};
    rn_trial t = trial(1, RN_F32, 1, p, 2);
    cnn_cfg c;
    rn_error err;
    cr_assert_eq(cnn_config(&t, &c, &err), 0);
    cr_expect_eq(cnn_final_side(&c), 3); /* 9 -> 5 -> 3 */
}

Test(cnn_model, rounding_emulation_is_round_to_nearest_even)
{
    /* f16: 11 significant bits; 1 + 2^-11 is a tie, to even (1) */
    cr_expect_eq(cnn_round(1.0 + ldexp(1, -11), RN_F16), 1.0);
    cr_expect_eq(cnn_round(1.0 + 3 * ldexp(1, -11), RN_F16), 1.0 + ldexp(1, -9));
    cr_expect_eq(cnn_round(65504.0, RN_F16), 65504.0);
    cr_expect(isinf(cnn_round(70000.0, RN_F16)));
    cr_expect_eq(cnn_round(ldexp(1, -24), RN_F16), ldexp(1, -24)); /* the least subnormal */
    cr_expect_eq(cnn_round(ldexp(1, -26), RN_F16), 0.0);
    /* the f16 bit conversions round as cnn_round does: edges, and 200,000
     * floats spread over every exponent an f16 reaches and past it */
    cr_expect_eq(cnn_f16_bits(1.0f), 0x3c00);
    cr_expect_eq(cnn_f16_bits(65504.0f), 0x7bff);
    cr_expect_eq(cnn_f16_bits(65519.99f), 0x7bff);
    cr_expect_eq(cnn_f16_bits(65520.0f), 0x7c00);
    cr_expect_eq(cnn_f16_bits(-INFINITY), 0xfc00);
    cr_expect_eq(cnn_f16_bits((float)ldexp(1, -24)), 0x0001);
    cr_expect_eq(cnn_f16_bits((float)ldexp(1, -25)), 0x0000);            /* tie: to even */
    cr_expect_eq(cnn_f16_bits((float)ldexp(3, -25)), 0x0002);            /* tie: to even */
    cr_expect_eq(cnn_f16_bits((float)ldexp(1023, -24)), 0x03ff);         /* largest subnormal */
    cr_expect_eq(cnn_f16_bits((float)ldexp(2047, -25)), 0x0400);         /* rounds up to normal */
    cr_expect_eq(cnn_f16_bits(-0.0f), 0x8000);
    cr_expect(isnan(cnn_f16_value(cnn_f16_bits(NAN))));
    cr_expect_eq(cnn_f16_value(0x0001), (float)ldexp(1, -24));
    cr_expect_eq(cnn_f16_value(0xc000), -2.0f);
    uint64_t state = 42;
    for (int i = 0; i < 200000; i++) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        int e = (int)((state >> 33) % 50) - 30; /* 2^-30 to 2^19 */
        float x = (float)ldexp(1.0 + (double)(state >> 40) / 16777216.0, e);
        if (state & 1)
            x = -x;
        double want = cnn_round(x, RN_F16);
        float got = cnn_f16_value(cnn_f16_bits(x));
        if (got != (float)want)
            cr_assert_fail("%.9g: %.9g, cnn_round %.9g", x, got, want);
    }
    /* bf16: 8 significant bits, as the bit conversion rounds */
    for (int i = 0; i < 1000; i++) {
        float x = (float)((i - 500) * 0.01234567);
        cr_expect_eq(cnn_round(x, RN_BF16), (double)cnn_bf16_value(cnn_bf16_bits(x)), "%g", x);
    }
    cr_expect_eq(cnn_bf16_bits(1.0f), 0x3f80);
    cr_expect_eq(cnn_bf16_bits(1.0f + ldexp(1, -8)), 0x3f80);           /* tie: to even */
    cr_expect_eq(cnn_bf16_bits(1.0f + 3 * (float)ldexp(1, -8)), 0x3f82); /* tie: to even */
    cr_expect(isnan(cnn_bf16_value(cnn_bf16_bits(NAN))));
}

/* The tolerances of cnn_tolerance() hold with a margin for the storage
 * rounding alone, emulated in the double reference, over depths and seeds. */
Test(cnn_model, emulated_rounding_errors_are_well_within_the_tolerance, .timeout = 60)
{
    const int depths[] = {8, 20, 56};
    double worst[2] = {0, 0};
    const rn_dtype types[2] = {RN_F16, RN_BF16};
    for (int di = 0; di < 3; di++)
        for (uint64_t seed = 0; seed < 3; seed++) {
            char d[8];
            snprintf(d, sizeof d, "%d", depths[di]);
            const rn_param p[] = {{"depth", d, depths[di]}, {"image", "16", 16}};
            rn_trial t = trial(2, RN_F32, 1, p, 2);
            cnn_cfg c;
            rn_error err;
            cr_assert_eq(cnn_config(&t, &c, &err), 0);
            size_t fw, fb, total;
            cnn_param_layout(&c, &fw, &fb, &total);
            size_t per = (size_t)c.channels * c.image * c.image;
            float *w = malloc(total * sizeof *w), *img = malloc(2 * per * sizeof *img);
            cnn_init_params(&c, seed, w);
            for (size_t i = 0; i < 2 * per; i++)
                img[i] = cnn_image_value(seed, i);
            double ref[10], got[10];
            for (int b = 0; b < 2; b++) {
                cr_assert_eq(cnn_reference(&c, w, img, b, RN_F64, ref), 0);
                double m = 0;
                for (int j = 0; j < 10; j++)
                    m = fabs(ref[j]) > m ? fabs(ref[j]) : m;
                for (int k = 0; k < 2; k++) {
                    cr_assert_eq(cnn_reference(&c, w, img, b, types[k], got), 0);
                    for (int j = 0; j < 10; j++) {
                        double e = fabs(got[j] - ref[j]) / m;
                        worst[k] = e > worst[k] ? e : worst[k];
                    }
                }
            }
            free(w);
            free(img);
        }
    cr_log_info("emulated storage rounding: f16 %.3g, bf16 %.3g of the largest logit",
                worst[0], worst[1]);
    /* rounding does change the result ... */
    cr_expect_gt(worst[0], 1e-5);
    cr_expect_gt(worst[1], 1e-4);
    /* ... and by at most half the tolerance */
    cr_expect_lt(worst[0], cnn_tolerance(RN_F16) / 2, "f16 %.3g", worst[0]);
    cr_expect_lt(worst[1], cnn_tolerance(RN_BF16) / 2, "bf16 %.3g", worst[1]);
    /* and f16, with 3 more bits, is closer than bf16 */
    cr_expect_lt(worst[0], worst[1] / 2);
}

/* --- the CPU backend ------------------------------------------------------- */

/* prepare, run, check; every image's logits against the reference. */
static double forward(const rn_trial *t, rn_dtype emulate, float *copy, size_t ncopy)
{
    void *st = prepare_ok(t);
    rn_error err = {{0}};
    cr_assert_eq(cpu_cnn_forward.run(st, NULL, &err), 0, "run: %s", err.msg);
    cr_assert_eq(cpu_cnn_forward.check(st, &err), 0, "check: %s", err.msg);
    double worst = worst_error(st, t, emulate);
    if (copy)
        memcpy(copy, logits_of(st), ncopy * sizeof *copy);
    cpu_cnn_forward.release(st);
    return worst;
}

Test(cnn_cpu, f32_matches_the_reference_on_every_image, .timeout = 60)
{
    /* odd sides and an odd batch (chunks, stride-2 edges), 2 threads */
    const rn_param small[] = {{"depth", "8", 8}, {"width", "4", 4}, {"image", "9", 9},
                              {"classes", "7", 7}, {"channels", "2", 2}};
    rn_trial t = trial(5, RN_F32, 2, small, 5);
    double e = forward(&t, RN_F64, NULL, 0);
    cr_expect_lt(e, 1e-5, "small: %.3g", e);
    /* ResNet-20 on 32 x 32 images */
    const rn_param r20[] = {{"depth", "20", 20}};
    t = trial(3, RN_F32, 2, r20, 1);
    e = forward(&t, RN_F64, NULL, 0);
    cr_log_info("ResNet-20 f32: largest logit error %.3g", e);
    cr_expect_lt(e, 1e-5, "ResNet-20: %.3g", e);
}

Test(cnn_cpu, a_batch_larger_than_one_im2col_chunk_matches_too, .timeout = 60)
{
    /* 1 Mi floats of col hold 7 images of the stem's 144 x 1024: 17 images
     * make three chunks, the last partial */
    const rn_param p[] = {{"depth", "8", 8}, {"width", "16", 16}, {"image", "32", 32}};
    rn_trial t = trial(17, RN_F32, 2, p, 3);
    double e = forward(&t, RN_F64, NULL, 0);
    cr_expect_lt(e, 1e-5, "%.3g", e);
}

/* The network of the storage tests (depth 14, width 8, 12 x 12 images; amp
 * when asked), 4 images in `dtype`: forward against `reference`. */
static double storage_forward(rn_dtype dtype, int amp, rn_dtype reference, float *logits)
{
    static const rn_param p[] = {
        {"depth", "14", 14}, {"width", "8", 8}, {"image", "12", 12}, {"amp", "true", 1}};
    rn_trial t = trial(4, dtype, 2, p, amp ? 4 : 3);
    return forward(&t, reference, logits, logits ? 40 : 0);
}

Test(cnn_cpu, bf16_matches_its_emulation_and_the_f32_model_within_the_tolerance, .timeout = 60)
{
    float bf[40], f32[40];
    double to_f32 = storage_forward(RN_BF16, 0, RN_F64, bf);
    double to_emulation = storage_forward(RN_BF16, 0, RN_BF16, NULL);
    cr_log_info("bf16: %.3g from the f32 model, %.3g from its emulation", to_f32, to_emulation);
    cr_expect_lt(to_f32, cnn_tolerance(RN_BF16) / 2, "%.3g", to_f32);
    cr_expect_gt(to_f32, 1e-4, "bf16 rounding must show: %.3g", to_f32);
    /* the emulation rounds where the backend does: far closer than to f32 */
    cr_expect_lt(to_emulation, to_f32 / 4, "%.3g vs %.3g", to_emulation, to_f32);
    storage_forward(RN_F32, 0, RN_F64, f32);
    int differ = 0;
    for (int i = 0; i < 40; i++)
        differ += bf[i] != f32[i];
    cr_expect_gt(differ, 30, "bf16 and f32 logits are the same in %d of 40", 40 - differ);
    /* every bf16 logit is a bf16 value */
    for (int i = 0; i < 40; i++)
        cr_expect_eq(bf[i], cnn_bf16_value(cnn_bf16_bits(bf[i])));
}

/* f16 storage (doc/workloads.md#cnn_forward): within the tolerance of the f32
 * model, far closer to the f16 emulation, closer than bf16 (3 more bits),
 * every logit an f16 value; amp f16 gives the pure f16 result */
Test(cnn_cpu, f16_matches_its_emulation_and_the_f32_model_within_the_tolerance, .timeout = 60)
{
    float h[40], a[40];
    double to_f32 = storage_forward(RN_F16, 0, RN_F64, h);
    double to_emulation = storage_forward(RN_F16, 0, RN_F16, NULL);
    double bf_to_f32 = storage_forward(RN_BF16, 0, RN_F64, NULL);
    cr_log_info("f16: %.3g from the f32 model, %.3g from its emulation (bf16 %.3g)", to_f32,
                to_emulation, bf_to_f32);
    cr_expect_lt(to_f32, cnn_tolerance(RN_F16) / 2, "%.3g", to_f32);
    cr_expect_gt(to_f32, 1e-6, "f16 rounding must show: %.3g", to_f32);
    cr_expect_lt(to_emulation, to_f32 / 4, "%.3g vs %.3g", to_emulation, to_f32);
    cr_expect_lt(to_f32, bf_to_f32, "f16 %.3g, bf16 %.3g", to_f32, bf_to_f32);
    for (int i = 0; i < 40; i++)
        cr_expect_eq(h[i], cnn_f16_value(cnn_f16_bits(h[i])), "logit %d = %.9g is not an f16 value",
                     i, h[i]);
    storage_forward(RN_F16, 1, RN_F64, a);
    for (int i = 0; i < 40; i++)
        cr_expect_eq(a[i], h[i], "amp logit %d: %.9g vs %.9g", i, a[i], h[i]);
}

Test(cnn_cpu, amp_gives_the_pure_bf16_result, .timeout = 60)
{
    /* amp rounds the same f32 master weights to bf16, once per call */
    const rn_param p[] = {{"depth", "8", 8}, {"width", "8", 8}, {"image", "10", 10}};
    const rn_param pa[] = {{"depth", "8", 8}, {"width", "8", 8}, {"image", "10", 10},
                           {"amp", "true", 1}};
    rn_trial t = trial(3, RN_BF16, 1, p, 3), ta = trial(3, RN_BF16, 1, pa, 4);
    float a[30], b[30];
    forward(&t, RN_F64, a, 30);
    forward(&ta, RN_F64, b, 30);
    for (int i = 0; i < 30; i++)
        cr_expect_eq(a[i], b[i], "logit %d: %.9g vs %.9g", i, a[i], b[i]);
}

Test(cnn_cpu, check_catches_a_wrong_logit_in_each_checked_image)
{
    const rn_param p[] = {{"depth", "8", 8}, {"width", "4", 4}, {"image", "8", 8}};
    const size_t idx[] = {3, 5 * 10 + 9, 10 * 10 + 0}; /* images 0, 5, 10 of 11 */
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < 3; i++) {
            rn_trial t = trial(11, d ? RN_BF16 : RN_F32, 1, p, 3);
            void *st = prepare_ok(&t);
            rn_error err = {{0}};
            cr_assert_eq(cpu_cnn_forward.run(st, NULL, &err), 0);
            cr_assert_eq(cpu_cnn_forward.check(st, &err), 0, "%s", err.msg);
            cr_assert_eq(cpu_test_corrupt(st, idx[i]), 0);
            cr_assert_neq(cpu_cnn_forward.check(st, &err), 0, "missed logit %zu", idx[i]);
            char want[64];
            snprintf(want, sizeof want, "cnn_forward: logit [%zu][%zu] = ", idx[i] / 10,
                     idx[i] % 10);
            cr_expect(strncmp(err.msg, want, strlen(want)) == 0, "%s (want %s)", err.msg, want);
            cr_expect(strstr(err.msg, "but the reference is") && strstr(err.msg, d ? "bf16" : "f32"),
                      "%s", err.msg);
            cpu_cnn_forward.release(st);
        }
}

typedef struct seen {
    int n;
    double error;
} seen;

static void collect(void *ctx, const char *k, const char *v)
{
    seen *s = ctx;
    cr_expect_str_eq(k, "logit_error");
    s->n++;
    s->error = strtod(v, NULL);
}

Test(cnn_cpu, extras_report_the_checks_error)
{
    const rn_param p[] = {{"depth", "8", 8}, {"width", "4", 4}, {"image", "8", 8}};
    rn_trial t = trial(2, RN_BF16, 1, p, 3);
    void *st = prepare_ok(&t);
    rn_error err = {{0}};
    seen s = {0, 0};
    cpu_cnn_forward.extras(st, &s, collect);
    cr_expect_eq(s.n, 0, "nothing before a check");
    cr_assert_eq(cpu_cnn_forward.run(st, NULL, &err), 0);
    cr_assert_eq(cpu_cnn_forward.check(st, &err), 0, "%s", err.msg);
    cpu_cnn_forward.extras(st, &s, collect);
    cr_expect_eq(s.n, 1);
    cr_expect(s.error > 0 && s.error < cnn_tolerance(RN_BF16), "%g", s.error);
    cpu_cnn_forward.release(st);
}

Test(cnn_cpu, amp_with_f32_and_f64_are_skipped_with_the_reason)
{
    rn_error err = {{0}};
    void *st = (void *)1;
    rn_trial t = trial(2, RN_F64, 1, NULL, 0);
    cr_expect_eq(cpu_cnn_forward.prepare(&t, &st, &err), RN_PREPARE_SKIP);
    cr_expect_null(st);
    cr_expect(strstr(err.msg, "dtype f64 is not supported by the cpu backend"), "%s", err.msg);
    const rn_param amp[] = {{"amp", "true", 1}};
    t = trial(2, RN_F32, 1, amp, 1);
    cr_expect_eq(cpu_cnn_forward.prepare(&t, &st, &err), RN_PREPARE_SKIP);
    cr_expect(strstr(err.msg, "amp: true with dtype f32"), "%s", err.msg);
    t = trial(0, RN_F32, 1, NULL, 0);
    cr_expect_eq(cpu_cnn_forward.prepare(&t, &st, &err), -1);
    cr_expect(strstr(err.msg, "size (the batch) = 0"), "%s", err.msg);
}

Test(cnn_cpu, registered_with_its_flops)
{
    cr_assert_not_null(cpu_backend()->workload("cnn_forward"));
    const workload_desc *w = workload_find("cnn_forward");
    cr_assert_not_null(w);
    const rn_param p[] = {{"depth", "20", 20}};
    rn_trial t = trial(200, RN_BF16, 1, p, 1);
    cnn_cfg c;
    rn_error err;
    cr_assert_eq(cnn_config(&t, &c, &err), 0);
    cr_expect_eq(w->flops(&t), 2.0 * 200 * cnn_macs_per_image(&c));
    cr_expect_gt(w->memory(&t), 5.0 * 200 * 16 * 32 * 32 * 2);
    cr_expect_str_eq(w->rule("depth", 21), "6n + 2 (8, 14, 20, 26, 32, 44, 56, 110, ...)");
    cr_expect_null(w->rule("depth", 110));
}
