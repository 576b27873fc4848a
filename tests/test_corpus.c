/* test_corpus.c - `runner validate` against the file corpus, as a user runs it.
 *
 * tests/bad/NAME.yaml  + NAME.expect: line 1 the exit status (2), line 2 a
 *                      substring that stderr must contain, `{FILE}` standing
 *                      for the path given on the command line (GCC-style
 *                      `FILE:LINE:COL: error: MESSAGE`).
 * tests/good/NAME.yaml + NAME.expect: line 1 the exit status (0), line 2 a
 *                      substring of stdout (`{FILE}: N trials`).
 *
 * Each file runs in a child process (fork/exec of $RUNNER_BIN, current
 * directory "/" so that relative paths must resolve against the file's own
 * folder) with a 10 s limit; taking more than 3 s counts as a failure too
 * (alias bombs and deep nesting must fail fast).  Every mismatch is
 * reported, then the test fails once; a runner killed by a signal is always
 * a failure.
 *
 * known_bugs[] lists corpus files whose expectation the current runner does
 * not meet (each is a reported bug); the main tests skip them and the
 * disabled test corpus.known_bugs checks exactly those. */
#include <criterion/criterion.h>
#include <criterion/logging.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RUN_TIMEOUT_MS 10000
#define MAX_CAPTURE (1 << 20)
#define SLOW_MS 3000 /* every file validates in milliseconds; alias bombs included */

/* Files the current runner gets wrong: remove an entry once its bug is fixed. */
static const char *const known_bugs[] = {
    /* none open: add "bad/FILE.yaml" here with a comment when one is found */
    NULL,
};

static int is_known_bug(const char *rel)
{
    for (int i = 0; known_bugs[i]; i++)
        if (!strcmp(known_bugs[i], rel))
            return 1;
    return 0;
}

/* ---- small string buffer ---------------------------------------------------- */

typedef struct buf {
    char *s;
    size_t len, cap;
} buf;

