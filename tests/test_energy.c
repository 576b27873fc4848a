/* test_energy.c - `energy: true` (doc/ceilings.md#energy-per-call): the
 * columns empty with the reason where there is no counter (this VM has no
 * RAPL), the fake backend's counter giving the right joules per call within
 * the stated interval, a counter wrap, the key's validation, and the
 * energy chart and findings. */
#include "run/exec/energy.h"
#include "base/util.h"
#include "scenario.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where no counter can be read, the energy columns are there and empty,
 * and the reason is in the row. */
Test(energy, columns_empty_with_the_reason_without_a_counter, .timeout = 60)
{
    int rapl = access("/sys/class/powercap/intel-rapl:0/energy_uj", R_OK) == 0;
    proc_out r;
    csv_table t;
    char *d = run_trials("workload: matmul\nenergy: true\nrepeats: 2\nsize: 32\n", 0, &r, &t);
    cr_assert_str_eq(cell(&t, 1, "status"), "ok");
    cr_assert_str_eq(cell(&t, 1, "energy"), "true");
    if (rapl) { /* a machine with RAPL: the figures instead */
        cr_assert(atof(cell(&t, 1, "joules_per_call")) > 0);
        cr_assert_str_eq(cell(&t, 1, "energy_scope"), "package");
    } else {
        cr_assert_str_eq(cell(&t, 1, "joules_per_call"), "");
        cr_assert_str_eq(cell(&t, 1, "watts"), "");
        cr_assert_str_eq(cell(&t, 1, "idle_watts"), "");
        const char *why = cell(&t, 1, "energy_note");
        cr_assert(strstr(why, "RAPL"), "reason: '%s'", why);
    }
    trials_done(&t, d);
}

/* The fake GPU's counter: 0.05 J a call plus 2 W at rest, shown every
 * 10 ms in 1 mJ steps, starting 5 J below its wrap at 1000 J, so that it
 * wraps in the first window.  joules_per_call must be 0.05 J plus the rest
 * power over the call's time, within the interval the row states; the rest
 * power 2 W; the scope the board's. */
/* The fake CUDA backend fake-1.so with one device for the runs that follow
 * (on), or none (off). */
static void fake_gpu(int on)
{
    if (!on) {
        unsetenv("RUNNER_CUDA_BACKEND");
        unsetenv("FAKE_DEVICES");
        return;
    }
    char fake[4096];
    snprintf(fake, sizeof fake, "%s/fake-1.so", getenv("RUNNER_FAKES"));
    setenv("RUNNER_CUDA_BACKEND", fake, 1);
    setenv("FAKE_DEVICES", "1", 1);
}

static void fake_run(const char *yaml, csv_table *t, proc_out *r, char **dir)
{
    fake_gpu(1);
    *dir = run_yaml(yaml, NULL, r);
    fake_gpu(0);
    cr_assert_eq(r->status, 0, "%s", r->err);
    read_trials(*dir, t);
}

Test(energy, fake_counter_joules_per_call_within_the_interval_across_a_wrap, .timeout = 60)
{
    setenv("FAKE_JOULES", "0.05", 1);
    setenv("FAKE_IDLE_WATTS", "2", 1);
    setenv("FAKE_CALL_SECONDS", "0.001", 1);
    setenv("FAKE_ENERGY_START", "995", 1);
    setenv("FAKE_ENERGY_WRAP", "1000", 1);
    csv_table t;
    proc_out r;
    char *d;
    fake_run("workload: noop\ndevice: cuda\nenergy: true\nrepeats: 3\n", &t, &r, &d);
    unsetenv("FAKE_JOULES"), unsetenv("FAKE_IDLE_WATTS"), unsetenv("FAKE_CALL_SECONDS");
    unsetenv("FAKE_ENERGY_START"), unsetenv("FAKE_ENERGY_WRAP");
    expect_trial(&t, 1, "ok", NULL);
    double j = atof(cell(&t, 1, "joules_per_call")), err = atof(cell(&t, 1, "joules_per_call_err"));
    double secs = atof(cell(&t, 1, "energy_call_seconds"));
    double want = 0.05 + 2 * secs;
    cr_assert(secs >= 0.001, "a call took %g s", secs);
    cr_assert(err > 0 && err < 0.1 * j, "interval +-%g J of %g", err, j);
    cr_assert(fabs(j - want) <= err, "%g J a call, want %g +- %g (across the wrap at 1000 J)", j,
              want, err);
    double idle = atof(cell(&t, 1, "idle_watts"));
    cr_assert(fabs(idle - 2) <= 0.1, "idle %g W, want 2", idle);
    double w = atof(cell(&t, 1, "watts"));
    cr_assert(fabs(w - j / secs) <= 0.02 * w, "%g W against %g J in %g s", w, j, secs);
    cr_assert_str_eq(cell(&t, 1, "energy_scope"), "board");
    trials_done(&t, d);
}

