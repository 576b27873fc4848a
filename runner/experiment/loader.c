/* loader.c - see loader.h: the state of one experiment file being read,
 * the columns it creates, the workloads it names and the value of a key. */
#include "experiment/loader.h"

#include "experiment/experiment.h"
#include "experiment/keys.h"
#include "base/util.h"
#include "experiment/registry/plugin.h"
#include "experiment/registry/workloads.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

int loader_add_column(loader *L, const char *name, col_kind kind)
{
    experiment *e = L->e;
    XGROW(e->cols, e->ncols);
    XGROW(L->rank, e->ncols);
    e->cols[e->ncols] = (column){.name = xstrdup(name), .kind = kind,
                                 .runkey = runkey_index(name), .axis = -1};
    L->rank[e->ncols] = 0;
    return e->ncols++;
}

int loader_get_column(loader *L, const char *name)
{
    int c = experiment_column(L->e, name);
    if (c >= 0)
        return c;
    return loader_add_column(L, name, runkey_index(name) >= 0 ? COL_RUNKEY : COL_PARAM);
}

/* ---- workloads this file uses ------------------------------------------ */

static void note_workload(loader *L, const yaml_node_t *n)
{
    const char *s = yml_text(n);
    if (!yml_is_scalar(n))
        return;
    /* a plugin's parameters and columns pass through as a Lua file's do
     * (doc/own-code-plugins.md#parameters); a command's too (doc/own-code.md) */
    if (!strncmp(s, "lua:", 4) || !strcmp(s, "command") || plugin_is_spec(s)) {
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
    size_t n = strlen(name);
    for (int i = 0; i < L->nwl; i++) {
        const char *x = L->wl[i]->extras;
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
void loader_scan_workloads(loader *L, ypair *top, int ntop)
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

const param_spec *loader_find_param(loader *L, const char *name)
{
    for (int i = 0; i < L->nwl; i++) {
        const param_spec *p = workload_param(L->wl[i], name);
        if (p)
            return p;
    }
    return NULL;
}

int loader_is_known_param(loader *L, const char *name)
{
    return L->any_lua || loader_find_param(L, name) != NULL;
}

/* "did you mean": run keys, plus the parameters of the file's workloads. */
void loader_unknown_key(loader *L, const yaml_node_t *k, const char *where,
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

/* The text built in b as a string value when every item was right (ok):
 * 0, or -1 (the items' errors said); b freed. */
static int text_value(strbuf *b, int ok, value *out)
{
    if (ok)
        *out = value_str(b->s);
    sb_free(b);
    return ok ? 0 : -1;
}

int loader_key_value(loader *L, const char *name, const yaml_node_t *n, value *out)
{
    if (!strcmp(name, "members") && loader_find_param(L, name))
        return members_value(L, n, out);
    char what[96];
    snprintf(what, sizeof what, "'%s'", name);
    /* a text parameter may be written as a list (layers: [features, 32, 16, 2]):
     * it becomes "[features, 32, 16, 2]" */
    const param_spec *ps = runkey_index(name) < 0 ? loader_find_param(L, name) : NULL;
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
        return text_value(&b, ok, out);
    }
    if (scalar_value(n, out, what, L->d) < 0)
        return -1;
    int rk = runkey_index(name);
    int rc = 0;
    if (rk >= 0) {
        rc = runkeys[rk].check(out, yml_line(n), yml_col(n), L->d);
    } else {
        const param_spec *p = loader_find_param(L, name);
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
    return text_value(&b, ok, out);
}

/* A top-level (or params) setting of key `name`. */
void loader_set_fixed(loader *L, const yaml_node_t *k, const yaml_node_t *v)
{
    const char *name = yml_text(k);
    int c = experiment_column(L->e, name);
    if (c >= 0 && L->e->cols[c].fixed.kind != VAL_NONE) {
        diag_add(L->d, yml_line(k), yml_col(k), "'%s' is set twice (first at line %d)", name,
                 L->e->cols[c].line);
        return;
    }
    value val;
    if (loader_key_value(L, name, v, &val) < 0)
        return;
    c = loader_get_column(L, name);
    L->e->cols[c].fixed = val;
    L->e->cols[c].line = yml_line(v);
    L->e->cols[c].col = yml_col(v);
}


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
int loader_known_key(loader *L, const char *name)
{
    return runkey_index(name) >= 0 || loader_is_known_param(L, name);
}
int loader_declared_key(loader *L, const char *name)
{
    return runkey_index(name) >= 0 || loader_find_param(L, name) != NULL;
}
void loader_set_rank(loader *L, int c, int rank)
{
    if (L->rank[c] == 0 || rank < L->rank[c])
        L->rank[c] = rank;
}
