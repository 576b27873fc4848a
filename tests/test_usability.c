/* test_usability.c - what a new user meets (issue 20's small things): the
 * numbers of trials.csv and samples.csv (doc/results.md#results: one canonical
 * text, CSV that reads and writes back the same, `threads: all` as a
 * number), `runner COMMAND --help`, `runner list workloads` for concurrent,
 * `runner plot --config` with a plots-only file, the OPENBLAS_CORETYPE
 * warning only for runs that call the BLAS, and what `size` means on the
 * axis of a study mixing workloads. */
#include "base/csv.h"
#include "base/util.h"
#include "base/value.h"
#include "experiment/trial.h"
#include "scenario.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *slurp(const char *dir, const char *name)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return read_file(p, NULL);
}

static void expect_number(double v, int digits, const char *want)
{
    char t[64];
    format_number(t, sizeof t, v, digits);
    cr_expect_str_eq(t, want, "%.17g with %d digits", v, digits);
}

Test(numbers, one_canonical_text)
{
    expect_number(1000000, 17, "1000000");
    expect_number(4194304, 9, "4194304");
    expect_number(26400000, 9, "26400000");
    expect_number(57.1699 + 1e-14, 17, "57.169900000000005"); /* 17 digits only when needed */
    expect_number(57.1699, 17, "57.1699");
    expect_number(0.1 + 0.2, 17, "0.30000000000000004");
    expect_number(0.1 + 0.2, 9, "0.3");
    expect_number(1.5e-05, 9, "1.5e-05");
    expect_number(0.000110294, 9, "0.000110294");
    expect_number(2.5e20, 17, "2.5e+20");
    expect_number(0.123456789123, 9, "0.123456789");
    expect_number(9.9999, 3, "10");
    expect_number(-0.5, 17, "-0.5");
    expect_number(0, 17, "0");
    char t[32];
    format_decimals(t, sizeof t, 0.0004, 3);
    cr_expect_str_eq(t, "0");
    format_decimals(t, sizeof t, 1.30, 2);
    cr_expect_str_eq(t, "1.3");
    format_decimals(t, sizeof t, 2596.4, 0);
    cr_expect_str_eq(t, "2596");
    /* every text reads back and is written again the same */
    static const double vs[] = {1e-7, 3.14159, 1234567.5, 1e15, 7e-5, 0.0001, 99999999};
    for (size_t i = 0; i < sizeof vs / sizeof *vs; i++) {
        char a[64], b[64];
        format_number(a, sizeof a, vs[i], 9);
        format_number(b, sizeof b, strtod(a, NULL), 17);
        cr_expect_str_eq(a, b);
    }
}

/* format_number lays the text out from the digits of one %.*e (issue 38):
 * the same text as %.*f and %.*g gave, at each edge of their rules: a
 * rounding that carries (9.99999999996 to 10), a whole number with more
 * digits than asked (every digit, as %.0f), 15 digits or more before the
 * point within 17 digits (fixed, as %.*g), tiny, huge and negative values. */
Test(numbers, text_laid_out_from_the_digits)
{
    expect_number(9.99999999996, 9, "10");
    expect_number(99999.5, 5, "100000");
    expect_number(4194304, 1, "4194304");
    expect_number(123456789012345678.0, 9, "1.23456789e+17");
    expect_number(1234567890123456.8, 17, "1234567890123456.8");
    expect_number(999999999999999.9, 9, "1e+15");
    expect_number(1e16, 17, "1e+16");
    expect_number(-0.00012345, 9, "-0.00012345");
    expect_number(0.0001, 9, "0.0001");
    expect_number(5e-324, 17, "5e-324");
    expect_number(1e100, 9, "1e+100");
    expect_number(-2.5e20, 9, "-2.5e+20");
    char t[4];
    format_number(t, sizeof t, 0.000110294, 9); /* cut as snprintf cuts */
    cr_expect_str_eq(t, "0.0");
}

/* A CSV file, read and written again field by field, is the same text; each
 * number in it is in format_number's text; none has an e+0N exponent below
 * 10^7.  Returns the table (csv_free it). */
