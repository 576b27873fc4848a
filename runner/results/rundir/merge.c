/* merge.c - see merge.h.  A run made by `runner submit` (RUN_DIR/merge.sbatch
 * exists) earns its experiment folder's `latest` when the merge is complete
 * and has an ok trial, as a local run does (doc/results.md#results); submit itself
 * never moves it. */
#include "results/rundir/merge.h"

#include "base/csv.h"
#include "base/diag.h"
#include "base/util.h"
#include "results/rundir/result.h"
#include "experiment/experiment.h"
#include "results/rundir/resume.h"
#include "results/rundir/rundir.h"
#include "results/rundir/shards.h"

#include <dirent.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct shard {
    int k, n;
    char *dir;
    csv_table trials, samples;
    int finished;
    long long rows; /* its trial rows (rundir_count_trials) */
} shard;

static int cmp_shard(const void *a, const void *b)
{
    return ((const shard *)a)->k - ((const shard *)b)->k;
}

typedef struct row_ref {
    long long id;
    int shard, row;
} row_ref;

static int cmp_ref(const void *a, const void *b)
{
    const row_ref *x = a, *y = b;
    if (x->id != y->id)
        return (x->id > y->id) - (x->id < y->id);
    return x->shard - y->shard;
}

static int cmp_sample(const void *a, const void *b)
{
    const row_ref *x = a, *y = b;
    if (x->id != y->id)
        return (x->id > y->id) - (x->id < y->id);
    return x->row - y->row;
}

/* The merged header: the first shard's columns, then columns only later
 * shards have (hook or workload columns that appeared there). */
static int header_union(shard *s, int ns, char ***out)
{
    char **cols = NULL;
    int n = 0;
    for (int i = 0; i < ns; i++)
        for (int c = 0; s[i].trials.nrows && c < s[i].trials.nfields[0]; c++) {
            const char *name = s[i].trials.rows[0][c];
            int seen = 0;
            for (int j = 0; j < n && !seen; j++)
                seen = !strcmp(cols[j], name);
            if (!seen) {
                XGROW(cols, n);
                cols[n++] = (char *)name;
            }
        }
    *out = cols;
    return n;
}

/* A trial id: decimal digits only; -1 for anything else (a damaged row). */
static long long parse_id(const char *s)
{
    if (!*s || strlen(s) > 18)
        return -1;
    long long v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (*s - '0');
    }
    return v;
}

/* Each shard's samples as (id, row) sorted by id, then row: a trial's
 * samples are found by binary search, so the merge is O(n log n) in the
 * rows, not trials x samples (issue 14: 20,000 x 20 took 17 s). */
static row_ref *index_samples(const csv_table *t, size_t *n)
{
    row_ref *ix = xmalloc(((size_t)t->nrows + 1) * sizeof *ix);
    size_t k = 0;
    for (int r = 1; r < t->nrows; r++) {
        long long id = t->nfields[r] == 4 ? parse_id(t->rows[r][0]) : -1;
        if (id >= 0)
            ix[k++] = (row_ref){id, 0, r};
    }
    xqsort(ix, k, sizeof *ix, cmp_sample);
    *n = k;
    return ix;
}

