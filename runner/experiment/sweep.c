/* sweep.c - see sweep.h: parsing the sweep axes (lists, pow2, range, geom,
 * linked mappings), `exclude` and KEY: value matches. */
#include "experiment/sweep.h"

#include "experiment/loader.h"
#include "experiment/keys.h"
#include "base/util.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* doc/experiment-file.md#errors: a sweep expands to at most MAX_TRIALS trials.  A large
 * generated axis that, with the axes before it, already passes the limit is
 * refused before its values are built (three 10^6-value ranges took 7 s
 * under ASan); smaller ones are built, and sweep_expand names the total */
#define SMALL_AXIS 10000
#define TOO_MANY                                                                              \
    "axis '%s': %s gives %.0f values, so the sweep expands to at least %.0f trials; the limit "  \
    "is %lld: split the experiment"

/* Sets `column` to v in element el; `at` is where v is written. */
static void elem_set(axis_elem *el, int column, value v, const yaml_node_t *at)
{
    XGROW(el->kv, el->nkv);
    el->kv[el->nkv++] = (axis_kv){column, v, yml_line(at), yml_col(at)};
}

static axis_elem *new_elem(axis *a, const yaml_node_t *at)
{
    if (a->nelems == a->elems_cap) {
        a->elems_cap = a->elems_cap ? 2 * a->elems_cap : 8;
        a->elems = xrealloc(a->elems, (size_t)a->elems_cap * sizeof *a->elems);
    }
    axis_elem *el = &a->elems[a->nelems++];
    *el = (axis_elem){.line = yml_line(at), .col = yml_col(at)};
    return el;
}

/* Claims column `c` for axis `ai`; a key is set in one place only. */
static int claim(loader *L, int c, int ai, const yaml_node_t *at)
{
    experiment *e = loader_exp(L);
    column *col = &e->cols[c];
    if (col->fixed.kind != VAL_NONE) {
        diag_add(loader_diags(L), yml_line(at), yml_col(at),
                 "'%s' is set both at the top level (line %d) and under sweep; remove one",
                 col->name, col->line);
        return -1;
    }
    if (col->axis >= 0 && col->axis != ai) {
        diag_add(loader_diags(L), yml_line(at), yml_col(at),
                 "'%s' is already swept by axis '%s'", col->name, e->axes[col->axis].name);
        return -1;
    }
    col->axis = ai;
    return 0;
}

