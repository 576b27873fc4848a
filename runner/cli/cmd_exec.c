/* cmd_exec.c - `runner exec`: one command line, as hyperfine takes it,
 * made into the experiment file it implies (exec_yaml.c), which runs through
 * the normal run (cmd_run_experiment) and is saved in the run folder; then
 * the summary on the terminal (exec_summary.c).  doc/own-code.md#one-line-mode */
#include "base/spawn.h"
#include "base/util.h"
#include "cli/commands.h"
#include "cli/exec.h"
#include "cli/help.h"
#include "cli/load.h"
#include "cli/opts.h"
#include "results/history/history_record.h"
#include "results/rundir/rundir.h"
#include "run/run.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { X_WARMUP, X_RUNS, X_MIN_RUNS, X_MAX_RUNS, X_LIST, X_SCAN, X_STEP, X_NAME, X_PROTOCOL,
       X_TIMEOUT, X_EXPORT_JSON, X_YAML, X_NO_SHELL, X_SHELL, X_OUTPUT, X_NO_PLOTS, X_QUIET,
       X_HISTORY, X_NO_HISTORY, X_REVISION, X_PREPARE, X_HELP };

static const opt_def defs[] = {
    {"--warmup", 'w', OPT_VALUE, X_WARMUP},
    {"--runs", 'r', OPT_VALUE, X_RUNS},
    {"--min-runs", 'm', OPT_VALUE, X_MIN_RUNS},
    {"--max-runs", 'M', OPT_VALUE, X_MAX_RUNS},
    {"--parameter-list", 'L', OPT_VALUE, X_LIST},
    {"--parameter-scan", 'P', OPT_VALUE, X_SCAN},
    {"--parameter-step-size", 'D', OPT_VALUE, X_STEP},
    {"--command-name", 'n', OPT_VALUE, X_NAME},
    {"--protocol", 0, OPT_VALUE, X_PROTOCOL},
    {"--timeout", 0, OPT_VALUE, X_TIMEOUT},
    {"--prepare", 'p', OPT_VALUE, X_PREPARE},
    {"--export-json", 0, OPT_VALUE, X_EXPORT_JSON},
    {"--yaml", 0, OPT_NONE, X_YAML},
    {"--no-shell", 'N', OPT_NONE, X_NO_SHELL},
    {"--shell", 'S', OPT_VALUE, X_SHELL},
    {"--output", 0, OPT_VALUE, X_OUTPUT},
    {"--no-plots", 0, OPT_NONE, X_NO_PLOTS},
    {"--quiet", 'q', OPT_NONE, X_QUIET},
    {"--history", 0, OPT_VALUE, X_HISTORY},
    {"--no-history", 0, OPT_NONE, X_NO_HISTORY},
    {"--revision", 0, OPT_VALUE, X_REVISION},
    {"--help", 'h', OPT_NONE, X_HELP},
    {NULL, 0, 0, 0},
};

/* what the command line asks, beside the spec */
typedef struct exec_run {
    exec_spec s;
    char **names; /* --command-name, in order */
    int nnames;
    char **prepares; /* --prepare, in order */
    int nprepares;
    int yaml_only;
    const char *export_json;
    cli c; /* output, quiet, no_plots, history, revision, no_history */
    char *revision; /* git's, when no --revision */
    char **argv_words; /* the command after `--` */
    int nargv;
    int pending;      /* values the last -L or -P still takes */
    int pending_step; /* the last -P takes a -D */
} exec_run;

static int bad(const char *fmt, const char *a, const char *b)
{
    fputs("runner: exec: ", stderr);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return EXIT_INVALID;
}

/* an integer from `lo` up, or -1 with a message */
static int count_of(const char *opt, const char *v, int lo)
{
    char *end;
    errno = 0;
    long n = v ? strtol(v, &end, 10) : -1;
    if (!v || !*v || *end || errno || n < lo || n > 1000000000) {
        char want[64];
        snprintf(want, sizeof want, "an integer %s %d", lo ? "from" : ">=", lo);
        bad("%s takes %s", opt, want);
        fprintf(stderr, "  (not '%s')\n", v ? v : "");
        return -1;
    }
    return (int)n;
}

