/* config.c - experiment files: top-level keys through a key table, params,
 * sweep axes, exclude and plots; then the columns in their fixed order.
 * Every error is collected (file:line:col) so a user sees them all at once. */
#include "config.h"

#include "keys.h"
#include "util.h"
#include "workloads.h"
#include "yml.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Refuse files no experiment needs, before libyaml sees them. */
#define MAX_FILE_BYTES (16 << 20)

typedef struct loader {
    yml y;
    diags *d;
    experiment *e;
    const workload_desc *wl[64]; /* workloads this file can run */
    int nwl;
    int any_lua;
    int order; /* creation order of columns, for sorting */
    int *rank;
} loader;

static const char *const top_names[] = {"name",    "description", "workload", "device",
                                        "threads", "io",          "dtype",    "size",
                                        "params",  "sweep",       "exclude",  "repeats",
                                        "warmups", "timeout",     "seed",     "hooks",
                                        "plots",   "cold_cache", "batch",    "stop",
                                        "order",   "affinity", "warmup_time",
                                        "warmup_tolerance", NULL};

const char *const runkey_names[] = {"workload", "device",  "threads", "io",
                                    "dtype",    "size",    "repeats", "warmups",
                                    "timeout",  "seed",    "cold_cache", "batch",
                                    "affinity", NULL};

int runkey_index(const char *name)
{
    for (int i = 0; i < nrunkeys; i++)
        if (!strcmp(runkeys[i].name, name))
            return i;
    return -1;
}

int experiment_column(const experiment *e, const char *name)
{
    for (int i = 0; i < e->ncols; i++)
        if (!strcmp(e->cols[i].name, name))
            return i;
    return -1;
}

static int add_column(loader *L, const char *name, col_kind kind)
{
    experiment *e = L->e;
    e->cols = xrealloc(e->cols, (size_t)(e->ncols + 1) * sizeof *e->cols);
    L->rank = xrealloc(L->rank, (size_t)(e->ncols + 1) * sizeof *L->rank);
    e->cols[e->ncols] = (column){.name = xstrdup(name), .kind = kind,
                                 .runkey = runkey_index(name), .axis = -1};
    L->rank[e->ncols] = 0;
    return e->ncols++;
}

static int get_column(loader *L, const char *name)
{
    int c = experiment_column(L->e, name);
    if (c >= 0)
        return c;
    return add_column(L, name, runkey_index(name) >= 0 ? COL_RUNKEY : COL_PARAM);
}

/* ---- workloads this file uses ------------------------------------------ */

static void note_workload(loader *L, const yaml_node_t *n)
{
    const char *s = yml_text(n);
    if (!yml_is_scalar(n))
        return;
    if (!strncmp(s, "lua:", 4)) {
        L->any_lua = 1;
        return;
    }
    const workload_desc *w = workload_find(s);
    if (!w || L->nwl >= 64)
        return;
    for (int i = 0; i < L->nwl; i++)
        if (L->wl[i] == w)
            return;
    L->wl[L->nwl++] = w;
}

int loader_extra_column(loader *L, const char *name)
{
    if (L->any_lua)
        return 1; /* a Lua workload's extras() may add any column */
    for (int i = 0; i < L->nwl; i++) {
        const char *x = L->wl[i]->extras;
        size_t n = strlen(name);
        while (x && *x) {
            const char *e = strchr(x, '|');
            size_t len = e ? (size_t)(e - x) : strlen(x);
            if (len == n && !strncmp(x, name, n))
                return 1;
            x = e ? e + 1 : NULL;
        }
    }
    return 0;
}

/* Looks for workload values at the top level and in the sweep, so that
 * params can be checked against every workload the file may run. */
static void scan_workloads(loader *L, ypair *top, int ntop)
{
    /* a look-ahead: it must not spend the budget or swallow its message */
    long visits = L->y.visits;
    int exhausted = L->y.exhausted;
    for (int i = 0; i < ntop; i++) {
        const char *k = yml_text(top[i].key);
        if (!strcmp(k, "workload"))
            note_workload(L, top[i].val);
        if (strcmp(k, "sweep") || top[i].val->type != YAML_MAPPING_NODE)
            continue;
        ypair *ax;
        diags quiet = {0};
        int nax = yml_pairs(&L->y, top[i].val, &ax, &quiet);
        for (int a = 0; a < nax; a++) {
            yaml_node_t **items;
            int n = yml_items(&L->y, ax[a].val, &items, &quiet);
            for (int j = 0; j < n; j++) {
                if (!strcmp(yml_text(ax[a].key), "workload"))
                    note_workload(L, items[j]);
                if (items[j] && items[j]->type == YAML_MAPPING_NODE) {
                    ypair *kv;
                    int nkv = yml_pairs(&L->y, items[j], &kv, &quiet);
                    for (int m = 0; m < nkv; m++)
                        if (!strcmp(yml_text(kv[m].key), "workload"))
                            note_workload(L, kv[m].val);
                    free(kv);
                }
            }
            free(items);
        }
        free(ax);
        diag_free(&quiet);
    }
    L->y.visits = visits;
    L->y.exhausted = exhausted;
}

