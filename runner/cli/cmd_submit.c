/* cmd_submit.c - `runner submit FILE.yaml [--shards N] [--partition P]
 * [--time T] [--gpus-per-shard G] [--sbatch-arg ARG]... [--output DIR]`,
 * `runner submit --resume RUN_DIR [...]` and `runner status RUN_DIR`: their
 * options and what they print.  What they do is in slurm/submit.h and
 * slurm/status.h (doc/slurm.md#running-on-a-slurm-cluster). */
#include "cli/commands.h"
#include "cli/load.h"
#include "cli/opts.h"
#include "experiment/config.h"
#include "slurm/slurm.h"
#include "slurm/status.h"
#include "slurm/submit.h"
#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- options ------------------------------------------------------------------ */

typedef struct submit_args {
    const char *target; /* FILE.yaml, or RUN_DIR with --resume */
    int resume, shards, allow_unsafe_lua;
    const char *output;
    slurm_opts o;
} submit_args;

enum { S_SHARDS, S_PARTITION, S_TIME, S_GPUS, S_SBATCH_ARG, S_OUTPUT, S_RESUME, S_UNSAFE_LUA,
       S_HELP };

/* in this order for "did you mean" */
static const opt_def submit_options[] = {
    {"--shards", 0, OPT_VALUE, S_SHARDS},         {"--partition", 0, OPT_VALUE, S_PARTITION},
    {"--time", 0, OPT_VALUE, S_TIME},             {"--gpus-per-shard", 0, OPT_VALUE, S_GPUS},
    {"--sbatch-arg", 0, OPT_VALUE, S_SBATCH_ARG}, {"--output", 0, OPT_VALUE, S_OUTPUT},
    {"--resume", 0, OPT_ATTACHED, S_RESUME}, /* --resume=RUN_DIR too */
    {"--allow-unsafe-lua", 0, OPT_NONE, S_UNSAFE_LUA}, {"--help", 'h', OPT_NONE, S_HELP},
    {NULL, 0, 0, 0},
};

static const opt_def status_options[] = {{"--help", 'h', OPT_NONE, S_HELP}, {NULL, 0, 0, 0}};

static const char submit_usage[] =
    "usage: runner submit FILE.yaml [--shards N] [--partition P] [--time T]\n"
    "                     [--gpus-per-shard G] [--sbatch-arg ARG]... [--output DIR]\n"
    "       runner submit --resume RUN_DIR [--partition P] [--time T] [--gpus-per-shard G]\n"
    "                     [--sbatch-arg ARG]...\n"
    "       runner status RUN_DIR\n"
    "  --shards N          array tasks, each runs the trials whose number % N is its own (default 4)\n"
    "  --partition P       Slurm partition\n"
    "  --time T            time limit per shard: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S\n"
    "  --gpus-per-shard G  --gres=gpu:G for each shard\n"
    "  --sbatch-arg ARG    one more sbatch option, e.g. --sbatch-arg=--mem=8G (repeatable)\n"
    "  --output DIR        results folder (default ./results)\n"
    "  --resume            submit the missing and unfinished shards of RUN_DIR again\n";

static int parse_int(const char *v, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi)
        return -1;
    *out = (int)x;
    return 0;
}

typedef struct submit_parsing {
    submit_args *s;
    int ntargets, shards_given, output_given;
} submit_parsing;

/* One option or argument of submit: -1, or EXIT_INVALID with a message when
 * its value is wrong. */
static int submit_option(void *ctx, const opts *p, int id)
{
    submit_parsing *sp = ctx;
    submit_args *s = sp->s;
    const char *v = p->value, *name = p->name;
    if (id == OPT_ARG || (id == S_RESUME && v)) { /* --resume=RUN_DIR */
        s->target = v;
        sp->ntargets++;
    }
    if (id == OPT_ARG)
        return -1;
    if (id == S_RESUME || id == S_UNSAFE_LUA) {
        *(id == S_RESUME ? &s->resume : &s->allow_unsafe_lua) = 1;
        s->o.allow_unsafe_lua = s->allow_unsafe_lua;
        return -1;
    }
    char err[512];
    if (!v) {
        fprintf(stderr, "runner: submit: %s needs a value\n", name);
        return EXIT_INVALID;
    }
    switch (id) {
    case S_SHARDS:
        if (parse_int(v, 1, SLURM_MAX_SHARDS, &s->shards) < 0) {
            fprintf(stderr, "runner: submit: --shards takes a whole number from 1 to 100000, not '%s'\n", v);
            return EXIT_INVALID;
        }
        sp->shards_given = 1;
        break;
    case S_GPUS:
        if (parse_int(v, 0, 1024, &s->o.gpus) < 0) {
            fprintf(stderr, "runner: submit: --gpus-per-shard takes a whole number >= 0, not '%s'\n", v);
            return EXIT_INVALID;
        }
        break;
    case S_TIME:
        if (!slurm_time_valid(v)) {
            fprintf(stderr,
                    "runner: submit: --time '%s' is not a Slurm time limit: minutes, MM:SS, "
                    "HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS (e.g. 90, 1:30:00, 2-00:00:00)\n",
                    v);
            return EXIT_INVALID;
        }
        s->o.time = v;
        break;
    case S_PARTITION:
        if (!*v || strpbrk(v, "\n\r")) {
            fprintf(stderr, "runner: submit: --partition needs a partition name\n");
            return EXIT_INVALID;
        }
        s->o.partition = v;
        break;
    case S_SBATCH_ARG:
        if (slurm_extra_valid(v, err, sizeof err) < 0) {
            fprintf(stderr, "runner: submit: %s\n", err);
            return EXIT_INVALID;
        }
        s->o.extra[s->o.nextra++] = (char *)v;
        break;
    case S_OUTPUT:
        if (!*v) {
            fprintf(stderr, "runner: submit: --output needs a folder\n");
            return EXIT_INVALID;
        }
        s->output = v;
        sp->output_given = 1;
        break;
    }
    return -1;
}

