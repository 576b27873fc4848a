/* csv.h - RFC 4180 CSV: quoting on write, a tolerant reader for our files. */
#ifndef RUNNER_CSV_H
#define RUNNER_CSV_H
/* public header of runner/base/ */

#include "base/util.h"

#include <stdio.h>

/* Appends `s` to b as one CSV field (quoted when it holds , " CR or LF). */
void csv_field(strbuf *b, const char *s);

/* A parsed CSV file: rows of fields; row 0 is the header. */
typedef struct csv_table {
    char ***rows; /* rows[r][i]: field i of row r (pointers into `arena`) */
    int *nfields;
    int nrows;
    int torn; /* the last line had no newline (an interrupted write) */
    char *arena;  /* the file, unquoted in place */
    char **cells; /* every field, row after row */
} csv_table;

int csv_read(const char *path, csv_table *t); /* -1 if unreadable */
/* The same over text in memory: t takes text (malloc'd, len bytes and a NUL
 * after them, as sb_take gives) and frees it in csv_free. */
void csv_parse(char *text, size_t len, csv_table *t);
void csv_free(csv_table *t);
int csv_col(const csv_table *t, const char *name); /* index in the header, or -1 */

#endif
