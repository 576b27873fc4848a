/* results.c - see results.h.
 *
 * Crash safety: each finished trial is appended with one write() of its
 * samples, then one write() of its trials.csv row.  A run killed at any
 * moment leaves whole rows and, at worst, a torn last line or samples of a
 * trial with no row; --resume trims both and re-runs only unfinished trials. */
#include "rundir/results.h"
#include "rundir/rundir.h"

#include "base/csv.h"
#include "stats/stats.h"
#include "experiment/table.h"
#include "base/util.h"
#include "registry/workloads.h"

#include <dirent.h>
#include <json.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


/* Appends a whole record or nothing: a failed write (disk full) is cut
 * back, so no file is left with half a line. */
static int append_record(int fd, off_t *size, const char *p, size_t n)
{
    if (*size < 0)
        *size = lseek(fd, 0, SEEK_END);
    if (fd_write_all(fd, p, n) == 0) {
        *size += (off_t)n;
        return 0;
    }
    int saved = errno;
    if (*size >= 0 && ftruncate(fd, *size) < 0) {
        /* nothing more to do: resume trims a torn line anyway */
    }
    errno = saved;
    return -1;
}


/* The header up to gbps: what every run of this experiment has. */
static char *trials_header_base(const experiment *e)
{
    strbuf b = {0};
    sb_puts(&b, "trial,");
    table_header(e, &b);
    sb_puts(&b, ",status,reason,samples,cold,min,median,mean,stddev,max,median_ci_low,median_ci_high,ci_level,"
                "h2d,compute,d2h,gflops,gbps");
    return sb_take(&b);
}

/* ... then the extra columns (workload results such as loss, hook columns). */
static char *trials_header(const experiment *e, const run_files *R)
{
    strbuf b = {0};
    char *base = trials_header_base(e);
    sb_puts(&b, base);
    free(base);
    for (int i = 0; i < R->nextra; i++) {
        sb_putc(&b, ',');
        csv_field(&b, R->extra[i]);
    }
    sb_putc(&b, '\n');
    return sb_take(&b);
}

static int extra_index(const run_files *R, const char *name)
{
    for (int i = 0; i < R->nextra; i++)
        if (!strcmp(R->extra[i], name))
            return i;
    return -1;
}

static void add_extra(run_files *R, const char *name)
{
    if (extra_index(R, name) >= 0)
        return;
    R->extra = xrealloc(R->extra, (size_t)(R->nextra + 1) * sizeof *R->extra);
    R->extra[R->nextra++] = xstrdup(name);
}

static void mark_done(run_files *R, long long id)
{
    if (id < 0 || id > R->max_id)
        return;
    R->done[id / 8] |= (unsigned char)(1u << (id % 8));
}

int results_is_done(const run_files *R, long long id)
{
    return id >= 0 && id <= R->max_id && (R->done[id / 8] >> (id % 8)) & 1;
}

/* Is this run folder unfinished?  meta.json says "finished": false. */
static int unfinished(const char *run_dir)
{
    /* a run submitted to Slurm is resumed with `runner submit --resume` */
    char *job = xasprintf("%s/job.sbatch", run_dir);
    int submitted = access(job, F_OK) == 0;
    free(job);
    if (submitted)
        return 0;
    char *p = xasprintf("%s/meta.json", run_dir);
    if (access(p, F_OK) < 0) { /* killed before its meta.json: unfinished */
        free(p);
        return errno == ENOENT;
    }
    json_object *m = json_object_from_file(p);
    free(p);
    json_object *fin = NULL;
    int open = m && json_object_object_get_ex(m, "finished", &fin) && !json_object_get_boolean(fin);
    json_object_put(m);
    return open;
}

static int cmp_desc(const void *a, const void *b)
{
    return strcmp(*(char *const *)b, *(char *const *)a);
}

