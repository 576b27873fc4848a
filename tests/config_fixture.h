/* config_fixture.h - the config tests' fixture: an experiment file's text
 * parsed (it must pass, or fail with diagnostics) and its trials' values read
 * back as text. */
#ifndef TESTS_CONFIG_FIXTURE_H
#define TESTS_CONFIG_FIXTURE_H

#include "experiment/config.h"
#include "base/util.h"

/* The diagnostics, one "L:C: msg" a line (caller frees). */
char *diags_text(const diags *d);

/* Parses `text` (named t.yaml); must succeed. */
experiment *parse_ok(const char *text);

/* parse_ok, and the experiment has n trials (asserted). */
experiment *parse_n(const char *text, long long n);

/* Parses `text`; must fail.  Returns all diagnostics, one "L:C: msg" a line. */
char *parse_err(const char *text);

/* Asserts that `msgs` contains `want` (e.g. "3:5: unknown key ..."). */
#define expect_diag(msgs, want) \
    cr_expect(strstr((msgs), (want)) != NULL, "expected diagnostic '%s', got:\n%s", (want), (msgs))

/* parse_err(text) must hold the diagnostic `want`. */
void expect_parse_error(const char *text, const char *want);

/* The column `name` (asserted to exist). */
int col_of(const experiment *e, const char *name);

/* Text of column `name` in trial t ("" when it has no value). */
const char *tv(const experiment *e, long long t, const char *name);

/* Column `name` over every trial, comma-separated (caller frees). */
char *values(const experiment *e, const char *name);

/* Several columns per trial: "a/b a/b ...". */
char *rows(const experiment *e, const char *const *names);

char *column_names(const experiment *e);

#define expect_values(e, name, want)                                                        \
    do {                                                                                    \
        char *got_ = values((e), (name));                                                   \
        cr_expect_str_eq(got_, (want), "column '%s': got %s, want %s", (name), got_, (want)); \
        free(got_);                                                                         \
    } while (0)

#define expect_rows(e, want, ...)                                                  \
    do {                                                                           \
        static const char *const n_[] = {__VA_ARGS__, NULL};                       \
        char *got_ = rows((e), n_);                                                \
        cr_expect_str_eq(got_, (want), "rows: got\n  %s\nwant\n  %s", got_, (want)); \
        free(got_);                                                                \
    } while (0)

/* expect_values of parse_ok(text), which is then freed. */
#define expect_parsed_values(text, name, want)                                                     \
    do {                                                                                           \
        experiment *e_ = parse_ok(text);                                                           \
        expect_values(e_, (name), (want));                                                         \
        experiment_free(e_);                                                                       \
    } while (0)

/* expect_rows of parse_ok(text), which is then freed. */
#define expect_parsed_rows(text, want, ...)                                                        \
    do {                                                                                           \
        experiment *e_ = parse_ok(text);                                                           \
        expect_rows(e_, (want), __VA_ARGS__);                                                      \
        experiment_free(e_);                                                                       \
    } while (0)

#endif
