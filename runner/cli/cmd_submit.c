/* cmd_submit.c - a sharded run on a Slurm cluster.
 *
 *   runner submit FILE.yaml [--shards N] [--partition P] [--time T]
 *                 [--gpus-per-shard G] [--sbatch-arg ARG]... [--output DIR]
 *       makes OUTPUT/<name>/<run-id>/ with the experiment, job.sbatch (a job
 *       array: task K runs `runner --shard K+1/N --run-dir RUN_DIR`) and
 *       merge.sbatch (`runner merge RUN_DIR`), submits the array, then the
 *       merge with --dependency=afterany:ARRAY; the job ids go to
 *       RUN_DIR/slurm-jobs.txt.
 *   runner submit --resume RUN_DIR [--partition P] [--time T] ...
 *       submits again, as one array, the shards that are missing or did not
 *       finish (never one still queued or running), and a new merge job.
 *   runner status RUN_DIR
 *       trials done per shard, finished or not, and Slurm's state of each
 *       array task; exit 0 when every shard has finished, else 1.
 *
 * sbatch, squeue, scontrol are run with argument vectors (fork + execvp,
 * never a shell), found on PATH; $RUNNER_SBATCH, $RUNNER_SQUEUE and
 * $RUNNER_SCONTROL name others (tests).  Every one is killed if it does not
 * answer in time, so neither command can hang on a dead controller. */
#include "cli/commands.h"
#include "experiment/config.h"
#include "base/csv.h"
#include "rundir/results.h"
#include "slurm/slurm.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

experiment *load_for_cli(const cli *c, const char *path); /* cmd_check.c */

#define SBATCH_TIMEOUT 60.0 /* seconds: sbatch retries a busy controller */
#define QUERY_TIMEOUT 20.0  /* squeue, scontrol */

/* ---- running Slurm's commands ------------------------------------------ */

/* The program for `name`: $env when set, else the name (searched on PATH). */
static const char *program(const char *env, const char *name)
{
    const char *v = getenv(env);
    return v && *v ? v : name;
}

/* Can `prog` be executed (a path, or a name on PATH)? */
static int can_run(const char *prog)
{
    if (strchr(prog, '/'))
        return access(prog, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    char *copy = xstrdup(path), *save = NULL;
    int found = 0;
    for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        char *p = xasprintf("%s/%s", *d ? d : ".", prog);
        struct stat st;
        found = stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
        free(p);
    }
    free(copy);
    return found;
}

enum { RUN_NOT_STARTED = -1, RUN_TIMED_OUT = -2 };

/* Runs argv (argv[0] searched on PATH) with stdin from /dev/null, its
 * stdout into *out (malloc'd), its stderr to ours or, when quiet, into
 * *out as well (squeue's and scontrol's errors are read, not shown).
 * Killed when it has not ended within timeout_s.  Its exit status (128+sig
 * when a signal ended it), RUN_NOT_STARTED (errno set) or RUN_TIMED_OUT. */