/* The newest unfinished run of this experiment, or NULL. */
static char *find_unfinished(const char *exp_dir)
{
    DIR *d = opendir(exp_dir);
    if (!d)
        return NULL;
    char **names = NULL;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (strlen(de->d_name) < 16 || de->d_name[8] != 'T' || de->d_name[15] != 'Z')
            continue;
        names = xrealloc(names, (size_t)(n + 1) * sizeof *names);
        names[n++] = xstrdup(de->d_name);
    }
    closedir(d);
    if (n)
        xqsort(names, (size_t)n, sizeof *names, cmp_desc);
    char *found = NULL;
    for (int i = 0; i < n && !found; i++) {
        char *dir = xasprintf("%s/%s", exp_dir, names[i]);
        if (unfinished(dir))
            found = xstrdup(names[i]);
        free(dir);
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return found;
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
 * (README "Results": a damaged row is re-run, never trusted); -1 if not. */
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
        found = !results_is_done(R, line_id(line)) || line[n - 1] != '\n';
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
 * old and new trials: README "Results").  0, or -1 with what differs. */
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
 * saved wait in trials.more.csv (trial,column,value); this folds them into
 * trials.csv with one rewrite (the header widened, earlier rows padded) and
 * removes the file.  Lines of trials with no row (a crash between the two
 * appends) are dropped.  Run at results_close and, after a crash, by
 * --resume before it reads trials.csv. */
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

static int fold_more(const char *dir, char *err, size_t len)
{
    char *mp = xasprintf("%s/trials.more.csv", dir);
    struct stat st;
    if (lstat(mp, &st) < 0) {
        free(mp);
        return 0;
    }
    char *tp = xasprintf("%s/trials.csv", dir);
    csv_table t, m;
    int rc = -1;
    if (csv_read(tp, &t) < 0) {
        snprintf(err, len, "cannot read %s: %s", tp, strerror(errno));
        free(tp);
        free(mp);
        return -1;
    }
    if (!S_ISREG(st.st_mode) || csv_read(mp, &m) < 0) {
        snprintf(err, len, "cannot read %s: %s", mp, S_ISREG(st.st_mode) ? strerror(errno) : "not a file");
        csv_free(&t);
        free(tp);
        free(mp);
        return -1;
    }
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
    strbuf b = {0};
    int c = 0;
    for (int r = 0; r < t.nrows; r++) {
        for (int i = 0; i < width + nnames; i++) {
            if (i)
                sb_putc(&b, ',');
            const char *v = r == 0 ? (i < width ? t.rows[0][i] : names[i - width])
                                   : (i < width && i < t.nfields[r] ? t.rows[r][i] : NULL);
            /* the last line for a cell wins */
            while (r > 0 && c < ncells && (cells[c].row < r || (cells[c].row == r && cells[c].col <= i))) {
                if (cells[c].row == r && cells[c].col == i)
                    v = cells[c].v;
                c++;
            }
            csv_field(&b, v);
        }
        sb_putc(&b, '\n');
    }
    if (write_file_atomic(tp, b.s, b.len) < 0)
        snprintf(err, len, "cannot rewrite %s: %s", tp, strerror(errno));
    else if (unlink(mp) < 0)
        snprintf(err, len, "cannot remove %s: %s", mp, strerror(errno));
    else
        rc = 0;
    sb_free(&b);
    free(cells);
    free(names);
    free(ids);
    csv_free(&m);
    csv_free(&t);
    free(tp);
    free(mp);
    return rc;
}

