/* read.c - see rundir.h: the run folder's names and its readers. */
#include "results/rundir/rundir.h"

#include "base/util.h"
#include "experiment/experiment.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

_Static_assert(RUNDIR_MAX_TRIAL >= MAX_TRIALS - 1, "every trial of an experiment has its number");

static const char *const names[] = {
    [RD_TRIALS] = "trials.csv",   [RD_SAMPLES] = "samples.csv", [RD_MORE] = "trials.more.csv",
    [RD_META] = "meta.json",      [RD_REPORT] = "report.md",    [RD_REPORT_HTML] = "report.html",
    [RD_LATEST] = "latest",       [RD_PLOTS] = "plots",       [RD_EXPERIMENT] = "experiment.yaml",
    [RD_HISTORY] = "history.md",
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

long rundir_trial_no(const char *s)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*end || errno || v < 0 || v > RUNDIR_MAX_TRIAL)
        return -1;
    return v;
}

void rundir_group_samples(const csv_table *s, rundir_by_trial *g)
{
    memset(g, 0, sizeof *g);
    int tc = csv_col(s, "trial");
    if (tc < 0)
        return;
    int *cap = NULL; /* doubled: a trial of 10^5 samples is not copied 10^5 times */
    for (int r = 1; r < s->nrows; r++) {
        long t = s->nfields[r] > tc ? rundir_trial_no(s->rows[r][tc]) : -1;
        if (t < 0)
            continue;
        if (t >= g->ntrials) {
            long nt = t + 1;
            g->rows = xrealloc(g->rows, (size_t)nt * sizeof *g->rows);
            g->n = xrealloc(g->n, (size_t)nt * sizeof *g->n);
            cap = xrealloc(cap, (size_t)nt * sizeof *cap);
            for (long i = g->ntrials; i < nt; i++) {
                g->rows[i] = NULL;
                g->n[i] = cap[i] = 0;
            }
            g->ntrials = nt;
        }
        if (g->n[t] == cap[t]) {
            cap[t] = cap[t] ? 2 * cap[t] : 8;
            g->rows[t] = xrealloc(g->rows[t], (size_t)cap[t] * sizeof **g->rows);
        }
        g->rows[t][g->n[t]++] = r;
    }
    free(cap);
}

const int *rundir_last_series(const csv_table *s, const rundir_by_trial *g, long t, int *n)
{
    *n = 0;
    if (t < 0 || t >= g->ntrials || !g->n[t])
        return NULL;
    int sc = csv_col(s, "sample"), from = 0;
    long long last = -1;
    for (int i = 0; sc >= 0 && i < g->n[t]; i++) {
        int r = g->rows[t][i];
        char *end;
        const char *c = sc < s->nfields[r] ? s->rows[r][sc] : "";
        long long k = strtoll(c, &end, 10);
        if (!*c || *end)
            continue; /* no sample number: kept, and no restart seen */
        if (k <= last)
            from = i;
        last = k;
    }
    *n = g->n[t] - from;
    return g->rows[t] + from;
}

void rundir_by_trial_free(rundir_by_trial *g)
{
    for (long i = 0; i < g->ntrials; i++)
        free(g->rows[i]);
    free(g->rows);
    free(g->n);
    memset(g, 0, sizeof *g);
}

json_object *rundir_meta_parse(const char *path, int *absent, char *err, size_t len)
{
    char why[160];
    /* a run folder is input like any other: a FIFO or a link to /dev/zero
     * there must not hold or fill the runner (doc/results.md#guarantees) */
    char *text = read_file_max(path, RUNDIR_META_MAX, NULL, why, sizeof why);
    *absent = !text && errno == ENOENT;
    json_object *m = text ? json_tokener_parse(text) : NULL;
    if (!text && !*absent)
        snprintf(err, len, "%s: not read: %s", path, why);
    else if (text && !m)
        snprintf(err, len, "%s: not readable as JSON", path);
    free(text);
    return m;
}

json_object *rundir_read_meta(const char *dir, int *absent, char *err, size_t len)
{
    char *p = rundir_path(dir, RD_META);
    json_object *m = rundir_meta_parse(p, absent, err, len);
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

char *rundir_meta_ceilings(const char *dir)
{
    int absent;
    char err[8]; /* unreadable is absent here */
    json_object *root = rundir_read_meta(dir, &absent, err, sizeof err);
    char *v = NULL;
    json_object *c;
    if (root && json_object_object_get_ex(root, "ceilings", &c) &&
        json_object_is_type(c, json_type_object))
        v = xstrdup(json_object_to_json_string(c));
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
