/* status.c - see status.h. */
#include "slurm/status.h"

#include "base/diag.h"
#include "base/util.h"
#include "experiment/config.h"
#include "results/rundir/rundir.h"
#include "results/rundir/shards.h"
#include "slurm/slurm.h"

#include <json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The shard count of a run folder: job.sbatch's, else the shard folders'. */
static int run_shards(const char *run_dir)
{
    char *p = slurm_job_path(run_dir);
    char *text = read_file(p, NULL);
    free(p);
    int n = text ? slurm_script_shards(text) : 0;
    free(text);
    if (n != 0)
        return n; /* -1: more shards than runner submit writes */
    return rundir_shard_count(run_dir, SLURM_MAX_SHARDS);
}

/* Trials per shard, from the experiment the shards run (its copy's text,
 * read where the jobs read it), through experiment_shard.  NULL when it
 * cannot be loaded. */
static long long *shard_totals(const char *run_dir, const job_log *L, int n)
{
    char *copy = rundir_path(run_dir, RD_EXPERIMENT);
    size_t len;
    char *text = read_file(copy, &len);
    if (!text && L->experiment) /* no copy: the original */
        text = read_file(L->experiment, &len);
    long long *tot = NULL;
    if (text) {
        diags d = {0};
        experiment *e = experiment_parse(L->experiment ? L->experiment : copy, text, len, &d);
        diag_free(&d);
        if (e) {
            tot = xcalloc((size_t)n, sizeof *tot);
            long long nt = e->ntrials;
            size_t na = (size_t)e->naxes;
            long long *ids = xmalloc((size_t)(nt + 1) * sizeof *ids);
            uint32_t *ch = xmalloc(((size_t)nt * na + 1) * sizeof *ch);
            memcpy(ids, e->ids, (size_t)nt * sizeof *ids);
            memcpy(ch, e->choices, (size_t)nt * na * sizeof *ch);
            for (int k = 1; k <= n; k++) {
                memcpy(e->ids, ids, (size_t)nt * sizeof *ids);
                memcpy(e->choices, ch, (size_t)nt * na * sizeof *ch);
                e->ntrials = nt;
                experiment_shard(e, k, n);
                tot[k - 1] = e->ntrials;
            }
            memcpy(e->ids, ids, (size_t)nt * sizeof *ids);
            memcpy(e->choices, ch, (size_t)nt * na * sizeof *ch);
            e->ntrials = nt;
            free(ids);
            free(ch);
            experiment_free(e);
        }
    }
    free(text);
    free(copy);
    return tot;
}

int slurm_status(const char *target, run_status *st, char *err, size_t errlen)
{
    memset(st, 0, sizeof *st);
    char e[1024];
    if (!(st->run_dir = slurm_run_dir(target, e, sizeof e))) {
        snprintf(err, errlen, "%s", e);
        return -1;
    }
    int n = run_shards(st->run_dir);
    if (n < 0) {
        snprintf(err, errlen,
                  "%s/job.sbatch asks for more than %d shards, more than runner submit writes: "
                  "the file was edited",
                  st->run_dir, SLURM_MAX_SHARDS);
        return -1;
    }
    if (n == 0) {
        snprintf(err, errlen, "%s has neither a job.sbatch of runner submit nor shard-K-of-N folders",
                  st->run_dir);
        return -1;
    }
    st->n = n;
    slurm_log_read(st->run_dir, &st->log);
    st->total = shard_totals(st->run_dir, &st->log, n);
    slurm_query(&st->log, n, &st->view);
    st->rows = xcalloc((size_t)n, sizeof *st->rows);
    st->finished = xcalloc((size_t)n, sizeof *st->finished);
    for (int k = 1; k <= n; k++) {
        char *d = rundir_shard_dir(st->run_dir, k, n);
        st->rows[k - 1] = rundir_trial_rows(d);
        st->finished[k - 1] = st->rows[k - 1] >= 0 && rundir_is_finished(d);
        free(d);
    }
    /* the merged results, if runner merge has run */
    int absent;
    json_object *m = rundir_read_meta(st->run_dir, &absent, e, sizeof e), *sh, *f;
    if (m && json_object_object_get_ex(m, "shards", &sh))
        st->merged = json_object_object_get_ex(m, "finished", &f) && json_object_get_boolean(f)
                         ? 1
                         : 2;
    json_object_put(m);
    char *jb = slurm_job_path(st->run_dir);
    st->has_job = access(jb, F_OK) == 0;
    free(jb);
    return 0;
}

void run_status_free(run_status *st)
{
    if (st->n)
        slurm_view_free(&st->view, st->n);
    slurm_log_free(&st->log);
    free(st->rows);
    free(st->finished);
    free(st->total);
    free(st->run_dir);
    memset(st, 0, sizeof *st);
}