static const param_spec *find_param(loader *L, const char *name)
{
    for (int i = 0; i < L->nwl; i++) {
        const param_spec *p = workload_param(L->wl[i], name);
        if (p)
            return p;
    }
    return NULL;
}

static int is_known_param(loader *L, const char *name)
{
    return L->any_lua || find_param(L, name) != NULL;
}

/* "did you mean": run keys, plus the parameters of the file's workloads. */
static void unknown_key(loader *L, const yaml_node_t *k, const char *where,
                        const char *const *extra)
{
    const char *cands[256];
    int n = 0;
    for (int i = 0; extra && extra[i] && n < 200; i++)
        cands[n++] = extra[i];
    for (int i = 0; runkey_names[i] && n < 200; i++)
        cands[n++] = runkey_names[i];
    for (int w = 0; w < L->nwl; w++)
        for (const param_spec *p = L->wl[w]->params; p->name && n < 250; p++)
            cands[n++] = p->name;
    cands[n] = NULL;
    const char *s = closest_word(yml_text(k), cands);
    if (s)
        diag_add(L->d, yml_line(k), yml_col(k), "unknown key '%s'%s; did you mean '%s'?",
                 yml_text(k), where, s);
    else
        diag_add(L->d, yml_line(k), yml_col(k), "unknown key '%s'%s", yml_text(k), where);
}

/* Parses and validates the value of key `name` (a run key or a parameter). */
static int members_value(loader *L, const yaml_node_t *v, value *out);

static int key_value(loader *L, const char *name, const yaml_node_t *n, value *out)
{
    if (!strcmp(name, "members") && find_param(L, name))
        return members_value(L, n, out);
    char what[96];
    snprintf(what, sizeof what, "'%s'", name);
    /* a text parameter may be written as a list (layers: [features, 32, 16, 2]):
     * it becomes "[features, 32, 16, 2]" */
    const param_spec *ps = runkey_index(name) < 0 ? find_param(L, name) : NULL;
    if (n && n->type == YAML_SEQUENCE_NODE && ps && ps->type == PT_STR) {
        yaml_node_t **items;
        int k = yml_items(&L->y, (yaml_node_t *)n, &items, L->d);
        strbuf b = {0};
        sb_putc(&b, '[');
        int ok = 1;
        for (int i = 0; i < k; i++) {
            if (!yml_is_scalar(items[i]) || yml_is_null(items[i])) {
                diag_add(L->d, yml_line(items[i]), yml_col(items[i]),
                         "'%s': a list of plain values, not %s", name, yml_kind(items[i]));
                ok = 0;
                continue;
            }
            sb_printf(&b, "%s%s", i ? ", " : "", yml_text(items[i]));
        }
        sb_putc(&b, ']');
        free(items);
        if (!ok) {
            sb_free(&b);
            return -1;
        }
        *out = value_str(b.s);
        sb_free(&b);
        return 0;
    }
    if (scalar_value(n, out, what, L->d) < 0)
        return -1;
    int rk = runkey_index(name);
    int rc = 0;
    if (rk >= 0) {
        rc = runkeys[rk].check(out, yml_line(n), yml_col(n), L->d);
    } else {
        const param_spec *p = find_param(L, name);
        if (p)
            rc = param_check(p, out, yml_line(n), yml_col(n), L->d);
    }
    if (rc < 0)
        value_free(out);
    return rc;
}

/* `members` of the concurrent workload: a list of mappings, each a workload
 * spec (workload, device, threads, io, dtype, size, seed, and that
 * workload's parameters).  Kept as "key=value key=value ; key=value ..."
 * text, which runner/concurrent.c reads back. */
