/* yml.c - see yml.h. */
#include "experiment/yml.h"

#include "base/util.h"
#include "experiment/yml_compose.h"

#include <search.h>
#include <stdlib.h>
#include <string.h>

/* Generous for any real experiment, small enough that an alias bomb
 * (a billion laughs) stops in milliseconds.  A large document gets
 * YML_VISITS_PER_NODE more per node (the loader walks a sweep twice), so
 * that a plain list of 999,999 values is not mistaken for a bomb, while a
 * bomb padded to the node limit still stops in about a second
 * (doc/experiment-file.md#errors). */
#ifndef YML_VISIT_BUDGET /* the fuzzers build with less (Makefile FUZZ_DEFS) */
#define YML_VISIT_BUDGET 1000000L
#endif
#define YML_VISITS_PER_NODE 2L
#define YML_MAX_DIRECTIVES 64
#define YML_MAX_MERGE_DEPTH 32

/* Where to point at a syntax error: reader errors (bad UTF-8) carry a byte
 * offset; an unclosed quote or bracket is best shown where it opened. */
static void syntax_position(const yaml_parser_t *p, const char *text, size_t len, int *line,
                            int *col)
{
    if (p->error == YAML_READER_ERROR) {
        size_t off = p->problem_offset < len ? p->problem_offset : len;
        *line = 1;
        *col = 1;
        for (size_t i = 0; i < off; i++) {
            if (text[i] == '\n') {
                ++*line;
                *col = 1;
            } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
                ++*col;
            }
        }
        return;
    }
    const yaml_mark_t *m = &p->problem_mark;
    if (p->context && (strstr(p->context, "quoted scalar") || strstr(p->context, "flow sequence") ||
                       strstr(p->context, "flow mapping")))
        m = &p->context_mark;
    else if (!p->problem)
        m = &p->context_mark;
    *line = (int)m->line + 1;
    *col = (int)m->column + 1;
}

/* libyaml checks each %TAG directive against every one before it, so
 * 50,000 of them took 38 s; a line that starts with '%' is a directive to
 * its scanner (inside a multi-line scalar aside), and an experiment file
 * needs none (doc/experiment-file.md#errors). */
static int too_many_directives(const char *text, size_t len, diags *d)
{
    int n = 0, line = 1;
    for (size_t i = 0; i < len; i++) {
        if ((i == 0 || text[i - 1] == '\n') && text[i] == '%' && ++n > YML_MAX_DIRECTIVES) {
            diag_add(d, line, 1, "more than %d YAML directives ('%%' lines)", YML_MAX_DIRECTIVES);
            return 1;
        }
        line += text[i] == '\n';
    }
    return 0;
}

static void syntax_error(const yaml_parser_t *p, const char *text, size_t len, diags *d)
{
    int line, col;
    syntax_position(p, text, len, &line, &col);
    const char *hint = "";
    if (p->problem && strstr(p->problem, "cannot start any token") &&
        p->problem_mark.index < len && text[p->problem_mark.index] == '\t')
        hint = " (a tab: YAML indents with spaces only)";
    diag_add(d, line, col, "YAML syntax: %s%s%s%s", p->problem ? p->problem : "invalid document",
             hint, p->context ? " " : "", p->context ? p->context : "");
}

int yml_load(yml *y, const char *text, size_t len, diags *d)
{
    memset(y, 0, sizeof *y);
    if (too_many_directives(text, len, d))
        return -1;
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p)) {
        diag_add(d, 0, 0, "cannot initialise the YAML parser");
        return -1;
    }
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    int rc = yml_compose(&p, &y->doc, d);
    if (rc < 0) {
        if (rc == -1)
            syntax_error(&p, text, len, d);
        yaml_parser_delete(&p);
        return -1;
    }
    y->loaded = 1;
    /* Aliases may expand a document far beyond its size (a billion laughs);
     * a document walked a few times over is not that. */
    long nodes = (long)(y->doc.nodes.top - y->doc.nodes.start);
    y->budget = YML_VISIT_BUDGET + YML_VISITS_PER_NODE * nodes;
    y->visits = y->budget;
    /* A second document in the same file is almost always a mistake. */
    yaml_document_t extra;
    rc = rc ? yml_compose(&p, &extra, d) : 0;
    if (rc > 0) {
        yaml_node_t *r = yaml_document_get_root_node(&extra);
        if (r)
            diag_add(d, yml_line(r), yml_col(r),
                     "a second YAML document ('---'); an experiment file holds one");
        yaml_document_delete(&extra);
    } else if (rc == -1) {
        const yaml_mark_t *m = &p.problem_mark;
        diag_add(d, (int)m->line + 1, (int)m->column + 1, "YAML syntax: %s",
                 p.problem ? p.problem : "invalid document");
    }
    yaml_parser_delete(&p);
    return d->n ? -1 : 0;
}

