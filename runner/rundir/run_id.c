/* run_id.c - see rundir.h: a new run folder and its id (README "Results"). */
#include "rundir/rundir.h"

#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

char *rundir_create(const char *exp_dir, char *err, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    char id[40];
    gmtime_r(&now, &tm);
    strftime(id, sizeof id, "%Y%m%dT%H%M%SZ", &tm);
    char *dir = xasprintf("%s/%s", exp_dir, id);
    for (int k = 2; mkdir(dir, 0777) < 0; k++) {
        if (errno != EEXIST || k > 1000) {
            snprintf(err, len, "cannot create %s: %s", dir, strerror(errno));
            free(dir);
            return NULL;
        }
        free(dir);
        dir = xasprintf("%s/%s-%d", exp_dir, id, k);
    }
    return dir;
}
