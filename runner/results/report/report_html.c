/* report_html.c - see report_html.h.  The Markdown parts (environment,
 * findings, noisy, failed and skipped trials) are rendered by cmark-gfm
 * with its table extension, raw HTML left out; the charts are gnuplot's
 * own SVG files, inlined; the trials table is written here. */
#include "results/report/report_html.h"

#include "base/util.h"
#include "results/report/svg_clean.h"
#include "results/rundir/rundir.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the rows of the trials table, as in report.md */
#define HTML_ROWS 1000

/* --- the charts ----------------------------------------------------------- */

static int chart_rank(const char *name)
{
    static const char *const order[] = {"time",      "bar",   "speedup", "throughput",
                                        "breakdown", "warmup"};
    for (int i = 0; i < 6; i++)
        if (!strcmp(order[i], name))
            return i;
    return 6;
}

static int cmp_chart(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    int rx = chart_rank(x), ry = chart_rank(y);
    return rx != ry ? rx - ry : strcmp(x, y);
}

int report_chart_names(const char *run_dir, char ***out)
{
    char *dir = rundir_path(run_dir, RD_PLOTS);
    DIR *d = opendir(dir);
    free(dir);
    char **names = NULL;
    int n = 0;
    struct dirent *de;
    while (d && (de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l < 5 || strcmp(de->d_name + l - 4, ".png") || de->d_name[0] == '.')
            continue;
        char *stem = xasprintf("%.*s", (int)(l - 4), de->d_name);
        if (!valid_file_stem(stem)) { /* names come from files: only the safe ones */
            free(stem);
            continue;
        }
        XGROW(names, n);
        names[n++] = stem;
    }
    if (d)
        closedir(d);
    xqsort(names, (size_t)n, sizeof *names, cmp_chart);
    *out = names;
    return n;
}

/* --- text ----------------------------------------------------------------- */

/* HTML text or attribute value: & < > " ' escaped, control characters as
 * spaces. */
static void html_text(strbuf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '&': sb_puts(b, "&amp;"); break;
        case '<': sb_puts(b, "&lt;"); break;
        case '>': sb_puts(b, "&gt;"); break;
        case '"': sb_puts(b, "&quot;"); break;
        case '\'': sb_puts(b, "&#39;"); break;
        default: sb_putc(b, *p < 0x20 || *p == 0x7F ? ' ' : (char)*p);
        }
    }
}

/* Markdown to HTML (GitHub's tables; raw HTML is not passed through). */
static void md_html(strbuf *b, const char *md)
{
    cmark_gfm_core_extensions_ensure_registered();
    cmark_parser *p = cmark_parser_new(CMARK_OPT_DEFAULT);
    cmark_syntax_extension *table = cmark_find_syntax_extension("table");
    if (table)
        cmark_parser_attach_syntax_extension(p, table);
    cmark_parser_feed(p, md, strlen(md));
    cmark_node *doc = cmark_parser_finish(p);
    char *html = cmark_render_html(doc, CMARK_OPT_DEFAULT, cmark_parser_get_syntax_extensions(p));
    sb_puts(b, html);
    free(html);
    cmark_node_free(doc);
    cmark_parser_free(p);
}

/* --- one chart: gnuplot's SVG inlined ------------------------------------- */

/* Appends the chart's <svg> element, rebuilt through svg_clean's
 * allow-list: a run folder's files are untrusted input, and no script or
 * handler from one may run in the reader's browser
 * (doc/results.md#plots-and-reports).  Returns 0, or -1 when the file is not readable or has no
 * <svg>. */
static int inline_svg(strbuf *b, const char *path, const char *pre)
{
    char *text = read_file(path, NULL);
    int rc = text ? svg_clean(b, text, pre) : -1;
    free(text);
    return rc;
}