static int members_value(loader *L, const yaml_node_t *v, value *out)
{
    static const char *const allowed[] = {"workload", "device", "threads", "io",
                                          "dtype",    "size",   "seed",    NULL};
    if (!v || v->type != YAML_SEQUENCE_NODE) {
        diag_add(L->d, yml_line(v), yml_col(v),
                 "'members' must be a list of workload specs (e.g. - {workload: matmul, device: "
                 "cpu, size: 2048}), not %s",
                 yml_kind(v));
        return -1;
    }
    yaml_node_t **items;
    int n = yml_items(&L->y, (yaml_node_t *)v, &items, L->d);
    strbuf b = {0};
    int ok = n >= 1;
    if (n < 1)
        diag_add(L->d, yml_line(v), yml_col(v), "'members' needs at least one workload spec");
    for (int i = 0; i < n; i++) {
        if (!items[i] || items[i]->type != YAML_MAPPING_NODE) {
            diag_add(L->d, yml_line(items[i]), yml_col(items[i]),
                     "a member must be a mapping (workload, device, size, ...), not %s",
                     yml_kind(items[i]));
            ok = 0;
            continue;
        }
        ypair *p;
        int np = yml_pairs(&L->y, items[i], &p, L->d);
        const workload_desc *w = NULL;
        for (int j = 0; j < np; j++)
            if (!strcmp(yml_text(p[j].key), "workload"))
                w = workload_find(yml_text(p[j].val));
        if (!w || !strcmp(w->name, "concurrent")) {
            diag_add(L->d, yml_line(items[i]), yml_col(items[i]),
                     "a member needs 'workload': a built-in workload other than concurrent");
            ok = 0;
            free(p);
            continue;
        }
        if (i)
            sb_puts(&b, " ; ");
        for (int j = 0; j < np; j++) {
            const char *k = yml_text(p[j].key);
            int is_run = 0;
            for (int a = 0; allowed[a]; a++)
                is_run |= !strcmp(allowed[a], k);
            const param_spec *ps = is_run ? NULL : workload_param(w, k);
            if (!is_run && !ps) {
                const char *cands[64];
                int nc = 0;
                for (int a = 0; allowed[a]; a++)
                    cands[nc++] = allowed[a];
                for (const param_spec *q = w->params; q->name && nc < 63; q++)
                    cands[nc++] = q->name;
                cands[nc] = NULL;
                const char *s = closest_word(k, cands);
                diag_add(L->d, yml_line(p[j].key), yml_col(p[j].key),
                         "unknown key '%s' in a member%s%s%s", k, s ? "; did you mean '" : "",
                         s ? s : "", s ? "'?" : "");
                ok = 0;
                continue;
            }
            value x;
            char what[96];
            snprintf(what, sizeof what, "'%s'", k);
            if (scalar_value(p[j].val, &x, what, L->d) < 0) {
                ok = 0;
                continue;
            }
            int rc = is_run ? runkeys[runkey_index(k)].check(&x, yml_line(p[j].val),
                                                              yml_col(p[j].val), L->d)
                            : param_check(ps, &x, yml_line(p[j].val), yml_col(p[j].val), L->d);
            if (rc == 0 && strpbrk(x.text, " ;=")) {
                diag_add(L->d, yml_line(p[j].val), yml_col(p[j].val),
                         "a member's values cannot contain spaces, ';' or '='");
                rc = -1;
            }
            if (rc == 0)
                sb_printf(&b, "%s%s=%s", j ? " " : "", k, x.text);
            else
                ok = 0;
            value_free(&x);
        }
        free(p);
    }
    free(items);
    if (!ok) {
        sb_free(&b);
        return -1;
    }
    *out = value_str(b.s);
    sb_free(&b);
    return 0;
}

/* A top-level (or params) setting of key `name`. */
static void set_fixed(loader *L, const yaml_node_t *k, const yaml_node_t *v)
{
    const char *name = yml_text(k);
    int c = experiment_column(L->e, name);
    if (c >= 0 && L->e->cols[c].fixed.kind != VAL_NONE) {
        diag_add(L->d, yml_line(k), yml_col(k), "'%s' is set twice (first at line %d)", name,
                 L->e->cols[c].line);
        return;
    }
    value val;
    if (key_value(L, name, v, &val) < 0)
        return;
    c = get_column(L, name);
    L->e->cols[c].fixed = val;
    L->e->cols[c].line = yml_line(v);
    L->e->cols[c].col = yml_col(v);
}

/* ---- top-level keys ----------------------------------------------------- */


static void h_name(loader *L, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)k;
    if (!yml_is_scalar(v) || yml_is_null(v) || !valid_file_stem(yml_text(v))) {
        diag_add(L->d, yml_line(v), yml_col(v),
                 "'name' must match [A-Za-z0-9._-]+ (it names a folder), not '%s'",
                 yml_is_scalar(v) ? yml_text(v) : yml_kind(v));
        return;
    }
    free(L->e->name);
    L->e->name = xstrdup(yml_text(v));
}