static int load_previous(run_files *R, const experiment *e, char *err, size_t len)
{
    char *tp = xasprintf("%s/trials.csv", R->run_dir);
    char *sp = xasprintf("%s/samples.csv", R->run_dir);
    int rc = -1;
    if (same_experiment(R, e, err, len) < 0)
        goto out;
    trim_torn(tp);
    /* a run killed before results_close left cells of new columns aside */
    if (fold_more(R->run_dir, err, len) < 0)
        goto out;
    trim_torn(sp);
    csv_table t;
    if (csv_read(tp, &t) < 0) {
        snprintf(err, len, "cannot read %s: %s", tp, strerror(errno));
        goto out;
    }
    /* the columns must be this experiment's; extra columns are taken over */
    char *hdr = trials_header_base(e);
    strbuf have = {0};
    int gbps = t.nrows ? csv_col(&t, "gbps") : -1;
    for (int i = 0; t.nrows && i <= gbps; i++) {
        if (i)
            sb_putc(&have, ',');
        csv_field(&have, t.rows[0][i]);
    }
    int same = gbps >= 0 && have.s && !strcmp(have.s, hdr);
    for (int i = gbps + 1; same && i < t.nfields[0]; i++)
        add_extra(R, t.rows[0][i]);
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
            results_is_done(R, id)) {
            damaged++;
            continue;
        }
        keep[r] = 1;
        if (id < R->last_id)
            R->out_of_order = 1;
        R->last_id = id;
        mark_done(R, id);
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
            if (s.nfields[r] != 4 || !results_is_done(R, strict_id(s.rows[r][0]))) {
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

/* Columns the experiment's workloads declare (e.g. mlp_train: loss,
 * accuracy) are in the header from the start. */
static void declared_extras(run_files *R, const experiment *e)
{
    int wc = experiment_column(e, "workload");
    for (long long t = 0; wc >= 0 && t < e->ntrials; t++) {
        value w = trial_value(e, t, wc);
        const workload_desc *d = w.text ? workload_find(w.text) : NULL;
        if (!d || !d->extras)
            continue;
        char *list = xstrdup(d->extras), *save = NULL;
        for (char *c = strtok_r(list, "|", &save); c; c = strtok_r(NULL, "|", &save))
            add_extra(R, c);
        free(list);
        if (e->ntrials > 1000 && t > 1000)
            break; /* the workload axis repeats: enough seen */
    }
}

static int open_append(const char *dir, const char *name)
{
    char *p = xasprintf("%s/%s", dir, name);
    int fd = open(p, O_WRONLY | O_APPEND | O_CLOEXEC);
    free(p);
    return fd;
}

static int write_new(const char *dir, const char *name, const char *data, char *err, size_t len)
{
    char *p = xasprintf("%s/%s", dir, name);
    int rc = write_file_atomic(p, data, strlen(data));
    if (rc < 0)
        snprintf(err, len, "cannot write %s: %s", p, strerror(errno));
    free(p);
    return rc;
}

/* The files of a run that has none yet: headers, and the experiment. */
static int start_files(run_files *R, const experiment *e, char *err, size_t len)
{
    declared_extras(R, e);
    char *hdr = trials_header(e, R);
    int rc = write_new(R->run_dir, "experiment.yaml", e->text, err, len);
    if (rc == 0)
        rc = write_new(R->run_dir, "samples.csv", "trial,sample,seconds,device_seconds\n", err, len);
    /* trials.csv last: its presence says the run has started */
    if (rc == 0)
        rc = write_new(R->run_dir, "trials.csv", hdr, err, len);
    free(hdr);
    R->nhdr = R->nextra;
    return rc;
}

/* The run's lock: an exclusive fcntl() lock on RUN/.lock, held until
 * results_free, so that two runners never write one run folder (README
 * "Results").  A POSIX record lock, not flock(): it belongs to this process
 * alone, so the worker and hooks processes forked from it do not hold it on
 * after a SIGKILL of the runner; the kernel drops it when the runner dies.
 * The holder's pid comes from F_GETLK, and is written in the file too. */
static int lock_run(run_files *R, char *err, size_t len)
{
    char *p = xasprintf("%s/.lock", R->run_dir);
    int fd = open(p, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
        snprintf(err, len, "cannot lock %s: %s", p, strerror(errno));
        free(p);
        return -1;
    }
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    if (fcntl(fd, F_SETLK, &fl) < 0) {
        struct flock who = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
        long long pid = 0;
        if (fcntl(fd, F_GETLK, &who) == 0 && who.l_type != F_UNLCK)
            pid = who.l_pid;
        else {
            char buf[32] = "";
            ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
            buf[n > 0 ? n : 0] = '\0';
            pid = atoll(buf);
        }
        snprintf(err, len, "%s: run is locked by pid %lld (another runner is writing it)",
                 R->run_dir, pid);
        close(fd);
        free(p);
        return -1;
    }
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%d\n", (int)getpid());
    if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
        /* the lock holds without the pid: only the message loses it */
    }
    R->lock_fd = fd;
    free(p);
    return 0;
}

