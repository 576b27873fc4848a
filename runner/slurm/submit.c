/* submit.c - see submit.h. */
#include "slurm/submit.h"

#include "base/util.h"
#include "experiment/registry/plugin.h"
#include "results/rundir/rundir.h"
#include "results/rundir/shards.h"
#include "slurm/queue.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Does the experiment name files beside it (Lua workloads, plugins, hooks,
 * a command's program: doc/own-code.md)? */
static int uses_lua(const experiment *e)
{
    if (e->hooks || e->command)
        return 1;
    int wc = experiment_column(e, "workload");
    if (wc < 0)
        return 0;
    const value *v = &e->cols[wc].fixed;
    if (v->kind == VAL_STR && (!strncmp(v->text, "lua:", 4) || plugin_is_spec(v->text)))
        return 1;
    for (int a = 0; a < e->naxes; a++)
        for (int j = 0; j < e->axes[a].nelems; j++)
            for (int k = 0; k < e->axes[a].elems[j].nkv; k++) {
                const axis_kv *kv = &e->axes[a].elems[j].kv[k];
                if (kv->column == wc && kv->v.kind == VAL_STR &&
                    (!strncmp(kv->v.text, "lua:", 4) || plugin_is_spec(kv->v.text)))
                    return 1;
            }
    return 0;
}

/* The copy in the run folder is what the shards run, when it is the same
 * experiment there: no Lua files to find beside it, and its name set in
 * the file (a name taken from the file's name would be "experiment").
 * Else they run the original.  Returns a malloc'd absolute path. */
static char *experiment_for_jobs(const experiment *e, const char *copy, const char *orig,
                                 const char **why)
{
    *why = NULL;
    diags d = {0};
    experiment *c = uses_lua(e) ? NULL : experiment_parse(copy, e->text, e->text_len, &d);
    diag_free(&d);
    int same = c && !strcmp(c->name, e->name) && c->ntrials == e->ntrials;
    if (c)
        experiment_free(c);
    if (same)
        return xstrdup(copy);
    *why = uses_lua(e) ? "it uses Lua files beside it" : "it takes its name from its file name";
    return realpath(orig, NULL);
}

/* Makes OUTPUT/<name>/<run-id>/ (absolute, checked for job scripts).
 * `latest` is not moved here: it is earned by the merge (results/rundir/merge.h). */
static char *make_run_dir(const char *output, const char *name, char *err, size_t errlen)
{
    char *exp_dir = xasprintf("%s/%s", output, name);
    char e[1024];
    if (make_dirs(exp_dir) < 0 || access(exp_dir, W_OK) < 0) {
        snprintf(err, errlen, "cannot write to the output folder %s: %s", exp_dir, strerror(errno));
        free(exp_dir);
        return NULL;
    }
    char *abs = realpath(exp_dir, NULL);
    free(exp_dir);
    if (!abs || slurm_path_valid(abs, e, sizeof e) < 0) {
        snprintf(err, errlen, "%s", abs ? e : strerror(errno));
        free(abs);
        return NULL;
    }
    char *run_id = NULL;
    char *dir = rundir_create(abs, &run_id, e, sizeof e);
    if (!dir)
        snprintf(err, errlen, "%s", e);
    free(run_id);
    free(abs);
    return dir;
}

/* The whole array (new) or the tasks of s->todo: Slurm's index lists. */
static void index_lists(submission *s)
{
    strbuf tl = {0}, sl = {0};
    slurm_index_list(&tl, s->todo, s->ntodo);
    int *one = xmalloc((size_t)s->ntodo * sizeof *one + 1);
    for (int i = 0; i < s->ntodo; i++)
        one[i] = s->todo[i] + 1;
    slurm_index_list(&sl, one, s->ntodo);
    free(one);
    s->tasks = sb_take(&tl);
    s->shards = sb_take(&sl);
}

