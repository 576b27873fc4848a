/* compare_fixture.c - see compare_fixture.h. */
#include "compare_fixture.h"

#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *fixture(const char *name)
{
    static char buf[8][4096];
    static int k;
    const char *root = getenv("RUNNER_ROOT");
    char *b = buf[k++ % 8];
    snprintf(b, sizeof buf[0], "%s/tests/fixtures_compare/%s", root ? root : ".", name);
    return b;
}

result compare(const char *old_name, const char *new_name, double thr, const char *fmt)
{
    result r = {0};
    size_t on, en;
    FILE *out = open_memstream(&r.out, &on), *err = open_memstream(&r.err, &en);
    cr_assert(out && err);
    const char *o[1] = {old_name[0] == '/' ? old_name : fixture(old_name)};
    const char *n[1] = {new_name[0] == '/' ? new_name : fixture(new_name)};
    compare_opts opt = {.threshold = thr, .noise_floor = COMPARE_NOISE_FLOOR, .format = fmt};
    r.rc = compare_runs(o, 1, n, 1, &opt, out, err);
    fclose(out);
    fclose(err);
    return r;
}

void result_free(result *r)
{
    free(r->out);
    free(r->err);
}

void result_table(const result *r, int rc, csv_table *t)
{
    cr_assert_eq(r->rc, rc, "%s%s", r->out, r->err);
    parse_csv(r->out, t);
}

int has_line(const char *text, const char *needle_a, const char *needle_b)
{
    const char *p = text;
    while (p && *p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char *line = strndup(p, n);
        int ok = strstr(line, needle_a) && (!needle_b || strstr(line, needle_b));
        free(line);
        if (ok)
            return 1;
        p = e ? e + 1 : NULL;
    }
    return 0;
}

void parse_csv(const char *text, csv_table *t)
{
    char path[] = "/tmp/runner-compare-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    cr_assert_eq(csv_read(path, t), 0);
    unlink(path);
    cr_assert_eq(t->torn, 0);
}

int csv_find(const csv_table *t, const char *col, const char *val, const char *col2,
             const char *val2)
{
    int c = csv_col(t, col), c2 = col2 ? csv_col(t, col2) : -1;
    cr_assert(c >= 0, "no column %s", col);
    for (int r = 1; r < t->nrows; r++)
        if (!strcmp(t->rows[r][c], val) && (!col2 || !strcmp(t->rows[r][c2], val2)))
            return r;
    return -1;
}

const char *csv_get(const csv_table *t, int r, const char *col)
{
    int c = csv_col(t, col);
    cr_assert(c >= 0 && r > 0, "no column %s or row", col);
    return t->rows[r][c];
}

void expect_cells(const csv_table *t, int r, ...)
{
    va_list ap;
    va_start(ap, r);
    for (const char *col; (col = va_arg(ap, const char *));) {
        const char *want = va_arg(ap, const char *);
        cr_assert_str_eq(csv_get(t, r, col), want, "row %d, column %s", r, col);
    }
    va_end(ap);
}

void quiet(void)
{
    cr_redirect_stdout();
    cr_redirect_stderr();
}
