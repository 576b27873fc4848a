/* test_report.c - the findings of report.md for any study
 * (doc/results.md#plots-and-reports: speedups against the file's and the obvious baselines, the
 * fastest configuration at each amount of work, crossovers only along an
 * amount of work and only where the intervals separate), the workload's and
 * hooks' columns in the tables, and report.html, opened in headless
 * Chromium where it is installed. */
#include "base/csv.h"
#include "base/util.h"
#include "browser.h"
#include "plots_fixture.h"
#include "results/report/plots.h"
#include "scenario.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

/* A run folder with experiment.yaml and a trials.csv of `rows` (each
 * "KEYS...,MEDIAN,LOW,HIGH[,EXTRA...]" after the key header `keys`); the
 * other statistics follow from the median. */
static char *made_run(const char *yaml, const char *keys, const char *extra_hdr,
                      const char *const *rows, int n)
{
    char *d = dir_with("experiment.yaml", yaml);
    strbuf b = {0};
    sb_printf(&b,
              "trial,%s,workload,status,reason,samples,cold,min,median,mean,stddev,max,"
              "median_ci_low,median_ci_high,ci_level,h2d,compute,d2h,gflops,gbps%s%s\n",
              keys, extra_hdr ? "," : "", extra_hdr ? extra_hdr : "");
    for (int i = 0; i < n; i++) {
        /* the keys are the fields before the last three numbers (and extras) */
        char row[512];
        snprintf(row, sizeof row, "%s", rows[i]);
        int nkeys = 1;
        for (const char *p = keys; *p; p++)
            nkeys += *p == ',';
        char *f[32];
        int nf = 0;
        for (char *save, *t = strtok_r(row, ",", &save); t && nf < 32; t = strtok_r(NULL, ",", &save))
            f[nf++] = t;
        cr_assert(nf >= nkeys + 3, "row %d has too few fields", i);
        double med = atof(f[nkeys]);
        sb_printf(&b, "%d,", i);
        for (int k = 0; k < nkeys; k++)
            sb_printf(&b, "%s,", f[k]);
        sb_printf(&b, "w,ok,,9,%g,%g,%g,%g,%g,%g,%s,%s,0.96,,,,,", med, med * 0.98, med, med,
                  med * 0.01, med * 1.02, f[nkeys + 1], f[nkeys + 2]);
        for (int k = nkeys + 3; k < nf; k++)
            sb_printf(&b, ",%s", f[k]);
        sb_putc(&b, '\n');
    }
    write_text(d, "trials.csv", b.s);
    sb_free(&b);
    return d;
}

static char *findings(const char *d)
{
    cr_assert_eq(report_write(d, 1, NULL), 0);
    char *md = run_text(d, "report.md");
    return md;
}

/* report.md of a made_run (its folder removed). */
static char *findings_of(const char *yaml, const char *keys, const char *const *rows, int n)
{
    char *d = made_run(yaml, keys, NULL, rows, n);
    char *md = findings(d);
    rm_rf(d);
    free(d);
    return md;
}

/* md holds each line of the NULL-ended `has` and none of `lacks` (NULL:
 * none); md is freed. */
static void expect_md(char *md, const char *const *has, const char *const *lacks)
{
    for (; *has; has++)
        cr_assert(strstr(md, *has), "report.md lacks '%s':\n%s", *has, md);
    for (; lacks && *lacks; lacks++)
        cr_assert_null(strstr(md, *lacks), "report.md has '%s':\n%s", *lacks, md);
    free(md);
}

/* threads=1 at 10 us per 1024 elements; threads=2 slower up to 2048, within
 * 5 % at 4096, faster from 8192, with intervals that overlap at 16384 */
static const char *const threads_rows[] = {
    "1,1024,10e-6,9.9e-6,10.1e-6",     "1,2048,20e-6,19.8e-6,20.2e-6",
    "1,4096,40e-6,39.6e-6,40.4e-6",    "1,8192,80e-6,79.2e-6,80.8e-6",
    "1,16384,160e-6,158e-6,162e-6",    "1,32768,320e-6,317e-6,323e-6",
    "2,1024,15e-6,14.9e-6,15.1e-6",    "2,2048,25e-6,24.8e-6,25.2e-6",
    "2,4096,39e-6,38.8e-6,39.2e-6",    "2,8192,60e-6,59.5e-6,60.5e-6",
    "2,16384,110e-6,70e-6,170e-6",     "2,32768,200e-6,198e-6,202e-6",
};