static void h_description(loader *L, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)k;
    if (!yml_is_scalar(v)) {
        diag_add(L->d, yml_line(v), yml_col(v), "'description' must be text, not %s",
                 yml_kind(v));
        return;
    }
    L->e->description = xstrdup(yml_text(v));
}

static char *path_in_dir(const char *dir, const char *rel)
{
    if (rel[0] == '/')
        return xstrdup(rel);
    return xasprintf("%s/%s", dir, rel);
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void h_hooks(loader *L, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)k;
    if (!yml_is_scalar(v) || yml_is_null(v)) {
        diag_add(L->d, yml_line(v), yml_col(v), "'hooks' must be the path of a Lua file");
        return;
    }
    char *p = path_in_dir(L->e->dir, yml_text(v));
    if (!file_exists(p))
        diag_add(L->d, yml_line(v), yml_col(v), "hooks file '%s' not found", yml_text(v));
    free(p);
    L->e->hooks = xstrdup(yml_text(v));
    L->e->hooks_line = yml_line(v);
    L->e->hooks_col = yml_col(v);
}

static void h_runkey(loader *L, const yaml_node_t *k, const yaml_node_t *v)
{
    set_fixed(L, k, v);
}

static void h_params(loader *L, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)k;
    if (yml_is_null(v))
        return;
    if (v->type != YAML_MAPPING_NODE) {
        diag_add(L->d, yml_line(v), yml_col(v), "'params' must be a mapping, not %s",
                 yml_kind(v));
        return;
    }
    ypair *p;
    int n = yml_pairs(&L->y, (yaml_node_t *)v, &p, L->d);
    for (int i = 0; i < n; i++) {
        const char *name = yml_text(p[i].key);
        if (runkey_index(name) < 0 && !is_known_param(L, name)) {
            unknown_key(L, p[i].key, " in params", NULL);
            continue;
        }
        set_fixed(L, p[i].key, p[i].val);
    }
    free(p);
}

/* stop: the adaptive-stopping rule of `repeats: auto` */
static void h_stop(loader *L, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)k;
    if (v->type != YAML_MAPPING_NODE) {
        diag_add(L->d, yml_line(v), yml_col(v),
                 "'stop' must be a mapping (rse, min_samples, max_samples, min_time, max_time)");
        return;
    }
    static const char *const names[] = {"rse", "min_samples", "max_samples", "min_time",
                                        "max_time", NULL};
    ypair *p;
    int n = yml_pairs(&L->y, (yaml_node_t *)v, &p, L->d);
    stop_rule *s = &L->e->stop;
    for (int i = 0; i < n; i++) {
        const char *name = yml_text(p[i].key);
        value x;
        char what[64];
        snprintf(what, sizeof what, "'%s'", name);
        int which = -1;
        for (int j = 0; names[j]; j++)
            if (!strcmp(names[j], name))
                which = j;
        if (which < 0) {
            const char *sug = closest_word(name, names);
            diag_add(L->d, yml_line(p[i].key), yml_col(p[i].key), "unknown key '%s' in stop%s%s%s",
                     name, sug ? "; did you mean '" : "", sug ? sug : "", sug ? "'?" : "");
            continue;
        }
        if (scalar_value(p[i].val, &x, what, L->d) < 0)
            continue;
        double f = value_is_num(&x) ? x.f : x.kind == VAL_STR ? parse_duration(x.text) : -1;
        if (which == 0 && (!(f > 0) || f >= 1))
            diag_add(L->d, yml_line(p[i].val), yml_col(p[i].val),
                     "'rse' is a fraction such as 0.005 (0.5 %%), not '%s'", x.text);
        else if ((which == 1 || which == 2) && (x.kind != VAL_INT || x.i < 1 || x.i > 100000000))
            diag_add(L->d, yml_line(p[i].val), yml_col(p[i].val),
                     "'%s' must be an integer >= 1, not '%s'", name, x.text);
        else if ((which == 3 || which == 4) && !(f >= 0))
            diag_add(L->d, yml_line(p[i].val), yml_col(p[i].val),
                     "'%s' must be a duration such as 0.5s or 15s, not '%s'", name, x.text);
        else if (which == 0)
            s->rse = f;
        else if (which == 1)
            s->min_samples = (int)x.i;
        else if (which == 2)
            s->max_samples = (int)x.i;
        else if (which == 3)
            s->min_time = f;
        else
            s->max_time = f;
        value_free(&x);
    }
    free(p);
    if (s->min_samples > s->max_samples)
        diag_add(L->d, yml_line(v), yml_col(v), "stop: min_samples (%d) is above max_samples (%d)",
                 s->min_samples, s->max_samples);
}

