/* run_experiment.c - see rundir.h: the experiment a run folder holds (the
 * copy of its file), for redrawing charts and writing reports from saved
 * results. */
#include "results/rundir/rundir.h"

#include "base/util.h"
#include "experiment/config.h"

#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The files an experiment names but that are absent ("hooks file 'X' not
 * found", "Lua workload file 'X' not found", a command's "script 'X' not
 * found" and "program './X' not found", a "plugin library 'X' not found"),
 * as relative paths. */
static int missing_files(const diags *d, char **out, int max)
{
    static const char *const what[] = {"file '", "script '", "library '", "program '"};
    int n = 0;
    for (int i = 0; i < d->n && n < max; i++) {
        const char *msg = d->items[i].msg, *a = NULL;
        size_t w = 0;
        for (size_t k = 0; k < sizeof what / sizeof what[0] && !a; k++)
            if ((a = strstr(msg, what[k])))
                w = strlen(what[k]);
        const char *z = a ? strstr(a + w, "' not found") : NULL;
        if (!a || !z || z == a + w)
            continue;
        char *name = xasprintf("%.*s", (int)(z - a - w), a + w);
        if (name[0] == '/' || strstr(name, "..")) {
            free(name);
            for (int k = 0; k < n; k++)
                free(out[k]);
            return -1; /* cannot stand in for it */
        }
        out[n++] = name;
    }
    return n;
}

/* Parses the text with empty stand-ins for the files it names (a chart
 * needs none of them), in a scratch folder removed afterwards. */
static experiment *parse_with_stand_ins(const char *text, size_t len, const diags *d0)
{
    char *names[16];
    int nn = missing_files(d0, names, 16);
    if (nn <= 0)
        return NULL;
    char tmpl[] = "/tmp/runner-plot-XXXXXX";
    char *made[64];
    int nmade = 0;
    experiment *e = NULL;
    if (mkdtemp(tmpl)) {
        for (int i = 0; i < nn; i++) {
            char *p = xasprintf("%s/%s", tmpl, names[i]);
            for (char *s = p + strlen(tmpl) + 1; *s; s++) {
                if (*s != '/')
                    continue;
                *s = '\0';
                if (mkdir(p, 0700) == 0 && nmade < 63)
                    made[nmade++] = xstrdup(p);
                *s = '/';
            }
            FILE *f = fopen(p, "wx");
            if (f) {
                fclose(f);
                chmod(p, 0700); /* a program must be executable */
                if (nmade < 63)
                    made[nmade++] = xstrdup(p);
            }
            free(p);
        }
        char *path = rundir_path(tmpl, RD_EXPERIMENT);
        diags d = {0};
        e = experiment_parse(path, text, len, &d);
        diag_free(&d);
        free(path);
        for (int i = nmade - 1; i >= 0; i--) {
            remove(made[i]);
            free(made[i]);
        }
        rmdir(tmpl);
    }
    for (int i = 0; i < nn; i++)
        free(names[i]);
    return e;
}


experiment *rundir_read_experiment(const char *run_dir, char *note, size_t notelen)
{
    if (note && notelen)
        note[0] = '\0';
    char *path = rundir_path(run_dir, RD_EXPERIMENT);
    diags d = {0};
    experiment *e = experiment_load(path, &d);
    if (!e && d.n > 0 && note && notelen) {
        const diag_item *it = &d.items[0];
        if (it->line > 0)
            snprintf(note, notelen, "%s:%d:%d: %s", path, it->line, it->col, it->msg);
        else
            snprintf(note, notelen, "%s: %s", path, it->msg);
    }
    size_t len = 0;
    char *text = e ? NULL : read_file(path, &len);
    if (text) {
        /* the files it names may sit next to the original file ... */
        char *orig = rundir_meta_experiment(run_dir, "path");
        if (orig) {
            diags d2 = {0};
            e = experiment_parse(orig, text, len, &d2);
            diag_free(&d2);
        }
        free(orig);
        /* ... or nowhere: the charts need none of them */
        if (!e)
            e = parse_with_stand_ins(text, len, &d);
    }
    free(text);
    diag_free(&d);
    free(path);
    if (e && note && notelen)
        note[0] = '\0';
    return e;
}
