/* report.c - RUN_DIR/report.md: the environment (meta.json), the findings
 * computed from trials.csv (crossovers, the fastest configuration at each
 * size, the largest speedup, noisy trials, failures and skips), the charts,
 * and a table of every trial. */
#include "report/plots.h"
#include "exec/proto.h"

#include "report/plot_crossover.h"
#include "report/plot_model.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOISY_CV 0.10

static int alnum(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

/* Markdown text: no line breaks, no HTML tag, and the characters that would
 * start markup or end a table cell escaped (an underscore inside a word,
 * as in x86_64, starts nothing and stays as it is). */
static void md(strbuf *b, const char *s)
{
    const unsigned char *p0 = (const unsigned char *)(s ? s : "");
    for (const unsigned char *p = p0; *p; p++) {
        if (*p < 0x20 || *p == 0x7F) {
            sb_putc(b, ' ');
        } else if (*p == '<') {
            sb_puts(b, "&lt;");
        } else if (*p == '_' && p > p0 && alnum(p[-1]) && alnum(p[1])) {
            sb_putc(b, '_');
        } else if (strchr("\\`*_[]|#!~", *p) || (*p == '>' && p == p0)) {
            sb_putc(b, '\\');
            sb_putc(b, (char)*p);
        } else {
            sb_putc(b, (char)*p);
        }
    }
}

static const char *jstr(json_object *o, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    json_object *cur = o;
    for (char *save, *k = strtok_r(buf, ".", &save); k && cur; k = strtok_r(NULL, ".", &save))
        if (!json_object_object_get_ex(cur, k, &cur))
            return NULL;
    if (!cur || json_object_is_type(cur, json_type_null))
        return NULL;
    return json_object_get_string(cur);
}

static json_object *jget(json_object *o, const char *key)
{
    json_object *v;
    return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static void secs(char *out, size_t n, double s)
{
    if (!isfinite(s))
        snprintf(out, n, "-");
    else
        fmt_seconds(out, n, s);
}

/* A size or x value of a table as pm_fmt_num writes it (a cell that is not
 * a number as it is); the text lives until the next call. */
static const char *num_cell(const run_model *m, int row, int col)
{
    static char t[64];
    double v = pm_num(m, row, col);
    if (!isfinite(v))
        return pm_cell(m, row, col);
    pm_fmt_num(t, sizeof t, v);
    return t;
}

/* "size=512 target=GPU": the swept keys of a row (a linked axis by label). */
static char *describe(const run_model *m, int row)
{
    strbuf b = {0};
    sb_puts(&b, "");
    for (int c = m->key_first; c <= m->key_last; c++) {
        if (!m->swept[c] || (m->group[c] >= 0 && !m->is_label[c]))
            continue;
        sb_printf(&b, "%s%s=%s", b.len ? " " : "", m->t.rows[0][c],
                  c == m->c_size ? num_cell(m, row, c) : pm_cell(m, row, c));
    }
    if (!b.len && m->c_workload >= 0)
        sb_printf(&b, "workload=%s", pm_cell(m, row, m->c_workload));
    return sb_take(&b);
}

static void environment(strbuf *b, json_object *meta)
{
    sb_puts(b, "## Environment\n\n");
    if (!meta) {
        sb_puts(b, "meta.json is missing or unreadable.\n\n");
        return;
    }
    const char *s;
    sb_puts(b, "| | |\n| --- | --- |\n");
    if ((s = jstr(meta, "host.hostname"))) {
        sb_puts(b, "| host | ");
        md(b, s);
        sb_puts(b, " |\n");
    }
    const char *os = jstr(meta, "host.os"), *kern = jstr(meta, "host.kernel");
    if (os || kern) {
        sb_puts(b, "| OS | ");
        md(b, os ? os : "");
        if (kern) {
            sb_puts(b, os ? " (" : "");
            md(b, kern);
            sb_puts(b, os ? ")" : "");
        }
        sb_puts(b, " |\n");
    }
    if ((s = jstr(meta, "host.cpu_model"))) {
        sb_puts(b, "| CPU | ");
        md(b, s);
        const char *cores = jstr(meta, "host.cores"), *online = jstr(meta, "host.online_cpus");
        if (cores)
            sb_printf(b, ", %s cores", cores);
        if (online && cores && strcmp(online, cores))
            sb_printf(b, " (%s online)", online);
        sb_puts(b, " |\n");
    }
    json_object *mem = jget(jget(meta, "host"), "memory_bytes");
    if (mem && json_object_get_int64(mem) > 0) {
        char t[32];
        fmt_bytes(t, sizeof t, (double)json_object_get_int64(mem));
        sb_printf(b, "| memory | %s |\n", t);
    }
    json_object *blas = jget(meta, "blas");
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
                md(b, k);
                sb_puts(b, ": ");
            }
            md(b, json_object_get_string(v));
            first = 0;
        }
        sb_puts(b, " |\n");
    }
    json_object *cuda = jget(meta, "cuda");
    json_object *devs = jget(cuda, "devices");
    size_t nd =
        devs && json_object_is_type(devs, json_type_array) ? json_object_array_length(devs) : 0;
    if (nd == 0) {
        sb_puts(b, "| CUDA | none");
        if ((s = jstr(meta, "cuda.unavailable"))) {
            sb_puts(b, ": ");
            md(b, s);
        }
        sb_puts(b, " |\n");
    }
    for (size_t i = 0; i < nd; i++) {
        json_object *d = json_object_array_get_idx(devs, i);
        sb_printf(b, "| CUDA device %zu | ", i);
        md(b, jstr(d, "name") ? jstr(d, "name") : "?");
        json_object *dm = jget(d, "memory_bytes");
        if (dm && json_object_get_int64(dm) > 0) {
            char t[32];
            fmt_bytes(t, sizeof t, (double)json_object_get_int64(dm));
            sb_printf(b, ", %s", t);
        }
        if ((s = jstr(d, "detail")) && *s) {
            sb_puts(b, ", ");
            md(b, s);
        }
        sb_puts(b, " |\n");
    }
    if (cuda && json_object_is_type(cuda, json_type_object)) {
        json_object_object_foreach(cuda, k, v)
        {
            if (!v || !strcmp(k, "devices") || !strcmp(k, "unavailable"))
                continue;
            sb_puts(b, "| ");
            md(b, k);
            sb_puts(b, " | ");
            md(b, json_object_get_string(v));
            sb_puts(b, " |\n");
        }
    }
    json_object *env = jget(meta, "environment");
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
    const char *ver = jstr(meta, "runner.version"), *rev = jstr(meta, "runner.git_revision");
    if (ver) {
        sb_puts(b, "| runner | ");
        md(b, ver);
        if (rev) {
            sb_puts(b, " (");
            md(b, rev);
            sb_puts(b, ")");
        }
        sb_puts(b, " |\n");
    }
    const char *start = jstr(meta, "start"), *end = jstr(meta, "end");
    if (start) {
        sb_puts(b, "| run | ");
        md(b, start);
        if (end) {
            sb_puts(b, " to ");
            md(b, end);
        }
        json_object *w = jget(jget(meta, "summary"), "wall_seconds");
        if (w) {
            char t[32];
            fmt_seconds(t, sizeof t, json_object_get_double(w));
            sb_printf(b, " (%s)", t);
        }
        sb_puts(b, " |\n");
    }
    json_object *cl = jget(meta, "command_line");
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
    json_object *warn = jget(meta, "warnings");
    size_t nw =
        warn && json_object_is_type(warn, json_type_array) ? json_object_array_length(warn) : 0;
    if (nw) {
        sb_puts(b, "Warnings:\n\n");
        for (size_t i = 0; i < nw; i++) {
            sb_puts(b, "- ");
            md(b, json_object_get_string(json_object_array_get_idx(warn, i)));
            sb_puts(b, "\n");
        }
        sb_puts(b, "\n");
    }
}