/* -1 ok, else the exit status (help or an error printed). */
static int submit_parse(int nargs, char **args, submit_args *s)
{
    static const opts_cmd k = {"submit", submit_options, 0, submit_usage};
    memset(s, 0, sizeof *s);
    s->output = "results";
    s->o.extra = xcalloc((size_t)nargs + 1, sizeof *s->o.extra);
    submit_parsing sp = {s, 0, 0, 0};
    int rc = opts_parse(&k, nargs, args, submit_option, &sp);
    if (rc >= 0)
        return rc;
    int ntargets = sp.ntargets;
    if (ntargets != 1) {
        fprintf(stderr, "runner: submit: %s\n",
                ntargets ? "one experiment file (or, with --resume, one run folder) at a time"
                : s->resume ? "--resume needs the RUN_DIR that runner submit made"
                            : "needs an experiment file (runner submit FILE.yaml)");
        return EXIT_INVALID;
    }
    if (s->resume && (sp.shards_given || sp.output_given)) {
        fprintf(stderr, "runner: submit: --resume keeps the run's folder and shard count; "
                        "--shards and --output go with a new submission\n");
        return EXIT_INVALID;
    }
    if (!sp.shards_given)
        s->shards = 4;
    return -1;
}

/* Prints each line of msgs after "runner: submit: ". */
static void print_lines(const char *prefix, const strbuf *msgs)
{
    for (const char *p = msgs->s; p && *p;) {
        size_t l = strcspn(p, "\n");
        fprintf(stderr, "%s%.*s\n", prefix, (int)l, p);
        p += l + (p[l] == '\n');
    }
}

/* Submits a prepared submission and says what was queued. */
static int send(submission *s, const slurm_opts *o)
{
    strbuf msgs = {0};
    int r = submit_send(s, o, &msgs);
    print_lines("runner: submit: ", &msgs);
    sb_free(&msgs);
    if (r == SUBMIT_REFUSED)
        return EXIT_INVALID;
    if (r == SUBMIT_MERGE_REFUSED)
        return EXIT_TRIALS_FAILED;
    int one = s->ntodo == 1;
    if (s->resumed)
        printf("%s: resubmitted shard%s %s of %d as Slurm job %s (array task%s %s); merge job %s "
               "runs after it\n",
               s->name, one ? "" : "s", s->shards, s->n, s->array_id, one ? "" : "s", s->tasks,
               s->merge_id);
    else
        printf("%s: submitted %d shard%s as Slurm job %s (array tasks %s); merge job %s runs after "
               "it\n",
               s->name, s->n, s->n == 1 ? "" : "s", s->array_id, s->tasks, s->merge_id);
    strbuf q = {0};
    sh_quote(&q, s->run_dir);
    printf("  run folder: %s\n  progress:   runner status %s\n  cancel:     scancel %s %s\n",
           s->run_dir, q.s, s->array_id, s->merge_id);
    sb_free(&q);
    return EXIT_OK;
}

static int submit_new(submit_args *a)
{
    load_opts lo = {.allow_unsafe_lua = a->allow_unsafe_lua};
    experiment *e = load_experiment(a->target, &lo);
    if (!e)
        return EXIT_INVALID;
    submission s;
    strbuf notes = {0};
    char err[4096];
    int p = submit_prepare(e, a->target, a->output, a->shards, &a->o, &s, &notes, err, sizeof err);
    print_lines("runner: submit: ", &notes);
    if (p < 0)
        fprintf(stderr, "runner: submit: %s\n", err);
    int rc = p < 0 ? EXIT_INVALID : send(&s, &a->o);
    sb_free(&notes);
    submission_free(&s);
    experiment_free(e);
    return rc;
}