static int to_ll(const char *v, long long *out)
{
    char *end;
    errno = 0;
    *out = strtoll(v, &end, 10);
    return *v && !*end && !errno ? 0 : -1;
}

static int valid_param(exec_run *x, const char *name, size_t n)
{
    static const char *const reserved[] = {
        "name", "description", "revision", "workload", "command", "protocol", "env", "cwd",
        "subtract_spawn", "restart", "prepare", "sweep", "exclude", "hooks", "plots", "stop",
        "repeats", "warmups", "timeout", "warmup_time", "warmup_tolerance", "trace", "params",
        "workers", NULL};
    char nm[64];
    snprintf(nm, sizeof nm, "%.*s", (int)(n < 63 ? n : 63), name);
    int ok = n > 0 && n < 63 && strspn(nm, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                           "0123456789_") == n && !(nm[0] >= '0' && nm[0] <= '9');
    if (!ok)
        return bad("a parameter's name is a word of letters, digits and _, not '%s'%s", nm, ""),
               -1;
    for (int i = 0; reserved[i]; i++)
        if (!strcmp(nm, reserved[i]))
            return bad("'%s' is a key of the experiment file, not a parameter%s", nm,
                       !strcmp(nm, "repeats")  ? " (use --runs)"
                       : !strcmp(nm, "warmups") ? " (use --warmup)"
                                                : ""),
                   -1;
    for (int i = 0; i < x->s.nparams; i++)
        if (!strcmp(x->s.params[i].name, nm))
            return bad("parameter '%s' is given twice%s", nm, ""), -1;
    XGROW(x->s.params, x->s.nparams);
    x->s.params[x->s.nparams++] = (exec_param){.name = xstrdup(nm)};
    return 0;
}

