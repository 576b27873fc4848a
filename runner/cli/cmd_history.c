/* cmd_history.c - `runner history [--experiment NAME] [--machine ID]
 * [--filter KEY=GLOB]... [--format text|md|csv|json] [--charts DIR]
 * [--no-charts] [--history PATH]` and `runner history import RUN_DIR...`:
 * the options, the output and the exit status (doc/history.md); the work is
 * runner/history/. */
#include "cli/commands.h"
#include "cli/opts.h"
#include "results/history/history_chart.h"
#include "results/history/history_db.h"
#include "results/history/history_format.h"
#include "results/history/history_query.h"
#include "results/history/history_record.h"
#include "results/rundir/rundir.h"
#include "base/util.h"

#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char history_usage[] =
    "usage: runner history [--experiment NAME] [--machine ID] [--filter KEY=GLOB]...\n"
    "                      [--format text|md|csv|json] [--charts DIR | --no-charts]\n"
    "                      [--history PATH]\n"
    "       runner history import RUN_DIR... [--revision TEXT] [--history PATH]\n"
    "  each trial's median over the recorded runs, in revision order where known,\n"
    "  else by start time, with the change points found in each series (the\n"
    "  revisions on both sides, the step and its interval), and a trend chart per\n"
    "  experiment, machine, workload and device (DIR: default history-charts/ beside\n"
    "  the database).  import records run folders (a folder holding runs: each one\n"
    "  below it), each once.  The database: --history PATH, else $RUNNER_HISTORY,\n"
    "  else results/history.sqlite.\n"
    "  exit status: 0; 2 on bad input, a database that cannot be read, or when no\n"
    "  run matches (import: a RUN_DIR that is no run, or one not recorded)\n";

enum { H_EXPERIMENT, H_MACHINE, H_FILTER, H_FORMAT, H_CHARTS, H_NO_CHARTS, H_HISTORY,
       H_REVISION, H_HELP };

static const opt_def history_options[] = {
    {"--experiment", 0, OPT_VALUE, H_EXPERIMENT}, {"--machine", 0, OPT_VALUE, H_MACHINE},
    {"--filter", 0, OPT_VALUE, H_FILTER},         {"--format", 0, OPT_VALUE, H_FORMAT},
    {"--charts", 0, OPT_VALUE, H_CHARTS},         {"--no-charts", 0, OPT_NONE, H_NO_CHARTS},
    {"--history", 0, OPT_VALUE, H_HISTORY},       {"--revision", 0, OPT_VALUE, H_REVISION},
    {"--help", 'h', OPT_NONE, H_HELP},            {NULL, 0, 0, 0},
};