static int submit_resume(submit_args *a)
{
    submission s;
    char err[4096];
    int rc = EXIT_INVALID;
    if (submit_prepare_resume(a->target, &s, err, sizeof err) < 0) {
        fprintf(stderr, "runner: submit --resume: %s\n", err);
    } else if (s.ntodo == 0) {
        strbuf q = {0};
        sh_quote(&q, s.run_dir);
        printf("every shard of %s has finished: nothing to submit (join them with: runner merge "
               "%s)\n",
               s.run_dir, q.s);
        sb_free(&q);
        rc = EXIT_OK;
    } else {
        rc = send(&s, &a->o);
    }
    submission_free(&s);
    return rc;
}

int cmd_submit_main(int nargs, char **args)
{
    submit_args s;
    int rc = submit_parse(nargs, args, &s);
    if (rc < 0)
        rc = s.resume ? submit_resume(&s) : submit_new(&s);
    free(s.o.extra);
    return rc;
}

/* ---- runner status RUN_DIR ---------------------------------------------------------- */

/* RUN_DIR, once; `--` is no option of status */
static int status_arg(void *ctx, const opts *p, int id)
{
    const char **target = ctx;
    if (id == OPT_SEPARATOR) {
        opts_say_unknown(p, "status");
        return EXIT_INVALID;
    }
    if (*target) {
        fprintf(stderr, "runner: status takes one RUN_DIR\n");
        return EXIT_INVALID;
    }
    *target = p->value;
    return -1;
}

int cmd_status_main(int nargs, char **args)
{
    static const opts_cmd k = {"status", status_options, 1, submit_usage};
    const char *target = NULL;
    int rc = opts_parse(&k, nargs, args, status_arg, &target);
    if (rc >= 0)
        return rc;
    if (!target) {
        fprintf(stderr, "runner: status needs RUN_DIR\n");
        return EXIT_INVALID;
    }
    run_status st;
    char err[4096];
    if (slurm_status(target, &st, err, sizeof err) < 0) {
        fprintf(stderr, "runner: status: %s\n", err);
        run_status_free(&st);
        return EXIT_INVALID;
    }
    int n = st.n, nfin = 0;
    long long done_all = 0, tot_all = 0;
    const job_log *L = &st.log;
    const slurm_view *v = &st.view;
    const long long *tot = st.total;
    printf("%s: %d shard%s\n", st.run_dir, n, n == 1 ? "" : "s");
    printf("%-12s %-13s %-12s %s\n", "shard", "trials", "state", L->narr ? "slurm" : "");
    for (int k = 1; k <= n; k++) {
        long long rows = st.rows[k - 1];
        int fin = st.finished[k - 1];
        nfin += fin;
        char sh[32], tr[64];
        snprintf(sh, sizeof sh, "%d/%d", k, n);
        if (tot)
            snprintf(tr, sizeof tr, "%lld/%lld", rows > 0 ? rows : 0, tot[k - 1]);
        else
            snprintf(tr, sizeof tr, "%lld/?", rows > 0 ? rows : 0);
        done_all += rows > 0 ? rows : 0;
        tot_all += tot ? tot[k - 1] : 0;
        /* -2: its trials table is not one (shards.h) */
        const char *state = rows < -1 ? "unreadable" : rows < 0 ? "not started"
                            : fin      ? "finished"
                                       : "unfinished";
        printf("%-12s %-13s %-12s", sh, tr, state);
        if (L->narr) {
            const char *task = v->task[k - 1];
            if (!task)
                printf(" not submitted");
            else if (v->state[k - 1])
                printf(" job %s: %s", task, v->state[k - 1]);
            else if (v->queried && !v->problem)
                printf(" job %s: unknown (not in the queue)", task);
            else
                printf(" job %s: unknown", task);
        }
        putchar('\n');
    }
    if (L->merge_id[0])
        printf("merge job %s: %s\n", L->merge_id,
               v->merge_state               ? v->merge_state
               : v->queried && !v->problem ? "unknown (not in the queue)"
                                           : "unknown");
    if (v->problem)
        printf("Slurm's states are unknown: %s\n", v->problem);
    printf("merged: %s\n", st.merged == 1   ? "complete"
                           : st.merged == 2 ? "incomplete (merge again once every shard has finished)"
                                            : "not yet");
    if (tot)
        printf("%d of %d shards finished; %lld of %lld trials done\n", nfin, n, done_all, tot_all);
    else
        printf("%d of %d shards finished; %lld trials done (the experiment file could not be "
               "loaded to count them all)\n",
               nfin, n, done_all);
    if (nfin < n && st.has_job) {
        strbuf q = {0};
        sh_quote(&q, st.run_dir);
        printf("resubmit the unfinished shards with: runner submit --resume %s\n", q.s);
        sb_free(&q);
    }
    run_status_free(&st);
    return nfin == n ? EXIT_OK : EXIT_TRIALS_FAILED;
}
