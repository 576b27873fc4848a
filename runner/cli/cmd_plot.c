/* cmd_plot.c - `runner plot RUN_DIR ... [--config FILE]` and
 * `runner report RUN_DIR`: both work from the saved results only and run
 * no trial.
 *
 * A RUN_DIR is a folder with trials.csv.  A folder without one stands for
 * the latest run of each experiment below it: DIR/latest, or every
 * DIR/<name>/latest (so `runner plot results/` re-draws them all). */
#include "cli/commands.h"
#include "experiment/plots_file.h"
#include "report/plot_model.h"
#include "report/plot_render.h"
#include "report/plots.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int has_trials(const char *dir)
{
    char *p = xasprintf("%s/trials.csv", dir);
    struct stat st;
    int ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);
    free(p);
    return ok;
}

static void add(char ***v, int *n, char *s)
{
    *v = xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
    (*v)[(*n)++] = s;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The run folders `arg` stands for; -1 (with a message) when none. */
int resolve_runs(const char *arg, char ***runs, int *nruns)
{
    struct stat st;
    if (stat(arg, &st) < 0) {
        fprintf(stderr, "runner: %s: %s (give a run folder, such as results/NAME/latest)\n", arg,
                strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        fprintf(stderr, "runner: %s: not a folder (give a run folder, which holds trials.csv)\n",
                arg);
        return -1;
    }
    if (has_trials(arg)) {
        add(runs, nruns, xstrdup(arg));
        return 0;
    }
    char *latest = xasprintf("%s/latest", arg);
    if (has_trials(latest)) {
        add(runs, nruns, latest);
        return 0;
    }
    free(latest);
    DIR *d = opendir(arg);
    if (!d) {
        fprintf(stderr, "runner: %s: %s\n", arg, strerror(errno));
        return -1;
    }
    char **found = NULL;
    int nf = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char *l =
            xasprintf("%s%s%s/latest", arg, arg[strlen(arg) - 1] == '/' ? "" : "/", de->d_name);
        if (has_trials(l))
            add(&found, &nf, l);
        else
            free(l);
    }
    closedir(d);
    if (nf == 0) {
        fprintf(stderr,
                "runner: %s: no trials.csv here, and no %s/latest or %s/<experiment>/latest "
                "run below it\n",
                arg, arg, arg);
        free(found);
        return -1;
    }
    xqsort(found, (size_t)nf, sizeof *found, cmp_str);
    for (int i = 0; i < nf; i++)
        add(runs, nruns, found[i]);
    free(found);
    return 0;
}

void free_runs(char **runs, int n)
{
    for (int i = 0; i < n; i++)
        free(runs[i]);
    free(runs);
}

static int exists(const char *dir, const char *name)
{
    char *p = xasprintf("%s/%s", dir, name);
    int ok = access(p, F_OK) == 0;
    free(p);
    return ok;
}

int cmd_plot(const cli *c)
{
    if (c->nfiles < 1) {
        fprintf(stderr, "runner plot: give a run folder (RUN_DIR), e.g. results/matmul/latest\n");
        return EXIT_INVALID;
    }
    char **runs = NULL;
    int nruns = 0, bad = 0;
    for (int i = 0; i < c->nfiles; i++)
        bad |= resolve_runs(c->files[i], &runs, &nruns) < 0;
    experiment *spec = NULL;
    /* a file with only `plots:` is read against each run's own experiment */
    int plots_only = c->config && plots_file_is_plots_only(c->config);
    if (!bad && c->config && !plots_only) {
        diags d = {0};
        spec = experiment_load(c->config, &d);
        if (!spec) {
            diag_print(&d, stderr);
            bad = 1;
        }
        diag_free(&d);
    }
    if (bad) {
        free_runs(runs, nruns);
        experiment_free(spec);
        return EXIT_INVALID;
    }
    int rc = EXIT_OK;
    for (int i = 0; i < nruns; i++) {
        char note[1024];
        experiment *e = pm_run_experiment(runs[i], note, sizeof note);
        if (!e && note[0] && !c->quiet)
            fprintf(stderr, "runner: note: %s; drawing from trials.csv alone\n", note);
        if (plots_only) {
            diags d = {0};
            if (!e) {
                fprintf(stderr, "runner: %s: the plots file %s needs the run's experiment.yaml\n",
                        runs[i], c->config);
                rc = EXIT_INVALID;
                continue;
            }
            if (plots_file_apply(e, c->config, &d) < 0) {
                diag_print(&d, stderr);
                diag_free(&d);
                experiment_free(e);
                rc = EXIT_INVALID;
                continue;
            }
            diag_free(&d);
        }
        int failed = 0;
        int n = plots_render_spec(runs[i], e, spec, c->quiet, &failed);
        if ((n < 0 || failed) && rc == EXIT_OK)
            rc = EXIT_TRIALS_FAILED;
        /* keep an existing report in step with the charts */
        if (n >= 0 && exists(runs[i], "report.md"))
            report_write(runs[i], 1);
        experiment_free(e);
    }
    free_runs(runs, nruns);
    experiment_free(spec);
    return rc;
}

int cmd_report(const cli *c)
{
    if (c->nfiles < 1) {
        fprintf(stderr, "runner report: give a run folder (RUN_DIR), e.g. results/matmul/latest\n");
        return EXIT_INVALID;
    }
    char **runs = NULL;
    int nruns = 0, bad = 0;
    for (int i = 0; i < c->nfiles; i++)
        bad |= resolve_runs(c->files[i], &runs, &nruns) < 0;
    if (bad) {
        free_runs(runs, nruns);
        return EXIT_INVALID;
    }
    int rc = EXIT_OK;
    for (int i = 0; i < nruns; i++)
        if (report_write(runs[i], c->quiet) < 0)
            rc = EXIT_TRIALS_FAILED;
    free_runs(runs, nruns);
    return rc;
}
