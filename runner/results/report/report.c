/* report.c - RUN_DIR/report.md: the environment (the run's metadata), the
 * findings computed from the trials table (crossovers, the fastest configuration at each
 * size, the largest speedup, noisy trials, failures and skips), the charts,
 * and a table of every trial. */
#include "results/report/plots.h"
#include "results/rundir/result.h"

#include "results/report/plot_crossover.h"
#include "results/report/plot_model.h"
#include "results/report/drift.h"
#include "results/report/findings.h"
#include "results/report/report_text.h"
#include "results/report/baselines.h"
#include "results/report/report_html.h"
#include "base/util.h"
#include "results/rundir/rundir.h"

#include <dirent.h>
#include <errno.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* a, then, when there is a b, sep, b and close (Markdown-safe) */
static void md_two(strbuf *b, const char *a, const char *sep, const char *second,
                   const char *close)
{
    report_md(b, a);
    if (second) {
        sb_puts(b, sep);
        report_md(b, second);
        sb_puts(b, close);
    }
}

static void environment(strbuf *b, json_object *meta)
{
    sb_puts(b, "## Environment\n\n");
    if (!meta) {
        sb_printf(b, "%s is missing or unreadable.\n\n", rundir_name(RD_META));
        return;
    }
    const char *s;
    sb_puts(b, "| | |\n| --- | --- |\n");
    if ((s = report_jstr(meta, "host.hostname"))) {
        sb_puts(b, "| host | ");
        report_md(b, s);
        sb_puts(b, " |\n");
    }
    const char *os = report_jstr(meta, "host.os"), *kern = report_jstr(meta, "host.kernel");
    if (os || kern) {
        sb_puts(b, "| OS | ");
        report_md(b, os ? os : "");
        if (kern) {
            sb_puts(b, os ? " (" : "");
            report_md(b, kern);
            sb_puts(b, os ? ")" : "");
        }
        sb_puts(b, " |\n");
    }
    if ((s = report_jstr(meta, "host.cpu_model"))) {
        sb_puts(b, "| CPU | ");
        report_md(b, s);
        const char *cores = report_jstr(meta, "host.cores"), *online = report_jstr(meta, "host.online_cpus");
        if (cores)
            sb_printf(b, ", %s cores", cores);
        if (online && cores && strcmp(online, cores))
            sb_printf(b, " (%s online)", online);
        sb_puts(b, " |\n");
    }
    json_object *mem = report_jget(report_jget(meta, "host"), "memory_bytes");
    if (mem && json_object_get_int64(mem) > 0) {
        char t[32];
        fmt_bytes(t, sizeof t, (double)json_object_get_int64(mem));
        sb_printf(b, "| memory | %s |\n", t);
    }
    json_object *blas = report_jget(meta, "blas");
    if (blas && json_object_is_type(blas, json_type_object) && json_object_object_length(blas)) {
        sb_puts(b, "| BLAS | ");
        int first = 1;
        json_object_object_foreach(blas, k, v)
        {
            if (!v)
                continue;
            if (!first)
                sb_puts(b, "; ");
            if (strcmp(k, "blas")) {
                report_md(b, k);
                sb_puts(b, ": ");
            }
            report_md(b, json_object_get_string(v));
            first = 0;
        }
        sb_puts(b, " |\n");
    }
    json_object *cuda = report_jget(meta, "cuda");
    json_object *devs = report_jget(cuda, "devices");
    size_t nd =
        devs && json_object_is_type(devs, json_type_array) ? json_object_array_length(devs) : 0;
    if (nd == 0) {
        sb_puts(b, "| CUDA | none");
        if ((s = report_jstr(meta, "cuda.unavailable"))) {
            sb_puts(b, ": ");
            report_md(b, s);
        }
        sb_puts(b, " |\n");
    }
    for (size_t i = 0; i < nd; i++) {
        json_object *d = json_object_array_get_idx(devs, i);
        sb_printf(b, "| CUDA device %zu | ", i);
        report_md(b, report_jstr(d, "name") ? report_jstr(d, "name") : "?");
        json_object *dm = report_jget(d, "memory_bytes");
        if (dm && json_object_get_int64(dm) > 0) {
            char t[32];
            fmt_bytes(t, sizeof t, (double)json_object_get_int64(dm));
            sb_printf(b, ", %s", t);
        }
        if ((s = report_jstr(d, "detail")) && *s) {
            sb_puts(b, ", ");
            report_md(b, s);
        }
        sb_puts(b, " |\n");
    }
    if (cuda && json_object_is_type(cuda, json_type_object)) {
        json_object_object_foreach(cuda, k, v)
        {
            if (!v || !strcmp(k, "devices") || !strcmp(k, "unavailable"))
                continue;
            sb_puts(b, "| ");
            report_md(b, k);
            sb_puts(b, " | ");
            report_md(b, json_object_get_string(v));
            sb_puts(b, " |\n");
        }
    }
    json_object *env = report_jget(meta, "environment");
    if (env && json_object_is_type(env, json_type_object) && json_object_object_length(env)) {
        sb_puts(b, "| environment | ");
        int first = 1;
        json_object_object_foreach(env, k, v)
        {
            sb_puts(b, first ? "" : ", ");
            sb_putc(b, '`');
            for (const char *p = k; *p; p++)
                sb_putc(b, *p == '`' || *p == '|' || *p == '\n' ? ' ' : *p);
            sb_putc(b, '=');
            for (const char *p = v ? json_object_get_string(v) : ""; *p; p++)
                sb_putc(b, *p == '`' || *p == '|' || *p == '\n' ? ' ' : *p);
            sb_putc(b, '`');
            first = 0;
        }
        sb_puts(b, " |\n");
    }
    const char *ver = report_jstr(meta, "runner.version"), *rev = report_jstr(meta, "runner.git_revision");
    if (ver) {
        sb_puts(b, "| runner | ");
        md_two(b, ver, " (", rev, ")");
        sb_puts(b, " |\n");
    }
    const char *start = report_jstr(meta, "start"), *end = report_jstr(meta, "end");
    if (start) {
        sb_puts(b, "| run | ");
        md_two(b, start, " to ", end, "");
        json_object *w = report_jget(report_jget(meta, "summary"), "wall_seconds");
        if (w) {
            char t[32];
            fmt_seconds(t, sizeof t, json_object_get_double(w));
            sb_printf(b, " (%s)", t);
        }
        /* a resumed run keeps its first start (doc/results.md#results);
         * the wall time above is its last part's */
        json_object *res = report_jget(meta, "resumed");
        size_t nres = res && json_object_is_type(res, json_type_array)
                          ? json_object_array_length(res) : 0;
        if (nres) {
            const char *when =
                json_object_get_string(json_object_array_get_idx(res, nres - 1));
            if (nres > 1)
                sb_printf(b, "; resumed %zu times, last at ", nres);
            else
                sb_puts(b, "; resumed at ");
            report_md(b, when ? when : "?");
        }
        sb_puts(b, " |\n");
    }
    json_object *cl = report_jget(meta, "command_line");
    if (cl && json_object_is_type(cl, json_type_array)) {
        sb_puts(b, "| command | `");
        for (size_t i = 0; i < json_object_array_length(cl); i++) {
            const char *a = json_object_get_string(json_object_array_get_idx(cl, i));
            if (i)
                sb_putc(b, ' ');
            for (const char *p = a ? a : ""; *p; p++)
                sb_putc(b, *p == '`' || *p == '|' || *p == '\n' ? ' ' : *p);
        }
        sb_puts(b, "` |\n");
    }
    sb_puts(b, "\n");
    json_object *warn = report_jget(meta, "warnings");
    size_t nw =
        warn && json_object_is_type(warn, json_type_array) ? json_object_array_length(warn) : 0;
    if (nw) {
        sb_puts(b, "Warnings:\n\n");
        for (size_t i = 0; i < nw; i++) {
            sb_puts(b, "- ");
            report_md(b, json_object_get_string(json_object_array_get_idx(warn, i)));
            sb_puts(b, "\n");
        }
        sb_puts(b, "\n");
    }
}