void yml_free(yml *y)
{
    if (y->loaded)
        yaml_document_delete(&y->doc);
    y->loaded = 0;
}

yaml_node_t *yml_root(yml *y)
{
    return y->loaded ? yaml_document_get_root_node(&y->doc) : NULL;
}

const char *yml_kind(const yaml_node_t *n)
{
    if (!n)
        return "nothing";
    switch (n->type) {
    case YAML_MAPPING_NODE:
        return "a mapping";
    case YAML_SEQUENCE_NODE:
        return "a list";
    case YAML_SCALAR_NODE:
        return yml_is_null(n) ? "null" : "a scalar";
    default:
        return "nothing";
    }
}

int yml_is_scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE;
}

const char *yml_text(const yaml_node_t *n)
{
    return yml_is_scalar(n) ? (const char *)n->data.scalar.value : "";
}

int yml_is_plain(const yaml_node_t *n)
{
    return yml_is_scalar(n) && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

int yml_is_null(const yaml_node_t *n)
{
    if (!yml_is_plain(n))
        return 0;
    const char *s = yml_text(n);
    return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
           !strcmp(s, "NULL");
}

int yml_visit(yml *y, const yaml_node_t *at, diags *d)
{
    (void)at;
    (void)d;
    if (y->visits-- > 0)
        return 1;
    y->exhausted = 1; /* reported by the outermost yml_pairs / yml_items */
    return 0;
}

/* Reports a spent budget once, at the node whose expansion spent it. */
static int spent_here(yml *y, int before, const yaml_node_t *at, diags *d)
{
    if (before || !y->exhausted)
        return 0;
    diag_add(d, yml_line(at), yml_col(at),
             "document too complex: aliases expand to more than %ld nodes", y->budget);
    return 1;
}

/* The pairs gathered so far, with a tree of their keys once there are
 * TREE_FROM of them: a mapping of 100,000 keys took a minute when each key
 * was compared with every one before it, while the small mappings that a
 * merge-key bomb gathers by the million are quicker scanned. */
#define TREE_FROM 16
typedef struct pairlist {
    ypair *v;
    int n, cap;
    void *keys; /* tsearch tree of the key nodes, by text; NULL below TREE_FROM */
} pairlist;

static int by_text(const void *a, const void *b)
{
    return strcmp(yml_text(a), yml_text(b));
}

/* The key node already there with k's text, or NULL. */
static const yaml_node_t *find_key(const pairlist *l, const yaml_node_t *k)
{
    if (l->n < TREE_FROM) {
        for (int i = 0; i < l->n; i++)
            if (!strcmp(yml_text(l->v[i].key), yml_text(k)))
                return l->v[i].key;
        return NULL;
    }
    void *const *at = tfind(k, &l->keys, by_text);
    return at ? *at : NULL;
}

static void index_key(pairlist *l, const yaml_node_t *k)
{
    if (!tsearch(k, &l->keys, by_text))
        abort(); /* out of memory: as xmalloc does */
}

static void push(pairlist *l, yaml_node_t *k, yaml_node_t *v)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 8;
        l->v = xrealloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    l->v[l->n++] = (ypair){k, v};
    if (l->n == TREE_FROM)
        for (int i = 0; i < l->n; i++)
            index_key(l, l->v[i].key);
    else if (l->n > TREE_FROM)
        index_key(l, k);
}

static void no_free(void *p)
{
    (void)p;
}

static void collect(yml *y, yaml_node_t *map, pairlist *out, int explicit_only_dups,
                    int depth, diags *d);

