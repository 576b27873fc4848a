/* shards.c - see shards.h. */
#include "results/rundir/shards.h"

#include "base/csv.h"
#include "base/util.h"
#include "results/rundir/rundir.h"
#include "results/rundir/result.h"

#include <dirent.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

long long rundir_trial_row_id(const csv_table *t, int r, int st)
{
    if (r < 1 || r >= t->nrows || t->nfields[r] != t->nfields[0] || st < 0)
        return -1;
    long long id = rundir_trial_no(t->rows[r][0]);
    if (id < 0)
        return -1;
    for (int k = 0; k < ST_COUNT; k++)
        if (!strcmp(t->rows[r][st], status_names[k]))
            return id;
    return -1;
}

long long rundir_count_trials(const csv_table *t, int *torn, int *bad_row)
{
    *torn = 0;
    *bad_row = 0;
    int st = csv_col(t, "status");
    if (t->nrows < 1 || st < 1 || strcmp(t->rows[0][0], "trial"))
        return -1;
    long long n = 0;
    for (int r = 1; r < t->nrows; r++) {
        if (rundir_trial_row_id(t, r, st) >= 0)
            n++;
        else if (r == t->nrows - 1)
            *torn = 1;
        else {
            *bad_row = r;
            return -1;
        }
    }
    return n;
}

long long rundir_trial_rows(const char *dir)
{
    char *p = rundir_path(dir, RD_TRIALS);
    csv_table t;
    int rc = csv_read(p, &t);
    free(p);
    if (rc < 0)
        return -1;
    int torn, bad;
    long long rows = rundir_count_trials(&t, &torn, &bad);
    csv_free(&t);
    return rows < 0 ? -2 : rows;
}
