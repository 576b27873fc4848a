/* resume.c - see resume.h: what a run folder already holds (the rows of
 * finished trials, late extra columns), read back for --resume and folded
 * in at the end of a run.  Internal to runner/rundir/. */
#include "results/rundir/resume.h"

#include "results/rundir/rundir.h"
#include "base/csv.h"
#include "base/util.h"
#include "experiment/columns.h"
#include "experiment/table.h"
#include "experiment/registry/workloads.h"

#include <errno.h>
#include <fcntl.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_done(const run_files *R, long long id)
{
    return id >= 0 && id <= R->max_id && (R->done[id / 8] >> (id % 8)) & 1;
}

/* The header up to gbps: what every run of this experiment has. */
char *resume_header_base(const experiment *e)
{
    strbuf b = {0};
    sb_puts(&b, "trial,");
    table_header(e, &b);
    for (int i = 0; columns_measured[i]; i++) /* status ... gbps */
        sb_printf(&b, ",%s", columns_measured[i]);
    return sb_take(&b);
}

int resume_extra_index(const run_files *R, const char *name)
{
    for (int i = 0; i < R->nextra; i++)
        if (!strcmp(R->extra[i], name))
            return i;
    return -1;
}

void resume_add_extra(run_files *R, const char *name)
{
    if (resume_extra_index(R, name) >= 0)
        return;
    R->extra = xrealloc(R->extra, (size_t)(R->nextra + 1) * sizeof *R->extra);
    R->extra[R->nextra++] = xstrdup(name);
}

void resume_mark_done(run_files *R, long long id)
{
    if (id < 0 || id > R->max_id)
        return;
    R->done[id / 8] |= (unsigned char)(1u << (id % 8));
}

/* Cuts a file back to its last complete line. */
static int trim_torn(const char *path)
{
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return -1;
    off_t size = lseek(fd, 0, SEEK_END);
    off_t keep = size;
    char c;
    while (keep > 0 && pread(fd, &c, 1, keep - 1) == 1 && c != '\n')
        keep--;
    int rc = keep != size ? ftruncate(fd, keep) : 0;
    close(fd);
    return rc;
}

/* A trial id as the runner writes it: decimal digits only, nothing else
 * (doc/results.md#results: a damaged row is re-run, never trusted); -1 if not. */
static long long strict_id(const char *s)
{
    if (!*s || strlen(s) > 18)
        return -1;
    long long v = 0;
    for (const char *c = s; *c; c++) {
        if (*c < '0' || *c > '9')
            return -1;
        v = v * 10 + (*c - '0');
    }
    return v;
}

static long long line_id(const char *line)
{
    const char *comma = strchr(line, ',');
    if (!comma || comma == line || comma - line > 18)
        return -1;
    char buf[20];
    memcpy(buf, line, (size_t)(comma - line));
    buf[comma - line] = '\0';
    return strict_id(buf);
}

/* Does samples.csv hold samples of trials with no row (or a torn line)? */
static int has_orphans(const run_files *R, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int found = 0, first = 1;
    while (!found && (n = getline(&line, &cap, f)) > 0) {
        if (first) {
            first = 0;
            continue;
        }
        found = !is_done(R, line_id(line)) || line[n - 1] != '\n';
    }
    free(line);
    fclose(f);
    return found;
}

/* Loads the finished trials of a resumed run; keeps only the samples of
 * those (a crash may have saved samples of a trial whose row never came). */
/* Is the saved experiment (experiment.yaml of the run) the one given now?
 * The same text is; otherwise both are expanded and every trial of this
 * run must have the same keys under the same id (an edited sweep would mix
 * old and new trials: doc/results.md#results).  0, or -1 with what differs. */
