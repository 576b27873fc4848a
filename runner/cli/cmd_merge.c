/* cmd_merge.c - `runner merge RUN_DIR`: joins the shards of a run
 * (RUN_DIR/shard-K-of-N/, written by `runner --shard K/N --run-dir RUN_DIR`)
 * into RUN_DIR/trials.csv and samples.csv in dry-run order, with a meta.json
 * that sums them up; then draws the plots and writes the report.  A run
 * made by `runner submit` (RUN_DIR/merge.sbatch exists) earns its
 * experiment folder's `latest` (RUN_DIR/../latest) when the merge is
 * complete (every shard there and finished) and has an ok trial, as a local
 * run does (README "Results"); submit itself never moves it. */
#include "cli/commands.h"
#include "base/csv.h"
#include "report/plots.h"
#include "exec/proto.h"
#include "rundir/results.h"
#include "base/util.h"

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
                cols = xrealloc(cols, (size_t)(n + 1) * sizeof *cols);
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
        for (int r = 1; r < s[i].trials.nrows; r++) {
            long long id = parse_id(s[i].trials.rows[r][0]);
            if (id < 0)
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
    char *p = xasprintf("%s/trials.csv", dir);
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
    p = xasprintf("%s/samples.csv", dir);
    if (rc == 0 && (rc = write_file_atomic(p, b.s, b.len)) < 0)
        snprintf(err, len, "cannot write %s", p);
    free(p);
    sb_free(&b);
    free(refs);
    free(cols);
    return rc;
}

