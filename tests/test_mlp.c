/* test_mlp.c - the CPU `mlp_train`: gradients against central finite
 * differences, the AdamW step against its formula, training on the
 * synthetic set at the document's settings (900 x 13, 32/16/2, lr 1e-3,
 * 100 epochs, batch 10) and at a large batch, a CSV fixture, CSV errors with
 * FILE:LINE, parameter validation, and check() refusing a loss that did not
 * fall.  Fixtures: tests/data/ under $RUNNER_ROOT (default: the current
 * directory). */
#include "cpu_trial.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpu/mlp.h"

/* --- helpers ---------------------------------------------------------------- */

static void fixture(const char *name, char *out, size_t len)
{
    const char *root = getenv("RUNNER_ROOT");
    snprintf(out, len, "%s/tests/data/%s", root && *root ? root : ".", name);
}

static rn_trial trial(long long size, int threads, const rn_param *params, int nparams)
{
    return cpu_trial("mlp_train", RN_F32, size, threads, 0, params, nparams);
}

typedef struct extras_seen {
    double loss, accuracy;
    int n;
} extras_seen;

static void collect(void *ctx, const char *k, const char *v)
{
    extras_seen *e = (extras_seen *)ctx;
    e->n++;
    if (strcmp(k, "loss") == 0)
        e->loss = strtod(v, NULL);
    else if (strcmp(k, "accuracy") == 0)
        e->accuracy = strtod(v, NULL);
    else
        cr_assert_fail("unexpected extra column %s", k);
}

/* prepare, run, check (must pass), extras; returns loss and accuracy. */
static extras_seen train(const rn_trial *t)
{
    rn_error err = {{0}};
    void *state = NULL;
    cr_assert_eq(cpu_mlp_train.prepare(t, &state, &err), 0, "prepare: %s", err.msg);
    rn_sample smp;
    rn_sample_clear(&smp);
    cr_assert_eq(cpu_mlp_train.run(state, &smp, &err), 0, "run: %s", err.msg);
    cr_assert_eq(cpu_mlp_train.check(state, &err), 0, "check: %s", err.msg);
    extras_seen e = {NAN, NAN, 0};
    cpu_mlp_train.extras(state, &e, collect);
    cr_assert_eq(e.n, 2);
    cpu_mlp_train.release(state);
    return e;
}