/* warmup_time: a duration (README "How a trial is timed") */
static void h_warmup_time(loader *L, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)k;
    value x;
    if (scalar_value(v, &x, "'warmup_time'", L->d) < 0)
        return;
    double f = value_is_num(&x) ? x.f : x.kind == VAL_STR ? parse_duration(x.text) : -1;
    if (!(f >= 0) || f > 3600)
        diag_add(L->d, yml_line(v), yml_col(v),
                 "'warmup_time' must be a duration such as 0.2s or 500ms (0 to 1h), not '%s'",
                 x.text);
    else
        L->e->warmup_time = f;
    value_free(&x);
}

/* warmup_tolerance: a fraction (README "How a trial is timed") */
static void h_warmup_tolerance(loader *L, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)k;
    value x;
    if (scalar_value(v, &x, "'warmup_tolerance'", L->d) < 0)
        return;
    if (!value_is_num(&x) || !(x.f > 0) || x.f > 1)
        diag_add(L->d, yml_line(v), yml_col(v),
                 "'warmup_tolerance' is a fraction such as 0.1 (10 %%), above 0 and at most 1, "
                 "not '%s'",
                 x.text);
    else
        L->e->warmup_tolerance = x.f;
    value_free(&x);
}

/* order: sequential (each trial's samples together) or interleaved */
static void h_order(loader *L, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)k;
    const char *s = yml_text(v);
    if (yml_is_scalar(v) && !strcmp(s, "interleaved"))
        L->e->interleaved = 1;
    else if (!yml_is_scalar(v) || strcmp(s, "sequential"))
        diag_add(L->d, yml_line(v), yml_col(v), "'order' must be sequential or interleaved, not '%s'",
                 yml_is_scalar(v) ? s : yml_kind(v));
}

typedef void (*top_handler)(loader *L, const yaml_node_t *k, const yaml_node_t *v);

/* sweep, exclude and plots run after the rest: they refer to the columns. */
static const struct top_key {
    const char *name;
    top_handler handler;
    int late;
} top_keys[] = {
    {"name", h_name, 0},         {"description", h_description, 0},
    {"workload", h_runkey, 0},   {"device", h_runkey, 0},
    {"threads", h_runkey, 0},    {"io", h_runkey, 0},
    {"dtype", h_runkey, 0},      {"size", h_runkey, 0},
    {"repeats", h_runkey, 0},    {"warmups", h_runkey, 0},
    {"timeout", h_runkey, 0},    {"seed", h_runkey, 0},
    {"cold_cache", h_runkey, 0}, {"batch", h_runkey, 0},
    {"affinity", h_runkey, 0},
    {"stop", h_stop, 0},         {"order", h_order, 0},
    {"warmup_time", h_warmup_time, 0}, {"warmup_tolerance", h_warmup_tolerance, 0},
    {"params", h_params, 0},     {"hooks", h_hooks, 0},
    {"sweep", NULL, 1},          {"exclude", NULL, 1},
    {"plots", NULL, 1},
};

/* ---- sweep --------------------------------------------------------------- */

void sweep_parse(loader *L, const yaml_node_t *v);  /* sweep.c */
void exclude_parse(loader *L, const yaml_node_t *v); /* below */
void plots_parse(loader *L, const yaml_node_t *v);   /* plots_config.c */

/* Expose the loader's pieces to the sweep and plots parsers. */
#include "config_internal.h"

yml *loader_yml(loader *L)
{
    return &L->y;
}
diags *loader_diags(loader *L)
{
    return L->d;
}
experiment *loader_exp(loader *L)
{
    return L->e;
}
int loader_key_value(loader *L, const char *name, const yaml_node_t *n, value *out)
{
    return key_value(L, name, n, out);
}
int loader_get_column(loader *L, const char *name)
{
    return get_column(L, name);
}
int loader_add_column(loader *L, const char *name, col_kind kind)
{
    return add_column(L, name, kind);
}
int loader_known_key(loader *L, const char *name)
{
    return runkey_index(name) >= 0 || is_known_param(L, name);
}
int loader_declared_key(loader *L, const char *name)
{
    return runkey_index(name) >= 0 || find_param(L, name) != NULL;
}
void loader_unknown_key(loader *L, const yaml_node_t *k, const char *where)
{
    unknown_key(L, k, where, NULL);
}
void loader_set_rank(loader *L, int c, int rank)
{
    if (L->rank[c] == 0 || rank < L->rank[c])
        L->rank[c] = rank;
}

