/* yml.h - a libyaml document with the few things the loader needs on top:
 * 1-based positions, merge keys (<<), duplicate-key detection, and a budget
 * on node visits and depth so that alias bombs and cycles fail fast; loaded
 * in time linear in the file's size (yml_compose.h). */
#ifndef RUNNER_YML_H
#define RUNNER_YML_H
/* internal header of runner/experiment/: other folders may not include it */

#include "base/diag.h"

#include <yaml.h>

typedef struct yml {
    yaml_document_t doc;
    int loaded;
    long budget; /* node visits allowed in all */
    long visits; /* node visits left before the document is "too complex" */
    int exhausted;
    int too_deep; /* merge nesting reported once */
} yml;

typedef struct ypair {
    yaml_node_t *key, *val;
} ypair;

/* Parses `text`; on a syntax error adds a diagnostic and returns -1. */
int yml_load(yml *y, const char *text, size_t len, diags *d);
void yml_free(yml *y);
yaml_node_t *yml_root(yml *y);

static inline int yml_line(const yaml_node_t *n)
{
    return (int)n->start_mark.line + 1;
}
static inline int yml_col(const yaml_node_t *n)
{
    return (int)n->start_mark.column + 1;
}

const char *yml_kind(const yaml_node_t *n); /* "a mapping", "a list", ... */
int yml_is_scalar(const yaml_node_t *n);
const char *yml_text(const yaml_node_t *n); /* scalar text, or "" */
int yml_is_plain(const yaml_node_t *n);     /* unquoted scalar */
int yml_is_null(const yaml_node_t *n);

/* The (key, value) pairs of a mapping, merge keys flattened (explicit keys
 * win, then merged mappings in order).  Keys must be scalars; duplicates and
 * bad merges are reported.  Returns the count; *out is malloc'd. */
int yml_pairs(yml *y, yaml_node_t *map, ypair **out, diags *d);

/* Items of a sequence (NULL-safe); counts against the visit budget. */
int yml_items(yml *y, yaml_node_t *seq, yaml_node_t ***out, diags *d);

/* Charges one node visit; 0 once the budget is spent (diagnostic added once). */
int yml_visit(yml *y, const yaml_node_t *at, diags *d);

#endif