int submit_prepare(const experiment *e, const char *path, const char *output, int shards,
                   const slurm_opts *o, submission *s, strbuf *notes, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    int rc = -1;
    char e2[1024];
    char *runner = NULL, *exp_path = NULL, *job = NULL, *merge = NULL;
    int n = shards;
    if (e->ntrials < n) {
        n = e->ntrials > 0 ? (int)e->ntrials : 1;
        sb_printf(notes, "%s has %lld trial%s: %d shard%s\n", path, e->ntrials,
                  e->ntrials == 1 ? "" : "s", n, n == 1 ? "" : "s");
    }
    s->n = n;
    s->name = xstrdup(e->name);
    runner = realpath("/proc/self/exe", NULL);
    if (!runner || slurm_path_valid(runner, e2, sizeof e2) < 0) {
        snprintf(err, errlen, "where is this runner? %s", runner ? e2 : strerror(errno));
        goto out;
    }
    if (!(s->run_dir = make_run_dir(output, e->name, err, errlen)))
        goto out;
    if (write_text_in(s->run_dir, rundir_name(RD_EXPERIMENT), e->text, err, errlen) < 0)
        goto out;
    char *copy = rundir_path(s->run_dir, RD_EXPERIMENT);
    const char *why;
    exp_path = experiment_for_jobs(e, copy, path, &why);
    free(copy);
    if (!exp_path || slurm_path_valid(exp_path, e2, sizeof e2) < 0) {
        snprintf(err, errlen, "%s", exp_path ? e2 : strerror(errno));
        goto out;
    }
    if (why)
        sb_printf(notes,
                  "note: the shards run %s itself, as %s: leave it (and its files) as they are "
                  "until they have run\n",
                  exp_path, why);
    job = slurm_job_script(e->name, s->run_dir, runner, exp_path, n, o);
    merge = slurm_merge_script(e->name, s->run_dir, runner, o);
    if (write_text_in(s->run_dir, "job.sbatch", job, err, errlen) < 0 ||
        write_text_in(s->run_dir, "merge.sbatch", merge, err, errlen) < 0)
        goto out;
    if (slurm_log_append(s->run_dir, e2, sizeof e2,
                         "# runner submit: the Slurm jobs of this run, oldest first") < 0 ||
        slurm_log_append(s->run_dir, e2, sizeof e2, "experiment %s", exp_path) < 0 ||
        slurm_log_append(s->run_dir, e2, sizeof e2, "shards %d", n) < 0) {
        snprintf(err, errlen, "%s", e2);
        goto out;
    }
    const char *sb = slurm_program("RUNNER_SBATCH", "sbatch");
    if (!slurm_can_run(sb)) {
        strbuf j = {0}, m = {0};
        char *p = slurm_job_path(s->run_dir);
        sh_quote(&j, p);
        free(p);
        p = slurm_merge_path(s->run_dir);
        sh_quote(&m, p);
        free(p);
        snprintf(err, errlen,
                  "%s not found: is this a Slurm login node? The job scripts are "
                  "written; submit them by hand with\n"
                  "  jid=$(sbatch --parsable %s) && sbatch --dependency=afterany:${jid%%%%;*} %s",
                  sb, j.s, m.s);
        sb_free(&j);
        sb_free(&m);
        goto out;
    }
    s->todo = xmalloc((size_t)n * sizeof *s->todo);
    for (int k = 0; k < n; k++)
        s->todo[s->ntodo++] = k;
    index_lists(s);
    rc = 0;
out:
    free(job);
    FREE_ALL(merge, exp_path, runner);
    return rc;
}

