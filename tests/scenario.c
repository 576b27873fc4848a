/* scenario.c - see scenario.h. */
#include "scenario.h"

#include "base/util.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void file_at(const char *dir, const char *name, const char *text, char *path)
{
    write_text(dir, name, text);
    snprintf(path, SCENARIO_PATH, "%s/%s", dir, name);
}

void experiment_at(const char *dir, const char *file, const char *yaml, char *exp, char *out)
{
    write_text(dir, file, yaml);
    snprintf(exp, SCENARIO_PATH, "%s/%s", dir, file);
    snprintf(out, SCENARIO_PATH, "%s/out", dir);
}

char *experiment_in(const char *file, const char *yaml, char *exp, char *out)
{
    char *d = tmpdir();
    experiment_at(d, file, yaml, exp, out);
    return d;
}

char *run_fresh(const char *file, const char *yaml, int variant, proc_out *r, csv_table *t)
{
    char exp[SCENARIO_PATH], out[SCENARIO_PATH], name[256];
    char *d = experiment_in(file, yaml, exp, out);
    if (variant > 0)
        run_with_fake(out, exp, variant, r);
    else
        run_quiet(out, exp, r);
    snprintf(name, sizeof name, "%.*s", (int)strcspn(file, "."), file);
    read_newest(out, name, "trials.csv", t);
    return d;
}

void run_expect(const char *out, const char *exp, int want, proc_out *r)
{
    run_quiet(out, exp, r);
    cr_assert_eq(r->status, want, "%s", r->err);
}

void run_with_fake(const char *out, const char *exp, int variant, proc_out *r)
{
    char fake[4096];
    snprintf(fake, sizeof fake, "%s/fake-%d.so", getenv("RUNNER_FAKES"), variant);
    setenv("RUNNER_CUDA_BACKEND", fake, 1);
    run_quiet(out, exp, r);
    unsetenv("RUNNER_CUDA_BACKEND");
}

void run_quiet(const char *out, const char *exp, proc_out *r)
{
    run((char *[]){"--quiet", "--no-plots", "--output", (char *)out, (char *)exp, NULL}, r);
}

void run_e_yaml(const char *dir, const char *yaml, const char *name, char *run_dir)
{
    write_text(dir, "e.yaml", yaml);
    char out[4096], y[4096];
    snprintf(out, sizeof out, "%s/res", dir);
    snprintf(y, sizeof y, "%s/e.yaml", dir);
    proc_out r;
    run((char *[]){"--quiet", "--output", out, y, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    snprintf(run_dir, SCENARIO_PATH, "%s/%s/latest", out, name);
}

char *run_text(const char *run_dir, const char *file)
{
    char p[8192];
    snprintf(p, sizeof p, "%s/%s", run_dir, file);
    char *text = read_file(p, NULL);
    cr_assert_not_null(text, "cannot read %s", p);
    return text;
}

void newest_run_file(const char *out, const char *name, const char *file, char *path, size_t len)
{
    char dir[4096], best[256] = "";
    long best_k = -1;
    snprintf(dir, sizeof dir, "%s/%s", out, name);
    DIR *D = opendir(dir);
    for (struct dirent *de; D && (de = readdir(D));) {
        if (de->d_name[0] == '.' || !strcmp(de->d_name, "latest") || strlen(de->d_name) < 16)
            continue;
        const char *dash = strchr(de->d_name, '-');
        long k = dash ? atol(dash + 1) : 1;
        int c = strncmp(de->d_name, best, 16);
        if (!*best || c > 0 || (c == 0 && k > best_k)) {
            snprintf(best, sizeof best, "%s", de->d_name);
            best_k = k;
        }
    }
    if (D)
        closedir(D);
    snprintf(path, len, "%s/%s/%s", dir, *best ? best : "latest", file);
}

void read_newest(const char *out, const char *name, const char *file, csv_table *t)
{
    char p[8192];
    newest_run_file(out, name, file, p, sizeof p);
    cr_assert_eq(csv_read(p, t), 0, "cannot read %s", p);
}

int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int n = 0, c;
    while ((c = getc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

char *read_all(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return strdup(buf);
}

double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void assert_row_durations(const csv_table *t, int i, const char *const *cols, size_t n)
{
    for (size_t k = 0; k < n; k++)
        cr_assert(cell(t, i, cols[k])[0] != '-', "row %d: %s = %s", i, cols[k], cell(t, i, cols[k]));
    double lo = atof(cell(t, i, "median_ci_low")), hi = atof(cell(t, i, "median_ci_high"));
    double m = atof(cell(t, i, "median"));
    cr_assert(lo <= m && m <= hi, "row %d: %g not in [%g, %g]", i, m, lo, hi);
}

int kill_and_resume(const char *exp, const char *out, int rounds, int most, int min_us, int span_us,
                    proc_out *r)
{
    srand((unsigned)time(NULL));
    int kills = 0;
    for (int round = 0; round < rounds && kills < most; round++) {
        int o, e;
        pid_t pid = start((char *[]){"--quiet", "--no-plots", "--resume", "--output", (char *)out,
                                     (char *)exp, NULL},
                          &o, &e);
        usleep((useconds_t)(min_us + rand() % span_us));
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid) {
            close(o);
            close(e);
            break; /* finished before the kill */
        }
        kill(pid, SIGKILL);
        kills++;
        finish(pid, o, e, r);
    }
    run((char *[]){"--quiet", "--no-plots", "--resume", "--output", (char *)out, (char *)exp, NULL}, r);
    return kills;
}
