/* test_yaml_limits.c - experiment files whose size or shape made reading
 * them quadratic or refused them wrongly (doc/experiment-file.md#errors):
 * nesting deeper than the limit is a file:line:col error, the deepest
 * nesting allowed still loads, and large files of many keys, anchors or
 * directives take time in proportion to their size.  `runner validate`
 * runs as a user runs it, under a CPU-time limit (RLIMIT_CPU, inherited), and
 * the CPU time it used is checked: wall time moves with what else runs. */
#include "runproc.h"

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>

/* Each file here took from 1.5 s to over a minute of CPU before; the limit
 * leaves room for the sanitizer build (several times slower). */
#define CPU_LIMIT_S 20
#define CPU_WANT_S 8.0

typedef struct gen {
    char *s;
    size_t len, cap;
} gen;

static void put(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(gen *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (g->len + (size_t)n + 1 > g->cap) {
        g->cap = 2 * (g->len + (size_t)n + 1);
        g->s = realloc(g->s, g->cap);
        cr_assert_not_null(g->s);
    }
    va_start(ap, fmt);
    vsnprintf(g->s + g->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    g->len += (size_t)n;
}

static void repeat(gen *g, const char *unit, int n)
{
    for (int i = 0; i < n; i++)
        put(g, "%s", unit);
}

static double children_cpu(void)
{
    struct rusage u;
    cr_assert_eq(getrusage(RUSAGE_CHILDREN, &u), 0);
    return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + (double)u.ru_stime.tv_sec +
           u.ru_stime.tv_usec / 1e6;
}

/* `runner validate` on g's text (freed); *cpu the CPU seconds it took. */
static void validate(gen *g, proc_out *r, char *path, size_t pathlen, double *cpu)
{
    char *d = dir_with("e.yaml", g->s);
    free(g->s);
    *g = (gen){0};
    snprintf(path, pathlen, "%s/e.yaml", d);
    free(d);
    struct rlimit lim = {CPU_LIMIT_S, CPU_LIMIT_S + 5};
    cr_assert_eq(setrlimit(RLIMIT_CPU, &lim), 0);
    double before = children_cpu();
    run((char *[]){"validate", path, NULL}, r);
    *cpu = children_cpu() - before;
    cr_assert_lt(r->status, 128, "killed by signal %d after %.1f s of CPU (limit %d s): %s",
                 r->status - 128, *cpu, CPU_LIMIT_S, r->err);
}

static void expect_error(proc_out *r, const char *path, const char *where, const char *msg)
{
    char want[8192];
    snprintf(want, sizeof want, "%s:%s: error: %s", path, where, msg);
    cr_expect_eq(r->status, 2, "exit %d: %s", r->status, r->err);
    cr_expect(strstr(r->err, want), "want '%s' in: %s", want, r->err);
}

Test(yaml_limits, deep_flow_lists_refused_at_the_limit)
{
    gen g = {0};
    put(&g, "workload: noop\nx-a: ");
    repeat(&g, "[", 20000);
    repeat(&g, "]", 20000);
    put(&g, "\n");
    proc_out r;
    char path[4096];
    double cpu;
    validate(&g, &r, path, sizeof path, &cpu);
    /* the root mapping is level 1, x-a's list 2: the 64th '[' opens level 65 */
    expect_error(&r, path, "2:69", "YAML lists and mappings nested more than 64 deep");
    cr_expect_lt(cpu, CPU_WANT_S);
}

Test(yaml_limits, deep_flow_mappings_and_block_lists_refused)
{
    gen g = {0};
    put(&g, "workload: noop\nx-a: ");
    repeat(&g, "{a: ", 20000);
    put(&g, "1");
    repeat(&g, "}", 20000);
    put(&g, "\n");
    proc_out r;
    char path[4096];
    double cpu;
    validate(&g, &r, path, sizeof path, &cpu);
    expect_error(&r, path, "2:258", "YAML lists and mappings nested more than 64 deep");

    put(&g, "workload: noop\nx-a:\n  ");
    repeat(&g, "- ", 200);
    put(&g, "1\n");
    validate(&g, &r, path, sizeof path, &cpu);
    expect_error(&r, path, "3:129", "YAML lists and mappings nested more than 64 deep");
}

/* 64 levels load; the 65th is the error, at the collection that opens it */
Test(yaml_limits, sixty_four_levels_load)
{
    gen g = {0};
    put(&g, "workload: noop\nx-a: ");
    repeat(&g, "[", 63);
    repeat(&g, "]", 63);
    put(&g, "\nsweep:\n  size: [1, 2]\n");
    proc_out r;
    char path[4096];
    double cpu;
    validate(&g, &r, path, sizeof path, &cpu);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, ": 2 trials"), "%s", r.out);

    put(&g, "workload: noop\nx-a: ");
    repeat(&g, "[", 64);
    repeat(&g, "]", 64);
    put(&g, "\n");
    validate(&g, &r, path, sizeof path, &cpu);
    expect_error(&r, path, "2:69", "YAML lists and mappings nested more than 64 deep");
}

