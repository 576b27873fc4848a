/* test_run_results.c - what a run writes: the run folder's files, escapes and
 * odd labels, columns that appear as the run goes, intervals and durations,
 * the CPU frequency. */
#include "base/csv.h"
#include "experiment/machine/sysload.h"
#include "scenario.h"
#include <criterion/criterion.h>
#include <ctype.h>
#include <math.h>
#include <dirent.h>
#include <sched.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

Test(run, results_have_every_file_of_the_spec, .timeout = 30)
{
    char *d = tmpdir(), exp[SCENARIO_PATH], out[SCENARIO_PATH], p[4096];
    experiment_at(d, "n.yaml", "name: n\nworkload: nested_sin\nrepeats: 3\nsweep:\n  size: [1024, 4096]\n  fused: [false, true]\n", exp, out);
    proc_out r;
    run_expect(out, exp, 0, &r);
    const char *files[] = {"trials.csv", "samples.csv", "meta.json", "experiment.yaml"};
    for (int i = 0; i < 4; i++) {
        newest_run_file(out, "n", files[i], p, sizeof p);
        cr_assert_eq(access(p, R_OK), 0, "%s missing", files[i]);
    }
    csv_table t;
    read_newest(out, "n", "trials.csv", &t);
    const char *cols[] = {"trial", "size", "fused", "status", "reason", "samples", "cold", "min",
                          "median", "mean", "stddev", "max", "median_ci_low",
                          "median_ci_high", "ci_level", "h2d",
                          "compute", "d2h", "gflops", "gbps"};
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
        cr_assert(csv_col(&t, cols[i]) >= 0, "column %s missing", cols[i]);
    cr_assert_eq(csv_col(&t, "trial"), 0);
    cr_assert_eq(t.nrows, 5);
    for (int i = 1; i < 5; i++) {
        cr_assert_str_eq(t.rows[i][csv_col(&t, "status")], "ok");
        double mn = atof(t.rows[i][csv_col(&t, "min")]);
        double md = atof(t.rows[i][csv_col(&t, "median")]);
        double mx = atof(t.rows[i][csv_col(&t, "max")]);
        cr_assert(mn > 0 && mn <= md && md <= mx);
        cr_assert(atof(t.rows[i][csv_col(&t, "gbps")]) > 0);
    }
    csv_free(&t);
    newest_run_file(out, "n", "meta.json", p, sizeof p);
    FILE *f = fopen(p, "r");
    char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    const char *keys[] = {"\"sha256\"", "\"git_revision\"", "\"command_line\"", "\"start\"",
                          "\"end\"", "\"hostname\"", "\"os\"", "\"cpu_model\"", "\"cores\"",
                          "\"memory_bytes\"", "\"blas\"", "\"cuda\"", "\"environment\""};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        cr_assert(strstr(buf, keys[i]), "meta.json lacks %s", keys[i]);
    free(d);
}

/* Issue 14: terminal escape sequences in a Lua error reach neither stderr nor
 * the CSV raw, and a label with a newline, a comma and a quote is quoted per
 * RFC 4180: the reader gives back the very label, one row per trial, and
 * --resume of the finished run trusts every row. */
Test(run, escapes_are_sanitized_and_odd_labels_round_trip, .timeout = 60)
{
    char *d = dir_with("esc.lua",
                       "return {run = function(ctx, p, s)\n"
                       "  if p.size == 1 then error('\\27[31mred\\27]0;owned\\7\\nnext\\r\\194\\155x') end\n"
                       "end}\n");
    char exp[SCENARIO_PATH], out[SCENARIO_PATH], p[8192];
    experiment_at(d, "e.yaml",
                  "workload: lua:esc.lua\nrepeats: 1\nsweep:\n"
                  "  target:\n"
                  "    - {label: \"two\\nlines, \\\"quoted\\\"\", threads: 1}\n"
                  "    - {label: \"tab\\there\\r\", threads: 1}\n"
                  "  size: [1, 2]\n", exp, out);
    proc_out r;
    run_expect(out, exp, 1, &r);
    for (const char *q = r.err; *q; q++)
        cr_assert(*q == '\n' || ((unsigned char)*q >= 0x20 && *q != 0x7f),
                  "a control character 0x%02x on stderr: %s", (unsigned char)*q, r.err);
    cr_assert(strstr(r.err, "?[31mred?]0;owned?") && strstr(r.err, "??x"), "%s", r.err);
    newest_run_file(out, "e", "trials.csv", p, sizeof p);
    char *raw = read_all(p);
    cr_assert_not_null(raw);
    for (const char *q = raw; *q; q++)
        cr_assert(*q != 0x1b && *q != 0x07, "an escape in trials.csv: %s", raw);
    free(raw);
    csv_table t;
    cr_assert_eq(csv_read(p, &t), 0);
    cr_assert_eq(t.nrows, 5, "%d rows", t.nrows);
    int tc = csv_col(&t, "target"), sc = csv_col(&t, "status"), rc = csv_col(&t, "reason");
    cr_assert(tc >= 0 && sc >= 0 && rc >= 0);
    for (int i = 1; i < t.nrows; i++)
        cr_assert_eq(t.nfields[i], t.nfields[0], "row %d has %d fields", i, t.nfields[i]);
    cr_assert_str_eq(t.rows[1][tc], "two\nlines, \"quoted\"");
    cr_assert_str_eq(t.rows[3][tc], "tab\there\r");
    cr_assert_str_eq(t.rows[1][sc], "failed");
    cr_assert(strstr(t.rows[1][rc], "?[31mred?]0;owned?") && strstr(t.rows[1][rc], "??x"), "%s", t.rows[1][rc]);
    cr_assert_str_eq(t.rows[2][sc], "ok");
    csv_free(&t);
    /* the reader and the writer agree: --resume finds every row whole */
    run((char *[]){"--quiet", "--no-plots", "--resume", "--output", out, exp, NULL}, &r);
    cr_assert(!strstr(r.err, "damaged"), "%s", r.err);
    free(d);
}

