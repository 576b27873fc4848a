/* cmd_check.c - `runner validate` and `runner --dry-run`: load, expand,
 * print; run nothing. */
#include "commands.h"
#include "config.h"
#include "table.h"

#include <stdio.h>
#include <stdlib.h>

/* Loads and filters one file; prints its errors.  NULL on error. */
experiment *load_for_cli(const cli *c, const char *path)
{
    diags d = {0};
    experiment *e = experiment_load(path, &d);
    if (!e) {
        diag_print(&d, stderr);
        diag_free(&d);
        return NULL;
    }
    diag_free(&d);
    char err[512];
    if (experiment_filter(e, c->filters, c->nfilters, err, sizeof err) < 0) {
        fprintf(stderr, "runner: %s\n", err);
        experiment_free(e);
        return NULL;
    }
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
