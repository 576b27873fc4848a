/* plot_model.c - see plot_model.h. */
#include "results/report/plot_model.h"

#include "results/rundir/rundir.h"
#include "experiment/roles.h"
#include "base/util.h"
#include "results/report/size_meaning.h"

#include <errno.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const chart_type_names[] = {"line",   "speedup", "throughput", "breakdown",
                                        "bar",    "warmup",  "roofline", NULL};

static const char *const time_cols[] = {
    "cold",          "min",         "median",        "mean",           "stddev",
    "max",           "median_ci_low", "median_ci_high", "h2d",          "compute",
    "d2h",           "device_min",  "device_median", "device_mean",    "device_stddev",
    "device_max",    "device_median_ci_low", "device_median_ci_high", "startup_seconds",
    "startup_fork_seconds", "barrier_skew_seconds", NULL};

/* 1 when s is a plain decimal number, [+-]digits[.digits][e[+-]digits]
 * with a digit somewhere before the exponent: text strtod reads whole, so
 * a cell's "is it a number" needs no strtod (issue 38: every cell of a
 * run of 20,000 trials went through one for the report) */
static int plain_decimal(const char *s)
{
    int digits = 0;
    if (*s == '+' || *s == '-')
        s++;
    for (; *s >= '0' && *s <= '9'; s++)
        digits++;
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++)
            digits++;
    if (!digits)
        return 0;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (*s < '0' || *s > '9')
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    return *s == '\0';
}

int pm_is_number(const char *s, double *out)
{
    if (!s || !*s)
        return 0;
    if (!out && plain_decimal(s))
        return 1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0')
        return 0;
    if (out)
        *out = v;
    return 1;
}

int pm_col(const run_model *m, const char *name)
{
    if (!name || m->t.nrows < 1)
        return -1;
    return csv_col(&m->t, name);
}

double pm_num(const run_model *m, int row, int col)
{
    double v;
    if (!pm_is_number(pm_cell(m, row, col), &v) || !isfinite(v))
        return NAN;
    return v;
}

int pm_ok(const run_model *m, int row)
{
    return !strcmp(pm_cell(m, row, m->c_status), "ok");
}

int pm_is_key(const run_model *m, int col)
{
    return col >= m->key_first && col <= m->key_last;
}

int pm_is_config(const run_model *m, int col)
{
    return pm_is_key(m, col) &&
           column_is_config(m->t.rows[0][col], m->numeric[col], m->group[col] >= 0);
}

int pm_is_extra_col(const run_model *m, int col)
{
    return m->c_gbps >= 0 && col > m->c_gbps && col < m->ncols &&
           column_is_extra(m->t.rows[0][col]);
}

int pm_is_time_col(const run_model *m, int col)
{
    if (col < 0 || col >= m->ncols)
        return 0;
    for (int i = 0; time_cols[i]; i++)
        if (!strcmp(m->t.rows[0][col], time_cols[i]))
            return 1;
    return 0;
}

int pm_is_device_col(const run_model *m, int col)
{
    return pm_is_time_col(m, col) && !strncmp(m->t.rows[0][col], "device_", 7);
}

void pm_fmt_num(char *out, size_t n, double v)
{
    double a = fabs(v);
    if (!isfinite(v)) {
        snprintf(out, n, "-");
    } else if (a < 10000) {
        if (v == floor(v))
            snprintf(out, n, "%.0f", v);
        else
            pm_fmt_ratio(out, n, v); /* 4 significant digits would read as 4 */
    } else if (v == floor(v) && a < 0x1p63 && !((long long)a & ((long long)a - 1))) {
        int k = 0;
        while ((1LL << k) < (long long)a)
            k++;
        snprintf(out, n, "%s2^%d", v < 0 ? "-" : "", k);
    } else {
        static const char suffix[] = "kMGTPE";
        int e = 0;
        double m = a;
        while (m >= 999.5 && e < 6) {
            m /= 1000;
            e++;
        }
        char t[32];
        pm_fmt_ratio(t, sizeof t, m);
        snprintf(out, n, "%s%s%c", v < 0 ? "-" : "", t, suffix[e - 1]);
    }
}