/* Issue 14: exclude is indexed by axis element: 20,000 entries on a 1M sweep
 * validate in about a second here (the scan of every entry for every trial
 * took more than a minute), and the count is right. */
Test(run, exclude_of_20000_entries_on_a_1m_sweep_is_fast, .timeout = 60)
{
    char *d = tmpdir();
    char p[4096];
    snprintf(p, sizeof p, "%s/x.yaml", d);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    fputs("workload: selftest\nrepeats: 1\nsweep:\n  size: {range: [1, 1000]}\n"
          "  seed: {range: [1, 1000]}\nexclude:\n",
          f);
    static unsigned char seen[1000][1000];
    memset(seen, 0, sizeof seen);
    unsigned x = 12345;
    int distinct = 0;
    for (int i = 0; i < 20000; i++) {
        x = x * 1103515245u + 12345u;
        int a = (int)((x >> 8) % 1000);
        x = x * 1103515245u + 12345u;
        int b = (int)((x >> 8) % 1000);
        distinct += !seen[a][b];
        seen[a][b] = 1;
        fprintf(f, "  - {size: %d, seed: %d}\n", a + 1, b + 1);
    }
    /* entries the index cannot file by element: a bound, and a list */
    fputs("  - {size: {min: 999}}\n  - {seed: [1000, 999], size: [5]}\n", f);
    fclose(f);
    for (int b = 0; b < 1000; b++)
        distinct += (!seen[998][b]) + (!seen[999][b]);
    distinct += (!seen[4][999]) + (!seen[4][998]); /* size 5, seed 1000 or 999 */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    proc_out r;
    run((char *[]){"validate", p, NULL}, &r);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    cr_assert_eq(r.status, 0, "%s", r.err);
    char want[256];
    snprintf(want, sizeof want, ": %d trials", 1000000 - distinct);
    cr_assert(strstr(r.out, want), "want%s, got %s", want, r.out);
    cr_assert_lt(s, 20.0, "validate took %.1f s", s);
    cr_log_info("exclude: 20,002 entries on 1M trials validated in %.2f s", s);
    free(d);
}

/* Issue 14: a hook that brings a new column with every trial no longer
 * rewrites trials.csv each time (2,000 trials took 54 s): the cells wait in
 * trials.more.csv and are folded in once.  A run killed with them aside is
 * folded by --resume: no cell is lost. */