static int write_merged(const char *dir, shard *s, int ns, char *err, size_t len)
{
    char **cols;
    int ncols = header_union(s, ns, &cols);
    /* every row of every shard, in trial order; a trial twice keeps the first */
    row_ref *refs = NULL;
    size_t nref = 0, cap = 0;
    for (int i = 0; i < ns; i++)
        for (int r = 1, st = csv_col(&s[i].trials, "status"); r < s[i].trials.nrows; r++) {
            long long id = rundir_trial_row_id(&s[i].trials, r, st);
            if (id < 0) /* a torn last line (check_shard) */
                continue;
            if (nref == cap) {
                cap = cap ? 2 * cap : 1024;
                refs = xrealloc(refs, cap * sizeof *refs);
            }
            refs[nref++] = (row_ref){id, i, r};
        }
    xqsort(refs, nref, sizeof *refs, cmp_ref);
    /* where each merged column is in each shard, looked up once */
    int *at = xmalloc((size_t)(ns * ncols + 1) * sizeof *at);
    for (int i = 0; i < ns; i++)
        for (int c = 0; c < ncols; c++)
            at[i * ncols + c] = csv_col(&s[i].trials, cols[c]);
    strbuf b = {0};
    for (int c = 0; c < ncols; c++) {
        if (c)
            sb_putc(&b, ',');
        csv_field(&b, cols[c]);
    }
    sb_putc(&b, '\n');
    for (size_t q = 0; q < nref; q++) {
        if (q && refs[q].id == refs[q - 1].id)
            continue;
        const csv_table *t = &s[refs[q].shard].trials;
        for (int c = 0; c < ncols; c++) {
            if (c)
                sb_putc(&b, ',');
            int a = at[refs[q].shard * ncols + c];
            if (a >= 0 && a < t->nfields[refs[q].row])
                csv_field(&b, t->rows[refs[q].row][a]);
        }
        sb_putc(&b, '\n');
    }
    char *p = rundir_path(dir, RD_TRIALS);
    int rc = write_file_atomic(p, b.s, b.len);
    if (rc < 0)
        snprintf(err, len, "cannot write %s", p);
    free(p);
    /* samples, in the same order, from the shard each trial came from */
    b.len = 0;
    sb_puts(&b, "trial,sample,seconds,device_seconds\n");
    row_ref **six = xcalloc((size_t)ns, sizeof *six);
    size_t *nsix = xcalloc((size_t)ns, sizeof *nsix);
    for (int i = 0; rc == 0 && i < ns; i++)
        six[i] = index_samples(&s[i].samples, &nsix[i]);
    for (size_t q = 0; rc == 0 && q < nref; q++) {
        if (q && refs[q].id == refs[q - 1].id)
            continue;
        int i = refs[q].shard;
        const csv_table *t = &s[i].samples;
        size_t lo = 0, hi = nsix[i]; /* the first sample of the trial */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (six[i][mid].id < refs[q].id)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (; lo < nsix[i] && six[i][lo].id == refs[q].id; lo++) {
            int r = six[i][lo].row;
            sb_printf(&b, "%s,%s,%s,%s\n", t->rows[r][0], t->rows[r][1], t->rows[r][2],
                      t->rows[r][3]);
        }
    }
    for (int i = 0; i < ns; i++)
        free(six[i]);
    free(six);
    free(nsix);
    free(at);
    p = rundir_path(dir, RD_SAMPLES);
    if (rc == 0 && (rc = write_file_atomic(p, b.s, b.len)) < 0)
        snprintf(err, len, "cannot write %s", p);
    free(p);
    sb_free(&b);
    free(refs);
    free(cols);
    return rc;
}

/* meta.json: the first shard's, with the shards listed and the summary of all. */
static int write_meta(const char *dir, shard *s, int ns, int n, int complete, diags *err)
{
    int absent;
    char e[512];
    json_object *m = rundir_read_meta(s[0].dir, &absent, e, sizeof e);
    if (!m)
        m = json_object_new_object();
    json_object *list = json_object_new_array();
    long long counts[ST_COUNT] = {0};
    for (int i = 0; i < ns; i++) {
        json_object *o = json_object_new_object();
        json_object_object_add(o, "shard", json_object_new_int(s[i].k));
        json_object_object_add(o, "finished", json_object_new_boolean(s[i].finished));
        json_object_object_add(o, "trials", json_object_new_int64(s[i].rows));
        json_object_array_add(list, o);
        int st = csv_col(&s[i].trials, "status");
        for (int r = 1; st >= 0 && r < s[i].trials.nrows; r++)
            for (int k = 0; k < ST_COUNT; k++)
                counts[k] += !strcmp(s[i].trials.rows[r][st], status_names[k]);
    }
    json_object *sh = json_object_new_object();
    json_object_object_add(sh, "count", json_object_new_int(n));
    json_object_object_add(sh, "merged", list);
    json_object_object_add(m, "shards", sh);
    json_object *sum = json_object_new_object();
    for (int k = 0; k < ST_COUNT; k++)
        json_object_object_add(sum, status_names[k], json_object_new_int64(counts[k]));
    json_object_object_add(m, "summary", sum);
    json_object_object_add(m, "finished", json_object_new_boolean(complete));
    int rc = rundir_write_meta(dir, m, e, sizeof e);
    if (rc < 0)
        diag_add(err, 0, 0, "%s", e);
    json_object_put(m);
    return rc;
}

int rundir_merge_earn_latest(const char *dir)
{
    char *ms = xasprintf("%s/merge.sbatch", dir);
    int from_submit = access(ms, F_OK) == 0;
    free(ms);
    if (!from_submit)
        return -1;
    return rundir_earn_latest(dir);
}

