/* plugin.h - `workload: plugin:PATH:NAME`, a user's shared library built
 * against include/runner/workload.h (doc/own-code-plugins.md).  The runner
 * process checks the spec's form and that PATH exists, and loads nothing;
 * a worker loads the library and finds NAME in it. */
#ifndef RUNNER_PLUGIN_H
#define RUNNER_PLUGIN_H
/* public header of runner/experiment/registry/ */

#include "backend.h"

#include <stddef.h>

/* 1 when a workload value names a plugin ("plugin:..."). */
int plugin_is_spec(const char *workload);

/* Splits "plugin:PATH:NAME" (NAME after the last ':').  0, or -1 with
 * `why` saying what is malformed (for a file:line:col error).  path or name
 * may be NULL when not wanted. */
int plugin_spec_parse(const char *spec, char *path, size_t plen, char *name, size_t nlen,
                      char *why, size_t wlen);

/* The library of a well-formed spec, PATH relative to `dir` (the experiment
 * file's folder) unless absolute, as a regular file: 0, or -1 with why
 * ("plugin library 'x.so' not found").  A malformed spec: 0 (its form is
 * reported by plugin_spec_parse's caller). */
int plugin_file_check(const char *spec, const char *dir, char *why, size_t len);

/* What plugin_workload found. */
enum { PLUGIN_OK = 0, PLUGIN_FAIL = 1, PLUGIN_SKIP = 2 };

/* In a worker: loads the library of spec (once per process; it stays
 * loaded) and returns the workload NAME through *impl.  PLUGIN_OK;
 * PLUGIN_SKIP when it cannot run here (the library does not load, exports
 * no runner_plugin, was built for another interface version, or its
 * workload lacks a required function): why names what; PLUGIN_FAIL when the
 * library has no workload NAME (why lists the ones it has). */
int plugin_workload(const char *spec, const char *dir, const rn_workload_impl **impl, char *why,
                    size_t len);

#endif
