/* plugin_template.h - the files `runner new workload NAME [--cuda]` writes: a
 * plugin that builds with `pkg-config runner` and runs as written
 * (doc/own-code-plugins.md#runner-new-workload): NAME.c, with --cuda NAME.cu
 * and NAME.h (its CUDA half), a Makefile and NAME.yaml, which sweeps it. */
#ifndef RUNNER_PLUGIN_TEMPLATE_H
#define RUNNER_PLUGIN_TEMPLATE_H
/* public header of runner/experiment/registry/ */

#define PLUGIN_TEMPLATE_MAX 5

typedef struct plugin_file {
    char *name; /* "NAME.c", "Makefile", ... (no folder) */
    char *text;
} plugin_file;

/* 1 when NAME may name a new plugin's workload: a C identifier of at most
 * 64 characters (its functions are named after it). */
int plugin_name_ok(const char *name);

/* Fills out[] with the files of a plugin NAME (plugin_name_ok), its CUDA
 * half too when cuda is set; returns how many (malloc'd; see
 * plugin_template_free).  Its Makefile runs the runner as `runner` (a
 * command or a path from the plugin's folder) and looks for runner.pc (or
 * runner-uninstalled.pc) in the folder pc_dir first ("" or NULL: on
 * pkg-config's own path alone). */
int plugin_template(const char *name, int cuda, const char *runner, const char *pc_dir,
                    plugin_file out[PLUGIN_TEMPLATE_MAX]);
void plugin_template_free(plugin_file *f, int n);

#endif
