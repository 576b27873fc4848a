/* config.c - experiment files: top-level keys through a key table, params,
 * sweep axes, exclude and plots; then the columns in their fixed order.
 * Every error is collected (file:line:col) so a user sees them all at once. */
#include "experiment/config.h"

#include "experiment/command_config.h"
#include "experiment/expand.h"
#include "experiment/loader.h"
#include "experiment/plots_config.h"
#include "experiment/plots_check.h"
#include "experiment/sweep.h"
#include "experiment/trial_checks.h"
#include "experiment/keys.h"
#include "base/util.h"
#include "experiment/registry/plugin.h"
#include "experiment/registry/workloads.h"
#include "experiment/yml.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Refuse files no experiment needs, before libyaml sees them. */
#define MAX_FILE_BYTES (16 << 20)

static const char *const top_names[] = {"name",    "description", "workload", "device",
                                        "threads", "io",          "dtype",    "size",
                                        "params",  "sweep",       "exclude",  "repeats",
                                        "warmups", "timeout",     "seed",     "hooks",
                                        "plots",   "cold_cache", "batch",    "stop",
                                        "order",   "affinity", "warmup_time", "sample_time",
                                        "warmup_tolerance", "parallel", "share",
                                        "spawn", "warmup_curve", "trace", "command", "protocol",
                                        "env", "cwd", "subtract_spawn", "restart", "prepare", "energy", "revision",
                                        "size_means", "workers", NULL};

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

/* description, revision (doc/history.md#what-is-recorded) and size_means
 * (doc/own-code.md#the-experiment-file) */
static void h_description(loader *L, const yaml_node_t *k, const yaml_node_t *v)
{
    char **to = !strcmp(yml_text(k), "revision")     ? &L->e->revision
                : !strcmp(yml_text(k), "size_means") ? &L->e->size_means
                                                     : &L->e->description;
    if (!yml_is_scalar(v)) {
        diag_add(L->d, yml_line(v), yml_col(v), "'%s' must be text, not %s", yml_text(k),
                 yml_kind(v));
        return;
    }
    free(*to);
    *to = xstrdup(yml_text(v));
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
    char *p = experiment_path(L->e, yml_text(v));
    if (!file_exists(p))
        diag_add(L->d, yml_line(v), yml_col(v), "hooks file '%s' not found", yml_text(v));
    free(p);
    L->e->hooks = xstrdup(yml_text(v));
    L->e->hooks_line = yml_line(v);
    L->e->hooks_col = yml_col(v);
}

static void h_runkey(loader *L, const yaml_node_t *k, const yaml_node_t *v)
{
    loader_set_fixed(L, k, v);
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
        if (runkey_index(name) < 0 && !loader_is_known_param(L, name)) {
            loader_unknown_key(L, p[i].key, " in params", NULL);
            continue;
        }
        loader_set_fixed(L, p[i].key, p[i].val);
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

/* A whole-run duration key from 0 to max seconds: warmup_time
 * (doc/timing.md#how-a-trial-is-timed), sample_time (doc/timing.md#batching). */
static void duration_key(loader *L, const yaml_node_t *v, const char *name, double max,
                         const char *hint, double *out)
{
    char label[40];
    snprintf(label, sizeof label, "'%s'", name);
    value x;
    if (scalar_value(v, &x, label, L->d) < 0)
        return;
    double f = value_is_num(&x) ? x.f : x.kind == VAL_STR ? parse_duration(x.text) : -1;
    if (!(f >= 0) || f > max)
        diag_add(L->d, yml_line(v), yml_col(v), "%s must be a duration such as %s, not '%s'",
                 label, hint, x.text);
    else
        *out = f;
    value_free(&x);
}

static void h_warmup_time(loader *L, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)k;
    duration_key(L, v, "warmup_time", 3600, "0.2s or 500ms (0 to 1h)", &L->e->warmup_time);
}

static void h_sample_time(loader *L, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)k;
    duration_key(L, v, "sample_time", 10, "1ms or 0.1s (0 to 10s)", &L->e->sample_time);
}