Test(run, a_new_column_per_trial_costs_one_rewrite, .timeout = 120)
{
    char *d = dir_with("h.lua",
                       "return {after_trial = function(trial, r)\n"
                       "  return {['c' .. trial.size] = trial.size, same = 'x'}\nend}\n");
    char exp[SCENARIO_PATH], out[SCENARIO_PATH], p[8192];
    experiment_at(d, "h.yaml", "name: h\nworkload: selftest\nhooks: h.lua\nrepeats: 1\nwarmups: 0\n"
                               "sweep:\n  size: {range: [1, 2000]}\n", exp, out);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    proc_out r;
    run_quiet(out, exp, &r);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_log_info("2,000 trials with a new column each: %.2f s", secs);
    csv_table t;
    read_newest(out, "h", "trials.csv", &t);
    cr_assert_eq(t.nrows, 2001);
    for (int i = 1; i < t.nrows; i++)
        cr_assert_eq(t.nfields[i], t.nfields[0], "row %d", i);
    int c7 = csv_col(&t, "c7"), c2000 = csv_col(&t, "c2000"), same = csv_col(&t, "same");
    cr_assert(c7 > 0 && c2000 > 0 && same > 0);
    cr_assert_str_eq(t.rows[7][c7], "7");
    cr_assert_str_eq(t.rows[8][c7], "");
    cr_assert_str_eq(t.rows[2000][c2000], "2000");
    cr_assert_str_eq(t.rows[1234][same], "x");
    csv_free(&t);
    char more[8192];
    newest_run_file(out, "h", "trials.more.csv", more, sizeof more);
    cr_assert_neq(access(more, F_OK), 0, "trials.more.csv is left after the run");
    cr_assert_lt(secs, 30.0, "took %.1f s", secs);

    /* killed with cells aside: --resume folds them in */
    write_text(d, "k.yaml", "name: k\nworkload: selftest\nhooks: h.lua\nrepeats: 1\nwarmups: 0\n"
                            "sweep:\n  size: {range: [1, 400]}\n  action: [sleep]\n  seconds: [0.01]\n");
    snprintf(exp, sizeof exp, "%s/k.yaml", d);
    int o, e;
    pid_t pid = start((char *[]){"--quiet", "--no-plots", "--output", out, exp, NULL}, &o, &e);
    usleep(1500000);
    kill(pid, SIGKILL);
    finish(pid, o, e, &r);
    newest_run_file(out, "k", "trials.more.csv", more, sizeof more);
    int aside = access(more, F_OK) == 0;
    run((char *[]){"--quiet", "--no-plots", "--resume", "--output", out, exp, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    newest_run_file(out, "k", "trials.csv", p, sizeof p);
    cr_assert_eq(csv_read(p, &t), 0);
    cr_assert_eq(t.nrows, 401, "%d rows", t.nrows);
    for (int i = 1; i < t.nrows; i++) {
        char name[32];
        snprintf(name, sizeof name, "c%d", i);
        int c = csv_col(&t, name);
        cr_assert(c > 0, "no column %s", name);
        cr_assert_str_eq(t.rows[i][c], name + 1, "trial %d lost its cell", i);
    }
    csv_free(&t);
    cr_assert_neq(access(more, F_OK), 0);
    cr_log_info("killed with cells aside: %s", aside ? "yes" : "no (the run was not far enough)");
    free(d);
}

/* A column reported by a workload (or a hook) that appears in mid-run widens
 * trials.csv: earlier rows get an empty cell. */
Test(run, extra_columns_appear_in_trials_csv, .timeout = 30)
{
    proc_out r;
    csv_table t;
    char *d = run_fresh("x.yaml",
                        "workload: selftest\nrepeats: 4\nwarmups: 2\nbatch: 1\nsweep:\n  action: "
                        "[fail, none, sleep]\n",
                        0, &r, &t);
    cr_assert_eq(r.status, 1, "%s", r.err);
    int c = csv_col(&t, "calls");
    cr_assert_gt(c, csv_col(&t, "gbps"), "calls comes after the standard columns");
    cr_assert_eq(t.nrows, 4);
    for (int i = 1; i < 4; i++)
        cr_assert_eq(t.nfields[i], t.nfields[0], "row %d has %d fields", i, t.nfields[i]);
    cr_assert_str_eq(t.rows[1][c], "");
    /* the workload counts its calls: the untimed ones (2 warmups, then the
     * rounds to steady state: warmup_calls) and the 4 samples */
    int w = csv_col(&t, "warmup_calls");
    cr_assert_gt(w, 0);
    for (int i = 2; i < 4; i++) {
        cr_assert_geq(atoi(t.rows[i][w]), 2, "at least the 2 warmups");
        cr_assert_eq(atoi(t.rows[i][c]), atoi(t.rows[i][w]) + 4, "row %d: %s calls, %s warmup",
                     i, t.rows[i][c], t.rows[i][w]);
    }
    trials_done(&t, d);
}

/* Two columns appearing at different times (batch_size first, then noise or
 * calls) keep every row as wide as the header. */
Test(run, columns_appearing_one_after_another_keep_rows_whole, .timeout = 30)
{
    proc_out r;
    csv_table t;
    char *d = run_fresh(
        "w.yaml",
        "workload: selftest\nrepeats: 3\nwarmups: 0\nsweep:\n"
        "  case:\n    - {label: a, action: fail}\n    - {label: b, action: none, batch: 1}\n"
        "    - {label: c, action: none, batch: 4}\n    - {label: d, action: fail}\n",
        0, &r, &t);
    cr_assert_eq(t.nrows, 5, "%d rows", t.nrows);
    for (int i = 1; i < t.nrows; i++)
        cr_assert_eq(t.nfields[i], t.nfields[0], "row %d: %d fields, header %d", i, t.nfields[i],
                     t.nfields[0]);
    cr_assert(csv_col(&t, "calls") > 0 && csv_col(&t, "batch_size") > 0);
    cr_assert_str_eq(t.rows[3][csv_col(&t, "batch_size")], "4");
    trials_done(&t, d);
}

/* Durations printed with a unit ("12.5 us", "1 µs"): none negative, and each
 * in the unit rule of doc/timing.md#noise (ns below 1 us, us below
 * 1 ms, ms below 1 s, s above).  Returns the number checked. */
static int scan_units(const char *text, const char *where)
{
    int n = 0;
    for (const char *p = text; *p; p++) {
        int neg = *p == '-' && p[1] >= '0' && p[1] <= '9';
        if (!(neg || (*p >= '0' && *p <= '9')))
            continue;
        if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == '_' ||
                         p[-1] == '-' || p[-1] == '#'))
            continue;
        char *end;
        double v = strtod(p, &end);
        const char *u = end[0] == ' ' ? end + 1 : end;
        int len = !strncmp(u, "ns", 2) || !strncmp(u, "us", 2) || !strncmp(u, "ms", 2) ? 2
                  : !strncmp(u, "\xc2\xb5s", 3)                                       ? 3
                  : u[0] == 's'                                                       ? 1
                                                                                      : 0;
        if (len && !isalnum((unsigned char)u[len])) {
            n++;
            cr_assert(v >= 0, "%s: a negative duration: %.40s", where, p);
            if (u[0] != 's')
                cr_assert(v < 1000, "%s: %.20s is not in the unit rule", where, p);
            if (u[0] != 'n')
                cr_assert(v == 0 || v >= 1, "%s: %.20s is not in the unit rule", where, p);
        }
        p = end > p ? end - 1 : p;
    }
    return n;
}

