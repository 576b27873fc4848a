/* cmd_check.c - `runner validate` and `runner --dry-run`: load, expand,
 * print; run nothing. */
#include "cli/commands.h"
#include "experiment/config.h"
#include "lua/hookproc.h"
#include "lua/lua_engine.h"
#include "experiment/table.h"
#include "base/util.h"
#include "exec/trial.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A lua:PATH value: the file loads in the sandbox and returns a table with
 * a run function. */
static void check_lua_value(const experiment *e, const value *v, int line, int col, diags *d)
{
    if (v->kind != VAL_STR || strncmp(v->text, "lua:", 4) || !v->text[4])
        return;
    char path[4096], msg[1024];
    snprintf(path, sizeof path, "%s%s%s", v->text[4] == '/' ? "" : e->dir,
             v->text[4] == '/' ? "" : "/", v->text + 4);
    if (access(path, R_OK) == 0 && lua_check_isolated(0, path, msg, sizeof msg) < 0)
        diag_add(d, line, col, "%s", msg);
}

/* The Lua files an experiment names (workload values, hooks), loaded and
 * checked: runs their top level in the sandbox, each in a child process
 * with a time limit (README "Guarantees": a file that crashes Lua or hangs
 * in a C function gets a message and exit 2), so not for `runner plot`. */
static void experiment_check_lua(const experiment *e, diags *d)
{
    lua_engine_configure(e->dir, NULL, -1); /* require: beside the experiment */
    int wc = experiment_column(e, "workload");
    if (wc >= 0) {
        check_lua_value(e, &e->cols[wc].fixed, e->cols[wc].line, e->cols[wc].col, d);
        for (int a = 0; a < e->naxes; a++)
            for (int j = 0; j < e->axes[a].nelems; j++)
                for (int k = 0; k < e->axes[a].elems[j].nkv; k++)
                    if (e->axes[a].elems[j].kv[k].column == wc)
                        check_lua_value(e, &e->axes[a].elems[j].kv[k].v, e->axes[a].elems[j].line,
                                        e->axes[a].elems[j].col, d);
    }
    if (e->hooks) {
        char path[4096], msg[1024];
        snprintf(path, sizeof path, "%s%s%s", e->hooks[0] == '/' ? "" : e->dir,
                 e->hooks[0] == '/' ? "" : "/", e->hooks);
        if (lua_check_isolated(1, path, msg, sizeof msg) < 0)
            diag_add(d, e->hooks_line, e->hooks_col, "%s", msg);
    }
}

/* Loads and filters one file; prints its errors.  NULL on error. */
/* A warning, not an error (issue 16): `threads` above the CPUs this process
 * may use makes the trial's threads share cores, and its times measure the
 * sharing (README "Measurement quality", Load). */
static void warn_threads(const experiment *e, const char *path)
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
            fprintf(stderr, "%s:%d:%d: ", path, line, cc);
        else
            fprintf(stderr, "%s: ", path);
        fprintf(stderr, "warning: threads %lld is more than the %d CPU%s this process may use: "
                        "the threads will share cores\n",
                most, cpus, cpus == 1 ? "" : "s");
    }
}

experiment *load_for_cli(const cli *c, const char *path)
{
    lua_engine_configure(NULL, NULL, c->allow_unsafe_lua); /* before any Lua runs */
    diags d = {0};
    experiment *e = experiment_load(path, &d);
    if (!e) {
        diag_print(&d, stderr);
        diag_free(&d);
        return NULL;
    }
    d.file = path;
    experiment_check_lua(e, &d);
    if (d.n > 0) {
        diag_print(&d, stderr);
        diag_free(&d);
        experiment_free(e);
        return NULL;
    }
    diag_free(&d);
    char err[512];
    if (experiment_filter(e, c->filters, c->nfilters, err, sizeof err) < 0) {
        fprintf(stderr, "runner: %s: %s\n", path, err);
        experiment_free(e);
        return NULL;
    }
    if (c->shard_n > 0)
        experiment_shard(e, c->shard_k, c->shard_n);
    warn_threads(e, path);
    return e;
}

int cmd_validate(const cli *c)
{
    int rc = EXIT_OK;
    for (int i = 0; i < c->nfiles; i++) {
        experiment *e = load_for_cli(c, c->files[i]);
        if (!e) {
            rc = EXIT_INVALID;
            continue;
        }
        printf("%s: %lld trial%s\n", c->files[i], e->ntrials, e->ntrials == 1 ? "" : "s");
        long long first = 0;
        double to = 0;
        long long k = experiment_short_timeouts(e, &first, &to);
        if (k > 0) {
            char a[32], b[32];
            fmt_seconds(a, sizeof a, to);
            fmt_seconds(b, sizeof b, e->stop.max_time);
            fprintf(stderr,
                    "runner: warning: %s: %lld trial%s with repeats: auto (the first: trial "
                    "%lld) %s timeout %s, under stop's max_time %s: a trial still sampling "
                    "will be cut as timeout; raise timeout or lower max_time\n",
                    c->files[i], k, k == 1 ? "" : "s", e->ids[first], k == 1 ? "has" : "have",
                    a, b);
        }
        experiment_free(e);
    }
    return rc;
}

int cmd_dryrun(const cli *c)
{
    experiment **es = calloc((size_t)c->nfiles, sizeof *es);
    int rc = EXIT_OK;
    for (int i = 0; i < c->nfiles; i++)
        if (!(es[i] = load_for_cli(c, c->files[i])))
            rc = EXIT_INVALID;
    for (int i = 0; rc == EXIT_OK && i < c->nfiles; i++) {
        strbuf b = {0};
        table_header(es[i], &b);
        sb_putc(&b, '\n');
        fputs(b.s, stdout);
        for (long long t = 0; t < es[i]->ntrials; t++) {
            b.len = 0;
            table_keys(es[i], t, &b);
            sb_putc(&b, '\n');
            fwrite(b.s, 1, b.len, stdout);
        }
        sb_free(&b);
    }
    for (int i = 0; i < c->nfiles; i++)
        experiment_free(es[i]);
    free(es);
    if (fflush(stdout) != 0)
        rc = EXIT_INVALID;
    return rc;
}