static int same_experiment(const run_files *R, const experiment *e, char *err, size_t len)
{
    char *path = xasprintf("%s/experiment.yaml", R->run_dir);
    diags d = {0};
    /* the same text is the same experiment: compared before loading the
     * copy, whose relative hooks: and lua: paths do not resolve from the
     * run folder */
    size_t saved_len = 0;
    char *saved = read_file(path, &saved_len);
    int same_text = saved && saved_len == e->text_len && !memcmp(saved, e->text, e->text_len);
    free(saved);
    if (same_text) {
        free(path);
        return 0;
    }
    experiment *old = experiment_load(path, &d);
    int rc = 0;
    if (!old) {
        snprintf(err, len, "%s cannot be read back (%s); start a new run", path,
                 d.n ? d.items[0].msg : "unreadable");
        rc = -1;
        goto out;
    }
    if (old->text_len == e->text_len && !memcmp(old->text, e->text, e->text_len))
        goto out;
    strbuf a = {0}, b = {0};
    table_header(old, &a);
    table_header(e, &b);
    if (strcmp(a.s, b.s)) {
        snprintf(err, len, "%s: the experiment's keys differ from the saved run's (%s); start a new run",
                 R->run_dir, path);
        rc = -1;
    }
    /* old->ids ascend: the saved trial of each id by binary search */
    for (long long t = 0; rc == 0 && t < e->ntrials; t++) {
        long long id = e->ids[t], lo = 0, hi = old->ntrials - 1, at = -1;
        while (lo <= hi) {
            long long mid = lo + (hi - lo) / 2;
            if (old->ids[mid] == id) {
                at = mid;
                break;
            }
            if (old->ids[mid] < id)
                lo = mid + 1;
            else
                hi = mid - 1;
        }
        a.len = b.len = 0;
        table_keys(e, t, &b);
        if (at < 0) {
            snprintf(err, len,
                     "%s: trial %lld (%s) is not in the saved experiment %s; the sweep was "
                     "edited: start a new run",
                     R->run_dir, id, b.s, path);
            rc = -1;
            break;
        }
        table_keys(old, at, &a);
        if (strcmp(a.s, b.s)) {
            snprintf(err, len,
                     "%s: trial %lld was %s in the saved experiment and is %s now; the sweep was "
                     "edited: start a new run",
                     R->run_dir, id, a.s, b.s);
            rc = -1;
        }
    }
    sb_free(&a);
    sb_free(&b);
out:
    experiment_free(old);
    diag_free(&d);
    free(path);
    return rc;
}

/* Cells of columns trials.csv's header did not have when their trial was
 * saved wait in trials.more.csv (trial,column,value) until the run's end
 * folds them in (doc/results.md#results).  fold_more_text makes the folded table:
 * the header widened, earlier rows padded, the last line for a cell
 * winning; lines of trials with no row (a crash between the two appends)
 * are dropped.  resume_fold_more writes it over trials.csv (results_close,
 * and --resume after a crash); resume_read_folded only reads it (merge.c:
 * a killed shard's cells, nothing rewritten in a shard that may still
 * run). */
typedef struct keyed_row {
    long long id;
    int row;
} keyed_row;

typedef struct more_cell {
    int row, col, seq;
    const char *v;
} more_cell;

