/* exec.h - `runner exec` (doc/own-code.md#one-line-mode): a command line
 * as hyperfine takes it, the experiment file it implies (exec_yaml.c), and
 * the summary of its runs on the terminal and in --export-json
 * (exec_summary.c).  cmd_exec.c reads the options and runs the files. */
#ifndef RUNNER_CLI_EXEC_H
#define RUNNER_CLI_EXEC_H
/* internal header of runner/cli/: other folders may not include it */

#include <stddef.h>
#include <stdio.h>

/* A parameter: --parameter-list NAME A,B,C or --parameter-scan NAME MIN MAX
 * [--parameter-step-size STEP]. */
typedef struct exec_param {
    char *name;
    char **values; /* the list's values, as written */
    int nvalues;
    int scan;                /* a scan: lo..hi by step */
    long long lo, hi, step;
} exec_param;

/* One command to time: its words as given, the experiment's name, and its
 * --prepare text (run by `sh -c` before each run, untimed), or NULL. */
typedef struct exec_cmd {
    char **words;
    int nwords;
    char *name;
    const char *prepare;
} exec_cmd;

typedef struct exec_spec {
    exec_cmd *cmds;
    int ncmds;
    exec_param *params;
    int nparams;
    int warmups, runs, min_runs, max_runs; /* -1: not given */
    const char *protocol;                  /* "per_call" or "persistent" */
    const char *timeout;                   /* --timeout, as written, or NULL */
    char *cwd;                             /* where the command was given, absolute */
    int argc;                              /* the command line, for the file's head */
    char **argv;
} exec_spec;

/* `line` split into words as hyperfine's --shell=none splits a command
 * (spaces separate words; '...' and "..." quote, \ escapes), with no shell:
 * an unquoted | & ; < > $ ` is refused, as it would reach the program as
 * text.  0, or -1 with the reason in err. */
int exec_split(const char *line, char ***words, int *nwords, char *err, size_t errlen);

/* The experiment's name for a command: its words, folder names dropped,
 * made safe as a file name ("python3-mm.py-n"); malloc'd. */
char *exec_default_name(char *const *words, int nwords);

/* The checks of the command's words against the parameters: each {NAME}
 * close to a parameter's name but none, and (per_call) a parameter that no
 * word uses.  0, or -1 with the reason in err. */
int exec_check_words(const exec_spec *s, const exec_cmd *c, char *err, size_t errlen);

/* The first of those checks alone, on one text (a --prepare's). */
int exec_check_placeholders(const exec_spec *s, const char *text, char *err, size_t errlen);

/* The experiment file of command k, as text (malloc'd). */
char *exec_yaml(const exec_spec *s, int k);

/* A word of command c with its placeholders replaced by a trial's values
 * (value(ctx, name) gives one, or NULL); malloc'd.  Braces that are not
 * placeholders stay as written. */
char *exec_expand_word(const exec_spec *s, const char *word,
                       const char *(*value)(void *ctx, const char *name), void *ctx);

/* The summary of the runs (run_dirs[k] the run folder of command k, NULL
 * when it did not run): per trial the median +- the standard deviation,
 * the median's interval, min...max and the samples; then, with several
 * commands, how much faster the fastest of each set of parameters ran. */
void exec_summary(FILE *out, const exec_spec *s, char *const *run_dirs);

/* The same trials as JSON, in hyperfine's shape ("results": one object per
 * trial with command, median, mean, stddev, min, max, times, parameters),
 * written to path.  0, or -1 with the reason in err. */
int exec_export_json(const char *path, const exec_spec *s, char *const *run_dirs, char *err,
                     size_t errlen);

#endif