int submit_prepare_resume(const char *target, submission *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->resumed = 1;
    char e[1024];
    if (!(s->run_dir = slurm_run_dir(target, e, sizeof e))) {
        snprintf(err, errlen, "%s", e);
        return -1;
    }
    int rc = -1;
    char *jp = slurm_job_path(s->run_dir);
    char *text = read_file(jp, NULL);
    int n = text ? slurm_script_shards(text) : 0;
    char name[256] = "run";
    const char *jn = text ? strstr(text, "--job-name=") : NULL;
    if (jn)
        snprintf(name, sizeof name, "%.*s", (int)strcspn(jn + 11, " \t\r\n\""), jn + 11);
    free(text);
    s->name = xstrdup(name);
    job_log L;
    slurm_log_read(s->run_dir, &L);
    slurm_view v = {0};
    if (n < 0) {
        snprintf(err, errlen,
                  "%s asks for more than %d shards, more than runner submit writes: the file "
                  "was edited",
                  jp, SLURM_MAX_SHARDS);
        goto out;
    }
    if (n == 0) {
        snprintf(err, errlen, "%s has no job.sbatch of runner submit", jp);
        goto out;
    }
    s->n = n;
    s->todo = xmalloc((size_t)n * sizeof *s->todo);
    for (int k = 1; k <= n; k++) {
        char *d = rundir_shard_dir(s->run_dir, k, n);
        if (!rundir_is_finished(d))
            s->todo[s->ntodo++] = k - 1;
        free(d);
    }
    if (!s->ntodo) {
        rc = 0;
        goto out;
    }
    /* a shard still queued or running must not run twice at once */
    slurm_query(&L, n, &v);
    if (v.problem && L.narr) {
        snprintf(err, errlen,
                  "cannot tell whether the shards still run (%s); try again when squeue answers",
                  v.problem);
        goto out;
    }
    strbuf busy = {0};
    for (int i = 0; i < s->ntodo; i++) {
        int k = s->todo[i];
        if (v.state[k] && !slurm_state_ended(v.state[k]))
            sb_printf(&busy, "%s%d (%s %s)", busy.len ? ", " : "", k + 1, v.task[k], v.state[k]);
    }
    if (busy.len) {
        int many = strchr(busy.s, ',') != NULL;
        snprintf(err, errlen,
                  "shard%s %s %s still in the queue: wait for %s to end, or scancel %s",
                  many ? "s" : "", busy.s, many ? "are" : "is", many ? "them" : "it",
                  many ? "them" : "it");
        sb_free(&busy);
        goto out;
    }
    sb_free(&busy);
    const char *sb = slurm_program("RUNNER_SBATCH", "sbatch");
    if (!slurm_can_run(sb)) {
        snprintf(err, errlen, "%s not found: is this a Slurm login node?", sb);
        goto out;
    }
    index_lists(s);
    rc = 0;
out:
    slurm_view_free(&v, v.state ? n : 0);
    slurm_log_free(&L);
    free(jp);
    return rc;
}

/* The options of a submission that go on sbatch's command line (resume:
 * they override the scripts' #SBATCH lines). */
static int override_args(const slurm_opts *o, int gres, char **out)
{
    int n = 0;
    if (o->partition)
        out[n++] = xasprintf("--partition=%s", o->partition);
    if (o->time)
        out[n++] = xasprintf("--time=%s", o->time);
    if (gres && o->gpus > 0)
        out[n++] = xasprintf("--gres=gpu:%d", o->gpus);
    for (int i = 0; i < o->nextra; i++)
        out[n++] = xstrdup(o->extra[i]);
    return n;
}

static void free_args(char **a, int n)
{
    for (int i = 0; i < n; i++)
        free(a[i]);
}

int submit_send(submission *s, const slurm_opts *o, strbuf *msgs)
{
    char *job = slurm_job_path(s->run_dir);
    char *merge = slurm_merge_path(s->run_dir);
    int rc = SUBMIT_OK;
    char e[1024];
    char **args = xcalloc((size_t)o->nextra + 8, sizeof *args);
    int na = 0;
    if (s->resumed) {
        args[na++] = xasprintf("--array=%s", s->tasks);
        na += override_args(o, 1, args + na);
    }
    if (slurm_sbatch(args, na, job, s->array_id, sizeof s->array_id, e, sizeof e) < 0) {
        sb_printf(msgs, "%s\n", e);
        rc = SUBMIT_REFUSED;
        goto out;
    }
    if (slurm_log_append(s->run_dir, e, sizeof e, "array %s %s", s->array_id, s->tasks) < 0)
        sb_printf(msgs, "%s\n", e);
    free_args(args, na);
    na = 0;
    args[na++] = xasprintf("--dependency=afterany:%s", s->array_id);
    if (s->resumed)
        na += override_args(o, 0, args + na);
    if (slurm_sbatch(args, na, merge, s->merge_id, sizeof s->merge_id, e, sizeof e) < 0) {
        strbuf q = {0};
        sh_quote(&q, s->run_dir);
        sb_printf(msgs,
                  "%s\nthe shards are queued (job %s) but the merge job is not; once they have "
                  "run:  runner merge %s\n",
                  e, s->array_id, q.s);
        sb_free(&q);
        rc = SUBMIT_MERGE_REFUSED;
        goto out;
    }
    if (slurm_log_append(s->run_dir, e, sizeof e, "merge %s after %s", s->merge_id,
                         s->array_id) < 0)
        sb_printf(msgs, "%s\n", e);
out:
    free_args(args, na);
    FREE_ALL(args, job, merge);
    return rc;
}

void submission_free(submission *s)
{
    FREE_ALL(s->run_dir, s->name, s->todo, s->tasks, s->shards);
    memset(s, 0, sizeof *s);
}
