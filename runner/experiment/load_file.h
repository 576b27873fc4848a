/* load_file.h - an experiment file as the commands take it
 * (doc/experiment-file.md#the-experiment-file, "Errors"): loaded and expanded (config.h), the Lua
 * files it names loaded and checked in the sandbox, each in a child process
 * with a time limit (doc/results.md#guarantees: a file that crashes Lua or hangs
 * gets a message and exit 2), its trials filtered by --filter and cut to
 * one --shard.  Library code: errors and warnings come back to the caller. */
#ifndef RUNNER_LOAD_FILE_H
#define RUNNER_LOAD_FILE_H
/* public header of runner/experiment/ */

#include "base/diag.h"
#include "base/util.h"
#include "experiment/config.h"

#include <stddef.h>

typedef struct load_opts {
    char **filters; /* --filter KEY=GLOB */
    int nfilters;
    int shard_k, shard_n; /* --shard K/N (shard_n 0: none) */
    int allow_unsafe_lua; /* Lua's full standard library (doc/lua.md#the-sandbox) */
} load_opts;

/* The experiment in `path`, or NULL: then the errors are in d (d->file is
 * path: diag_print writes them FILE:LINE:COL), or, when no trial passes
 * the filters, the reason is in err.  warnings gets lines to show either
 * way ("PATH:LINE:COL: warning: ...": a trial asks for more threads than
 * the CPUs this process may use, which then share cores; doc/timing.md#load). */
experiment *experiment_load_file(const char *path, const load_opts *o, diags *d, char *err,
                                 size_t errlen, strbuf *warnings);

#endif
