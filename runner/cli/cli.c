/* cli.c - see cli.h.  Options may come before or after the command's
 * arguments; `--opt=VALUE` and `--opt VALUE` both work; `--` ends options. */
#include "cli/cli.h"

#include "base/util.h"

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
          "       runner report RUN_DIR                       write RUN_DIR/report.md\n"
          "       runner export RUN_DIR --format json|csv      print the trials with their samples\n"
          "       runner list workloads | devices\n"
          "       runner merge RUN_DIR                        join the shards of a run\n"
          "       runner submit FILE.yaml [--shards N] [--partition P] [--time T] [--gpus-per-shard G]\n"
          "                     [--sbatch-arg ARG]... [--output DIR]   run the shards as a Slurm job array\n"
          "       runner submit --resume RUN_DIR              resubmit the missing or unfinished shards\n"
          "       runner status RUN_DIR                       trials done and Slurm state per shard\n"
          "       runner compare OLD_RUN NEW_RUN | OLD_RUN... -- NEW_RUN... [--threshold PCT]\n"
          "                     [--noise-floor PCT] [--ignore KEY]... [--busy-ok]\n"
          "                     [--format text|md|csv|json]\n"
          "options:\n"
          "  --output DIR         results folder (default ./results)\n"
          "  --filter KEY=GLOB    keep matching trials (repeatable)\n"
          "  --resume             continue the newest unfinished run\n"
          "  --shard K/N          run the trials whose number % N is K-1 (1 <= K <= N)\n"
          "  --run-dir DIR        write into DIR (with --shard: DIR/shard-K-of-N)\n"
          "  --no-plots           do not draw charts\n"
          "  --trace FILE.json    write the run's timeline (Chrome / Perfetto trace events)\n"
          "  --quiet              no progress output\n"
          "  --allow-unsafe-lua   open Lua's full standard library\n"
          "  --help, --version\n",
          out);
}

static const char *const options[] = {"--output", "--filter",   "--resume", "--no-plots",
                                      "--shard",  "--run-dir",  "--trace",
                                      "--quiet",  "--dry-run",  "--allow-unsafe-lua",
                                      "--config", "--format",   "--help",     "--version", NULL};

static int opt_value(int argc, char **argv, int *i, const char *name, const char **out)
{
    size_t n = strlen(name);
    if (argv[*i][n] == '=') {
        *out = argv[*i] + n + 1;
        return 0;
    }
    if (*i + 1 >= argc) {
        fprintf(stderr, "runner: %s needs a value\n", name);
        return -1;
    }
    *out = argv[++*i];
    return 0;
}

static int is_opt(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return !strncmp(arg, name, n) && (arg[n] == '\0' || arg[n] == '=');
}

int cli_parse(int argc, char **argv, cli *c)
{
    memset(c, 0, sizeof *c);
    c->output = "results";
    c->files = xcalloc((size_t)argc + 1, sizeof *c->files);
    c->filters = xcalloc((size_t)argc + 1, sizeof *c->filters);
    int dry = 0, cmd_set = 0, only_args = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v;
        if (only_args || a[0] != '-' || !strcmp(a, "-")) {
            if (!cmd_set && c->nfiles == 0) {
                cmd_set = 1;
                if (!strcmp(a, "validate")) {
                    c->cmd = CMD_VALIDATE;
                    continue;
                } else if (!strcmp(a, "plot")) {
                    c->cmd = CMD_PLOT;
                    continue;
                } else if (!strcmp(a, "report")) {
                    c->cmd = CMD_REPORT;
                    continue;
                } else if (!strcmp(a, "list")) {
                    c->cmd = CMD_LIST;
                    continue;
                } else if (!strcmp(a, "merge")) {
                    c->cmd = CMD_MERGE;
                    continue;
                } else if (!strcmp(a, "export")) {
                    c->cmd = CMD_EXPORT;
                    continue;
                } else if (!strcmp(a, "help")) {
                    c->cmd = CMD_HELP;
                    continue;
                }
            }
            c->files[c->nfiles++] = argv[i];
        } else if (!strcmp(a, "--")) {
            only_args = 1;
        } else if (is_opt(a, "--output")) {
            if (opt_value(argc, argv, &i, "--output", &v) < 0)
                return -1;
            if (!*v) {
                fprintf(stderr, "runner: --output needs a folder\n");
                return -1;
            }
            c->output = v;
        } else if (is_opt(a, "--filter")) {
            if (opt_value(argc, argv, &i, "--filter", &v) < 0)
                return -1;
            if (!strchr(v, '=') || v[0] == '=') {
                fprintf(stderr, "runner: --filter takes KEY=GLOB, not '%s'\n", v);
                return -1;
            }
            c->filters[c->nfilters++] = (char *)v;
        } else if (is_opt(a, "--shard")) {
            if (opt_value(argc, argv, &i, "--shard", &v) < 0)
                return -1;
            char extra;
            if (sscanf(v, "%d/%d%c", &c->shard_k, &c->shard_n, &extra) != 2 || c->shard_n < 1 ||
                c->shard_n > 100000 || c->shard_k < 1 || c->shard_k > c->shard_n) {
                fprintf(stderr, "runner: --shard takes K/N with 1 <= K <= N, not '%s'\n", v);
                return -1;
            }
        } else if (is_opt(a, "--run-dir")) {
            if (opt_value(argc, argv, &i, "--run-dir", &v) < 0)
                return -1;
            if (!*v) {
                fprintf(stderr, "runner: --run-dir needs a folder\n");
                return -1;
            }
            c->run_dir = v;
        } else if (is_opt(a, "--trace")) {
            if (opt_value(argc, argv, &i, "--trace", &v) < 0)
                return -1;
            if (!*v) {
                fprintf(stderr, "runner: --trace needs a file\n");
                return -1;
            }
            c->trace = v;
        } else if (is_opt(a, "--config")) {
            if (opt_value(argc, argv, &i, "--config", &v) < 0)
                return -1;
            c->config = v;
        } else if (is_opt(a, "--format")) {
            if (opt_value(argc, argv, &i, "--format", &v) < 0)
                return -1;
            if (strcmp(v, "json") && strcmp(v, "csv")) {
                fprintf(stderr, "runner: --format takes json or csv, not '%s'\n", v);
                return -1;
            }
            c->format = v;
        } else if (!strcmp(a, "--resume")) {
            c->resume = 1;
        } else if (!strcmp(a, "--no-plots")) {
            c->no_plots = 1;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            c->quiet = 1;
        } else if (!strcmp(a, "--dry-run")) {
            dry = 1;
        } else if (!strcmp(a, "--allow-unsafe-lua")) {
            c->allow_unsafe_lua = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            c->cmd = CMD_HELP;
            return 0;
        } else if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
            c->cmd = CMD_VERSION;
            return 0;
        } else {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(a, "="), a);
            const char *s = closest_word(name, options);
            fprintf(stderr, "runner: unknown option '%s'%s%s%s\n", name, s ? "; did you mean '" : "",
                    s ? s : "", s ? "'?" : "");
            return -1;
        }
    }
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
            fprintf(stderr, "runner: usage: runner export RUN_DIR --format json|csv\n");
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
