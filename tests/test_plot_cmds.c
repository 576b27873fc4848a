/* test_plot_cmds.c - `runner plot` and `runner report` on copies of the
 * hand-made run in tests/fixtures/matmul_run: re-rendering saved results,
 * restyling with --config, report.md. */
#include "experiment/config.h"
#include "plots_fixture.h"
#include "results/report/plot_crossover.h"
#include "results/report/plot_gp.h"
#include "results/report/plot_model.h"
#include "results/report/plot_render.h"
#include "results/report/plots.h"
#include "scenario.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* --- runner plot / runner report --------------------------------------- */

Test(cmd_plot, rerenders_from_saved_results_only)
{
    char *d = fixture_copy(NULL);
    char *work = tmpdir();
    size_t n1, n2, s1, s2;
    char tp[4096], sp[4096];
    snprintf(tp, sizeof tp, "%s/trials.csv", d);
    snprintf(sp, sizeof sp, "%s/samples.csv", d);
    char *t1 = slurp(tp, &n1), *x1 = slurp(sp, &s1);
    proc pr;
    run_bin(&pr, work, NULL, (char *[]){"plot", d, NULL});
    cr_assert_eq(pr.status, 0, "exit %d: %s", pr.status, pr.err);
    assert_chart(d, "time");
    assert_chart(d, "speedup");
    char *t2 = slurp(tp, &n2), *x2 = slurp(sp, &s2);
    cr_assert(n1 == n2 && !memcmp(t1, t2, n1), "trials.csv changed");
    cr_assert(s1 == s2 && !memcmp(x1, x2, s1), "samples.csv changed");
    cr_assert(!exists(work, "results"), "plot started a run");
    free(t1);
    free(t2);
    free(x1);
    free(x2);
    free(work);
    free(d);
}

Test(cmd_plot, results_folder_means_each_latest_run)
{
    char *top = tmpdir();
    char exp[4096], run[4096], lnk[4096], res[4096];
    snprintf(res, sizeof res, "%s/results", top);
    snprintf(exp, sizeof exp, "%s/results/matmul", top);
    snprintf(run, sizeof run, "%s/results/matmul/20260115T100000Z", top);
    snprintf(lnk, sizeof lnk, "%s/results/matmul/latest", top);
    mkdir(res, 0777);
    mkdir(exp, 0777);
    free(fixture_copy(run));
    cr_assert_eq(symlink("20260115T100000Z", lnk), 0);
    proc pr;
    run_bin(&pr, top, NULL, (char *[]){"plot", "results/", NULL});
    cr_assert_eq(pr.status, 0, "exit %d: %s", pr.status, pr.err);
    assert_chart(run, "time");
    free(top);
}

Test(cmd_plot, config_restyles_an_old_run)
{
    char *d = fixture_copy(NULL);
    char cfg[SCENARIO_PATH];
    file_at(d, "new.yaml",
            "name: matmul\n"
            "workload: matmul\n" FIXTURE_SWEEP "plots:\n"
            "  - {name: time, type: line, title: Restyled by --config, logy: false}\n",
            cfg);
    proc pr;
    run_bin(&pr, d, NULL, (char *[]){"plot", d, "--config", cfg, NULL});
    cr_assert_eq(pr.status, 0, "exit %d: %s", pr.status, pr.err);
    char *gp = file_in(d, "plots/time.gp");
    cr_assert(strstr(gp, "'Restyled by --config'"), "%s", gp);
    cr_assert_null(strstr(gp, "set logscale y"));
    free(gp);
    assert_png(d, "time");
    cr_assert(!exists(d, "plots/speedup.png"), "the newer file's plots replace the defaults");
    free(d);
}

Test(cmd_plot, bad_run_dir_is_exit_2)
{
    char *d = tmpdir();
    proc pr;
    run_bin(&pr, d, NULL, (char *[]){"plot", "/nonexistent/run", NULL});
    cr_assert_eq(pr.status, 2);
    cr_assert(strstr(pr.err, "/nonexistent/run"), "%s", pr.err);
    run_bin(&pr, d, NULL, (char *[]){"plot", d, NULL});
    cr_assert_eq(pr.status, 2);
    cr_assert(strstr(pr.err, d) && strstr(pr.err, "trials.csv"), "%s", pr.err);
    run_bin(&pr, d, NULL, (char *[]){"report", "/nonexistent/run", NULL});
    cr_assert_eq(pr.status, 2);
    char cfg[SCENARIO_PATH];
    file_at(d, "bad.yaml", "name: m\nworkload: matmul\nplots:\n  - {name: p, x: nope}\n", cfg);
    char *run = fixture_copy(NULL);
    run_bin(&pr, d, NULL, (char *[]){"plot", run, "--config", cfg, NULL});
    cr_assert_eq(pr.status, 2);
    cr_assert(strstr(pr.err, "bad.yaml:4:"), "%s", pr.err);
    free(run);
    free(d);
}