static void charts(strbuf *b, const char *run_dir)
{
    char **names;
    int n = report_chart_names(run_dir, &names);
    sb_puts(b, "<h2 id=\"charts\">Charts</h2>\n");
    if (!n)
        sb_puts(b, "<p>No charts: none was drawn (the run had <code>--no-plots</code>, no ok "
                   "trial, or no gnuplot); <code>runner plot</code> on this folder draws "
                   "them.</p>\n");
    for (int i = 0; i < n; i++) {
        char *svg = xasprintf("%s/%s/%s.svg", run_dir, rundir_name(RD_PLOTS), names[i]);
        char *pre = xasprintf("c%d", i + 1);
        sb_printf(b, "<figure class=\"chart\" id=\"chart-%s\">\n", names[i]);
        if (inline_svg(b, svg, pre) < 0)
            sb_printf(b, "<p>plots/%s.svg is missing or not an SVG file.</p>\n", names[i]);
        sb_printf(b,
                  "<figcaption>%s: <a href=\"plots/%s.svg\">%s.svg</a>, "
                  "<a href=\"plots/%s.png\">%s.png</a>, script <a href=\"plots/%s.gp\">%s.gp</a>"
                  "</figcaption>\n</figure>\n",
                  names[i], names[i], names[i], names[i], names[i], names[i], names[i]);
        free(pre);
        free(svg);
        free(names[i]);
    }
    free(names);
}

/* --- the trials table ----------------------------------------------------- */

static void cell(strbuf *b, const run_model *m, int r, int c)
{
    const char *s = pm_cell(m, r, c);
    double v = pm_num(m, r, c);
    char t[64];
    if (!isfinite(v)) {
        /* one line; the whole text on hover when it is cut */
        sb_puts(b, "<td title=\"");
        html_text(b, s);
        sb_puts(b, "\">");
        html_text(b, s);
        sb_puts(b, "</td>");
        return;
    }
    /* the number as saved in data-v (the sort key), shown tidily */
    sb_puts(b, "<td class=\"n\" data-v=\"");
    html_text(b, s);
    sb_puts(b, "\">");
    if (pm_is_time_col(m, c)) {
        fmt_seconds(t, sizeof t, v);
        html_text(b, t);
    } else if (c == m->c_size) {
        pm_fmt_num(t, sizeof t, v);
        html_text(b, t);
    } else {
        html_text(b, s);
    }
    sb_puts(b, "</td>");
}

static void trials(strbuf *b, const run_model *m)
{
    int *cols = xmalloc(((size_t)m->ncols + 1) * sizeof *cols);
    int nc = 0;
    cols[nc++] = 0;
    strbuf fixed = {0};
    for (int c = m->key_first; c <= m->key_last; c++) {
        if (m->swept[c] || pm_varies(m, c)) {
            cols[nc++] = c;
        } else if (m->nrows > 0 && *pm_cell(m, 1, c)) {
            sb_puts(&fixed, fixed.len ? ", " : "");
            html_text(&fixed, m->t.rows[0][c]);
            sb_puts(&fixed, "=");
            html_text(&fixed, pm_cell(m, 1, c));
        }
    }
    for (int c = m->key_last + 1; c < m->ncols; c++) {
        int any = 0;
        for (int r = 1; r <= m->nrows && !any; r++)
            any = *pm_cell(m, r, c) != '\0';
        if (any)
            cols[nc++] = c;
    }
    sb_printf(b, "<h2 id=\"trials\">Trials</h2>\n<p>Every column of %s with a value; "
                 "times in seconds are shown in their unit (the saved value is the sort key). "
                 "Click a column's name to sort by it.",
              rundir_name(RD_TRIALS));
    if (fixed.len)
        sb_printf(b, " The same for every trial: %s.", fixed.s);
    sb_puts(b, "</p>\n<div class=\"wide\"><table id=\"trials-table\" class=\"sortable\">\n"
               "<thead><tr>");
    for (int i = 0; i < nc; i++) {
        sb_puts(b, "<th>");
        html_text(b, m->t.rows[0][cols[i]]);
        sb_puts(b, "</th>");
    }
    sb_puts(b, "</tr></thead>\n<tbody>\n");
    const int shown = m->nrows < HTML_ROWS ? m->nrows : HTML_ROWS;
    for (int r = 1; r <= shown; r++) {
        const char *st = pm_cell(m, r, m->c_status);
        sb_puts(b, "<tr class=\"");
        html_text(b, st);
        sb_puts(b, "\">");
        for (int i = 0; i < nc; i++)
            cell(b, m, r, cols[i]);
        sb_puts(b, "</tr>\n");
    }
    sb_puts(b, "</tbody>\n</table></div>\n");
    if (shown < m->nrows)
        sb_printf(b, "<p>%d more trials are in %s.</p>\n", m->nrows - shown,
                  rundir_name(RD_TRIALS));
    sb_free(&fixed);
    free(cols);
}

