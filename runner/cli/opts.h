/* opts.h - the one option parser of the command line, on getopt_long
 * (README.md#a-worked-example, Options): options may come before or after
 * the arguments, in the order given; `--opt=VALUE` and `--opt VALUE` both
 * work; `--` ends the options (or, for `runner compare`, separates OLD from
 * NEW).  Unlike plain getopt_long, an option must be written out in full (no
 * abbreviations: `--out` is unknown, with a suggestion), short options come
 * one to an argument, and an option without a value given one with `=` is
 * unknown; each command prints its own messages. */
#ifndef RUNNER_OPTS_H
#define RUNNER_OPTS_H
/* internal header of runner/cli/: other folders may not include it */

#include <getopt.h>
#include <stdio.h>

enum { OPT_NONE, OPT_VALUE, OPT_ATTACHED }; /* no value; a value; only as --opt=VALUE */

typedef struct opt_def {
    const char *name; /* "--output" */
    int short_name;   /* 'q' for -q, or 0 */
    int arg;          /* OPT_NONE, OPT_VALUE or OPT_ATTACHED */
    int id;           /* what opts_next returns for it, >= 0 */
} opt_def;

/* What opts_next returns besides an option's id. */
enum {
    OPT_END = -1,       /* no more arguments */
    OPT_ARG = -2,       /* an argument (in value) */
    OPT_SEPARATOR = -3, /* `--`, when it separates */
    OPT_UNKNOWN = -4,   /* not an option of this command (see name, text) */
};

typedef struct opts {
    int argc;
    char **argv;          /* argv[0] is not an argument */
    const opt_def *defs;  /* ends with a NULL name */
    int separator;        /* `--` is returned as OPT_SEPARATOR; else it ends the options */
    const char *value;    /* the argument, or the option's value (NULL: none given) */
    const char *text;     /* the argument as written */
    char name[64];        /* the option as written, up to '=' (for messages) */
    /* getopt_long's view */
    struct option *longs;
    char *shorts;
    const char **names;   /* the defs' names, for suggestions */
    int base;             /* getopt_long runs on argv + base */
    int rest;             /* past a `--` that ends the options: the next argument */
    char **own;           /* argv made by opts_init_args */
} opts;

/* Starts parsing argv[1 .. argc-1] (getopt's state is reset: one parse at
 * a time). */
void opts_init(opts *o, int argc, char **argv, const opt_def *defs, int separator);
/* The same for the arguments after a command's word: args[0 .. nargs-1]. */
void opts_init_args(opts *o, int nargs, char **args, const opt_def *defs, int separator);
/* The next option's id (its value in o->value; NULL when a value it needs
 * is missing), or OPT_ARG, OPT_SEPARATOR, OPT_UNKNOWN or OPT_END. */
int opts_next(opts *o);
void opts_free(opts *o);

/* After OPT_UNKNOWN: the option of this command closest to o->name, or NULL
 * when none is close. */
const char *opts_suggest(const opts *o);
/* After OPT_UNKNOWN: "runner: CMD: unknown option '--x'; did you mean
 * '--y'?" on stderr (cmd NULL: the run's own options; an argument with no
 * option name, such as a `--` a command refuses, is named as written). */
void opts_say_unknown(const opts *o, const char *cmd);

/* A command that parses its own options (`runner compare`, `gate`,
 * `history`, `machine`, `new`, `submit`, `status`): one loop for all of them. */
typedef struct opts_cmd {
    const char *cmd;     /* its word, in messages */
    const opt_def *defs; /* its options */
    int separator;       /* as for opts_init */
    const char *usage;   /* printed on stdout for --help (NULL: --help is an option like
                          * the others, given to the command) */
} opts_cmd;

/* What a command does with one option (its id, its value in o->value) or
 * argument (OPT_ARG, OPT_SEPARATOR): -1 to go on, or the exit status that
 * ends the parse (after printing why). */
typedef int opts_fn(void *ctx, const opts *o, int id);

/* Parses args[0 .. nargs-1] for k: an unknown option is said
 * (opts_say_unknown) and ends it with EXIT_INVALID, --help prints k->usage
 * and ends it with EXIT_OK, the rest go to fn.  -1 when every argument was
 * taken, else the exit status that ended it. */
int opts_parse(const opts_cmd *k, int nargs, char **args, opts_fn *fn, void *ctx);

#endif
