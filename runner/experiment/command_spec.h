/* command_spec.h - `workload: command` as an experiment file states it
 * (doc/own-code.md#the-experiment-file): the program's argument vector,
 * its protocol, environment and folder; and the placeholders `{name}` in
 * them, replaced per trial.  Plain data and text: the loader fills it
 * (command_config.c), the worker runs it (run/exec/cmd_workload.c). */
#ifndef RUNNER_COMMAND_SPEC_H
#define RUNNER_COMMAND_SPEC_H
/* public header of runner/experiment/ */

#include <stddef.h>

typedef enum { CMD_PER_CALL = 0, CMD_PERSISTENT = 1 } cmd_protocol;

/* The file's keys of a command workload, in this order (bits of `given`). */
enum { CMDKEY_COMMAND, CMDKEY_PROTOCOL, CMDKEY_ENV, CMDKEY_CWD, CMDKEY_SUBTRACT_SPAWN,
       CMDKEY_RESTART, CMDKEY_PREPARE, CMDKEY_COUNT };
extern const char *const command_key_names[CMDKEY_COUNT + 1];

typedef struct command_spec {
    char **argv;          /* as written, placeholders not replaced */
    int argc;
    int *arg_line, *arg_col; /* where each element is written */
    cmd_protocol protocol;
    int subtract_spawn;   /* per_call: the spawn cost is taken off each call */
    int restart_per_trial; /* persistent: a fresh program for every trial */
    char **env;           /* "NAME=VALUE" pairs, VALUE may hold placeholders */
    int nenv;
    int *env_line, *env_col;
    char *cwd;            /* the program's folder; NULL: the experiment's */
    char **prepare;       /* per_call: run before every call, untimed (NULL: none) */
    int nprepare;
    int *prep_line, *prep_col;
    int line, col;        /* where `command:` is */
    int given;            /* which of the keys the file sets (CMDKEY_* bits) */
    int key_line[CMDKEY_COUNT], key_col[CMDKEY_COUNT];
} command_spec;

void command_spec_free(command_spec *c);

/* What a placeholder stands for: its text, malloc'd and whole whatever its
 * length (a value is never cut: doc/own-code.md#the-experiment-file), or
 * NULL when the name has no value (the caller says which). */
typedef char *(*cmd_lookup)(void *ctx, const char *name);

/* `tmpl` with every `{name}` replaced through lookup (`{{` and `}}` are a
 * literal brace).  Malloc'd; NULL on a syntax error or a name without a
 * value, with the reason in err ("unknown placeholder {sise}",
 * "unclosed '{'"). */
char *command_expand(const char *tmpl, cmd_lookup lookup, void *ctx, char *err, size_t errlen);

/* Calls fn(ctx, name, offset) for each placeholder of `tmpl`, offset the
 * byte of its '{'; returns -1 with err filled at the first syntax error
 * (*at its offset), else 0. */
int command_placeholders(const char *tmpl, void (*fn)(void *ctx, const char *name, size_t at),
                         void *ctx, char *err, size_t errlen, size_t *at);

#endif
