/* trace_target.c - see trace_target.h.  A file is compared by identity
 * (device and inode), so another spelling of its path, a symbolic or a hard
 * link, is the same file. */
#include "cli/trace_target.h"

#include "base/util.h"
#include "results/rundir/rundir.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int same_file(const struct stat *a, const char *path)
{
    struct stat b;
    return stat(path, &b) == 0 && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

/* a value that may name a file: relative ones are taken beside the experiment file */
static int names_file(const struct stat *t, const experiment *e, const value *v)
{
    if (v->kind != VAL_STR || !*v->text)
        return 0;
    const char *p = strncmp(v->text, "lua:", 4) ? v->text : v->text + 4;
    char *full = p[0] == '/' ? xstrdup(p) : xasprintf("%s/%s", e->dir ? e->dir : ".", p);
    int same = same_file(t, full);
    free(full);
    return same;
}

static const char *input_of(const struct stat *t, const experiment *e)
{
    if (same_file(t, e->path))
        return "the experiment file";
    if (e->hooks && names_file(t, e, &(value){.kind = VAL_STR, .text = e->hooks}))
        return "its hooks file";
    for (int c = 0; c < e->ncols; c++)
        if (names_file(t, e, &e->cols[c].fixed))
            return "a file its values name";
    for (int a = 0; a < e->naxes; a++)
        for (int j = 0; j < e->axes[a].nelems; j++)
            for (int k = 0; k < e->axes[a].elems[j].nkv; k++)
                if (names_file(t, e, &e->axes[a].elems[j].kv[k].v))
                    return "a file its values name";
    return NULL;
}

/* 1 when dir is a run folder, its plots/ folder, or the --run-dir folder */
static int in_run_folder(const char *dir, const char *run_dir)
{
    char real[PATH_MAX], rd[PATH_MAX];
    if (!realpath(dir, real))
        return 0;
    if (run_dir && realpath(run_dir, rd) && !strcmp(real, rd))
        return 1;
    if (rundir_is_run(real))
        return 1;
    char *up = xstrdup(real);
    int r = !strcmp(basename(real), "plots") && rundir_is_run(dirname(up));
    free(up);
    return r;
}

int trace_target_check(const char *path, experiment *const *es, int n, const char *run_dir,
                       char *err, size_t errlen)
{
    struct stat t;
    if (stat(path, &t) == 0)
        for (int i = 0; i < n; i++) {
            const char *what = es[i] ? input_of(&t, es[i]) : NULL;
            if (what) {
                snprintf(err, errlen,
                         "--trace %s is %s of %s, an input of the run: the timeline would "
                         "overwrite it; give another file",
                         path, what, es[i]->path);
                return -1;
            }
        }
    char *copy = xstrdup(path);
    int inside = in_run_folder(dirname(copy), run_dir);
    free(copy);
    if (inside) {
        snprintf(err, errlen,
                 "--trace %s is in a run folder, whose files are the run's results; give a file "
                 "outside it",
                 path);
        return -1;
    }
    return 0;
}
