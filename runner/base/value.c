/* value.c - see value.h. */
#include "base/value.h"

#include "base/util.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void format_number(char *out, size_t n, double f, int digits)
{
    if (!isfinite(f) || f == 0) {
        snprintf(out, n, f == 0 ? "0" : "%g", f);
        return;
    }
    if (digits < 1 || digits > 17)
        digits = 17;
    char t[64];
    int p, x;
    snprintf(t, sizeof t, "%.*e", digits - 1, f);
    if (digits <= DBL_DIG && fabs(f) >= DBL_MIN) {
        /* the fewest digits that give f rounded to `digits` back are its
         * digits less their trailing zeros: two decimals of at most DBL_DIG
         * digits never read as one normal double (issue 38: the search
         * below cost two snprintf and a strtod a digit, per cell) */
        char *e = strchr(t, 'e');
        x = atoi(e + 1);
        p = 0;
        for (const char *c = t; c < e; c++)
            p += *c >= '0' && *c <= '9';
        for (const char *c = e - 1; c > t && p > 1 && (*c == '0' || *c == '.'); c--)
            p -= *c == '0';
    } else {
        double want = strtod(t, NULL); /* f rounded to `digits` */
        p = 1;
        for (; p < digits; p++) {
            snprintf(t, sizeof t, "%.*e", p - 1, f);
            if (strtod(t, NULL) == want)
                break;
        }
        snprintf(t, sizeof t, "%.*e", p - 1, f);
        x = atoi(strchr(t, 'e') + 1);
    }
    /* t's first p digits are f rounded to p digits (what follows them is
     * zeros, or was not printed), so the text is laid out from them: the
     * same text as %.*f with p - 1 - x decimals (which rounds at the same
     * digit) or %.*g with p digits, without a second printf a cell (issue
     * 38: a number written was two printf calls) */
    if (x >= p && x < 15) { /* %.0f: every digit of the whole number, not p */
        snprintf(out, n, "%.0f", f);
        return;
    }
    char d[24];
    int nd = 0;
    for (const char *c = t; *c && *c != 'e' && nd < p; c++)
        if (*c >= '0' && *c <= '9')
            d[nd++] = *c;
    while (nd < p)
        d[nd++] = '0';
    char o[64];
    int k = 0;
    if (f < 0)
        o[k++] = '-';
    if (x >= -4 && (x < 15 || x < p)) { /* %.*g too is fixed below p digits */
        if (x < 0) {
            o[k++] = '0';
            o[k++] = '.';
            for (int z = 0; z < -x - 1; z++)
                o[k++] = '0';
            for (int i = 0; i < p; i++)
                o[k++] = d[i];
        } else {
            for (int i = 0; i <= x; i++)
                o[k++] = d[i];
            if (p - 1 - x > 0) {
                o[k++] = '.';
                for (int i = x + 1; i < p; i++)
                    o[k++] = d[i];
            }
        }
        o[k] = '\0';
    } else {
        o[k++] = d[0];
        if (p > 1) {
            o[k++] = '.';
            for (int i = 1; i < p; i++)
                o[k++] = d[i];
        }
        int ax = x < 0 ? -x : x;
        o[k++] = 'e';
        o[k++] = x < 0 ? '-' : '+';
        if (ax >= 100)
            o[k++] = (char)('0' + ax / 100);
        o[k++] = (char)('0' + ax / 10 % 10);
        o[k++] = (char)('0' + ax % 10);
        o[k] = '\0';
    }
    if (n) { /* as snprintf(out, n, "%s", o) */
        size_t m = (size_t)k < n - 1 ? (size_t)k : n - 1;
        memcpy(out, o, m);
        out[m] = '\0';
    }
}

void format_double(char *out, int n, double f)
{
    format_number(out, (size_t)n, f, 17);
}

void format_decimals(char *out, size_t n, double f, int decimals)
{
    snprintf(out, n, "%.*f", decimals, f);
    if (strchr(out, '.')) {
        char *z = out + strlen(out);
        while (z[-1] == '0')
            *--z = '\0';
        if (z[-1] == '.')
            *--z = '\0';
    }
    if (!strcmp(out, "-0"))
        snprintf(out, n, "0");
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
    /* integers as integers: two of them past 2^53 may share a double */
    if (a->kind == VAL_INT && b->kind == VAL_INT)
        return a->i == b->i;
    if (value_is_num(a) && value_is_num(b))
        return a->kind == VAL_INT   ? (long double)a->i == b->f
               : b->kind == VAL_INT ? a->f == (long double)b->i
                                    : a->f == b->f;
    if (!a->text || !b->text)
        return a->text == b->text;
    return strcmp(a->text, b->text) == 0;
}
