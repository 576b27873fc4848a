/* history_format.h - the series of `runner history` written as text,
 * Markdown, CSV or JSON (doc/history.md#runner-history), and the words of a
 * change point.  Library code: it writes into a strbuf. */
#ifndef RUNNER_HISTORY_FORMAT_H
#define RUNNER_HISTORY_FORMAT_H
/* public header of runner/results/history/ */

#include "base/util.h"
#include "results/history/history_query.h"

#include <sqlite3.h>

/* Writes h in `format` ("text", "md", "csv" or "json"); db gives the
 * machines' facts (may be NULL). */
void history_format(sqlite3 *db, const history_set *h, const char *format, strbuf *out);
/* "change before run R: rev A -> rev B, +10.2 % [+8.1 %, +12.4 %]" (no newline). */
void history_describe_change(const history_series *s, const changepoint *c, strbuf *out);
/* The parts ("name=value") of trial key `key` that differ among keys[0..n-1]
 * (the others are the same for all: not repeated), malloc'd; the whole key
 * when none differ. */
char *history_key_varying(const char *key, const char *const *keys, int n);
/* Trial keys in order, part by part, numbers as numbers (1, 128, 1024), the
 * rest as text: <0, 0, >0. */
int history_key_cmp(const char *a, const char *b);
/* A revision as shown: its first 10 characters, "+dirty" when it was; "?" when unknown. */
void history_short_rev(const history_point *p, char *out, size_t n);

#endif