/* ---- columns in their fixed order ---------------------------------------- */

/* Every run key is a column; so is every parameter of the file's workloads. */
static void add_implicit_columns(loader *L)
{
    for (int i = 0; i < nrunkeys; i++)
        get_column(L, runkeys[i].name);
    for (int w = 0; w < L->nwl; w++)
        for (const param_spec *p = L->wl[w]->params; p->name; p++)
            get_column(L, p->name);
}

/* Axis columns first (sweep order), then run keys (canonical order), then
 * parameters (order of first mention). */
static void order_columns(loader *L)
{
    experiment *e = L->e;
    int n = e->ncols;
    long *key = xmalloc((size_t)n * sizeof *key);
    for (int c = 0; c < n; c++) {
        if (L->rank[c] > 0)
            key[c] = L->rank[c];
        else if (e->cols[c].kind == COL_RUNKEY)
            key[c] = 1000000L + e->cols[c].runkey;
        else
            key[c] = 2000000L + c;
    }
    int *perm = xmalloc((size_t)n * sizeof *perm); /* perm[new] = old */
    for (int c = 0; c < n; c++)
        perm[c] = c;
    for (int i = 1; i < n; i++) /* insertion sort: stable, n is small */
        for (int j = i; j > 0 && key[perm[j - 1]] > key[perm[j]]; j--) {
            int t = perm[j];
            perm[j] = perm[j - 1];
            perm[j - 1] = t;
        }
    int *inv = xmalloc((size_t)n * sizeof *inv);
    column *cols = xmalloc((size_t)n * sizeof *cols);
    for (int i = 0; i < n; i++) {
        cols[i] = e->cols[perm[i]];
        inv[perm[i]] = i;
    }
    free(e->cols);
    e->cols = cols;
    for (int a = 0; a < e->naxes; a++) {
        e->axes[a].column = inv[e->axes[a].column];
        for (int j = 0; j < e->axes[a].nelems; j++)
            for (int k = 0; k < e->axes[a].elems[j].nkv; k++)
                e->axes[a].elems[j].kv[k].column = inv[e->axes[a].elems[j].kv[k].column];
    }
    for (int i = 0; i < e->nexcl; i++)
        for (int j = 0; j < e->excl[i].n; j++)
            e->excl[i].m[j].column = inv[e->excl[i].m[j].column];
    for (int i = 0; i < e->nplots; i++) {
        for (int j = 0; j < e->plots[i].nwhere; j++)
            e->plots[i].where[j].column = inv[e->plots[i].where[j].column];
        for (int j = 0; j < e->plots[i].nbaseline; j++)
            e->plots[i].baseline[j].column = inv[e->plots[i].baseline[j].column];
    }
    free(key);
    free(perm);
    free(inv);
}

/* Per registry workload, the default of each column (size, parameters). */
static void build_defaults(experiment *e)
{
    int nw = 0;
    while (workload_at(nw))
        nw++;
    e->ndefault_rows = nw;
    e->defaults = xcalloc((size_t)nw * (size_t)e->ncols, sizeof *e->defaults);
    for (int w = 0; w < nw; w++) {
        const workload_desc *wd = workload_at(w);
        for (int c = 0; c < e->ncols; c++) {
            value *dv = &e->defaults[w * e->ncols + c];
            const column *col = &e->cols[c];
            if (col->kind == COL_RUNKEY) {
                if (col->runkey == RK_SIZE)
                    *dv = value_int(wd->default_size);
                else if (runkeys[col->runkey].dflt) {
                    const char *t = runkeys[col->runkey].dflt;
                    *dv = (t[0] >= '0' && t[0] <= '9') ? value_int(atoll(t))
                          : !strcmp(t, "false")          ? value_bool(0)
                                                         : value_str(t);
                /* a Lua workload has no registry row: its run keys use row 0 */
                }
            } else if (col->kind == COL_PARAM) {
                const param_spec *p = workload_param(wd, col->name);
                if (p && p->dflt) {
                    if (p->type == PT_BOOL)
                        *dv = value_bool(!strcmp(p->dflt, "true"));
                    else if (p->type == PT_INT)
                        *dv = value_int(atoll(p->dflt));
                    else if (p->type == PT_FLOAT)
                        *dv = value_float(atof(p->dflt));
                    else
                        *dv = value_str(p->dflt);
                }
            }
        }
    }
}

/* ---- the whole file -------------------------------------------------------- */

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    return strndup(path, (size_t)(slash - path));
}