void pm_fmt_ratio(char *out, size_t n, double r)
{
    double a = fabs(r);
    if (!isfinite(r)) {
        snprintf(out, n, "-");
    } else if (a == 0) {
        snprintf(out, n, "0");
    } else if (a >= 1000) {
        /* 3 significant digits, written out: 26400 */
        double p = pow(10, floor(log10(a)) - 2);
        snprintf(out, n, "%.0f", round(r / p) * p);
    } else if (a >= 1e-4) {
        snprintf(out, n, "%.3g", r);
    } else {
        int dec = 2 - (int)floor(log10(a));
        snprintf(out, n, "%.*f", dec, r);
    }
}

double pm_row_time(const run_model *m, const chart_spec *s, int row, int y, int *dev)
{
    if (dev)
        *dev = 0;
    if (s->device_time && y >= 0 && y == m->c_median) {
        double v = pm_num(m, row, m->c_dev_median);
        if (isfinite(v)) {
            if (dev)
                *dev = 1;
            return v;
        }
    }
    return pm_num(m, row, y);
}

/* --- loading ---------------------------------------------------------- */

typedef struct dep_ctx {
    const run_model *m;
    int a, b;
} dep_ctx;

static dep_ctx g_dep; /* qsort has no context argument in C11 */

static int cmp_dep(const void *x, const void *y)
{
    int r = *(const int *)x, s = *(const int *)y;
    int c = strcmp(pm_cell(g_dep.m, r, g_dep.a), pm_cell(g_dep.m, s, g_dep.a));
    if (c)
        return c;
    return strcmp(pm_cell(g_dep.m, r, g_dep.b), pm_cell(g_dep.m, s, g_dep.b));
}

/* Does column b's value follow from column a's (over every row)? */
static int depends_on(const run_model *m, int a, int b)
{
    int n = m->nrows;
    if (n < 2)
        return 0;
    int *idx = xmalloc((size_t)n * sizeof *idx);
    for (int i = 0; i < n; i++)
        idx[i] = i + 1;
    g_dep = (dep_ctx){m, a, b};
    xqsort(idx, (size_t)n, sizeof *idx, cmp_dep);
    int ok = 1;
    for (int i = 1; i < n && ok; i++)
        if (!strcmp(pm_cell(m, idx[i], a), pm_cell(m, idx[i - 1], a)) &&
            strcmp(pm_cell(m, idx[i], b), pm_cell(m, idx[i - 1], b)))
            ok = 0;
    free(idx);
    return ok;
}

int pm_varies(const run_model *m, int col)
{
    for (int r = 2; r <= m->nrows; r++)
        if (strcmp(pm_cell(m, r, col), pm_cell(m, 1, col)))
            return 1;
    return 0;
}

