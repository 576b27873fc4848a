/* test_report_write.c - a report.md or report.html that cannot be written is
 * exit 1, as results that cannot be written are (doc/results.md#guarantees),
 * from `runner` (the report written after a run), `runner plot` (which keeps
 * an existing report in step) and `runner report`; the trials stay saved.
 * The fault: report.html is a folder, so writing the file over it fails. */
#include "runproc.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void block(const char *run_dir, const char *name)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", run_dir, name);
    cr_assert_eq(mkdir(p, 0755), 0, "%s", p);
    snprintf(p, sizeof p, "%s/%s/keep", run_dir, name);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    fclose(f);
}

Test(report_write, run_exits_1_when_report_html_fails)
{
    char *d = tmpdir();
    char rd[4096];
    snprintf(rd, sizeof rd, "%s/run", d);
    cr_assert_eq(mkdir(rd, 0755), 0);
    block(rd, "report.html");
    proc_out r;
    run_yaml_in(d, "workload: noop\nrepeats: 1\nwarmups: 0\n", NULL, &r);
    cr_expect_eq(r.status, 1, "%s", r.err);
    cr_expect(strstr(r.err, "cannot write") && strstr(r.err, "report.html"), "%s", r.err);
    /* the trial is saved all the same */
    csv_table t;
    read_trials(d, &t);
    cr_expect_eq(t.nrows, 2);
    cr_expect_str_eq(t.rows[1][csv_col(&t, "status")], "ok");
    trials_done(&t, d);
}

Test(report_write, report_and_plot_exit_1_when_a_report_fails)
{
    char *d = tmpdir();
    proc_out r;
    run_yaml_in(d, "workload: noop\nrepeats: 1\nwarmups: 0\n", NULL, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char rd[4096], html[4096];
    snprintf(rd, sizeof rd, "%s/run", d);
    snprintf(html, sizeof html, "%s/report.html", rd);
    cr_assert_eq(unlink(html), 0);
    block(rd, "report.html");
    run((char *[]){"report", rd, NULL}, &r);
    cr_expect_eq(r.status, 1, "report: %s", r.err);
    run((char *[]){"plot", "--quiet", rd, NULL}, &r);
    cr_expect_eq(r.status, 1, "plot: %s", r.err);
    cr_expect(strstr(r.err, "report.html"), "%s", r.err);
    free(d);
}