Test(cmd_report, report_md_from_the_fixture)
{
    char *d = fixture_copy(NULL);
    proc pr;
    run_bin(&pr, d, NULL, (char *[]){"plot", d, NULL});
    cr_assert_eq(pr.status, 0, "%s", pr.err);
    run_bin(&pr, d, NULL, (char *[]){"report", d, NULL});
    cr_assert_eq(pr.status, 0, "%s", pr.err);
    char *md = file_in(d, "report.md");
    cr_assert_not_null(md);
    const char *want[] = {"## Environment",
                          "AMD EPYC 9454",
                          "48 cores",
                          "NVIDIA H100 80GB HBM3",
                          "OpenBLAS",
                          "powersave",
                          "## Findings",
                          "GPU against CPU: faster from n = 256",
                          /* at n = 64 it was 1.01x faster: within the
                           * minimum effect, no crossing there */
                          "GPU no IO against CPU: faster from n = 128 (32 was the last slower)",
                          "Largest speedup: GPU no IO",
                          "Fastest configuration",
                          "Noisy trials",
                          "trial 6 (target=CPU size=1024)",
                          "out of memory",
                          "timeout",
                          "2 trials: the CUDA device is busy",
                          "![time](plots/time.png)",
                          "![speedup](plots/speedup.png)",
                          "## Trials",
                          "95 % CI",
                          "GFLOP/s"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_assert(strstr(md, want[i]), "report.md lacks '%s':\n%s", want[i], md);
    free(md);
    free(d);
}

/* Each cause in the noise column gets its own advice in report.md
 * (doc/timing.md#measurement-quality): the fixture's trials 0-4 given one cause each,
 * trial 6 a spread and an outlier. */
Test(cmd_report, noisy_trials_get_the_advice_of_their_cause)
{
    char *d = fixture_copy(NULL);
    char *csv = file_in(d, "trials.csv");
    static const char *const causes[] = {
        "bimodal: 3.0 us and 9.0 us (20% slow)", "2 stalls over 10x the median",
        "unsteady warmup (last/fastest 1.4)", "gave up (max_time): median +-3% > rse 1%",
        "processes shared a CPU in 2 calls"};
    strbuf b = {0};
    int line = 0;
    for (char *p = csv; *p; line++) {
        char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        const char *add = line == 0   ? "noise"
                          : line <= 5 ? causes[line - 1]
                          : line == 7 ? "cv 17.4%, mad 15.2%; 1 outlier" /* trial 6 */
                                      : "";
        sb_printf(&b, "%.*s,\"%s\"\n", (int)len, p, add);
        p += len + (nl ? 1 : 0);
    }
    char path[SCENARIO_PATH];
    file_at(d, "trials.csv", b.s, path);
    proc pr;
    run_bin(&pr, d, NULL, (char *[]){"report", d, NULL});
    cr_assert_eq(pr.status, 0, "%s", pr.err);
    char *md = file_in(d, "report.md");
    cr_assert_not_null(md);
    const char *want[] = {"two modes: a thread pool waking up", "stalls: something else ran",
                          "a longer warmup_time would help", "more time (stop: max_time)",
                          "the OS ran two of its processes on one CPU"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_assert(strstr(md, want[i]), "report.md lacks '%s':\n%s", want[i], md);
    /* the spread is said once, in words, and the other parts follow */
    const char *t6 = strstr(md, "- trial 6 (target=CPU size=1024): CV ");
    cr_assert_not_null(t6, "%s", md);
    char line6[1024];
    snprintf(line6, sizeof line6, "%.*s", (int)strcspn(t6, "\n"), t6);
    cr_expect(strstr(line6, " %, robust spread 15.2 % (1.4826 MAD / median), 5 samples (min "),
              "%s", line6);
    cr_expect(strstr(line6, "); 1 outlier: few samples: more repeats would help"), "%s", line6);
    cr_expect(!strstr(md, "cv 17.4%"), "the noise column's spread repeated: %s", line6);
    sb_free(&b);
    free(csv);
    free(md);
    free(d);
}

/* The fixture with sizes 1024 times larger (2^14 to 2^22): report.md writes sizes as 2^K and never an exponent. */
Test(cmd_report, tidy_numbers_in_findings_and_tables)
{
    char *d = fixture_copy(NULL);
    char *csv = file_in(d, "trials.csv");
    strbuf b = {0};
    int field = 0, line = 0;
    for (const char *p = csv; *p;) {
        if (field == 4 && line > 0) { /* size */
            char *end;
            long v = strtol(p, &end, 10);
            sb_printf(&b, "%ld", v * 1024);
            p = end;
            field++; /* the comma after it */
            sb_putc(&b, *p++);
            continue;
        }
        if (*p == ',')
            field++;
        if (*p == '\n')
            field = 0, line++;
        sb_putc(&b, *p++);
    }
    char p[SCENARIO_PATH];
    file_at(d, "trials.csv", b.s, p);
    sb_free(&b);
    free(csv);
    snprintf(p, sizeof p, "%s/experiment.yaml", d);
    char *y = file_in(d, "experiment.yaml");
    char *w = strstr(y, "pow2: [4, 12]");
    cr_assert_not_null(w);
    memcpy(w, "pow2: [14,22]", 13);
    spit(p, y);
    free(y);
    cr_assert_eq(report_write(d, 1, NULL), 0);
    char *md = file_in(d, "report.md");
    const char *want[] = {"GPU against CPU: faster from n = 2^18 (2^17 was the last slower)",
                          "at n = 2^20.", "| 2^22 |", "| 2^14 | CPU |",
                          "trial 6 (target=CPU size=2^20)", "| 4.35x |"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_assert(strstr(md, want[i]), "report.md lacks '%s':\n%s", want[i], md);
    cr_assert_null(strstr(md, "e+0"), "%s", md);
    cr_assert_null(strstr(md, "e-0"), "%s", md);
    free(md);
    free(d);
}

Test(cmd_report, without_experiment_yaml_infers_the_sweep)
{
    char *d = fixture_copy(NULL);
    cr_assert_eq(unlink_in(d, "experiment.yaml"), 0);
    run_model m;
    char err[256];
    cr_assert_eq(pm_load(&m, d, NULL, err, sizeof err), 0, "%s", err);
    int t = pm_col(&m, "target"), dev = pm_col(&m, "device"), io = pm_col(&m, "io");
    cr_assert(m.swept[t] && m.swept[dev] && m.swept[io] && m.swept[m.c_size]);
    cr_assert(m.is_label[t] && m.group[dev] == m.group[t] && m.group[io] == m.group[t]);
    cr_assert_eq(pm_default_x(&m), m.c_size);
    pm_free(&m);
    int n = plots_render_run(d, NULL, 1, NULL);
    cr_assert_eq(n, 4);
    char *gp = file_in(d, "plots/time.gp");
    cr_assert(strstr(gp, "title 'GPU no IO'"));
    free(gp);
    cr_assert_eq(report_write(d, 1, NULL), 0);
    char *md = file_in(d, "report.md");
    cr_assert(strstr(md, "faster from n = 256"));
    free(md);
    free(d);
}

/* The saved experiment.yaml names a hooks file that is not beside it: the
 * run's own `plots` still apply. */
Test(cmd_plot, saved_experiment_with_absent_hooks_keeps_its_plots)
{
    char *d = fixture_copy(NULL);
    char p[SCENARIO_PATH];
    file_at(d, "experiment.yaml",
            "name: matmul\n"
            "workload: matmul\n"
            "hooks: hooks/extra.lua\n" FIXTURE_SWEEP "plots:\n"
            "  - {name: mine, type: line, title: Kept}\n",
            p);
    proc pr;
    run_bin(&pr, d, NULL, (char *[]){"plot", d, NULL});
    cr_assert_eq(pr.status, 0, "exit %d: %s", pr.status, pr.err);
    assert_chart(d, "mine");
    cr_assert(!exists(d, "plots/time.png"));
    cr_assert(!exists(d, "hooks"), "a stand-in file was left in the run folder");
    free(d);
}