static void check_csv(const char *dir, const char *name, csv_table *t)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    char *text = read_file(p, NULL);
    cr_assert_not_null(text, "%s", p);
    cr_assert_eq(csv_read(p, t), 0);
    strbuf b = {0};
    for (int r = 0; r < t->nrows; r++) {
        for (int f = 0; f < t->nfields[r]; f++) {
            if (f)
                sb_putc(&b, ',');
            csv_field(&b, t->rows[r][f]);
            const char *cell = t->rows[r][f];
            char *end;
            double v = strtod(cell, &end);
            if (r == 0 || !*cell || *end || !isfinite(v))
                continue;
            char again[64];
            format_number(again, sizeof again, v, 17);
            cr_expect_str_eq(again, cell, "%s row %d column %s: '%s' is written '%s'", name, r,
                             t->rows[0][f], cell, again);
            cr_expect(!(fabs(v) < 1e7 && strstr(cell, "e+")), "%s row %d column %s: '%s'", name,
                      r, t->rows[0][f], cell);
        }
        sb_putc(&b, '\n');
    }
    cr_expect_str_eq(b.s, text, "%s does not round-trip", name);
    sb_free(&b);
    free(text);
}

Test(csv_files, round_trip_with_canonical_numbers, .timeout = 90)
{
    char *d = dir_with("w.lua",
                       "return {size_means = 'additions',\n"
                       "  setup = function(ctx, p) return {} end,\n"
                       "  run = function(ctx, p, s) local a = 0; for i = 1, p.size do a = a + i end; "
                       "s.a = a end,\n"
                       "  extras = function(ctx, p, s) return {third = s.a / 3, big = 4194304.0, "
                       "note = 'a, \"quoted\" one'} end}\n");
    write_text(d, "h.lua",
               "return {after_trial = function(t, r) return {us = r.median * 1e6, "
               "tenth = 0.1 + 0.2} end}\n");
    char run_dir[SCENARIO_PATH];
    run_e_yaml(d,
               "name: e\nworkload: lua:w.lua\nhooks: h.lua\nsweep:\n"
               "  threads: [1, all]\n  size: [1000, 1000000]\n  lr: [0.001, 2.5]\n"
               "repeats: 3\nwarmup_time: 0\n",
               "e", run_dir);
    csv_table t, s;
    check_csv(run_dir, "trials.csv", &t);
    check_csv(run_dir, "samples.csv", &s);
    cr_assert_eq(t.nrows, 9);
    /* threads: all is the number of CPUs it became */
    int tc = csv_col(&t, "threads"), sc = csv_col(&t, "size"), big = csv_col(&t, "big");
    char cpus[16];
    snprintf(cpus, sizeof cpus, "%d", host_cpus());
    for (int i = 1; i < t.nrows; i++) {
        cr_expect(!strcmp(t.rows[i][tc], "1") || !strcmp(t.rows[i][tc], cpus), "threads '%s'",
                  t.rows[i][tc]);
        cr_expect(!strcmp(t.rows[i][sc], "1000") || !strcmp(t.rows[i][sc], "1000000"));
        cr_expect_str_eq(t.rows[i][big], "4194304");
    }
    cr_expect_geq(csv_col(&t, "tenth"), 0);
    csv_free(&t);
    csv_free(&s);
    /* the chart's x axis says what the Lua file says size counts */
    char *gp = run_text(run_dir, "plots/time.gp");
    cr_expect(strstr(gp, "set xlabel 'size (additions)'"), "%s", gp);
    free(gp);
    free(d);
}

/* Two workloads on one axis: each one's meaning of size. */
Test(plots, size_axis_of_a_study_mixing_workloads, .timeout = 60)
{
    char *d =
        dir_with("w.lua", "return {size_means = 'additions', run = function(ctx, p, s) end}\n");
    char p[SCENARIO_PATH];
    run_e_yaml(d,
               "name: mix\nsweep:\n  target:\n    - {label: Lua, workload: 'lua:w.lua'}\n"
               "    - {label: built-in, workload: sumsq, length: 10}\n"
               "  size: [10, 20]\nrepeats: 2\nwarmup_time: 0\n",
               "mix", p);
    char *gp = run_text(p, "plots/time.gp");
    cr_expect(strstr(gp, "set xlabel 'size (w.lua: additions; sumsq: iterations)'"), "%s", gp);
    free(gp);
    free(d);
}

