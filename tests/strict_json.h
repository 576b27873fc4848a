/* strict_json.h - a validator of JSON text exactly as RFC 8259 defines it,
 * for the tests and the fuzzer of `runner export --format json`: json-c's
 * JSON_TOKENER_STRICT still takes -01, 1.e5, 1., NaN, Infinity and raw tabs
 * in strings, which other readers (Python's json, JavaScript's JSON.parse)
 * refuse.  Header-only: the fuzzer is built apart from the test binary. */
#ifndef TESTS_STRICT_JSON_H
#define TESTS_STRICT_JSON_H

#include <stddef.h>

typedef struct strict_json {
    const unsigned char *p, *end;
    int depth;
} strict_json;

static int sj_value(strict_json *j);

static void sj_ws(strict_json *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
        j->p++;
}

static int sj_digit(const strict_json *j)
{
    return j->p < j->end && *j->p >= '0' && *j->p <= '9';
}

static int sj_lit(strict_json *j, const char *w)
{
    for (; *w; w++, j->p++)
        if (j->p >= j->end || *j->p != (unsigned char)*w)
            return 0;
    return 1;
}

static int sj_number(strict_json *j)
{
    if (j->p < j->end && *j->p == '-')
        j->p++;
    if (j->p < j->end && *j->p == '0')
        j->p++;
    else if (sj_digit(j) && *j->p != '0')
        while (sj_digit(j))
            j->p++;
    else
        return 0;
    if (j->p < j->end && *j->p == '.') {
        j->p++;
        if (!sj_digit(j))
            return 0;
        while (sj_digit(j))
            j->p++;
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
            j->p++;
        if (!sj_digit(j))
            return 0;
        while (sj_digit(j))
            j->p++;
    }
    return 1;
}

/* one UTF-8 sequence (RFC 3629) */
static int sj_utf8(strict_json *j)
{
    const unsigned char *s = j->p;
    int n = s[0] < 0x80 ? 1 : s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
                          : s[0] >= 0xF0 && s[0] <= 0xF4                                      ? 4
                                                                                              : 0;
    if (!n || j->end - s < n)
        return 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] > 0x9F) ||
        (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] > 0x8F))
        return 0;
    j->p += n;
    return 1;
}

static int sj_string(strict_json *j)
{
    if (j->p >= j->end || *j->p != '"')
        return 0;
    j->p++;
    while (j->p < j->end && *j->p != '"') {
        if (*j->p < 0x20)
            return 0;
        if (*j->p == '\\') {
            j->p++;
            if (j->p >= j->end)
                return 0;
            unsigned char c = *j->p++;
            if (c == 'u') {
                for (int i = 0; i < 4; i++, j->p++)
                    if (j->p >= j->end ||
                        !((*j->p >= '0' && *j->p <= '9') || (*j->p >= 'a' && *j->p <= 'f') ||
                          (*j->p >= 'A' && *j->p <= 'F')))
                        return 0;
            } else if (!(c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' || c == 'n' ||
                         c == 'r' || c == 't')) {
                return 0;
            }
        } else if (!sj_utf8(j)) {
            return 0;
        }
    }
    if (j->p >= j->end)
        return 0;
    j->p++;
    return 1;
}

/* an object's member: a string, ':', a value */
static int sj_member(strict_json *j)
{
    sj_ws(j);
    if (!sj_string(j))
        return 0;
    sj_ws(j);
    return j->p < j->end && *j->p++ == ':' && sj_value(j);
}

/* an object's or an array's items after its opening bracket: `item`s
 * separated by commas, up to `close` */
static int sj_items(strict_json *j, unsigned char close, int (*item)(strict_json *))
{
    sj_ws(j);
    if (j->p < j->end && *j->p == close) {
        j->p++;
        return 1;
    }
    for (;;) {
        if (!item(j))
            return 0;
        sj_ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
        } else if (j->p < j->end && *j->p == close) {
            j->p++;
            return 1;
        } else {
            return 0;
        }
    }
}

static int sj_value(strict_json *j)
{
    sj_ws(j);
    if (j->p >= j->end || ++j->depth > 512)
        return 0;
    int ok;
    switch (*j->p) {
    case '{':
        j->p++;
        ok = sj_items(j, '}', sj_member);
        break;
    case '[':
        j->p++;
        ok = sj_items(j, ']', sj_value);
        break;
    case '"':
        ok = sj_string(j);
        break;
    case 't':
        ok = sj_lit(j, "true");
        break;
    case 'f':
        ok = sj_lit(j, "false");
        break;
    case 'n':
        ok = sj_lit(j, "null");
        break;
    default:
        ok = sj_number(j);
    }
    j->depth--;
    return ok;
}

/* 1 when text[0 .. len) is one JSON text (RFC 8259): a value between
 * optional white space, nothing else; *where the offset of the first byte
 * that breaks it. */
static inline int strict_json_valid(const char *text, size_t len, size_t *where)
{
    strict_json j = {(const unsigned char *)text, (const unsigned char *)text + len, 0};
    int ok = sj_value(&j);
    sj_ws(&j);
    ok = ok && j.p == j.end;
    if (where)
        *where = (size_t)(j.p - (const unsigned char *)text);
    return ok;
}

#endif
