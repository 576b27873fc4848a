/* svg_clean.c - see svg_clean.h.  A small tokenizer over the file's tags,
 * not an XML parser: whatever it cannot read as an allowed element or
 * attribute is left out, so a malformed file gives a poorer chart, never
 * markup of its own. */
#include "results/report/svg_clean.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* the elements and attributes of gnuplot's SVG terminal, and a few of the
 * same kind (shapes, gradients, clipping) */
static const char *const elements[] = {
    "svg",      "g",        "defs",    "title",   "desc",           "path",
    "rect",     "circle",   "ellipse", "line",    "polyline",       "polygon",
    "text",     "tspan",    "use",     "symbol",  "marker",         "clipPath",
    "filter",   "feFlood",  "feComposite", "feOffset", "feGaussianBlur", "feMerge",
    "feMergeNode", "linearGradient", "radialGradient", "stop", NULL};
static const char *const attributes[] = {
    "id", "class", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "dx", "dy",
    "width", "height", "d", "points", "transform", "viewBox", "preserveAspectRatio",
    "version", "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width",
    "stroke-linecap", "stroke-linejoin", "stroke-dasharray", "stroke-dashoffset",
    "stroke-opacity", "stroke-miterlimit", "opacity", "color", "font-family", "font-size",
    "font-weight", "font-style", "text-anchor", "dominant-baseline", "shape-rendering",
    "text-rendering", "visibility", "display", "clip-path", "clip-rule", "filter",
    "filterUnits", "flood-color", "flood-opacity", "in", "in2", "operator", "result",
    "stdDeviation", "offset", "stop-color", "stop-opacity", "gradientUnits",
    "gradientTransform", "markerWidth", "markerHeight", "refX", "refY", "orient",
    "textLength", "lengthAdjust", "xml:space", "xlink:href", "href", "xmlns", "xmlns:xlink",
    NULL};

static int listed(const char *const *list, const char *s, size_t n)
{
    for (int i = 0; list[i]; i++)
        if (strlen(list[i]) == n && !memcmp(list[i], s, n))
            return 1;
    return 0;
}

static int name_char(char c)
{
    return isalnum((unsigned char)c) || c == '-' || c == '_' || c == ':' || c == '.';
}

/* An id, or the part after '#' of a reference: letters, digits, - and _. */
static int plain_id(const char *s, size_t n)
{
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_')
            return 0;
    return 1;
}

/* A value with no markup, quote, entity, escape or '=': what a number, a
 * colour, a path, a transform or a font name is written with; "url(" only
 * as url(#id). */
static int plain_value(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            return 0;
        if (strchr("<>\"'&\\`=", c))
            return 0;
        if (c == '(' && i >= 3 && !strncasecmp(s + i - 3, "url", 3)) {
            size_t z = i + 1;
            if (z >= n || s[z] != '#')
                return 0;
            while (z < n && s[z] != ')')
                z++;
            if (z >= n || !plain_id(s + i + 2, z - i - 2))
                return 0;
        }
    }
    return 1;
}

/* One attribute, checked and written: id and references prefixed. */
static void put_attr(strbuf *b, const char *name, size_t nl, const char *v, size_t vl,
                     const char *pre)
{
    if (!listed(attributes, name, nl) || !plain_value(v, vl))
        return;
    int link = (nl == 10 && !memcmp(name, "xlink:href", 10)) || (nl == 4 && !memcmp(name, "href", 4));
    if (link && (vl < 2 || v[0] != '#' || !plain_id(v + 1, vl - 1)))
        return; /* a link only to an element of this chart */
    if (nl == 2 && !memcmp(name, "id", 2) && !plain_id(v, vl))
        return;
    if (nl == 5 && !memcmp(name, "xmlns", 5) && (vl != 26 || memcmp(v, "http://www.w3.org/2000/svg", 26)))
        return;
    if (nl == 11 && !memcmp(name, "xmlns:xlink", 11) &&
        (vl != 28 || memcmp(v, "http://www.w3.org/1999/xlink", 28)))
        return;
    sb_printf(b, " %.*s='", (int)nl, name);
    if (nl == 2 && !memcmp(name, "id", 2))
        sb_printf(b, "%s-", pre);
    for (size_t i = 0; i < vl; i++) {
        if (link && i == 1)
            sb_printf(b, "%s-", pre);
        if (v[i] == '(' && i + 1 < vl && v[i + 1] == '#' && i >= 3 &&
            !strncasecmp(v + i - 3, "url", 3)) {
            sb_printf(b, "(#%s-", pre);
            i++;
            continue;
        }
        sb_putc(b, v[i]);
    }
    sb_putc(b, '\'');
}

/* Text between tags, as text: '&' kept only where it starts an entity of
 * letters or a numeric reference, else written &amp;; '>' as &gt;. */
static void put_text(strbuf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '&') {
            size_t z = i + 1;
            if (z < n && s[z] == '#') {
                z++;
                if (z < n && (s[z] == 'x' || s[z] == 'X'))
                    z++;
            }
            size_t start = z;
            while (z < n && isalnum((unsigned char)s[z]) && z - start < 10)
                z++;
            if (z > start && z < n && s[z] == ';') {
                sb_putn(b, s + i, z + 1 - i);
                i = z;
            } else {
                sb_puts(b, "&amp;");
            }
        } else if (s[i] == '>') {
            sb_puts(b, "&gt;");
        } else {
            sb_putc(b, s[i]);
        }
    }
}