/* meta.json: the first shard's, with the shards listed and the summary of all. */
static int write_meta(const char *dir, shard *s, int ns, int n, int complete)
{
    char *first = xasprintf("%s/meta.json", s[0].dir);
    json_object *m = json_object_from_file(first);
    free(first);
    if (!m)
        m = json_object_new_object();
    json_object *list = json_object_new_array();
    long long counts[ST_COUNT] = {0};
    for (int i = 0; i < ns; i++) {
        json_object *o = json_object_new_object();
        json_object_object_add(o, "shard", json_object_new_int(s[i].k));
        json_object_object_add(o, "finished", json_object_new_boolean(s[i].finished));
        json_object_object_add(o, "trials", json_object_new_int(s[i].trials.nrows - 1));
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
    const char *txt = json_object_to_json_string_ext(m, JSON_C_TO_STRING_PRETTY |
                                                           JSON_C_TO_STRING_SPACED |
                                                           JSON_C_TO_STRING_NOSLASHESCAPE);
    char *p = xasprintf("%s/meta.json", dir);
    int rc = write_file_atomic(p, txt, strlen(txt));
    free(p);
    json_object_put(m);
    return rc;
}

/* RUN_DIR/../latest -> RUN_DIR's name, replaced atomically, when RUN_DIR
 * was made by submit and its merged trials.csv has an ok trial: 1 if moved,
 * 0 if not, -1 when RUN_DIR was not made by submit. */
static int earn_latest(const char *dir)
{
    char *ms = xasprintf("%s/merge.sbatch", dir);
    int from_submit = access(ms, F_OK) == 0;
    free(ms);
    if (!from_submit)
        return -1;
    return results_earn_latest_dir(dir);
}

int cmd_merge(const cli *c)
{
    const char *dir = c->files[0];
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "runner: merge: cannot open %s\n", dir);
        return EXIT_INVALID;
    }
    shard *s = NULL;
    int ns = 0, n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        int k, nn;
        char tail;
        if (sscanf(de->d_name, "shard-%d-of-%d%c", &k, &nn, &tail) != 2)
            continue;
        if (n && nn != n) {
            fprintf(stderr, "runner: merge: %s mixes shards of %d and %d\n", dir, n, nn);
            closedir(d);
            return EXIT_INVALID;
        }
        n = nn;
        s = xrealloc(s, (size_t)(ns + 1) * sizeof *s);
        s[ns] = (shard){.k = k, .n = nn, .dir = xasprintf("%s/%s", dir, de->d_name)};
        ns++;
    }
    closedir(d);
    if (ns == 0) {
        fprintf(stderr, "runner: merge: no shard-K-of-N folders in %s\n", dir);
        free(s);
        return EXIT_INVALID;
    }
    xqsort(s, (size_t)ns, sizeof *s, cmp_shard);
    int rc = EXIT_OK;
    for (int i = 0; i < ns; i++) {
        char *tp = xasprintf("%s/trials.csv", s[i].dir);
        char *sp = xasprintf("%s/samples.csv", s[i].dir);
        char *mp = xasprintf("%s/meta.json", s[i].dir);
        if (csv_read(tp, &s[i].trials) < 0 || s[i].trials.nrows == 0) {
            fprintf(stderr, "runner: merge: %s is missing or empty\n", tp);
            rc = EXIT_INVALID;
        }
        csv_read(sp, &s[i].samples);
        json_object *m = json_object_from_file(mp), *f;
        s[i].finished = m && json_object_object_get_ex(m, "finished", &f) && json_object_get_boolean(f);
        json_object_put(m);
        free(tp);
        free(sp);
        free(mp);
    }
    /* every shard must hold the same experiment: merging shards of two
     * experiments mixed their trials (issue 14) */
    char *first = NULL;
    size_t first_len = 0;
    for (int i = 0; rc == EXIT_OK && i < ns; i++) {
        char *ep = xasprintf("%s/experiment.yaml", s[i].dir);
        size_t l;
        char *text = read_file(ep, &l);
        if (!text) {
            fprintf(stderr, "runner: merge: %s is missing: cannot tell which experiment %s holds\n",
                    ep, s[i].dir);
            rc = EXIT_INVALID;
        } else if (i == 0) {
            first = text;
            first_len = l;
            text = NULL;
        } else if (l != first_len || memcmp(text, first, l)) {
            fprintf(stderr,
                    "runner: merge: %s and %s hold different experiments (their "
                    "experiment.yaml differ); merge only shards of one run\n",
                    s[0].dir, s[i].dir);
            rc = EXIT_INVALID;
        }
        free(text);
        free(ep);
    }
    free(first);
    int missing = n - ns, unfinished = 0;
    for (int i = 0; i < ns; i++)
        unfinished += !s[i].finished;
    char err[512] = "";
    if (rc == EXIT_OK && (write_merged(dir, s, ns, err, sizeof err) < 0 ||
                          write_meta(dir, s, ns, n, !missing && !unfinished) < 0)) {
        fprintf(stderr, "runner: merge: %s\n", err[0] ? err : "cannot write meta.json");
        rc = EXIT_TRIALS_FAILED;
    }
    if (rc == EXIT_OK) {
        /* the experiment file travels with the results */
        char *from = xasprintf("%s/experiment.yaml", s[0].dir);
        size_t len;
        char *text = read_file(from, &len);
        char *to = xasprintf("%s/experiment.yaml", dir);
        if (text)
            write_file_atomic(to, text, len);
        free(text);
        free(from);
        free(to);
        if (!c->quiet)
            fprintf(stderr, "merged %d of %d shards into %s%s\n", ns, n, dir,
                    missing || unfinished ? " (incomplete: see runner status)" : "");
        if (!c->no_plots) {
            char *files[] = {(char *)dir, NULL};
            cli pc = {.cmd = CMD_PLOT, .files = files, .nfiles = 1, .quiet = c->quiet};
            cmd_plot(&pc);
        }
        report_write(dir, c->quiet);
        if (missing || unfinished)
            rc = EXIT_TRIALS_FAILED;
        else if (earn_latest(dir) == 0 && !c->quiet)
            fprintf(stderr, "runner: merge: latest not moved: %s has no ok trial\n", dir);
    }
    for (int i = 0; i < ns; i++) {
        csv_free(&s[i].trials);
        csv_free(&s[i].samples);
        free(s[i].dir);
    }
    free(s);
    return rc;
}
