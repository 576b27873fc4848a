/* value.h - one typed scalar from an experiment file, with the canonical
 * text that goes into CSV files, labels, filters and the backends. */
#ifndef RUNNER_VALUE_H
#define RUNNER_VALUE_H

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

/* Shortest text that reads back as the same double. */
void format_double(char *out, int n, double f);

#endif
