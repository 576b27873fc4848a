/* cmd_check.c - `runner validate` and `runner --dry-run`: load, expand,
 * print; run nothing. */
#include "cli/commands.h"
#include "cli/load.h"
#include "experiment/config.h"
#include "experiment/table.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>

int cmd_validate(const cli *c)
{
    int rc = EXIT_OK;
    load_opts o = cli_load_opts(c);
    for (int i = 0; i < c->nfiles; i++) {
        experiment *e = load_experiment(c->files[i], &o);
        if (!e) {
            rc = EXIT_INVALID;
            continue;
        }
        printf("%s: %lld trial%s\n", c->files[i], e->ntrials, e->ntrials == 1 ? "" : "s");
        experiment_free(e);
    }
    return rc;
}

int cmd_dryrun(const cli *c)
{
    experiment **es = calloc((size_t)c->nfiles, sizeof *es);
    int rc = EXIT_OK;
    load_opts o = cli_load_opts(c);
    for (int i = 0; i < c->nfiles; i++)
        if (!(es[i] = load_experiment(c->files[i], &o)))
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
