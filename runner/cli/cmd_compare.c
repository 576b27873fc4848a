/* cmd_compare.c - `runner compare OLD NEW` or `runner compare OLD1 OLD2 ...
 * -- NEW1 NEW2 ...` [--threshold PCT] [--noise-floor PCT] [--ignore KEY]
 * [--busy-ok] [--format text|md|csv|json]: the options, the output and the
 * exit status (doc/compare.md#comparing-runs); the comparison is results/report/compare.h. */
#include "cli/commands.h"
#include "cli/opts.h"
#include "results/history/history_db.h"
#include "results/history/history_noise.h"
#include "results/report/compare.h"
#include "results/report/compare_format.h"
#include "base/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int compare_runs(const char *const *old_dirs, int nold, const char *const *new_dirs, int nnew,
                 const compare_opts *opt, FILE *out, FILE *err)
{
    compare_report R;
    char e[8192];
    if (compare_build(old_dirs, nold, new_dirs, nnew, opt, &R, e, sizeof e) < 0) {
        fprintf(err, "runner: compare: %s\n", e);
        return EXIT_INVALID;
    }
    strbuf text = {0};
    compare_format(&R, &text);
    fwrite(text.s, 1, text.len, out);
    fflush(out);
    sb_free(&text);
    int matched, slower;
    compare_count(&R, &matched, &slower);
    /* inconclusive trials and none slower: 3, never a pass
     * (doc/compare.md#exit-status) */
    int rc = slower ? EXIT_TRIALS_FAILED : compare_inconclusive(&R) ? EXIT_INCONCLUSIVE : EXIT_OK;
    if (!matched) {
        fprintf(err, "runner: compare: no trial of OLD matched one of NEW (%d and %d trials); "
                     "see the header for keys that differ, or --ignore KEY\n",
                R.runs[0].nrows, R.runs[nold].nrows);
        rc = EXIT_INVALID;
    }
    compare_free(&R);
    return rc;
}

static const char compare_usage[] =
    "usage: runner compare OLD_RUN NEW_RUN [options]\n"
    "       runner compare OLD_RUN... -- NEW_RUN... [options]\n"
    "  matches the trials of the runs by their parameters (not repeats, stop,\n"
    "  batch, order) and tests each pair (a t test over the worker blocks'\n"
    "  log medians by CPU, or mode by mode where the workers of both sides\n"
    "  ran at two speeds; older runs: Mann-Whitney U over per-run medians\n"
    "  with 4+ runs a side, else over block medians; Benjamini-Hochberg q).\n"
    "  Every verdict states the change it could have detected; no change seen\n"
    "  with a detectable change above the threshold, CPUs whose measured\n"
    "  speeds differ by more, or (one run a side) a trial that moved with\n"
    "  every other trial, is `inconclusive`.\n"
    "  A trial is faster or slower when q < 0.05 and new/old is beyond the\n"
    "  run-to-run noise: measured with 2+ runs a side, else the noise floor.\n"
    "  A trial run on a busy machine (its noise cell says busy) in any run\n"
    "  of either side is `busy`, else one run on a throttled CPU or GPU (its\n"
    "  noise cell says throttled, or throttled_kept > 0) is `throttled`:\n"
    "  inconclusive, unless new/old is beyond what that could explain (1 + 3\n"
    "  x the cores other processes used, or the CPU's maximum over its clock,\n"
    "  times the noise threshold): then faster or slower.\n"
    "  --busy-ok          judge busy and throttled trials like the others\n"
    "  --threshold PCT    fixed effect threshold instead of the measured noise;\n"
    "                     also the most a `same` may leave undetectable\n"
    "  --noise-floor PCT  noise assumed with one run per side (default 10)\n"
    "  --ignore KEY       leave KEY out of the matching (repeatable)\n"
    "  --history PATH     the history database whose earlier runs' spread is\n"
    "                     the least run-to-run noise (default: $RUNNER_HISTORY,\n"
    "                     else history.sqlite beside NEW's experiment folder)\n"
    "  --no-history       no history database\n"
    "  --format text|md|csv|json\n"
    "  exit status: 1 when some trial is slower, else 3 when some trial is\n"
    "  busy, throttled or inconclusive, else 0; 2 on bad input or when no\n"
    "  trial matched\n";

static int parse_pct(const char *opt, const char *v, double *out)
{
    char *end;
    if (!v || !*v) {
        fprintf(stderr, "runner: compare: %s needs a percentage\n", opt);
        return -1;
    }
    errno = 0;
    double x = strtod(v, &end);
    if (*end == '%')
        end++;
    if (end == v || *end || errno || !isfinite(x) || x < 0) {
        fprintf(stderr, "runner: compare: %s takes a percentage >= 0, not '%s'\n", opt, v);
        return -1;
    }
    *out = x;
    return 0;
}

enum { C_THRESHOLD, C_NOISE_FLOOR, C_IGNORE, C_FORMAT, C_BUSY_OK, C_HISTORY, C_NO_HISTORY, C_HELP };

/* in this order for "did you mean" */
static const opt_def compare_options[] = {
    {"--threshold", 0, OPT_VALUE, C_THRESHOLD}, {"--noise-floor", 0, OPT_VALUE, C_NOISE_FLOOR},
    {"--ignore", 0, OPT_VALUE, C_IGNORE},       {"--format", 0, OPT_VALUE, C_FORMAT},
    {"--busy-ok", 0, OPT_NONE, C_BUSY_OK},      {"--history", 0, OPT_VALUE, C_HISTORY},
    {"--no-history", 0, OPT_NONE, C_NO_HISTORY}, {"--help", 'h', OPT_NONE, C_HELP},
    {NULL, 0, 0, 0},
};

