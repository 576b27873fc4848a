/* report_text.c - see report_text.h. */
#include "results/report/report_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int alnum(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

/* Markdown text: no line breaks, no HTML tag, and the characters that would
 * start markup or end a table cell escaped (an underscore inside a word,
 * as in x86_64, starts nothing and stays as it is). */
void report_md(strbuf *b, const char *s)
{
    const unsigned char *p0 = (const unsigned char *)(s ? s : "");
    for (const unsigned char *p = p0; *p; p++) {
        if (*p < 0x20 || *p == 0x7F) {
            sb_putc(b, ' ');
        } else if (*p == '<') {
            sb_puts(b, "&lt;");
        } else if (*p == '_' && p > p0 && alnum(p[-1]) && alnum(p[1])) {
            sb_putc(b, '_');
        } else if (strchr("\\`*_[]|#!~", *p) || (*p == '>' && p == p0)) {
            sb_putc(b, '\\');
            sb_putc(b, (char)*p);
        } else {
            sb_putc(b, (char)*p);
        }
    }
}

void report_md_names(strbuf *b, const run_model *m, const int *cols, int n, const char *first,
                     const char *sep, const char *after)
{
    for (int k = 0; k < n; k++) {
        sb_puts(b, k ? sep : first);
        report_md(b, m->t.rows[0][cols[k]]);
        sb_puts(b, after);
    }
}

const char *report_jstr(json_object *o, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    json_object *cur = o;
    for (char *save, *k = strtok_r(buf, ".", &save); k && cur; k = strtok_r(NULL, ".", &save))
        if (!json_object_object_get_ex(cur, k, &cur))
            return NULL;
    if (!cur || json_object_is_type(cur, json_type_null))
        return NULL;
    return json_object_get_string(cur);
}

json_object *report_jget(json_object *o, const char *key)
{
    json_object *v;
    return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

void report_secs(char *out, size_t n, double s)
{
    if (!isfinite(s))
        snprintf(out, n, "-");
    else
        fmt_seconds(out, n, s);
}

/* A size or x value of a table as pm_fmt_num writes it (a cell that is not
 * a number as it is); the text lives until the next call. */
const char *report_num_cell(const run_model *m, int row, int col)
{
    static char t[64];
    double v = pm_num(m, row, col);
    if (!isfinite(v))
        return pm_cell(m, row, col);
    pm_fmt_num(t, sizeof t, v);
    return t;
}

/* "size=512 target=GPU": the swept keys of a row (a linked axis by label). */
char *report_describe(const run_model *m, int row)
{
    strbuf b = {0};
    sb_puts(&b, "");
    for (int c = m->key_first; c <= m->key_last; c++) {
        if (!m->swept[c] || (m->group[c] >= 0 && !m->is_label[c]))
            continue;
        sb_printf(&b, "%s%s=%s", b.len ? " " : "", m->t.rows[0][c],
                  c == m->c_size ? report_num_cell(m, row, c) : pm_cell(m, row, c));
    }
    if (!b.len && m->c_workload >= 0)
        sb_printf(&b, "workload=%s", pm_cell(m, row, m->c_workload));
    return sb_take(&b);
}
