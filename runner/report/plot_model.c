/* plot_model.c - see plot_model.h. */
#include "report/plot_model.h"

#include "base/util.h"
#include "registry/workloads.h"

#include <errno.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const chart_type_names[] = {"line",   "speedup", "throughput", "breakdown",
                                        "bar",    "warmup",  NULL};

static const char *const time_cols[] = {
    "cold",          "min",         "median",        "mean",           "stddev",
    "max",           "median_ci_low", "median_ci_high", "h2d",          "compute",
    "d2h",           "device_min",  "device_median", "device_mean",    "device_stddev",
    "device_max",    "device_median_ci_low", "device_median_ci_high", "startup_seconds",
    "startup_fork_seconds", "barrier_skew_seconds", NULL};

int pm_is_number(const char *s, double *out)
{
    if (!s || !*s)
        return 0;
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

const char *pm_cell(const run_model *m, int row, int col)
{
    if (row < 1 || row > m->nrows || col < 0 || col >= m->t.nfields[row])
        return "";
    const char *s = m->t.rows[row][col];
    return s ? s : "";
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

static int varies(const run_model *m, int col)
{
    for (int r = 2; r <= m->nrows; r++)
        if (strcmp(pm_cell(m, r, col), pm_cell(m, 1, col)))
            return 1;
    return 0;
}

static char *meta_name(const char *run_dir)
{
    char *p = xasprintf("%s/meta.json", run_dir);
    json_object *root = json_object_from_file(p);
    free(p);
    char *name = NULL;
    json_object *x, *n;
    if (root && json_object_object_get_ex(root, "experiment", &x) &&
        json_object_object_get_ex(x, "name", &n) && json_object_is_type(n, json_type_string))
        name = xstrdup(json_object_get_string(n));
    json_object_put(root);
    return name;
}

int pm_load(run_model *m, const char *run_dir, const experiment *e, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    char *path = xasprintf("%s/trials.csv", run_dir);
    if (csv_read(path, &m->t) < 0) {
        snprintf(err, errlen, "%s: cannot read (%s); is %s a run folder?", path, strerror(errno),
                 run_dir);
        free(path);
        memset(&m->t, 0, sizeof m->t);
        return -1;
    }
    if (m->t.nrows < 1 || csv_col(&m->t, "status") < 2 || strcmp(m->t.rows[0][0], "trial")) {
        snprintf(err, errlen, "%s: not a trials.csv (no 'trial' and 'status' columns)", path);
        free(path);
        csv_free(&m->t);
        memset(&m->t, 0, sizeof m->t);
        return -1;
    }
    free(path);
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
    /* the median's interval (README "Measurement quality"); runs saved
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
            m->swept[c] = varies(m, c);
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
    m->name = e && e->name ? xstrdup(e->name) : meta_name(run_dir);
    if (!m->name)
        m->name = xstrdup("experiment");
    if (m->c_workload >= 0 && m->nrows > 0 && !varies(m, m->c_workload)) {
        const workload_desc *w = workload_find(pm_cell(m, 1, m->c_workload));
        if (w && w->size_means && strcmp(w->size_means, "-"))
            m->size_means = xstrdup(w->size_means);
    }
    return 0;
}

void pm_free(run_model *m)
{
    if (!m->dir)
        return;
    csv_free(&m->t);
    free(m->dir);
    free(m->swept);
    free(m->group);
    free(m->is_label);
    free(m->numeric);
    free(m->name);
    free(m->size_means);
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
    free(s->name);
    free(s->series);
    free(s->title);
    free(s->xlabel);
    free(s->ylabel);
    free(s->legend);
    matches_free(s->where, s->nwhere);
    matches_free(s->baseline, s->nbaseline);
    memset(s, 0, sizeof *s);
}

/* --- defaults --------------------------------------------------------- */

int pm_default_x(const run_model *m)
{
    if (m->c_size >= 0 && m->swept[m->c_size] && m->numeric[m->c_size])
        return m->c_size;
    for (int pass = 0; pass < 2; pass++)
        for (int c = m->key_first; c <= m->key_last; c++) {
            int member = m->group[c] >= 0 && !m->is_label[c];
            if (m->swept[c] && m->numeric[c] && member == pass)
                return c;
        }
    return -1;
}

/* The x of a chart with none given: the default x, else the first swept
 * key (a category), else the workload. */
static int chart_x(const run_model *m)
{
    int x = pm_default_x(m);
    if (x >= 0)
        return x;
    for (int c = m->key_first; c <= m->key_last; c++)
        if (m->swept[c] && (m->group[c] < 0 || m->is_label[c]))
            return c;
    return m->c_workload >= 0 ? m->c_workload : m->key_first;
}

int pm_default_series(const run_model *m, int x, int *out)
{
    int n = 0;
    for (int c = m->key_first; c <= m->key_last; c++) {
        if (!m->swept[c] || c == x)
            continue;
        if (m->group[c] >= 0 && !m->is_label[c])
            continue; /* set by a linked axis: its label stands for it */
        if (x >= 0 && m->group[x] >= 0 && m->group[c] == m->group[x])
            continue;
        out[n++] = c;
    }
    return n;
}

char *pm_label(const run_model *m, int row, const int *keys, int nkeys)
{
    strbuf b = {0};
    for (int i = 0; i < nkeys; i++) {
        int c = keys[i];
        const char *v = pm_cell(m, row, c);
        if (i)
            sb_puts(&b, ", ");
        /* words speak for themselves (cpu, f16); numbers and true/false
         * need their key (size=4, fused=true) */
        int boolean = !strcmp(v, "true") || !strcmp(v, "false");
        if (m->is_label[c] || (!m->numeric[c] && *v && !boolean))
            sb_puts(&b, v);
        else
            sb_printf(&b, "%s=%s", m->t.rows[0][c], *v ? v : "(none)");
    }
    return sb_take(&b);
}

static int is_cuda(const char *dev)
{
    return !strncmp(dev, "cuda", 4);
}

static chart_spec new_default(const char *name, chart_type type, int x, int y)
{
    return (chart_spec){.name = xstrdup(name),
                        .type = type,
                        .x = x,
                        .y = y,
                        .logx = -1,
                        .logy = -1,
                        .is_default = 1};
}

int pm_default_charts(const run_model *m, chart_spec **out)
{
    chart_spec *v = xcalloc(6, sizeof *v);
    int n = 0;
    int x = pm_default_x(m);
    if (x >= 0)
        v[n++] = new_default("time", CH_LINE, x, m->c_median);
    else
        v[n++] = new_default("bar", CH_BAR, chart_x(m), m->c_median);
    int xx = chart_x(m);
    /* speedup against the CPU when ok CPU and CUDA trials both exist */
    int cpu = 0, cuda = 0;
    int any_flops = 0, any_bytes = 0, any_phase = 0;
    for (int r = 1; r <= m->nrows; r++) {
        if (!pm_ok(m, r))
            continue;
        if (m->c_device >= 0 && isfinite(pm_num(m, r, m->c_median))) {
            cpu |= !strcmp(pm_cell(m, r, m->c_device), "cpu");
            cuda |= is_cuda(pm_cell(m, r, m->c_device));
        }
        any_flops |= isfinite(pm_num(m, r, m->c_gflops));
        any_bytes |= isfinite(pm_num(m, r, m->c_gbps));
        any_phase |= isfinite(pm_num(m, r, m->c_compute)) &&
                     (isfinite(pm_num(m, r, m->c_h2d)) || isfinite(pm_num(m, r, m->c_d2h)));
    }
    /* (when the device sets x, as in a bar chart by target, each bar is
     * one configuration's speedup) */
    if (cpu && cuda) {
        chart_spec s = new_default("speedup", CH_SPEEDUP, xx, m->c_median);
        s.baseline = xcalloc(1, sizeof *s.baseline);
        s.baseline[0] = (pm_match){.col = m->c_device, .kind = MATCH_VALUES, .nvals = 1};
        s.baseline[0].vals = xcalloc(1, sizeof(char *));
        s.baseline[0].vals[0] = xstrdup("cpu");
        s.nbaseline = 1;
        v[n++] = s;
    }
    if (any_flops || any_bytes)
        v[n++] = new_default("throughput", CH_THROUGHPUT, xx, any_flops ? m->c_gflops : m->c_gbps);
    if (any_phase)
        v[n++] = new_default("breakdown", CH_BREAKDOWN, xx, -1);
    int curve = pm_col(m, "first_calls"); /* warmup_curve (plot_warmup.h) */
    int any_curve = 0;
    for (int r = 1; curve >= 0 && r <= m->nrows && !any_curve; r++)
        any_curve = pm_ok(m, r) && *pm_cell(m, r, curve);
    if (any_curve) {
        v[n] = new_default("warmup", CH_WARMUP, -1, -1);
        v[n].logx = 0; /* call numbers */
        v[n++].logy = 1;
    }
    *out = v;
    return n;
}

static int convert_matches(const run_model *m, const experiment *e, const match *src, int n,
                           pm_match **out, const char **missing)
{
    *out = xcalloc((size_t)n + 1, sizeof **out);
    for (int i = 0; i < n; i++) {
        const char *name = e->cols[src[i].column].name;
        pm_match *d = &(*out)[i];
        d->col = pm_col(m, name);
        d->kind = src[i].kind;
        d->has_min = src[i].has_min;
        d->has_max = src[i].has_max;
        d->min = src[i].min;
        d->max = src[i].max;
        d->vals = xcalloc((size_t)src[i].nvals + 1, sizeof *d->vals);
        for (int k = 0; k < src[i].nvals; k++)
            d->vals[d->nvals++] = xstrdup(src[i].vals[k].text ? src[i].vals[k].text : "");
        if (d->col < 0 && !*missing)
            *missing = name;
    }
    return n;
}

int pm_file_charts(const run_model *m, const experiment *e, chart_spec **out, char *warn,
                   size_t warnlen)
{
    chart_spec *v = xcalloc((size_t)e->nplots + 1, sizeof *v);
    int n = 0;
    if (warn && warnlen)
        warn[0] = '\0';
    for (int i = 0; i < e->nplots; i++) {
        const plot_spec *p = &e->plots[i];
        chart_spec s = {.name = xstrdup(p->name),
                        .x = -1,
                        .y = -1,
                        .logx = p->logx,
                        .logy = p->logy,
                        .title = p->title ? xstrdup(p->title) : NULL,
                        .xlabel = p->xlabel ? xstrdup(p->xlabel) : NULL,
                        .ylabel = p->ylabel ? xstrdup(p->ylabel) : NULL,
                        .legend = p->legend ? xstrdup(p->legend) : NULL,
                        .series_given = p->series_given};
        for (int t = 0; chart_type_names[t]; t++)
            if (p->type && !strcmp(p->type, chart_type_names[t]))
                s.type = (chart_type)t;
        if (s.type == CH_WARMUP && s.logy < 0) /* the first calls are 10-1000x the rest */
            s.logy = 1;
        if (s.type == CH_WARMUP && s.logx < 0) /* call numbers */
            s.logx = 0;
        const char *missing = NULL;
        if (p->x && (s.x = pm_col(m, p->x)) < 0)
            missing = p->x;
        /* device_median (also `time: device`): device time where measured,
         * wall time elsewhere, so a run with no device times still draws */
        if (p->y && !strcmp(p->y, "device_median") && s.type != CH_THROUGHPUT &&
            s.type != CH_BREAKDOWN) {
            s.y = m->c_median;
            s.device_time = 1;
        } else if (p->y && (s.y = pm_col(m, p->y)) < 0 && !missing) {
            missing = p->y;
        }
        s.series = xcalloc((size_t)p->nseries + 1, sizeof *s.series);
        for (int k = 0; k < p->nseries; k++)
            if ((s.series[s.nseries++] = pm_col(m, p->series[k])) < 0 && !missing)
                missing = p->series[k];
        s.nwhere = convert_matches(m, e, p->where, p->nwhere, &s.where, &missing);
        s.nbaseline = convert_matches(m, e, p->baseline, p->nbaseline, &s.baseline, &missing);
        if (s.x < 0)
            s.x = chart_x(m);
        if (missing) {
            if (warn && warnlen && !warn[0])
                snprintf(warn, warnlen, "plot '%s': trials.csv has no column '%s'; chart left out",
                         p->name, missing);
            chart_spec_free(&s);
            continue;
        }
        v[n++] = s;
    }
    *out = v;
    return n;
}

/* --- chart data ------------------------------------------------------- */

void chart_data_free(chart_data *d)
{
    for (int i = 0; i < d->ncurves; i++) {
        free(d->curves[i].label);
        free(d->curves[i].p);
    }
    free(d->curves);
    for (int i = 0; i < d->ncats; i++)
        free(d->cats[i]);
    free(d->cats);
    free(d->baseline_label);
    memset(d, 0, sizeof *d);
}

static int cmp_label(const void *a, const void *b)
{
    return strverscmp(((const pm_curve *)a)->label, ((const pm_curve *)b)->label);
}

static int cmp_point(const void *a, const void *b)
{
    const pm_point *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->row - q->row;
}

typedef struct cat_sort {
    char *text;
    double v;
} cat_sort;

static int cmp_cat(const void *a, const void *b)
{
    double x = ((const cat_sort *)a)->v, y = ((const cat_sort *)b)->v;
    return x < y ? -1 : x > y;
}

/* Keeps the keys whose value differs between the rows; all of them when
 * none does (so a lone curve is still called "CPU"). */
static int drop_constant(const run_model *m, const int *rows, int nrows, int *keys, int nkeys)
{
    int kept = 0;
    int *keep = xcalloc((size_t)nkeys + 1, sizeof *keep);
    for (int k = 0; k < nkeys; k++)
        for (int i = 1; i < nrows && !keep[k]; i++)
            keep[k] = strcmp(pm_cell(m, rows[i], keys[k]), pm_cell(m, rows[0], keys[k])) != 0;
    for (int k = 0; k < nkeys; k++)
        kept += keep[k];
    if (kept > 0) {
        int j = 0;
        for (int k = 0; k < nkeys; k++)
            if (keep[k])
                keys[j++] = keys[k];
        nkeys = j;
    }
    free(keep);
    return nkeys;
}

static int throughput_y(const run_model *m)
{
    for (int r = 1; r <= m->nrows; r++)
        if (pm_ok(m, r) && isfinite(pm_num(m, r, m->c_gflops)))
            return m->c_gflops;
    return m->c_gbps >= 0 ? m->c_gbps : m->c_gflops;
}

/* The keys a speedup pairs a trial with its baseline on: every swept key
 * (and x) except the baseline's own keys and the linked groups they are in. */
static int speedup_keys(const run_model *m, const chart_spec *s, int x, int *out)
{
    int n = 0;
    for (int c = m->key_first; c <= m->key_last; c++) {
        if (!m->swept[c] && c != x)
            continue;
        int excluded = 0;
        for (int b = 0; b < s->nbaseline && !excluded; b++) {
            int bc = s->baseline[b].col;
            excluded = c == bc || (m->group[c] >= 0 && m->group[c] == m->group[bc]);
        }
        if (!excluded)
            out[n++] = c;
    }
    return n;
}

typedef struct base_key {
    char *key; /* the cells a trial and its baseline share, joined */
    double v;
    int row;
} base_key;

static int cmp_base_key(const void *a, const void *b)
{
    const base_key *p = a, *q = b;
    int c = strcmp(p->key, q->key);
    if (c)
        return c;
    return p->v < q->v ? -1 : p->v > q->v;
}

static char *pair_key(const run_model *m, int row, const int *keys, int nk)
{
    strbuf b = {0};
    sb_puts(&b, "");
    for (int k = 0; k < nk; k++) {
        const char *cell = pm_cell(m, row, keys[k]);
        double v;
        /* numbers by value (1 and 1.0 pair), the rest by text */
        if (pm_is_number(cell, &v))
            sb_printf(&b, "%.17g", v);
        else
            sb_puts(&b, cell);
        sb_putc(&b, '\x1f');
    }
    return sb_take(&b);
}

int pm_chart_data(const run_model *m, const chart_spec *s, chart_data *d)
{
    memset(d, 0, sizeof *d);
    if (s->type == CH_WARMUP) /* its curves come from plot_warmup.h */
        return 0;
    int nc = m->ncols;
    d->x = s->x >= 0 ? s->x : chart_x(m);
    d->y = s->y;
    if (s->type == CH_BREAKDOWN)
        d->y = -1;
    else if (d->y < 0)
        d->y = s->type == CH_THROUGHPUT ? throughput_y(m) : m->c_median;
    int x = d->x, y = d->y;
    d->xcat = s->type == CH_BAR || s->type == CH_BREAKDOWN || !m->numeric[x];
    d->bars = s->type == CH_BAR || (d->xcat && s->type != CH_BREAKDOWN);

    /* the rows: ok, matching `where`, with the value the chart needs */
    int *rows = xmalloc(((size_t)m->nrows + 1) * sizeof *rows);
    int *base = xmalloc(((size_t)m->nrows + 1) * sizeof *base);
    int nr = 0, nb = 0;
    for (int r = 1; r <= m->nrows; r++) {
        if (!pm_ok(m, r) || !pm_match_row(m, r, s->where, s->nwhere))
            continue;
        if (!*pm_cell(m, r, x))
            continue;
        if (s->type == CH_BREAKDOWN) {
            if (isfinite(pm_num(m, r, m->c_compute)) &&
                (isfinite(pm_num(m, r, m->c_h2d)) || isfinite(pm_num(m, r, m->c_d2h))))
                rows[nr++] = r;
            continue;
        }
        double v = pm_row_time(m, s, r, y, NULL);
        if (!isfinite(v))
            continue;
        if (s->type == CH_SPEEDUP && pm_match_row(m, r, s->baseline, s->nbaseline)) {
            if (v > 0)
                base[nb++] = r;
            continue;
        }
        if (s->type == CH_SPEEDUP && !(v > 0))
            continue;
        rows[nr++] = r;
    }

    /* speedup: pair each row with its (fastest) baseline, found by the
     * text of the keys they must share (sorted, then binary search) */
    double *val = xmalloc(((size_t)m->nrows + 2) * sizeof *val);
    int *brow = xmalloc(((size_t)m->nrows + 2) * sizeof *brow); /* speedup: the baseline row */
    if (s->type == CH_SPEEDUP) {
        int *keys = xmalloc(((size_t)nc + 1) * sizeof *keys);
        int nk = speedup_keys(m, s, x, keys);
        base_key *bk = xcalloc((size_t)nb + 1, sizeof *bk);
        for (int b = 0; b < nb; b++)
            bk[b] = (base_key){pair_key(m, base[b], keys, nk), pm_row_time(m, s, base[b], y, NULL),
                               base[b]};
        xqsort(bk, (size_t)nb, sizeof *bk, cmp_base_key);
        int j = 0;
        for (int i = 0; i < nr; i++) {
            base_key want = {pair_key(m, rows[i], keys, nk), -INFINITY, 0};
            /* the first entry not below `want` is the fastest with its key */
            int lo = 0, hi = nb;
            while (lo < hi) {
                int mid = lo + (hi - lo) / 2;
                if (cmp_base_key(&bk[mid], &want) < 0)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo < nb && !strcmp(bk[lo].key, want.key)) {
                val[j] = bk[lo].v / pm_row_time(m, s, rows[i], y, NULL);
                brow[j] = bk[lo].row;
                rows[j++] = rows[i];
            }
            free(want.key);
        }
        nr = j;
        for (int b = 0; b < nb; b++)
            free(bk[b].key);
        free(bk);
        free(keys);
    } else {
        for (int i = 0; i < nr; i++)
            val[i] = s->type == CH_BREAKDOWN ? 0 : pm_row_time(m, s, rows[i], y, NULL);
    }

    /* series keys */
    int *keys = xmalloc(((size_t)nc + 1) * sizeof *keys);
    int nk;
    if (s->series_given) {
        nk = s->nseries;
        memcpy(keys, s->series, (size_t)nk * sizeof *keys);
    } else {
        nk = pm_default_series(m, x, keys);
        if (nr > 0)
            nk = drop_constant(m, rows, nr, keys, nk);
    }

    /* categories of x */
    if (d->xcat) {
        cat_sort *cs = xcalloc((size_t)nr + 1, sizeof *cs);
        int ncs = 0;
        for (int i = 0; i < nr; i++) {
            const char *t = pm_cell(m, rows[i], x);
            int found = 0;
            for (int k = 0; k < ncs && !found; k++)
                found = !strcmp(cs[k].text, t);
            if (!found) {
                cs[ncs].text = xstrdup(t);
                cs[ncs].v = pm_num(m, rows[i], x);
                ncs++;
            }
        }
        if (m->numeric[x])
            xqsort(cs, (size_t)ncs, sizeof *cs, cmp_cat);
        d->cats = xcalloc((size_t)ncs + 1, sizeof *d->cats);
        for (int k = 0; k < ncs; k++)
            d->cats[k] = cs[k].text;
        d->ncats = ncs;
        free(cs);
    }

    /* group into curves */
    for (int i = 0; i < nr; i++) {
        int r = rows[i];
        char *label = nk > 0 ? pm_label(m, r, keys, nk)
                             : xstrdup(s->type == CH_SPEEDUP ? "speedup" : m->name);
        int ci = -1;
        for (int k = 0; k < d->ncurves && ci < 0; k++)
            if (!strcmp(d->curves[k].label, label))
                ci = k;
        if (ci < 0) {
            d->curves = xrealloc(d->curves, (size_t)(d->ncurves + 1) * sizeof *d->curves);
            d->curves[d->ncurves] = (pm_curve){.label = label};
            ci = d->ncurves++;
        } else {
            free(label);
        }
        pm_curve *cv = &d->curves[ci];
        cv->p = xrealloc(cv->p, (size_t)(cv->n + 1) * sizeof *cv->p);
        pm_point pt = {.y = val[i], .lo = NAN, .hi = NAN, .slo = NAN, .shi = NAN, .row = r};
        if (d->xcat) {
            const char *t = pm_cell(m, r, x);
            for (int k = 0; k < d->ncats; k++)
                if (!strcmp(d->cats[k], t))
                    pt.x = k;
        } else {
            pt.x = pm_num(m, r, x);
        }
        int dev = 0;
        if (s->type != CH_BREAKDOWN)
            pm_row_time(m, s, r, y, &dev);
        cv->ndevice += dev;
        if (s->type == CH_SPEEDUP) {
            /* the intervals of the times divided (device time's where drawn) */
            int bdev = 0;
            pm_row_time(m, s, brow[i], y, &bdev);
            int tl = pm_col(m, dev ? "device_median_ci_low" : "median_ci_low"),
                th = pm_col(m, dev ? "device_median_ci_high" : "median_ci_high"),
                bl = pm_col(m, bdev ? "device_median_ci_low" : "median_ci_low"),
                bh = pm_col(m, bdev ? "device_median_ci_high" : "median_ci_high");
            double tlo = pm_num(m, r, tl), thi = pm_num(m, r, th);
            double blo = pm_num(m, brow[i], bl), bhi = pm_num(m, brow[i], bh);
            if (tl >= 0 && th >= 0 && bl >= 0 && bh >= 0 && tlo > 0 && thi > 0 && blo > 0 &&
                bhi > 0) {
                pt.slo = blo / thi;
                pt.shi = bhi / tlo;
            }
        }
        if (s->type != CH_SPEEDUP && y >= 0 && y == m->c_median) {
            /* error bars of the time drawn: device min..max for device time */
            pt.lo = pm_num(m, r, dev ? m->c_dev_min : m->c_min);
            pt.hi = pm_num(m, r, dev ? m->c_dev_max : m->c_max);
            if (!isfinite(pt.lo) || !isfinite(pt.hi))
                pt.lo = pt.hi = NAN;
        }
        if (s->type == CH_BREAKDOWN) {
            int ph[3] = {m->c_h2d, m->c_compute, m->c_d2h};
            for (int k = 0; k < 3; k++) {
                pt.ph[k] = pm_num(m, r, ph[k]);
                if (!isfinite(pt.ph[k]) || pt.ph[k] < 0)
                    pt.ph[k] = 0;
            }
            pt.y = pt.ph[0] + pt.ph[1] + pt.ph[2];
        }
        cv->p[cv->n++] = pt;
    }
    d->unlabelled = nk == 0;
    int npts = 0, ndev = 0;
    for (int k = 0; k < d->ncurves; k++) {
        npts += d->curves[k].n;
        ndev += d->curves[k].ndevice;
    }
    /* a speedup divides by its baselines' times: they count too */
    for (int k = 0; s->type == CH_SPEEDUP && s->device_time && k < nb; k++) {
        int dev = 0;
        pm_row_time(m, s, base[k], y, &dev);
        npts++;
        ndev += dev;
    }
    d->time_kind = ndev == 0 ? 0 : ndev == npts ? 1 : 2;
    for (int k = 0; k < d->ncurves; k++)
        xqsort(d->curves[k].p, (size_t)d->curves[k].n, sizeof(pm_point), cmp_point);
    xqsort(d->curves, (size_t)d->ncurves, sizeof *d->curves, cmp_label);

    if (s->type == CH_SPEEDUP) {
        /* what the line at 1 stands for: the baseline rows' common label */
        char *common = NULL;
        int same = nb > 0;
        int by_x = nk == 0; /* no series: the baseline may be one x value */
        for (int b = 0; b < nb && same; b++) {
            char *l = by_x ? xstrdup(pm_cell(m, base[b], x)) : pm_label(m, base[b], keys, nk);
            if (!common)
                common = l;
            else {
                same = !strcmp(common, l);
                free(l);
            }
        }
        if (same && common) {
            d->baseline_label = common;
        } else {
            free(common);
            strbuf b = {0};
            for (int i = 0; i < s->nbaseline; i++) {
                const pm_match *mt = &s->baseline[i];
                sb_printf(&b, "%s%s=", i ? ", " : "", m->t.rows[0][mt->col]);
                if (mt->kind == MATCH_RANGE) {
                    if (mt->has_min)
                        sb_printf(&b, ">=%g", mt->min);
                    if (mt->has_min && mt->has_max)
                        sb_puts(&b, " and ");
                    if (mt->has_max)
                        sb_printf(&b, "<=%g", mt->max);
                } else {
                    for (int k = 0; k < mt->nvals; k++)
                        sb_printf(&b, "%s%s", k ? "|" : "", mt->vals[k]);
                }
            }
            d->baseline_label = sb_take(&b);
        }
    }
    int total = 0;
    for (int k = 0; k < d->ncurves; k++)
        total += d->curves[k].n;
    free(rows);
    free(base);
    free(val);
    free(brow);
    free(keys);
    return total;
}

/* --- the run's experiment file ---------------------------------------- */

static char *meta_path(const char *run_dir)
{
    char *p = xasprintf("%s/meta.json", run_dir);
    json_object *root = json_object_from_file(p);
    free(p);
    char *path = NULL;
    json_object *x, *n;
    if (root && json_object_object_get_ex(root, "experiment", &x) &&
        json_object_object_get_ex(x, "path", &n) && json_object_is_type(n, json_type_string))
        path = xstrdup(json_object_get_string(n));
    json_object_put(root);
    return path;
}

/* The files an experiment names but that are absent ("hooks file 'X' not
 * found", "Lua workload file 'X' not found"), as relative paths. */
static int missing_files(const diags *d, char **out, int max)
{
    int n = 0;
    for (int i = 0; i < d->n && n < max; i++) {
        const char *msg = d->items[i].msg;
        const char *a = strstr(msg, "file '");
        const char *z = a ? strstr(a + 6, "' not found") : NULL;
        if (!a || !z || z == a + 6)
            continue;
        char *name = xasprintf("%.*s", (int)(z - a - 6), a + 6);
        if (name[0] == '/' || strstr(name, "..")) {
            free(name);
            for (int k = 0; k < n; k++)
                free(out[k]);
            return -1; /* cannot stand in for it */
        }
        out[n++] = name;
    }
    return n;
}

/* Parses the text with empty stand-ins for the files it names (a chart
 * needs none of them), in a scratch folder removed afterwards. */
static experiment *parse_with_stand_ins(const char *text, size_t len, const diags *d0)
{
    char *names[16];
    int nn = missing_files(d0, names, 16);
    if (nn <= 0)
        return NULL;
    char tmpl[] = "/tmp/runner-plot-XXXXXX";
    char *made[64];
    int nmade = 0;
    experiment *e = NULL;
    if (mkdtemp(tmpl)) {
        for (int i = 0; i < nn; i++) {
            char *p = xasprintf("%s/%s", tmpl, names[i]);
            for (char *s = p + strlen(tmpl) + 1; *s; s++) {
                if (*s != '/')
                    continue;
                *s = '\0';
                if (mkdir(p, 0700) == 0 && nmade < 63)
                    made[nmade++] = xstrdup(p);
                *s = '/';
            }
            FILE *f = fopen(p, "wx");
            if (f) {
                fclose(f);
                if (nmade < 63)
                    made[nmade++] = xstrdup(p);
            }
            free(p);
        }
        char *path = xasprintf("%s/experiment.yaml", tmpl);
        diags d = {0};
        e = experiment_parse(path, text, len, &d);
        diag_free(&d);
        free(path);
        for (int i = nmade - 1; i >= 0; i--) {
            remove(made[i]);
            free(made[i]);
        }
        rmdir(tmpl);
    }
    for (int i = 0; i < nn; i++)
        free(names[i]);
    return e;
}


experiment *pm_run_experiment(const char *run_dir, char *note, size_t notelen)
{
    if (note && notelen)
        note[0] = '\0';
    char *path = xasprintf("%s/experiment.yaml", run_dir);
    diags d = {0};
    experiment *e = experiment_load(path, &d);
    if (!e && d.n > 0 && note && notelen) {
        const diag_item *it = &d.items[0];
        if (it->line > 0)
            snprintf(note, notelen, "%s:%d:%d: %s", path, it->line, it->col, it->msg);
        else
            snprintf(note, notelen, "%s: %s", path, it->msg);
    }
    size_t len = 0;
    char *text = e ? NULL : read_file(path, &len);
    if (text) {
        /* the files it names may sit next to the original file ... */
        char *orig = meta_path(run_dir);
        if (orig) {
            diags d2 = {0};
            e = experiment_parse(orig, text, len, &d2);
            diag_free(&d2);
        }
        free(orig);
        /* ... or nowhere: the charts need none of them */
        if (!e)
            e = parse_with_stand_ins(text, len, &d);
    }
    free(text);
    diag_free(&d);
    free(path);
    if (e && note && notelen)
        note[0] = '\0';
    return e;
}
