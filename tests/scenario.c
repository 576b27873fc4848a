/* scenario.c - see scenario.h. */
#include "scenario.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void experiment_at(const char *dir, const char *file, const char *yaml, char *exp, char *out)
{
    write_text(dir, file, yaml);
    snprintf(exp, SCENARIO_PATH, "%s/%s", dir, file);
    snprintf(out, SCENARIO_PATH, "%s/out", dir);
}

void run_quiet(const char *out, const char *exp, proc_out *r)
{
    run((char *[]){"--quiet", "--no-plots", "--output", (char *)out, (char *)exp, NULL}, r);
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

const char *cell(const csv_table *t, int row, const char *col)
{
    int c = csv_col(t, col);
    cr_assert(c >= 0, "no column %s", col);
    return c < t->nfields[row] ? t->rows[row][c] : "";
}

double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
