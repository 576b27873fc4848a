/* load.c - see load.h. */
#include "cli/load.h"

#include "results/rundir/rundir.h"

#include <stdio.h>

load_opts cli_load_opts(const cli *c)
{
    return (load_opts){.filters = c->filters, .nfilters = c->nfilters, .shard_k = c->shard_k,
                       .shard_n = c->shard_n, .allow_unsafe_lua = c->allow_unsafe_lua};
}

experiment *load_experiment(const char *path, const load_opts *o)
{
    diags d = {0};
    char err[512];
    strbuf warnings = {0};
    experiment *e = experiment_load_file(path, o, &d, err, sizeof err, &warnings);
    if (!e) {
        diag_print(&d, stderr);
        if (err[0])
            fprintf(stderr, "runner: %s: %s\n", path, err);
    }
    if (warnings.len)
        fputs(warnings.s, stderr);
    diag_free(&d);
    sb_free(&warnings);
    return e;
}

int resolve_runs(const char *arg, char ***runs, int *nruns)
{
    char err[8192];
    if (rundir_find_runs(arg, runs, nruns, err, sizeof err) < 0) {
        fprintf(stderr, "runner: %s\n", err);
        return -1;
    }
    return 0;
}

void free_runs(char **runs, int n)
{
    rundir_free_runs(runs, n);
}