/* latest -> <run-id>, replaced atomically.  Only a run that finished with an
 * ok trial earns it (README "Results"; issue 16: an empty --filter run or a
 * crashed run must not become what `compare` and `plot` take as latest). */
static int point_latest_at(const char *exp_dir, const char *run_id)
{
    char *tmp = xasprintf("%s/.latest.%d", exp_dir, (int)getpid());
    char *lnk = xasprintf("%s/latest", exp_dir);
    unlink(tmp);
    int rc = symlink(run_id, tmp) == 0 && rename(tmp, lnk) == 0 ? 0 : -1;
    if (rc < 0)
        unlink(tmp);
    free(tmp);
    free(lnk);
    return rc;
}

static void point_latest(const run_files *R)
{
    point_latest_at(R->exp_dir, R->run_id);
}

int results_open(run_files *R, const experiment *e, const char *output, int resume, char *err,
                 size_t len)
{
    memset(R, 0, sizeof *R);
    R->trials_fd = R->samples_fd = R->lock_fd = R->more_fd = -1;
    R->max_id = 0;
    for (long long i = 0; i < e->ntrials; i++)
        if (e->ids[i] > R->max_id)
            R->max_id = e->ids[i];
    R->done = xcalloc((size_t)(R->max_id / 8 + 1), 1);
    R->exp_dir = xasprintf("%s/%s", output, e->name);
    if (make_dirs(R->exp_dir) < 0 || access(R->exp_dir, W_OK) < 0) {
        snprintf(err, len, "cannot write to the output folder %s: %s", R->exp_dir,
                 strerror(errno));
        return -1;
    }
    if (resume) {
        char *id = find_unfinished(R->exp_dir);
        if (id) {
            R->run_id = id;
            R->run_dir = xasprintf("%s/%s", R->exp_dir, id);
            R->resumed = 1;
            if (lock_run(R, err, len) < 0)
                return -1;
            char *tp = xasprintf("%s/trials.csv", R->run_dir);
            int started = access(tp, F_OK) == 0;
            free(tp);
            /* a run killed while its folder was being made has no files yet */
            if (started ? load_previous(R, e, err, len) < 0 : start_files(R, e, err, len) < 0)
                return -1;
        }
    }
    if (!R->run_dir) {
        if (!(R->run_dir = rundir_create(R->exp_dir, err, len)))
            return -1;
        const char *slash = strrchr(R->run_dir, '/');
        R->run_id = xstrdup(slash + 1);
        if (lock_run(R, err, len) < 0 || start_files(R, e, err, len) < 0)
            return -1;
    }
    R->may_be_latest = 1;
    R->trials_fd = open_append(R->run_dir, "trials.csv");
    R->samples_fd = open_append(R->run_dir, "samples.csv");
    R->trials_size = R->samples_size = -1; /* learnt at the first append */
    if (R->trials_fd < 0 || R->samples_fd < 0) {
        snprintf(err, len, "cannot open the results in %s: %s", R->run_dir, strerror(errno));
        return -1;
    }
    return 0;
}