/* {pow2: [A, B]}, {range: [START, STOP(, STEP)]}, {geom: [START, STOP, FACTOR]} */
static int generated_values(loader *L, const char *axname, const yaml_node_t *v, double before,
                            value **out)
{
    diags *d = loader_diags(L);
    ypair *p;
    int np = yml_pairs(loader_yml(L), (yaml_node_t *)v, &p, d);
    if (np != 1) {
        diag_add(d, yml_line(v), yml_col(v),
                 "axis '%s': a generated axis is one of {pow2: [A, B]}, {range: [START, STOP, "
                 "STEP]} or {geom: [START, STOP, FACTOR]}",
                 axname);
        free(p);
        return -1;
    }
    const char *form = yml_text(p[0].key);
    const yaml_node_t *args = p[0].val;
    int nargs_min, nargs_max;
    if (!strcmp(form, "pow2"))
        nargs_min = nargs_max = 2;
    else if (!strcmp(form, "range"))
        nargs_min = 2, nargs_max = 3;
    else if (!strcmp(form, "geom"))
        nargs_min = nargs_max = 3;
    else {
        const char *forms[] = {"pow2", "range", "geom", NULL};
        const char *s = closest_word(form, forms);
        diag_add(d, yml_line(p[0].key), yml_col(p[0].key),
                 "axis '%s': unknown form '%s'%s%s%s (pow2, range or geom)", axname, form,
                 s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "");
        free(p);
        return -1;
    }
    free(p);
    yaml_node_t **items;
    int n = yml_items(loader_yml(L), (yaml_node_t *)args, &items, d);
    if (!args || args->type != YAML_SEQUENCE_NODE || n < nargs_min || n > nargs_max) {
        diag_add(d, yml_line(args), yml_col(args), "axis '%s': '%s' takes a list of %d%s numbers",
                 axname, form, nargs_min, nargs_max > nargs_min ? " or 3" : "");
        free(items);
        return -1;
    }
    double a[3] = {0, 0, 1};
    long long ai[3] = {0, 0, 1}; /* the same, exact, where all_int */
    int all_int = 1;
    for (int i = 0; i < n; i++) {
        value x;
        if (scalar_value(items[i], &x, form, d) < 0) {
            free(items);
            return -1;
        }
        if (!value_is_num(&x)) {
            diag_add(d, yml_line(items[i]), yml_col(items[i]),
                     "axis '%s': '%s' needs numbers, not '%s'", axname, form, x.text);
            value_free(&x);
            free(items);
            return -1;
        }
        if (x.kind != VAL_INT)
            all_int = 0;
        a[i] = x.f;
        ai[i] = x.i;
        value_free(&x);
    }
    int line = yml_line(args), col = yml_col(args);
    free(items);
    value *vals = NULL;
    int nv = 0;
    if (!strcmp(form, "pow2")) {
        if (!all_int || a[0] < 0 || a[1] > 62 || a[0] > a[1]) {
            diag_add(d, line, col,
                     "axis '%s': pow2 takes integer exponents A <= B between 0 and 62", axname);
            return -1;
        }
        vals = xmalloc((size_t)(a[1] - a[0] + 1) * sizeof *vals);
        for (long long x = (long long)a[0]; x <= (long long)a[1]; x++)
            vals[nv++] = value_int(1LL << x);
    } else if (!strcmp(form, "range")) {
        if (!all_int) {
            diag_add(d, line, col, "axis '%s': range takes integers", axname);
            return -1;
        }
        /* in integers, not doubles: exact over the whole 64-bit range
         * (doc/experiment-file.md#axes); the count in 128 bits, as
         * STOP - START may pass 2^63 */
        if (ai[2] == 0 || (ai[2] > 0 && ai[0] > ai[1]) || (ai[2] < 0 && ai[0] < ai[1])) {
            diag_add(d, line, col,
                     "axis '%s': range [%lld, %lld, %lld] is empty or never ends (STEP must move "
                     "START towards STOP)",
                     axname, ai[0], ai[1], ai[2]);
            return -1;
        }
        __int128 span = (__int128)ai[1] - ai[0];
        double count = (double)(span / ai[2] + 1);
        if (count > MAX_TRIALS || (count > SMALL_AXIS && count * before > MAX_TRIALS)) {
            diag_add(d, line, col, TOO_MANY, axname, form, count, count * before, MAX_TRIALS);
            return -1;
        }
        vals = xmalloc((size_t)count * sizeof *vals);
        for (long long i = 0; i < (long long)count; i++)
            vals[nv++] = value_int((long long)(ai[0] + (__int128)i * ai[2]));
    } else if (all_int) {
        /* integer geom: START * FACTOR^k, exact, while <= STOP */
        if (ai[0] <= 0 || ai[2] <= 1 || ai[1] < ai[0]) {
            diag_add(d, line, col, "axis '%s': geom needs START > 0, STOP >= START, FACTOR > 1",
                     axname);
            return -1;
        }
        vals = xmalloc(64 * sizeof *vals); /* FACTOR >= 2: at most 63 values */
        for (__int128 x = ai[0]; x <= ai[1]; x *= ai[2])
            vals[nv++] = value_int((long long)x);
    } else {
        if (!(a[0] > 0) || !(a[2] > 1) || a[1] < a[0]) {
            diag_add(d, line, col, "axis '%s': geom needs START > 0, STOP >= START, FACTOR > 1",
                     axname);
            return -1;
        }
        double count = floor(log(a[1] / a[0]) / log(a[2]) + 1e-9) + 1;
        if (!(count <= MAX_TRIALS) || (count > SMALL_AXIS && count * before > MAX_TRIALS)) {
            diag_add(d, line, col, TOO_MANY, axname, form, count, count * before, MAX_TRIALS);
            return -1;
        }
        int cap = (int)count + 2;
        vals = xmalloc((size_t)cap * sizeof *vals);
        for (double x = a[0]; x <= a[1] * (1 + 1e-12) && nv < cap; x *= a[2])
            vals[nv++] = value_float(x);
    }
    *out = vals;
    return nv;
}