static char *default_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char *n = xstrdup(base);
    char *dot = strrchr(n, '.');
    if (dot && dot != n)
        *dot = '\0';
    return n;
}

void sweep_expand(loader *L); /* sweep.c */

static void check_lua_file(const experiment *e, const value *v, int line, int col, diags *d)
{
    if (v->kind != VAL_STR || strncmp(v->text, "lua:", 4))
        return;
    char *p = path_in_dir(e->dir, v->text + 4);
    if (!file_exists(p))
        diag_add(d, line, col, "Lua workload file '%s' not found", v->text + 4);
    free(p);
}

experiment *experiment_parse(const char *path, const char *text, size_t len, diags *d)
{
    experiment *e = xcalloc(1, sizeof *e);
    e->path = xstrdup(path);
    e->dir = dir_of(path);
    e->text = xmalloc(len + 1);
    memcpy(e->text, text, len);
    e->text[len] = '\0';
    e->text_len = len;
    d->file = path;
    /* nvbench-like defaults for repeats: auto */
    e->stop = (stop_rule){.rse = 0.005, .min_samples = 10, .max_samples = 1000000,
                          .min_time = 0.5, .max_time = 15};
    e->warmup_time = 0.2;
    e->warmup_tolerance = 0.10;

    loader L = {.d = d, .e = e};
    text = e->text; /* the caller's bytes need not end in a NUL; ours do */
    if (len == 0 || strspn(text, " \t\r\n") == len) {
        diag_add(d, 1, 1, "empty file: an experiment needs at least 'workload'");
        goto out;
    }
    if (memchr(text, '\0', len)) {
        const char *z = memchr(text, '\0', len);
        int line = 1, col = 1;
        for (const char *p = text; p < z; p++, col++)
            if (*p == '\n') {
                line++;
                col = 0;
            }
        diag_add(d, line, col, "the file contains a NUL byte: is it a binary file?");
        goto out;
    }
    if (yml_load(&L.y, text, len, d) < 0)
        goto out;
    yaml_node_t *root = yml_root(&L.y);
    if (!root || yml_is_null(root)) {
        diag_add(d, 1, 1, "empty file: an experiment needs at least 'workload'");
        goto out;
    }
    if (root->type != YAML_MAPPING_NODE) {
        diag_add(d, yml_line(root), yml_col(root),
                 "an experiment file is a mapping of keys (name, workload, sweep, ...), not %s",
                 yml_kind(root));
        goto out;
    }
    ypair *top;
    int ntop = yml_pairs(&L.y, root, &top, d);
    scan_workloads(&L, top, ntop);
    const yaml_node_t *late[3] = {NULL, NULL, NULL};
    int have_workload = 0;
    for (int i = 0; i < ntop; i++) {
        const char *k = yml_text(top[i].key);
        const struct top_key *tk = NULL;
        for (size_t j = 0; j < sizeof top_keys / sizeof top_keys[0]; j++)
            if (!strcmp(top_keys[j].name, k))
                tk = &top_keys[j];
        if (!tk && (k[0] == '.' || !strncmp(k, "x-", 2)))
            continue; /* holders of anchors, as in docker-compose: ignored */
        if (!tk) {
            if (find_param(&L, k))
                diag_add(d, yml_line(top[i].key), yml_col(top[i].key),
                         "'%s' is a workload parameter: set it under 'params:' or sweep it", k);
            else
                unknown_key(&L, top[i].key, "", top_names);
            continue;
        }
        if (!strcmp(k, "workload"))
            have_workload = 1;
        if (tk->late) {
            late[!strcmp(k, "sweep") ? 0 : !strcmp(k, "exclude") ? 1 : 2] = top[i].val;
            continue;
        }
        tk->handler(&L, top[i].key, top[i].val);
    }
    if (late[0])
        sweep_parse(&L, late[0]);
    if (!have_workload && experiment_column(e, "workload") < 0)
        diag_add(d, 1, 1, "missing required key 'workload' (a built-in name or lua:FILE)");
    else if (!have_workload && e->cols[experiment_column(e, "workload")].axis < 0)
        diag_add(d, 1, 1, "missing required key 'workload' (a built-in name or lua:FILE)");
    /* lua:PATH must exist, relative to the experiment file */
    int wc = experiment_column(e, "workload");
    if (wc >= 0) {
        check_lua_file(e, &e->cols[wc].fixed, e->cols[wc].line, e->cols[wc].col, d);
        for (int a = 0; a < e->naxes; a++)
            for (int j = 0; j < e->axes[a].nelems; j++)
                for (int k = 0; k < e->axes[a].elems[j].nkv; k++)
                    if (e->axes[a].elems[j].kv[k].column == wc)
                        check_lua_file(e, &e->axes[a].elems[j].kv[k].v, e->axes[a].elems[j].line,
                                       e->axes[a].elems[j].col, d);
    }
    if (!e->name) {
        e->name = default_name(path);
        if (!valid_file_stem(e->name)) {
            diag_add(d, 1, 1,
                     "the file's name '%s' is not a valid experiment name; set 'name:' "
                     "([A-Za-z0-9._-]+)",
                     e->name);
        }
    }
    add_implicit_columns(&L);
    if (late[1])
        exclude_parse(&L, late[1]);
    if (late[2])
        plots_parse(&L, late[2]);
    free(top);
    if (d->n)
        goto out;
    order_columns(&L);
    build_defaults(e);
    sweep_expand(&L);
    if (e->interleaved)
        for (long long t = 0; t < e->ntrials && !d->n; t++) {
            value r = trial_value(e, t, experiment_column(e, "repeats"));
            if (r.kind == VAL_STR)
                diag_add(d, 1, 1, "order: interleaved needs a number of repeats, not 'auto'");
        }
out:
    yml_free(&L.y);
    free(L.rank);
    if (d->n) {
        experiment_free(e);
        return NULL;
    }
    return e;
}