/* A parsed tag: <name attrs> </name> <name/>; p just past its '>'. */
typedef struct tag {
    const char *name;
    size_t nl;
    int close, empty;
    const char *attrs, *attrs_end;
} tag;

/* Reads the tag at s ('<'); 0 and *next past it, or -1 when s is not one
 * (a comment, a declaration, a stray '<': *next past what to skip). */
static int read_tag(const char *s, tag *t, const char **next)
{
    memset(t, 0, sizeof *t);
    const char *p = s + 1;
    if (!strncmp(p, "!--", 3)) {
        const char *z = strstr(p + 3, "-->");
        *next = z ? z + 3 : p + strlen(p);
        return -1;
    }
    if (!strncmp(p, "![CDATA[", 8)) {
        const char *z = strstr(p, "]]>");
        *next = z ? z + 3 : p + strlen(p);
        return -1;
    }
    if (*p == '!' || *p == '?') {
        const char *z = strchr(p, '>');
        *next = z ? z + 1 : p + strlen(p);
        return -1;
    }
    if (*p == '/') {
        t->close = 1;
        p++;
    }
    if (!isalpha((unsigned char)*p)) {
        *next = s + 1; /* a stray '<': text */
        return -2;
    }
    t->name = p;
    while (name_char(*p))
        p++;
    t->nl = (size_t)(p - t->name);
    t->attrs = p;
    /* to the '>' that ends the tag, past quoted values */
    char q = 0;
    for (; *p && (q || *p != '>'); p++)
        if (q && *p == q)
            q = 0;
        else if (!q && (*p == '"' || *p == '\''))
            q = *p;
    if (!*p) {
        *next = p;
        return -1;
    }
    t->attrs_end = p;
    t->empty = p > t->attrs && p[-1] == '/';
    *next = p + 1;
    return 0;
}

/* The attributes of an allowed tag, written. */
static void put_attrs(strbuf *b, const tag *t, const char *pre)
{
    const char *p = t->attrs, *end = t->attrs_end - (t->empty ? 1 : 0);
    while (p < end) {
        while (p < end && isspace((unsigned char)*p))
            p++;
        const char *name = p;
        while (p < end && name_char(*p))
            p++;
        size_t nl = (size_t)(p - name);
        if (!nl) {
            p++; /* a character no attribute starts with */
            continue;
        }
        while (p < end && isspace((unsigned char)*p))
            p++;
        const char *v = p;
        size_t vl = 0;
        if (p < end && *p == '=') {
            p++;
            while (p < end && isspace((unsigned char)*p))
                p++;
            if (p < end && (*p == '"' || *p == '\'')) {
                char q = *p++;
                v = p;
                while (p < end && *p != q)
                    p++;
                vl = (size_t)(p - v);
                if (p < end)
                    p++;
            } else {
                v = p;
                while (p < end && !isspace((unsigned char)*p))
                    p++;
                vl = (size_t)(p - v);
            }
        }
        put_attr(b, name, nl, v, vl, pre);
    }
}

enum { MAX_DEPTH = 256 };

int svg_clean(strbuf *b, const char *text, const char *pre)
{
    const char *p = text, *next;
    tag t;
    /* the root: the first element named svg */
    for (;;) {
        p = p ? strchr(p, '<') : NULL;
        if (!p)
            return -1;
        int r = read_tag(p, &t, &next);
        if (r == 0 && !t.close && t.nl == 3 && !memcmp(t.name, "svg", 3))
            break;
        p = next;
    }
    const char *open[MAX_DEPTH];
    size_t openl[MAX_DEPTH];
    int depth = 0, skip = 0; /* skip: inside a left-out element, its depth */
    while (*p) {
        if (*p != '<') {
            size_t n = strcspn(p, "<");
            if (!skip && depth)
                put_text(b, p, n);
            p += n;
            continue;
        }
        int r = read_tag(p, &t, &next);
        if (r == -2 && !skip && depth)
            sb_puts(b, "&lt;");
        p = next;
        if (r != 0)
            continue;
        if (skip) {
            if (t.close)
                skip--;
            else if (!t.empty)
                skip++;
            continue;
        }
        if (t.close) {
            /* only the close of the element open now; any other is dropped */
            if (depth && openl[depth - 1] == t.nl && !memcmp(open[depth - 1], t.name, t.nl)) {
                sb_printf(b, "</%.*s>", (int)t.nl, t.name);
                if (--depth == 0)
                    break; /* the root's end */
            }
            continue;
        }
        if (!listed(elements, t.name, t.nl) || (depth == MAX_DEPTH && !t.empty)) {
            if (!t.empty)
                skip = 1;
            continue;
        }
        sb_printf(b, "<%.*s", (int)t.nl, t.name);
        put_attrs(b, &t, pre);
        if (t.empty) {
            sb_puts(b, "/>");
            if (!depth)
                break; /* <svg/> */
            continue;
        }
        sb_putc(b, '>');
        open[depth] = t.name;
        openl[depth++] = t.nl;
    }
    while (depth > 0) { /* a file cut short: its elements closed */
        depth--;
        sb_printf(b, "</%.*s>", (int)openl[depth], open[depth]);
    }
    sb_putc(b, '\n');
    return 0;
}
