/* cmd_launch.c - see cmd_launch.h. */
#include "run/exec/cmd_launch.h"

#include "base/spawn.h"
#include "base/util.h"
#include "experiment/command_spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h> /* environ */



typedef struct trial_ref {
    const experiment *e;
    long long trial;
    const resolved_trial *r;
} trial_ref;

/* A placeholder's value, whole: the trial's row shows it whole, and the
 * program gets what the row shows (an argument or variable longer than the
 * kernel takes fails the start with E2BIG, never a shorter value). */
static char *lookup(void *ctx, const char *name)
{
    const trial_ref cur = *(const trial_ref *)ctx;
    if (!strcmp(name, "threads")) /* `all` resolved */
        return xasprintf("%d", cur.r->t.threads);
    int c = experiment_column(cur.e, name);
    value v = c >= 0 ? trial_value(cur.e, cur.trial, c) : (value){0};
    if (v.kind == VAL_NONE)
        return NULL;
    return xstrdup(v.text);
}

static char *in_dir(const char *dir, const char *rel)
{
    return rel[0] == '/' ? xstrdup(rel) : xasprintf("%s/%s", dir, rel);
}

/* The project's python/ folder (runner_workload.py), for PYTHONPATH. */
static const char *python_dir(void)
{
    static char dir[4096];
    static int found = -1;
    const char *env = getenv("RUNNER_PYTHON_DIR");
    if (env && *env)
        return env;
    if (found < 0) {
        static const char *const rel[] = {"../python", "../../python", "../share/runner/python"};
        found = find_beside_exe(rel, 3, 1, dir, sizeof dir) == 0;
    }
    return found ? dir : NULL;
}

static void env_set(char ***envp, int *n, const char *kv)
{
    size_t k = strcspn(kv, "=");
    for (int i = 0; i < *n; i++)
        if (!strncmp((*envp)[i], kv, k) && (*envp)[i][k] == '=') {
            free((*envp)[i]);
            (*envp)[i] = xstrdup(kv);
            return;
        }
    *envp = xrealloc(*envp, (size_t)(*n + 2) * sizeof **envp);
    (*envp)[(*n)++] = xstrdup(kv);
    (*envp)[*n] = NULL;
}

/* argv (the words of `key`: command or prepare), environment and folder of
 * this trial's program; its key in *key (when key is not NULL). */
static int build(const experiment *e, long long trial, const resolved_trial *r, char **words,
                 int nwords, const char *what, cmd_launch *l, char **key, char *err,
                 size_t errlen)
{
    const command_spec *c = e->command;
    trial_ref cur = {e, trial, r};
    char why[300];
    memset(l, 0, sizeof *l);
    l->argv = xcalloc((size_t)nwords + 1, sizeof *l->argv);
    strbuf k = {0};
    for (int i = 0; i < nwords; i++) {
        if (!(l->argv[i] = command_expand(words[i], lookup, &cur, why, sizeof why))) {
            snprintf(err, errlen, "%s: %s", what, why);
            goto fail;
        }
        sb_printf(&k, "%s\x1f", l->argv[i]);
    }
    const char *dir = e->dir;
    l->cwd = c->cwd ? in_dir(dir, c->cwd) : xstrdup(dir);
    char *p = strchr(l->argv[0], '/') ? in_dir(dir, l->argv[0]) : spawn_find(l->argv[0]);
    /* absolute: the program starts in its own folder */
    l->path = p ? realpath(p, NULL) : NULL;
    free(p);
    if (!l->path) {
        snprintf(err, errlen, "%sprogram '%s' not found", strcmp(what, "command") ? "prepare: " : "",
                 l->argv[0]);
        goto fail;
    }
    int n = 0;
    for (char **v = environ; v && *v; v++)
        env_set(&l->envp, &n, *v);
    const char *py = python_dir(), *old = getenv("PYTHONPATH");
    if (py) {
        char *pp = xasprintf("PYTHONPATH=%s%s%s", py, old && *old ? ":" : "", old ? old : "");
        env_set(&l->envp, &n, pp);
        free(pp);
    }
    for (int i = 0; i < c->nenv; i++) {
        char *v = command_expand(c->env[i], lookup, &cur, why, sizeof why);
        if (!v) {
            snprintf(err, errlen, "env: %s", why);
            goto fail;
        }
        env_set(&l->envp, &n, v);
        sb_printf(&k, "%s\x1f", v);
        free(v);
    }
    if (c->protocol == CMD_PERSISTENT) {
        env_set(&l->envp, &n, "RUNNER_PROTOCOL_FDS=3,4");
        env_set(&l->envp, &n, "RUNNER_PROTOCOL=1");
    }
    if (!l->envp)
        l->envp = xcalloc(1, sizeof *l->envp);
    char *dv = lookup(&cur, "device");
    sb_printf(&k, "%s\x1f%s", l->cwd, dv ? dv : "cpu");
    free(dv);
    if (key)
        *key = sb_take(&k);
    else
        sb_free(&k);
    return 0;
fail:
    sb_free(&k);
    cmd_launch_free(l);
    return -1;
}

int cmd_launch_build(const experiment *e, long long trial, const resolved_trial *r,
                     cmd_launch *l, char **key, char *err, size_t errlen)
{
    const command_spec *c = e->command;
    return build(e, trial, r, c->argv, c->argc, "command", l, key, err, errlen);
}

int cmd_launch_prepare(const experiment *e, long long trial, const resolved_trial *r,
                       cmd_launch *l, char *err, size_t errlen)
{
    const command_spec *c = e->command;
    return build(e, trial, r, c->prepare, c->nprepare, "prepare", l, NULL, err, errlen);
}

json_object *cmd_trial_params(const experiment *e, long long trial, const resolved_trial *r)
{
    trial_ref cur = {e, trial, r};
    json_object *p = json_object_new_object();
    for (int c = 0; c < e->ncols; c++) {
        if (!strcmp(e->cols[c].name, "workload"))
            continue;
        value v = trial_value(e, cur.trial, c);
        json_object *j = v.kind == VAL_INT     ? json_object_new_int64(v.i)
                         : v.kind == VAL_FLOAT ? json_object_new_double(v.f)
                         : v.kind == VAL_BOOL  ? json_object_new_boolean((int)v.i)
                         : v.kind == VAL_STR   ? json_object_new_string(v.text)
                                               : NULL;
        if (j)
            json_object_object_add(p, e->cols[c].name, j);
    }
    json_object_object_add(p, "threads", json_object_new_int(cur.r->t.threads));
    json_object_object_add(p, "device_index", json_object_new_int(cur.r->t.device_index));
    return p;
}

