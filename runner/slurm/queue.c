/* queue.c - see queue.h. */
#include "slurm/queue.h"

#include "base/spawn.h"
#include "base/util.h"
#include "slurm/slurm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *slurm_program(const char *env, const char *name)
{
    const char *v = getenv(env);
    return v && *v ? v : name;
}

int slurm_can_run(const char *prog)
{
    char *p = spawn_find(prog);
    free(p);
    return p != NULL;
}

enum { RUN_NOT_STARTED = -1, RUN_TIMED_OUT = -2 };

/* Runs argv (argv[0] searched on PATH) with its stdout into *out
 * (malloc'd), its stderr to ours or, when quiet, into *out as well
 * (squeue's and scontrol's errors are read, not shown).  Its exit status
 * (128+sig when a signal ended it), RUN_NOT_STARTED (errno set) or
 * RUN_TIMED_OUT. */
static int run_capture(char *const argv[], char **out, int quiet, double timeout_s)
{
    spawn_opts o = {.with_stderr = quiet, .timeout = timeout_s};
    spawn_result r;
    int rc = spawn_run(argv, &o, &r);
    *out = r.out;
    if (rc == 0)
        return r.status;
    if (r.timed_out)
        return RUN_TIMED_OUT;
    errno = r.error;
    return RUN_NOT_STARTED;
}

char *slurm_job_path(const char *run_dir)
{
    return xasprintf("%s/job.sbatch", run_dir);
}

char *slurm_merge_path(const char *run_dir)
{
    return xasprintf("%s/merge.sbatch", run_dir);
}

static char *log_path(const char *run_dir)
{
    return xasprintf("%s/slurm-jobs.txt", run_dir);
}

int slurm_log_append(const char *run_dir, char *err, size_t len, const char *fmt, ...)
{
    strbuf b = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    sb_putc(&b, '\n');
    char *p = log_path(run_dir);
    int fd = open(p, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    int rc = fd >= 0 && write(fd, b.s, b.len) == (ssize_t)b.len ? 0 : -1;
    if (fd >= 0 && close(fd) < 0)
        rc = -1;
    if (rc < 0)
        snprintf(err, len, "cannot write %s: %s", p, strerror(errno));
    free(p);
    sb_free(&b);
    return rc;
}

void slurm_log_read(const char *run_dir, job_log *L)
{
    memset(L, 0, sizeof *L);
    char *p = log_path(run_dir);
    char *text = read_file(p, NULL);
    free(p);
    if (!text)
        return;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char id[32], tasks[4096];
        if (!strncmp(line, "experiment ", 11)) {
            free(L->experiment);
            L->experiment = xstrdup(line + 11);
        } else if (sscanf(line, "array %31[0-9] %4095s", id, tasks) == 2) {
            XGROW(L->arr_id, L->narr);
            XGROW(L->arr_tasks, L->narr);
            snprintf(L->arr_id[L->narr], sizeof L->arr_id[L->narr], "%s", id);
            L->arr_tasks[L->narr++] = xstrdup(tasks);
        } else if (sscanf(line, "merge %31[0-9]", id) == 1) {
            snprintf(L->merge_id, sizeof L->merge_id, "%s", id);
        }
    }
    free(text);
}

void slurm_log_free(job_log *L)
{
    free(L->experiment);
    for (int i = 0; i < L->narr; i++)
        free(L->arr_tasks[i]);
    free(L->arr_tasks);
    free(L->arr_id);
}

void slurm_view_free(slurm_view *v, int n)
{
    for (int k = 0; k < n; k++) {
        free(v->state[k]);
        free(v->task[k]);
    }
    FREE_ALL(v->state, v->task, v->merge_state, v->problem);
}

