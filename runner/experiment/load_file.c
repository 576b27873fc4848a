/* load_file.c - see load_file.h. */
#include "experiment/load_file.h"

#include "experiment/trial.h"
#include "experiment/lua/hookproc.h"
#include "experiment/lua/lua_engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A lua:PATH value: the file loads in the sandbox and returns a table with
 * a run function. */
static void check_lua_value(const experiment *e, const value *v, int line, int col, void *d)
{
    if (v->kind != VAL_STR || strncmp(v->text, "lua:", 4) || !v->text[4])
        return;
    char msg[1024];
    char *path = experiment_path(e, v->text + 4);
    if (access(path, R_OK) == 0 && lua_check_isolated(0, path, msg, sizeof msg) < 0)
        diag_add(d, line, col, "%s", msg);
    free(path);
}

/* The Lua files an experiment names (workload values, hooks), loaded and
 * checked: runs their top level in the sandbox, each in a child process
 * with a time limit (doc/results.md#guarantees: a file that crashes Lua or hangs
 * in a C function gets a message and exit 2), so not for `runner plot`. */
static void experiment_check_lua(const experiment *e, diags *d)
{
    lua_engine_configure(e->dir, NULL, -1); /* require: beside the experiment */
    experiment_each_value(e, experiment_column(e, "workload"), check_lua_value, d);
    if (e->hooks) {
        char msg[1024];
        char *path = experiment_path(e, e->hooks);
        if (lua_check_isolated(1, path, msg, sizeof msg) < 0)
            diag_add(d, e->hooks_line, e->hooks_col, "%s", msg);
        free(path);
    }
}

/* A warning, not an error (issue 16): `threads` above the CPUs this process
 * may use makes the trial's threads share cores, and its times measure the
 * sharing (doc/timing.md#load). */
static void warn_threads(const experiment *e, const char *path, strbuf *w)
{
    int col = experiment_column(e, "threads"), cpus = host_cpus();
    long long most = 0;
    for (long long t = 0; col >= 0 && t < e->ntrials; t++) {
        value v = trial_value(e, t, col);
        if (v.kind == VAL_INT && v.i > most)
            most = v.i;
    }
    if (most > cpus) {
        /* where: the element of a sweep axis that sets it, else the key */
        int line = e->cols[col].line, cc = e->cols[col].col;
        for (int a = 0; a < e->naxes; a++)
            for (int i = 0; i < e->axes[a].nelems; i++)
                for (int j = 0; j < e->axes[a].elems[i].nkv; j++) {
                    const axis_kv *kv = &e->axes[a].elems[i].kv[j];
                    if (kv->column == col && kv->v.kind == VAL_INT && kv->v.i == most &&
                        e->axes[a].elems[i].line > 0) {
                        line = e->axes[a].elems[i].line;
                        cc = e->axes[a].elems[i].col;
                    }
                }
        if (line > 0)
            sb_printf(w, "%s:%d:%d: ", path, line, cc);
        else
            sb_printf(w, "%s: ", path);
        sb_printf(w, "warning: threads %lld is more than the %d CPU%s this process may use: "
                     "the threads will share cores\n",
                  most, cpus, cpus == 1 ? "" : "s");
    }
}

/* A warning, not an error: `repeats: auto` with a `timeout` under stop's
 * max_time cuts a steady trial still sampling as `timeout`
 * (doc/timing.md#adaptive-stopping); said by every command that
 * loads the file, so a run says it before it spends the time. */
static void warn_short_timeouts(const experiment *e, const char *path, strbuf *w)
{
    long long first = 0;
    double to = 0;
    long long k = experiment_short_timeouts(e, &first, &to);
    if (k <= 0)
        return;
    char a[32], b[32];
    fmt_seconds(a, sizeof a, to);
    fmt_seconds(b, sizeof b, e->stop.max_time);
    int col = experiment_column(e, "timeout");
    if (col >= 0 && e->cols[col].line > 0)
        sb_printf(w, "%s:%d:%d: ", path, e->cols[col].line, e->cols[col].col);
    else
        sb_printf(w, "%s: ", path);
    sb_printf(w, "warning: %lld trial%s with repeats: auto (the first: trial %lld) %s timeout %s, "
                 "under stop's max_time %s: a trial still sampling will be cut as timeout; raise "
                 "timeout or lower max_time\n",
              k, k == 1 ? "" : "s", e->ids[first], k == 1 ? "has" : "have", a, b);
}

experiment *experiment_load_file(const char *path, const load_opts *o, diags *d, char *err,
                                 size_t errlen, strbuf *warnings)
{
    err[0] = '\0';
    lua_engine_configure(NULL, NULL, o->allow_unsafe_lua); /* before any Lua runs */
    experiment *e = experiment_load(path, d);
    if (!e)
        return NULL;
    d->file = path;
    experiment_check_lua(e, d);
    if (d->n > 0) {
        experiment_free(e);
        return NULL;
    }
    if (experiment_filter(e, o->filters, o->nfilters, err, errlen) < 0) {
        experiment_free(e);
        return NULL;
    }
    if (o->shard_n > 0)
        experiment_shard(e, o->shard_k, o->shard_n);
    warn_threads(e, path, warnings);
    warn_short_timeouts(e, path, warnings);
    return e;
}
