/* cli.c - see cli.h: the options of the commands that share them (cli/opts.h: options may come before or after the
 * command's arguments; `--opt=VALUE` and `--opt VALUE` both work; `--` ends
 * the options). */
#include "cli/cli.h"

#include "base/util.h"
#include "cli/opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_argc;
char **cli_argv;

void cli_usage(FILE *out)
{
    fputs("usage: runner [OPTIONS] FILE.yaml [FILE.yaml ...]   run experiments\n"
          "       runner validate FILE.yaml ...               check files, run nothing\n"
          "       runner --dry-run FILE.yaml                  print the trials as CSV\n"
          "       runner plot RUN_DIR ... [--config FILE]     re-draw plots from results\n"
          "       runner report RUN_DIR                       write RUN_DIR/report.md and report.html\n"
          "       runner export RUN_DIR --format json|csv|spreadsheet  print the trials with their samples\n"
          "       runner list workloads | devices\n"
          "       runner merge RUN_DIR                        join the shards of a run\n"
          "       runner submit FILE.yaml [--shards N] [--partition P] [--time T] [--gpus-per-shard G]\n"
          "                     [--sbatch-arg ARG]... [--output DIR]   run the shards as a Slurm job array\n"
          "       runner submit --resume RUN_DIR              resubmit the missing or unfinished shards\n"
          "       runner status RUN_DIR                       trials done and Slurm state per shard\n"
          "       runner compare OLD_RUN NEW_RUN | OLD_RUN... -- NEW_RUN... [--threshold PCT]\n"
          "                     [--noise-floor PCT] [--ignore KEY]... [--busy-ok]\n"
          "                     [--format text|md|csv|json]\n"
          "       runner history [--experiment NAME] [--machine ID] [--filter KEY=GLOB]...\n"
          "                     [--format text|md|csv|json] [--charts DIR] [--history PATH]\n"
          "       runner history import RUN_DIR...           record existing runs\n"
          "       runner gate RUN_DIR [--window N] [--history PATH]   judge a run against its history\n"
          "       runner machine [--show] [--reprobe] [--json]  this machine's ceilings (probed once)\n"
          "       runner new workload NAME [--cuda] [--dir DIR]   write a plugin to build and sweep\n"
          "       runner exec [-L NAME A,B] [-r N] [-w N] ... -- PROGRAM [ARG...] | 'COMMAND'...\n"
          "                     time commands as hyperfine does, through an experiment file\n"
          "options:\n"
          "  --output DIR         results folder (default ./results)\n"
          "  --filter KEY=GLOB    keep matching trials (repeatable)\n"
          "  --resume             continue the newest unfinished run\n"
          "  --shard K/N          run the trials whose number % N is K-1 (1 <= K <= N)\n"
          "  --run-dir DIR        write into DIR (with --shard: DIR/shard-K-of-N)\n"
          "  --no-plots           do not draw charts\n"
          "  --trace FILE.json    write the run's timeline (Chrome / Perfetto trace events)\n"
          "  --history PATH       the history database (default $RUNNER_HISTORY, else\n"
          "                       OUTPUT/history.sqlite); --no-history: do not record\n"
          "  --revision TEXT      the measured code's revision (default: git in the file's folder)\n"
          "  --quiet              only the summary, errors and warnings about the file\n"
          "  --allow-unsafe-lua   open Lua's full standard library\n"
          "  --help, --version\n",
          out);
}

enum { O_OUTPUT, O_FILTER, O_RESUME, O_NO_PLOTS, O_SHARD, O_RUN_DIR, O_QUIET, O_DRY_RUN,
       O_UNSAFE_LUA, O_CONFIG, O_FORMAT, O_HELP, O_VERSION, O_TRACE, O_HISTORY, O_NO_HISTORY,
       O_REVISION };

