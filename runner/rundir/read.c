/* read.c - see rundir.h: the run folder's names and its readers. */
#include "rundir/rundir.h"

#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const names[] = {
    [RD_TRIALS] = "trials.csv",   [RD_SAMPLES] = "samples.csv", [RD_MORE] = "trials.more.csv",
    [RD_META] = "meta.json",      [RD_REPORT] = "report.md",    [RD_REPORT_HTML] = "report.html",
    [RD_LATEST] = "latest",       [RD_PLOTS] = "plots",       [RD_EXPERIMENT] = "experiment.yaml",
};

const char *rundir_name(rd_file f)
{
    return names[f];
}

char *rundir_path(const char *dir, rd_file f)
{
    return xasprintf("%s/%s", dir, names[f]);
}

int rundir_is_run(const char *dir)
{
    char *p = rundir_path(dir, RD_TRIALS);
    struct stat st;
    int ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);
    free(p);
    return ok;
}

char *rundir_resolve(const char *arg)
{
    if (rundir_is_run(arg))
        return xstrdup(arg);
    char *l = rundir_path(arg, RD_LATEST);
    if (rundir_is_run(l))
        return l;
    free(l);
    return NULL;
}

int rundir_read_trials(const char *dir, csv_table *t, char *err, size_t len)
{
    char *p = rundir_path(dir, RD_TRIALS);
    if (csv_read(p, t) < 0) {
        snprintf(err, len, "%s: cannot read (%s); is %s a run folder?", p, strerror(errno), dir);
        memset(t, 0, sizeof *t);
        free(p);
        return -1;
    }
    if (t->nrows < 1 || csv_col(t, "status") < 2 || strcmp(t->rows[0][0], "trial")) {
        snprintf(err, len, "%s: not a trials.csv (no 'trial' and 'status' columns)", p);
        csv_free(t);
        memset(t, 0, sizeof *t);
        free(p);
        return -1;
    }
    free(p);
    return 0;
}

int rundir_read_samples(const char *dir, csv_table *t, int *present, char *err, size_t len)
{
    memset(t, 0, sizeof *t);
    *present = 0;
    char *p = rundir_path(dir, RD_SAMPLES);
    struct stat st;
    if (stat(p, &st) < 0 && errno == ENOENT) {
        free(p);
        return 0;
    }
    if (csv_read(p, t) < 0) {
        snprintf(err, len, "%s: %s", p, strerror(errno));
        memset(t, 0, sizeof *t);
        free(p);
        return -1;
    }
    free(p);
    *present = t->nrows >= 1;
    return 0;
}

json_object *rundir_read_meta(const char *dir, int *absent, char *err, size_t len)
{
    char *p = rundir_path(dir, RD_META);
    struct stat st;
    *absent = stat(p, &st) < 0 && errno == ENOENT;
    json_object *m = *absent ? NULL : json_object_from_file(p);
    if (!m && !*absent)
        snprintf(err, len, "%s: not readable as JSON", p);
    free(p);
    return m;
}

char *rundir_meta_experiment(const char *dir, const char *field)
{
    int absent;
    char err[8]; /* unreadable is absent here */
    json_object *root = rundir_read_meta(dir, &absent, err, sizeof err);
    char *v = NULL;
    json_object *x, *n;
    if (root && json_object_object_get_ex(root, "experiment", &x) &&
        json_object_object_get_ex(x, field, &n) && json_object_is_type(n, json_type_string))
        v = xstrdup(json_object_get_string(n));
    json_object_put(root);
    return v;
}

int rundir_write_meta(const char *dir, json_object *m, char *err, size_t len)
{
    const char *txt = json_object_to_json_string_ext(
        m, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
    char *p = rundir_path(dir, RD_META);
    char *withnl = xasprintf("%s\n", txt);
    int rc = write_file_atomic(p, withnl, strlen(withnl));
    if (rc < 0)
        snprintf(err, len, "cannot write %s: %s", p, strerror(errno));
    free(withnl);
    free(p);
    return rc;
}

int rundir_has_ok_trial(const char *dir)
{
    char *p = rundir_path(dir, RD_TRIALS);
    csv_table t;
    int ok = 0;
    if (csv_read(p, &t) == 0) {
        int sc = csv_col(&t, "status");
        for (int r = 1; sc >= 0 && r < t.nrows && !ok; r++)
            ok = sc < t.nfields[r] && !strcmp(t.rows[r][sc], "ok");
        csv_free(&t);
    }
    free(p);
    return ok;
}