/* An element's value (a list axis) or label (a linked axis), its index. */
typedef struct elem_key {
    const value *v;
    int i;
} elem_key;

static int by_text(const void *a, const void *b)
{
    const elem_key *x = a, *y = b;
    int c = strcmp(x->v->text, y->v->text);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

static long double number_of(const value *v)
{
    return v->kind == VAL_INT ? (long double)v->i : (long double)v->f;
}

static int by_number(const void *a, const void *b)
{
    const elem_key *x = a, *y = b;
    long double p = number_of(x->v), q = number_of(y->v);
    return p != q ? (p > q) - (p < q) : (x->i > y->i) - (x->i < y->i);
}

/* first[k.i] = the least index with k's value among keys[0 .. n) sorted by
 * cmp, where equal keys are neighbours */
static void least_equal(elem_key *keys, int n, int (*cmp)(const void *, const void *),
                        int *first)
{
    qsort(keys, (size_t)n, sizeof *keys, cmp);
    for (int k = 1, at = 0; k < n; k++) {
        elem_key x = keys[k], y = keys[at];
        int same = cmp == by_text ? !strcmp(x.v->text, y.v->text)
                                  : number_of(x.v) == number_of(y.v);
        if (!same)
            at = k;
        else if (first[x.i] < 0 || y.i < first[x.i])
            first[x.i] = y.i;
    }
}

/* Each element whose value (value_equal: the same text, or the same number)
 * or label an earlier one has, reported at the later one.  Sorted, not
 * compared pairwise: 50,000 labels took 8 s so, and lists of more than
 * 10,000 values went unchecked (doc/experiment-file.md#axes). */
static void report_twice(loader *L, const axis *a, const char *name, int linked)
{
    int n = a->nelems;
    elem_key *keys = xmalloc((size_t)(n + 1) * sizeof *keys);
    int *first = xmalloc((size_t)(n + 1) * sizeof *first);
    for (int i = 0; i < n; i++) {
        keys[i] = (elem_key){&a->elems[i].kv[linked ? a->elems[i].nkv - 1 : 0].v, i};
        first[i] = -1;
    }
    least_equal(keys, n, by_text, first);
    int nnum = 0;
    for (int i = 0; !linked && i < n; i++) {
        const value *v = &a->elems[i].kv[0].v;
        if (value_is_num(v) && isfinite((double)number_of(v)))
            keys[nnum++] = (elem_key){v, i};
    }
    least_equal(keys, nnum, by_number, first);
    for (int i = 0; i < n; i++) {
        if (first[i] < 0)
            continue;
        const axis_elem *el = &a->elems[i];
        if (linked)
            diag_add(loader_diags(L), el->line, el->col,
                     "axis '%s': two elements are both labelled '%s'; give each a distinct label",
                     name, el->kv[el->nkv - 1].v.text);
        else
            diag_add(loader_diags(L), el->line, el->col, "axis '%s' lists %s twice (also at line %d)",
                     name, el->kv[0].v.text, a->elems[first[i]].line);
    }
    free(keys);
    free(first);
}

/* One element of a linked axis: a mapping of keys, with an optional label. */
static void linked_elem(loader *L, axis *a, int ai, const yaml_node_t *m)
{
    diags *d = loader_diags(L);
    experiment *e = loader_exp(L);
    axis_elem *el = new_elem(a, m);
    ypair *p;
    int np = yml_pairs(loader_yml(L), (yaml_node_t *)m, &p, d);
    value label = {0};
    const yaml_node_t *label_at = m;
    strbuf joined = {0};
    for (int i = 0; i < np; i++) {
        const char *k = yml_text(p[i].key);
        if (!strcmp(k, "label")) {
            if (!yml_is_scalar(p[i].val) || yml_is_null(p[i].val))
                diag_add(d, yml_line(p[i].val), yml_col(p[i].val), "'label' must be text");
            else {
                label = value_str(yml_text(p[i].val));
                label_at = p[i].val;
            }
            continue;
        }
        if (!strcmp(k, a->name)) {
            diag_add(d, yml_line(p[i].key), yml_col(p[i].key),
                     "'%s' names this axis; use 'label' for the element's name", k);
            continue;
        }
        if (!loader_known_key(L, k)) {
            loader_unknown_key(L, p[i].key, " in a sweep element", NULL);
            continue;
        }
        value v;
        if (loader_key_value(L, k, p[i].val, &v) < 0)
            continue;
        int c = loader_get_column(L, k);
        a = &e->axes[ai]; /* add_column may not move axes, but stay safe */
        if (claim(L, c, ai, p[i].key) < 0) {
            value_free(&v);
            continue;
        }
        /* keys of a linked axis follow its column, in order of first mention */
        loader_set_rank(L, c, (ai + 1) * 1000 + 1 + c % 999);
        int dup = 0;
        for (int j = 0; j < el->nkv; j++)
            dup |= el->kv[j].column == c;
        if (dup) {
            value_free(&v);
            continue;
        }
        if (joined.len)
            sb_putc(&joined, '/');
        sb_puts(&joined, v.text);
        elem_set(el, c, v, p[i].val);
    }
    free(p);
    if (np == 0 && !loader_yml(L)->exhausted)
        diag_add(d, yml_line(m), yml_col(m), "axis '%s': an element sets no keys", a->name);
    if (label.kind == VAL_NONE)
        label = value_str(joined.s ? joined.s : "");
    sb_free(&joined);
    elem_set(el, a->column, label, label_at);
}

static void parse_axis(loader *L, const yaml_node_t *k, const yaml_node_t *v)
{
    diags *d = loader_diags(L);
    experiment *e = loader_exp(L);
    const char *name = yml_text(k);
    int linked = v && v->type == YAML_SEQUENCE_NODE && v->data.sequence.items.top > v->data.sequence.items.start &&
                 yaml_document_get_node(&loader_yml(L)->doc, *v->data.sequence.items.start)->type ==
                     YAML_MAPPING_NODE;
    if (!strcmp(name, "members")) {
        diag_add(d, yml_line(k), yml_col(k),
                 "'members' is swept with a linked axis: - {label: NAME, members: [...]}");
        return;
    }
    /* keys of the whole run (doc/experiment-file.md#top-level-keys) */
    static const char *const whole_run[] = {"name", "description", "revision", "size_means", "sweep", "exclude", "hooks",
                                            "plots", "stop", "warmup_time",
                                            "warmup_tolerance", "sample_time", NULL};
    /* a command workload's keys (doc/own-code.md#the-experiment-file) are
     * the whole file's too, whatever workload the file runs */
    const char *const *const run_keys[] = {command_key_names, whole_run};
    for (int l = 0; l < 2 && !linked; l++)
        for (int i = 0; run_keys[l][i] && (l == 0 || !loader_known_key(L, name)); i++)
            if (!strcmp(name, run_keys[l][i])) {
                diag_add(d, yml_line(k), yml_col(k),
                         "'%s' applies to the whole run and cannot be swept; set it at the top "
                         "level (one run per value)",
                         name);
                return;
            }
    if (!linked && !loader_known_key(L, name)) {
        loader_unknown_key(L, k, " under sweep", NULL);
        return;
    }
    if (linked && loader_declared_key(L, name)) {
        diag_add(d, yml_line(k), yml_col(k),
                 "a list of mappings needs an axis name of its own (e.g. 'target'), not the key "
                 "'%s'",
                 name);
        return;
    }
    if (experiment_column(e, name) >= 0 && linked) {
        diag_add(d, yml_line(k), yml_col(k), "axis '%s' is defined twice", name);
        return;
    }
    int ai = e->naxes;
    XGROW(e->axes, e->naxes);
    axis *a = &e->axes[e->naxes++];
    *a = (axis){.name = xstrdup(name), .linked = linked, .line = yml_line(k), .col = yml_col(k)};
    int c = linked ? loader_add_column(L, name, COL_AXIS) : loader_get_column(L, name);
    a->column = c;
    if (claim(L, c, ai, k) < 0)
        return;
    loader_set_rank(L, c, (ai + 1) * 1000);

    if (v->type == YAML_MAPPING_NODE) {
        double before = 1; /* the trials of the axes before this one */
        for (int j = 0; j < ai; j++)
            before *= e->axes[j].nelems > 1 ? e->axes[j].nelems : 1;
        value *vals;
        int n = generated_values(L, name, v, before, &vals);
        for (int i = 0; i < n; i++) {
            /* generated numbers still pass the key's own checks */
            int rk = runkey_index(name);
            if (rk >= 0 && runkeys[rk].check(&vals[i], yml_line(v), yml_col(v), d) < 0) {
                for (int j = i; j < n; j++)
                    value_free(&vals[j]);
                break;
            }
            elem_set(new_elem(a, v), c, vals[i], v);
        }
        if (n > 0)
            free(vals);
        return;
    }
    if (v->type != YAML_SEQUENCE_NODE) {
        diag_add(d, yml_line(v), yml_col(v),
                 "axis '%s' must be a list of values, a list of mappings, or {pow2|range|geom: "
                 "[...]}, not %s",
                 name, yml_kind(v));
        return;
    }
    yaml_node_t **items;
    int n = yml_items(loader_yml(L), (yaml_node_t *)v, &items, d);
    if (n == 0)
        diag_add(d, yml_line(v), yml_col(v), "axis '%s' has no values", name);
    for (int i = 0; i < n; i++) {
        a = &e->axes[ai];
        if (linked) {
            if (!items[i] || items[i]->type != YAML_MAPPING_NODE) {
                diag_add(d, yml_line(items[i]), yml_col(items[i]),
                         "axis '%s': every element must be a mapping, not %s", name,
                         yml_kind(items[i]));
                continue;
            }
            linked_elem(L, a, ai, items[i]);
            continue;
        }
        value x;
        if (loader_key_value(L, name, items[i], &x) < 0)
            continue;
        elem_set(new_elem(a, items[i]), c, x, items[i]);
    }
    free(items);
    /* the same value twice would run the same trials twice; in a linked
     * axis the labels name the elements: they must differ */
    report_twice(L, &e->axes[ai], name, linked);
}

void sweep_parse(loader *L, const yaml_node_t *v)
{
    if (yml_is_null(v))
        return;
    if (v->type != YAML_MAPPING_NODE) {
        diag_add(loader_diags(L), yml_line(v), yml_col(v),
                 "'sweep' must be a mapping of axes (e.g. size: [1, 2, 4]), not %s", yml_kind(v));
        return;
    }
    ypair *p;
    int n = yml_pairs(loader_yml(L), (yaml_node_t *)v, &p, loader_diags(L));
    for (int i = 0; i < n; i++)
        parse_axis(L, p[i].key, p[i].val);
    free(p);
}

/* ---- matches: exclude entries, plot `where` and `baseline` ---------------- */

int match_parse(loader *L, const yaml_node_t *k, const yaml_node_t *v, match *out,
                const char *where)
{
    diags *d = loader_diags(L);
    experiment *e = loader_exp(L);
    *out = (match){0};
    const char *name = yml_text(k);
    int c = experiment_column(e, name);
    if (c < 0) {
        const char **cands = xcalloc((size_t)e->ncols + 1, sizeof *cands);
        for (int i = 0; i < e->ncols; i++)
            cands[i] = e->cols[i].name;
        const char *s = closest_word(name, cands);
        if (s)
            diag_add(d, yml_line(k), yml_col(k), "unknown key '%s' in %s; did you mean '%s'?",
                     name, where, s);
        else
            diag_add(d, yml_line(k), yml_col(k), "unknown key '%s' in %s", name, where);
        free(cands);
        return -1;
    }
    out->column = c;
    int is_axis = e->cols[c].kind == COL_AXIS;
    if (v->type == YAML_MAPPING_NODE) {
        ypair *p;
        int np = yml_pairs(loader_yml(L), (yaml_node_t *)v, &p, d);
        out->kind = MATCH_RANGE;
        int ok = np > 0;
        for (int i = 0; i < np; i++) {
            const char *b = yml_text(p[i].key);
            value x;
            if (strcmp(b, "min") && strcmp(b, "max")) {
                diag_add(d, yml_line(p[i].key), yml_col(p[i].key),
                         "a bound is {min: X}, {max: Y} or {min: X, max: Y}; not '%s'", b);
                ok = 0;
                continue;
            }
            if (scalar_value(p[i].val, &x, b, d) < 0) {
                ok = 0;
                continue;
            }
            if (!value_is_num(&x)) {
                diag_add(d, yml_line(p[i].val), yml_col(p[i].val),
                         "'%s' bound must be a number, not '%s'", b, x.text);
                ok = 0;
            } else if (!strcmp(b, "min")) {
                out->has_min = 1;
                out->min = x.f;
            } else {
                out->has_max = 1;
                out->max = x.f;
            }
            value_free(&x);
        }
        free(p);
        if (np == 0)
            diag_add(d, yml_line(v), yml_col(v), "an empty bound matches nothing: give min or max");
        return ok ? 0 : -1;
    }
    yaml_node_t *single[1] = {(yaml_node_t *)v};
    yaml_node_t **items = single;
    int n = 1, owned = 0;
    if (v->type == YAML_SEQUENCE_NODE) {
        n = yml_items(loader_yml(L), (yaml_node_t *)v, &items, d);
        owned = 1;
        if (n == 0)
            diag_add(d, yml_line(v), yml_col(v), "an empty list matches nothing");
    }
    out->kind = MATCH_VALUES;
    out->vals = xcalloc((size_t)n + 1, sizeof *out->vals);
    int rc = n ? 0 : -1;
    for (int i = 0; i < n; i++) {
        value x;
        int r = is_axis ? scalar_value(items[i], &x, name, d)
                        : loader_key_value(L, name, items[i], &x);
        if (r < 0) {
            rc = -1;
            continue;
        }
        out->vals[out->nvals++] = x;
    }
    if (owned)
        free(items);
    return rc;
}

void exclude_parse(loader *L, const yaml_node_t *v)
{
    diags *d = loader_diags(L);
    experiment *e = loader_exp(L);
    if (yml_is_null(v))
        return;
    if (v->type != YAML_SEQUENCE_NODE) {
        diag_add(d, yml_line(v), yml_col(v),
                 "'exclude' must be a list of mappings (e.g. - {device: cpu, size: {min: "
                 "8192}}), not %s",
                 yml_kind(v));
        return;
    }
    yaml_node_t **items;
    int n = yml_items(loader_yml(L), (yaml_node_t *)v, &items, d);
    e->excl = xcalloc((size_t)n + 1, sizeof *e->excl);
    for (int i = 0; i < n; i++) {
        if (!items[i] || items[i]->type != YAML_MAPPING_NODE) {
            diag_add(d, yml_line(items[i]), yml_col(items[i]),
                     "an exclude entry must be a mapping of keys to values, not %s",
                     yml_kind(items[i]));
            continue;
        }
        ypair *p;
        int np = yml_pairs(loader_yml(L), items[i], &p, d);
        exclude_entry *x = &e->excl[e->nexcl++];
        x->m = xcalloc((size_t)np + 1, sizeof *x->m);
        for (int j = 0; j < np; j++)
            if (match_parse(L, p[j].key, p[j].val, &x->m[x->n], "exclude") == 0)
                x->n++;
            else {
                for (int q = 0; q < x->m[x->n].nvals; q++)
                    value_free(&x->m[x->n].vals[q]);
                free(x->m[x->n].vals);
                x->m[x->n] = (match){0};
            }
        if (np == 0)
            diag_add(d, yml_line(items[i]), yml_col(items[i]),
                     "an empty exclude entry would drop every trial");
        free(p);
    }
    free(items);
}
