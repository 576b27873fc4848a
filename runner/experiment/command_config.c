/* command_config.c - see command_config.h.  Every error is the file's
 * line:col (doc/own-code.md#the-experiment-file). */
#include "experiment/command_config.h"

#include "base/spawn.h"
#include "base/util.h"
#include "experiment/command_spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static command_spec *spec(loader *L)
{
    if (!L->e->command)
        L->e->command = xcalloc(1, sizeof *L->e->command);
    return L->e->command;
}

static void bad(loader *L, const yaml_node_t *n, const char *fmt, const char *a)
{
    diag_add(L->d, yml_line(n), yml_col(n), fmt, a);
}

/* A list of words (`command`, `prepare`): the program and its arguments. */
static int key_words(loader *L, const yaml_node_t *v, const char *key, char ***argv, int **line,
                     int **col)
{
    char msg[300];
    if (v->type != YAML_SEQUENCE_NODE) {
        snprintf(msg, sizeof msg,
                 "'%s' must be a list: the program and its arguments, e.g. %s (never a shell "
                 "line), not %%s",
                 key, !strcmp(key, "prepare") ? "[sh, -c, \"rm -f out.txt\"]"
                                              : "[python3, bench.py, \"{size}\"]");
        bad(L, v, msg, yml_is_scalar(v) && !yml_is_null(v) ? "a string" : yml_kind(v));
        return 0;
    }
    yaml_node_t **items;
    int n = yml_items(&L->y, (yaml_node_t *)v, &items, L->d), got = 0;
    if (n == 0) {
        snprintf(msg, sizeof msg, "'%s' is an empty list: it needs at least the program%%s", key);
        bad(L, v, msg, "");
    }
    *argv = xcalloc((size_t)n + 1, sizeof **argv);
    *line = xcalloc((size_t)n + 1, sizeof **line);
    *col = xcalloc((size_t)n + 1, sizeof **col);
    snprintf(msg, sizeof msg, "each element of '%s' is one word, not %%s", key);
    for (int i = 0; i < n; i++) {
        if (!yml_is_scalar(items[i]) || yml_is_null(items[i])) {
            bad(L, items[i], msg, yml_kind(items[i]));
            continue;
        }
        (*line)[got] = yml_line(items[i]);
        (*col)[got] = yml_col(items[i]) + !yml_is_plain(items[i]); /* past a quote */
        (*argv)[got++] = xstrdup(yml_text(items[i]));
    }
    free(items);
    return got;
}

static void key_env(loader *L, command_spec *c, const yaml_node_t *v)
{
    if (v->type != YAML_MAPPING_NODE) {
        bad(L, v, "'env' must be a mapping of variable names to values, not %s", yml_kind(v));
        return;
    }
    ypair *p;
    int n = yml_pairs(&L->y, (yaml_node_t *)v, &p, L->d);
    c->env = xcalloc((size_t)n + 1, sizeof *c->env);
    c->env_line = xcalloc((size_t)n + 1, sizeof *c->env_line);
    c->env_col = xcalloc((size_t)n + 1, sizeof *c->env_col);
    for (int i = 0; i < n; i++) {
        const char *name = yml_text(p[i].key);
        if (!*name || strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                   "0123456789_") != strlen(name) ||
            (name[0] >= '0' && name[0] <= '9')) {
            bad(L, p[i].key, "'%s' is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*)",
                name);
            continue;
        }
        if (!yml_is_scalar(p[i].val)) {
            bad(L, p[i].val, "an 'env' value is text, not %s", yml_kind(p[i].val));
            continue;
        }
        c->env_line[c->nenv] = yml_line(p[i].val);
        c->env_col[c->nenv] = yml_col(p[i].val) + !yml_is_plain(p[i].val);
        c->env[c->nenv++] =
            xasprintf("%s=%s", name, yml_is_null(p[i].val) ? "" : yml_text(p[i].val));
    }
    free(p);
}

static int choice(loader *L, const yaml_node_t *v, const char *key, const char *const *ok)
{
    const char *s = yml_is_scalar(v) ? yml_text(v) : "";
    for (int i = 0; ok[i]; i++)
        if (yml_is_scalar(v) && !strcmp(s, ok[i]))
            return i;
    const char *sug = yml_is_scalar(v) ? closest_word(s, ok) : NULL;
    char msg[256];
    snprintf(msg, sizeof msg, "unknown %s '%%s' (%s or %s)%s%s%s", key, ok[0], ok[1],
             sug ? "; did you mean '" : "", sug ? sug : "", sug ? "'?" : "");
    bad(L, v, msg, yml_is_scalar(v) ? s : yml_kind(v));
    return -1;
}