Test(report_findings, cpu_only_threads_baseline_gets_a_speedup_and_a_clear_crossover)
{
    char *md = findings_of("name: t\nworkload: nested_sin\nsweep:\n  threads: [1, 2]\n"
                           "  size: [1024, 2048, 4096, 8192, 16384, 32768]\n",
                           "threads,size", threads_rows, 12);
    /* 4096 (1.03x) and 16384 (intervals overlap) are no crossing */
    cr_assert_eq(count(md, "Crossover of"), 1, "%s", md);
    expect_md(md,
              (const char *const[]){
                  "- Crossover of threads=2 against threads=1: faster from size = 8192 (2048 "
                  "was the last slower).",
                  "- Largest speedup: threads=2 is 1.6x faster than threads=1 at size = 2^15.",
                  "Fastest configuration at each size",
                  "| 2^15 | threads=2 | 200.00 us | threads=1 | 320.00 us | 1.6x |", NULL},
              (const char *const[]){"No speedup to report", NULL});
}

Test(report_findings, fused_baseline_is_obvious_and_a_file_baseline_is_used)
{
    static const char *const rows[] = {
        "false,1,1000,10e-6,9.9e-6,10.1e-6",  "false,1,100000,1e-3,0.99e-3,1.01e-3",
        "true,1,1000,12e-6,11.9e-6,12.1e-6",  "true,1,100000,0.5e-3,0.49e-3,0.51e-3",
        "false,2,1000,11e-6,10.9e-6,11.1e-6", "false,2,100000,0.6e-3,0.59e-3,0.61e-3",
        "true,2,1000,13e-6,12.9e-6,13.1e-6",  "true,2,100000,0.3e-3,0.29e-3,0.31e-3",
    };
    const char *sweep = "name: f\nworkload: nested_sin\nsweep:\n  fused: [false, true]\n"
                        "  threads: [1, 2]\n  size: [1000, 100000]\n";
    /* no speedup chart: fused: false and threads: 1 are the obvious baselines */
    expect_md(findings_of(sweep, "fused,threads,size", rows, 8),
              (const char *const[]){"- Crossover of fused=true, threads=1 against fused=false: "
                                    "faster from size = 100k (1000 was the last slower).",
                                    "against threads=1", NULL},
              NULL);
    /* the file's baseline: no obvious one on top of it */
    char *yaml = xasprintf("%splots:\n  - {type: speedup, baseline: {fused: false, threads: 1}}\n",
                           sweep);
    expect_md(
        findings_of(yaml, "fused,threads,size", rows, 8),
        (const char *const[]){"- Crossover of fused=true, threads=2 against fused=false, "
                              "threads=1: faster from size = 100k (1000 was the last slower).",
                              NULL},
        (const char *const[]){"against threads=1:", "against fused=false:", NULL});
    free(yaml);
}

/* `iters` (a numeric workload parameter) is an amount of work: it goes on
 * x before threads, and the fastest configuration is ranked within it */
Test(report_findings, an_amount_of_work_is_not_a_configuration)
{
    char *d = dir_with("w.lua", "return {run = function(ctx, p, s) end}\n");
    static const char *const rows[] = {
        "1,1000,10e-6,9.9e-6,10.1e-6",   "1,3000,30e-6,29.7e-6,30.3e-6",
        "2,1000,6e-6,5.9e-6,6.1e-6",     "2,3000,17e-6,16.9e-6,17.1e-6",
    };
    char *yaml = xasprintf("name: w\nworkload: lua:%s/w.lua\nsweep:\n  threads: [1, 2]\n"
                           "  iters: [1000, 3000]\n",
                           d);
    expect_md(findings_of(yaml, "threads,iters", rows, 4),
              (const char *const[]){
                  "Fastest configuration at each iters (median time):",
                  "| iters | fastest | median | next | median | ratio |",
                  "| 1000 | threads=2 | 6.00 us | threads=1 | 10.00 us | 1.67x |",
                  "| 3000 | threads=2 | 17.00 us | threads=1 | 30.00 us | 1.76x |",
                  "Crossover of threads=2 against threads=1: none; faster at every iters "
                  "measured (1000 to 3000).",
                  NULL},
              (const char *const[]){"iters=1000", NULL});
    free(yaml);
    /* every swept key an amount of work: nothing to rank */
    static const char *const work_rows[] = {
        "1000,100,10e-6,9.9e-6,10.1e-6", "1000,200,20e-6,19.8e-6,20.2e-6",
        "2000,100,20e-6,19.8e-6,20.2e-6", "2000,200,40e-6,39.6e-6,40.4e-6"};
    yaml = xasprintf("name: w\nworkload: lua:%s/w.lua\nsweep:\n  iters: [1000, 2000]\n"
                     "  size: [100, 200]\n",
                     d);
    expect_md(findings_of(yaml, "iters,size", work_rows, 4),
              (const char *const[]){"- Every swept key is an amount of work or a measurement "
                                    "setting (size, iters): no configurations to compare.",
                                    NULL},
              (const char *const[]){"Fastest configuration", NULL});
    free(yaml);
    rm_rf(d);
    free(d);
}