/* --- charts and the table --------------------------------------------- */

static void charts(strbuf *b, const char *run_dir)
{
    char **names;
    int n = report_chart_names(run_dir, &names);
    sb_puts(b, "## Charts\n\n");
    if (!n)
        sb_puts(b, "No charts: none was drawn (the run had `--no-plots`, no ok trial, or no "
                   "gnuplot); `runner plot` on this folder draws them.\n\n");
    for (int i = 0; i < n; i++) {
        sb_printf(
            b, "![%s](plots/%s.png)\n\n[%s.svg](plots/%s.svg), script [%s.gp](plots/%s.gp)\n\n",
            names[i], names[i], names[i], names[i], names[i], names[i]);
        free(names[i]);
    }
    free(names);
}

static void table(strbuf *b, const run_model *m)
{
    int cols[256];
    int nc = 0;
    for (int c = m->key_first; c <= m->key_last && nc < 250; c++)
        if (m->swept[c])
            cols[nc++] = c;
    int gf = 0, gb = 0;
    for (int r = 1; r <= m->nrows; r++) {
        gf |= isfinite(pm_num(m, r, m->c_gflops));
        gb |= isfinite(pm_num(m, r, m->c_gbps));
    }
    /* the workload's and the hooks' own columns with a value (doc/results.md#plots-and-reports) */
    int extra[256];
    int ne = 0;
    for (int c = 0; c < m->ncols && ne < 250; c++) {
        int any = 0;
        for (int r = 1; r <= m->nrows && !any && pm_is_extra_col(m, c); r++)
            any = *pm_cell(m, r, c) != '\0';
        if (any)
            extra[ne++] = c;
    }
    sb_puts(b, "## Trials\n\n| trial |");
    report_md_names(b, m, cols, nc, " ", " ", " |");
    sb_puts(b, " status | median | 95 % CI of the median |");
    if (gf)
        sb_puts(b, " GFLOP/s |");
    if (gb)
        sb_puts(b, " GB/s |");
    report_md_names(b, m, extra, ne, " ", " ", " |");
    sb_puts(b, "\n| ---: |");
    for (int i = 0; i < nc; i++)
        sb_puts(b, m->numeric[cols[i]] ? " ---: |" : " --- |");
    sb_puts(b, " --- | ---: | ---: |");
    if (gf)
        sb_puts(b, " ---: |");
    if (gb)
        sb_puts(b, " ---: |");
    for (int i = 0; i < ne; i++)
        sb_puts(b, m->numeric[extra[i]] ? " ---: |" : " --- |");
    sb_puts(b, "\n");
    /* a report is read by people: past this many rows, the trials table has them */
    const int shown = m->nrows < 1000 ? m->nrows : 1000;
    for (int r = 1; r <= shown; r++) {
        sb_printf(b, "| %s |", pm_cell(m, r, 0));
        for (int i = 0; i < nc; i++) {
            sb_putc(b, ' ');
            report_md(b, cols[i] == m->c_size ? report_num_cell(m, r, cols[i]) : pm_cell(m, r, cols[i]));
            sb_puts(b, " |");
        }
        char med[32], lo[32], hi[32];
        report_secs(med, sizeof med, pm_num(m, r, m->c_median));
        report_secs(lo, sizeof lo, pm_num(m, r, m->c_lo));
        report_secs(hi, sizeof hi, pm_num(m, r, m->c_hi));
        sb_putc(b, ' ');
        report_md(b, pm_cell(m, r, m->c_status));
        if (isfinite(pm_num(m, r, m->c_median)))
            sb_printf(b, " | %s |", med);
        else
            sb_puts(b, " | |");
        double level = pm_num(m, r, m->c_level);
        if (isfinite(pm_num(m, r, m->c_lo)) && isfinite(level) && level < 0.95 - 1e-9)
            /* too few samples for 95 %: [min, max] and its own coverage */
            sb_printf(b, " %s to %s (%.2f %%) |", lo, hi, 100 * level);
        else if (isfinite(pm_num(m, r, m->c_lo)))
            sb_printf(b, " %s to %s |", lo, hi);
        else
            sb_puts(b, " |");
        double v;
        if (gf)
            isfinite(v = pm_num(m, r, m->c_gflops))
                ? sb_printf(b, v >= 1000 ? " %.0f |" : " %.4g |", v)
                : sb_puts(b, " |");
        if (gb)
            isfinite(v = pm_num(m, r, m->c_gbps))
                ? sb_printf(b, v >= 1000 ? " %.0f |" : " %.4g |", v)
                : sb_puts(b, " |");
        for (int i = 0; i < ne; i++) {
            /* numbers with 3 significant digits, whole numbers as they are */
            char t[64];
            v = pm_num(m, r, extra[i]);
            if (isfinite(v) && v == floor(v) && fabs(v) < 1e15)
                snprintf(t, sizeof t, "%.0f", v);
            else if (isfinite(v))
                pm_fmt_ratio(t, sizeof t, v);
            sb_putc(b, ' ');
            report_md(b, isfinite(v) ? t : pm_cell(m, r, extra[i]));
            sb_puts(b, " |");
        }
        sb_puts(b, "\n");
    }
    sb_puts(b, "\n");
    if (shown < m->nrows)
        sb_printf(b, "\n%d more trials are in %s.\n", m->nrows - shown, rundir_name(RD_TRIALS));
}