/* The shard folders of dir, sorted by K; MERGE_INVALID with the reason. */
static int find_shards(const char *dir, shard **out, int *nout, int *nof, diags *err)
{
    DIR *d = opendir(dir);
    if (!d) {
        diag_add(err, 0, 0, "cannot open %s", dir);
        return MERGE_INVALID;
    }
    shard *s = NULL;
    int ns = 0, n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        int k, nn;
        if (!rundir_shard_name(de->d_name, &k, &nn))
            continue;
        if (n && nn != n) {
            diag_add(err, 0, 0, "%s mixes shards of %d and %d", dir, n, nn);
            closedir(d);
            for (int i = 0; i < ns; i++)
                free(s[i].dir);
            free(s);
            return MERGE_INVALID;
        }
        n = nn;
        XGROW(s, ns);
        s[ns] = (shard){.k = k, .n = nn, .dir = xasprintf("%s/%s", dir, de->d_name)};
        ns++;
    }
    closedir(d);
    if (ns == 0) {
        diag_add(err, 0, 0, "no shard-K-of-N folders in %s", dir);
        free(s);
        return MERGE_INVALID;
    }
    xqsort(s, (size_t)ns, sizeof *s, cmp_shard);
    *out = s;
    *nout = ns;
    *nof = n;
    return MERGE_OK;
}

/* Every shard must hold the same experiment: merging shards of two
 * experiments mixed their trials (issue 14). */
static int same_experiment(shard *s, int ns, diags *err)
{
    int rc = MERGE_OK;
    char *first = NULL;
    size_t first_len = 0;
    for (int i = 0; rc == MERGE_OK && i < ns; i++) {
        char *ep = rundir_path(s[i].dir, RD_EXPERIMENT);
        size_t l;
        char *text = read_file(ep, &l);
        if (!text) {
            diag_add(err, 0, 0, "%s is missing: cannot tell which experiment %s holds", ep,
                      s[i].dir);
            rc = MERGE_INVALID;
        } else if (i == 0) {
            first = text;
            first_len = l;
            text = NULL;
        } else if (l != first_len || memcmp(text, first, l)) {
            diag_add(err, 0, 0,
                      "%s and %s hold different experiments (their "
                      "%s differ); merge only shards of one run",
                      s[0].dir, s[i].dir, rundir_name(RD_EXPERIMENT));
            rc = MERGE_INVALID;
        }
        free(text);
        free(ep);
    }
    free(first);
    return rc;
}

/* A shard's tables parse (doc/slurm.md#what-merge-verifies): its
 * trials table is one (rundir_count_trials: a torn last line is let be,
 * not a trial), its samples table, when it has one, has the header the
 * runner writes and rows of a trial number and three cells, but for a
 * torn last one.  MERGE_INVALID naming the file and row otherwise. */
static int check_shard(shard *s, diags *err)
{
    int torn, bad;
    s->rows = rundir_count_trials(&s->trials, &torn, &bad);
    if (s->rows < 0) {
        char *p = rundir_path(s->dir, RD_TRIALS);
        if (bad)
            diag_add(err, 0, 0,
                     "%s: row %d is not a trial (a trial number, a cell per column, a "
                     "status): the file is damaged",
                     p, bad);
        else
            diag_add(err, 0, 0, "%s: not a trials table (its header has no `trial` and `status`)",
                      p);
        free(p);
        return MERGE_INVALID;
    }
    const csv_table *t = &s->samples;
    if (!t->nrows)
        return MERGE_OK;
    static const char *const hdr[] = {"trial", "sample", "seconds", "device_seconds"};
    int ok = t->nfields[0] == 4;
    for (int c = 0; ok && c < 4; c++)
        ok = !strcmp(t->rows[0][c], hdr[c]);
    int r = 1;
    for (; ok && r < t->nrows - 1; r++)
        ok = t->nfields[r] == 4 && parse_id(t->rows[r][0]) >= 0;
    if (!ok) {
        char *p = rundir_path(s->dir, RD_SAMPLES);
        diag_add(err, 0, 0, "%s: %s: the file is damaged", p,
                  r == 1 ? "not a samples table" : "a row is not a sample");
        free(p);
        return MERGE_INVALID;
    }
    return MERGE_OK;
}

/* The trials each shard number owns (experiment_shard: number K - 1 modulo
 * N) against the rows the shard holds: the missing ones counted and named,
 * one line a shard.  MERGE_INVALID when the experiment file does not load. */