Test(cli_help, a_command_has_its_own_help)
{
    proc_out r;
    run((char *[]){"plot", "--help", NULL}, &r);
    cr_assert_eq(r.status, 0);
    cr_expect(!strncmp(r.out, "usage: runner plot RUN_DIR", 26), "%s", r.out);
    cr_expect(strstr(r.out, "--config FILE.yaml"), "%s", r.out);
    cr_expect(strstr(r.out, "only 'plots:'"), "%s", r.out);
    run((char *[]){"help", "report", NULL}, &r);
    cr_assert_eq(r.status, 0);
    cr_expect(!strncmp(r.out, "usage: runner report RUN_DIR", 28), "%s", r.out);
    cr_expect(strstr(r.out, "report.html"), "%s", r.out);
    run((char *[]){"--help", NULL}, &r);
    cr_expect(!strncmp(r.out, "usage: runner [OPTIONS] FILE.yaml", 33), "%s", r.out);
}

Test(cli_list, concurrent_runs_on_the_cpu)
{
    proc_out r;
    run((char *[]){"list", "workloads", NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    const char *l = strstr(r.out, "\nconcurrent ");
    cr_assert_not_null(l, "%s", r.out);
    char name[32], cpu[8];
    cr_assert_eq(sscanf(l + 1, "%31s %7s", name, cpu), 2);
    cr_expect_str_eq(cpu, "yes");
}

/* runner plot RUN_DIR --config FILE, FILE holding only `plots:` */
Test(cmd_plot, config_with_only_plots, .timeout = 60)
{
    char y[SCENARIO_PATH], out[SCENARIO_PATH], run_dir[SCENARIO_PATH], f[SCENARIO_PATH];
    char *d = experiment_in("e.yaml",
                            "name: p\nworkload: sumsq\nparams: {length: 10}\nsweep:\n"
                            "  threads: [1, 2]\n  size: [10, 20]\nrepeats: 2\nwarmup_time: 0\n",
                            y, out);
    write_text(d, "good.yaml", "x-style: &s {logx: true}\nplots:\n  - {name: bythreads, x: threads, "
                               "series: [size], <<: *s}\n");
    write_text(d, "extra.yaml", "plots:\n  - {name: a}\nrepeats: 3\n");
    write_text(d, "merges.yaml", "plots:\n  - {name: b, x: threads,\n     series: []}\n");
    proc_out r;
    run_expect(out, y, 0, &r);
    snprintf(run_dir, sizeof run_dir, "%s/p/latest", out);
    snprintf(f, sizeof f, "%s/good.yaml", d);
    run((char *[]){"plot", run_dir, "--config", f, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *gp = slurp(run_dir, "plots/bythreads.gp");
    cr_assert_not_null(gp, "no chart bythreads: %s", r.err);
    free(gp);
    snprintf(f, sizeof f, "%s/extra.yaml", d);
    run((char *[]){"plot", run_dir, "--config", f, NULL}, &r);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "extra.yaml:3:1: error: 'repeats' in a plots file"), "%s", r.err);
    snprintf(f, sizeof f, "%s/merges.yaml", d);
    run((char *[]){"plot", run_dir, "--config", f, NULL}, &r);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "merges.yaml:3:6: error: plot 'b' would draw trials with size: 10 "
                            "and size: 20 as one point at threads: 1"),
              "%s", r.err);
    free(d);
}

/* The OPENBLAS_CORETYPE warning: for a run that calls the BLAS (matmul),
 * not for one that does not (sumsq, a Lua workload without matmul). */