int results_open_dir(run_files *R, const experiment *e, const char *dir, char *err, size_t len)
{
    memset(R, 0, sizeof *R);
    R->trials_fd = R->samples_fd = R->lock_fd = R->more_fd = -1;
    for (long long i = 0; i < e->ntrials; i++)
        if (e->ids[i] > R->max_id)
            R->max_id = e->ids[i];
    R->done = xcalloc((size_t)(R->max_id / 8 + 1), 1);
    if (make_dirs(dir) < 0 || access(dir, W_OK) < 0) {
        snprintf(err, len, "cannot write to %s: %s", dir, strerror(errno));
        return -1;
    }
    R->run_dir = xstrdup(dir);
    const char *slash = strrchr(dir, '/');
    R->run_id = xstrdup(slash ? slash + 1 : dir);
    R->exp_dir = slash ? strndup(dir, (size_t)(slash - dir)) : xstrdup(".");
    if (lock_run(R, err, len) < 0)
        return -1;
    char *tp = xasprintf("%s/trials.csv", dir);
    int started = access(tp, F_OK) == 0;
    free(tp);
    R->resumed = started;
    if (started ? load_previous(R, e, err, len) < 0 : start_files(R, e, err, len) < 0)
        return -1;
    R->trials_fd = open_append(R->run_dir, "trials.csv");
    R->samples_fd = open_append(R->run_dir, "samples.csv");
    R->trials_size = R->samples_size = -1; /* learnt at the first append */
    if (R->trials_fd < 0 || R->samples_fd < 0) {
        snprintf(err, len, "cannot open the results in %s: %s", R->run_dir, strerror(errno));
        return -1;
    }
    return 0;
}

static void num(strbuf *b, double x)
{
    sb_putc(b, ',');
    if (isfinite(x))
        sb_printf(b, "%.9g", x);
}

static double phase_median(const trial_result *r, size_t off, double *tmp)
{
    int k = 0;
    for (int i = 0; i < r->nsamples; i++)
        tmp[k++] = *(const double *)((const char *)&r->samples[i] + off);
    return stats_median(tmp, k);
}

/* Device-time statistics (README "Results"): the same statistics as the
 * wall-time columns, over samples.csv's device_seconds, for a trial whose
 * backend measured them (CUDA events).  They are columns after gbps that
 * appear with the first such trial, so a CPU-only trials.csv is as before. */
static const char *const device_cols[] = {
    "device_min", "device_median",         "device_mean",           "device_stddev",
    "device_max", "device_median_ci_low", "device_median_ci_high", "device_ci_level"};
#define NDEVICE_COLS 8

/* 1 and the statistics when some sample has a device time; else 0. */
static int device_stats(const trial_result *r, double out[NDEVICE_COLS])
{
    double *x = xmalloc((size_t)(r->nsamples + 1) * sizeof *x);
    int k = 0;
    for (int i = 0; i < r->nsamples; i++)
        if (isfinite(r->samples[i].device_seconds))
            x[k++] = r->samples[i].device_seconds;
    stats s;
    if (k)
        stats_compute(x, k, &s);
    free(x);
    if (!k)
        return 0;
    double v[NDEVICE_COLS] = {s.min,          s.median,          s.mean,    s.stddev,
                              s.max, s.median_ci_low, s.median_ci_high, s.ci_level};
    memcpy(out, v, sizeof v);
    return 1;
}