/* --- findings --------------------------------------------------------- */

static const char *x_word(const run_model *m, int x)
{
    if (x == m->c_size && m->size_means && !strncmp(m->size_means, "n ", 2))
        return "n";
    return m->t.rows[0][x];
}

static void speedup_findings(strbuf *b, const run_model *m, const chart_spec *s, int *said)
{
    chart_data d;
    if (pm_chart_data(m, s, &d) == 0) {
        chart_data_free(&d);
        return;
    }
    const char *xn = x_word(m, d.x);
    double best = -1;
    const char *best_label = NULL;
    double best_x = 0;
    for (int c = 0; c < d.ncurves; c++) {
        const pm_curve *cv = &d.curves[c];
        double *xs = xmalloc(((size_t)cv->n + 1) * sizeof *xs);
        double *ys = xmalloc(((size_t)cv->n + 1) * sizeof *ys);
        for (int i = 0; i < cv->n; i++) {
            xs[i] = cv->p[i].x;
            ys[i] = cv->p[i].y;
            if (ys[i] > best) {
                best = ys[i];
                best_label = cv->label;
                best_x = cv->p[i].x;
            }
        }
        if (!d.xcat && cv->n > 0) {
            double *lo = xmalloc(((size_t)cv->n + 1) * sizeof *lo);
            double *hi = xmalloc(((size_t)cv->n + 1) * sizeof *hi);
            int nclear = 0, nfaster = 0;
            for (int i = 0; i < cv->n; i++) {
                lo[i] = isfinite(cv->p[i].slo) ? cv->p[i].slo : ys[i];
                hi[i] = isfinite(cv->p[i].shi) ? cv->p[i].shi : ys[i];
                nfaster += lo[i] > 1 + CROSSOVER_MIN_EFFECT;
                nclear += lo[i] > 1 + CROSSOVER_MIN_EFFECT ||
                          hi[i] * (1 + CROSSOVER_MIN_EFFECT) < 1;
            }
            crossing cr[16];
            int n = find_clear_crossings(xs, ys, lo, hi, cv->n, CROSSOVER_MIN_EFFECT, cr, 16);
            char a[32], z[32];
            sb_puts(b, "- Crossover of ");
            md(b, cv->label);
            sb_puts(b, " against ");
            md(b, d.baseline_label);
            sb_puts(b, ": ");
            if (n == 0) {
                pm_fmt_num(a, sizeof a, xs[0]);
                pm_fmt_num(z, sizeof z, xs[cv->n - 1]);
                if (nclear == cv->n)
                    sb_printf(b, "none; %s at every %s measured (%s to %s)",
                              nfaster ? "faster" : "slower", xn, a, z);
                else
                    sb_printf(b,
                              "none; %s where the difference is clear, within %.0f %% or the "
                              "confidence intervals at %d of the %d %s measured (%s to %s)",
                              nfaster ? "faster" : nclear ? "slower" : "neither",
                              100 * CROSSOVER_MIN_EFFECT, cv->n - nclear, cv->n, xn, a, z);
            }
            for (int j = 0; j < n && j < 16; j++) {
                pm_fmt_num(a, sizeof a, cr[j].x);
                pm_fmt_num(z, sizeof z, cr[j].x_prev);
                sb_printf(b, "%s%s from %s = %s (%s was the last %s)", j ? "; " : "",
                          cr[j].faster ? "faster" : "slower", xn, a, z,
                          cr[j].faster ? "slower" : "faster");
            }
            sb_puts(b, ".\n");
            *said = 1;
            free(lo);
            free(hi);
        }
        free(xs);
        free(ys);
    }
    if (best_label) {
        int ci = (int)best_x;
        const char *cat = d.xcat && d.cats && ci >= 0 && ci < d.ncats ? d.cats[ci] : "?";
        sb_puts(b, "- Largest speedup: ");
        /* with no series, the x category names the configuration */
        md(b, d.unlabelled && d.xcat ? cat : best_label);
        char rt[32];
        pm_fmt_ratio(rt, sizeof rt, best >= 1 ? best : 1 / best);
        sb_printf(b, " is %sx %s than ", rt, best >= 1 ? "faster" : "slower");
        md(b, d.baseline_label);
        if (d.xcat && d.unlabelled) {
            /* said above */
        } else if (d.xcat) {
            sb_printf(b, " at %s = ", m->t.rows[0][d.x]);
            md(b, cat);
        } else {
            char bx[32];
            pm_fmt_num(bx, sizeof bx, best_x);
            sb_printf(b, " at %s = %s", xn, bx);
        }
        sb_puts(b, best >= 1 ? ".\n" : " (its best case: the baseline is faster everywhere).\n");
        *said = 1;
    }
    chart_data_free(&d);
}