/* warmup_tolerance: a fraction (doc/timing.md#how-a-trial-is-timed) */
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

/* trace: true writes RUN_DIR/trace.json (doc/results.md#a-timeline-of-a-run) */
static void h_trace(loader *L, const yaml_node_t *k, const yaml_node_t *v)
{
    (void)k;
    const char *s = yml_text(v);
    if (yml_is_scalar(v) && (!strcmp(s, "true") || !strcmp(s, "false")))
        L->e->trace = !strcmp(s, "true");
    else
        diag_add(L->d, yml_line(v), yml_col(v), "'trace' must be true or false, not '%s'",
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
    {"revision", h_description, 0}, {"size_means", h_description, 0},
    {"workload", h_runkey, 0},   {"device", h_runkey, 0},
    {"threads", h_runkey, 0},    {"io", h_runkey, 0},
    {"dtype", h_runkey, 0},      {"size", h_runkey, 0},
    {"repeats", h_runkey, 0},    {"warmups", h_runkey, 0},
    {"timeout", h_runkey, 0},    {"seed", h_runkey, 0},
    {"cold_cache", h_runkey, 0}, {"batch", h_runkey, 0},
    {"affinity", h_runkey, 0},
    {"parallel", h_runkey, 0},   {"share", h_runkey, 0},     {"spawn", h_runkey, 0},
    {"warmup_curve", h_runkey, 0}, {"trace", h_trace, 0},
    {"energy", h_runkey, 0},     {"workers", h_runkey, 0},
    {"stop", h_stop, 0},         {"order", h_runkey, 0},
    {"warmup_time", h_warmup_time, 0}, {"warmup_tolerance", h_warmup_tolerance, 0},
    {"sample_time", h_sample_time, 0},
    {"params", h_params, 0},     {"hooks", h_hooks, 0},
    {"sweep", NULL, 1},          {"exclude", NULL, 1},
    {"plots", NULL, 1},
    {"command", command_key, 0}, {"protocol", command_key, 0}, {"env", command_key, 0},
    {"cwd", command_key, 0}, {"subtract_spawn", command_key, 0}, {"restart", command_key, 0},
    {"prepare", command_key, 0},
};

/* ---- columns in their fixed order ---------------------------------------- */

/* Every run key is a column (an optional one only where the file names
 * it); so is every parameter of the file's workloads. */
static void add_implicit_columns(loader *L)
{
    for (int i = 0; i < nrunkeys; i++)
        if (!runkeys[i].optional)
            loader_get_column(L, runkeys[i].name);
    for (int w = 0; w < L->nwl; w++)
        for (const param_spec *p = L->wl[w]->params; p->name; p++)
            loader_get_column(L, p->name);
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


static void check_lua_file(const experiment *e, const value *v, int line, int col, void *d)
{
    char why[1024]; /* plugin:PATH:NAME's library too (doc/own-code-plugins.md#a-plugin) */
    if (v->kind == VAL_STR && plugin_file_check(v->text, e->dir, why, sizeof why) < 0)
        diag_add(d, line, col, "%s", why);
    if (v->kind != VAL_STR || strncmp(v->text, "lua:", 4))
        return;
    char *p = experiment_path(e, v->text + 4);
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
    e->sample_time = 1e-3;

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
    loader_scan_workloads(&L, top, ntop);
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
            if (loader_find_param(&L, k))
                diag_add(d, yml_line(top[i].key), yml_col(top[i].key),
                         "'%s' is a workload parameter: set it under 'params:' or sweep it", k);
            else
                loader_unknown_key(&L, top[i].key, "", top_names);
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
    experiment_each_value(e, experiment_column(e, "workload"), check_lua_file, d);
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
    command_finish(&L);
    if (late[1])
        exclude_parse(&L, late[1]);
    if (late[2])
        plots_parse(&L, late[2]);
    free(top);
    if (d->n)
        goto out;
    order_columns(&L);
    build_defaults(e);
    sweep_expand(L.e, L.d);
    if (!d->n)
        plots_check_merges(e, d);
    if (!d->n)
        trial_checks(e, d);
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

