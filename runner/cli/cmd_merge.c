/* cmd_merge.c - `runner merge RUN_DIR`: joins the shards of a run
 * (results/rundir/merge.h), then draws the plots and writes the report; a run made
 * by `runner submit` earns its experiment folder's `latest` when the merge
 * is complete and has an ok trial (doc/slurm.md#running-on-a-slurm-cluster). */
#include "cli/commands.h"
#include "cli/notes.h"
#include "cli/redraw.h"
#include "results/history/history_run.h"
#include "results/report/plots.h"
#include "results/rundir/merge.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>

int cmd_merge(const cli *c)
{
    const char *dir = c->files[0];
    merge_info m;
    diags err = {0};
    int mr = rundir_merge(dir, &m, &err);
    for (int i = 0; i < err.n; i++)
        fprintf(stderr, "runner: merge: %s\n", err.items[i].msg);
    diag_free(&err);
    if (mr != MERGE_OK)
        return mr == MERGE_INVALID ? EXIT_INVALID : EXIT_TRIALS_FAILED;
    int incomplete = m.missing || m.unfinished || m.missing_trials;
    /* the trials no shard holds, whatever --quiet says: the merge is not
     * complete (doc/slurm.md#what-merge-verifies) */
    for (const char *p = m.missing_text.s; p && *p;) {
        size_t l = strcspn(p, "\n");
        fprintf(stderr, "runner: merge: %.*s\n", (int)l, p);
        p += l + (p[l] == '\n');
    }
    sb_free(&m.missing_text);
    if (!c->quiet)
        fprintf(stderr, "merged %d of %d shards into %s%s\n", m.shards, m.n, dir,
                incomplete ? " (incomplete: see runner status)" : "");
    if (!c->no_plots)
        draw_run(dir, NULL, c->quiet);
    strbuf notes = {0};
    /* the merged run in the history, once: merged again, it replaces itself
     * (doc/history.md#what-is-recorded); then the report, with its section */
    history_record_run(dir,
                       &(history_run_opts){c->history, NULL, c->revision, c->no_history, c->quiet,
                                           c->no_plots, 1},
                       &notes);
    int unwritten = report_write(dir, c->quiet, &notes) < 0; /* exit 1, as for a run */
    print_notes(&notes);
    if (incomplete || unwritten)
        return EXIT_TRIALS_FAILED;
    if (rundir_merge_earn_latest(dir) == 0 && !c->quiet)
        fprintf(stderr, "runner: merge: latest not moved: %s has no ok trial\n", dir);
    return EXIT_OK;
}