typedef struct fast_row {
    double x;
    const char *xt;
    int row;
    double v;
} fast_row;

static int cmp_fast(const void *a, const void *b)
{
    const fast_row *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    int c = strcmp(p->xt, q->xt);
    if (c)
        return c;
    return p->v < q->v ? -1 : p->v > q->v;
}

static void fastest(strbuf *b, const run_model *m)
{
    int x = pm_default_x(m);
    int *keys = xmalloc(((size_t)m->ncols + 1) * sizeof *keys);
    int nk = pm_default_series(m, x, keys);
    if (nk == 0 || m->c_median < 0) {
        free(keys);
        return;
    }
    fast_row *fr = xcalloc((size_t)m->nrows + 1, sizeof *fr);
    int n = 0;
    for (int r = 1; r <= m->nrows; r++) {
        double v = pm_num(m, r, m->c_median);
        if (!pm_ok(m, r) || !isfinite(v))
            continue;
        fr[n++] = (fast_row){.x = x >= 0 ? pm_num(m, r, x) : 0,
                             .xt = x >= 0 ? pm_cell(m, r, x) : "",
                             .row = r,
                             .v = v};
    }
    xqsort(fr, (size_t)n, sizeof *fr, cmp_fast);
    int compared = 0; /* does any x have two configurations to compare? */
    for (int i = 1; i < n && !compared; i++)
        compared = fr[i].x == fr[i - 1].x && !strcmp(fr[i].xt, fr[i - 1].xt);
    if (n > 0 && !compared) {
        char *l = pm_label(m, fr[0].row, keys, nk);
        sb_puts(b, "- One configuration ran at each ");
        md(b, x >= 0 ? m->t.rows[0][x] : "point");
        sb_puts(b, " (");
        md(b, l);
        sb_puts(b, "): nothing to compare.\n");
        free(l);
        n = 0;
    }
    if (n > 0) {
        sb_puts(b, "\nFastest configuration");
        if (x >= 0)
            sb_printf(b, " at each %s", m->t.rows[0][x]);
        sb_puts(b, " (median time):\n\n");
        if (x >= 0) {
            sb_puts(b, "| ");
            md(b, m->t.rows[0][x]);
            sb_puts(b, " | fastest | median | next | median | ratio |\n"
                       "| ---: | --- | ---: | --- | ---: | ---: |\n");
        } else {
            sb_puts(b, "| fastest | median | next | median | ratio |\n"
                       "| --- | ---: | --- | ---: | ---: |\n");
        }
    }
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && fr[j].x == fr[i].x && !strcmp(fr[j].xt, fr[i].xt))
            j++;
        char t1[32], t2[32];
        char *l1 = pm_label(m, fr[i].row, keys, nk);
        secs(t1, sizeof t1, fr[i].v);
        if (x >= 0) {
            sb_puts(b, "| ");
            md(b, num_cell(m, fr[i].row, x));
            sb_puts(b, " ");
        }
        sb_puts(b, "| ");
        md(b, l1);
        sb_printf(b, " | %s | ", t1);
        if (j - i > 1) {
            char *l2 = pm_label(m, fr[i + 1].row, keys, nk);
            secs(t2, sizeof t2, fr[i + 1].v);
            md(b, l2);
            char rt[32];
            pm_fmt_ratio(rt, sizeof rt, fr[i].v > 0 ? fr[i + 1].v / fr[i].v : NAN);
            sb_printf(b, " | %s | %sx |\n", t2, rt);
            free(l2);
        } else {
            sb_puts(b, "(only one) | | |\n");
        }
        free(l1);
        i = j;
    }
    free(fr);
    free(keys);
}

