/* test_merge.c - results/rundir/merge.h, the library under `runner merge`: the
 * shards of a run joined in trial order, the header the union of theirs,
 * the late columns a killed shard left in its trials.more.csv, what it
 * refuses (nothing written then), and what it reports. */
#include "base/csv.h"
#include "base/util.h"
#include "results/rundir/merge.h"
#include "runproc.h"

#include <criterion/criterion.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void put(const char *dir, const char *name, const char *text)
{
    char *p = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    cr_assert(f, "cannot write %s", p);
    fputs(text, f);
    fclose(f);
    free(p);
}

/* rundir_merge, its reasons (a diags) one a line in err, as `runner merge`
 * prints them */
static int merge(const char *run, merge_info *m, strbuf *err)
{
    diags d = {0};
    int rc = rundir_merge(run, m, &d);
    for (int i = 0; i < d.n; i++)
        sb_printf(err, "%s\n", d.items[i].msg);
    diag_free(&d);
    return rc;
}

static char *shard(const char *run, int k, int n, const char *trials, const char *samples,
                   int finished)
{
    char *d = xasprintf("%s/shard-%d-of-%d", run, k, n);
    cr_assert(make_dirs(d) == 0);
    put(d, "trials.csv", trials);
    put(d, "samples.csv", samples);
    put(d, "experiment.yaml", "name: m\nworkload: noop\n");
    put(d, "meta.json", finished ? "{\"finished\": true}" : "{\"finished\": false}");
    return d;
}

static char *slurp(const char *dir, const char *name)
{
    char *p = xasprintf("%s/%s", dir, name);
    char *t = read_file(p, NULL);
    free(p);
    return t;
}

Test(merge, shards_join_in_trial_order_with_the_union_of_their_columns)
{
    char *run = tmpdir();
    /* shard 1 holds trials 0 and 2, shard 2 trial 1 with a column of its own */
    free(shard(run, 1, 2, "trial,size,status\n0,1,ok\n2,4,failed\n",
               "trial,sample,seconds,device_seconds\n0,0,0.5,\n2,0,0.7,\n", 1));
    free(shard(run, 2, 2, "trial,size,status,extra\n1,2,ok,x\n",
               "trial,sample,seconds,device_seconds\n1,0,0.6,\n1,1,0.61,\n", 0));
    merge_info m;
    strbuf err = {0};
    cr_assert_eq(merge(run, &m, &err), MERGE_OK, "%s", err.s ? err.s : "");
    cr_assert_eq(m.shards, 2);
    cr_assert_eq(m.n, 2);
    cr_assert_eq(m.missing, 0);
    cr_assert_eq(m.unfinished, 1);
    char *t = slurp(run, "trials.csv");
    cr_assert_str_eq(t, "trial,size,status,extra\n0,1,ok,\n1,2,ok,x\n2,4,failed,\n");
    free(t);
    t = slurp(run, "samples.csv");
    cr_assert_str_eq(t, "trial,sample,seconds,device_seconds\n0,0,0.5,\n1,0,0.6,\n1,1,0.61,\n"
                        "2,0,0.7,\n");
    free(t);
    t = slurp(run, "experiment.yaml");
    cr_assert_str_eq(t, "name: m\nworkload: noop\n");
    free(t);
    char *mp = xasprintf("%s/meta.json", run);
    json_object *meta = json_object_from_file(mp), *v, *s;
    cr_assert(meta);
    cr_assert(json_object_object_get_ex(meta, "finished", &v));
    cr_assert_not(json_object_get_boolean(v), "a shard is unfinished");
    cr_assert(json_object_object_get_ex(meta, "summary", &s));
    cr_assert(json_object_object_get_ex(s, "ok", &v));
    cr_assert_eq(json_object_get_int(v), 2);
    cr_assert(json_object_object_get_ex(s, "failed", &v));
    cr_assert_eq(json_object_get_int(v), 1);
    json_object_put(meta);
    free(mp);
    /* not made by runner submit: latest is not its to earn */
    cr_assert_eq(rundir_merge_earn_latest(run), -1);
    sb_free(&err);
    rm_rf(run);
    free(run);
}