/* in this order for "did you mean" */
static const opt_def options[] = {
    {"--output", 0, OPT_VALUE, O_OUTPUT},
    {"--filter", 0, OPT_VALUE, O_FILTER},
    {"--resume", 0, OPT_NONE, O_RESUME},
    {"--no-plots", 0, OPT_NONE, O_NO_PLOTS},
    {"--shard", 0, OPT_VALUE, O_SHARD},
    {"--run-dir", 0, OPT_VALUE, O_RUN_DIR},
    {"--trace", 0, OPT_VALUE, O_TRACE},
    {"--history", 0, OPT_VALUE, O_HISTORY},
    {"--no-history", 0, OPT_NONE, O_NO_HISTORY},
    {"--revision", 0, OPT_VALUE, O_REVISION},
    {"--quiet", 'q', OPT_NONE, O_QUIET},
    {"--dry-run", 0, OPT_NONE, O_DRY_RUN},
    {"--allow-unsafe-lua", 0, OPT_NONE, O_UNSAFE_LUA},
    {"--config", 0, OPT_VALUE, O_CONFIG},
    {"--format", 0, OPT_VALUE, O_FORMAT},
    {"--help", 'h', OPT_NONE, O_HELP},
    {"--version", 'V', OPT_NONE, O_VERSION},
    {NULL, 0, 0, 0},
};

/* An argument: the command's word when it is the first, else a file (or
 * run folder, or list topic). */
static void argument(cli *c, const cli_command *commands, const char *a, int *cmd_set)
{
    if (!*cmd_set && c->nfiles == 0) {
        *cmd_set = 1;
        for (const cli_command *k = commands; k->cmd != CMD_NONE; k++)
            if (k->word && k->run && !strcmp(a, k->word)) {
                c->cmd = k->cmd;
                return;
            }
    }
    c->files[c->nfiles++] = (char *)a;
}

/* Applies one option; -1 with a message when its value is wrong. */
static int option(cli *c, int id, const char *name, const char *v, int *dry)
{
    if (!v && id != O_RESUME && id != O_NO_PLOTS && id != O_QUIET && id != O_DRY_RUN &&
        id != O_UNSAFE_LUA && id != O_HELP && id != O_VERSION && id != O_NO_HISTORY) {
        fprintf(stderr, "runner: %s needs a value\n", name);
        return -1;
    }
    switch (id) {
    case O_FILTER:
        if (!strchr(v, '=') || v[0] == '=') {
            fprintf(stderr, "runner: --filter takes KEY=GLOB, not '%s'\n", v);
            return -1;
        }
        c->filters[c->nfilters++] = (char *)v;
        break;
    case O_SHARD: {
        char extra;
        if (sscanf(v, "%d/%d%c", &c->shard_k, &c->shard_n, &extra) != 2 || c->shard_n < 1 ||
            c->shard_n > 100000 || c->shard_k < 1 || c->shard_k > c->shard_n) {
            fprintf(stderr, "runner: --shard takes K/N with 1 <= K <= N, not '%s'\n", v);
            return -1;
        }
        break;
    }
    case O_OUTPUT:
    case O_RUN_DIR:
    case O_TRACE:   /* doc/results.md#a-timeline-of-a-run */
    case O_HISTORY: /* doc/history.md#what-is-recorded */
    case O_REVISION: {
        /* a text that may not be empty, and what it names */
        const char **to[] = {[O_OUTPUT] = &c->output, [O_RUN_DIR] = &c->run_dir,
                             [O_TRACE] = &c->trace, [O_HISTORY] = &c->history,
                             [O_REVISION] = &c->revision};
        if (!*v) {
            fprintf(stderr, "runner: %s needs %s\n", name,
                    id == O_REVISION                  ? "a text"
                    : id == O_TRACE || id == O_HISTORY ? "a file"
                                                       : "a folder");
            return -1;
        }
        *to[id] = v;
        break;
    }
    case O_NO_HISTORY:
        c->no_history = 1;
        break;
    case O_CONFIG:
        c->config = v;
        break;
    case O_FORMAT:
        if (strcmp(v, "json") && strcmp(v, "csv") && strcmp(v, "spreadsheet")) {
            fprintf(stderr,
                    "runner: --format takes json or csv (or spreadsheet: CSV for a "
                    "spreadsheet), not '%s'\n",
                    v);
            return -1;
        }
        c->format = v;
        break;
    case O_RESUME:
        c->resume = 1;
        break;
    case O_NO_PLOTS:
        c->no_plots = 1;
        break;
    case O_QUIET:
        c->quiet = 1;
        break;
    case O_DRY_RUN:
        *dry = 1;
        break;
    case O_UNSAFE_LUA:
        c->allow_unsafe_lua = 1;
        break;
    case O_HELP:
        /* the command it came after (runner plot --help), if any */
        c->help_of = *dry ? CMD_DRYRUN : c->cmd == CMD_HELP ? CMD_RUN : c->cmd;
        c->cmd = CMD_HELP;
        break;
    case O_VERSION:
        c->cmd = CMD_VERSION;
        break;
    }
    return 0;
}

