/* cmd_gate.c - `runner gate RUN_DIR [--window N] [--history PATH]`: the
 * options, the output and the exit status (doc/history.md#runner-gate); the
 * judgement is results/history/gate.h. */
#include "cli/commands.h"
#include "cli/opts.h"
#include "results/history/gate.h"
#include "results/history/history_db.h"
#include "results/rundir/rundir.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void gate_usage(FILE *f)
{
    fputs("usage: runner gate RUN_DIR [--window N] [--history PATH]\n"
          "  judges each trial of the run against the last N (default 10) earlier runs of\n"
          "  the same experiment on the same machine in the history database: slower when\n"
          "  its median is beyond the history's median by more than its run-to-run noise\n"
          "  allows (the noise measured from those runs; the chance of any false `slower`\n"
          "  kept at 5 %).  The database: --history PATH, else $RUNNER_HISTORY, else\n"
          "  history.sqlite in RUN_DIR's results folder (RESULTS/<experiment>/<run>).\n"
          "  exit status: 0 clean; 1 slower; 3 inconclusive (fewer than 3 earlier runs,\n"
          "  no database yet, or the run was busy or throttled); 2 bad input\n",
          f);
}

enum { G_WINDOW, G_HISTORY, G_HELP };

static const opt_def gate_options[] = {
    {"--window", 0, OPT_VALUE, G_WINDOW},
    {"--history", 0, OPT_VALUE, G_HISTORY},
    {"--help", 'h', OPT_NONE, G_HELP},
    {NULL, 0, 0, 0},
};

static int judge(const char *arg, const char *given, int window)
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
        if (gate_judge(db, dir, window, &g, err, sizeof err) < 0) {
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

int cmd_gate_main(int nargs, char **args)
{
    const char *run = NULL, *given = NULL;
    int window = GATE_WINDOW, rc = -1, id;
    opts p;
    opts_init_args(&p, nargs, args, gate_options, 0);
    while (rc < 0 && (id = opts_next(&p)) != OPT_END) {
        const char *v = p.value;
        char *end;
        switch (id) {
        case OPT_ARG:
            if (run) {
                fprintf(stderr, "runner: gate takes one RUN_DIR ('%s' is one too many)\n", v);
                rc = EXIT_INVALID;
            }
            run = v;
            break;
        case G_WINDOW: {
            long w = v ? strtol(v, &end, 10) : 0;
            if (!v || !*v || *end || w < GATE_MIN_HISTORY || w > 100000) {
                fprintf(stderr, "runner: gate: --window takes a number of runs from %d to "
                                "100000, not '%s'\n",
                        GATE_MIN_HISTORY, v ? v : "");
                rc = EXIT_INVALID;
            }
            window = (int)w;
            break;
        }
        case G_HISTORY:
            if (!v || !*v) {
                fprintf(stderr, "runner: gate: --history needs a file\n");
                rc = EXIT_INVALID;
            }
            given = v;
            break;
        case G_HELP:
            gate_usage(stdout);
            rc = EXIT_OK;
            break;
        default: { /* OPT_UNKNOWN */
            opts_say_unknown(&p, "gate");
            rc = EXIT_INVALID;
        }
        }
    }
    opts_free(&p);
    if (rc < 0 && !run) {
        gate_usage(stderr);
        rc = EXIT_INVALID;
    }
    if (rc < 0)
        rc = judge(run, given, window);
    return rc;
}
