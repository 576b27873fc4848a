/* compare_fixture.h - what the compare tests share: the fixture run folders,
 * compare_runs() with its output captured, and questions asked of that
 * output. */
#ifndef TESTS_COMPARE_FIXTURE_H
#define TESTS_COMPARE_FIXTURE_H

#include "base/csv.h"
#include "cli/commands.h"

/* tests/fixtures_compare/NAME under $RUNNER_ROOT (one of 8 rotating buffers). */
char *fixture(const char *name);

typedef struct result {
    int rc;
    char *out, *err;
} result;

/* compare_runs on two fixture runs, one a side, its output captured. */
result compare(const char *old_name, const char *new_name, double thr, const char *fmt);

/* Frees what a result holds. */
void result_free(result *r);

/* Whether a line of `text` holds needle_a (and needle_b, when not NULL). */
int has_line(const char *text, const char *needle_a, const char *needle_b);

/* The result's exit status is `rc` (asserted, its output the message) and
 * its output, CSV, parsed into t. */
void result_table(const result *r, int rc, csv_table *t);

/* Parses CSV text through csv_read. */
void parse_csv(const char *text, csv_table *t);

/* The csv row whose `col` column equals `val` (-1 if none). */
int csv_find(const csv_table *t, const char *col, const char *val, const char *col2,
             const char *val2);

/* Row r's cell of column `col` (asserted to exist). */
const char *csv_get(const csv_table *t, int r, const char *col);

/* Row r's cells are as the NULL-ended list of column, value pairs says. */
void expect_cells(const csv_table *t, int r, ...);

/* A test's .init: its stdout and stderr captured, so that nothing prints. */
void quiet(void);

#endif