void command_key(loader *L, const yaml_node_t *k, const yaml_node_t *v)
{
    command_spec *c = spec(L);
    int which = 0;
    while (command_key_names[which] && strcmp(command_key_names[which], yml_text(k)))
        which++;
    if (which >= CMDKEY_COUNT)
        return;
    c->given |= 1 << which;
    c->key_line[which] = yml_line(k);
    c->key_col[which] = yml_col(k);
    static const char *const protocols[] = {"per_call", "persistent", NULL};
    static const char *const restarts[] = {"on_failure", "per_trial", NULL};
    static const char *const bools[] = {"false", "true", NULL};
    int i;
    switch (which) {
    case CMDKEY_COMMAND:
        c->line = yml_line(v);
        c->col = yml_col(v);
        c->argc = key_words(L, v, "command", &c->argv, &c->arg_line, &c->arg_col);
        break;
    case CMDKEY_PREPARE:
        c->nprepare = key_words(L, v, "prepare", &c->prepare, &c->prep_line, &c->prep_col);
        break;
    case CMDKEY_PROTOCOL:
        if ((i = choice(L, v, "protocol", protocols)) >= 0)
            c->protocol = (cmd_protocol)i;
        break;
    case CMDKEY_ENV:
        key_env(L, c, v);
        break;
    case CMDKEY_CWD:
        if (!yml_is_scalar(v) || yml_is_null(v))
            bad(L, v, "'cwd' must be the path of a folder, not %s", yml_kind(v));
        else
            c->cwd = xstrdup(yml_text(v));
        break;
    case CMDKEY_SUBTRACT_SPAWN:
        if (!yml_is_scalar(v) || (i = !strcmp(yml_text(v), "true")) + !strcmp(yml_text(v), "false") != 1)
            bad(L, v, "'subtract_spawn' must be true or false, not '%s'",
                yml_is_scalar(v) ? yml_text(v) : yml_kind(v));
        else
            c->subtract_spawn = i;
        (void)bools;
        break;
    case CMDKEY_RESTART:
        if ((i = choice(L, v, "restart", restarts)) >= 0)
            c->restart_per_trial = i == 1;
        break;
    }
}

/* ---- after the sweep: placeholders, the program, the folder ------------- */

typedef struct ph_check {
    loader *L;
    int line, col;
} ph_check;

static void check_name(void *ctx, const char *name, size_t at)
{
    ph_check *p = ctx;
    experiment *e = p->L->e;
    if (experiment_column(e, name) >= 0)
        return;
    const char **cands = xcalloc((size_t)e->ncols + 1, sizeof *cands);
    for (int i = 0; i < e->ncols; i++)
        cands[i] = e->cols[i].name;
    const char *sug = closest_word(name, cands);
    diag_add(p->L->d, p->line, p->col + (int)at,
             "unknown placeholder {%s}%s%s%s (a placeholder names a key of the trial: size, "
             "device, threads, seed, io, dtype or a parameter)",
             name, sug ? "; did you mean {" : "", sug ? sug : "", sug ? "}?" : "");
    free(cands);
}

static void check_text(loader *L, const char *text, int line, int col)
{
    ph_check p = {L, line, col};
    char err[200];
    size_t at = 0;
    if (command_placeholders(text, check_name, &p, err, sizeof err, &at) < 0)
        diag_add(L->d, line, col + (int)at, "%s", err);
}

static char *in_dir(const char *dir, const char *rel)
{
    return rel[0] == '/' ? xstrdup(rel) : xasprintf("%s/%s", dir, rel);
}

/* The words of `command` or `prepare`, where each is written. */
typedef struct words {
    char **argv;
    int argc;
    const int *line, *col;
} words;

/* The program: a path with a '/' is relative to the experiment file, a bare
 * name is looked up on PATH; either must be an executable file.  A script
 * given to a known interpreter must exist too, relative to `cwd`. */
static void check_program(loader *L, const words *c, const char *cwd)
{
    const char *p0 = c->argv[0];
    if (strchr(p0, '{'))
        return;
    struct stat st;
    if (strchr(p0, '/')) {
        char *path = in_dir(L->e->dir, p0);
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            diag_add(L->d, c->line[0], c->col[0],
                     "program '%s' not found (a path is relative to the experiment file)", p0);
        else if (access(path, X_OK) != 0)
            diag_add(L->d, c->line[0], c->col[0],
                     "program '%s' is not executable (chmod +x, or name its interpreter first: "
                     "[python3, %s])",
                     p0, p0);
        free(path);
    } else {
        char *found = spawn_find(p0);
        /* the hint names a file beside the experiment only when there is
         * one: a bare name is never looked up there */
        char *beside = found ? NULL : in_dir(L->e->dir, p0);
        if (!found && stat(beside, &st) == 0 && S_ISREG(st.st_mode))
            diag_add(L->d, c->line[0], c->col[0],
                     "program '%s' not found on PATH (a file beside the experiment is "
                     "./%s: write [./%s] to run it)",
                     p0, p0, p0);
        else if (!found)
            diag_add(L->d, c->line[0], c->col[0], "program '%s' not found on PATH", p0);
        free(beside);
        free(found);
    }
    static const char *const interp[] = {"python", "python3", "bash", "sh", "perl", "node",
                                         "lua", "lua5.4", "Rscript", NULL};
    const char *base = strrchr(p0, '/') ? strrchr(p0, '/') + 1 : p0;
    int known = 0;
    for (int i = 0; interp[i]; i++)
        known |= !strcmp(base, interp[i]) || (!strncmp(base, "python3.", 8) && !i);
    if (!known || c->argc < 2 || c->argv[1][0] == '-' || strchr(c->argv[1], '{'))
        return;
    char *script = in_dir(cwd, c->argv[1]);
    if (stat(script, &st) != 0)
        diag_add(L->d, c->line[1], c->col[1],
                 "script '%s' not found (relative to the experiment file, or to 'cwd')",
                 c->argv[1]);
    free(script);
}