static void buf_putn(buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        b->s = realloc(b->s, cap);
        cr_assert(b->s, "out of memory");
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void buf_puts(buf *b, const char *s)
{
    buf_putn(b, s, strlen(s));
}

static void buf_printf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void buf_printf(buf *b, const char *fmt, ...)
{
    char tmp[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    buf_puts(b, tmp);
}

static const char *buf_str(const buf *b)
{
    return b->s ? b->s : "";
}

/* ---- environment ------------------------------------------------------------ */

static const char *env_path(const char *name)
{
    const char *v = getenv(name);
    cr_assert(v && *v, "%s is not set (run through `make test`)", name);
    cr_assert(v[0] == '/', "%s must be an absolute path, not '%s'", name, v);
    return v;
}

/* ---- running the runner ----------------------------------------------------- */

typedef struct run_result {
    int exited, status;   /* WIFEXITED, WEXITSTATUS */
    int signaled, signum; /* WIFSIGNALED, WTERMSIG */
    int timed_out;
    buf out, err;
} run_result;

static void run_free(run_result *r)
{
    free(r->out.s);
    free(r->err.s);
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Runs `$RUNNER_BIN validate FILE` with stdout and stderr captured. */
static run_result run_validate(const char *file)
{
    const char *bin = env_path("RUNNER_BIN");
    run_result r = {0};
    int po[2], pe[2];
    cr_assert(pipe2(po, O_CLOEXEC) == 0 && pipe2(pe, O_CLOEXEC) == 0, "pipe: %s",
              strerror(errno));
    pid_t pid = fork();
    cr_assert(pid >= 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, 0);
        dup2(po[1], 1);
        dup2(pe[1], 2);
        if (chdir("/") != 0)
            _exit(126);
        execl(bin, bin, "validate", file, (char *)NULL);
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    struct pollfd fds[2] = {{.fd = po[0], .events = POLLIN}, {.fd = pe[0], .events = POLLIN}};
    buf *dst[2] = {&r.out, &r.err};
    int open_fds = 2;
    long long deadline = now_ms() + RUN_TIMEOUT_MS;
    while (open_fds > 0) {
        long long left = deadline - now_ms();
        if (left <= 0) {
            r.timed_out = 1;
            break;
        }
        int n = poll(fds, 2, (int)left);
        if (n < 0 && errno == EINTR)
            continue;
        cr_assert(n >= 0, "poll: %s", strerror(errno));
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char chunk[8192];
            ssize_t got = read(fds[i].fd, chunk, sizeof chunk);
            if (got > 0) {
                if (dst[i]->len < MAX_CAPTURE)
                    buf_putn(dst[i], chunk, (size_t)got);
            } else if (got == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
            }
        }
    }
    if (r.timed_out)
        kill(pid, SIGKILL); /* the child this test started */
    for (int i = 0; i < 2; i++)
        if (fds[i].fd >= 0)
            close(fds[i].fd);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    r.exited = WIFEXITED(st);
    r.status = r.exited ? WEXITSTATUS(st) : -1;
    r.signaled = WIFSIGNALED(st) && !r.timed_out;
    r.signum = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    return r;
}

/* ---- the corpus ---------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the *.yaml files in `dir`; the count in *n. */
static char **list_yaml(const char *dir, int *n)
{
    DIR *d = opendir(dir);
    cr_assert(d, "cannot open %s: %s", dir, strerror(errno));
    char **names = NULL;
    int cnt = 0;
    for (struct dirent *de; (de = readdir(d));) {
        size_t len = strlen(de->d_name);
        if (len <= 5 || strcmp(de->d_name + len - 5, ".yaml"))
            continue;
        names = realloc(names, (size_t)(cnt + 1) * sizeof *names);
        names[cnt++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, (size_t)cnt, sizeof *names, cmp_str);
    *n = cnt;
    return names;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    buf b = {0};
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_putn(&b, chunk, got);
    fclose(f);
    return b.s ? b.s : strdup("");
}

/* Replaces every {FILE} in `pattern` by `file`, and every {DIR} by the
 * file's folder (Lua errors name Lua files beside the experiment). */
static char *expand_file(const char *pattern, const char *file)
{
    buf b = {0};
    const char *slash = strrchr(file, '/');
    size_t dirlen = slash ? (size_t)(slash - file) : 1;
    for (const char *p = pattern; *p;) {
        const char *hf = strstr(p, "{FILE}"), *hd = strstr(p, "{DIR}");
        const char *hit = hf && (!hd || hf < hd) ? hf : hd;
        if (!hit) {
            buf_puts(&b, p);
            break;
        }
        buf_putn(&b, p, (size_t)(hit - p));
        if (hit == hf) {
            buf_puts(&b, file);
            p = hit + 6;
        } else {
            buf_putn(&b, slash ? file : ".", dirlen);
            p = hit + 5;
        }
    }
    return b.s ? b.s : strdup("");
}

typedef struct expectation {
    int status;
    char *substring; /* {FILE} already replaced */
} expectation;

/* Reads NAME.expect next to `yaml`; returns -1 with a reason in `why`. */
static int read_expect(const char *yaml, expectation *x, buf *why)
{
    char path[4096];
    snprintf(path, sizeof path, "%.*s.expect", (int)(strlen(yaml) - 5), yaml);
    char *t = read_text(path);
    if (!t) {
        buf_printf(why, "%s: missing (needs: exit status, then expected substring)\n", path);
        return -1;
    }
    char *nl = strchr(t, '\n');
    char *second = nl ? nl + 1 : NULL;
    if (second) {
        *nl = '\0';
        char *end = strchr(second, '\n');
        if (end)
            *end = '\0';
    }
    char *endp;
    long st = strtol(t, &endp, 10);
    if (endp == t || *endp || !second || !*second) {
        buf_printf(why, "%s: malformed (line 1: exit status; line 2: substring)\n", path);
        free(t);
        return -1;
    }
    x->status = (int)st;
    x->substring = expand_file(second, yaml);
    free(t);
    return 0;
}

enum { BAD, GOOD };

/* Checks one corpus file; appends any mismatch to `report`.  Returns 0 if ok. */
static int check_file(const char *yaml, int kind, buf *report)
{
    expectation x;
    if (read_expect(yaml, &x, report) < 0)
        return -1;
    long long t0 = now_ms();
    run_result r = run_validate(yaml);
    long long elapsed_ms = now_ms() - t0;
    const buf *stream = kind == BAD ? &r.err : &r.out;
    const char *sname = kind == BAD ? "stderr" : "stdout";
    int ok = 1;
    if (r.timed_out) {
        buf_printf(report, "%s: TIMED OUT after %d ms\n", yaml, RUN_TIMEOUT_MS);
        ok = 0;
    } else if (r.signaled) {
        buf_printf(report, "%s: CRASHED with signal %d (%s)\n", yaml, r.signum,
                   strsignal(r.signum));
        ok = 0;
    } else {
        if (r.status != x.status) {
            buf_printf(report, "%s: exit status %d, expected %d\n", yaml, r.status, x.status);
            ok = 0;
        }
        if (!strstr(buf_str(stream), x.substring)) {
            buf_printf(report, "%s: %s lacks the expected text\n  expected: %s\n", yaml, sname,
                       x.substring);
            ok = 0;
        }
        if (kind == GOOD && r.err.len) {
            buf_printf(report, "%s: a valid file printed on stderr\n", yaml);
            ok = 0;
        }
    }
    /* a file named *_hang* hangs in a C function on purpose: its bound is
     * the Lua time limit plus 1 s (6 s; doc/lua.md#the-sandbox), not ms */
    if (ok && elapsed_ms > (strstr(yaml, "_hang") ? 7000 : SLOW_MS)) {
        buf_printf(report, "%s: took %lld ms (validation must take milliseconds)\n", yaml,
                   elapsed_ms);
        ok = 0;
    }
    if (!ok) {
        buf_printf(report, "  actual %s:\n%.4000s%s", sname, buf_str(stream),
                   stream->len && stream->s[stream->len - 1] != '\n' ? "\n" : "");
        const buf *other = kind == GOOD ? &r.err : &r.out;
        if (other->len)
            buf_printf(report, "  actual %s:\n%.4000s\n", kind == GOOD ? "stderr" : "stdout",
                       buf_str(other));
    }
    free(x.substring);
    run_free(&r);
    return ok ? 0 : -1;
}

/* Walks tests/<sub>; `which`: 0 = all but the known bugs, 1 = only those. */
static void walk(const char *sub, int kind, int which, int min_files)
{
    const char *root = env_path("RUNNER_ROOT");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/%s", root, sub);
    int n;
    char **names = list_yaml(dir, &n);
    buf report = {0};
    int failed = 0, checked = 0, skipped = 0;
    for (int i = 0; i < n; i++) {
        char rel[512], path[4608];
        snprintf(rel, sizeof rel, "%s/%s", sub, names[i]);
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (is_known_bug(rel) != which) {
            skipped++;
            free(names[i]);
            continue;
        }
        checked++;
        if (check_file(path, kind, &report) < 0)
            failed++;
        free(names[i]);
    }
    free(names);
    if (which == 0 && skipped)
        cr_log_info("tests/%s: %d file(s) skipped as known runner bugs (see known_bugs[])", sub,
                    skipped);
    cr_expect_geq(checked + skipped, min_files, "tests/%s holds %d files, expected at least %d",
                  sub, checked + skipped, min_files);
    cr_expect_eq(failed, 0, "%d of %d file(s) in tests/%s did not behave as expected:\n%s",
                 failed, checked, sub, buf_str(&report));
    free(report.s);
}

Test(corpus, bad_files_fail_with_the_expected_diagnostic, .timeout = 120)
{
    walk("bad", BAD, 0, 45);
}

Test(corpus, good_files_validate, .timeout = 60)
{
    walk("good", GOOD, 0, 4);
}

/* Disabled: these fail on the current runner (see known_bugs[] above and the
 * bug reports).  Enable once the bugs are fixed, then empty known_bugs[]. */
Test(corpus, known_bugs, .disabled = true, .timeout = 60)
{
    walk("bad", BAD, 1, 0);
    walk("good", GOOD, 1, 0);
}

Test(corpus, every_known_bug_entry_names_a_file)
{
    const char *root = env_path("RUNNER_ROOT");
    for (int i = 0; known_bugs[i]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/tests/%s", root, known_bugs[i]);
        struct stat st;
        cr_expect(stat(path, &st) == 0, "known_bugs[] names %s, which does not exist", path);
    }
}

/* Several independent errors in one file are all reported in one run. */
Test(corpus, all_errors_of_a_file_reported_at_once, .timeout = 30)
{
    const char *root = env_path("RUNNER_ROOT");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/bad/many_errors.yaml", root);
    run_result r = run_validate(path);
    cr_assert(!r.timed_out && !r.signaled, "the runner did not exit normally");
    cr_expect_eq(r.status, 2, "exit status %d", r.status);
    const char *want[] = {
        ":2:1: error: unknown key 'repeat'; did you mean 'repeats'?",
        ":3:10: error: 'threads' must be between 1 and 4096, not 0",
        ":4:9: error: 'device' must be cpu, cuda or cuda:N",
        ":6:3: error: unknown key 'sise' under sweep; did you mean 'size'?",
        ":8:18: error: plot 'x': unknown column 'sizee'; did you mean 'size'?",
    };
    int found = 0;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char line[4608];
        snprintf(line, sizeof line, "%s%s", path, want[i]);
        if (strstr(buf_str(&r.err), line))
            found++;
        else
            cr_log_error("missing: %s", line);
    }
    int lines = 0;
    for (const char *p = buf_str(&r.err); (p = strstr(p, ": error: ")); p++)
        lines++;
    cr_expect_geq(lines, 3, "only %d error(s) reported:\n%s", lines, buf_str(&r.err));
    cr_expect_eq(found, (int)(sizeof want / sizeof want[0]),
                 "%d of %zu distinct errors reported; stderr:\n%s", found,
                 sizeof want / sizeof want[0], buf_str(&r.err));
    run_free(&r);
}

/* Errors of several files in one `validate` run: each file is checked, the
 * valid one still reports its count, and the status is 2. */
Test(corpus, validate_checks_every_file_given, .timeout = 30)
{
    const char *root = env_path("RUNNER_ROOT");
    const char *bin = env_path("RUNNER_BIN");
    char bad[4096], good[4096], cmd[9000];
    snprintf(bad, sizeof bad, "%s/tests/bad/unknown_top_key.yaml", root);
    snprintf(good, sizeof good, "%s/tests/good/spec_example.yaml", root);
    snprintf(cmd, sizeof cmd, "cd / && '%s' validate '%s' '%s' 2>&1", bin, bad, good);
    FILE *p = popen(cmd, "r");
    cr_assert(p, "popen failed");
    buf out = {0};
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, p)) > 0)
        buf_putn(&out, chunk, got);
    int st = pclose(p);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 2, "exit status %d", WEXITSTATUS(st));
    char want[4200];
    snprintf(want, sizeof want, "%s: 43 trials", good);
    cr_expect(strstr(buf_str(&out), want), "no '%s' in:\n%s", want, buf_str(&out));
    snprintf(want, sizeof want, "%s:2:1: error: unknown key 'repeat'", bad);
    cr_expect(strstr(buf_str(&out), want), "no '%s' in:\n%s", want, buf_str(&out));
    free(out.s);
}