static int check_owned(const char *dir, shard *s, int ns, int n, merge_info *info, diags *err)
{
    char note[1024];
    experiment *e = rundir_read_experiment(s[0].dir, note, sizeof note);
    if (!e) {
        diag_add(err, 0, 0, "cannot tell which trials the shards own: %s",
                  note[0] ? note : "the experiment file does not load");
        return MERGE_INVALID;
    }
    long long max = 0;
    for (long long t = 0; t < e->ntrials; t++)
        max = e->ids[t] > max ? e->ids[t] : max;
    unsigned char *have = xcalloc((size_t)max + 1, 1);
    for (int i = 0; i < ns; i++)
        for (int r = 1, st = csv_col(&s[i].trials, "status"); r < s[i].trials.nrows; r++) {
            long long id = rundir_trial_row_id(&s[i].trials, r, st);
            if (id >= 0 && id <= max && id % n == s[i].k - 1)
                have[id] = 1;
        }
    for (int k = 1; k <= n; k++) {
        long long owned = 0, missing = 0;
        strbuf ids = {0};
        for (long long t = 0; t < e->ntrials; t++) {
            long long id = e->ids[t];
            if (id % n != k - 1)
                continue;
            owned++;
            if (have[id])
                continue;
            if (++missing <= 20)
                sb_printf(&ids, "%s%lld", missing > 1 ? ", " : "", id);
        }
        if (missing) {
            char *sd = rundir_shard_dir(dir, k, n);
            sb_printf(&info->missing_text, "%s: %lld of %lld trials missing: %s%s\n", sd,
                      missing, owned, ids.s, missing > 20 ? ", ..." : "");
            free(sd);
            info->missing_trials += missing;
        }
        sb_free(&ids);
    }
    free(have);
    experiment_free(e);
    return MERGE_OK;
}

int rundir_merge(const char *dir, merge_info *info, diags *err)
{
    memset(info, 0, sizeof *info);
    shard *s;
    int ns, n;
    int rc = find_shards(dir, &s, &ns, &n, err);
    if (rc != MERGE_OK)
        return rc;
    for (int i = 0; i < ns; i++) {
        char *tp = rundir_path(s[i].dir, RD_TRIALS);
        char *sp = rundir_path(s[i].dir, RD_SAMPLES);
        /* with the cells a shard killed before its end left in its
         * trials.more.csv, read in memory: the shard may still be running */
        char e[512] = "";
        int r = resume_read_folded(s[i].dir, &s[i].trials, e, sizeof e), read = 0;
        if (r < 0 && access(tp, F_OK) == 0) {
            diag_add(err, 0, 0, "%s", e);
            rc = MERGE_INVALID;
        } else if (r < 0 || s[i].trials.nrows == 0) {
            diag_add(err, 0, 0, "%s is missing or empty", tp);
            rc = MERGE_INVALID;
        } else {
            read = 1;
        }
        csv_read(sp, &s[i].samples);
        if (read && check_shard(&s[i], err) != MERGE_OK)
            rc = MERGE_INVALID;
        s[i].finished = rundir_is_finished(s[i].dir);
        free(tp);
        free(sp);
    }
    if (rc == MERGE_OK)
        rc = same_experiment(s, ns, err);
    if (rc == MERGE_OK)
        rc = check_owned(dir, s, ns, n, info, err);
    info->shards = ns;
    info->n = n;
    info->missing = n - ns;
    for (int i = 0; i < ns; i++)
        info->unfinished += !s[i].finished;
    char e[512] = "";
    if (rc == MERGE_OK) {
        if (write_merged(dir, s, ns, e, sizeof e) < 0) {
            diag_add(err, 0, 0, "%s", e);
            rc = MERGE_WRITE_FAILED;
        } else if (write_meta(dir, s, ns, n,
                              !info->missing && !info->unfinished && !info->missing_trials, err) < 0) {
            rc = MERGE_WRITE_FAILED;
        }
    }
    if (rc == MERGE_OK) {
        /* the experiment file travels with the results */
        char *from = rundir_path(s[0].dir, RD_EXPERIMENT);
        size_t len;
        char *text = read_file(from, &len);
        char *to = rundir_path(dir, RD_EXPERIMENT);
        if (text)
            write_file_atomic(to, text, len);
        free(text);
        free(from);
        free(to);
    }
    for (int i = 0; i < ns; i++) {
        csv_free(&s[i].trials);
        csv_free(&s[i].samples);
        free(s[i].dir);
    }
    free(s);
    return rc;
}
