/* history_run.c - see history_run.h (doc/history.md#the-history-section-of-a-report). */
#include "results/history/history_run.h"

#include "results/history/gate.h"
#include "results/history/history_chart.h"
#include "results/history/history_db.h"
#include "results/history/history_format.h"
#include "results/history/history_query.h"
#include "results/history/history_record.h"
#include "results/report/report_text.h"
#include "results/rundir/rundir.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* This run against its history, as `runner gate` judges it: a sentence
 * that says whether it is slower (by how much, where), then a table of
 * every trial that has a history, with its detectable change. */
static void verdicts(sqlite3 *db, const char *run_dir, strbuf *b)
{
    gate_result g;
    char err[1024];
    if (gate_judge(db, run_dir, GATE_WINDOW, GATE_THRESHOLD, &g, err, sizeof err) < 0)
        return;
    /* slower: beyond the history's threshold, whatever the gate's verdict
     * (a run on a busy machine that is 2x slower says so, and why the gate
     * does not judge it) */
    int slower = 0, faster = 0, shown = 0, compared = 0, unjudged = 0;
    double worst = 0;
    const char *worst_key = NULL;
    for (int i = 0; i < g.n; i++) {
        const gate_row *r = &g.rows[i];
        shown += isfinite(r->base) || r->kind == GK_FAILED || r->kind == GK_MISSING;
        if (!isfinite(r->ratio) || !isfinite(r->threshold))
            continue;
        compared++;
        if (r->ratio > r->threshold) {
            slower++;
            unjudged += r->kind != GK_SLOWER;
            if (r->ratio > worst)
                worst = r->ratio, worst_key = r->key;
        } else if (r->ratio < 1 / r->threshold)
            faster++;
    }
    if (!shown) {
        gate_free(&g);
        return;
    }
    if (slower) {
        sb_printf(b, "**This run is slower than its history**: %d of %d trial%s beyond the "
                     "history's noise, up to %.2fx (",
                  slower, compared, compared == 1 ? "" : "s", worst);
        const char **all = xmalloc(((size_t)g.n + 1) * sizeof *all);
        for (int i = 0; i < g.n; i++)
            all[i] = g.rows[i].key;
        char *k = history_key_varying(worst_key, all, g.n);
        report_md(b, k);
        free(k);
        free(all);
        sb_puts(b, ")");
        if (unjudged)
            sb_printf(b, " (%d of them not judged slower: the run was busy or throttled, or the "
                         "earlier runs have shown as slow a run)",
                      unjudged);
    } else
        sb_printf(b, "No trial of this run is slower than its history beyond its noise (%d "
                     "compared)",
                  compared);
    if (faster)
        sb_printf(b, "; %d faster", faster);
    if (g.failed)
        sb_printf(b, "; **%d failed** that were ok before", g.failed);
    if (g.blind + g.busy + g.missing + g.untimed)
        sb_printf(b, "; %d inconclusive", g.blind + g.busy + g.missing + g.untimed);
    sb_printf(b, ", as `runner gate` judges it against the last %d runs (its exit status: "
                 "%d).\n\n",
              g.window, g.verdict);
    const char **keys = xmalloc(((size_t)g.n + 1) * sizeof *keys);
    for (int i = 0; i < g.n; i++)
        keys[i] = g.rows[i].key;
    sb_puts(b, "| trial | earlier runs | history | this run | ratio | detectable | verdict |\n"
               "| --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for (int i = 0; i < g.n; i++) {
        const gate_row *r = &g.rows[i];
        if (!(isfinite(r->base) || r->kind == GK_FAILED || r->kind == GK_MISSING))
            continue;
        char base[32] = "-", med[32] = "-", ratio[16] = "-", det[24] = "-";
        if (isfinite(r->base))
            fmt_seconds(base, sizeof base, r->base);
        if (isfinite(r->median))
            fmt_seconds(med, sizeof med, r->median);
        if (isfinite(r->ratio))
            snprintf(ratio, sizeof ratio, "%.2fx", r->ratio);
        if (isfinite(r->detectable))
            snprintf(det, sizeof det, "±%.1f %%", 100 * r->detectable);
        sb_puts(b, "| ");
        char *k = history_key_varying(r->key, keys, g.n);
        report_md(b, k);
        free(k);
        sb_printf(b, " | %d | %s | %s | %s | %s | %s%s%s |\n", r->nhist, base, med, ratio, det,
                  r->kind == GK_SLOWER ? "**" : "", gate_kind_word(r->kind),
                  r->kind == GK_SLOWER ? "**" : "");
    }
    sb_puts(b, "\n");
    free(keys);
    gate_free(&g);
}