int cli_parse(int argc, char **argv, const cli_command *commands, cli *c)
{
    memset(c, 0, sizeof *c);
    c->output = "results";
    c->files = xcalloc((size_t)argc + 1, sizeof *c->files);
    c->filters = xcalloc((size_t)argc + 1, sizeof *c->filters);
    int dry = 0, cmd_set = 0, id, rc = 0;
    opts o;
    opts_init(&o, argc, argv, options, 0);
    while (rc == 0 && (id = opts_next(&o)) != OPT_END) {
        if (id == OPT_ARG) {
            argument(c, commands, o.value, &cmd_set);
        } else if (id == OPT_UNKNOWN) {
            opts_say_unknown(&o, NULL);
            rc = -1;
        } else if (option(c, id, o.name, o.value, &dry) < 0) {
            rc = -1;
        } else if (id == O_HELP || id == O_VERSION) {
            rc = 1;
        }
    }
    opts_free(&o);
    if (rc)
        return rc < 0 ? -1 : 0;
    if (c->cmd == CMD_HELP)
        return 0;
    if (dry) {
        if (c->cmd != CMD_RUN) {
            fprintf(stderr, "runner: --dry-run goes with experiment files, not a command\n");
            return -1;
        }
        c->cmd = CMD_DRYRUN;
    }
    if (c->config && c->cmd != CMD_PLOT) {
        fprintf(stderr, "runner: --config goes with 'runner plot'\n");
        return -1;
    }
    if (c->format && c->cmd != CMD_EXPORT) {
        fprintf(stderr, "runner: --format goes with 'runner export'\n");
        return -1;
    }
    if (c->cmd == CMD_EXPORT) {
        if (c->nfiles != 1 || !c->format) {
            fprintf(stderr, "runner: usage: runner export RUN_DIR --format json|csv|spreadsheet\n");
            return -1;
        }
        return 0;
    }
    if (c->cmd == CMD_LIST) {
        if (c->nfiles != 1 || (strcmp(c->files[0], "workloads") && strcmp(c->files[0], "devices"))) {
            fprintf(stderr, "runner: usage: runner list workloads | devices\n");
            return -1;
        }
        return 0;
    }
    if (c->nfiles == 0) {
        if (c->cmd == CMD_RUN) {
            cli_usage(stderr);
        } else {
            const char *what =
                c->cmd == CMD_PLOT || c->cmd == CMD_REPORT || c->cmd == CMD_MERGE ? "RUN_DIR" : "FILE.yaml";
            fprintf(stderr, "runner: %s needs %s\n",
                    c->cmd == CMD_VALIDATE ? "validate" :
                    c->cmd == CMD_PLOT     ? "plot" :
                    c->cmd == CMD_REPORT   ? "report"
                    : c->cmd == CMD_MERGE  ? "merge"
                                           : "--dry-run",
                    what);
        }
        return -1;
    }
    if (c->run_dir && c->cmd == CMD_RUN && c->nfiles != 1) {
        fprintf(stderr, "runner: --run-dir goes with one experiment file\n");
        return -1;
    }
    if ((c->cmd == CMD_REPORT || c->cmd == CMD_MERGE) && c->nfiles != 1) {
        fprintf(stderr, "runner: report takes one RUN_DIR\n");
        return -1;
    }
    return 0;
}

void cli_free(cli *c)
{
    free(c->files);
    free(c->filters);
}