typedef struct reason_group {
    char *reason;
    int count;
    strbuf trials;
} reason_group;

static void failures(strbuf *b, const run_model *m)
{
    int nfail = 0;
    for (int r = 1; r <= m->nrows; r++) {
        const char *st = pm_cell(m, r, m->c_status);
        if (strcmp(st, "failed") && strcmp(st, "timeout") && strcmp(st, "interrupted"))
            continue;
        if (!nfail++)
            sb_puts(b, "\nFailed trials (left out of the charts):\n\n");
        char *desc = describe(m, r);
        sb_printf(b, "- trial %s (", pm_cell(m, r, 0));
        md(b, desc);
        sb_printf(b, "): %s", st);
        const char *why = pm_cell(m, r, m->c_reason);
        if (*why) {
            sb_puts(b, ": ");
            md(b, why);
        }
        sb_puts(b, "\n");
        free(desc);
    }
    reason_group *g = NULL;
    int ng = 0;
    for (int r = 1; r <= m->nrows; r++) {
        if (strcmp(pm_cell(m, r, m->c_status), "skipped"))
            continue;
        const char *why = pm_cell(m, r, m->c_reason);
        int k = 0;
        while (k < ng && strcmp(g[k].reason, why))
            k++;
        if (k == ng) {
            g = xrealloc(g, (size_t)(ng + 1) * sizeof *g);
            g[ng++] = (reason_group){.reason = xstrdup(why)};
        }
        g[k].count++;
        if (g[k].count <= 6) {
            char *desc = describe(m, r);
            sb_printf(&g[k].trials, "%s%s", g[k].count > 1 ? "; " : "", desc);
            free(desc);
        } else if (g[k].count == 7) {
            sb_puts(&g[k].trials, "; ...");
        }
    }
    if (ng)
        sb_puts(b, "\nSkipped trials, by reason (left out of the charts):\n\n");
    for (int k = 0; k < ng; k++) {
        sb_printf(b, "- %d trial%s: ", g[k].count, g[k].count == 1 ? "" : "s");
        md(b, *g[k].reason ? g[k].reason : "(no reason given)");
        sb_puts(b, " (");
        md(b, g[k].trials.s);
        sb_puts(b, ")\n");
        free(g[k].reason);
        sb_free(&g[k].trials);
    }
    free(g);
}

