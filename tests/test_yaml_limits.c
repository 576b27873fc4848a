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

/* A text that starts with `head`. */
static gen begun(const char *head)
{
    gen g = {0};
    put(&g, "%s", head);
    return g;
}

static void repeat(gen *g, const char *unit, int n)
{
    for (int i = 0; i < n; i++)
        put(g, "%s", unit);
}

/* n times `open`, then `inner`, then n times `close`. */
static void nested(gen *g, const char *open, const char *inner, const char *close, int n)
{
    repeat(g, open, n);
    put(g, "%s", inner);
    repeat(g, close, n);
}

/* `fmt` for i from 0 to n - 1, with i for each of its (at most two) %d. */
static void each(gen *g, const char *fmt, int n)
{
    for (int i = 0; i < n; i++)
        put(g, fmt, i, i);
}

/* `head`, then `fmt` n times as each writes it, then `tail`. */
static gen made(const char *head, const char *fmt, int n, const char *tail)
{
    gen g = begun(head);
    each(&g, fmt, n);
    put(&g, "%s", tail);
    return g;
}

/* x-a: n times `open`, `inner`, n times `close`, then `tail`. */
static gen deep(const char *open, const char *inner, const char *close, int n, const char *tail)
{
    gen g = begun("workload: noop\nx-a: ");
    nested(&g, open, inner, close, n);
    put(&g, "%s", tail);
    return g;
}

static double children_cpu(void)
{
    struct rusage u;
    cr_assert_eq(getrusage(RUSAGE_CHILDREN, &u), 0);
    return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + (double)u.ru_stime.tv_sec +
           u.ru_stime.tv_usec / 1e6;
}

/* The last `runner validate`: its output and the file it read. */
static proc_out last;
static char last_path[4096];

/* `runner validate` on g's text (freed); the CPU seconds it took. */
static double validate(gen *g)
{
    char *d = dir_with("e.yaml", g->s);
    free(g->s);
    *g = (gen){0};
    snprintf(last_path, sizeof last_path, "%s/e.yaml", d);
    free(d);
    struct rlimit lim = {CPU_LIMIT_S, CPU_LIMIT_S + 5};
    cr_assert_eq(setrlimit(RLIMIT_CPU, &lim), 0);
    double before = children_cpu();
    run((char *[]){"validate", last_path, NULL}, &last);
    double cpu = children_cpu() - before;
    cr_assert_lt(last.status, 128, "killed by signal %d after %.1f s of CPU (limit %d s): %s",
                 last.status - 128, cpu, CPU_LIMIT_S, last.err);
    return cpu;
}

/* validate must refuse g with exit 2 and "FILE:where: error: msg". */
static double refused(gen *g, const char *where, const char *msg)
{
    double cpu = validate(g);
    char want[8192];
    snprintf(want, sizeof want, "%s:%s: error: %s", last_path, where, msg);
    cr_expect_eq(last.status, 2, "exit %d: %s", last.status, last.err);
    cr_expect(strstr(last.err, want), "want '%s' in: %s", want, last.err);
    return cpu;
}

/* validate must pass g, saying `says` (when not NULL). */
static double loads(gen *g, const char *says)
{
    double cpu = validate(g);
    cr_expect_eq(last.status, 0, "%s", last.err);
    if (says)
        cr_expect(strstr(last.out, says), "%s", last.out);
    return cpu;
}

/* refused (loads) in less than CPU_WANT_S of CPU. */
static void refused_quickly(gen *g, const char *where, const char *msg)
{
    cr_expect_lt(refused(g, where, msg), CPU_WANT_S);
}

static void loads_quickly(gen *g, const char *says)
{
    cr_expect_lt(loads(g, says), CPU_WANT_S);
}

Test(yaml_limits, deep_flow_lists_refused_at_the_limit)
{
    gen g = deep("[", "", "]", 20000, "\n");
    /* the root mapping is level 1, x-a's list 2: the 64th '[' opens level 65 */
    refused_quickly(&g, "2:69", "YAML lists and mappings nested more than 64 deep");
}