/* Is `workload: command` named anywhere (top level, sweep)?  1 with its
 * place, else 0. */
static int uses_command(const experiment *e, int *line, int *col)
{
    int wc = experiment_column(e, "workload");
    if (wc < 0)
        return 0;
    const value *f = &e->cols[wc].fixed;
    if (f->kind == VAL_STR && !strcmp(f->text, "command")) {
        *line = e->cols[wc].line;
        *col = e->cols[wc].col;
        return 1;
    }
    for (int a = 0; a < e->naxes; a++)
        for (int j = 0; j < e->axes[a].nelems; j++)
            for (int k = 0; k < e->axes[a].elems[j].nkv; k++) {
                const axis_kv *kv = &e->axes[a].elems[j].kv[k];
                if (kv->column == wc && kv->v.kind == VAL_STR && !strcmp(kv->v.text, "command")) {
                    *line = kv->line;
                    *col = kv->col;
                    return 1;
                }
            }
    return 0;
}

void command_finish(loader *L)
{
    command_spec *c = L->e->command;
    int line = 1, col = 1;
    int used = uses_command(L->e, &line, &col);
    if (used && (!c || !(c->given & (1 << CMDKEY_COMMAND)))) {
        diag_add(L->d, line, col,
                 "workload: command needs 'command:', the program and its arguments as a list "
                 "(e.g. command: [python3, bench.py, \"{size}\"])");
        return;
    }
    if (!c)
        return;
    for (int k = 0; k < CMDKEY_COUNT; k++) {
        if (!(c->given & (1 << k)))
            continue;
        if (!used)
            diag_add(L->d, c->key_line[k], c->key_col[k],
                     "'%s' is set, but no trial runs workload: command", command_key_names[k]);
        else if (k == CMDKEY_SUBTRACT_SPAWN && c->protocol != CMD_PER_CALL)
            diag_add(L->d, c->key_line[k], c->key_col[k],
                     "'subtract_spawn' applies to protocol: per_call only");
        else if (k == CMDKEY_PREPARE && c->protocol != CMD_PER_CALL)
            diag_add(L->d, c->key_line[k], c->key_col[k],
                     "'prepare' applies to protocol: per_call only (a persistent program's "
                     "calls run back to back in one request: prepare in its setup)");
        else if (k == CMDKEY_RESTART && c->protocol != CMD_PERSISTENT)
            diag_add(L->d, c->key_line[k], c->key_col[k],
                     "'restart' applies to protocol: persistent only (per_call starts the "
                     "program for every call)");
    }
    if (!used || c->argc == 0)
        return;
    for (int i = 0; i < c->argc; i++)
        check_text(L, c->argv[i], c->arg_line[i], c->arg_col[i]);
    for (int i = 0; i < c->nprepare; i++)
        check_text(L, c->prepare[i], c->prep_line[i], c->prep_col[i]);
    for (int i = 0; i < c->nenv; i++) /* the value's placeholders, after NAME= */
        check_text(L, strchr(c->env[i], '=') + 1, c->env_line[i], c->env_col[i]);
    char *cwd = c->cwd ? in_dir(L->e->dir, c->cwd) : xstrdup(L->e->dir);
    struct stat st;
    if (c->cwd && (stat(cwd, &st) != 0 || !S_ISDIR(st.st_mode)))
        diag_add(L->d, c->key_line[CMDKEY_CWD], c->key_col[CMDKEY_CWD],
                 "'cwd': folder '%s' not found (relative to the experiment file)", c->cwd);
    else {
        words w = {c->argv, c->argc, c->arg_line, c->arg_col};
        check_program(L, &w, cwd);
        words p = {c->prepare, c->nprepare, c->prep_line, c->prep_col};
        if (p.argc > 0)
            check_program(L, &p, cwd);
    }
    free(cwd);
}
