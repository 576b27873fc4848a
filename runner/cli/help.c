/* help.c - see help.h. */
#include "cli/help.h"

#include <string.h>

static const struct {
    command cmd;
    const char *name, *text;
} helps[] = {
    {CMD_VALIDATE, "validate",
     "usage: runner validate FILE.yaml ...\n"
     "Checks each experiment file and runs nothing: prints 'FILE: N trials', or every\n"
     "error as FILE:LINE:COL: error: MESSAGE (exit 2).\n"
     "  --filter KEY=GLOB    count only the matching trials (repeatable)\n"
     "  --shard K/N          count only shard K of N\n"},
    {CMD_DRYRUN, "--dry-run",
     "usage: runner --dry-run FILE.yaml\n"
     "Prints the expanded trials as CSV (a header, then one row per trial); runs nothing.\n"
     "  --filter KEY=GLOB    keep the matching trials (repeatable)\n"
     "  --shard K/N          keep shard K of N\n"},
    {CMD_PLOT, "plot",
     "usage: runner plot RUN_DIR ... [--config FILE.yaml] [--quiet]\n"
     "Re-draws the charts of each run from its saved results into RUN_DIR/plots/\n"
     "(PNG, SVG and the gnuplot script of each); runs no trial, and keeps an existing\n"
     "report in step.  RUN_DIR is a run folder, an experiment folder (its latest run),\n"
     "or a results folder (the latest run of every experiment in it).\n"
     "  --config FILE.yaml   draw the charts of FILE's 'plots:' instead of the run's own:\n"
     "                       a whole experiment file, or a file with only 'plots:'\n"
     "  --quiet              say nothing but errors\n"
     "Exit status: 0; 1 when gnuplot is missing or a chart failed; 2 for a bad RUN_DIR\n"
     "or FILE.\n"},
    {CMD_REPORT, "report",
     "usage: runner report RUN_DIR [--quiet]\n"
     "Writes RUN_DIR/report.md and RUN_DIR/report.html from the saved results: the\n"
     "environment, the findings, the charts and the trials.  RUN_DIR as for plot.\n"},
    {CMD_EXPORT, "export",
     "usage: runner export RUN_DIR --format json|csv|spreadsheet\n"
     "Prints one run's trials with their samples on stdout.  RUN_DIR is a run folder\n"
     "or an experiment folder (its latest run).  spreadsheet: CSV in which a cell\n"
     "that a spreadsheet would run as a formula (=, +, -, @ first) starts with a '.\n"},
    {CMD_LIST, "list",
     "usage: runner list workloads | devices\n"
     "workloads: what this build runs, on which backend, with its parameters;\n"
     "devices: the CPU and every CUDA device (or why there is none).\n"},
    {CMD_NEW, "new",
     "usage: runner new workload NAME [--cuda] [--dir DIR]\n"
     "Writes a workload plugin into DIR (default ./NAME): NAME.c, a Makefile that builds\n"
     "NAME.so with `pkg-config runner`, and NAME.yaml, an experiment that sweeps it\n"
     "(workload: plugin:NAME.so:NAME).  No file that exists is overwritten.\n"
     "  --cuda      add its CUDA half: NAME.cu and NAME.h, built with nvcc\n"
     "  --dir DIR   the folder to write into (made when missing)\n"},
    {CMD_EXEC, "exec",
    "usage: runner exec [OPTIONS] -- PROGRAM [ARG...]\n"
    "       runner exec [OPTIONS] 'COMMAND' ['COMMAND'...]\n"
    "Times a command as hyperfine does, through the runner: writes the experiment file\n"
    "it implies (workload: command), runs it, saves it in the run folder with the\n"
    "results, charts and report, and prints each trial's median and spread.  No shell:\n"
    "a 'COMMAND' is split into words ('...' and \"...\" quote); {NAME} in a word is a\n"
    "parameter's value.  Several COMMANDs are run in turn and compared.\n"
    "  -w, --warmup N                 at least N untimed runs first (then until steady)\n"
    "  -r, --runs N                   N timed samples (default: until the median is known\n"
    "                                 to 0.5 %, repeats: auto)\n"
    "  -m, --min-runs N, -M, --max-runs N   bounds of repeats: auto\n"
    "  -L, --parameter-list NAME A,B,C (or NAME=A,B,C)   a parameter's values\n"
    "  -P, --parameter-scan NAME MIN MAX   integers MIN to MAX; -D, --parameter-step-size STEP\n"
    "  -n, --command-name NAME        the experiment's name (one per COMMAND, in order)\n"
    "  --protocol per_call|persistent per_call: a run of the program per call (default);\n"
    "                                 persistent: the program serves calls on the protocol\n"
    "  --timeout T                    a trial running longer is stopped (90s, 5m)\n"
    "  -p, --prepare CMD              run `sh -c CMD` before each run, untimed (once: for\n"
    "                                 every COMMAND; as many as COMMANDs: one each)\n"
    "  --export-json FILE             the trials with their times, in hyperfine's shape\n"
    "  --yaml                         print the experiment file and run nothing\n"
    "  -N, --no-shell, --shell none   accepted: no shell is ever used\n"
    "  --output DIR, --no-plots, --quiet, --history PATH, --no-history, --revision TEXT\n"
    "                                 as for runner FILE.yaml\n"
    "Exit status: 0; 1 when a trial failed or timed out; 2 for a bad option or command.\n"},
    {CMD_MERGE, "merge",
     "usage: runner merge RUN_DIR\n"
     "Joins the shards of a run (RUN_DIR/shard-K-of-N/) into one run in dry-run order,\n"
     "then draws its charts, writes its report and records it in the history\n"
     "(RUN_DIR/../../history.sqlite, --history PATH, --no-history, --revision TEXT).\n"
     "Each shard is checked against the trials its number owns: missing ones are named\n"
     "(exit 1, the merge incomplete); a shard whose trials or samples table does not\n"
     "parse is named (exit 2).\n"},
};

int cli_command_help(command cmd, const char *name, FILE *out)
{
    for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++)
        if (name ? !strcmp(name, helps[i].name) : cmd == helps[i].cmd) {
            fputs(helps[i].text, out);
            return 1;
        }
    return 0;
}