/* Advice for a trial's noise, by its cause (README "Measurement quality";
 * the causes are the parts of cmd_run.c's `noise` column). */
static const char *noise_advice(const char *noise, double samples)
{
    if (strstr(noise, "bimodal"))
        return "two modes: a thread pool waking up, a frequency or power state change, or "
               "contention; more samples will not help: look at samples.csv, pin threads, "
               "or change the thread count";
    if (strstr(noise, "stall"))
        return "stalls: something else ran (a busy machine, interrupts, swapping); a quieter "
               "machine would help, more samples would not";
    if (strstr(noise, "unsteady warmup"))
        return "it had not reached steady state after its warmup_time; a longer warmup_time "
               "would help";
    if (strstr(noise, "gave up"))
        return samples >= 1000 ? "the spread did not shrink with more samples: a busy machine "
                                 "or drift; a quieter machine would help"
                               : "more time (stop: max_time) would help";
    if (samples < 30)
        return "few samples: more repeats would help";
    return "a busy machine; a quieter machine would help";
}

static void noisy(strbuf *b, const run_model *m)
{
    int n = 0, cn = pm_col(m, "noise");
    for (int r = 1; r <= m->nrows; r++) {
        double sd = pm_num(m, r, m->c_stddev), mean = pm_num(m, r, m->c_mean);
        const char *noise = cn >= 0 ? pm_cell(m, r, cn) : "";
        /* listed: a CV above NOISY_CV, or a noise cause other than spread
         * alone (bimodal, stalls, gave up, unsteady warmup) */
        int cause = strstr(noise, "bimodal") || strstr(noise, "stall") ||
                    strstr(noise, "gave up") || strstr(noise, "unsteady");
        int high = isfinite(sd) && mean > 0 && sd / mean > NOISY_CV;
        if (!pm_ok(m, r) || (!high && !cause))
            continue;
        if (!n++)
            sb_printf(b, "\nNoisy trials (coefficient of variation, stddev / mean, above %.0f %%, "
                         "or a cause in the noise column), with what would help:\n\n",
                      NOISY_CV * 100);
        char *desc = describe(m, r);
        char lo[32], med[32], hi[32];
        secs(lo, sizeof lo, pm_num(m, r, m->c_min));
        secs(med, sizeof med, pm_num(m, r, m->c_median));
        secs(hi, sizeof hi, pm_num(m, r, m->c_max));
        sb_printf(b, "- trial %s (", pm_cell(m, r, 0));
        md(b, desc);
        if (isfinite(sd) && mean > 0)
            sb_printf(b, "): CV %.1f %% over %s samples (min %s, median %s, max %s)",
                      100 * sd / mean, pm_cell(m, r, m->c_samples), lo, med, hi);
        else
            sb_printf(b, "): %s samples (min %s, median %s, max %s)", pm_cell(m, r, m->c_samples),
                      lo, med, hi);
        if (*noise) {
            sb_puts(b, "; ");
            md(b, noise);
        }
        sb_printf(b, ": %s\n", noise_advice(noise, pm_num(m, r, m->c_samples)));
        free(desc);
    }
    if (!n)
        sb_printf(
            b, "\nNo noisy trial: every ok trial's coefficient of variation is at most %.0f %%.\n",
            NOISY_CV * 100);
    /* trials run on a busy machine (README "Measurement quality", Load) */
    int nc = pm_col(m, "noise"), busy = 0;
    for (int r = 1; nc >= 0 && r <= m->nrows; r++) {
        const char *v = pm_cell(m, r, nc), *w = strstr(v, "busy: ");
        if (!pm_ok(m, r) || !w)
            continue;
        if (!busy++)
            sb_puts(b, "\nTrials run on a busy machine (other processes or the hypervisor took "
                       "CPU time during the trial; their times may be inflated):\n\n");
        char *desc = describe(m, r);
        sb_printf(b, "- trial %s (", pm_cell(m, r, 0));
        md(b, desc);
        sb_puts(b, "): ");
        md(b, w + 6);
        sb_puts(b, "\n");
        free(desc);
    }
}