/* A shard killed before its end (a Slurm time limit) keeps the cells of
 * columns its header did not have yet in trials.more.csv: the merge takes
 * them, as the shard's own end would have folded them in, and leaves the
 * shard's files as they are (it may still be running). */
Test(merge, a_killed_shards_late_columns_are_merged)
{
    char *run = tmpdir();
    free(shard(run, 1, 2, "trial,size,status,extra\n0,1,ok,p\n2,4,ok,q\n",
               "trial,sample,seconds,device_seconds\n0,0,0.5,\n2,0,0.7,\n", 1));
    const char *trials2 = "trial,size,status\n1,2,ok\n3,8,failed\n";
    char *d = shard(run, 2, 2, trials2,
                    "trial,sample,seconds,device_seconds\n1,0,0.6,\n3,0,0.8,\n", 0);
    /* trial 5 has no row (killed between the two appends): dropped; the
     * last line for a cell wins; a torn last line is not read */
    const char *more2 = "trial,column,value\n1,extra,x\n3,extra,\"a,b\"\n3,late,1.5\n"
                        "5,extra,lost\n1,extra,y\n3,la";
    put(d, "trials.more.csv", more2);
    merge_info m;
    strbuf err = {0};
    cr_assert_eq(merge(run, &m, &err), MERGE_OK, "%s", err.s ? err.s : "");
    cr_assert_eq(m.unfinished, 1);
    char *t = slurp(run, "trials.csv");
    cr_assert_str_eq(t, "trial,size,status,extra,late\n0,1,ok,p,\n1,2,ok,y,\n"
                        "2,4,ok,q,\n3,8,failed,\"a,b\",1.5\n");
    free(t);
    t = slurp(d, "trials.csv");
    cr_assert_str_eq(t, trials2, "the shard's trials.csv was rewritten");
    free(t);
    t = slurp(d, "trials.more.csv");
    cr_assert(t, "the shard's trials.more.csv was removed");
    cr_assert_str_eq(t, more2);
    free(t);
    /* one that cannot be read is a refusal that names it */
    char *mp = xasprintf("%s/trials.more.csv", d);
    cr_assert_eq(unlink(mp), 0);
    cr_assert_eq(mkdir(mp, 0700), 0);
    cr_assert_eq(merge(run, &m, &err), MERGE_INVALID);
    cr_assert(strstr(err.s, "shard-2-of-2/trials.more.csv: not a file\n"), "%s", err.s);
    free(mp);
    free(d);
    sb_free(&err);
    rm_rf(run);
    free(run);
}

Test(merge, refusals_write_nothing_and_give_every_reason)
{
    char *run = tmpdir();
    merge_info m;
    strbuf err = {0};
    cr_assert_eq(merge(run, &m, &err), MERGE_INVALID);
    cr_assert(strstr(err.s, "no shard-K-of-N folders in"), "%s", err.s);
    sb_free(&err);
    /* two shards without a trials table: both named */
    char *a = shard(run, 1, 2, "", "", 1), *b = shard(run, 2, 2, "", "", 1);
    char *p = xasprintf("%s/trials.csv", a);
    unlink(p);
    free(p);
    cr_assert_eq(merge(run, &m, &err), MERGE_INVALID);
    cr_assert(strstr(err.s, "shard-1-of-2/trials.csv is missing or empty\n"), "%s", err.s);
    cr_assert(strstr(err.s, "shard-2-of-2/trials.csv is missing or empty\n"), "%s", err.s);
    sb_free(&err);
    p = xasprintf("%s/trials.csv", run);
    cr_assert_neq(access(p, F_OK), 0, "nothing written");
    free(p);
    /* shards of two N */
    free(shard(run, 1, 3, "trial,status\n0,ok\n", "", 1));
    cr_assert_eq(merge(run, &m, &err), MERGE_INVALID);
    cr_assert(strstr(err.s, "mixes shards of"), "%s", err.s);
    sb_free(&err);
    free(a);
    free(b);
    rm_rf(run);
    free(run);
}