Test(yaml_limits, deep_flow_mappings_and_block_lists_refused)
{
    gen g = deep("{a: ", "1", "}", 20000, "\n");
    refused(&g, "2:258", "YAML lists and mappings nested more than 64 deep");

    g = made("workload: noop\nx-a:\n  ", "- ", 200, "1\n");
    refused(&g, "3:129", "YAML lists and mappings nested more than 64 deep");
}

/* 64 levels load; the 65th is the error, at the collection that opens it */
Test(yaml_limits, sixty_four_levels_load)
{
    gen g = deep("[", "", "]", 63, "\nsweep:\n  size: [1, 2]\n");
    loads(&g, ": 2 trials");

    g = deep("[", "", "]", 64, "\n");
    refused(&g, "2:69", "YAML lists and mappings nested more than 64 deep");
}

/* 100,000 keys in one mapping: each was compared with every key before it */
Test(yaml_limits, many_keys_in_linear_time)
{
    gen g = made("workload: noop\n", "x-k%d: %d\n", 100000, "x-k17: again\n");
    refused_quickly(&g, "100002:1", "duplicate key 'x-k17' (first at line 19)");
}

/* 100,000 anchors and as many aliases: libyaml scanned every anchor for each */
Test(yaml_limits, many_anchors_in_linear_time)
{
    gen g = made("workload: noop\nx-a:\n", "  - &a%d %d\n", 100000, "x-b:\n");
    each(&g, "  - *a%d\n", 100000);
    put(&g, "sweep:\n  size: [*a5, *a7]\n");
    loads_quickly(&g, ": 2 trials");
}

Test(yaml_limits, anchor_errors_say_which)
{
    gen g = begun("workload: noop\nx-a: &a 1\nx-b: &a 2\n");
    refused(&g, "3:6", "YAML anchor '&a' is defined twice (first at line 2)");

    put(&g, "workload: noop\nsweep:\n  size: [*nowhere]\n");
    refused(&g, "3:10", "YAML alias '*nowhere' names no anchor defined before it");
}

/* libyaml checked each %TAG directive against every one before it */
Test(yaml_limits, many_directives_refused)
{
    gen g = {0};
    each(&g, "%%TAG !t%d! tag:example.com,2000:\n", 64);
    put(&g, "---\nworkload: noop\n");
    loads(&g, NULL);

    each(&g, "%%TAG !t%d! tag:example.com,2000:\n", 50000);
    put(&g, "---\nworkload: noop\n");
    refused_quickly(&g, "65:1", "more than 64 YAML directives ('%' lines)");
}

/* A list of 999,999 values is a document walked a few times over, not an
 * alias bomb: the visit budget grows with the document */
Test(yaml_limits, plain_list_below_the_limit_loads)
{
    gen g = begun("workload: noop\nsize: 5\nexclude:\n  - {size: [");
    for (int i = 0; i < 999999; i++)
        put(&g, "%s%d", i ? ", " : "", 10 + i);
    put(&g, "]}\n");
    loads(&g, ": 1 trial");
    cr_expect_not(strstr(last.err, "alias"), "%s", last.err);
}

/* the cap on values: twice what a sweep at its trial limit needs */
Test(yaml_limits, too_many_values_refused)
{
    gen g = made("workload: noop\nx-a: [", "1,", 2000001, "1]\n");
    refused_quickly(&g, "2:3999997",
                    "more than 2000000 YAML values (lists, mappings and scalars) in the file");
}

/* 50,000 linked elements: each label was compared with every one before it
 * (8 s of CPU); now sorted */
Test(yaml_limits, many_linked_labels_in_linear_time)
{
    gen g = made("workload: noop\nsweep:\n  t:\n", "    - {label: l%d, seed: %d}\n", 50000,
                 "    - {label: l17, seed: 99999}\n");
    refused_quickly(&g, "50004:7",
                    "axis 't': two elements are both labelled 'l17'; give each a distinct label");
}

/* a list of more than 10,000 values went unchecked: its duplicates ran twice */
Test(yaml_limits, duplicates_in_a_long_list_found)
{
    gen g = made("workload: noop\nsweep:\n  seed: [", "%d, ", 20000, "12345]\n");
    validate(&g);
    cr_expect_eq(last.status, 2, "%s", last.out);
    cr_expect(strstr(last.err, "error: axis 'seed' lists 12345 twice (also at line 3)"), "%s",
              last.err);
}