void slurm_query(const job_log *L, int n, slurm_view *v)
{
    memset(v, 0, sizeof *v);
    v->state = xcalloc((size_t)n, sizeof *v->state);
    v->task = xcalloc((size_t)n, sizeof *v->task);
    int *owner = xmalloc((size_t)n * sizeof *owner);
    unsigned char *mark = xcalloc((size_t)n + 1, 1);
    for (int k = 0; k < n; k++)
        owner[k] = -1;
    for (int a = 0; a < L->narr; a++) {
        memset(mark, 0, (size_t)n);
        if (slurm_parse_index_list(L->arr_tasks[a], mark, n) < 0)
            continue;
        for (int k = 0; k < n; k++)
            if (mark[k])
                owner[k] = a;
    }
    for (int k = 0; k < n; k++)
        if (owner[k] >= 0)
            v->task[k] = xasprintf("%s_%d", L->arr_id[owner[k]], k);
    free(mark);
    const char *squeue = slurm_program("RUNNER_SQUEUE", "squeue");
    const char *scontrol = slurm_program("RUNNER_SCONTROL", "scontrol");
    if (!L->narr && !L->merge_id[0]) {
        free(owner);
        return;
    }
    if (!slurm_can_run(squeue)) {
        v->problem = xasprintf("%s not found", squeue);
        free(owner);
        return;
    }
    v->queried = 1;
    int have_scontrol = slurm_can_run(scontrol);
    char **st = xcalloc((size_t)n, sizeof *st);
    for (int a = L->narr - 1; a >= 0 && !v->problem; a--) {
        int mine = 0;
        for (int k = 0; k < n; k++)
            mine += owner[k] == a;
        if (!mine)
            continue;
        char *argv[] = {(char *)squeue, "-h", "-r", "-j", L->arr_id[a], "-o", "%i %T", NULL};
        char *out;
        int rc = run_capture(argv, &out, 1, QUERY_TIMEOUT);
        memset(st, 0, (size_t)n * sizeof *st);
        if (rc == RUN_TIMED_OUT || rc == RUN_NOT_STARTED) {
            v->problem = xasprintf("%s %s", squeue,
                                   rc == RUN_TIMED_OUT ? "did not answer" : strerror(errno));
        } else if (rc == 0) {
            slurm_parse_squeue(out, L->arr_id[a], st, n);
        } else if (!strstr(out, "Invalid job id")) { /* that one: a job the controller forgot */
            char *nl = out + strcspn(out, "\n");
            *nl = '\0';
            v->problem = *out ? xstrdup(out) : xasprintf("%s failed (exit %d)", squeue, rc);
        }
        free(out);
        int missing = 0;
        for (int k = 0; k < n; k++)
            missing += owner[k] == a && !st[k];
        if (missing && have_scontrol && !v->problem) {
            char *sargv[] = {(char *)scontrol, "show", "job", L->arr_id[a], NULL};
            if (run_capture(sargv, &out, 1, QUERY_TIMEOUT) == 0)
                slurm_parse_scontrol_tasks(out, st, n);
            free(out);
        }
        for (int k = 0; k < n; k++) {
            if (owner[k] == a && st[k]) {
                v->state[k] = st[k];
                st[k] = NULL;
            }
            free(st[k]);
            st[k] = NULL;
        }
    }
    free(st);
    if (L->merge_id[0] && !v->problem) {
        char *argv[] = {(char *)squeue, "-h", "-j", (char *)L->merge_id, "-o", "%i %T", NULL};
        char *out, *one[1] = {NULL};
        if (run_capture(argv, &out, 1, QUERY_TIMEOUT) == 0)
            slurm_parse_squeue(out, L->merge_id, one, 1);
        free(out);
        if (!one[0] && have_scontrol) {
            char *sargv[] = {(char *)scontrol, "show", "job", (char *)L->merge_id, NULL};
            if (run_capture(sargv, &out, 1, QUERY_TIMEOUT) == 0)
                one[0] = slurm_parse_jobstate(out);
            free(out);
        }
        v->merge_state = one[0];
    }
    free(owner);
}

int slurm_sbatch(char **args, int nargs, const char *script, char *id, size_t idlen, char *err,
                 size_t errlen)
{
    const char *prog = slurm_program("RUNNER_SBATCH", "sbatch");
    char **argv = xcalloc((size_t)nargs + 4, sizeof *argv);
    int a = 0;
    argv[a++] = (char *)prog;
    argv[a++] = "--parsable";
    for (int i = 0; i < nargs; i++)
        argv[a++] = args[i];
    argv[a++] = (char *)script;
    char *out;
    int rc = run_capture(argv, &out, 0, SBATCH_TIMEOUT);
    int e = errno;
    free(argv);
    if (rc == 0 && slurm_parse_jobid(out, id, idlen) == 0) {
        free(out);
        return 0;
    }
    if (rc == RUN_NOT_STARTED)
        snprintf(err, errlen, "cannot run %s: %s", prog, strerror(e));
    else if (rc == RUN_TIMED_OUT)
        snprintf(err, errlen, "%s did not answer in %.0f s", prog, SBATCH_TIMEOUT);
    else if (rc != 0)
        snprintf(err, errlen, "%s %s failed (exit %d)", prog, script, rc);
    else
        snprintf(err, errlen, "%s printed no job id: '%.80s'", prog, out);
    free(out);
    return -1;
}


char *slurm_run_dir(const char *dir, char *err, size_t len)
{
    char *abs = realpath(dir, NULL);
    struct stat st;
    if (!abs || stat(abs, &st) < 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, len, "cannot open %s: %s", dir, abs ? "not a folder" : strerror(errno));
        free(abs);
        return NULL;
    }
    return abs;
}
