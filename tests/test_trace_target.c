/* test_trace_target.c - `--trace FILE` never overwrites an input of the run
 * or a file of a run folder (doc/results.md#a-timeline-of-a-run): it is
 * refused with exit 2 before anything runs, and the file is left as it was. */
#include "runproc.h"

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
    char p[4096];
    snprintf(p, sizeof p, "%s/e.yaml", d);
    expect_refused(d, p, "is the experiment file of");
    snprintf(p, sizeof p, "%s/h.lua", d);
    expect_refused(d, p, "is its hooks file of");
    snprintf(p, sizeof p, "%s/w.lua", d);
    expect_refused(d, p, "is a file its values name");
    snprintf(p, sizeof p, "%s/data.csv", d);
    expect_refused(d, p, "is a file its values name");
    /* another spelling of the same file */
    snprintf(p, sizeof p, "%s/./e.yaml", d);
    expect_refused(d, p, "an input of the run");
    free(d);
}

Test(trace_target, run_folder_files_refused)
{
    char *d = setup();
    char exp[4096], out[4096];
    snprintf(exp, sizeof exp, "%s/e.yaml", d);
    snprintf(out, sizeof out, "%s/out", d);
    proc_out r;
    run((char *[]){"--quiet", "--no-plots", "--output", out, exp, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char p[4096];
    snprintf(p, sizeof p, "%s/out/e/latest/trials.csv", d);
    expect_refused(d, p, "is in a run folder");
    snprintf(p, sizeof p, "%s/out/e/latest/meta.json", d);
    expect_refused(d, p, "is in a run folder");
    snprintf(p, sizeof p, "%s/out/e/latest/new.json", d);
    expect_refused(d, p, "is in a run folder");
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