/* Issue 15, "done when": a whole reference study (experiments/affine.yaml:
 * Lua and built-in workloads, two charts) has no negative or mis-united
 * duration in trials.csv, samples.csv, report.md or its charts, and every
 * ok trial's interval holds its median. */
Test(run, a_full_study_has_no_negative_or_misunited_duration, .timeout = 120)
{
    char *d = tmpdir();
    char exp[4096], out[4096], p[8192], dir[8192];
    snprintf(exp, sizeof exp, "%s/experiments/affine.yaml", getenv("RUNNER_ROOT"));
    snprintf(out, sizeof out, "%s/out", d);
    proc_out r;
    run((char *[]){"--quiet", "--output", out, exp, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    csv_table t;
    read_newest(out, "affine", "trials.csv", &t);
    static const char *const dur[] = {"cold", "min", "median", "mean", "stddev", "max",
                                      "median_ci_low", "median_ci_high", "warmup_time"};
    int ok = 0;
    for (int i = 1; i < t.nrows; i++) {
        if (strcmp(cell(&t, i, "status"), "ok"))
            continue;
        ok++;
        assert_row_durations(&t, i, dur, sizeof dur / sizeof dur[0]);
    }
    cr_assert_gt(ok, 5);
    csv_free(&t);
    newest_run_file(out, "affine", "samples.csv", p, sizeof p);
    cr_assert_eq(csv_read(p, &t), 0);
    int sc = csv_col(&t, "seconds");
    for (int i = 1; i < t.nrows; i++)
        cr_assert(t.rows[i][sc][0] != '-', "samples.csv row %d: %s", i, t.rows[i][sc]);
    csv_free(&t);
    newest_run_file(out, "affine", "report.md", p, sizeof p);
    char *rep = read_all(p);
    cr_assert(rep);
    int n = scan_units(rep, "report.md");
    free(rep);
    snprintf(dir, sizeof dir, "%.*s/plots", (int)(strrchr(p, '/') - p), p);
    DIR *D = opendir(dir);
    cr_assert(D, "no %s", dir);
    int charts = 0;
    for (struct dirent *de; (de = readdir(D));) {
        size_t l = strlen(de->d_name);
        if (l < 4 || (strcmp(de->d_name + l - 4, ".svg") && strcmp(de->d_name + l - 3, ".gp")))
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        char *txt = read_all(p);
        cr_assert(txt);
        charts += scan_units(txt, de->d_name) > 0;
        free(txt);
    }
    closedir(D);
    cr_assert_gt(n, 10, "report.md: %d durations", n);
    cr_assert_geq(charts, 2, "charts with duration ticks: %d", charts);
    free(d);
}

/* issue 16: the CPU frequency per trial, from cpufreq or /proc/cpuinfo; a
 * fastest CPU well below cpufreq's maximum is flagged throttled */
Test(load, cpu_frequency_from_cpufreq_or_cpuinfo)
{
    char *d = tmpdir();
    char p[4096];
    /* cpufreq: two CPUs, the fastest at 1.2 of 3.0 GHz (kHz in sysfs) */
    for (int k = 0; k < 2; k++) {
        snprintf(p, sizeof p, "%s/sys/cpu%d/cpufreq", d, k);
        char cmd[4200];
        snprintf(cmd, sizeof cmd, "mkdir -p '%s'", p);
        cr_assert_eq(system(cmd), 0);
        snprintf(p, sizeof p, "sys/cpu%d/cpufreq/scaling_cur_freq", k);
        write_text(d, p, k ? "1200000\n" : "1000000\n");
        snprintf(p, sizeof p, "sys/cpu%d/cpufreq/cpuinfo_max_freq", k);
        write_text(d, p, "3000000\n");
    }
    write_text(d, "cpuinfo", "processor\t: 0\ncpu MHz\t\t: 2596.122\n\nprocessor\t: 1\n"
                             "cpu MHz\t\t: 2400.5\n");
    char sys[4096], ci[4096], none[4096];
    snprintf(sys, sizeof sys, "%s/sys", d);
    snprintf(ci, sizeof ci, "%s/cpuinfo", d);
    snprintf(none, sizeof none, "%s/none", d);
    double cur, max;
    cr_assert_eq(load_cpu_mhz(sys, ci, &cur, &max), 1);
    cr_assert_float_eq(cur, 1200, 1e-9);
    cr_assert_float_eq(max, 3000, 1e-9);
    load_sum s = {0};
    load_add_mhz(&s, cur, max);
    load_add_mhz(&s, 2900, max); /* the lowest over rounds is kept */
    char why[128];
    cr_assert_eq(load_throttled(&s, why, sizeof why), 1);
    cr_assert_str_eq(why, "throttled: fastest CPU at 1200 MHz, 40% of its 3000 MHz maximum");
    load_sum q = {0};
    load_add_mhz(&q, 2900, 3000);
    cr_assert_eq(load_throttled(&q, why, sizeof why), 0);
    /* no cpufreq: /proc/cpuinfo's fastest, no maximum, never throttled */
    cr_assert_eq(load_cpu_mhz(none, ci, &cur, &max), 1);
    cr_assert_float_eq(cur, 2596.122, 1e-9);
    cr_assert_float_eq(max, 0, 1e-9);
    load_sum c = {0};
    load_add_mhz(&c, cur, max);
    cr_assert_eq(load_throttled(&c, why, sizeof why), 0);
    /* neither */
    cr_assert_eq(load_cpu_mhz(none, none, &cur, &max), 0);
    cr_assert_float_eq(cur, 0, 1e-9);
    snprintf(p, sizeof p, "rm -rf '%s'", d);
    cr_assert_eq(system(p), 0);
    free(d);
}

/* ... and the run writes cpu_mhz where this machine tells it (a machine
 * without cpufreq or a cpu MHz line has no such column), cpu_max_mhz only
 * with cpufreq */
Test(run, trials_record_the_cpu_frequency_where_the_kernel_has_it, .timeout = 30)
{
    double cur, max;
    int known = load_cpu_mhz("/sys/devices/system/cpu", "/proc/cpuinfo", &cur, &max);
    char *d = tmpdir(), exp[SCENARIO_PATH], out[SCENARIO_PATH];
    experiment_at(d, "f.yaml", "name: f\nworkload: noop\nrepeats: 3\nwarmups: 0\n", exp, out);
    proc_out r;
    run_expect(out, exp, 0, &r);
    csv_table t;
    read_newest(out, "f", "trials.csv", &t);
    int mc = csv_col(&t, "cpu_mhz"), xc = csv_col(&t, "cpu_max_mhz");
    cr_log_info("cpu frequency: %s (%.0f MHz, max %.0f)", known ? "known" : "not exposed", cur, max);
    if (!known) {
        cr_assert(mc < 0, "no frequency here, yet a cpu_mhz column");
    } else {
        cr_assert(mc >= 0, "the kernel gives %.0f MHz, yet no cpu_mhz column", cur);
        cr_assert_gt(atof(t.rows[1][mc]), 0);
        cr_assert_eq(xc >= 0, max > 0);
    }
    trials_done(&t, d);
}