/* --- the page ------------------------------------------------------------- */

static const char style[] =
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#222;margin:0 auto;"
    "max-width:1200px;padding:1em 2em}\n"
    "h1{font-size:1.7em;margin-bottom:.2em}h2{border-bottom:1px solid #ddd;padding-bottom:.2em;"
    "margin-top:1.6em}\n"
    "table{border-collapse:collapse;margin:.6em 0;font-size:.92em}\n"
    "th,td{border:1px solid #d8d8d8;padding:.25em .55em;vertical-align:top}\n"
    "th{background:#f3f3f3;text-align:left}td.n{text-align:right}\n"
    "th:empty{padding:0;border:0;background:none}\n"
    ".wide td{white-space:nowrap;max-width:24em;overflow:hidden;text-overflow:ellipsis}\n"
    "tbody tr:nth-child(even){background:#fafafa}\n"
    ".wide{overflow-x:auto;max-height:80vh;overflow-y:auto}\n"
    ".wide thead th{position:sticky;top:0;cursor:pointer;white-space:nowrap}\n"
    ".wide th[data-dir=asc]::after{content:' \\25B2'}.wide th[data-dir=desc]::after{content:' "
    "\\25BC'}\n"
    "tr.failed td,tr.timeout td{background:#fde8e8}tr.skipped td{color:#777}\n"
    "figure.chart{margin:1em 0}figure.chart svg{max-width:100%;height:auto;display:block}\n"
    "figcaption{font-size:.85em;color:#555}code{background:#f3f3f3;padding:0 .2em}\n";

/* Sorting the trials table: a click on a header sorts by that column
 * (numbers by value, data-v where given), a second click reverses;
 * report.html#sort=COLUMN opens it sorted. */
static const char script[] =
    "(function(){\n"
    "var t=document.getElementById('trials-table');if(!t)return;\n"
    "function key(td){var v=td.hasAttribute('data-v')?td.getAttribute('data-v'):td.textContent;"
    "return v.trim()!==''&&isFinite(Number(v))?Number(v):v;}\n"
    "var hs=t.tHead.rows[0].cells;\n"
    "function sort(i){var th=hs[i],dir=th.getAttribute('data-dir')==='asc'?-1:1;\n"
    "for(var k=0;k<hs.length;k++)hs[k].removeAttribute('data-dir');\n"
    "th.setAttribute('data-dir',dir>0?'asc':'desc');\n"
    "var tb=t.tBodies[0],rows=Array.prototype.slice.call(tb.rows);\n"
    "rows.sort(function(a,b){var x=key(a.cells[i]),y=key(b.cells[i]);\n"
    "if(typeof x!==typeof y)return(typeof x==='number'?-1:1)*dir;return(x<y?-1:x>y?1:0)*dir;});\n"
    "rows.forEach(function(r){tb.appendChild(r);});}\n"
    "for(var i=0;i<hs.length;i++)hs[i].addEventListener('click',sort.bind(null,i));\n"
    "var m=/^#sort=(.+)$/.exec(location.hash);\n"
    "for(var j=0;m&&j<hs.length;j++)if(hs[j].textContent===decodeURIComponent(m[1]))sort(j);\n"
    "})();\n";

int report_html_write(const char *run_dir, const run_model *m, const char *md_head,
                      const char *md_tail, char *err, size_t errlen)
{
    strbuf b = {0};
    sb_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                "<title>");
    html_text(&b, m->name);
    sb_puts(&b, ": runner report</title>\n<style>\n");
    sb_puts(&b, style);
    sb_puts(&b, "</style>\n</head>\n<body>\n");
    md_html(&b, md_head);
    charts(&b, run_dir);
    trials(&b, m);
    if (md_tail && *md_tail)
        md_html(&b, md_tail);
    sb_puts(&b, "<script>\n");
    sb_puts(&b, script);
    sb_puts(&b, "</script>\n</body>\n</html>\n");

    char *out = rundir_path(run_dir, RD_REPORT_HTML);
    int rc = 0;
    if (write_file_atomic(out, b.s, b.len) < 0) {
        snprintf(err, errlen, "cannot write %s: %s", out, strerror(errno));
        rc = -1;
    }
    free(out);
    sb_free(&b);
    return rc;
}