/* Warnings about the throttle check (README "Measurement quality"): trials
 * that kept samples taken while the device was throttled, and trials whose
 * check was off.  Nothing is said when there are none. */
static void throttle_warnings(strbuf *b, const run_model *m)
{
    int kept = pm_col(m, "throttled_kept"), off = pm_col(m, "throttle_check");
    int n = 0;
    for (int r = 1; r <= m->nrows; r++) {
        const char *k = pm_cell(m, r, kept), *o = pm_cell(m, r, off);
        if (!*k && !*o)
            continue;
        if (!n++)
            sb_puts(b, "\nWarnings about the throttle check:\n\n");
        char *desc = describe(m, r);
        sb_printf(b, "- trial %s (", pm_cell(m, r, 0));
        md(b, desc);
        sb_puts(b, "): ");
        if (*k) {
            sb_puts(b, "kept ");
            md(b, k);
            sb_puts(b, " samples taken while the device was throttled");
        }
        if (*o) {
            sb_puts(b, *k ? "; throttle check " : "throttle check ");
            md(b, o);
        }
        sb_puts(b, "\n");
        free(desc);
    }
}

/* --- charts and the table --------------------------------------------- */

static int chart_rank(const char *name)
{
    static const char *const order[] = {"time",      "bar",   "speedup", "throughput",
                                        "breakdown", "warmup"};
    for (int i = 0; i < 6; i++)
        if (!strcmp(order[i], name))
            return i;
    return 6;
}

static int cmp_chart(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    int rx = chart_rank(x), ry = chart_rank(y);
    return rx != ry ? rx - ry : strcmp(x, y);
}