/* 100,000 keys in one mapping: each was compared with every key before it */
Test(yaml_limits, many_keys_in_linear_time)
{
    gen g = {0};
    put(&g, "workload: noop\n");
    for (int i = 0; i < 100000; i++)
        put(&g, "x-k%d: %d\n", i, i);
    put(&g, "x-k17: again\n");
    proc_out r;
    char path[4096];
    double cpu;
    validate(&g, &r, path, sizeof path, &cpu);
    expect_error(&r, path, "100002:1", "duplicate key 'x-k17' (first at line 19)");
    cr_expect_lt(cpu, CPU_WANT_S);
}

/* 100,000 anchors and as many aliases: libyaml scanned every anchor for each */
Test(yaml_limits, many_anchors_in_linear_time)
{
    gen g = {0};
    put(&g, "workload: noop\nx-a:\n");
    for (int i = 0; i < 100000; i++)
        put(&g, "  - &a%d %d\n", i, i);
    put(&g, "x-b:\n");
    for (int i = 0; i < 100000; i++)
        put(&g, "  - *a%d\n", i);
    put(&g, "sweep:\n  size: [*a5, *a7]\n");
    proc_out r;
    char path[4096];
    double cpu;
    validate(&g, &r, path, sizeof path, &cpu);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, ": 2 trials"), "%s", r.out);
    cr_expect_lt(cpu, CPU_WANT_S);
}

Test(yaml_limits, anchor_errors_say_which)
{
    gen g = {0};
    put(&g, "workload: noop\nx-a: &a 1\nx-b: &a 2\n");
    proc_out r;
    char path[4096];
    double cpu;
    validate(&g, &r, path, sizeof path, &cpu);
    expect_error(&r, path, "3:6", "YAML anchor '&a' is defined twice (first at line 2)");

    put(&g, "workload: noop\nsweep:\n  size: [*nowhere]\n");
    validate(&g, &r, path, sizeof path, &cpu);
    expect_error(&r, path, "3:10", "YAML alias '*nowhere' names no anchor defined before it");
}

/* libyaml checked each %TAG directive against every one before it */
Test(yaml_limits, many_directives_refused)
{
    gen g = {0};
    for (int i = 0; i < 64; i++)
        put(&g, "%%TAG !t%d! tag:example.com,2000:\n", i);
    put(&g, "---\nworkload: noop\n");
    proc_out r;
    char path[4096];
    double cpu;
    validate(&g, &r, path, sizeof path, &cpu);
    cr_expect_eq(r.status, 0, "%s", r.err);

    for (int i = 0; i < 50000; i++)
        put(&g, "%%TAG !t%d! tag:example.com,2000:\n", i);
    put(&g, "---\nworkload: noop\n");
    validate(&g, &r, path, sizeof path, &cpu);
    expect_error(&r, path, "65:1", "more than 64 YAML directives ('%' lines)");
    cr_expect_lt(cpu, CPU_WANT_S);
}

/* A list of 999,999 values is a document walked a few times over, not an
 * alias bomb: the visit budget grows with the document */
Test(yaml_limits, plain_list_below_the_limit_loads)
{
    gen g = {0};
    put(&g, "workload: noop\nsize: 5\nexclude:\n  - {size: [");
    for (int i = 0; i < 999999; i++)
        put(&g, "%s%d", i ? ", " : "", 10 + i);
    put(&g, "]}\n");
    proc_out r;
    char path[4096];
    double cpu;
    validate(&g, &r, path, sizeof path, &cpu);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, ": 1 trial"), "%s", r.out);
    cr_expect_not(strstr(r.err, "alias"), "%s", r.err);
}

/* the cap on values: twice what a sweep at its trial limit needs */
Test(yaml_limits, too_many_values_refused)
{
    gen g = {0};
    put(&g, "workload: noop\nx-a: [");
    repeat(&g, "1,", 2000001);
    put(&g, "1]\n");
    proc_out r;
    char path[4096];
    double cpu;
    validate(&g, &r, path, sizeof path, &cpu);
    expect_error(&r, path, "2:3999997",
                 "more than 2000000 YAML values (lists, mappings and scalars) in the file");
    cr_expect_lt(cpu, CPU_WANT_S);
}

/* 50,000 linked elements: each label was compared with every one before it
 * (8 s of CPU); now sorted */
Test(yaml_limits, many_linked_labels_in_linear_time)
{
    gen g = {0};
    put(&g, "workload: noop\nsweep:\n  t:\n");
    for (int i = 0; i < 50000; i++)
        put(&g, "    - {label: l%d, seed: %d}\n", i, i);
    put(&g, "    - {label: l17, seed: 99999}\n");
    proc_out r;
    char path[4096];
    double cpu;
    validate(&g, &r, path, sizeof path, &cpu);
    expect_error(&r, path, "50004:7",
                 "axis 't': two elements are both labelled 'l17'; give each a distinct label");
    cr_expect_lt(cpu, CPU_WANT_S);
}

/* a list of more than 10,000 values went unchecked: its duplicates ran twice */
Test(yaml_limits, duplicates_in_a_long_list_found)
{
    gen g = {0};
    put(&g, "workload: noop\nsweep:\n  seed: [");
    for (int i = 0; i < 20000; i++)
        put(&g, "%d, ", i);
    put(&g, "12345]\n");
    proc_out r;
    char path[4096];
    double cpu;
    validate(&g, &r, path, sizeof path, &cpu);
    cr_expect_eq(r.status, 2, "%s", r.out);
    cr_expect(strstr(r.err, "error: axis 'seed' lists 12345 twice (also at line 3)"), "%s", r.err);
}