/* prepare must fail; returns its message. */
static void prepare_fails(const rn_trial *t, int want_rc, char *msg, size_t len)
{
    rn_error err = {{0}};
    void *state = (void *)1;
    int rc = cpu_mlp_train.prepare(t, &state, &err);
    cr_assert_neq(rc, 0, "prepare accepted it");
    if (want_rc)
        cr_expect_eq(rc, want_rc, "rc %d: %s", rc, err.msg);
    cr_expect_null(state);
    snprintf(msg, len, "%s", err.msg);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --- gradients ---------------------------------------------------------------- */

Test(mlp_grad, matches_central_differences)
{
    rn_error err = {{0}};
    mlp_net net;
    cr_assert_eq(mlp_parse_layers("5,7,6,3", 5, 3, &net, &err), 0, "%s", err.msg);
    const int batch = 6;
    float *p = malloc(net.nparams * sizeof *p), *g = malloc(net.nparams * sizeof *g);
    float x[6 * 5];
    int32_t y[6] = {0, 2, 1, 1, 0, 2};
    cr_assert(p && g);
    mlp_init_params(&net, 11, p);
    for (size_t i = net.nweights; i < net.nparams; i++) /* non-zero biases */
        p[i] = (float)(0.3 * mlp_normal(12, 1, 0, i));
    for (int i = 0; i < batch * 5; i++)
        x[i] = (float)mlp_normal(13, 2, 0, (uint64_t)i);
    mlp_cpu_work w;
    cr_assert_eq(mlp_cpu_work_init(&w, &net, batch, 1, &err), 0, "%s", err.msg);
    double loss = mlp_loss_grad(&net, p, x, y, batch, g, &w);
    cr_assert(isfinite(loss) && loss > 0);
    cr_expect_float_eq(mlp_loss_grad(&net, p, x, y, batch, NULL, &w), loss, 1e-12,
                       "the loss without the gradient differs");
    const float h = 1e-3f;
    int bad = 0;
    for (size_t i = 0; i < net.nparams; i++) {
        float keep = p[i];
        p[i] = keep + h;
        double up = mlp_loss_grad(&net, p, x, y, batch, NULL, &w);
        p[i] = keep - h;
        double down = mlp_loss_grad(&net, p, x, y, batch, NULL, &w);
        p[i] = keep;
        double fd = (up - down) / (2.0 * (double)h);
        double tol = 2e-3 + 2e-2 * fabs(fd);
        if (fabs(fd - g[i]) > tol) {
            bad++;
            cr_log_error("parameter %zu (%s): gradient %.6g, central difference %.6g", i,
                         i < net.nweights ? "weight" : "bias", g[i], fd);
        }
    }
    cr_expect_eq(bad, 0, "%d of %zu gradients are off", bad, net.nparams);
    /* the gradient is not trivially zero */
    double norm = 0;
    for (size_t i = 0; i < net.nparams; i++)
        norm += (double)g[i] * g[i];
    cr_expect(norm > 1e-4, "gradient norm^2 %g", norm);
    mlp_cpu_work_free(&w);
    free(p);
    free(g);
}

Test(mlp_grad, adamw_step_follows_the_formula)
{
    /* 4 parameters, the first 2 weights (decayed), 2 biases (not) */
    float p[4] = {1.0f, -2.0f, 0.5f, 3.0f}, g[4] = {0.1f, -0.2f, 0.0f, 1.5f};
    float m[4] = {0}, v[4] = {0};
    float p0[4];
    memcpy(p0, p, sizeof p);
    const double lr = 0.01, wd = 0.1;
    mlp_adamw_step(p, g, m, v, 4, 2, lr, wd, 1, 1);
    for (int i = 0; i < 4; i++) {
        double w = p0[i] * (i < 2 ? 1 - lr * wd : 1.0);
        double mi = 0.1 * g[i], vi = 0.001 * g[i] * g[i];
        double mh = mi / (1 - 0.9), vh = vi / (1 - 0.999);
        double want = w - lr * mh / (sqrt(vh) + 1e-8);
        cr_expect(fabs(p[i] - want) < 1e-6, "p[%d] = %.9g, want %.9g", i, p[i], want);
        cr_expect(fabs(m[i] - mi) <= 1e-4 * fabs(mi) && fabs(v[i] - vi) <= 1e-4 * fabs(vi),
                  "moments of %d: %.9g %.9g, want %.9g %.9g", i, m[i], v[i], mi, vi);
    }
    /* a zero gradient moves a weight by the decay alone, a bias not at all */
    cr_expect(fabs(p[2] - 0.5f) < 1e-7);
}

/* --- training ---------------------------------------------------------------- */

Test(mlp_train, synthetic_set_at_the_documents_settings, .timeout = 60)
{
    /* defaults: 900 x 13, features,32,16,2, lr 1e-3, 100 epochs; batch 10 */
    rn_trial t = trial(10, 2, NULL, 0);
    rn_error err = {{0}};
    void *state = NULL;
    cr_assert_eq(cpu_mlp_train.prepare(&t, &state, &err), 0, "prepare: %s", err.msg);
    double t0 = now();
    cr_assert_eq(cpu_mlp_train.run(state, NULL, &err), 0, "run: %s", err.msg);
    double t1 = now();
    cr_assert_eq(cpu_mlp_train.check(state, &err), 0, "check: %s", err.msg);
    extras_seen e = {NAN, NAN, 0};
    cpu_mlp_train.extras(state, &e, collect);
    cr_log_info("mlp_train 900 x 13, batch 10, 100 epochs: %.3f s, loss %.4f, accuracy %.4f",
                t1 - t0, e.loss, e.accuracy);
    cr_expect(e.loss < 0.4, "loss %g", e.loss);
    cr_expect(e.accuracy > 0.8, "accuracy %g", e.accuracy);
    /* a second run starts again from the same weights: the same result */
    cr_assert_eq(cpu_mlp_train.run(state, NULL, &err), 0, "run: %s", err.msg);
    extras_seen e2 = {NAN, NAN, 0};
    cpu_mlp_train.extras(state, &e2, collect);
    cr_expect(e2.loss == e.loss && e2.accuracy == e.accuracy, "second run: %g %g vs %g %g", e2.loss,
              e2.accuracy, e.loss, e.accuracy);
    cpu_mlp_train.release(state);
}

Test(mlp_train, large_batch_and_other_shapes)
{
    /* a batch larger than the set is the whole set: one step per epoch */
    const rn_param p[] = {{"lr", "0.01", 0.01}, {"epochs", "200", 200}};
    rn_trial t = trial(1024, 1, p, 2);
    extras_seen e = train(&t);
    cr_expect(e.accuracy > 0.8, "accuracy %g", e.accuracy);
    /* a partial last batch (900 = 7 * 128 + 4), one hidden layer, 2 threads */
    const rn_param q[] = {{"layers", "[13, 64, 2]", NAN}, {"epochs", "20", 20}};
    rn_trial u = trial(128, 2, q, 2);
    e = train(&u);
    cr_expect(e.accuracy > 0.8, "accuracy %g", e.accuracy);
    /* more rows and features, logistic regression, another seed */
    const rn_param r[] = {{"rows", "3000", 3000},
                          {"features", "40", 40},
                          {"layers", "40,2", NAN},
                          {"epochs", "5", 5},
                          {"lr", "0.01", 0.01}};
    rn_trial v = trial(64, 1, r, 5);
    v.seed = 77;
    e = train(&v);
    cr_expect(e.accuracy > 0.8, "accuracy %g", e.accuracy);
}

Test(mlp_train, csv_fixture_trains)
{
    char path[4096];
    fixture("mlp_small.csv", path, sizeof path);
    /* 120 rows, 4 features, 3 classes */
    const rn_param p[] = {{"dataset", path, NAN}, {"layers", "features,16,3", NAN},
                          {"epochs", "60", 60},   {"lr", "0.01", 0.01},
                          {"rows", "900", 900}, /* ignored with a dataset */
                          {"features", "13", 13}};
    rn_trial t = trial(8, 1, p, 6);
    extras_seen e = train(&t);
    cr_expect(e.accuracy > 0.85, "accuracy %g", e.accuracy);
    cr_expect(e.loss < 0.5, "loss %g", e.loss);
}

/* --- CSV errors ----------------------------------------------------------------- */

static void csv_error(const char *text, const char *want_after_path)
{
    char path[] = "/tmp/mlp_csv_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    size_t n = strlen(text);
    cr_assert_eq(write(fd, text, n), (ssize_t)n);
    close(fd);
    const rn_param p[] = {{"dataset", path, NAN}};
    rn_trial t = trial(10, 1, p, 1);
    char msg[1024], want[1024];
    prepare_fails(&t, -1, msg, sizeof msg);
    snprintf(want, sizeof want, "%s%s", path, want_after_path);
    cr_expect_str_eq(msg, want);
    unlink(path);
}

Test(mlp_csv, bad_row_fixture_names_file_and_line)
{
    char path[4096], msg[1024], want[4200];
    fixture("mlp_bad_row.csv", path, sizeof path);
    const rn_param p[] = {{"dataset", path, NAN}};
    rn_trial t = trial(10, 1, p, 1);
    prepare_fails(&t, -1, msg, sizeof msg);
    snprintf(want, sizeof want, "%s:7: expected 5 numbers, got 4", path);
    cr_expect_str_eq(msg, want);
}

Test(mlp_csv, errors)
{
    csv_error("a,b,y\n1,2,0\n1,x,1\n", ":3: expected 3 numbers, got 'x' in column 2");
    csv_error("a,b,y\n1,2,0\n1,,1\n",
              ":3: expected 3 numbers, got '' in column 2 (an empty field)");
    csv_error("a,b,y\n1,2,0\n1,2,3,4\n", ":3: expected 3 numbers, got 4");
    csv_error("a,b,y\n1,2,0\n1,2,-1\n",
              ":3: the label (column 3, the last) must be an integer from 0 to 65535, got '-1'");
    csv_error("a,b,y\n1,2,0.5\n",
              ":2: the label (column 3, the last) must be an integer from 0 to 65535, got '0.5'");
    csv_error("a,b,y\n1,nan,1\n", ":2: expected 3 numbers, got 'nan' in column 2");
    csv_error("1,2,0\n1,2,1\n", ":1: the first line must be a header (column names), not numbers");
    csv_error("y\n1\n", ":1: expected a header of at least 2 columns (features..., label), got 1");
    csv_error("\n1,2,0\n",
              ":1: expected a header of at least 2 columns (features..., label), got 0");
    csv_error("", ": empty file (expected a header line, then data rows)");
    csv_error("a,b,y\n\n  \n", ": no data rows after the header");
    char msg[1024];
    const rn_param p[] = {{"dataset", "/nonexistent/mlp.csv", NAN}};
    rn_trial t = trial(10, 1, p, 1);
    prepare_fails(&t, -1, msg, sizeof msg);
    cr_expect(strstr(msg, "/nonexistent/mlp.csv: cannot open the data set: ") == msg, "%s", msg);
}

Test(mlp_csv, tolerant_of_spaces_crlf_blank_lines_and_float_labels)
{
    char path[] = "/tmp/mlp_csv_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    const char *text = "x1, x2 ,label\r\n"
                       " 1.5, -2 , 1\r\n"
                       "\r\n"
                       "0,0,0.0\r\n"
                       "3e-1,4,2\r\n"
                       "-1,-1,0"; /* no final newline */
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    mlp_data d;
    rn_error err = {{0}};
    cr_assert_eq(mlp_load_csv(path, &d, &err), 0, "%s", err.msg);
    cr_expect_eq(d.rows, 4);
    cr_expect_eq(d.features, 2);
    cr_expect_eq(d.classes, 3);
    const float want_x[] = {1.5f, -2, 0, 0, 0.3f, 4, -1, -1};
    const int32_t want_y[] = {1, 0, 2, 0};
    for (int i = 0; i < 8; i++)
        cr_expect_eq(d.x[i], want_x[i], "x[%d] = %g", i, d.x[i]);
    for (int i = 0; i < 4; i++)
        cr_expect_eq(d.y[i], want_y[i], "y[%d] = %d", i, d.y[i]);
    mlp_data_free(&d);
    unlink(path);
}

/* --- parameters ----------------------------------------------------------------- */

static void param_error(const char *name, const char *text, double num, long long size,
                        const char *want)
{
    const rn_param p[] = {{name, text, num}};
    rn_trial t = trial(size, 1, p, 1);
    char msg[1024];
    prepare_fails(&t, -1, msg, sizeof msg);
    cr_expect(strstr(msg, want) != NULL, "%s = %s: message '%s', want '%s'", name, text, msg, want);
}

Test(mlp_params, validation)
{
    param_error("layers", "32,16", NAN, 10,
                "mlp_train: layers '32,16' starts with 32 inputs but the data set has 13 features");
    param_error("layers", "features,32,1", NAN, 10,
                "mlp_train: layers 'features,32,1' ends with 1 outputs but the labels go up to 1 "
                "(2 classes)");
    param_error("layers", "features,x,2", NAN, 10,
                "mlp_train: layers 'features,x,2': entry 2 ('x') is not a width between 1 and");
    param_error("layers", "features,32,2,", NAN, 10, "entry 4 ('') is not a width");
    param_error("layers", "features,0,2", NAN, 10, "entry 2 ('0') is not a width");
    param_error("layers", "13", 13, 10, "needs at least an input and an output width");
    param_error("layers", "[13,2", NAN, 10, "layers '[13,2' is not a list");
    param_error("layers", "13,features,2", NAN, 10, "entry 2 ('features') is not a width");
    param_error("layers", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", NAN, 10,
                "has more than 16 widths");
    param_error("lr", "0", 0, 10, "mlp_train: lr must be above 0, not 0");
    param_error("epochs", "0", 0, 10, "mlp_train: epochs must be an integer from 1");
    param_error("weight_decay", "-1", -1, 10, "weight_decay must be 0 or more");
    param_error("rows", "0", 0, 10, "mlp_train: rows must be an integer from 1");
    param_error("features", "0", 0, 10, "mlp_train: features must be an integer from 1");
    param_error("epochs", "100", 100, 0,
                "mlp_train: size (the batch size) must be at least 1, not 0");
    rn_trial t = trial(10, 1, NULL, 0);
    t.dtype = RN_F64;
    char msg[1024];
    prepare_fails(&t, 2, msg, sizeof msg);
    cr_expect_str_eq(msg, "mlp_train: dtype f64 is not supported (f32 only)");
}

Test(mlp_params, layers_forms)
{
    rn_error err = {{0}};
    mlp_net net;
    cr_assert_eq(mlp_parse_layers(" [ features , 32, 16 , 2 ] ", 13, 2, &net, &err), 0, "%s",
                 err.msg);
    cr_expect(net.nw == 4 && net.width[0] == 13 && net.width[1] == 32 && net.width[2] == 16 &&
              net.width[3] == 2);
    cr_expect_eq(net.nweights, 13 * 32 + 32 * 16 + 16 * 2);
    cr_expect_eq(net.nparams, net.nweights + 32 + 16 + 2);
    cr_expect(net.woff[0] == 0 && net.woff[1] == 13 * 32 && net.boff[0] == net.nweights &&
              net.boff[2] == net.nweights + 48);
    cr_expect_eq(net.maxw, 32);
    cr_assert_eq(mlp_parse_layers("13,5", 13, 2, &net, &err), 0, "%s", err.msg);
    cr_expect(net.nw == 2 && net.width[1] == 5); /* more outputs than classes is fine */
}

/* --- check() ------------------------------------------------------------------- */

Test(mlp_check, loss_must_fall_and_be_finite)
{
    mlp_config c;
    memset(&c, 0, sizeof c);
    c.epochs = 3;
    c.lr = 0.5;
    snprintf(c.source, sizeof c.source, "synthetic 900 x 13");
    rn_error err = {{0}};
    cr_expect_eq(mlp_check_loss(&c, 0.7, 0.3, &err), 0);
    cr_expect_neq(mlp_check_loss(&c, 0.7, 0.7, &err), 0);
    cr_expect_str_eq(err.msg, "mlp_train: the training loss did not fall: 0.7 before training, "
                              "0.7 after 3 epochs (lr 0.5, synthetic 900 x 13)");
    cr_expect_neq(mlp_check_loss(&c, 0.7, NAN, &err), 0);
    cr_expect(strstr(err.msg, "mlp_train: the final training loss is nan (training diverged"), "%s",
              err.msg);
    cr_expect_neq(mlp_check_loss(&c, 0.7, INFINITY, &err), 0);
}

Test(mlp_check, a_diverging_training_fails_the_trial)
{
    /* a huge lr with no hidden layer to absorb it: the loss ends far above
     * where it started */
    const rn_param p[] = {{"lr", "1000", 1000}, {"epochs", "1", 1}};
    rn_trial t = trial(900, 1, p, 2);
    rn_error err = {{0}};
    void *state = NULL;
    cr_assert_eq(cpu_mlp_train.prepare(&t, &state, &err), 0, "prepare: %s", err.msg);
    cr_assert_eq(cpu_mlp_train.run(state, NULL, &err), 0, "run: %s", err.msg);
    cr_assert_neq(cpu_mlp_train.check(state, &err), 0, "check passed a diverged training");
    cr_expect(strstr(err.msg, "mlp_train: the training loss did not fall") ||
                  strstr(err.msg, "mlp_train: the final training loss is"),
              "%s", err.msg);
    cpu_mlp_train.release(state);
    /* check before any run */
    cr_assert_eq(cpu_mlp_train.prepare(&t, &state, &err), 0, "prepare: %s", err.msg);
    cr_expect_neq(cpu_mlp_train.check(state, &err), 0);
    cr_expect_str_eq(err.msg, "mlp_train: no training has run yet");
    cpu_mlp_train.release(state);
}