int report_write(const char *run_dir, int quiet, strbuf *notes)
{
    char note[1024];
    experiment *e = rundir_read_experiment(run_dir, note, sizeof note);
    run_model m;
    char err[1024];
    if (pm_load(&m, run_dir, e, err, sizeof err) < 0) {
        notes_printf(notes, "runner: %s\n", err);
        experiment_free(e);
        return -1;
    }
    int absent;
    char merr[256];
    json_object *meta = rundir_read_meta(run_dir, &absent, merr, sizeof merr);

    strbuf b = {0};
    sb_puts(&b, "# ");
    report_md(&b, m.name);
    sb_puts(&b, "\n\n");
    const char *desc = meta ? report_jstr(meta, "experiment.description") : NULL;
    if (!desc && e)
        desc = e->description;
    if (desc && *desc) {
        report_md(&b, desc);
        sb_puts(&b, "\n\n");
    }
    int counts[ST_COUNT] = {0};
    for (int r = 1; r <= m.nrows; r++)
        for (int k = 0; k < ST_COUNT; k++)
            counts[k] += !strcmp(pm_cell(&m, r, m.c_status), status_names[k]);
    sb_printf(&b, "%d trials: %d ok, %d failed, %d timed out, %d skipped.\n\n", m.nrows, counts[0],
              counts[1], counts[2], counts[3]);

    environment(&b, meta);

    sb_puts(&b, "## Findings\n\n");
    /* what every ratio below is (doc/results.md#plots-and-reports) */
    sb_puts(&b, "Speedups and ratios are ratios of median times, as the charts draw them (wall "
                "time; device time where a chart asks for it and a trial measured it); a "
                "crossover is claimed only where the speedup's interval, from the two "
                "medians' confidence intervals, clears 1 by at least 5 %.\n\n");
    drift dr;
    drift_measure(&m, &dr);
    report_findings(&b, &m, e, &dr);
    drift_write(&b, &dr);
    drift_free(&dr);
    sb_puts(&b, "\n");
    /* the History section the history left in the run folder, kept by every
     * rewrite of the report (doc/history.md#the-history-section-of-a-report) */
    char *hp = rundir_path(run_dir, RD_HISTORY), *hist = read_file(hp, NULL);
    if (hist)
        sb_puts(&b, hist);
    free(hist);
    free(hp);
    size_t head_len = b.len; /* report.html shows this part as it is */

    charts(&b, run_dir);
    table(&b, &m);
    size_t tail_at = b.len;
    if (note[0]) {
        sb_puts(&b, "Note: ");
        report_md(&b, note);
        sb_printf(&b, "; the swept keys were inferred from %s.\n", rundir_name(RD_TRIALS));
    }

    char *out = rundir_path(run_dir, RD_REPORT);
    int rc = 0;
    if (write_file_atomic(out, b.s, b.len) < 0) {
        notes_printf(notes, "runner: cannot write %s: %s\n", out, strerror(errno));
        rc = -1;
    } else {
        char *head = xasprintf("%.*s", (int)head_len, b.s);
        char herr[1024];
        if (report_html_write(run_dir, &m, head, b.s + tail_at, herr, sizeof herr) < 0) {
            notes_printf(notes, "runner: %s\n", herr);
            rc = -1;
        } else if (!quiet) {
            char *html = rundir_path(run_dir, RD_REPORT_HTML);
            notes_printf(notes, "report: %s, %s\n", out, html);
            free(html);
        }
        free(head);
    }
    free(out);
    sb_free(&b);
    json_object_put(meta);
    pm_free(&m);
    experiment_free(e);
    return rc;
}
