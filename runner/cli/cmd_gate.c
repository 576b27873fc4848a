/* cmd_gate.c - `runner gate RUN_DIR [--window N] [--threshold PCT] [--history PATH]`: the
 * options, the output and the exit status (doc/history.md#runner-gate); the
 * judgement is results/history/gate.h. */
#include "cli/commands.h"
#include "cli/opts.h"
#include "results/history/gate.h"
#include "results/history/history_db.h"
#include "results/rundir/rundir.h"
#include "base/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char gate_usage[] =
    "usage: runner gate RUN_DIR [--window N] [--threshold PCT] [--history PATH]\n"
    "  judges each trial of the run against the last N (default 10) earlier runs of\n"
    "  the same experiment on the same machine in the history database: slower when\n"
    "  its median is beyond the history's by more than its run-to-run noise allows\n"
    "  (the noise measured from those runs; the chance of any false `slower` kept at\n"
    "  5 %), and beyond each of those runs.  Each trial states the smallest change it\n"
    "  could have detected; one with no change found whose detectable change is over\n"
    "  PCT % (default 10) is inconclusive.  The database: --history PATH, else\n"
    "  $RUNNER_HISTORY, else history.sqlite in RUN_DIR's results folder\n"
    "  (RESULTS/<experiment>/<run>).\n"
    "  exit status: 0 clean; 1 slower; 3 inconclusive; 2 bad input.  1 also when a\n"
    "  trial ok in its history failed; 3 when there are fewer than 3 earlier runs or\n"
    "  no database yet, the run was busy or throttled, a trial is missing or has no\n"
    "  positive median, or a detectable change is over PCT %\n";

enum { G_WINDOW, G_HISTORY, G_THRESHOLD, G_HELP };

static const opt_def gate_options[] = {
    {"--window", 0, OPT_VALUE, G_WINDOW},       {"--history", 0, OPT_VALUE, G_HISTORY},
    {"--threshold", 0, OPT_VALUE, G_THRESHOLD}, {"--help", 'h', OPT_NONE, G_HELP},
    {NULL, 0, 0, 0},
};

static int judge(const char *arg, const char *given, int window, double threshold)
{
    char *dir = rundir_resolve(arg);
    if (!dir) {
        fprintf(stderr, "runner: gate: %s is not a run folder (no trials table there or in its "
                        "latest run)\n",
                arg);
        return EXIT_INVALID;
    }
    char *def = history_default_path_for_run(dir);
    char *path = history_choose_path(given, def);
    free(def);
    if (!path) {
        fprintf(stderr, "runner: gate: %s is in no results folder (RESULTS/<experiment>/<run>): "
                        "name the database with --history PATH or RUNNER_HISTORY\n",
                dir);
        free(dir);
        return EXIT_INVALID;
    }
    char err[1024];
    int rc;
    sqlite3 *db = NULL;
    if (access(path, F_OK) != 0) {
        fprintf(stderr, "runner: gate: no history database at %s: inconclusive\n", path);
        rc = GATE_INCONCLUSIVE;
    } else if (!(db = history_open(path, 0, err, sizeof err))) {
        fprintf(stderr, "runner: gate: %s\n", err);
        rc = EXIT_INVALID;
    } else {
        gate_result g;
        if (gate_judge(db, dir, window, threshold, &g, err, sizeof err) < 0) {
            fprintf(stderr, "runner: gate: %s\n", err);
            rc = EXIT_INVALID;
        } else {
            strbuf out = {0};
            gate_format(&g, &out);
            fwrite(out.s, 1, out.len, stdout);
            sb_free(&out);
            rc = g.verdict;
        }
        gate_free(&g);
    }
    history_close(db);
    free(path);
    free(dir);
    return rc;
}

typedef struct gate_args {
    const char *run, *given;
    int window;
    double threshold;
} gate_args;

static int gate_option(void *ctx, const opts *p, int id)
{
    gate_args *g = ctx;
    const char *v = p->value;
    char *end;
    if (id == OPT_ARG) {
        if (g->run) {
            fprintf(stderr, "runner: gate takes one RUN_DIR ('%s' is one too many)\n", v);
            return EXIT_INVALID;
        }
        g->run = v;
    } else if (id == G_WINDOW) {
        long w = v ? strtol(v, &end, 10) : 0;
        if (!v || !*v || *end || w < GATE_MIN_HISTORY || w > 100000) {
            fprintf(stderr, "runner: gate: --window takes a number of runs from %d to "
                            "100000, not '%s'\n",
                    GATE_MIN_HISTORY, v ? v : "");
            return EXIT_INVALID;
        }
        g->window = (int)w;
    } else if (id == G_THRESHOLD) {
        /* a percentage: 10 or 10% */
        double t = v ? strtod(v, &end) : NAN;
        if (v && end != v && *end == '%')
            end++;
        if (!v || !*v || end == v || *end || !(t > 0 && t <= 1000)) {
            fprintf(stderr, "runner: gate: --threshold takes a percentage over 0 and at most "
                            "1000 (10 or 10%%), not '%s'\n",
                    v ? v : "");
            return EXIT_INVALID;
        }
        g->threshold = t / 100;
    } else if (id == G_HISTORY) {
        if (!v || !*v) {
            fprintf(stderr, "runner: gate: --history needs a file\n");
            return EXIT_INVALID;
        }
        g->given = v;
    }
    return -1;
}

int cmd_gate_main(int nargs, char **args)
{
    static const opts_cmd k = {"gate", gate_options, 0, gate_usage};
    gate_args g = {NULL, NULL, GATE_WINDOW, GATE_THRESHOLD};
    int rc = opts_parse(&k, nargs, args, gate_option, &g);
    if (rc < 0 && !g.run) {
        fputs(gate_usage, stderr);
        rc = EXIT_INVALID;
    }
    if (rc < 0)
        rc = judge(g.run, g.given, g.window, g.threshold);
    return rc;
}