/* x: threads (a configuration): the largest speedup, no crossover */
Test(report_findings, no_crossover_along_a_configuration)
{
    static const char *const rows[] = {"1,40e-6,39.6e-6,40.4e-6", "2,25e-6,24.8e-6,25.2e-6",
                                       "4,15e-6,14.9e-6,15.1e-6"};
    expect_md(
        findings_of("name: x\nworkload: nested_sin\nsweep:\n  threads: [1, 2, 4]\nplots:\n"
                    "  - {type: speedup, x: threads, baseline: {threads: 1}}\n",
                    "threads", rows, 3),
        (const char *const[]){"- Largest speedup: threads=4 is 2.67x faster than threads=1", NULL},
        (const char *const[]){"Crossover", NULL});
}

/* A real run of a Lua workload with extras and a hooks file adding a column:
 * both appear in report.md's and report.html's trials tables. */
Test(report_tables, workload_and_hook_columns_in_both_reports, .timeout = 60)
{
    char *d = dir_with("w.lua",
                       "return {defaults = {iters = 10},\n"
                       "  setup = function(ctx, p) return {} end,\n"
                       "  run = function(ctx, p, s) local a = 0; for i = 1, p.iters do a = a + i end; "
                       "s.a = a end,\n"
                       "  extras = function(ctx, p, s) return {total = s.a, tag = 'it' .. p.iters} end}\n");
    write_text(d, "h.lua",
               "return {after_trial = function(t, r) return {doubled = t.iters * 2} end}\n");
    char run_dir[SCENARIO_PATH];
    run_e_yaml(d,
               "name: e\nworkload: lua:w.lua\nhooks: h.lua\nsweep:\n  threads: [1, 2]\n"
               "  iters: [100, 1000]\nrepeats: 3\nwarmup_time: 0\n",
               "e", run_dir);
    char *md = run_text(run_dir, "report.md");
    cr_assert(strstr(md, "| trial | threads | iters | status | median | 95 % CI of the median | "),
              "%s", md);
    cr_assert(strstr(md, " tag |") && strstr(md, " total |") && strstr(md, " doubled |"), "%s",
              md);
    cr_assert(strstr(md, " it1000 |") && strstr(md, " 500500 |") && strstr(md, " 2000 |"), "%s",
              md);
    char *html = run_text(run_dir, "report.html");
    const char *want[] = {"<th>tag</th>", "<th>total</th>", "<th>doubled</th>",
                          ">it1000</td>", ">500500</td>", ">2000</td>"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_assert(strstr(html, want[i]), "report.html lacks '%s'", want[i]);
    free(html);
    free(md);
    free(d);
}

/* --- report.html -------------------------------------------------------- */

/* A copy of tests/fixtures/matmul_run with both reports, and its charts
 * drawn first when `draw`. */
static char *fixture_report_drawn(int draw)
{
    char *d = fixture_copy(NULL);
    proc_out r;
    if (draw) {
        run((char *[]){"plot", d, NULL}, &r);
        cr_assert_eq(r.status, 0, "%s", r.err);
    }
    expect_exit((char *[]){"report", d, NULL}, 0, "report.html");
    return d;
}

static char *fixture_report(void)
{
    return fixture_report_drawn(1);
}

static int png_count(const char *d)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/plots", d);
    int n = 0;
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "ls %s/*.png 2>/dev/null | wc -l", p);
    FILE *f = popen(cmd, "r");
    cr_assert_not_null(f);
    cr_assert_eq(fscanf(f, "%d", &n), 1);
    pclose(f);
    return n;
}

static int trial_rows(const char *d)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/trials.csv", d);
    csv_table t;
    cr_assert_eq(csv_read(p, &t), 0);
    int n = t.nrows - 1;
    csv_free(&t);
    return n;
}

