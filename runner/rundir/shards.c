/* shards.c - see shards.h. */
#include "rundir/shards.h"

#include "base/csv.h"
#include "base/util.h"
#include "rundir/rundir.h"

#include <dirent.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>

char *rundir_shard_dir(const char *run_dir, int k, int n)
{
    return xasprintf("%s/shard-%d-of-%d", run_dir, k, n);
}

int rundir_shard_name(const char *name, int *k, int *n)
{
    char tail;
    return sscanf(name, "shard-%d-of-%d%c", k, n, &tail) == 2;
}

int rundir_shard_count(const char *run_dir, int max)
{
    DIR *d = opendir(run_dir);
    struct dirent *de;
    int n = 0;
    while (d && (de = readdir(d))) {
        int k, nn;
        if (rundir_shard_name(de->d_name, &k, &nn) && nn > 0 && nn <= max) {
            n = nn;
            break;
        }
    }
    if (d)
        closedir(d);
    return n;
}

int rundir_is_finished(const char *dir)
{
    int absent;
    char err[16];
    json_object *m = rundir_read_meta(dir, &absent, err, sizeof err), *f;
    int done = m && json_object_object_get_ex(m, "finished", &f) && json_object_get_boolean(f);
    json_object_put(m);
    return done;
}

long long rundir_trial_rows(const char *dir)
{
    char *p = rundir_path(dir, RD_TRIALS);
    csv_table t;
    int rc = csv_read(p, &t);
    free(p);
    if (rc < 0)
        return -1;
    long long rows = t.nrows - 1;
    csv_free(&t);
    return rows > 0 ? rows : 0;
}