int pm_load(run_model *m, const char *run_dir, const experiment *e, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    if (rundir_read_trials(run_dir, &m->t, err, errlen) < 0)
        return -1;
    m->dir = xstrdup(run_dir);
    m->nrows = m->t.nrows - 1;
    m->ncols = m->t.nfields[0];
    m->c_status = pm_col(m, "status");
    m->key_first = 1;
    m->key_last = m->c_status - 1;
    m->c_reason = pm_col(m, "reason");
    m->c_samples = pm_col(m, "samples");
    m->c_min = pm_col(m, "min");
    m->c_median = pm_col(m, "median");
    m->c_mean = pm_col(m, "mean");
    m->c_stddev = pm_col(m, "stddev");
    m->c_max = pm_col(m, "max");
    /* the median's interval (doc/timing.md#measurement-quality); runs saved
     * before it have ci95_* columns, the mean's t interval: not shown */
    m->c_lo = pm_col(m, "median_ci_low");
    m->c_hi = pm_col(m, "median_ci_high");
    m->c_level = pm_col(m, "ci_level");
    m->c_h2d = pm_col(m, "h2d");
    m->c_compute = pm_col(m, "compute");
    m->c_d2h = pm_col(m, "d2h");
    m->c_gflops = pm_col(m, "gflops");
    m->c_gbps = pm_col(m, "gbps");
    m->c_device = pm_col(m, "device");
    m->c_size = pm_col(m, "size");
    m->c_workload = pm_col(m, "workload");
    m->c_dev_min = pm_col(m, "device_min");
    m->c_dev_median = pm_col(m, "device_median");
    m->c_dev_max = pm_col(m, "device_max");
    int nc = m->ncols;
    m->swept = xcalloc((size_t)nc, sizeof *m->swept);
    m->group = xmalloc((size_t)nc * sizeof *m->group);
    m->is_label = xcalloc((size_t)nc, sizeof *m->is_label);
    m->numeric = xcalloc((size_t)nc, sizeof *m->numeric);
    for (int c = 0; c < nc; c++) {
        m->group[c] = -1;
        int any = 0, all = 1;
        for (int r = 1; r <= m->nrows && all; r++) {
            const char *s = pm_cell(m, r, c);
            if (!*s)
                continue;
            any = 1;
            all = pm_is_number(s, NULL);
        }
        m->numeric[c] = any && all;
    }
    int inferred = 0;
    for (int c = m->key_first; c <= m->key_last; c++) {
        int ec = e ? experiment_column(e, m->t.rows[0][c]) : -1;
        if (ec >= 0) {
            int ax = e->cols[ec].axis;
            m->swept[c] = ax >= 0;
            if (ax >= 0 && e->axes[ax].linked) {
                m->group[c] = ax;
                m->is_label[c] = e->axes[ax].column == ec;
            }
        } else {
            m->swept[c] = pm_varies(m, c);
            inferred |= m->swept[c];
        }
    }
    if (!e) {
        /* a swept key whose value follows from an earlier swept key's is set
         * with it (a linked axis): the earlier key labels the group */
        int next = 1000;
        for (int b = m->key_first; b <= m->key_last; b++) {
            if (!m->swept[b])
                continue;
            for (int a = m->key_first; a < b; a++) {
                if (!m->swept[a] || (m->group[a] >= 0 && !m->is_label[a]))
                    continue;
                if (depends_on(m, a, b)) {
                    if (m->group[a] < 0) {
                        m->group[a] = next++;
                        m->is_label[a] = 1;
                    }
                    m->group[b] = m->group[a];
                    break;
                }
            }
        }
    }
    (void)inferred;
    m->name = e && e->name ? xstrdup(e->name) : rundir_meta_experiment(run_dir, "name");
    if (!m->name)
        m->name = xstrdup("experiment");
    /* what size counts, for each workload of the run */
    const char *ws[64];
    int nw = 0;
    for (int r = 1; m->c_workload >= 0 && r <= m->nrows && nw < 64; r++) {
        const char *w = pm_cell(m, r, m->c_workload);
        int seen = !*w;
        for (int k = 0; k < nw && !seen; k++)
            seen = !strcmp(ws[k], w);
        if (!seen)
            ws[nw++] = w;
    }
    if (nw)
        m->size_means = size_meaning(ws, nw, e ? e->dir : NULL, e ? e->size_means : NULL);
    return 0;
}

void pm_free(run_model *m)
{
    if (!m->dir)
        return;
    csv_free(&m->t);
    FREE_ALL(m->dir, m->swept, m->group, m->is_label, m->numeric, m->name, m->size_means);
    memset(m, 0, sizeof *m);
}

/* --- matching --------------------------------------------------------- */

static int cell_equal(const char *a, const char *b)
{
    double x, y;
    if (pm_is_number(a, &x) && pm_is_number(b, &y))
        return x == y;
    return !strcmp(a, b);
}

int pm_match_row(const run_model *m, int row, const pm_match *mt, int n)
{
    for (int i = 0; i < n; i++) {
        const char *s = pm_cell(m, row, mt[i].col);
        if (mt[i].kind == MATCH_RANGE) {
            double v;
            if (!pm_is_number(s, &v))
                return 0;
            if ((mt[i].has_min && v < mt[i].min) || (mt[i].has_max && v > mt[i].max))
                return 0;
        } else {
            int any = 0;
            for (int k = 0; k < mt[i].nvals && !any; k++)
                any = cell_equal(s, mt[i].vals[k]);
            if (!any)
                return 0;
        }
    }
    return 1;
}

static void matches_free(pm_match *mt, int n)
{
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < mt[i].nvals; k++)
            free(mt[i].vals[k]);
        free(mt[i].vals);
    }
    free(mt);
}

void chart_spec_free(chart_spec *s)
{
    FREE_ALL(s->name, s->series, s->title, s->xlabel, s->ylabel, s->legend);
    matches_free(s->where, s->nwhere);
    matches_free(s->baseline, s->nbaseline);
    memset(s, 0, sizeof *s);
}