/* The run folders at or below dir (not `latest`, not shards), depth <= 3. */
static void runs_below(const char *dir, int depth, char ***out, int *n)
{
    if (rundir_is_run(dir)) {
        XGROW(*out, *n);
        (*out)[(*n)++] = xstrdup(dir);
        return;
    }
    struct dirent **ents;
    int k = depth < 3 ? scandir(dir, &ents, NULL, alphasort) : -1;
    for (int i = 0; i < k; i++) {
        const char *nm = ents[i]->d_name;
        char *p = xasprintf("%s/%s", dir, nm);
        struct stat sb;
        if (nm[0] != '.' && strcmp(nm, "latest") && strncmp(nm, "shard-", 6) &&
            lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
            runs_below(p, depth + 1, out, n);
        free(p);
        free(ents[i]);
    }
    if (k >= 0)
        free(ents);
}

static int import(const char *path, char **dirs, int ndirs, const char *revision)
{
    char err[1024];
    int rc = EXIT_OK, recorded = 0, already = 0, failed = 0;
    sqlite3 *db = history_open(path, 1, err, sizeof err);
    if (!db) {
        fprintf(stderr, "runner: history: %s\n", err);
        return EXIT_INVALID;
    }
    history_record_opts o = {.revision = revision};
    for (int i = 0; i < ndirs; i++) {
        char **runs = NULL;
        int n = 0;
        runs_below(dirs[i], 0, &runs, &n);
        if (!n) {
            fprintf(stderr, "runner: history import: %s holds no run folder\n", dirs[i]);
            rc = EXIT_INVALID;
        }
        for (int k = 0; k < n; k++) {
            int r = history_record(db, runs[k], &o, NULL, err, sizeof err);
            if (r < 0) {
                fprintf(stderr, "runner: history import: %s\n", err);
                failed++;
                rc = EXIT_INVALID;
            } else
                *(r == HISTORY_ALREADY ? &already : &recorded) += 1;
            free(runs[k]);
        }
        free(runs);
    }
    history_close(db);
    fprintf(stderr, "history: %d run%s recorded, %d already there, %d failed; in %s\n", recorded,
            recorded == 1 ? "" : "s", already, failed, path);
    return rc;
}

static int show(const char *path, const history_query *q, const char *format, const char *charts,
                int no_charts)
{
    char err[1024];
    sqlite3 *db = history_open(path, 0, err, sizeof err);
    if (!db) {
        fprintf(stderr, "runner: history: %s\n", err);
        return EXIT_INVALID;
    }
    history_set h;
    if (history_load(db, q, &h, err, sizeof err) < 0) {
        fprintf(stderr, "runner: history: %s: %s\n", path, err);
        history_close(db);
        return EXIT_INVALID;
    }
    int rc = EXIT_OK;
    if (h.bad_rows)
        fprintf(stderr, "runner: warning: history: %s: %d row%s left out or without a median: a "
                        "NULL where a value must be, a text where a number must be, or a median "
                        "that is no positive time\n",
                path, h.bad_rows, h.bad_rows == 1 ? "" : "s");
    if (h.n == 0) {
        fprintf(stderr, "runner: history: no recorded run in %s matches\n", path);
        rc = EXIT_INVALID;
    } else {
        strbuf out = {0};
        history_format(db, &h, format, &out);
        fwrite(out.s, 1, out.len, stdout);
        fflush(stdout);
        sb_free(&out);
        if (!no_charts) {
            char *p = xstrdup(path);
            char *dir = charts ? xstrdup(charts) : xasprintf("%s/history-charts", dirname(p));
            strbuf names = {0};
            int k = history_charts(&h, dir, &names, err, sizeof err);
            if (k < 0)
                fprintf(stderr, "runner: warning: history: %s\n", err);
            else
                fprintf(stderr, "history: %d trend chart%s in %s\n", k, k == 1 ? "" : "s", dir);
            sb_free(&names);
            free(dir);
            free(p);
        }
    }
    history_set_free(&h);
    history_close(db);
    return rc;
}

typedef struct history_args {
    history_query q;
    const char **filters;
    char **dirs;
    const char *format, *charts, *given, *revision;
    int ndirs, no_charts, importing;
} history_args;

static int history_option(void *ctx, const opts *p, int id)
{
    history_args *h = ctx;
    const char *v = p->value;
    if (id >= 0 && id != H_NO_CHARTS && (!v || !*v)) {
        fprintf(stderr, "runner: history: %s needs a value\n", p->name);
        return EXIT_INVALID;
    }
    /* the options that keep their text as given */
    const char **to[] = {[H_EXPERIMENT] = &h->q.experiment, [H_MACHINE] = &h->q.machine,
                         [H_CHARTS] = &h->charts, [H_HISTORY] = &h->given,
                         [H_REVISION] = &h->revision, [H_HELP] = NULL};
    if (id >= 0 && to[id]) {
        *to[id] = v;
        return -1;
    }
    switch (id) {
    case OPT_ARG:
        if (!h->importing && h->ndirs == 0 && !strcmp(v, "import"))
            h->importing = 1;
        else
            h->dirs[h->ndirs++] = (char *)v;
        break;
    case H_FILTER:
        if (!strchr(v, '=') || v[0] == '=') {
            fprintf(stderr, "runner: history: --filter takes KEY=GLOB, not '%s'\n", v);
            return EXIT_INVALID;
        }
        h->filters[h->q.nfilters++] = v;
        break;
    case H_FORMAT:
        if (strcmp(v, "text") && strcmp(v, "md") && strcmp(v, "csv") && strcmp(v, "json")) {
            fprintf(stderr, "runner: history: --format takes text, md, csv or json, not '%s'\n", v);
            return EXIT_INVALID;
        }
        h->format = v;
        break;
    case H_NO_CHARTS:
        h->no_charts = 1;
        break;
    }
    return -1;
}

int cmd_history_main(int nargs, char **args)
{
    static const opts_cmd k = {"history", history_options, 0, history_usage};
    history_args h = {.filters = xcalloc((size_t)nargs + 1, sizeof *h.filters),
                      .dirs = xcalloc((size_t)nargs + 1, sizeof *h.dirs),
                      .format = "text"};
    h.q.filters = h.filters;
    int rc = opts_parse(&k, nargs, args, history_option, &h);
    char *path = history_choose_path(h.given, "results/history.sqlite");
    if (rc < 0 && h.importing && h.ndirs == 0) {
        fprintf(stderr, "runner: history import needs a RUN_DIR\n");
        rc = EXIT_INVALID;
    } else if (rc < 0 && !h.importing && h.ndirs > 0) {
        fprintf(stderr, "runner: history takes no argument ('%s'); runner history import "
                        "RUN_DIR... records runs\n",
                h.dirs[0]);
        rc = EXIT_INVALID;
    } else if (rc < 0 && !h.importing && h.revision) {
        fprintf(stderr, "runner: history: --revision goes with import\n");
        rc = EXIT_INVALID;
    }
    if (rc < 0)
        rc = h.importing ? import(path, h.dirs, h.ndirs, h.revision)
                         : show(path, &h.q, h.format, h.charts, h.no_charts);
    free(path);
    free(h.filters);
    free(h.dirs);
    return rc;
}