Test(report_html, one_self_contained_file, .timeout = 60)
{
    char *d = fixture_report();
    char *html = run_text(d, "report.html");
    int charts = png_count(d);
    cr_assert_eq(charts, 4);
    cr_assert_eq(count(html, "<figure class=\"chart\""), charts);
    cr_assert_eq(count(html, "<svg"), charts);
    cr_assert_eq(count(html, "<tr class="), trial_rows(d));
    /* ids are the chart's own: c1-gpPt0, c2-gpPt0, ... */
    cr_assert(strstr(html, "id='c1-gpPt0'") && strstr(html, "id='c4-gpPt0'"));
    cr_assert_null(strstr(html, "id='gpPt0'"));
    /* the same findings and environment as report.md */
    const char *want[] = {"<h2>Environment</h2>", "AMD EPYC 9454", "<h2>Findings</h2>",
                          "GPU no IO against CPU: faster from n = 128", "Noisy trials",
                          "Failed trials", "Skipped trials", "<h2 id=\"trials\">Trials</h2>",
                          "<th>ci95_low</th>", "<th>gflops</th>", "<table>"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_assert(strstr(html, want[i]), "report.html lacks '%s'", want[i]);
    /* nothing from the network: the only URLs are SVG's namespaces */
    for (const char *p = html; (p = strstr(p, "http")); p += 4)
        cr_assert(!strncmp(p, "http://www.w3.org/", 18), "a URL in report.html: %.60s", p);
    cr_assert_null(strstr(html, "<script src"));
    cr_assert_eq(count(html, "<script"), 1);
    free(html);
    free(d);
}

/* A run whose charts were never drawn (`--no-plots`, no gnuplot) has
 * reports that say so and name the command that draws them; once `runner
 * plot` drew them, the same reports show them instead. */
Test(report_html, a_run_without_charts_says_how_to_draw_them, .timeout = 60)
{
    char *d = fixture_report_drawn(0);
    cr_assert_eq(png_count(d), 0);
    char *md = file_in(d, "report.md"), *html = file_in(d, "report.html");
    cr_assert(strstr(md, "No charts: none was drawn (the run had `--no-plots`, no ok trial, or no "
                         "gnuplot); `runner plot` on this folder draws them."),
              "%s", md);
    cr_assert(strstr(html, "<p>No charts: none was drawn"), "%s", html);
    cr_assert_eq(count(html, "<figure class=\"chart\""), 0);
    free(md);
    free(html);
    proc_out r;
    run((char *[]){"plot", d, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    md = file_in(d, "report.md");
    cr_assert_null(strstr(md, "No charts"), "%s", md);
    cr_assert(strstr(md, "![time](plots/time.png)"), "%s", md);
    free(md);
    free(d);
}

Test(report_html, opens_in_headless_chromium, .timeout = 180)
{
    const char *browser = chromium_or_skip("report.html");
    char *d = fixture_report();
    char url[4200];
    snprintf(url, sizeof url, "file://%s/report.html#sort=median", d);
    char *dom, *log;
    dom = dump_dom(browser, d, url, &log);
    /* no console message at all: no error, no warning */
    cr_assert_null(strstr(log, ":CONSOLE"), "console output:\n%s", log);
    int charts = png_count(d);
    cr_assert_eq(count(dom, "<figure class=\"chart\""), charts);
    cr_assert_eq(count(dom, "<svg"), charts);
    /* the browser's table: one row per trial, sorted by median (#sort=median) */
    const char *tb = strstr(dom, "<tbody>");
    cr_assert_not_null(tb);
    cr_assert_eq(count(tb, "<tr class="), trial_rows(d));
    cr_assert(strstr(dom, "data-dir=\"asc\">median</th>"), "the median column is not sorted");
    char p[4096];
    snprintf(p, sizeof p, "%s/trials.csv", d);
    csv_table t;
    cr_assert_eq(csv_read(p, &t), 0);
    int med = csv_col(&t, "median");
    /* the trial numbers in the page's order have ascending medians, the
     * trials without one last */
    double last = -1;
    int seen_empty = 0, rows = 0;
    for (const char *q = tb; (q = strstr(q, "<tr class=")); q++) {
        const char *v = strstr(q, "data-v=\"");
        cr_assert_not_null(v);
        int trial = atoi(v + 8);
        cr_assert(trial >= 0 && trial + 1 < t.nrows);
        const char *cell = t.rows[trial + 1][med];
        rows++;
        if (!*cell) {
            seen_empty = 1;
            continue;
        }
        cr_assert_not(seen_empty, "trial %d has a median after a trial without one", trial);
        double m = atof(cell);
        cr_assert_geq(m, last, "trial %d (median %g) after one of %g", trial, m, last);
        last = m;
    }
    cr_assert_eq(rows, t.nrows - 1);
    csv_free(&t);
    free(dom);
    free(log);
    free(d);
}

/* Drift (doc/results.md#plots-and-reports): each interleaved round's median of
 * sample / trial median, from samples.csv; sequential trials left out; a
 * steady run says so; a run that names no order has no such paragraph. */
static char *drift_run(const double *factor, int rounds)
{
    static const char *const rows[] = {"interleaved,1,1e-5,0.9e-5,1.1e-5",
                                       "interleaved,2,2e-5,1.9e-5,2.1e-5",
                                       "interleaved,3,3e-5,2.9e-5,3.1e-5",
                                       "sequential,4,4e-5,3.9e-5,4.1e-5"};
    char *d = made_run("name: d\nworkload: nested_sin\nsweep:\n  order: [interleaved, sequential]\n"
                       "  size: [1, 2, 3, 4]\n",
                       "order,size", NULL, rows, 4);
    strbuf s = {0};
    sb_puts(&s, "trial,sample,seconds,device_seconds\n");
    for (int t = 0; t < 4; t++)
        for (int k = 0; k < rounds; k++) /* the sequential trial 10x slower in its first sample */
            sb_printf(&s, "%d,%d,%.9g,\n", t, k,
                      (t + 1) * 1e-5 * (t == 3 ? (k ? 1.0 : 10.0) : factor[k]));
    write_text(d, "samples.csv", s.s);
    sb_free(&s);
    /* trials 0 (interleaved) and 3 (sequential) noisy: CV 30 % */
    char *t = run_text(d, "trials.csv");
    strbuf w = {0};
    sb_puts(&w, t);
    char *p0 = strstr(w.s, ",1e-07,"), *p3 = strstr(w.s, ",4e-07,");
    cr_assert(p0 && p3, "%s", w.s);
    memcpy(p0, ",3e-06,", 7);
    memcpy(p3, ",1e-05,", 7);
    write_text(d, "trials.csv", w.s);
    sb_free(&w);
    free(t);
    return d;
}

/* the report's line of trial `id` (from "- trial ID (" to the newline), or "" */
static void trial_line(const char *md, int id, char *out, size_t len)
{
    char key[32];
    snprintf(key, sizeof key, "- trial %d (", id);
    const char *p = strstr(md, key);
    snprintf(out, len, "%.*s", p ? (int)strcspn(p, "\n") : 0, p ? p : "");
}

Test(report_findings, drift_over_the_interleaved_rounds)
{
    static const double moved[] = {1.3, 1.0, 1.0, 0.65, 1.0};
    char *d = drift_run(moved, 5);
    char *md = findings(d);
    cr_assert(strstr(md, "Drift over the interleaved rounds (the machine's speed as the run went "
                         "on): each round's median, over the 3 interleaved trials, of its sample "
                         "over the trial's median, round 0 first:\n\n1.30, 1.00, 1.00, 0.65, 1.00\n"),
              "%s", md);
    cr_assert(strstr(md, "The rounds ran from 0.65 (round 3) to 1.30 (round 0) of the trials' "
                         "medians, 2.00x apart: the machine's speed moved that much"),
              "%s", md);
    /* a noisy interleaved trial's advice names the drift; a sequential
     * one's does not */
    char line[1024];
    trial_line(md, 0, line, sizeof line);
    cr_assert(strstr(line, ": the machine's speed moved 2.00x over the run's rounds (Drift, "
                           "below): a quieter machine would help"),
              "%s", md);
    trial_line(md, 3, line, sizeof line);
    cr_assert(strstr(line, ": few samples: more repeats would help"), "%s", md);
    free(md);
    free(d);
    static const double steady[] = {1.01, 1.0, 0.99, 1.0};
    d = drift_run(steady, 4);
    md = findings(d);
    cr_assert(strstr(md, "1.01, 1.00, 0.99, 1.00\n"), "%s", md);
    cr_assert(strstr(md, "of the trials' medians: within 5 %, the machine held steady"), "%s", md);
    trial_line(md, 0, line, sizeof line);
    cr_assert(strstr(line, ": few samples: more repeats would help"), "a steady run: %s", md);
    free(md);
    free(d);
    /* two rounds are too few to say; no order column, nothing */
    d = drift_run(steady, 2);
    md = findings(d);
    cr_assert_null(strstr(md, "Drift over"), "%s", md);
    free(md);
    free(d);
    d = made_run("name: t\nworkload: nested_sin\nsweep:\n  threads: [1, 2]\n"
                 "  size: [1024, 2048, 4096, 8192, 16384, 32768]\n",
                 "threads,size", NULL, threads_rows, 12);
    md = findings(d);
    cr_assert_null(strstr(md, "Drift over"), "%s", md);
    free(md);
    free(d);
}