static void charts(strbuf *b, const char *run_dir)
{
    char *dir = xasprintf("%s/plots", run_dir);
    DIR *d = opendir(dir);
    char **names = NULL;
    int n = 0;
    struct dirent *de;
    while (d && (de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l < 5 || strcmp(de->d_name + l - 4, ".png") || de->d_name[0] == '.')
            continue;
        names = xrealloc(names, (size_t)(n + 1) * sizeof *names);
        names[n++] = xasprintf("%.*s", (int)(l - 4), de->d_name);
    }
    if (d)
        closedir(d);
    free(dir);
    xqsort(names, (size_t)n, sizeof *names, cmp_chart);
    sb_puts(b, "## Charts\n\n");
    if (!n)
        sb_puts(b, "No charts: no ok trial to draw, or gnuplot is missing (install it, then run "
                   "`runner plot` on this folder).\n\n");
    for (int i = 0; i < n; i++) {
        /* names come from file names: keep only the safe ones */
        int safe = 1;
        for (const char *p = names[i]; *p; p++)
            safe &= strchr("._-", *p) || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                    (*p >= '0' && *p <= '9');
        if (safe)
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
    sb_puts(b, "## Trials\n\n| trial |");
    for (int i = 0; i < nc; i++) {
        sb_putc(b, ' ');
        md(b, m->t.rows[0][cols[i]]);
        sb_puts(b, " |");
    }
    sb_puts(b, " status | median | 95 % CI of the median |");
    if (gf)
        sb_puts(b, " GFLOP/s |");
    if (gb)
        sb_puts(b, " GB/s |");
    sb_puts(b, "\n| ---: |");
    for (int i = 0; i < nc; i++)
        sb_puts(b, m->numeric[cols[i]] ? " ---: |" : " --- |");
    sb_puts(b, " --- | ---: | ---: |");
    if (gf)
        sb_puts(b, " ---: |");
    if (gb)
        sb_puts(b, " ---: |");
    sb_puts(b, "\n");
    /* a report is read by people: past this many rows, trials.csv has them */
    const int shown = m->nrows < 1000 ? m->nrows : 1000;
    for (int r = 1; r <= shown; r++) {
        sb_printf(b, "| %s |", pm_cell(m, r, 0));
        for (int i = 0; i < nc; i++) {
            sb_putc(b, ' ');
            md(b, cols[i] == m->c_size ? num_cell(m, r, cols[i]) : pm_cell(m, r, cols[i]));
            sb_puts(b, " |");
        }
        char med[32], lo[32], hi[32];
        secs(med, sizeof med, pm_num(m, r, m->c_median));
        secs(lo, sizeof lo, pm_num(m, r, m->c_lo));
        secs(hi, sizeof hi, pm_num(m, r, m->c_hi));
        sb_putc(b, ' ');
        md(b, pm_cell(m, r, m->c_status));
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
        sb_puts(b, "\n");
    }
    sb_puts(b, "\n");
    if (shown < m->nrows)
        sb_printf(b, "\n%d more trials are in trials.csv.\n", m->nrows - shown);
}

int report_write(const char *run_dir, int quiet)
{
    char note[1024];
    experiment *e = pm_run_experiment(run_dir, note, sizeof note);
    run_model m;
    char err[1024];
    if (pm_load(&m, run_dir, e, err, sizeof err) < 0) {
        fprintf(stderr, "runner: %s\n", err);
        experiment_free(e);
        return -1;
    }
    char *mp = xasprintf("%s/meta.json", run_dir);
    json_object *meta = json_object_from_file(mp);
    free(mp);

    strbuf b = {0};
    sb_puts(&b, "# ");
    md(&b, m.name);
    sb_puts(&b, "\n\n");
    const char *desc = meta ? jstr(meta, "experiment.description") : NULL;
    if (!desc && e)
        desc = e->description;
    if (desc && *desc) {
        md(&b, desc);
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
    int said = 0;
    chart_spec *defs;
    int nd = pm_default_charts(&m, &defs);
    for (int i = 0; i < nd; i++)
        if (defs[i].type == CH_SPEEDUP)
            speedup_findings(&b, &m, &defs[i], &said);
    if (e && e->plots_given) {
        chart_spec *fc;
        int nf = pm_file_charts(&m, e, &fc, NULL, 0);
        for (int i = 0; i < nf; i++) {
            int dup = 0;
            for (int k = 0; k < nd && !dup; k++)
                dup = defs[k].type == CH_SPEEDUP && fc[i].nbaseline == 1 &&
                      fc[i].baseline[0].col == defs[k].baseline[0].col &&
                      fc[i].baseline[0].nvals == 1 && !strcmp(fc[i].baseline[0].vals[0], "cpu") &&
                      !fc[i].series_given && !fc[i].nwhere;
            if (fc[i].type == CH_SPEEDUP && !dup)
                speedup_findings(&b, &m, &fc[i], &said);
            chart_spec_free(&fc[i]);
        }
        free(fc);
    }
    for (int i = 0; i < nd; i++)
        chart_spec_free(&defs[i]);
    free(defs);
    if (!said)
        sb_puts(&b,
                "- No speedup to report: it needs ok trials on the CPU and on a CUDA device.\n");
    fastest(&b, &m);
    noisy(&b, &m);
    throttle_warnings(&b, &m);
    failures(&b, &m);
    sb_puts(&b, "\n");

    charts(&b, run_dir);
    table(&b, &m);
    if (note[0]) {
        sb_puts(&b, "Note: ");
        md(&b, note);
        sb_puts(&b, "; the swept keys were inferred from trials.csv.\n");
    }

    char *out = xasprintf("%s/report.md", run_dir);
    char *tmp = xasprintf("%s/.report.md.tmp%d", run_dir, (int)getpid());
    int rc = 0;
    FILE *f = fopen(tmp, "w");
    int ok = f != NULL;
    if (f) {
        ok = fwrite(b.s, 1, b.len, f) == b.len;
        ok &= fclose(f) == 0;
    }
    if (!ok || rename(tmp, out) < 0) {
        fprintf(stderr, "runner: cannot write %s: %s\n", out, strerror(errno));
        unlink(tmp);
        rc = -1;
    } else if (!quiet) {
        fprintf(stderr, "report: %s\n", out);
    }
    free(tmp);
    free(out);
    sb_free(&b);
    json_object_put(meta);
    pm_free(&m);
    experiment_free(e);
    return rc;
}
