/* value.c - see value.h. */
#include "base/value.h"

#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void format_double(char *out, int n, double f)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(out, (size_t)n, "%.*g", prec, f);
        if (strtod(out, NULL) == f)
            return;
    }
}

value value_int(long long i)
{
    return (value){.kind = VAL_INT, .i = i, .f = (double)i, .text = xasprintf("%lld", i)};
}

value value_float(double f)
{
    char buf[40];
    format_double(buf, sizeof buf, f);
    return (value){.kind = VAL_FLOAT, .f = f, .text = xstrdup(buf)};
}

value value_bool(int b)
{
    return (value){.kind = VAL_BOOL, .i = !!b, .f = !!b, .text = xstrdup(b ? "true" : "false")};
}

value value_str(const char *s)
{
    return (value){.kind = VAL_STR, .text = xstrdup(s)};
}

value value_copy(const value *v)
{
    value c = *v;
    if (v->text)
        c.text = xstrdup(v->text);
    return c;
}

void value_free(value *v)
{
    free(v->text);
    *v = (value){0};
}

int value_is_num(const value *v)
{
    return v->kind == VAL_INT || v->kind == VAL_FLOAT;
}

int value_equal(const value *a, const value *b)
{
    if (value_is_num(a) && value_is_num(b))
        return a->f == b->f;
    if (!a->text || !b->text)
        return a->text == b->text;
    return strcmp(a->text, b->text) == 0;
}