/* A backend without a counter says so in the row. */
Test(energy, fake_without_a_counter_says_so, .timeout = 60)
{
    csv_table t;
    proc_out r;
    char *d;
    fake_run("workload: noop\ndevice: cuda\nenergy: true\nrepeats: 2\n", &t, &r, &d);
    cr_assert_str_eq(cell(&t, 1, "status"), "ok");
    cr_assert_str_eq(cell(&t, 1, "joules_per_call"), "");
    cr_assert_str_eq(cell(&t, 1, "energy_note"), "no energy counter (fake)");
    trials_done(&t, d);
}

/* Each counter's wrap is undone on its own; a counter that never wraps
 * (wrap 0) going down is a reset, counted as it reads. */
Test(energy, delta_undoes_each_counters_wrap)
{
    rn_energy a = {.n = 2, .joules = {262140.0, 10.0}, .wrap = {262144.0, 262144.0}};
    rn_energy b = {.n = 2, .joules = {6.0, 20.0}, .wrap = {262144.0, 262144.0}};
    cr_assert_float_eq(energy_delta(&a, &b), 10.0 + 10.0, 1e-9);
    rn_energy c = {.n = 1, .joules = {5.0}, .wrap = {0}};
    rn_energy e = {.n = 1, .joules = {7.5}, .wrap = {0}};
    cr_assert_float_eq(energy_delta(&c, &e), 2.5, 1e-12);
}

/* `energy` must be true or false, at the top level and in a sweep. */
Test(energy, the_key_is_validated)
{
    char *d = dir_with("a.yaml", "workload: noop\nenergy: 3\n");
    write_text(d, "b.yaml", "workload: noop\nsweep:\n  energy: [true, maybe]\n");
    char a[4096], b[4096];
    snprintf(a, sizeof a, "%s/a.yaml", d);
    snprintf(b, sizeof b, "%s/b.yaml", d);
    expect_exit((char *[]){"validate", a, NULL}, 2,
                "a.yaml:2:9: error: 'energy' must be true or false, not '3'");
    expect_exit((char *[]){"validate", b, NULL}, 2,
                "b.yaml:3:18: error: 'energy' must be true or false, not 'maybe'");
    free(d);
}

/* run_drawn_in a fresh folder, returned, with the fake GPU at 0.01 J a
 * call; rd (SCENARIO_PATH bytes): its run folder. */
