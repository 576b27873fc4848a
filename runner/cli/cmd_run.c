/* cmd_run.c - `runner FILE.yaml ...`: the options, the run of each
 * experiment (run/run.h), and what it says printed. */
#include "cli/commands.h"
#include "cli/load.h"
#include "cli/progress.h"
#include "cli/trace_target.h"
#include "run/run.h"
#include "base/util.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

void cmd_run_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint; /* no SA_RESTART: poll() must wake up */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* The run's hand (run.h): its lines and the progress line on stderr. */
static void say(void *ctx, const char *lines)
{
    progress_clear(ctx);
    fputs(lines, stderr);
}

static void start(void *ctx, long long todo)
{
    progress *pr = ctx;
    progress_init(pr, todo, !pr->enabled); /* enabled or not as before */
}

static void trial(void *ctx, long long i, const char *desc)
{
    progress_trial(ctx, i, desc);
}

static void finished(void *ctx, double seconds, int ran)
{
    progress_finished(ctx, seconds, ran);
}

/* The summary line, the skip reasons, and how to continue an interrupted
 * run; the exit status. */
static int print_end(const cli *c, const experiment *e, run_end end, const run_outcome *r)
{
    char w[32];
    fmt_seconds(w, sizeof w, r->wall);
    fprintf(stderr, "%s: %lld ok, %lld failed, %lld timeout, %lld skipped in %s; results in %s\n",
            e->name, r->counts[ST_OK], r->counts[ST_FAILED], r->counts[ST_TIMEOUT],
            r->counts[ST_SKIPPED], w, r->run_dir);
    for (int i = 0; i < r->nreasons && !c->quiet; i++)
        fprintf(stderr, "  skipped %lld: %s\n", r->nreason[i], r->reason[i]);
    if (end == RUN_WRITE_FAILED)
        return EXIT_TRIALS_FAILED;
    if (end != RUN_INTERRUPTED)
        return EXIT_OK;
    /* the command that continues this run folder (doc/results.md#results):
     * a --run-dir run continues where it was written, not under --output,
     * with the options that chose the trials and allowed its Lua */
    strbuf more = {0};
    if (c->run_dir && c->shard_n)
        sb_printf(&more, " --shard %d/%d", c->shard_k, c->shard_n);
    for (int i = 0; i < c->nfilters; i++) {
        sb_puts(&more, " --filter ");
        sh_quote(&more, c->filters[i]);
    }
    if (c->allow_unsafe_lua)
        sb_puts(&more, " --allow-unsafe-lua");
    fprintf(stderr,
            "runner: interrupted; finished trials are saved. Continue with: runner %s %s%s %s\n",
            c->run_dir ? "--run-dir" : "--resume --output", c->run_dir ? c->run_dir : c->output,
            more.s ? more.s : "", e->path);
    sb_free(&more);
    return EXIT_INTERRUPTED;
}

run_end cmd_run_experiment(const cli *c, const experiment *e, trace_file *T, run_outcome *r)
{
    run_opts o = {.output = c->output, .run_dir = c->run_dir, .shard_k = c->shard_k,
                  .shard_n = c->shard_n, .resume = c->resume, .no_plots = c->no_plots,
                  .quiet = c->quiet, .allow_unsafe_lua = c->allow_unsafe_lua, .argc = cli_argc,
                  .argv = cli_argv, .trace = T, .interrupted = &interrupted,
                  .history = c->history, .revision = c->revision, .no_history = c->no_history};
    progress pr;
    progress_init(&pr, 0, c->quiet);
    run_hand h = {&pr, say, start, trial, finished, pr.enabled};
    run_end end = run_experiment(e, &o, &h, r);
    progress_clear(&pr);
    return end;
}

static int run_one(const cli *c, const experiment *e, trace_file *T, int *any_failed)
{
    run_outcome r;
    run_end end = cmd_run_experiment(c, e, T, &r);
    int rc = end == RUN_INVALID ? EXIT_INVALID : print_end(c, e, end, &r);
    *any_failed |= r.any_failed;
    run_outcome_free(&r);
    return rc;
}

int cmd_run(const cli *c)
{
    /* every file is checked before anything runs */
    experiment **es = xcalloc((size_t)c->nfiles, sizeof *es);
    int bad = 0;
    load_opts o = cli_load_opts(c);
    for (int i = 0; i < c->nfiles; i++)
        if (!(es[i] = load_experiment(c->files[i], &o)))
            bad = 1;
    int rc = bad ? EXIT_INVALID : EXIT_OK, any_failed = 0;
    trace_file *T = NULL;
    char err[1024];
    if (!bad && c->trace &&
        (trace_target_check(c->trace, es, c->nfiles, c->run_dir, err, sizeof err) < 0 ||
         !(T = trace_file_open(c->trace, 0, err, sizeof err)))) {
        fprintf(stderr, "runner: %s\n", err);
        rc = EXIT_INVALID;
    }
    if (rc == EXIT_OK) {
        cmd_run_catch_signals();
        for (int i = 0; i < c->nfiles && rc == EXIT_OK; i++)
            rc = run_one(c, es[i], T, &any_failed);
        if (rc == EXIT_OK && any_failed)
            rc = EXIT_TRIALS_FAILED;
    }
    if (T && trace_file_close(T, err, sizeof err) < 0) {
        fprintf(stderr, "runner: %s\n", err);
        if (rc == EXIT_OK)
            rc = EXIT_TRIALS_FAILED;
    }
    for (int i = 0; i < c->nfiles; i++)
        experiment_free(es[i]);
    free(es);
    return rc;
}