typedef struct compare_args {
    const char **dirs, **ign;
    compare_opts o;
    int ndirs, split;
    const char *history; /* --history PATH */
    int no_history;
} compare_args;

static int compare_option(void *ctx, const opts *p, int id)
{
    compare_args *c = ctx;
    const char *v = p->value;
    switch (id) {
    case OPT_ARG:
        c->dirs[c->ndirs++] = v;
        break;
    case OPT_SEPARATOR:
        if (c->split >= 0) {
            fprintf(stderr, "runner: compare: '--' given twice\n");
            return EXIT_INVALID;
        }
        c->split = c->ndirs;
        break;
    case C_BUSY_OK:
        c->o.busy_ok = 1;
        break;
    case C_HISTORY:
        if (!v || !*v) {
            fprintf(stderr, "runner: compare: --history needs a file\n");
            return EXIT_INVALID;
        }
        c->history = v;
        break;
    case C_NO_HISTORY:
        c->no_history = 1;
        break;
    case C_THRESHOLD:
    case C_NOISE_FLOOR:
        if (parse_pct(p->name, v, id == C_THRESHOLD ? &c->o.threshold : &c->o.noise_floor) < 0)
            return EXIT_INVALID;
        break;
    case C_IGNORE:
        if (!v || !*v) {
            fprintf(stderr, "runner: compare: --ignore needs a key\n");
            return EXIT_INVALID;
        }
        c->ign[c->o.nignore++] = v;
        break;
    case C_FORMAT:
        if (!v || (strcmp(v, "text") && strcmp(v, "md") && strcmp(v, "csv") && strcmp(v, "json"))) {
            fprintf(stderr, "runner: compare: --format takes text, md, csv or json%s%s%s\n",
                    v ? ", not '" : "", v ? v : "", v ? "'" : "");
            return EXIT_INVALID;
        }
        c->o.format = v;
        break;
    }
    return -1;
}

/* The history database for NEW's trials (doc/compare.md#what-one-run-can-show):
 * --history PATH or $RUNNER_HISTORY (which must open), else the results
 * folder's history.sqlite where there is one; *db NULL when none.  -1 after
 * saying why a named one cannot be read. */
static int open_history(const compare_args *c, const char *new_dir, sqlite3 **db)
{
    *db = NULL;
    if (c->no_history)
        return 0;
    char *def = history_default_path_for_run(new_dir);
    if (!def) { /* an experiment folder: its latest run */
        char *latest = xasprintf("%s/latest", new_dir);
        def = history_default_path_for_run(latest);
        free(latest);
    }
    char *path = history_choose_path(c->history, def);
    int named = path && (!def || strcmp(path, def));
    free(def);
    if (!path)
        return 0;
    struct stat st;
    char err[1024];
    if (stat(path, &st) < 0) {
        if (named)
            fprintf(stderr, "runner: compare: no history database at %s (--no-history: none)\n",
                    path);
        free(path);
        return named ? -1 : 0;
    }
    *db = history_open(path, 0, err, sizeof err);
    if (!*db)
        fprintf(stderr, "runner: compare: %s%s\n", err,
                named ? "" : " (the history is left out; --no-history says so)");
    free(path);
    return !*db && named ? -1 : 0;
}

int cmd_compare_main(int nargs, char **args)
{
    static const opts_cmd k = {"compare", compare_options, 1, compare_usage};
    const char **dirs = xcalloc((size_t)nargs + 1, sizeof *dirs);
    const char **ign = xcalloc((size_t)nargs + 1, sizeof *ign);
    compare_args c = {dirs, ign,
                      {.threshold = NAN, .noise_floor = COMPARE_NOISE_FLOOR, .format = "text",
                       .ignore = ign},
                      0, -1, NULL, 0};
    int rc = opts_parse(&k, nargs, args, compare_option, &c);
    int ndirs = c.ndirs, split = c.split;
    compare_opts o = c.o;
    if (rc < 0) {
        if (split < 0 && ndirs != 2) {
            if (ndirs > 2)
                fprintf(stderr, "runner: compare takes two run folders, OLD_RUN and NEW_RUN "
                                "('%s' is one too many), or OLD_RUN... -- NEW_RUN...\n",
                        dirs[2]);
            else
                fputs(compare_usage, stderr);
            rc = EXIT_INVALID;
        } else if (split >= 0 && (split == 0 || split == ndirs)) {
            fprintf(stderr, "runner: compare: %s of '--' names no run\n",
                    split == 0 ? "the OLD side" : "the NEW side");
            rc = EXIT_INVALID;
        } else {
            int nold = split < 0 ? 1 : split;
            sqlite3 *db;
            if (open_history(&c, dirs[nold], &db) < 0)
                rc = EXIT_INVALID;
            else {
                history_noise *hn = db ? history_noise_new(db) : NULL;
                o.history_noise = hn ? history_noise_of : NULL;
                o.history_ctx = hn;
                rc = compare_runs(dirs, nold, dirs + nold, ndirs - nold, &o, stdout, stderr);
                history_noise_free(hn);
                history_close(db);
            }
        }
    }
    free(dirs);
    free(ign);
    return rc;
}
