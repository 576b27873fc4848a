/* test_trace_target.c - `--trace FILE` never overwrites an input of the run
 * or a file of a run folder (doc/results.md#a-timeline-of-a-run): it is
 * refused with exit 2 before anything runs, and the file is left as it was. */
#include "scenario.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return strdup(buf);
}

/* runs DIR/e.yaml with --trace target (under --output DIR/out); the target
 * must be refused and unchanged */
static void expect_refused(const char *d, const char *target, const char *why)
{
    char exp[4096], out[4096];
    snprintf(exp, sizeof exp, "%s/e.yaml", d);
    snprintf(out, sizeof out, "%s/out", d);
    char *before = access(target, F_OK) == 0 ? slurp(target) : NULL;
    proc_out r;
    run((char *[]){"--quiet", "--no-plots", "--output", out, "--trace", (char *)target, exp, NULL},
        &r);
    cr_expect_eq(r.status, 2, "--trace %s: exit %d: %s", target, r.status, r.err);
    cr_expect(strstr(r.err, why), "want '%s' in: %s", why, r.err);
    if (before) {
        char *after = slurp(target);
        cr_expect_str_eq(after, before, "%s changed", target);
        free(after);
        free(before);
    } else {
        cr_expect_neq(access(target, F_OK), 0, "%s was created", target);
    }
}

/* expect_refused for each DIR/NAME of the {name, why} `cases`, up to {NULL}. */
static void expect_each_refused(const char *d, const char *const (*cases)[2])
{
    for (; cases[0][0]; cases++) {
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", d, cases[0][0]);
        expect_refused(d, p, cases[0][1]);
    }
}

static char *setup(void)
{
    char *d = dir_with("w.lua",
                       "return {run = function(ctx, p, s) end}\n");
    write_text(d, "h.lua", "return {}\n");
    write_text(d, "data.csv", "a,label\n1,0\n");
    write_text(d, "e.yaml",
               "workload: lua:w.lua\nhooks: h.lua\nrepeats: 1\nwarmups: 0\n"
               "params: {note: data.csv}\n");
    return d;
}

Test(trace_target, inputs_of_the_run_refused)
{
    char *d = setup();
    static const char *const inputs[][2] = {
        {"e.yaml", "is the experiment file of"},
        {"h.lua", "is its hooks file of"},
        {"w.lua", "is a file its values name"},
        {"data.csv", "is a file its values name"},
        {"./e.yaml", "an input of the run"}, /* another spelling of the same file */
        {NULL},
    };
    expect_each_refused(d, inputs);
    free(d);
}

Test(trace_target, run_folder_files_refused)
{
    char *d = setup();
    char exp[SCENARIO_PATH], out[SCENARIO_PATH];
    snprintf(exp, sizeof exp, "%s/e.yaml", d);
    snprintf(out, sizeof out, "%s/out", d);
    proc_out r;
    run_expect(out, exp, 0, &r);
    static const char *const run_files[][2] = {
        {"out/e/latest/trials.csv", "is in a run folder"},
        {"out/e/latest/meta.json", "is in a run folder"},
        {"out/e/latest/new.json", "is in a run folder"},
        {NULL},
    };
    expect_each_refused(d, run_files);
    char p[4096];
    /* the --run-dir folder, before it holds anything */
    char rd[4096];
    snprintf(rd, sizeof rd, "%s/rd", d);
    cr_assert_eq(mkdir(rd, 0755), 0);
    snprintf(p, sizeof p, "%s/rd/t.json", d);
    run((char *[]){"--quiet", "--no-plots", "--run-dir", rd, "--trace", p, exp, NULL}, &r);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, "is in a run folder"), "%s", r.err);
    free(d);
}

Test(trace_target, other_files_taken)
{
    char *d = setup();
    char p[4096];
    snprintf(p, sizeof p, "%s/timeline.json", d);
    char exp[4096], out[4096];
    snprintf(exp, sizeof exp, "%s/e.yaml", d);
    snprintf(out, sizeof out, "%s/out", d);
    proc_out r;
    run((char *[]){"--quiet", "--no-plots", "--output", out, "--trace", p, exp, NULL}, &r);
    cr_expect_eq(r.status, 0, "%s", r.err);
    char *t = slurp(p);
    cr_expect_eq(t[0], '[', "%s", t);
    free(t);
    free(d);
}
