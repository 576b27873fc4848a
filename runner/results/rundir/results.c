/* results.c - see results.h.
 *
 * Crash safety: each finished trial is appended with one write() of its
 * samples, then one write() of its trials.csv row.  A run killed at any
 * moment leaves whole rows and, at worst, a torn last line or samples of a
 * trial with no row; --resume trims both and re-runs only unfinished trials. */
#include "results/rundir/results.h"
#include "results/rundir/resume.h"
#include "results/rundir/rundir.h"

#include "base/csv.h"
#include "stats/stats.h"
#include "experiment/table.h"
#include "experiment/trial.h"
#include "base/util.h"
#include "experiment/registry/workloads.h"

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



/* ... then the extra columns (workload results such as loss, hook columns). */
static char *trials_header(const experiment *e, const run_files *R)
{
    strbuf b = {0};
    char *base = resume_header_base(e);
    sb_puts(&b, base);
    free(base);
    for (int i = 0; i < R->nextra; i++) {
        sb_putc(&b, ',');
        csv_field(&b, R->extra[i]);
    }
    sb_putc(&b, '\n');
    return sb_take(&b);
}




int results_is_done(const run_files *R, long long id)
{
    return id >= 0 && id <= R->max_id && (R->done[id / 8] >> (id % 8)) & 1;
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
            resume_add_extra(R, c);
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

/* No files open yet; room for a done mark per trial id. */
static void init_files(run_files *R, const experiment *e)
{
    memset(R, 0, sizeof *R);
    R->trials_fd = R->samples_fd = R->lock_fd = R->more_fd = -1;
    for (long long i = 0; i < e->ntrials; i++)
        if (e->ids[i] > R->max_id)
            R->max_id = e->ids[i];
    R->done = xcalloc((size_t)(R->max_id / 8 + 1), 1);
    R->col_threads = experiment_column(e, "threads");
}

/* A locked run folder: read back what it holds, or start its files (a run
 * killed while its folder was being made has none yet). */
static int load_or_start(run_files *R, const experiment *e, char *err, size_t len)
{
    if (!rundir_is_run(R->run_dir))
        return start_files(R, e, err, len);
    R->has_rows = 1; /* its header is not rewritten in mid-run (widen_empty_header) */
    return resume_load(R, e, err, len);
}

/* The trials and samples tables, opened for appending. */
static int open_tables(run_files *R, char *err, size_t len)
{
    R->trials_fd = open_append(R->run_dir, rundir_name(RD_TRIALS));
    R->samples_fd = open_append(R->run_dir, rundir_name(RD_SAMPLES));
    R->trials_size = R->samples_size = -1; /* learnt at the first append */
    if (R->trials_fd < 0 || R->samples_fd < 0) {
        snprintf(err, len, "cannot open the results in %s: %s", R->run_dir, strerror(errno));
        return -1;
    }
    return 0;
}

int results_open(run_files *R, const experiment *e, const char *output, int resume, char *err,
                 size_t len)
{
    init_files(R, e);
    R->exp_dir = xasprintf("%s/%s", output, e->name);
    if (make_dirs(R->exp_dir) < 0 || access(R->exp_dir, W_OK) < 0) {
        snprintf(err, len, "cannot write to the output folder %s: %s", R->exp_dir,
                 strerror(errno));
        return -1;
    }
    if (resume) {
        char *id = rundir_find_unfinished(R->exp_dir);
        if (id) {
            R->run_id = id;
            R->run_dir = xasprintf("%s/%s", R->exp_dir, id);
            R->resumed = 1;
            if (rundir_lock(R->run_dir, &R->lock_fd, err, len) < 0 ||
                load_or_start(R, e, err, len) < 0)
                return -1;
        }
    }
    if (!R->run_dir) {
        if (!(R->run_dir = rundir_create(R->exp_dir, &R->run_id, err, len)))
            return -1;
        if (rundir_lock(R->run_dir, &R->lock_fd, err, len) < 0 || start_files(R, e, err, len) < 0)
            return -1;
    }
    R->may_be_latest = 1;
    return open_tables(R, err, len);
}

int results_open_dir(run_files *R, const experiment *e, const char *dir, char *err, size_t len)
{
    init_files(R, e);
    if (make_dirs(dir) < 0 || access(dir, W_OK) < 0) {
        snprintf(err, len, "cannot write to %s: %s", dir, strerror(errno));
        return -1;
    }
    R->run_dir = xstrdup(dir);
    const char *slash = strrchr(dir, '/');
    R->run_id = xstrdup(slash ? slash + 1 : dir);
    R->exp_dir = slash ? strndup(dir, (size_t)(slash - dir)) : xstrdup(".");
    if (rundir_lock(R->run_dir, &R->lock_fd, err, len) < 0)
        return -1;
    R->resumed = rundir_is_run(R->run_dir);
    if (load_or_start(R, e, err, len) < 0)
        return -1;
    return open_tables(R, err, len);
}

/* times and statistics: 9 significant digits (finer than the clock's
 * nanosecond), in format_number's text (doc/results.md#results) */
typedef struct num_memo {
    double x;
    char t[64];
} num_memo;

/* format_number(x, 9) into t, or the text of the value before it when x is
 * that value: a one-sample trial's min, median, mean and max are its one
 * sample, formatted once (issue 38) */
static const char *num_text(num_memo *m, double x)
{
    if (x != m->x || !m->t[0]) {
        format_number(m->t, sizeof m->t, x, 9);
        m->x = x;
    }
    return m->t;
}

static void num(strbuf *b, num_memo *m, double x)
{
    sb_putc(b, ',');
    if (isfinite(x))
        sb_puts(b, num_text(m, x));
}

/* A whole number in decimal, as "%lld" writes it: the trial id and sample
 * number of every line, without a printf per line (issue 38). */
static void put_int(strbuf *b, long long v)
{
    char t[24], *p = t + sizeof t;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--p = '-';
    sb_putn(b, p, (size_t)(t + sizeof t - p));
}

/* The first trial written brings its extra columns into the header itself:
 * trials.csv has no row yet, so it is rewritten whole (atomically, and the
 * append descriptor reopened on the new file), and a run whose trials all
 * have the same columns needs no trials.more.csv and no fold at its end
 * (doc/results.md#results).  A run resumed, or rows written already: the
 * cells go to trials.more.csv as before. */
static int widen_empty_header(run_files *R, const experiment *e, char *err, size_t len)
{
    if (R->has_rows || R->nhdr == R->nextra)
        return 0;
    char *hdr = trials_header(e, R);
    int rc = write_new(R->run_dir, rundir_name(RD_TRIALS), hdr, err, len);
    free(hdr);
    if (rc < 0)
        return -1;
    if (R->trials_fd >= 0)
        close(R->trials_fd);
    R->trials_fd = open_append(R->run_dir, rundir_name(RD_TRIALS));
    R->trials_size = -1;
    if (R->trials_fd < 0) {
        snprintf(err, len, "cannot open the results in %s: %s", R->run_dir, strerror(errno));
        return -1;
    }
    R->nhdr = R->nextra;
    return 0;
}

static double phase_median(const trial_result *r, size_t off, double *tmp)
{
    int k = 0;
    for (int i = 0; i < r->nsamples; i++)
        tmp[k++] = *(const double *)((const char *)&r->samples[i] + off);
    return stats_median(tmp, k);
}

/* Device-time statistics (doc/results.md#results): the same statistics as the
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
    int any = 0; /* most trials have no device time: nothing to allocate */
    for (int i = 0; i < r->nsamples && !any; i++)
        any = isfinite(r->samples[i].device_seconds);
    if (!any)
        return 0;
    double *x = xmalloc((size_t)(r->nsamples + 1) * sizeof *x);
    int k = 0;
    for (int i = 0; i < r->nsamples; i++)
        if (isfinite(r->samples[i].device_seconds))
            x[k++] = r->samples[i].device_seconds;
    stats s;
    stats_compute(x, k, &s);
    free(x);
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
        resume_add_extra(R, device_cols[j]);
    for (int j = 0; j < r->nextra; j++)
        resume_add_extra(R, r->extra_keys[j]);
    if (widen_empty_header(R, e, err, len) < 0)
        return -1;
    /* one buffer for the run's lines: no allocation per trial */
    strbuf b = R->line;
    b.len = 0;
    /* cells of columns the header does not have yet: trials.more.csv,
     * before the row (the row commits the trial) */
    for (int i = R->nhdr; i < R->nextra; i++) {
        const char *v = NULL;
        char nb[64];
        for (int j = 0; has_dev && j < NDEVICE_COLS && !v; j++)
            if (!strcmp(R->extra[i], device_cols[j]) && isfinite(dev[j])) {
                format_number(nb, sizeof nb, dev[j], 9);
                v = nb;
            }
        for (int j = 0; j < r->nextra && !v; j++)
            if (!strcmp(r->extra_keys[j], R->extra[i]))
                v = r->extra_vals[j];
        if (!v)
            continue;
        put_int(&b, id);
        sb_putc(&b, ',');
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
    num_memo memo = {0};
    for (int i = 0; i < r->nsamples; i++) {
        char t[64];
        put_int(&b, id);
        sb_putc(&b, ',');
        put_int(&b, i);
        sb_putc(&b, ',');
        sb_puts(&b, num_text(&memo, r->samples[i].seconds));
        sb_putc(&b, ',');
        if (isfinite(r->samples[i].device_seconds)) {
            format_number(t, sizeof t, r->samples[i].device_seconds, 9);
            sb_puts(&b, t);
        }
        sb_putc(&b, '\n');
    }
    if (b.len && append_record(R->samples_fd, &R->samples_size, b.s, b.len) < 0)
        goto fail;
    b.len = 0;

    double x1[8]; /* a few samples: on the stack */
    double *x = r->nsamples < 8 ? x1 : xmalloc((size_t)r->nsamples * sizeof *x);
    for (int i = 0; i < r->nsamples; i++)
        x[i] = r->samples[i].seconds;
    stats s;
    stats_compute(x, r->nsamples, &s);
    double h2d = phase_median(r, offsetof(rn_sample, h2d), x);
    double cmp = phase_median(r, offsetof(rn_sample, compute), x);
    double d2h = phase_median(r, offsetof(rn_sample, d2h), x);
    if (x != x1)
        free(x);

    put_int(&b, id);
    sb_putc(&b, ',');
    /* the key cells as the dry-run writes them (table_keys), but `threads:
     * all` as the number it became (doc/results.md#results) */
    int tc = R->col_threads;
    for (int c = 0; c < e->ncols; c++) {
        value v = trial_value(e, t, c);
        sb_puts(&b, c ? "," : "");
        if (c == tc && v.text && !strcmp(v.text, "all"))
            put_int(&b, host_cpus());
        else if (v.text)
            csv_field(&b, v.text);
    }
    sb_putc(&b, ',');
    sb_puts(&b, status_names[r->status]);
    sb_putc(&b, ',');
    /* one line per row: newlines in a reason would still be quoted, but a
     * reader scanning lines should not have to know that */
    if (r->reason && *r->reason) {
        char *reason = xstrdup(r->reason);
        for (char *p = reason; *p; p++)
            if (*p == '\n' || *p == '\r')
                *p = ' ';
        csv_field(&b, reason);
        free(reason);
    }
    sb_putc(&b, ',');
    put_int(&b, r->nsamples);
    num(&b, &memo, r->cold);
    num(&b, &memo, s.min);
    num(&b, &memo, s.median);
    num(&b, &memo, s.mean);
    num(&b, &memo, s.stddev);
    num(&b, &memo, s.max);
    num(&b, &memo, s.median_ci_low);
    num(&b, &memo, s.median_ci_high);
    num(&b, &memo, s.ci_level);
    num(&b, &memo, h2d);
    num(&b, &memo, cmp);
    num(&b, &memo, d2h);
    num(&b, &memo, r->status == ST_OK && s.median > 0 ? r->flops / s.median / 1e9 : NAN);
    num(&b, &memo, r->status == ST_OK && s.median > 0 ? r->bytes / s.median / 1e9 : NAN);
    for (int i = 0; i < R->nhdr; i++) {
        int dc = -1;
        for (int j = 0; has_dev && j < NDEVICE_COLS && dc < 0; j++)
            if (!strcmp(R->extra[i], device_cols[j]))
                dc = j;
        if (dc >= 0) {
            num(&b, &memo, dev[dc]);
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
    R->line = b;
    R->has_rows = 1;
    R->has_ok |= r->status == ST_OK;
    resume_mark_done(R, id);
    return 0;
fail:
    snprintf(err, len, "cannot write results to %s: %s", R->run_dir, strerror(errno));
    R->line = b;
    return -1;
}

static int cmp_rows(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b; /* the id leads */
    return (x > y) - (x < y);
}

int results_earn_latest(const run_files *R)
{
    /* what this run saved or resumed says it; trials.csv is not read again */
    if (!R->may_be_latest || !R->has_ok)
        return 0;
    rundir_point_latest(R->exp_dir, R->run_id);
    return 1;
}

int results_earn_latest_dir(const char *run_dir)
{
    return rundir_earn_latest(run_dir);
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
    if (resume_fold_more(R->run_dir, err, len) < 0)
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
    sb_free(&R->line);
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
