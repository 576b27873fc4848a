/* find.c - see rundir.h: the run folders a RUN_DIR argument stands for. */
#include "results/rundir/rundir.h"

#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *rundir_resolve_named(const char *arg)
{
    char *dir = rundir_resolve(arg);
    if (!dir || rundir_is_run(arg))
        return dir;
    /* arg/latest: name the run itself, latest -> <run-id> */
    char target[256];
    ssize_t n = readlink(dir, target, sizeof target - 1);
    if (n > 0 && !memchr(target, '/', (size_t)n)) {
        target[n] = '\0';
        free(dir);
        dir = xasprintf("%s/%s", arg, target);
    }
    return dir;
}

static void add(char ***v, int *n, char *s)
{
    XGROW(*v, *n);
    (*v)[(*n)++] = s;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int rundir_find_runs(const char *arg, char ***runs, int *nruns, char *err, size_t len)
{
    struct stat st;
    if (stat(arg, &st) < 0) {
        snprintf(err, len, "%s: %s (give a run folder, such as results/NAME/latest)", arg,
                 strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, len, "%s: not a folder (give a run folder, which holds %s)", arg,
                 rundir_name(RD_TRIALS));
        return -1;
    }
    if (rundir_is_run(arg)) {
        add(runs, nruns, xstrdup(arg));
        return 0;
    }
    char *latest = rundir_path(arg, RD_LATEST);
    if (rundir_is_run(latest)) {
        add(runs, nruns, latest);
        return 0;
    }
    free(latest);
    DIR *d = opendir(arg);
    if (!d) {
        snprintf(err, len, "%s: %s", arg, strerror(errno));
        return -1;
    }
    char **found = NULL;
    int nf = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char *l = xasprintf("%s%s%s/%s", arg, arg[strlen(arg) - 1] == '/' ? "" : "/", de->d_name,
                            rundir_name(RD_LATEST));
        if (rundir_is_run(l))
            add(&found, &nf, l);
        else
            free(l);
    }
    closedir(d);
    if (nf == 0) {
        snprintf(err, len,
                 "%s: no %s here, and no %s/latest or %s/<experiment>/latest run below it", arg,
                 rundir_name(RD_TRIALS), arg, arg);
        free(found);
        return -1;
    }
    xqsort(found, (size_t)nf, sizeof *found, cmp_str);
    for (int i = 0; i < nf; i++)
        add(runs, nruns, found[i]);
    free(found);
    return 0;
}

void rundir_free_runs(char **runs, int n)
{
    for (int i = 0; i < n; i++)
        free(runs[i]);
    free(runs);
}