static int run_capture(char *const argv[], char **out, int quiet, double timeout_s)
{
    int pfd[2], efd[2];
    *out = NULL;
    if (pipe2(pfd, O_CLOEXEC) < 0)
        return RUN_NOT_STARTED;
    if (pipe2(efd, O_CLOEXEC) < 0) {
        close(pfd[0]);
        close(pfd[1]);
        return RUN_NOT_STARTED;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(pfd[0]);
        close(pfd[1]);
        close(efd[0]);
        close(efd[1]);
        errno = e;
        return RUN_NOT_STARTED;
    }
    if (pid == 0) {
        int in = open("/dev/null", O_RDONLY);
        if (in >= 0)
            dup2(in, 0);
        dup2(pfd[1], 1);
        if (quiet)
            dup2(pfd[1], 2);
        signal(SIGPIPE, SIG_DFL);
        execvp(argv[0], argv);
        int e = errno;
        if (write(efd[1], &e, sizeof e) < 0) {
            /* the parent sees exit 127 then */
        }
        _exit(127);
    }
    close(pfd[1]);
    close(efd[1]);
    strbuf b = {0};
    double deadline = now_seconds() + timeout_s;
    int timed_out = 0;
    for (;;) {
        int ms = (int)((deadline - now_seconds()) * 1000);
        if (ms <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd p = {.fd = pfd[0], .events = POLLIN};
        int r = poll(&p, 1, ms);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0) {
            timed_out = 1;
            break;
        }
        char buf[4096];
        ssize_t n = r > 0 ? read(pfd[0], buf, sizeof buf) : -1;
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        sb_putn(&b, buf, (size_t)n);
    }
    close(pfd[0]);
    int status = 0;
    pid_t w = 0;
    while (!timed_out && (w = waitpid(pid, &status, WNOHANG)) == 0) {
        if (now_seconds() > deadline) {
            timed_out = 1;
            break;
        }
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (timed_out) {
        kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
    int e = 0;
    ssize_t got = read(efd[0], &e, sizeof e);
    close(efd[0]);
    *out = sb_take(&b);
    if (got == (ssize_t)sizeof e) {
        errno = e;
        return RUN_NOT_STARTED;
    }
    if (timed_out)
        return RUN_TIMED_OUT;
    if (w < 0)
        return RUN_NOT_STARTED;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* ---- the run folder ------------------------------------------------------ */

static char *path_in(const char *dir, const char *name)
{
    return xasprintf("%s/%s", dir, name);
}

static int write_text(const char *dir, const char *name, const char *text)
{
    char *p = path_in(dir, name);
    int rc = write_file_atomic(p, text, strlen(text));
    if (rc < 0)
        fprintf(stderr, "runner: submit: cannot write %s: %s\n", p, strerror(errno));
    free(p);
    return rc;
}

/* Appends one line to RUN_DIR/slurm-jobs.txt. */
static int jobs_note(const char *run_dir, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int jobs_note(const char *run_dir, const char *fmt, ...)
{
    strbuf b = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    sb_putc(&b, '\n');
    char *p = path_in(run_dir, "slurm-jobs.txt");
    int fd = open(p, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    int rc = fd >= 0 && write(fd, b.s, b.len) == (ssize_t)b.len ? 0 : -1;
    if (fd >= 0 && close(fd) < 0)
        rc = -1;
    if (rc < 0)
        fprintf(stderr, "runner: submit: cannot write %s: %s\n", p, strerror(errno));
    free(p);
    sb_free(&b);
    return rc;
}

/* What RUN_DIR/slurm-jobs.txt says: the experiment file the shards run,
 * and every array job (with its task list) and merge job, oldest first. */
typedef struct job_log {
    char *experiment;
    int narr;
    char (*arr_id)[32];
    char **arr_tasks;
    char merge_id[32];
} job_log;

static void job_log_read(const char *run_dir, job_log *L)
{
    memset(L, 0, sizeof *L);
    char *p = path_in(run_dir, "slurm-jobs.txt");
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
            L->arr_id = xrealloc(L->arr_id, (size_t)(L->narr + 1) * sizeof *L->arr_id);
            L->arr_tasks = xrealloc(L->arr_tasks, (size_t)(L->narr + 1) * sizeof *L->arr_tasks);
            snprintf(L->arr_id[L->narr], sizeof L->arr_id[L->narr], "%s", id);
            L->arr_tasks[L->narr++] = xstrdup(tasks);
        } else if (sscanf(line, "merge %31[0-9]", id) == 1) {
            snprintf(L->merge_id, sizeof L->merge_id, "%s", id);
        }
    }
    free(text);
}

static void job_log_free(job_log *L)
{
    free(L->experiment);
    for (int i = 0; i < L->narr; i++)
        free(L->arr_tasks[i]);
    free(L->arr_tasks);
    free(L->arr_id);
}

/* The shard count of a run folder: job.sbatch's, else the shard folders'. */
static int run_shards(const char *run_dir)
{
    char *p = path_in(run_dir, "job.sbatch");
    char *text = read_file(p, NULL);
    free(p);
    int n = text ? slurm_script_shards(text) : 0;
    free(text);
    if (n != 0)
        return n; /* -1: more shards than runner submit writes */
    DIR *d = opendir(run_dir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        int k, nn;
        char tail;
        if (sscanf(de->d_name, "shard-%d-of-%d%c", &k, &nn, &tail) == 2 && nn > 0 &&
            nn <= SLURM_MAX_SHARDS) {
            n = nn;
            break;
        }
    }
    if (d)
        closedir(d);
    return n;
}

static char *shard_dir(const char *run_dir, int k, int n)
{
    return xasprintf("%s/shard-%d-of-%d", run_dir, k, n);
}

/* 1 when the shard's meta.json says "finished": true. */
static int shard_finished(const char *dir)
{
    char *p = path_in(dir, "meta.json");
    json_object *m = access(p, R_OK) == 0 ? json_object_from_file(p) : NULL;
    free(p);
    json_object *f;
    int done = m && json_object_object_get_ex(m, "finished", &f) && json_object_get_boolean(f);
    json_object_put(m);
    return done;
}

/* Trials saved in the shard (rows of its trials.csv; csv_read drops a
 * torn last line); -1 without one. */
static long long shard_rows(const char *dir)
{
    char *p = path_in(dir, "trials.csv");
    csv_table t;
    int rc = csv_read(p, &t);
    free(p);
    if (rc < 0)
        return -1;
    long long rows = t.nrows - 1;
    csv_free(&t);
    return rows > 0 ? rows : 0;
}

/* ---- Slurm's view of the jobs ---------------------------------------------- */

typedef struct slurm_view {
    char **state;   /* per shard (0-based): Slurm's state of its newest task, or NULL */
    char **task;    /* "JOBID_K" of that task, or NULL (never submitted) */
    char *merge_state;
    int queried;    /* squeue could be asked */
    char *problem;  /* why not, or NULL */
} slurm_view;

static void view_free(slurm_view *v, int n)
{
    for (int k = 0; k < n; k++) {
        free(v->state[k]);
        free(v->task[k]);
    }
    free(v->state);
    free(v->task);
    free(v->merge_state);
    free(v->problem);
}

/* Asks squeue (then scontrol, for tasks no longer queued) about the newest
 * array task of each shard, and about the newest merge job. */
static void slurm_query(const job_log *L, int n, slurm_view *v)
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
    const char *squeue = program("RUNNER_SQUEUE", "squeue");
    const char *scontrol = program("RUNNER_SCONTROL", "scontrol");
    if (!L->narr && !L->merge_id[0]) {
        free(owner);
        return;
    }
    if (!can_run(squeue)) {
        v->problem = xasprintf("%s not found", squeue);
        free(owner);
        return;
    }
    v->queried = 1;
    int have_scontrol = can_run(scontrol);
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

/* ---- submitting -------------------------------------------------------------- */

/* sbatch --parsable [args...] SCRIPT: the job id into id. */
static int sbatch(char **args, int nargs, const char *script, char *id, size_t len)
{
    const char *prog = program("RUNNER_SBATCH", "sbatch");
    char **argv = xcalloc((size_t)nargs + 4, sizeof *argv);
    int a = 0;
    argv[a++] = (char *)prog;
    argv[a++] = "--parsable";
    for (int i = 0; i < nargs; i++)
        argv[a++] = args[i];
    argv[a++] = (char *)script;
    char *out;
    int rc = run_capture(argv, &out, 0, SBATCH_TIMEOUT);
    free(argv);
    if (rc == 0 && slurm_parse_jobid(out, id, len) == 0) {
        free(out);
        return 0;
    }
    if (rc == RUN_NOT_STARTED)
        fprintf(stderr, "runner: submit: cannot run %s: %s\n", prog, strerror(errno));
    else if (rc == RUN_TIMED_OUT)
        fprintf(stderr, "runner: submit: %s did not answer in %.0f s\n", prog, SBATCH_TIMEOUT);
    else if (rc != 0)
        fprintf(stderr, "runner: submit: %s %s failed (exit %d)\n", prog, script, rc);
    else
        fprintf(stderr, "runner: submit: %s printed no job id: '%.80s'\n", prog, out);
    free(out);
    return -1;
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

/* Submits job.sbatch (as it is, or with resumed: only the array tasks idx
 * and the options given now), then merge.sbatch after it; notes both in
 * slurm-jobs.txt and says so. */
static int submit_jobs(const char *run_dir, const char *name, const int *idx, int nidx, int n,
                       const slurm_opts *o, int resumed)
{
    strbuf tl = {0}, sl = {0};
    slurm_index_list(&tl, idx, nidx);
    int *one = xmalloc((size_t)nidx * sizeof *one);
    for (int i = 0; i < nidx; i++)
        one[i] = idx[i] + 1;
    slurm_index_list(&sl, one, nidx);
    free(one);
    const char *tasks = tl.s;
    char *job = path_in(run_dir, "job.sbatch");
    char *merge = path_in(run_dir, "merge.sbatch");
    int rc = EXIT_OK;
    char aid[32], mid[32];
    char **args = xcalloc((size_t)o->nextra + 8, sizeof *args);
    int na = 0;
    if (resumed) {
        args[na++] = xasprintf("--array=%s", tasks);
        na += override_args(o, 1, args + na);
    }
    if (sbatch(args, na, job, aid, sizeof aid) < 0) {
        rc = EXIT_INVALID;
        goto out;
    }
    jobs_note(run_dir, "array %s %s", aid, tasks);
    free_args(args, na);
    na = 0;
    args[na++] = xasprintf("--dependency=afterany:%s", aid);
    if (resumed)
        na += override_args(o, 0, args + na);
    strbuf q = {0};
    sh_quote(&q, run_dir);
    if (sbatch(args, na, merge, mid, sizeof mid) < 0) {
        fprintf(stderr,
                "runner: submit: the shards are queued (job %s) but the merge job is not; "
                "once they have run:  runner merge %s\n",
                aid, q.s);
        sb_free(&q);
        rc = EXIT_TRIALS_FAILED;
        goto out;
    }
    jobs_note(run_dir, "merge %s after %s", mid, aid);
    if (resumed)
        printf("%s: resubmitted shard%s %s of %d as Slurm job %s (array task%s %s); merge job %s "
               "runs after it\n",
               name, nidx == 1 ? "" : "s", sl.s, n, aid, nidx == 1 ? "" : "s", tasks, mid);
    else
        printf("%s: submitted %d shard%s as Slurm job %s (array tasks %s); merge job %s runs after "
               "it\n",
               name, n, n == 1 ? "" : "s", aid, tasks, mid);
    printf("  run folder: %s\n  progress:   runner status %s\n  cancel:     scancel %s %s\n",
           run_dir, q.s, aid, mid);
    sb_free(&q);
out:
    free_args(args, na);
    free(args);
    free(job);
    free(merge);
    sb_free(&tl);
    sb_free(&sl);
    return rc;
}

/* ---- options ------------------------------------------------------------------ */

typedef struct submit_args {
    const char *target; /* FILE.yaml, or RUN_DIR with --resume */
    int resume, shards, allow_unsafe_lua;
    const char *output;
    slurm_opts o;
} submit_args;

static const char *const submit_options[] = {
    "--shards", "--partition", "--time", "--gpus-per-shard", "--sbatch-arg", "--output",
    "--resume", "--allow-unsafe-lua", "--help", NULL};

static void submit_usage(FILE *f)
{
    fputs("usage: runner submit FILE.yaml [--shards N] [--partition P] [--time T]\n"
          "                     [--gpus-per-shard G] [--sbatch-arg ARG]... [--output DIR]\n"
          "       runner submit --resume RUN_DIR [--partition P] [--time T] [--gpus-per-shard G]\n"
          "                     [--sbatch-arg ARG]...\n"
          "       runner status RUN_DIR\n"
          "  --shards N          array tasks, each runs the trials whose number % N is its own (default 4)\n"
          "  --partition P       Slurm partition\n"
          "  --time T            time limit per shard: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S\n"
          "  --gpus-per-shard G  --gres=gpu:G for each shard\n"
          "  --sbatch-arg ARG    one more sbatch option, e.g. --sbatch-arg=--mem=8G (repeatable)\n"
          "  --output DIR        results folder (default ./results)\n"
          "  --resume            submit the missing and unfinished shards of RUN_DIR again\n",
          f);
}

static int parse_int(const char *v, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi)
        return -1;
    *out = (int)x;
    return 0;
}

/* 0 ok, 1 help printed, -1 error (message printed). */
static int submit_parse(int nargs, char **args, submit_args *s)
{
    memset(s, 0, sizeof *s);
    s->output = "results";
    s->o.extra = xcalloc((size_t)nargs + 1, sizeof *s->o.extra);
    int only_args = 0, ntargets = 0, shards_given = 0, output_given = 0;
    for (int i = 0; i < nargs; i++) {
        const char *a = args[i];
        if (only_args || a[0] != '-' || !strcmp(a, "-")) {
            s->target = a;
            ntargets++;
            continue;
        }
        if (!strcmp(a, "--")) {
            only_args = 1;
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            submit_usage(stdout);
            return 1;
        }
        if (!strcmp(a, "--resume")) {
            s->resume = 1;
            continue;
        }
        if (!strncmp(a, "--resume=", 9)) { /* --resume=RUN_DIR */
            s->resume = 1;
            s->target = a + 9;
            ntargets++;
            continue;
        }
        if (!strcmp(a, "--allow-unsafe-lua")) {
            s->allow_unsafe_lua = s->o.allow_unsafe_lua = 1;
            continue;
        }
        size_t nl = strcspn(a, "=");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)nl, a);
        int known = 0;
        for (int k = 0; submit_options[k]; k++)
            known |= !strcmp(submit_options[k], name);
        if (!known || !strcmp(name, "--resume") || !strcmp(name, "--help") ||
            !strcmp(name, "--allow-unsafe-lua")) {
            const char *sug = closest_word(name, submit_options);
            fprintf(stderr, "runner: submit: unknown option '%s'%s%s%s\n", a[nl] ? name : a,
                    sug ? "; did you mean '" : "", sug ? sug : "", sug ? "'?" : "");
            return -1;
        }
        const char *v;
        if (a[nl] == '=') {
            v = a + nl + 1;
        } else if (i + 1 < nargs) {
            v = args[++i];
        } else {
            fprintf(stderr, "runner: submit: %s needs a value\n", name);
            return -1;
        }
        char err[512];
        if (!strcmp(name, "--shards")) {
            if (parse_int(v, 1, SLURM_MAX_SHARDS, &s->shards) < 0) {
                fprintf(stderr, "runner: submit: --shards takes a whole number from 1 to 100000, not '%s'\n", v);
                return -1;
            }
            shards_given = 1;
        } else if (!strcmp(name, "--gpus-per-shard")) {
            if (parse_int(v, 0, 1024, &s->o.gpus) < 0) {
                fprintf(stderr, "runner: submit: --gpus-per-shard takes a whole number >= 0, not '%s'\n", v);
                return -1;
            }
        } else if (!strcmp(name, "--time")) {
            if (!slurm_time_valid(v)) {
                fprintf(stderr,
                        "runner: submit: --time '%s' is not a Slurm time limit: minutes, MM:SS, "
                        "HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS (e.g. 90, 1:30:00, 2-00:00:00)\n",
                        v);
                return -1;
            }
            s->o.time = v;
        } else if (!strcmp(name, "--partition")) {
            if (!*v || strpbrk(v, "\n\r")) {
                fprintf(stderr, "runner: submit: --partition needs a partition name\n");
                return -1;
            }
            s->o.partition = v;
        } else if (!strcmp(name, "--sbatch-arg")) {
            if (slurm_extra_valid(v, err, sizeof err) < 0) {
                fprintf(stderr, "runner: submit: %s\n", err);
                return -1;
            }
            s->o.extra[s->o.nextra++] = (char *)v;
        } else if (!strcmp(name, "--output")) {
            if (!*v) {
                fprintf(stderr, "runner: submit: --output needs a folder\n");
                return -1;
            }
            s->output = v;
            output_given = 1;
        }
    }
    if (ntargets != 1) {
        fprintf(stderr, "runner: submit: %s\n",
                ntargets ? "one experiment file (or, with --resume, one run folder) at a time"
                : s->resume ? "--resume needs the RUN_DIR that runner submit made"
                            : "needs an experiment file (runner submit FILE.yaml)");
        return -1;
    }
    if (s->resume && (shards_given || output_given)) {
        fprintf(stderr, "runner: submit: --resume keeps the run's folder and shard count; "
                        "--shards and --output go with a new submission\n");
        return -1;
    }
    if (!shards_given)
        s->shards = 4;
    return 0;
}

/* ---- runner submit FILE.yaml ------------------------------------------------------ */

/* Does the experiment name files beside it (Lua workloads, hooks)? */
static int uses_lua(const experiment *e)
{
    if (e->hooks)
        return 1;
    int wc = experiment_column(e, "workload");
    if (wc < 0)
        return 0;
    const value *v = &e->cols[wc].fixed;
    if (v->kind == VAL_STR && !strncmp(v->text, "lua:", 4))
        return 1;
    for (int a = 0; a < e->naxes; a++)
        for (int j = 0; j < e->axes[a].nelems; j++)
            for (int k = 0; k < e->axes[a].elems[j].nkv; k++) {
                const axis_kv *kv = &e->axes[a].elems[j].kv[k];
                if (kv->column == wc && kv->v.kind == VAL_STR && !strncmp(kv->v.text, "lua:", 4))
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

static void run_id_now(char *out, size_t n)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(out, n, "%Y%m%dT%H%M%SZ", &tm);
}

/* Makes OUTPUT/<name>/<run-id>/ (absolute, checked for job scripts).
 * `latest` is not moved here: it is earned by the merge (cmd_merge.c). */
static char *make_run_dir(const char *output, const char *name, char **run_id)
{
    char *exp_dir = xasprintf("%s/%s", output, name);
    char err[1024];
    if (make_dirs(exp_dir) < 0 || access(exp_dir, W_OK) < 0) {
        fprintf(stderr, "runner: submit: cannot write to the output folder %s: %s\n", exp_dir,
                strerror(errno));
        free(exp_dir);
        return NULL;
    }
    char *abs = realpath(exp_dir, NULL);
    free(exp_dir);
    if (!abs || slurm_path_valid(abs, err, sizeof err) < 0) {
        fprintf(stderr, "runner: submit: %s\n", abs ? err : strerror(errno));
        free(abs);
        return NULL;
    }
    char id[48];
    run_id_now(id, sizeof id);
    char *dir = xasprintf("%s/%s", abs, id);
    for (int k = 2; mkdir(dir, 0777) < 0; k++) {
        if (errno != EEXIST || k > 1000) {
            fprintf(stderr, "runner: submit: cannot create %s: %s\n", dir, strerror(errno));
            free(dir);
            free(abs);
            return NULL;
        }
        free(dir);
        dir = xasprintf("%s/%s-%d", abs, id, k);
    }
    *run_id = xstrdup(strrchr(dir, '/') + 1);
    free(abs);
    return dir;
}

static int submit_new(submit_args *s)
{
    cli c = {.allow_unsafe_lua = s->allow_unsafe_lua};
    experiment *e = load_for_cli(&c, s->target);
    if (!e)
        return EXIT_INVALID;
    int rc = EXIT_INVALID;
    char err[1024];
    char *run_dir = NULL, *run_id = NULL, *runner = NULL, *exp_path = NULL;
    char *job = NULL, *merge = NULL;
    int n = s->shards;
    if (e->ntrials < n) {
        n = e->ntrials > 0 ? (int)e->ntrials : 1;
        fprintf(stderr, "runner: submit: %s has %lld trial%s: %d shard%s\n", s->target,
                e->ntrials, e->ntrials == 1 ? "" : "s", n, n == 1 ? "" : "s");
    }
    runner = realpath("/proc/self/exe", NULL);
    if (!runner || slurm_path_valid(runner, err, sizeof err) < 0) {
        fprintf(stderr, "runner: submit: where is this runner? %s\n",
                runner ? err : strerror(errno));
        goto out;
    }
    if (!(run_dir = make_run_dir(s->output, e->name, &run_id)))
        goto out;
    if (write_text(run_dir, "experiment.yaml", e->text) < 0)
        goto out;
    char *copy = path_in(run_dir, "experiment.yaml");
    const char *why;
    exp_path = experiment_for_jobs(e, copy, s->target, &why);
    free(copy);
    if (!exp_path || slurm_path_valid(exp_path, err, sizeof err) < 0) {
        fprintf(stderr, "runner: submit: %s\n", exp_path ? err : strerror(errno));
        goto out;
    }
    if (why)
        fprintf(stderr,
                "runner: submit: note: the shards run %s itself, as %s: leave it (and its files) "
                "as they are until they have run\n",
                exp_path, why);
    job = slurm_job_script(e->name, run_dir, runner, exp_path, n, &s->o);
    merge = slurm_merge_script(e->name, run_dir, runner, &s->o);
    if (write_text(run_dir, "job.sbatch", job) < 0 || write_text(run_dir, "merge.sbatch", merge) < 0)
        goto out;
    if (jobs_note(run_dir, "# runner submit: the Slurm jobs of this run, oldest first") < 0 ||
        jobs_note(run_dir, "experiment %s", exp_path) < 0 || jobs_note(run_dir, "shards %d", n) < 0)
        goto out;
    const char *sb = program("RUNNER_SBATCH", "sbatch");
    if (!can_run(sb)) {
        strbuf j = {0}, m = {0};
        char *p = path_in(run_dir, "job.sbatch");
        sh_quote(&j, p);
        free(p);
        p = path_in(run_dir, "merge.sbatch");
        sh_quote(&m, p);
        free(p);
        fprintf(stderr,
                "runner: submit: %s not found: is this a Slurm login node? The job scripts are "
                "written; submit them by hand with\n"
                "  jid=$(sbatch --parsable %s) && sbatch --dependency=afterany:${jid%%%%;*} %s\n",
                sb, j.s, m.s);
        sb_free(&j);
        sb_free(&m);
        goto out;
    }
    int *all = xmalloc((size_t)n * sizeof *all);
    for (int k = 0; k < n; k++)
        all[k] = k;
    rc = submit_jobs(run_dir, e->name, all, n, n, &s->o, 0);
    free(all);
out:
    free(job);
    free(merge);
    free(exp_path);
    free(runner);
    free(run_id);
    free(run_dir);
    experiment_free(e);
    return rc;
}

/* ---- runner submit --resume RUN_DIR ----------------------------------------------- */

static char *open_run_dir(const char *dir, const char *cmd)
{
    char *abs = realpath(dir, NULL);
    struct stat st;
    if (!abs || stat(abs, &st) < 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "runner: %s: cannot open %s: %s\n", cmd, dir,
                abs ? "not a folder" : strerror(errno));
        free(abs);
        return NULL;
    }
    return abs;
}

static int submit_resume(submit_args *s)
{
    char *run_dir = open_run_dir(s->target, "submit --resume");
    if (!run_dir)
        return EXIT_INVALID;
    int rc = EXIT_INVALID;
    char *jp = path_in(run_dir, "job.sbatch");
    char *text = read_file(jp, NULL);
    int n = text ? slurm_script_shards(text) : 0;
    char name[256] = "run";
    const char *jn = text ? strstr(text, "--job-name=") : NULL;
    if (jn)
        snprintf(name, sizeof name, "%.*s", (int)strcspn(jn + 11, " \t\r\n\""), jn + 11);
    free(text);
    job_log L;
    job_log_read(run_dir, &L);
    slurm_view v = {0};
    int *todo = NULL, ntodo = 0;
    if (n < 0) {
        fprintf(stderr,
                "runner: submit --resume: %s asks for more than %d shards, more than runner "
                "submit writes: the file was edited\n",
                jp, SLURM_MAX_SHARDS);
        goto out;
    }
    if (n == 0) {
        fprintf(stderr, "runner: submit --resume: %s has no job.sbatch of runner submit\n", jp);
        goto out;
    }
    todo = xmalloc((size_t)n * sizeof *todo);
    for (int k = 1; k <= n; k++) {
        char *d = shard_dir(run_dir, k, n);
        if (!shard_finished(d))
            todo[ntodo++] = k - 1;
        free(d);
    }
    if (!ntodo) {
        strbuf q = {0};
        sh_quote(&q, run_dir);
        printf("every shard of %s has finished: nothing to submit (join them with: runner merge %s)\n",
               run_dir, q.s);
        sb_free(&q);
        rc = EXIT_OK;
        goto out;
    }
    /* a shard still queued or running must not run twice at once */
    slurm_query(&L, n, &v);
    if (v.problem && L.narr) {
        fprintf(stderr,
                "runner: submit --resume: cannot tell whether the shards still run (%s); "
                "try again when squeue answers\n",
                v.problem);
        goto out;
    }
    strbuf busy = {0};
    for (int i = 0; i < ntodo; i++) {
        int k = todo[i];
        if (v.state[k] && !slurm_state_ended(v.state[k]))
            sb_printf(&busy, "%s%d (%s %s)", busy.len ? ", " : "", k + 1, v.task[k], v.state[k]);
    }
    if (busy.len) {
        int many = strchr(busy.s, ',') != NULL;
        fprintf(stderr,
                "runner: submit --resume: shard%s %s %s still in the queue: wait for %s to end, "
                "or scancel %s\n",
                many ? "s" : "", busy.s, many ? "are" : "is", many ? "them" : "it",
                many ? "them" : "it");
        sb_free(&busy);
        goto out;
    }
    sb_free(&busy);
    const char *sb = program("RUNNER_SBATCH", "sbatch");
    if (!can_run(sb)) {
        fprintf(stderr, "runner: submit --resume: %s not found: is this a Slurm login node?\n", sb);
        goto out;
    }
    rc = submit_jobs(run_dir, name, todo, ntodo, n, &s->o, 1);
out:
    view_free(&v, v.state ? n : 0);
    job_log_free(&L);
    free(todo);
    free(jp);
    free(run_dir);
    return rc;
}

int cmd_submit_main(int nargs, char **args)
{
    submit_args s;
    int p = submit_parse(nargs, args, &s);
    int rc = p < 0 ? EXIT_INVALID : p > 0 ? EXIT_OK : s.resume ? submit_resume(&s) : submit_new(&s);
    free(s.o.extra);
    return rc;
}

/* ---- runner status RUN_DIR ---------------------------------------------------------- */

/* Trials per shard, from the experiment the shards run (its copy's text,
 * read where the jobs read it), through experiment_shard.  NULL when it
 * cannot be loaded. */
static long long *shard_totals(const char *run_dir, const job_log *L, int n)
{
    char *copy = path_in(run_dir, "experiment.yaml");
    size_t len;
    char *text = read_file(copy, &len);
    if (!text && L->experiment) /* no copy: the original */
        text = read_file(L->experiment, &len);
    long long *tot = NULL;
    if (text) {
        diags d = {0};
        experiment *e = experiment_parse(L->experiment ? L->experiment : copy, text, len, &d);
        diag_free(&d);
        if (e) {
            tot = xcalloc((size_t)n, sizeof *tot);
            long long nt = e->ntrials;
            size_t na = (size_t)e->naxes;
            long long *ids = xmalloc((size_t)(nt + 1) * sizeof *ids);
            uint32_t *ch = xmalloc(((size_t)nt * na + 1) * sizeof *ch);
            memcpy(ids, e->ids, (size_t)nt * sizeof *ids);
            memcpy(ch, e->choices, (size_t)nt * na * sizeof *ch);
            for (int k = 1; k <= n; k++) {
                memcpy(e->ids, ids, (size_t)nt * sizeof *ids);
                memcpy(e->choices, ch, (size_t)nt * na * sizeof *ch);
                e->ntrials = nt;
                experiment_shard(e, k, n);
                tot[k - 1] = e->ntrials;
            }
            memcpy(e->ids, ids, (size_t)nt * sizeof *ids);
            memcpy(e->choices, ch, (size_t)nt * na * sizeof *ch);
            e->ntrials = nt;
            free(ids);
            free(ch);
            experiment_free(e);
        }
    }
    free(text);
    free(copy);
    return tot;
}

int cmd_status_main(int nargs, char **args)
{
    const char *target = NULL;
    for (int i = 0; i < nargs; i++) {
        if (!strcmp(args[i], "--help") || !strcmp(args[i], "-h")) {
            submit_usage(stdout);
            return EXIT_OK;
        }
        if (args[i][0] == '-' && strcmp(args[i], "-")) {
            fprintf(stderr, "runner: status: unknown option '%s'\n", args[i]);
            return EXIT_INVALID;
        }
        if (target) {
            fprintf(stderr, "runner: status takes one RUN_DIR\n");
            return EXIT_INVALID;
        }
        target = args[i];
    }
    if (!target) {
        fprintf(stderr, "runner: status needs RUN_DIR\n");
        return EXIT_INVALID;
    }
    char *run_dir = open_run_dir(target, "status");
    if (!run_dir)
        return EXIT_INVALID;
    int n = run_shards(run_dir);
    if (n < 0) {
        fprintf(stderr,
                "runner: status: %s/job.sbatch asks for more than %d shards, more than runner "
                "submit writes: the file was edited\n",
                run_dir, SLURM_MAX_SHARDS);
        free(run_dir);
        return EXIT_INVALID;
    }
    if (n == 0) {
        fprintf(stderr,
                "runner: status: %s has neither a job.sbatch of runner submit nor shard-K-of-N "
                "folders\n",
                run_dir);
        free(run_dir);
        return EXIT_INVALID;
    }
    job_log L;
    job_log_read(run_dir, &L);
    long long *tot = shard_totals(run_dir, &L, n);
    slurm_view v;
    slurm_query(&L, n, &v);
    int nfin = 0;
    long long done_all = 0, tot_all = 0;
    printf("%s: %d shard%s\n", run_dir, n, n == 1 ? "" : "s");
    printf("%-12s %-13s %-12s %s\n", "shard", "trials", "state", L.narr ? "slurm" : "");
    for (int k = 1; k <= n; k++) {
        char *d = shard_dir(run_dir, k, n);
        long long rows = shard_rows(d);
        int fin = rows >= 0 && shard_finished(d);
        free(d);
        nfin += fin;
        char sh[32], tr[64];
        snprintf(sh, sizeof sh, "%d/%d", k, n);
        if (tot)
            snprintf(tr, sizeof tr, "%lld/%lld", rows > 0 ? rows : 0, tot[k - 1]);
        else
            snprintf(tr, sizeof tr, "%lld/?", rows > 0 ? rows : 0);
        done_all += rows > 0 ? rows : 0;
        tot_all += tot ? tot[k - 1] : 0;
        const char *state = rows < 0 ? "not started" : fin ? "finished" : "unfinished";
        printf("%-12s %-13s %-12s", sh, tr, state);
        if (L.narr) {
            const char *task = v.task[k - 1];
            if (!task)
                printf(" not submitted");
            else if (v.state[k - 1])
                printf(" job %s: %s", task, v.state[k - 1]);
            else if (v.queried && !v.problem)
                printf(" job %s: unknown (not in the queue)", task);
            else
                printf(" job %s: unknown", task);
        }
        putchar('\n');
    }
    if (L.merge_id[0])
        printf("merge job %s: %s\n", L.merge_id,
               v.merge_state                ? v.merge_state
               : v.queried && !v.problem ? "unknown (not in the queue)"
                                         : "unknown");
    if (v.problem)
        printf("Slurm's states are unknown: %s\n", v.problem);
    /* the merged results, if runner merge has run */
    char *mp = path_in(run_dir, "meta.json");
    json_object *m = access(mp, R_OK) == 0 ? json_object_from_file(mp) : NULL;
    json_object *sh, *f;
    if (m && json_object_object_get_ex(m, "shards", &sh))
        printf("merged: %s\n", json_object_object_get_ex(m, "finished", &f) &&
                                       json_object_get_boolean(f)
                                   ? "complete"
                                   : "incomplete (merge again once every shard has finished)");
    else
        printf("merged: not yet\n");
    json_object_put(m);
    free(mp);
    if (tot)
        printf("%d of %d shards finished; %lld of %lld trials done\n", nfin, n, done_all, tot_all);
    else
        printf("%d of %d shards finished; %lld trials done (the experiment file could not be "
               "loaded to count them all)\n",
               nfin, n, done_all);
    if (nfin < n) {
        strbuf q = {0};
        sh_quote(&q, run_dir);
        char *jb = path_in(run_dir, "job.sbatch");
        if (access(jb, F_OK) == 0)
            printf("resubmit the unfinished shards with: runner submit --resume %s\n", q.s);
        free(jb);
        sb_free(&q);
    }
    view_free(&v, n);
    free(tot);
    job_log_free(&L);
    free(run_dir);
    return nfin == n ? EXIT_OK : EXIT_TRIALS_FAILED;
}