/* The History section: the series of this experiment on this machine up
 * to this run, their change points, and the trend charts. */
static void section(sqlite3 *db, const char *run_dir, long long row, const history_run_opts *o,
                    strbuf *notes)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db,
                           "SELECT experiment, machine, (SELECT count(*) FROM runs p WHERE"
                           " p.experiment = r.experiment AND p.machine = r.machine AND"
                           " p.id < r.id) FROM runs r WHERE id = ?",
                           -1, &st, NULL) != SQLITE_OK)
        return;
    sqlite3_bind_int64(st, 1, row);
    char *exp = NULL, *mach = NULL;
    int earlier = 0;
    if (sqlite3_step(st) == SQLITE_ROW) {
        exp = xstrdup((const char *)sqlite3_column_text(st, 0));
        mach = xstrdup((const char *)sqlite3_column_text(st, 1));
        earlier = sqlite3_column_int(st, 2);
    }
    sqlite3_finalize(st);
    history_set h = {0};
    char err[1024];
    history_query q = {.experiment = exp, .machine = mach, .before_run = row + 1,
                       .last = HISTORY_REPORT_RUNS};
    if (earlier == 0 || history_load(db, &q, &h, err, sizeof err) < 0) {
        free(exp);
        free(mach);
        return;
    }
    strbuf b = {0};
    sb_printf(&b, "## History\n\n%d earlier run%s of this experiment on this machine (%s) in ",
              earlier, earlier == 1 ? "" : "s", mach);
    report_md(&b, o->path ? o->path : "the history database");
    sb_puts(&b, "; each trial's medians over the last runs, in revision order "
                "(`runner history` shows them all).\n\n");
    verdicts(db, run_dir, &b);
    int nchanges = 0;
    for (int i = 0; i < h.n; i++)
        for (int k = 0; k < h.s[i].ncps; k++) {
            if (!nchanges++)
                sb_puts(&b, "Change points:\n\n");
            sb_puts(&b, "- ");
            report_md(&b, h.s[i].key);
            sb_puts(&b, ": ");
            strbuf d = {0};
            history_describe_change(&h.s[i], &h.s[i].cps[k], &d);
            report_md(&b, d.s);
            sb_free(&d);
            sb_puts(&b, "\n");
        }
    if (!nchanges)
        sb_puts(&b, "No change point in these runs.\n");
    sb_puts(&b, "\n");
    if (!o->no_plots) {
        char *dir = rundir_path(run_dir, RD_PLOTS);
        strbuf names = {0};
        if (history_charts(&h, dir, &names, err, sizeof err) < 0)
            notes_printf(notes, "runner: warning: history: %s\n", err);
        for (char *p = names.s, *nl; p && (nl = strchr(p, '\n')); p = nl + 1)
            sb_printf(&b, "![history](plots/%.*s)\n\n", (int)(nl - p), p);
        sb_free(&names);
        free(dir);
    }
    /* the section is a file of the run folder, which the report the caller
     * writes next takes in (as `runner report` and `runner plot` do) */
    char *hp = rundir_path(run_dir, RD_HISTORY);
    if (write_file_atomic(hp, b.s, b.len) < 0)
        notes_printf(notes, "runner: warning: history: cannot write %s\n", hp);
    free(hp);
    sb_free(&b);
    history_set_free(&h);
    free(exp);
    free(mach);
}

void history_record_run(const char *run_dir, const history_run_opts *o, strbuf *notes)
{
    if (o->off)
        return;
    char *def = !o->results_dir ? history_default_path_for_run(run_dir)
                : *o->results_dir ? xasprintf("%s/history.sqlite", o->results_dir)
                                  : NULL;
    char *path = history_choose_path(o->path, def);
    free(def);
    if (!path)
        return;
    char err[1024];
    sqlite3 *db = history_open(path, 1, err, sizeof err);
    long long row = 0;
    history_record_opts ro = {.revision = o->revision, .ask_git = 1, .replace = o->replace};
    int rc = db ? history_record(db, run_dir, &ro, &row, err, sizeof err) : -1;
    if (rc < 0)
        notes_printf(notes, "runner: warning: history: %s%s%s; the run is saved in %s but not "
                            "recorded (runner history import %s records it)\n",
                     db ? path : "", db ? ": " : "", err, run_dir, run_dir);
    else {
        if (!o->quiet)
            notes_printf(notes, "history: %s %s\n", rc == HISTORY_ALREADY ? "already in" : "recorded in",
                         path);
        history_run_opts so = *o;
        so.path = path;
        section(db, run_dir, row, &so, notes);
    }
    history_close(db);
    free(path);
}
