/* loader.h - one experiment file being read: what config.c (top-level keys),
 * sweep.c (axes, exclude) and plots_config.c (plot specs) share.  Internal to
 * runner/experiment/. */
#ifndef RUNNER_LOADER_H
#define RUNNER_LOADER_H
/* internal header of runner/experiment/: other folders may not include it */

#include "experiment/experiment.h"
#include "experiment/yml.h"
#include "experiment/registry/workloads.h"

typedef struct loader {
    yml y;
    diags *d;
    experiment *e;
    const workload_desc *wl[64]; /* workloads this file can run */
    int nwl;
    int any_lua; /* a lua: or plugin: workload: any parameter, any extra column */
    int order; /* creation order of columns, for sorting */
    int *rank;
} loader;

/* Notes the workloads that the file's `workload` keys name (top level, sweep). */
void loader_scan_workloads(loader *L, ypair *top, int ntop);
/* The column named `name`, created (as a run key or a parameter) when new. */
int loader_get_column(loader *L, const char *name);
const param_spec *loader_find_param(loader *L, const char *name);
int loader_is_known_param(loader *L, const char *name);
/* 1 when a workload of the file may add the column `name` to the trials
 * table: one its registry entry declares (workload_desc.extras), or any
 * when the file runs a Lua workload */
int loader_extra_column(loader *L, const char *name);
/* "unknown key", with a did-you-mean from cands (NULL: the known keys). */
void loader_unknown_key(loader *L, const yaml_node_t *k, const char *where,
                        const char *const *cands);
/* A top-level (or params) setting of key k. */
void loader_set_fixed(loader *L, const yaml_node_t *k, const yaml_node_t *v);

yml *loader_yml(loader *L);
diags *loader_diags(loader *L);
experiment *loader_exp(loader *L);
int loader_key_value(loader *L, const char *name, const yaml_node_t *n, value *out);
int loader_get_column(loader *L, const char *name);
int loader_add_column(loader *L, const char *name, col_kind kind);
int loader_known_key(loader *L, const char *name);
/* a run key or a parameter a built-in workload declares (not "any", as
 * Lua workloads make every name acceptable as a parameter) */
int loader_declared_key(loader *L, const char *name);
void loader_set_rank(loader *L, int c, int rank);


#endif
