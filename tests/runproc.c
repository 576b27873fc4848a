/* runproc.c - see runproc.h. */
#include "runproc.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const char *runner_bin(void)
{
    const char *b = getenv("RUNNER_BIN");
    cr_assert(b, "RUNNER_BIN is not set (run through make test)");
    return b;
}

char *tmpdir(void)
{
    char tmpl[] = "/tmp/runner-test-XXXXXX";
    char *d = mkdtemp(tmpl);
    cr_assert_not_null(d);
    return strdup(d);
}

void write_text(const char *dir, const char *name, const char *text)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

void write_file(const char *path, const char *text, int exec)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    if (exec)
        chmod(path, 0755);
}

void rm_rf(const char *dir)
{
    pid_t pid = fork();
    if (pid == 0) {
        execlp("rm", "rm", "-rf", "--", dir, (char *)NULL);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
}

static void drain(int fd, char *buf, size_t cap, size_t *len)
{
    ssize_t n;
    while (*len + 1 < cap && (n = read(fd, buf + *len, cap - 1 - *len)) > 0)
        *len += (size_t)n;
    buf[*len] = '\0';
}

pid_t start(char *const args[], int *out_fd, int *err_fd)
{
    return start_in(NULL, NULL, args, out_fd, err_fd);
}

pid_t start_in(const char *cwd, const char *env, char *const args[], int *out_fd, int *err_fd)
{
    const char *bin = runner_bin(); /* assert here, not in the child */
    int o[2], e[2];
    cr_assert_eq(pipe(o), 0);
    cr_assert_eq(pipe(e), 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(o[1], 1);
        dup2(e[1], 2);
        close(o[0]);
        close(e[0]);
        if (cwd && chdir(cwd) < 0)
            _exit(126);
        if (env)
            putenv((char *)env);
        char *argv[32];
        int n = 0;
        argv[n++] = (char *)bin;
        for (int i = 0; args[i] && n < 31; i++)
            argv[n++] = args[i];
        argv[n] = NULL;
        execv(argv[0], argv);
        _exit(127);
    }
    close(o[1]);
    close(e[1]);
    *out_fd = o[0];
    *err_fd = e[0];
    return pid;
}

void finish(pid_t pid, int ofd, int efd, proc_out *r)
{
    size_t ol = 0, el = 0;
    /* small outputs: read stderr fully, then stdout (no deadlock at our sizes) */
    drain(efd, r->err, sizeof r->err, &el);
    drain(ofd, r->out, sizeof r->out, &ol);
    close(ofd);
    close(efd);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

void run(char *const args[], proc_out *r)
{
    int o, e;
    pid_t pid = start(args, &o, &e);
    finish(pid, o, e, r);
}

/* run_yaml_in, --no-plots or not. */
static void run_in(const char *d, const char *yaml, int no_plots, const char *const *extra,
                   proc_out *r)
{
    write_text(d, "e.yaml", yaml);
    char exp[4096], rd[4096];
    snprintf(exp, sizeof exp, "%s/e.yaml", d);
    snprintf(rd, sizeof rd, "%s/run", d);
    char *args[32] = {"--quiet", "--run-dir", rd};
    int n = 3;
    if (no_plots)
        args[n++] = "--no-plots";
    for (int i = 0; extra && extra[i] && n < 30; i++)
        args[n++] = (char *)extra[i];
    args[n++] = exp;
    args[n] = NULL;
    run(args, r);
}

void run_yaml_in(const char *d, const char *yaml, const char *const *extra, proc_out *r)
{
    run_in(d, yaml, 1, extra, r);
}

void run_drawn_in(const char *d, const char *yaml, const char *const *extra, proc_out *r)
{
    run_in(d, yaml, 0, extra, r);
}

char *run_yaml(const char *yaml, const char *const *extra, proc_out *r)
{
    char *d = tmpdir();
    run_yaml_in(d, yaml, extra, r);
    return d;
}

void read_trials(const char *d, csv_table *t)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/run/trials.csv", d);
    cr_assert_eq(csv_read(p, t), 0, "no %s", p);
}

void expect_exit(char *const args[], int status, const char *msg)
{
    proc_out r;
    run(args, &r);
    cr_assert_eq(r.status, status, "%s: exit %d: %s", args[0], r.status, r.err);
    cr_assert(strstr(r.err, msg), "%s: want '%s' in: %s", args[0], msg, r.err);
}

void run_trials_in(const char *d, const char *yaml, int want, proc_out *r, csv_table *t)
{
    run_yaml_in(d, yaml, NULL, r);
    cr_assert_eq(r->status, want, "%s", r->err);
    read_trials(d, t);
}

char *run_trials(const char *yaml, int want, proc_out *r, csv_table *t)
{
    char *d = tmpdir();
    run_trials_in(d, yaml, want, r, t);
    return d;
}

void trials_done(csv_table *t, char *d)
{
    csv_free(t);
    rm_rf(d);
    free(d);
}

char *dir_with(const char *name, const char *text)
{
    char *d = tmpdir();
    write_text(d, name, text);
    return d;
}

const char *cell(const csv_table *t, int row, const char *col)
{
    int c = csv_col(t, col);
    cr_assert(c >= 0, "no column %s", col);
    cr_assert(row < t->nrows, "no row %d: %d rows", row, t->nrows);
    return c < t->nfields[row] ? t->rows[row][c] : "";
}

double cell_num(const csv_table *t, int row, const char *col)
{
    const char *s = cell(t, row, col);
    return *s ? atof(s) : NAN;
}

void expect_trial(const csv_table *t, int row, const char *status, const char *reason)
{
    const char *why = cell(t, row, "reason");
    cr_assert_str_eq(cell(t, row, "status"), status, "trial row %d: %s", row, why);
    if (reason)
        cr_assert(strstr(why, reason), "trial row %d: reason '%s', want '%s'", row, why, reason);
}

void expect_statuses(const csv_table *t, const char *list)
{
    int row = 1;
    for (const char *p = list; *p; row++) {
        size_t n = strcspn(p, "|");
        char want[1024];
        snprintf(want, sizeof want, "%.*s", (int)n, p);
        cr_assert_lt(row, t->nrows, "%d trials, want %s", t->nrows - 1, list);
        char *why = strstr(want, ": ");
        if (why)
            *why = '\0';
        expect_trial(t, row, want, why ? why + 2 : NULL);
        p += n + (p[n] == '|');
    }
    cr_assert_eq(t->nrows, row, "%d trials, want %s", t->nrows - 1, list);
}

void expect_parts(const char *text, const char *const *parts)
{
    for (; *parts; parts++)
        cr_assert(strstr(text, *parts), "want '%s' in:\n%s", *parts, text);
}

void skip_unless_timing(void)
{
    if (!getenv("RUNNER_TIMING_TESTS"))
        cr_skip_test("timing test: run alone by make test (RUNNER_TIMING_TESTS=1)");
}

int proc_running(long pid)
{
    char p[64], buf[512];
    snprintf(p, sizeof p, "/proc/%ld/stat", pid);
    FILE *f = fopen(p, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *rp = strrchr(buf, ')');
    return rp && rp[1] == ' ' && rp[2] != 'Z' && rp[2] != 'X';
}