static char *drawn_with_fake_gpu(const char *yaml, const char *const *extra, char *rd)
{
    setenv("FAKE_JOULES", "0.01", 1);
    fake_gpu(1);
    char *d = tmpdir();
    proc_out r;
    run_drawn_in(d, yaml, extra, &r);
    unsetenv("FAKE_JOULES");
    fake_gpu(0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    snprintf(rd, SCENARIO_PATH, "%s/run", d);
    return d;
}

/* The energy chart and a findings line: CPU (no counter here) and the fake
 * GPU; the findings name the reason or compare. */
Test(energy, chart_and_findings, .timeout = 60)
{
    char rd[SCENARIO_PATH];
    char *d = drawn_with_fake_gpu(
        "name: e\nworkload: noop\nenergy: true\nrepeats: 2\nsweep:\n  seed: [1, 2]\n",
        (const char *const[]){"--filter", "seed=1", "--filter", "seed=2", NULL}, rd);
    /* the CPU's noop: no counter on this VM, so the findings say why */
    char *md = run_text(rd, "report.md");
    if (access("/sys/class/powercap/intel-rapl:0/energy_uj", R_OK) != 0)
        cr_assert(strstr(md, "Energy was not measured: no RAPL on this machine"), "%s", md);
    free(md);
    free(d);
}

/* The fake GPU's energy chart: joules per call against the swept size. */
Test(energy, energy_chart_drawn, .timeout = 60)
{
    char rd[SCENARIO_PATH];
    char *d = drawn_with_fake_gpu(
        "name: e\nworkload: noop\ndevice: cuda\nenergy: true\nrepeats: 2\n", NULL, rd);
    free(run_text(rd, "plots/energy.gp")); /* the energy chart */
    char *md = run_text(rd, "report.md");
    cr_assert(strstr(md, "J a call") && strstr(md, "board power"), "%s", md);
    free(md);
    free(d);
}

/* ---- a batch in one request (doc/own-code.md#persistent) -------------------- */

/* A counter of a device that draws 50 W all the time: 1 mJ steps every
 * 10 ms, as the fake GPU's. */
static double watts50_t0 = -1;

static int watts50(int dev, rn_energy *e, char *why, size_t len)
{
    (void)dev, (void)why, (void)len;
    double t = now_seconds();
    if (watts50_t0 < 0)
        watts50_t0 = t;
    double shown = floor((t - watts50_t0) / 0.01) * 0.01 * 50;
    e->n = 1;
    e->joules[0] = floor(shown * 1e3 + 1e-6) * 1e-3;
    e->resolution = 1e-3;
    e->update = 0.01;
    e->scope = "board";
    return 0;
}

/* A persistent program's run(), as the command workload's: the first run()
 * of a sample asks for the sample's whole batch (one request of BATCH16
 * calls of CALL_S each), the others find the sample timed and return. */
#define BATCH16 16
#define CALL_S 0.0005

static int request_run(void *state, rn_sample *s, rn_error *err)
{
    (void)state, (void)err;
    if (isfinite(s->seconds))
        return 0;
    double t0 = now_seconds();
    while (now_seconds() - t0 < BATCH16 * CALL_S)
        ;
    s->seconds = BATCH16 * CALL_S;
    return 0;
}

static char energy_cols[8][2][64];
static int energy_ncols;

static void energy_col(void *ctx, const char *k, const char *v)
{
    (void)ctx;
    if (energy_ncols < 8) {
        snprintf(energy_cols[energy_ncols][0], 64, "%s", k);
        snprintf(energy_cols[energy_ncols++][1], 64, "%s", v);
    }
}

static double energy_num(const char *k)
{
    for (int i = 0; i < energy_ncols; i++)
        if (!strcmp(energy_cols[i][0], k))
            return atof(energy_cols[i][1]);
    cr_assert_fail("no column %s", k);
    return NAN;
}

/* With batch: 16, a persistent program's request carries 16 calls: the
 * joules and the time of a call are a sixteenth of a request's, not a
 * request's (they read 11-16x too high when each request counted as one
 * call).  The device draws 50 W, so a call of 0.5 ms takes 25 mJ. */
Test(energy, a_request_of_a_batch_counts_its_calls, .timeout = 60)
{
    rn_backend b = {.abi = RN_BACKEND_ABI, .name = "fake50", .energy = watts50};
    rn_workload_impl impl = {.name = "request", .run = request_run};
    rn_error err = {{0}};
    energy_ncols = 0;
    cr_assert_eq(energy_measure(&impl, NULL, BATCH16, &b, 0, NAN, NAN, energy_col, &err), 0,
                 "%s", err.msg);
    double secs = energy_num("energy_call_seconds"), j = energy_num("joules_per_call");
    double half = energy_num("joules_per_call_err");
    /* a loaded machine stretches a call a little, never 16 times */
    cr_assert(secs >= CALL_S && secs < 4 * CALL_S, "a call took %g s, not about %g", secs, CALL_S);
    cr_assert(j < 4 * 50 * CALL_S, "%g J a call at 50 W for %g s calls", j, CALL_S);
    cr_assert(fabs(j - 50 * secs) <= half + 0.02 * j, "%g J a call, want 50 W x %g s +- %g", j,
              secs, half);
    cr_assert(fabs(energy_num("watts") - 50) <= 2.5, "%g W", energy_num("watts"));
}