experiment *experiment_load(const char *path, diags *d)
{
    d->file = path;
    FILE *f = fopen(path, "rb");
    if (!f) {
        diag_add(d, 0, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    strbuf b = {0};
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        sb_putn(&b, buf, n);
        if (b.len > MAX_FILE_BYTES) {
            fclose(f);
            sb_free(&b);
            diag_add(d, 0, 0, "file larger than %d MiB: not an experiment file",
                     MAX_FILE_BYTES >> 20);
            return NULL;
        }
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        sb_free(&b);
        diag_add(d, 0, 0, "cannot read: %s", strerror(errno));
        return NULL;
    }
    size_t len = b.len;
    char *text = sb_take(&b);
    experiment *e = experiment_parse(path, text, len, d);
    free(text);
    return e;
}

static void free_matches(match *m, int n)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m[i].nvals; j++)
            value_free(&m[i].vals[j]);
        free(m[i].vals);
    }
    free(m);
}

void experiment_free(experiment *e)
{
    if (!e)
        return;
    for (int c = 0; c < e->ncols; c++) {
        free(e->cols[c].name);
        value_free(&e->cols[c].fixed);
    }
    for (int a = 0; a < e->naxes; a++) {
        for (int j = 0; j < e->axes[a].nelems; j++) {
            for (int k = 0; k < e->axes[a].elems[j].nkv; k++)
                value_free(&e->axes[a].elems[j].kv[k].v);
            free(e->axes[a].elems[j].kv);
        }
        free(e->axes[a].elems);
        free(e->axes[a].name);
    }
    for (int i = 0; i < e->nexcl; i++)
        free_matches(e->excl[i].m, e->excl[i].n);
    for (int i = 0; i < e->nplots; i++) {
        plot_spec *p = &e->plots[i];
        free(p->name);
        free(p->type);
        free(p->x);
        free(p->y);
        free(p->title);
        free(p->xlabel);
        free(p->ylabel);
        free(p->legend);
        for (int j = 0; j < p->nseries; j++)
            free(p->series[j]);
        free(p->series);
        free_matches(p->where, p->nwhere);
        free_matches(p->baseline, p->nbaseline);
    }
    if (e->defaults)
        for (int i = 0; i < e->ndefault_rows * e->ncols; i++)
            value_free(&e->defaults[i]);
    free(e->defaults);
    free(e->plots);
    free(e->excl);
    free(e->axes);
    free(e->cols);
    free(e->choices);
    free(e->ids);
    free(e->path);
    free(e->dir);
    free(e->text);
    free(e->name);
    free(e->description);
    free(e->hooks);
    free(e);
}

long long experiment_short_timeouts(const experiment *e, long long *first, double *timeout)
{
    int rc = experiment_column(e, "repeats"), tc = experiment_column(e, "timeout");
    long long n = 0;
    for (long long t = 0; rc >= 0 && tc >= 0 && t < e->ntrials; t++) {
        value r = trial_value(e, t, rc), to = trial_value(e, t, tc);
        if (r.kind != VAL_STR || !value_is_num(&to) || !(to.f > 0) || to.f >= e->stop.max_time)
            continue;
        if (!n++) {
            *first = t;
            *timeout = to.f;
        }
    }
    return n;
}
