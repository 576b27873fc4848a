/* value.h - one typed scalar from an experiment file, with the canonical
 * text that goes into CSV files, labels, filters and the backends. */
#ifndef RUNNER_VALUE_H
#define RUNNER_VALUE_H
/* public header of runner/base/ */

#include <stddef.h>

typedef enum { VAL_NONE = 0, VAL_INT, VAL_FLOAT, VAL_BOOL, VAL_STR } val_kind;

typedef struct value {
    val_kind kind;
    long long i; /* VAL_INT, VAL_BOOL */
    double f;    /* VAL_FLOAT; VAL_INT and VAL_BOOL too, as a convenience */
    char *text;  /* never NULL unless kind == VAL_NONE */
} value;

value value_int(long long i);
value value_float(double f);
value value_bool(int b);
value value_str(const char *s);
value value_copy(const value *v);
void value_free(value *v);

int value_is_num(const value *v);
/* Equal as numbers when both are numbers, otherwise as text. */
int value_equal(const value *a, const value *b);

/* The text of a number in CSV files (doc/results.md#results): the fewest
 * significant digits, at most `digits` (17: every bit), that read back as
 * f rounded to `digits` significant digits; written out from 0.0001 to
 * below 10^15 (1000000, not 1e+06), with an exponent below and above
 * (1.5e-05, 2.5e+20).  Parsed and written again with 17 digits, the text
 * comes back the same. */
void format_number(char *out, size_t n, double f, int digits);
/* format_number with 17 digits: the shortest text that reads back as f. */
void format_double(char *out, int n, double f);
/* f with `decimals` decimals, trailing zeros dropped (0.000 -> 0, 1.30 ->
 * 1.3): the same text format_number gives, for |f| from 0.0001 to 10^15. */
void format_decimals(char *out, size_t n, double f, int decimals);

#endif