/* A,B,C into the last parameter's values */
static int list_values(exec_run *x, const char *v)
{
    exec_param *p = &x->s.params[x->s.nparams - 1];
    char *all = xstrdup(v), *save = NULL;
    int rc = 0;
    if (!*v || v[strlen(v) - 1] == ',' || v[0] == ',' || strstr(v, ",,"))
        rc = bad("--parameter-list %s: an empty value in '%s'", p->name, v);
    for (char *t = rc ? NULL : strtok_r(all, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        for (int i = 0; i < p->nvalues && !rc; i++)
            if (!strcmp(p->values[i], t))
                rc = bad("--parameter-list %s: the value '%s' is given twice", p->name, t);
        XGROW(p->values, p->nvalues);
        p->values[p->nvalues++] = xstrdup(t);
    }
    free(all);
    return rc ? -1 : 0;
}

/* the -P's MIN (pending 2) or MAX (pending 1) */
static int scan_value(exec_run *x, const char *v)
{
    exec_param *p = &x->s.params[x->s.nparams - 1];
    long long n;
    if (to_ll(v, &n) < 0)
        return bad("--parameter-scan %s takes integers MIN MAX, not '%s' (other values: "
                   "--parameter-list)",
                   p->name, v),
               -1;
    if (x->pending == 2)
        p->lo = n;
    else if ((p->hi = n) < p->lo)
        return bad("--parameter-scan %s: MAX is below MIN%s", p->name, ""), -1;
    return 0;
}

static int take_pending(exec_run *x, const char *v)
{
    exec_param *p = &x->s.params[x->s.nparams - 1];
    int rc = p->scan ? scan_value(x, v) : list_values(x, v);
    x->pending--;
    return rc;
}

static int option(exec_run *x, int id, const opts *o)
{
    const char *v = o->value;
    if (!v && (id == X_WARMUP || id == X_RUNS || id == X_MIN_RUNS || id == X_MAX_RUNS ||
               id == X_LIST || id == X_SCAN || id == X_STEP || id == X_NAME || id == X_PROTOCOL ||
               id == X_TIMEOUT || id == X_EXPORT_JSON || id == X_SHELL || id == X_OUTPUT ||
               id == X_HISTORY || id == X_REVISION || id == X_PREPARE))
        return bad("%s needs a value%s", o->name, "");
    if (v && !*v && id != X_LIST && id != X_SCAN)
        return bad("%s needs a value, not an empty text%s", o->name, "");
    int n;
    switch (id) {
    case X_WARMUP:
    case X_RUNS:
    case X_MIN_RUNS:
    case X_MAX_RUNS:
        if ((n = count_of(o->name, v, id != X_WARMUP)) < 0)
            return EXIT_INVALID;
        *(id == X_WARMUP ? &x->s.warmups : id == X_RUNS ? &x->s.runs
          : id == X_MIN_RUNS ? &x->s.min_runs : &x->s.max_runs) = n;
        break;
    case X_LIST: {
        const char *eq = strchr(v, '=');
        if (valid_param(x, v, eq ? (size_t)(eq - v) : strlen(v)) < 0)
            return EXIT_INVALID;
        x->pending = 1;
        if (eq && take_pending(x, eq + 1) < 0)
            return EXIT_INVALID;
        break;
    }
    case X_SCAN:
        if (valid_param(x, v, strlen(v)) < 0)
            return EXIT_INVALID;
        x->s.params[x->s.nparams - 1].scan = 1;
        x->s.params[x->s.nparams - 1].step = 1;
        x->pending = 2;
        x->pending_step = 1;
        break;
    case X_STEP: {
        long long st;
        if (!x->pending_step)
            return bad("--parameter-step-size goes after a --parameter-scan%s%s", "", "");
        if (to_ll(v, &st) < 0 || st < 1)
            return bad("--parameter-step-size takes an integer >= 1, not '%s'%s", v, "");
        x->s.params[x->s.nparams - 1].step = st;
        x->pending_step = 0;
        break;
    }
    case X_NAME:
        if (!valid_file_stem(v))
            return bad("--command-name takes a name of letters, digits, '.', '_' and '-', not "
                       "'%s'%s",
                       v, "");
        XGROW(x->names, x->nnames);
        x->names[x->nnames++] = (char *)v;
        break;
    case X_PROTOCOL:
        if (strcmp(v, "per_call") && strcmp(v, "persistent")) {
            const char *const ps[] = {"per_call", "persistent", NULL};
            const char *sug = closest_word(v, ps);
            fprintf(stderr, "runner: exec: unknown protocol '%s' (per_call or persistent)%s%s%s\n",
                    v, sug ? "; did you mean '" : "", sug ? sug : "", sug ? "'?" : "");
            return EXIT_INVALID;
        }
        x->s.protocol = v;
        break;
    case X_SHELL:
        if (strcmp(v, "none"))
            return bad("--shell %s: runner exec runs no shell; write the program and its "
                       "arguments (or name the shell: -- %s -c '...')",
                       v, v);
        break;
    case X_TIMEOUT:
        x->s.timeout = v;
        break;
    case X_PREPARE:
        XGROW(x->prepares, x->nprepares);
        x->prepares[x->nprepares++] = (char *)v;
        break;
    case X_EXPORT_JSON:
        x->export_json = v;
        break;
    case X_OUTPUT:
        x->c.output = v;
        break;
    case X_HISTORY:
        x->c.history = v;
        break;
    case X_REVISION:
        x->c.revision = v;
        break;
    case X_YAML:
        x->yaml_only = 1;
        break;
    case X_NO_PLOTS:
        x->c.no_plots = 1;
        break;
    case X_QUIET:
        x->c.quiet = 1;
        break;
    case X_NO_HISTORY:
        x->c.no_history = 1;
        break;
    case X_HELP:
        cli_command_help(CMD_EXEC, NULL, stdout);
        return EXIT_OK;
    }
    return -1;
}

static void add_cmd(exec_run *x, char **words, int n)
{
    XGROW(x->s.cmds, x->s.ncmds);
    x->s.cmds[x->s.ncmds++] = (exec_cmd){.words = words, .nwords = n};
}

/* The arguments: -1 when all were taken, else the exit status. */
static int parse(exec_run *x, int nargs, char **args)
{
    opts o;
    opts_init_args(&o, nargs, args, defs, 0);
    int id, rc = -1;
    while (rc < 0 && (id = opts_next(&o)) != OPT_END) {
        if (x->pending && ((id == OPT_ARG && !o.rest) || id == OPT_UNKNOWN)) {
            if (take_pending(x, o.text) < 0)
                rc = EXIT_INVALID;
            continue;
        }
        if (x->pending) {
            const exec_param *p = &x->s.params[x->s.nparams - 1];
            rc = bad(p->scan ? "--parameter-scan %s takes MIN and MAX after the name%s"
                             : "--parameter-list %s takes its values after the name (NAME A,B,C "
                               "or NAME=A,B,C)%s",
                     p->name, "");
        } else if (id == OPT_UNKNOWN) {
            opts_say_unknown(&o, "exec");
            rc = EXIT_INVALID;
        } else if (id == OPT_ARG && o.rest) { /* after `--`: the program and its arguments */
            XGROW(x->argv_words, x->nargv + 1);
            x->argv_words[x->nargv++] = xstrdup(o.value);
            x->argv_words[x->nargv] = NULL;
        } else if (id == OPT_ARG) {
            char **w, err[1024];
            int n;
            if (exec_split(o.value, &w, &n, err, sizeof err) < 0)
                rc = bad("%s%s", err, "");
            else
                add_cmd(x, w, n);
        } else {
            rc = option(x, id, &o);
        }
    }
    if (rc < 0 && x->pending)
        rc = bad(x->s.params[x->s.nparams - 1].scan ? "--parameter-scan %s needs MIN and MAX%s"
                                                     : "--parameter-list %s needs its values%s",
                 x->s.params[x->s.nparams - 1].name, "");
    opts_free(&o);
    if (rc < 0 && x->nargv) {
        add_cmd(x, x->argv_words, x->nargv);
        x->argv_words = NULL;
    }
    return rc;
}

/* The program must exist, as the experiment file's check says (before a
 * file with a path the user never wrote could say it). */
static int check_program(const exec_run *x, const exec_cmd *c)
{
    const char *p = c->words[0];
    if (strchr(p, '{'))
        return 0;
    if (!strchr(p, '/')) {
        char *f = spawn_find(p);
        free(f);
        return f ? 0 : bad("program '%s' not found on PATH%s", p, "");
    }
    char *path = p[0] == '/' ? xstrdup(p) : xasprintf("%s/%s", x->s.cwd, p);
    struct stat st;
    int rc = stat(path, &st) != 0 || !S_ISREG(st.st_mode)
                 ? bad("program '%s' not found%s", p, p[0] == '/' ? "" : " (in the current folder)")
             : access(path, X_OK) != 0
                 ? bad("program '%s' is not executable (chmod +x, or name its interpreter "
                       "first: -- python3 %s)",
                       p, p)
                 : 0;
    free(path);
    return rc;
}

/* Everything the command line asks that can be judged before a run. */
static int check(exec_run *x)
{
    exec_spec *s = &x->s;
    if (s->ncmds == 0)
        return bad("no command: give one after --, e.g. runner exec -- sleep 0.05%s%s",
                   " (or as one text: runner exec 'sleep 0.05')", "");
    if (x->nnames > s->ncmds) {
        fprintf(stderr, "runner: exec: %d --command-name for %d command%s: one per command\n",
                x->nnames, s->ncmds, s->ncmds == 1 ? "" : "s");
        return EXIT_INVALID;
    }
    if (x->nprepares > 1 && x->nprepares != s->ncmds) {
        fprintf(stderr,
                "runner: exec: %d --prepare for %d command%s: give one for every command, or "
                "one per command\n",
                x->nprepares, s->ncmds, s->ncmds == 1 ? "" : "s");
        return EXIT_INVALID;
    }
    if (x->nprepares && !strcmp(s->protocol, "persistent"))
        return bad("--prepare runs before each run of a per_call program; a persistent "
                   "program's calls run back to back in one request (prepare in its setup)%s%s",
                   "", "");
    if (s->runs > 0 && (s->min_runs > 0 || s->max_runs > 0))
        return bad("--runs sets the number of samples; --min-runs and --max-runs bound the "
                   "default (repeats: auto)%s%s",
                   "", "");
    if (s->min_runs > 0 && s->max_runs > 0 && s->min_runs > s->max_runs)
        return bad("--min-runs is above --max-runs%s%s", "", "");
    if (x->export_json) {
        char *d = xstrdup(x->export_json);
        int ok = access(dirname(d), W_OK) == 0;
        free(d);
        if (!ok)
            return bad("--export-json %s: its folder does not exist or is not writable%s",
                       x->export_json, "");
    }
    for (int k = 0; k < s->ncmds; k++) {
        char err[1024];
        if (check_program(x, &s->cmds[k]))
            return EXIT_INVALID;
        if (x->nprepares)
            s->cmds[k].prepare = x->prepares[x->nprepares == 1 ? 0 : k];
        if ((s->cmds[k].prepare &&
             exec_check_placeholders(s, s->cmds[k].prepare, err, sizeof err) < 0) ||
            exec_check_words(s, &s->cmds[k], err, sizeof err) < 0)
            return bad("%s%s", err, "");
        char *name = k < x->nnames ? xstrdup(x->names[k])
                                   : exec_default_name(s->cmds[k].words, s->cmds[k].nwords);
        for (int j = 0, more = 2; j < k; j++)
            if (!strcmp(s->cmds[j].name, name)) {
                if (k < x->nnames)
                    return free(name), bad("--command-name %s is given twice%s", x->names[k], "");
                char *again = xasprintf("%s-%d", name, more++);
                free(name);
                name = again;
                j = -1;
            }
        s->cmds[k].name = name;
    }
    return -1;
}

/* The file of command k in a fresh temporary; NULL with a message. */
static char *write_temp(const char *text)
{
    const char *tmp = getenv("TMPDIR");
    char *path = xasprintf("%s/runner-exec-XXXXXX.yaml", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemps(path, 5);
    if (fd < 0 || fd_write_all(fd, text, strlen(text)) < 0) {
        fprintf(stderr, "runner: exec: cannot write %s: %s\n", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(path);
        }
        free(path);
        return NULL;
    }
    close(fd);
    return path;
}

/* The run's line, as `runner FILE.yaml` ends one; its exit status. */
static int say_end(const exec_run *x, const experiment *e, run_end end, const run_outcome *r)
{
    char w[32];
    fmt_seconds(w, sizeof w, r->wall);
    fprintf(stderr, "%s: %lld ok, %lld failed, %lld timeout, %lld skipped in %s; results in %s\n",
            e->name, r->counts[ST_OK], r->counts[ST_FAILED], r->counts[ST_TIMEOUT],
            r->counts[ST_SKIPPED], w, r->run_dir ? r->run_dir : "-");
    for (int i = 0; i < r->nreasons && !x->c.quiet; i++)
        fprintf(stderr, "  skipped %lld: %s\n", r->nreason[i], r->reason[i]);
    if (end == RUN_INTERRUPTED) {
        char *f = rundir_path(r->run_dir, RD_EXPERIMENT);
        fprintf(stderr,
                "runner: interrupted; finished trials are saved. Continue with: runner --resume "
                "--output %s %s\n",
                x->c.output, f);
        free(f);
        return EXIT_INTERRUPTED;
    }
    return end == RUN_WRITE_FAILED ? EXIT_TRIALS_FAILED : r->any_failed ? EXIT_TRIALS_FAILED
                                                                        : EXIT_OK;
}

/* Runs command k's file; its run folder in *run_dir (NULL when none). */
static int run_cmd(exec_run *x, int k, char **run_dir)
{
    char *text = exec_yaml(&x->s, k), *path = write_temp(text);
    free(text);
    if (!path)
        return EXIT_INVALID;
    load_opts lo = {0};
    experiment *e = load_experiment(path, &lo);
    if (!e) {
        fprintf(stderr, "runner: exec: the experiment file it implies is not valid (kept: %s)\n",
                path);
        free(path);
        return EXIT_INVALID;
    }
    run_outcome r;
    run_end end = cmd_run_experiment(&x->c, e, NULL, &r);
    unlink(path);
    free(path);
    int rc = end == RUN_INVALID ? EXIT_INVALID : say_end(x, e, end, &r);
    *run_dir = r.run_dir ? xstrdup(r.run_dir) : NULL;
    run_outcome_free(&r);
    experiment_free(e);
    return rc;
}

static void exec_free(exec_run *x)
{
    for (int k = 0; k < x->s.ncmds; k++) {
        for (int i = 0; i < x->s.cmds[k].nwords; i++)
            free(x->s.cmds[k].words[i]);
        FREE_ALL(x->s.cmds[k].words, x->s.cmds[k].name);
    }
    for (int i = 0; i < x->s.nparams; i++) {
        for (int j = 0; j < x->s.params[i].nvalues; j++)
            free(x->s.params[i].values[j]);
        FREE_ALL(x->s.params[i].values, x->s.params[i].name);
    }
    for (int i = 0; i < x->nargv; i++)
        free(x->argv_words ? x->argv_words[i] : NULL);
    FREE_ALL(x->s.cmds, x->s.params, x->names, x->prepares, x->argv_words, x->s.cwd,
             x->revision);
}

/* Runs every command's file in turn, then says what they measured. */
static int run_all(exec_run *x)
{
    char **dirs = xcalloc((size_t)x->s.ncmds, sizeof *dirs);
    int rc = EXIT_OK;
    cmd_run_catch_signals();
    for (int k = 0; k < x->s.ncmds && (rc == EXIT_OK || rc == EXIT_TRIALS_FAILED); k++) {
        int r = run_cmd(x, k, &dirs[k]);
        rc = r == EXIT_OK ? rc : r;
    }
    int any = 0;
    for (int k = 0; k < x->s.ncmds; k++)
        any |= dirs[k] != NULL;
    if (any) {
        fflush(stderr);
        exec_summary(stdout, &x->s, dirs);
        fflush(stdout);
    }
    char err[1024];
    if (any && x->export_json && exec_export_json(x->export_json, &x->s, dirs, err, sizeof err) < 0) {
        fprintf(stderr, "runner: exec: %s\n", err);
        rc = rc == EXIT_OK ? EXIT_TRIALS_FAILED : rc;
    }
    for (int k = 0; k < x->s.ncmds && !x->c.quiet; k++)
        if (dirs[k]) {
            char *f = rundir_path(dirs[k], RD_EXPERIMENT);
            fprintf(stderr, "experiment file: %s (runner %s runs it again)\n", f, f);
            free(f);
        }
    for (int k = 0; k < x->s.ncmds; k++)
        free(dirs[k]);
    free(dirs);
    return rc;
}

int cmd_exec_main(int nargs, char **args)
{
    exec_run x = {.s = {.warmups = -1, .runs = -1, .min_runs = -1, .max_runs = -1,
                        .protocol = "per_call", .argc = cli_argc - 1, .argv = cli_argv + 1}};
    x.c.output = "results";
    int rc = parse(&x, nargs, args);
    char here[4096];
    if (rc < 0 && !getcwd(here, sizeof here))
        rc = bad("cannot read the current folder: %s%s", strerror(errno), "");
    if (rc < 0) {
        x.s.cwd = xstrdup(here);
        rc = check(&x);
    }
    if (rc < 0 && x.yaml_only) {
        for (int k = 0; k < x.s.ncmds; k++) {
            char *t = exec_yaml(&x.s, k);
            printf("%s%s", k ? "---\n" : "", t);
            free(t);
        }
        rc = EXIT_OK;
    }
    if (rc < 0) {
        /* the measured code is the current folder's, not the temporary file's */
        if (!x.c.revision) {
            history_revision rev;
            history_git_revision(x.s.cwd, &rev);
            x.c.revision = x.revision = rev.text ? xstrdup(rev.text) : NULL;
            history_revision_free(&rev);
        }
        rc = run_all(&x);
    }
    exec_free(&x);
    return rc;
}
