/* config_internal.h - what config.c shares with sweep.c and plots_config.c. */
#ifndef RUNNER_CONFIG_INTERNAL_H
#define RUNNER_CONFIG_INTERNAL_H

#include "config.h"
#include "yml.h"

typedef struct loader loader;

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
void loader_unknown_key(loader *L, const yaml_node_t *k, const char *where);
/* 1 when a workload of the file may add the column `name` to trials.csv:
 * one its registry entry declares (workload_desc.extras), or any when the
 * file runs a Lua workload */
int loader_extra_column(loader *L, const char *name);
void loader_set_rank(loader *L, int c, int rank);

/* KEY: value | [values] | {min: X, max: Y}; `k` must name a column. */
int match_parse(loader *L, const yaml_node_t *k, const yaml_node_t *v, match *out,
                const char *where);
int match_trial(const experiment *e, long long t, const match *m);

#endif