/* Keys of a merged mapping join only where the key is not already there. */
static void merge_from(yml *y, yaml_node_t *src, yaml_node_t *at, pairlist *out, int depth,
                       diags *d)
{
    /* every merge is charged: cyclic merges must not bounce for free */
    if (!yml_visit(y, at, d))
        return;
    if (depth > YML_MAX_MERGE_DEPTH) {
        if (!y->too_deep)
            diag_add(d, yml_line(at), yml_col(at), "merge keys nested too deeply (or cyclic)");
        y->too_deep = 1;
        return;
    }
    if (!src || src->type != YAML_MAPPING_NODE) {
        diag_add(d, yml_line(at), yml_col(at), "'<<' merges a mapping or a list of mappings, not %s",
                 yml_kind(src));
        return;
    }
    pairlist tmp = {0};
    collect(y, src, &tmp, 0, depth + 1, d);
    for (int i = 0; i < tmp.n; i++)
        if (!find_key(out, tmp.v[i].key))
            push(out, tmp.v[i].key, tmp.v[i].val);
    free(tmp.v);
    tdestroy(tmp.keys, no_free);
}

static void collect(yml *y, yaml_node_t *map, pairlist *out, int report_dups, int depth,
                    diags *d)
{
    yaml_node_t *merges[64];
    int nmerge = 0;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = yaml_document_get_node(&y->doc, p->key);
        yaml_node_t *v = yaml_document_get_node(&y->doc, p->value);
        if (!yml_visit(y, k, d))
            return;
        if (!yml_is_scalar(k)) {
            diag_add(d, yml_line(k), yml_col(k), "a key must be a plain word, not %s",
                     yml_kind(k));
            continue;
        }
        if (strlen(yml_text(k)) != k->data.scalar.length) {
            diag_add(d, yml_line(k), yml_col(k), "a key contains a NUL byte");
            continue;
        }
        if (yml_is_plain(k) && !strcmp(yml_text(k), "<<")) {
            if (nmerge < 64)
                merges[nmerge++] = v;
            continue;
        }
        const yaml_node_t *first = find_key(out, k);
        if (first) {
            if (report_dups)
                diag_add(d, yml_line(k), yml_col(k), "duplicate key '%s' (first at line %d)",
                         yml_text(k), yml_line(first));
            continue;
        }
        push(out, k, v);
    }
    /* Explicit keys were placed first, so merged ones never override them. */
    for (int m = 0; m < nmerge; m++) {
        yaml_node_t *v = merges[m];
        if (v && v->type == YAML_SEQUENCE_NODE) {
            for (yaml_node_item_t *it = v->data.sequence.items.start;
                 it < v->data.sequence.items.top; it++) {
                yaml_node_t *src = yaml_document_get_node(&y->doc, *it);
                if (!yml_visit(y, src, d))
                    return;
                merge_from(y, src, src ? src : v, out, depth, d);
            }
        } else {
            merge_from(y, v, v, out, depth, d);
        }
    }
}

int yml_pairs(yml *y, yaml_node_t *map, ypair **out, diags *d)
{
    pairlist l = {0};
    int before = y->exhausted;
    if (map && map->type == YAML_MAPPING_NODE && !before && yml_visit(y, map, d))
        collect(y, map, &l, 1, 0, d);
    if (y->exhausted) {
        spent_here(y, before, map, d);
        l.n = 0; /* whatever was gathered is not the document */
    }
    tdestroy(l.keys, no_free);
    *out = l.v;
    return l.n;
}

int yml_items(yml *y, yaml_node_t *seq, yaml_node_t ***out, diags *d)
{
    *out = NULL;
    int before = y->exhausted;
    if (!seq || seq->type != YAML_SEQUENCE_NODE || before || !yml_visit(y, seq, d)) {
        spent_here(y, before, seq, d);
        return 0;
    }
    int n = (int)(seq->data.sequence.items.top - seq->data.sequence.items.start);
    yaml_node_t **v = xcalloc((size_t)n + 1, sizeof *v);
    int k = 0;
    for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top;
         it++) {
        if (!yml_visit(y, seq, d))
            break;
        v[k++] = yaml_document_get_node(&y->doc, *it);
    }
    if (spent_here(y, before, seq, d))
        k = 0;
    *out = v;
    return k;
}
