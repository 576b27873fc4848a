/* compare_load.c - see compare_load.h. */
#include "results/report/compare_load.h"

#include "base/util.h"
#include "results/rundir/rundir.h"

#include <math.h>

#include <errno.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *compare_cell(const compare_run *R, int pos, int col)
{
    int r = R->row[pos];
    return col >= 0 && col < R->t.nfields[r] ? R->t.rows[r][col] : "";
}

const char *compare_key(const compare_run *R, int k)
{
    return R->t.rows[0][1 + k];
}

typedef struct id_row {
    long long id;
    int r;
} id_row;

static int cmp_id_row(const void *pa, const void *pb)
{
    const id_row *a = pa, *b = pb;
    return a->id != b->id ? CMP_NUM(a->id, b->id) : CMP_NUM(a->r, b->r);
}

static int parse_ll(const char *s, long long *v)
{
    char *end;
    errno = 0;
    *v = strtoll(s, &end, 10);
    return *s && !*end && !errno ? 0 : -1;
}

void compare_run_free(compare_run *R)
{
    for (int i = 0; i < R->nrows; i++)
        free(R->smp ? R->smp[i] : NULL);
    free(R->smp);
    free(R->nsmp);
    free(R->row);
    free(R->id);
    free(R->dir);
    free(R->host);
    free(R->start);
    csv_free(&R->t);
    memset(R, 0, sizeof *R);
}

static char *json_str(json_object *o, const char *a, const char *b)
{
    json_object *v;
    if (!json_object_object_get_ex(o, a, &v))
        return NULL;
    if (b && !json_object_object_get_ex(v, b, &v))
        return NULL;
    return json_object_is_type(v, json_type_string) ? xstrdup(json_object_get_string(v)) : NULL;
}

/* The run's one-core speed: the mean of the meta's cpu_speed.gflops, a
 * number a CPU (doc/timing.md#the-speed-of-each-cpu); NaN when absent or
 * not a plausible figure (a tampered file is judged as an older run). */
static double compare_meta_clock(json_object *m)
{
    json_object *s, *g;
    if (!json_object_object_get_ex(m, "cpu_speed", &s) || !json_object_object_get_ex(s, "gflops", &g) ||
        !json_object_is_type(g, json_type_object))
        return NAN;
    double sum = 0;
    int n = 0;
    json_object_object_foreach(g, k, v)
    {
        (void)k;
        if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
            return NAN;
        double x = json_object_get_double(v);
        if (!(x > 0 && x < 1e5))
            return NAN;
        sum += x;
        n++;
    }
    return n ? sum / n : NAN;
}

int compare_run_load(compare_run *R, const char *arg, char *err, size_t errlen)
{
    memset(R, 0, sizeof *R);
    R->arg = arg;
    struct stat st;
    if (stat(arg, &st) < 0) {
        snprintf(err, errlen, "%s: %s", arg, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a run folder", arg);
        return -1;
    }
    if (!(R->dir = rundir_resolve_named(arg))) {
        snprintf(err, errlen, "%s: no %s there (not a run folder)", arg, rundir_name(RD_TRIALS));
        return -1;
    }
    char e[4096];
    if (rundir_read_trials(R->dir, &R->t, e, sizeof e) < 0) {
        snprintf(err, errlen, "%s", e);
        return -1;
    }
    R->status_col = csv_col(&R->t, "status");
    R->nkeys = R->status_col - 1;
    R->median_col = csv_col(&R->t, "median");
    R->noise_col = csv_col(&R->t, "noise");
    R->throttled_kept_col = csv_col(&R->t, "throttled_kept");
    R->other_cpu_col = csv_col(&R->t, "other_cpu");
    R->steal_col = csv_col(&R->t, "steal");
    R->mhz_col = csv_col(&R->t, "cpu_mhz");
    R->max_mhz_col = csv_col(&R->t, "cpu_max_mhz");
    R->threads_col = csv_col(&R->t, "threads");
    R->blocks_col = csv_col(&R->t, "blocks");
    R->clock_col = csv_col(&R->t, "clock_gflops");
    R->clock = NAN;

    /* one row per trial id, the last one written wins, in trial order */
    int n = R->t.nrows - 1;
    id_row *ir = xmalloc((size_t)(n + 1) * sizeof *ir);
    int k = 0;
    for (int r = 1; r < R->t.nrows; r++) {
        if (R->t.nfields[r] == 1 && !R->t.rows[r][0][0])
            continue; /* blank line */
        long long id;
        if (parse_ll(R->t.rows[r][0], &id) < 0) {
            char *tp = rundir_path(R->dir, RD_TRIALS);
            snprintf(err, errlen, "%s: row %d: bad trial number '%s'", tp, r + 1, R->t.rows[r][0]);
            free(tp);
            free(ir);
            return -1;
        }
        ir[k++] = (id_row){id, r};
    }
    xqsort(ir, (size_t)k, sizeof *ir, cmp_id_row);
    R->row = xmalloc((size_t)(k + 1) * sizeof *R->row);
    R->id = xmalloc((size_t)(k + 1) * sizeof *R->id);
    for (int i = 0; i < k; i++) {
        if (i + 1 < k && ir[i + 1].id == ir[i].id)
            continue;
        R->row[R->nrows] = ir[i].r;
        R->id[R->nrows++] = ir[i].id;
    }
    free(ir);

    /* the samples: the seconds of each trial; a trial whose sample numbers
     * start again (a re-run after a crash) keeps only its last series */
    csv_table s;
    int present;
    if (rundir_read_samples(R->dir, &s, &present, e, sizeof e) < 0) {
        snprintf(err, errlen, "%s", e);
        return -1;
    }
    int ct = csv_col(&s, "trial"), cv = csv_col(&s, "seconds");
    if (ct < 0 || cv < 0) {
        char *sp = rundir_path(R->dir, RD_SAMPLES);
        snprintf(err, errlen, "%s: not a runner %s (no 'trial' and 'seconds' columns)", sp,
                  rundir_name(RD_SAMPLES));
        free(sp);
        csv_free(&s);
        return -1;
    }
    R->smp = xcalloc((size_t)R->nrows + 1, sizeof *R->smp);
    R->nsmp = xcalloc((size_t)R->nrows + 1, sizeof *R->nsmp);
    rundir_by_trial g;
    rundir_group_samples(&s, &g);
    for (int pos = 0; pos < R->nrows; pos++) {
        int n;
        const int *rows = rundir_last_series(&s, &g, (long)R->id[pos], &n);
        if (!rows)
            continue;
        R->smp[pos] = xmalloc((size_t)n * sizeof(double));
        for (int i = 0; i < n; i++) {
            const char *c = cv < s.nfields[rows[i]] ? s.rows[rows[i]][cv] : "";
            char *end;
            double v = strtod(c, &end);
            if (end != c && !*end)
                R->smp[pos][R->nsmp[pos]++] = v;
        }
    }
    rundir_by_trial_free(&g);
    csv_free(&s);

    int absent;
    json_object *m = rundir_read_meta(R->dir, &absent, e, sizeof e);
    if (m) {
        R->host = json_str(m, "host", "hostname");
        R->start = json_str(m, "start", NULL);
        json_object *h, *c;
        if (json_object_object_get_ex(m, "host", &h) &&
            (json_object_object_get_ex(h, "online_cpus", &c) ||
             json_object_object_get_ex(h, "cores", &c)) &&
            json_object_is_type(c, json_type_int))
            R->cores = json_object_get_int(c);
        R->clock = compare_meta_clock(m);
        json_object_put(m);
    }
    return 0;
}