static int cmp_keyed(const void *a, const void *b)
{
    const keyed_row *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

static int cmp_cell(const void *a, const void *b)
{
    const more_cell *x = a, *y = b;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    if (x->col != y->col)
        return x->col < y->col ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* trials.csv of dir with trials.more.csv folded in, as CSV text in *out;
 * *more is 0 (nothing read, *out empty) when there is no trials.more.csv.
 * It is read before trials.csv: a fold made meanwhile by the end of a run
 * still going on (trials.csv widened, then trials.more.csv removed) loses
 * no cell. */
static int fold_more_text(const char *dir, strbuf *out, int *more, char *err, size_t len)
{
    *more = 0;
    char *mp = rundir_path(dir, RD_MORE);
    struct stat st;
    if (lstat(mp, &st) < 0) {
        free(mp);
        return 0;
    }
    csv_table t, m;
    if (!S_ISREG(st.st_mode) || csv_read(mp, &m) < 0) {
        int gone = S_ISREG(st.st_mode) && errno == ENOENT; /* folded meanwhile */
        if (!gone)
            snprintf(err, len, "cannot read %s: %s", mp, S_ISREG(st.st_mode) ? strerror(errno) : "not a file");
        free(mp);
        return gone ? 0 : -1;
    }
    free(mp);
    *more = 1;
    char *tp = rundir_path(dir, RD_TRIALS);
    if (csv_read(tp, &t) < 0) {
        snprintf(err, len, "cannot read %s: %s", tp, strerror(errno));
        csv_free(&m);
        free(tp);
        return -1;
    }
    free(tp);
    int width = t.nrows ? t.nfields[0] : 0;
    int nrows = t.nrows > 0 ? t.nrows - 1 : 0;
    keyed_row *ids = xmalloc(((size_t)nrows + 1) * sizeof *ids);
    for (int r = 1; r < t.nrows; r++)
        ids[r - 1] = (keyed_row){strict_id(t.rows[r][0]), r};
    xqsort(ids, (size_t)nrows, sizeof *ids, cmp_keyed);
    const char **names = NULL;
    int nnames = 0, capnames = 0;
    more_cell *cells = xmalloc(((size_t)m.nrows + 1) * sizeof *cells);
    int ncells = 0;
    for (int l = 1; l < m.nrows; l++) {
        if (m.nfields[l] != 3)
            continue;
        keyed_row key = {strict_id(m.rows[l][0]), 0};
        keyed_row *hit = key.id < 0 || !nrows ? NULL
                                              : bsearch(&key, ids, (size_t)nrows, sizeof *ids, cmp_keyed);
        if (!hit)
            continue;
        const char *name = m.rows[l][1];
        int col = csv_col(&t, name);
        for (int k = 0; col < 0 && k < nnames; k++)
            if (!strcmp(names[k], name))
                col = width + k;
        if (col < 0) {
            if (nnames == capnames) {
                capnames = capnames ? capnames * 2 : 8;
                names = xrealloc(names, (size_t)capnames * sizeof *names);
            }
            names[nnames] = name;
            col = width + nnames++;
        }
        cells[ncells++] = (more_cell){hit->row, col, l, m.rows[l][2]};
    }
    xqsort(cells, (size_t)ncells, sizeof *cells, cmp_cell);
    int c = 0;
    for (int r = 0; r < t.nrows; r++) {
        for (int i = 0; i < width + nnames; i++) {
            if (i)
                sb_putc(out, ',');
            const char *v = r == 0 ? (i < width ? t.rows[0][i] : names[i - width])
                                   : (i < width && i < t.nfields[r] ? t.rows[r][i] : NULL);
            /* the last line for a cell wins */
            while (r > 0 && c < ncells && (cells[c].row < r || (cells[c].row == r && cells[c].col <= i))) {
                if (cells[c].row == r && cells[c].col == i)
                    v = cells[c].v;
                c++;
            }
            csv_field(out, v);
        }
        sb_putc(out, '\n');
    }
    free(cells);
    free(names);
    free(ids);
    csv_free(&m);
    csv_free(&t);
    return 0;
}

int resume_fold_more(const char *dir, char *err, size_t len)
{
    strbuf b = {0};
    int more;
    if (fold_more_text(dir, &b, &more, err, len) < 0)
        return -1;
    if (!more)
        return 0;
    char *tp = rundir_path(dir, RD_TRIALS);
    char *mp = rundir_path(dir, RD_MORE);
    int rc = -1;
    if (write_file_atomic(tp, b.s, b.len) < 0)
        snprintf(err, len, "cannot rewrite %s: %s", tp, strerror(errno));
    else if (unlink(mp) < 0)
        snprintf(err, len, "cannot remove %s: %s", mp, strerror(errno));
    else
        rc = 0;
    sb_free(&b);
    free(tp);
    free(mp);
    return rc;
}

int resume_read_folded(const char *dir, csv_table *t, char *err, size_t len)
{
    memset(t, 0, sizeof *t);
    strbuf b = {0};
    int more;
    if (fold_more_text(dir, &b, &more, err, len) < 0) {
        sb_free(&b);
        return -1;
    }
    if (more) {
        size_t n = b.len;
        csv_parse(sb_take(&b), n, t);
        return 0;
    }
    char *tp = rundir_path(dir, RD_TRIALS);
    int rc = csv_read(tp, t);
    if (rc < 0)
        snprintf(err, len, "cannot read %s: %s", tp, strerror(errno));
    free(tp);
    return rc;
}

int resume_load(run_files *R, const experiment *e, char *err, size_t len)
{
    char *tp = xasprintf("%s/trials.csv", R->run_dir);
    char *sp = xasprintf("%s/samples.csv", R->run_dir);
    int rc = -1;
    if (same_experiment(R, e, err, len) < 0)
        goto out;
    trim_torn(tp);
    /* a run killed before results_close left cells of new columns aside */
    if (resume_fold_more(R->run_dir, err, len) < 0)
        goto out;
    trim_torn(sp);
    csv_table t;
    if (csv_read(tp, &t) < 0) {
        snprintf(err, len, "cannot read %s: %s", tp, strerror(errno));
        goto out;
    }
    /* the columns must be this experiment's; extra columns are taken over */
    char *hdr = resume_header_base(e);
    strbuf have = {0};
    int gbps = t.nrows ? csv_col(&t, "gbps") : -1;
    for (int i = 0; t.nrows && i <= gbps; i++) {
        if (i)
            sb_putc(&have, ',');
        csv_field(&have, t.rows[0][i]);
    }
    int same = gbps >= 0 && have.s && !strcmp(have.s, hdr);
    for (int i = gbps + 1; same && i < t.nfields[0]; i++)
        resume_add_extra(R, t.rows[0][i]);
    R->nhdr = R->nextra;
    sb_free(&have);
    free(hdr);
    if (!same) {
        snprintf(err, len, "%s does not match the experiment's columns; start a new run", tp);
        csv_free(&t);
        goto out;
    }
    /* rows are parsed strictly: a row with a bad id, an unknown status, the
     * wrong width, or a second row for a trial is damaged; it is dropped
     * (trials.csv rewritten without it) and its trial runs again */
    int status_col = csv_col(&t, "status");
    int damaged = 0;
    char *keep = xcalloc((size_t)t.nrows + 1, 1);
    for (int r = 1; r < t.nrows; r++) {
        long long id = strict_id(t.rows[r][0]);
        const char *st = t.nfields[r] > status_col ? t.rows[r][status_col] : "";
        int good_status = !strcmp(st, "ok") || !strcmp(st, "failed") ||
                          !strcmp(st, "timeout") || !strcmp(st, "skipped");
        if (id < 0 || t.nfields[r] <= gbps || t.nfields[r] > t.nfields[0] || !good_status ||
            is_done(R, id)) {
            damaged++;
            continue;
        }
        keep[r] = 1;
        R->has_ok |= !strcmp(st, "ok");
        if (id < R->last_id)
            R->out_of_order = 1;
        R->last_id = id;
        resume_mark_done(R, id);
        R->ndone_here++;
    }
    if (damaged) {
        strbuf b = {0};
        for (int r = 0; r < t.nrows; r++) {
            if (r && !keep[r])
                continue;
            for (int i = 0; i < t.nfields[r]; i++) {
                if (i)
                    sb_putc(&b, ',');
                csv_field(&b, t.rows[r][i]);
            }
            sb_putc(&b, '\n');
        }
        int w = write_file_atomic(tp, b.s, b.len);
        sb_free(&b);
        if (w < 0) {
            snprintf(err, len, "cannot rewrite %s: %s", tp, strerror(errno));
            free(keep);
            csv_free(&t);
            goto out;
        }
        R->damaged = damaged;
    }
    free(keep);
    csv_free(&t);
    /* rewrite samples.csv without orphans (rare: only after a crash); a
     * streaming look for them first, as the file can be large */
    csv_table s;
    if (has_orphans(R, sp) && csv_read(sp, &s) == 0) {
        strbuf b = {0};
        int orphans = 0;
        sb_puts(&b, "trial,sample,seconds,device_seconds\n");
        for (int r = 1; r < s.nrows; r++) {
            if (s.nfields[r] != 4 || !is_done(R, strict_id(s.rows[r][0]))) {
                orphans++;
                continue;
            }
            sb_printf(&b, "%s,%s,%s,%s\n", s.rows[r][0], s.rows[r][1], s.rows[r][2], s.rows[r][3]);
        }
        if (orphans && write_file_atomic(sp, b.s, b.len) < 0) {
            snprintf(err, len, "cannot rewrite %s: %s", sp, strerror(errno));
            sb_free(&b);
            csv_free(&s);
            goto out;
        }
        sb_free(&b);
        csv_free(&s);
    }
    rc = 0;
out:
    free(tp);
    free(sp);
    return rc;
}