int results_write(run_files *R, const experiment *e, long long t, const trial_result *r,
                  char *err, size_t len)
{
    long long id = e->ids[t];
    if (id < R->last_id)
        R->out_of_order = 1;
    R->last_id = id;
    double dev[NDEVICE_COLS];
    int has_dev = device_stats(r, dev);
    for (int j = 0; has_dev && j < NDEVICE_COLS; j++)
        add_extra(R, device_cols[j]);
    for (int j = 0; j < r->nextra; j++)
        add_extra(R, r->extra_keys[j]);
    strbuf b = {0};
    /* cells of columns the header does not have yet: trials.more.csv,
     * before the row (the row commits the trial) */
    for (int i = R->nhdr; i < R->nextra; i++) {
        const char *v = NULL;
        char nb[64];
        for (int j = 0; has_dev && j < NDEVICE_COLS && !v; j++)
            if (!strcmp(R->extra[i], device_cols[j]) && isfinite(dev[j])) {
                snprintf(nb, sizeof nb, "%.9g", dev[j]);
                v = nb;
            }
        for (int j = 0; j < r->nextra && !v; j++)
            if (!strcmp(r->extra_keys[j], R->extra[i]))
                v = r->extra_vals[j];
        if (!v)
            continue;
        sb_printf(&b, "%lld,", id);
        csv_field(&b, R->extra[i]);
        sb_putc(&b, ',');
        csv_field(&b, v);
        sb_putc(&b, '\n');
    }
    if (b.len) {
        if (R->more_fd < 0) {
            char *mp = xasprintf("%s/trials.more.csv", R->run_dir);
            R->more_fd = open(mp, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
            free(mp);
            R->more_size = -1;
            struct stat ms;
            if (R->more_fd >= 0 && fstat(R->more_fd, &ms) == 0 && ms.st_size == 0 &&
                append_record(R->more_fd, &R->more_size, "trial,column,value\n", 19) < 0)
                goto fail;
        }
        if (R->more_fd < 0 || append_record(R->more_fd, &R->more_size, b.s, b.len) < 0)
            goto fail;
        b.len = 0;
    }
    for (int i = 0; i < r->nsamples; i++) {
        sb_printf(&b, "%lld,%d,%.9g,", id, i, r->samples[i].seconds);
        if (isfinite(r->samples[i].device_seconds))
            sb_printf(&b, "%.9g", r->samples[i].device_seconds);
        sb_putc(&b, '\n');
    }
    if (b.len && append_record(R->samples_fd, &R->samples_size, b.s, b.len) < 0)
        goto fail;
    b.len = 0;

    double *x = xmalloc((size_t)(r->nsamples + 1) * sizeof *x);
    for (int i = 0; i < r->nsamples; i++)
        x[i] = r->samples[i].seconds;
    stats s;
    stats_compute(x, r->nsamples, &s);
    double h2d = phase_median(r, offsetof(rn_sample, h2d), x);
    double cmp = phase_median(r, offsetof(rn_sample, compute), x);
    double d2h = phase_median(r, offsetof(rn_sample, d2h), x);
    free(x);

    sb_printf(&b, "%lld,", id);
    table_keys(e, t, &b);
    sb_printf(&b, ",%s,", status_names[r->status]);
    /* one line per row: newlines in a reason would still be quoted, but a
     * reader scanning lines should not have to know that */
    char *reason = xstrdup(r->reason ? r->reason : "");
    for (char *p = reason; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    csv_field(&b, reason);
    free(reason);
    sb_printf(&b, ",%d", r->nsamples);
    num(&b, r->cold);
    num(&b, s.min);
    num(&b, s.median);
    num(&b, s.mean);
    num(&b, s.stddev);
    num(&b, s.max);
    num(&b, s.median_ci_low);
    num(&b, s.median_ci_high);
    num(&b, s.ci_level);
    num(&b, h2d);
    num(&b, cmp);
    num(&b, d2h);
    num(&b, r->status == ST_OK && s.median > 0 ? r->flops / s.median / 1e9 : NAN);
    num(&b, r->status == ST_OK && s.median > 0 ? r->bytes / s.median / 1e9 : NAN);
    for (int i = 0; i < R->nhdr; i++) {
        int dc = -1;
        for (int j = 0; has_dev && j < NDEVICE_COLS && dc < 0; j++)
            if (!strcmp(R->extra[i], device_cols[j]))
                dc = j;
        if (dc >= 0) {
            num(&b, dev[dc]);
            continue;
        }
        sb_putc(&b, ',');
        for (int j = 0; j < r->nextra; j++)
            if (!strcmp(r->extra_keys[j], R->extra[i]))
                csv_field(&b, r->extra_vals[j]);
    }
    sb_putc(&b, '\n');
    if (append_record(R->trials_fd, &R->trials_size, b.s, b.len) < 0)
        goto fail;
    sb_free(&b);
    mark_done(R, id);
    return 0;
fail:
    snprintf(err, len, "cannot write results to %s: %s", R->run_dir, strerror(errno));
    sb_free(&b);
    return -1;
}

static int cmp_rows(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b; /* the id leads */
    return (x > y) - (x < y);
}

int results_earn_latest(const run_files *R)
{
    if (!R->may_be_latest || !rundir_has_ok_trial(R->run_dir))
        return 0;
    point_latest(R);
    return 1;
}

int results_earn_latest_dir(const char *run_dir)
{
    char *abs = realpath(run_dir, NULL);
    if (!abs)
        return 0;
    char *slash = strrchr(abs, '/');
    int ok = slash && slash != abs && rundir_has_ok_trial(abs);
    if (ok) {
        *slash = '\0';
        ok = point_latest_at(abs, slash + 1) == 0;
    }
    free(abs);
    return ok;
}

int results_close(run_files *R, int finished, char *err, size_t len)
{
    int rc = 0;
    if (R->trials_fd >= 0 && fsync(R->trials_fd) < 0 && errno != EINVAL)
        rc = -1;
    if (R->samples_fd >= 0 && fsync(R->samples_fd) < 0 && errno != EINVAL)
        rc = -1;
    if (R->more_fd >= 0 && fsync(R->more_fd) < 0 && errno != EINVAL)
        rc = -1;
    if (R->trials_fd >= 0)
        close(R->trials_fd);
    if (R->samples_fd >= 0)
        close(R->samples_fd);
    if (R->more_fd >= 0)
        close(R->more_fd);
    R->trials_fd = R->samples_fd = R->more_fd = -1;
    if (rc < 0) {
        snprintf(err, len, "cannot save results in %s: %s", R->run_dir, strerror(errno));
        return -1;
    }
    /* new columns: one rewrite for the whole run */
    if (fold_more(R->run_dir, err, len) < 0)
        return -1;
    R->nhdr = R->nextra;
    if (!finished || !R->out_of_order)
        return 0;
    /* a resumed run appended out of order: put the rows in trial order */
    char *tp = xasprintf("%s/trials.csv", R->run_dir);
    csv_table t;
    if (csv_read(tp, &t) == 0 && t.nrows > 1) {
        /* sort row indices by trial id, parsed once */
        int k = t.nrows - 1;
        struct keyed {
            long long id;
            int row;
        } *order = xmalloc((size_t)k * sizeof *order);
        for (int r = 1; r < t.nrows; r++)
            order[r - 1] = (struct keyed){atoll(t.rows[r][0]), r};
        xqsort(order, (size_t)k, sizeof *order, cmp_rows);
        strbuf b = {0};
        for (int q = -1; q < k; q++) {
            int r = q < 0 ? 0 : order[q].row;
            /* every row as wide as the header: a short one is padded, not lost */
            for (int i = 0; i < t.nfields[0]; i++) {
                if (i)
                    sb_putc(&b, ',');
                if (i < t.nfields[r])
                    csv_field(&b, t.rows[r][i]);
            }
            sb_putc(&b, '\n');
        }
        free(order);
        if (write_file_atomic(tp, b.s, b.len) < 0) {
            snprintf(err, len, "cannot rewrite %s: %s", tp, strerror(errno));
            rc = -1;
        }
        sb_free(&b);
    }
    csv_free(&t);
    free(tp);
    return rc;
}

void results_free(run_files *R)
{
    for (int i = 0; i < R->nextra; i++)
        free(R->extra[i]);
    free(R->extra);
    free(R->exp_dir);
    free(R->run_id);
    free(R->run_dir);
    free(R->done);
    if (R->more_fd >= 0)
        close(R->more_fd);
    if (R->lock_fd >= 0)
        close(R->lock_fd); /* the lock goes with it */
    memset(R, 0, sizeof *R);
    R->trials_fd = R->samples_fd = R->lock_fd = R->more_fd = -1;
}