Test(openblas_warning, only_for_runs_that_call_the_blas, .timeout = 90)
{
    /* Haswell's kernels on a CPU with AVX-512 draw the warning; on an older
     * CPU there is none to draw, and the runs below must have none either */
    setenv("OPENBLAS_CORETYPE", "Haswell", 1);
    char *d = dir_with("w.lua", "return {run = function(ctx, p, s) end}\n");
    write_text(d, "mm.yaml", "name: mm\nworkload: matmul\nsize: 16\nrepeats: 2\n");
    write_text(d, "ss.yaml", "name: ss\nworkload: sumsq\nsize: 10\nrepeats: 2\n");
    write_text(d, "lw.yaml", "name: lw\nworkload: lua:w.lua\nsize: 10\nrepeats: 2\n");
    const char *names[] = {"mm", "ss", "lw"};
    int warned[3];
    for (int i = 0; i < 3; i++) {
        char out[4096], y[4096];
        snprintf(out, sizeof out, "%s/res", d);
        snprintf(y, sizeof y, "%s/%s.yaml", d, names[i]);
        proc_out r;
        run((char *[]){"--output", out, "--no-plots", y, NULL}, &r);
        cr_assert_eq(r.status, 0, "%s", r.err);
        char p[4096];
        snprintf(p, sizeof p, "%s/%s/latest", out, names[i]);
        char *meta = slurp(p, "meta.json");
        cr_assert_not_null(meta);
        int in_meta = strstr(meta, "OPENBLAS_CORETYPE=Haswell forces") != NULL;
        int said = 0;
        for (const char *q = r.err; (q = strstr(q, "OPENBLAS_CORETYPE=")); q++)
            said++;
        cr_expect_eq(said, in_meta, "%s: printed %d times, in meta.json %d", names[i], said,
                     in_meta);
        warned[i] = in_meta;
        free(meta);
    }
    cr_expect_not(warned[1], "sumsq calls no BLAS");
    cr_expect_not(warned[2], "this Lua workload calls no matmul");
    free(d);
}

/* README.md#a-worked-example: its `cut -d, -fA,B,...` over sumsq's
 * trials.csv picks the columns the README shows under it (the columns of
 * trials.csv moved once and left the example printing `workload` and
 * `min` under a header that said `size` and `median`). */
Test(readme, worked_example_cuts_the_columns_it_shows, .timeout = 120)
{
    const char *root = getenv("RUNNER_ROOT");
    cr_assert(root, "RUNNER_ROOT is not set");
    char p[4096];
    snprintf(p, sizeof p, "%s/README.md", root);
    char *readme = read_file(p, NULL);
    cr_assert_not_null(readme, "cannot read %s", p);
    const char *cut = strstr(readme, "\n$ cut -d, -f");
    cr_assert_not_null(cut, "README has no `cut -d, -f` example");
    cut += strlen("\n$ cut -d, -f");
    int fields[8], nf = 0;
    for (char *end; nf < 8; cut = end + 1) {
        fields[nf++] = (int)strtol(cut, &end, 10);
        if (*end != ',')
            break;
    }
    cr_assert(strstr(cut, " results/sumsq/latest/trials.csv") == strchr(cut, ' '),
              "the example cuts sumsq's trials.csv");
    const char *shown = strchr(cut, '\n') + 1; /* the header it shows, then rows */
    char *d = tmpdir(), y[4096], rd[4096];
    snprintf(y, sizeof y, "%s/experiments/sumsq.yaml", root);
    snprintf(rd, sizeof rd, "%s/run", d);
    proc_out r;
    run((char *[]){"--quiet", "--no-plots", "--run-dir", rd, "--filter", "device=cpu",
                   "--filter", "size=10", "--filter", "size=100", y, NULL},
        &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    csv_table t;
    snprintf(p, sizeof p, "%s/trials.csv", rd);
    cr_assert_eq(csv_read(p, &t), 0);
    cr_assert_geq(t.nrows, 3, "%d rows", t.nrows);
    /* the header, then the first row's columns that do not change by run
     * (target, threads, size): each shown cell but the timing */
    for (int row = 0; row < 2; row++) {
        char want[256] = "";
        size_t n = strcspn(shown, "\n");
        cr_assert_lt(n, sizeof want);
        memcpy(want, shown, n);
        shown += n + 1;
        char *save = NULL, *cell_text = strtok_r(want, ",", &save);
        for (int i = 0; i < nf; i++, cell_text = strtok_r(NULL, ",", &save)) {
            cr_assert_not_null(cell_text, "README row %d has fewer cells than -f names", row);
            cr_assert(fields[i] >= 1 && fields[i] <= t.nfields[row], "-f%d: trials.csv has %d columns",
                      fields[i], t.nfields[row]);
            const char *got = t.rows[row][fields[i] - 1];
            if (row == 0 || i < nf - 1)
                cr_expect_str_eq(got, cell_text, "row %d, -f%d", row, fields[i]);
        }
    }
    csv_free(&t);
    free(readme);
    free(d);
}
