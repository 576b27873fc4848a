/* plots_fixture.c - see plots_fixture.h. */
#include "plots_fixture.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const char *root(void)
{
    const char *r = getenv("RUNNER_ROOT");
    return r && *r ? r : ".";
}

char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap + 1);
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            buf = realloc(buf, (cap *= 2) + 1);
    }
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

char *fixture_copy(const char *dir)
{
    char *d = dir ? strdup(dir) : tmpdir();
    mkdir(d, 0777);
    static const char *const files[] = {"trials.csv", "samples.csv", "meta.json",
                                        "experiment.yaml"};
    for (int i = 0; i < 4; i++) {
        char src[4096], dst[4096];
        snprintf(src, sizeof src, "%s/tests/fixtures/matmul_run/%s", root(), files[i]);
        snprintf(dst, sizeof dst, "%s/%s", d, files[i]);
        size_t n;
        char *text = slurp(src, &n);
        cr_assert_not_null(text, "fixture file %s is missing", src);
        FILE *f = fopen(dst, "wb");
        cr_assert_not_null(f);
        fwrite(text, 1, n, f);
        fclose(f);
        free(text);
    }
    return d;
}

int unlink_in(const char *dir, const char *name)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return unlink(p);
}

int exists(const char *dir, const char *name)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return access(p, F_OK) == 0;
}

void assert_png(const char *dir, const char *stem)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    char p[4096];
    snprintf(p, sizeof p, "%s/plots/%s.png", dir, stem);
    size_t n = 0;
    char *b = slurp(p, &n);
    cr_assert_not_null(b, "%s was not written", p);
    cr_assert(n > 8 && !memcmp(b, sig, 8), "%s is not a PNG", p);
    free(b);
}

void assert_svg(const char *dir, const char *stem)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/plots/%s.svg", dir, stem);
    char *b = slurp(p, NULL);
    cr_assert_not_null(b, "%s was not written", p);
    cr_assert(!strncmp(b, "<?xml", 5) || strstr(b, "<svg"), "%s is not an SVG", p);
    free(b);
}

void assert_chart(const char *dir, const char *stem)
{
    assert_png(dir, stem);
    assert_svg(dir, stem);
    char p[4096];
    snprintf(p, sizeof p, "plots/%s.gp", stem);
    cr_assert(exists(dir, p), "%s/%s (the chart's script) is missing", dir, p);
}

char *file_in(const char *dir, const char *name)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return slurp(p, NULL);
}

void run_bin(proc *p, const char *cwd, const char *env, char *const args[])
{
    int o, e;
    pid_t pid = start_in(cwd, env, args, &o, &e);
    static proc_out r;
    finish(pid, o, e, &r);
    p->status = r.status;
    snprintf(p->err, sizeof p->err, "%s", r.err);
}
