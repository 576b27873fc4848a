/* test_svg_clean.c - a run folder is untrusted input (issue 34, item 2):
 * its SVG charts reach report.html rebuilt through svg_clean's allow-list,
 * so that no script or handler from a file runs in the reader's browser.
 * tests/data/hostile.svg holds the attacks (upper-case tags, on*
 * attributes, javascript: links, <foreignObject>, a tag that closes the
 * <svg> early); each marks the page's root element when it runs, which
 * headless Chromium's DOM shows. */
#include "base/util.h"
#include "browser.h"
#include "plots_fixture.h"
#include "results/report/svg_clean.h"
#include "runproc.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char *hostile(void)
{
    const char *root = getenv("RUNNER_ROOT") ? getenv("RUNNER_ROOT") : ".";
    char p[4096];
    snprintf(p, sizeof p, "%s/tests/data/hostile.svg", root);
    char *t = read_file(p, NULL);
    cr_assert_not_null(t, "%s", p);
    return t;
}

static char *clean(const char *text, const char *pre)
{
    strbuf b = {0};
    cr_assert_eq(svg_clean(&b, text, pre), 0);
    return sb_take(&b);
}

Test(svg_clean, keeps_the_drawing_and_prefixes_ids)
{
    char *out = clean("<?xml version='1.0'?>\n<svg width='10' viewBox=\"0 0 10 10\" "
                      "xmlns='http://www.w3.org/2000/svg'>\n<defs><path id='p' d='M0,0 h2'/>"
                      "</defs><g id=\"g1\" filter='url(#f)'><use xlink:href='#p' "
                      "transform='rotate(180)'/><text x='1'>a &lt; b &amp; c &gt; d & e</text>"
                      "</g></svg>trailing <script>x</script>",
                      "c2");
    cr_expect_str_eq(out,
                     "<svg width='10' viewBox='0 0 10 10' xmlns='http://www.w3.org/2000/svg'>\n"
                     "<defs><path id='c2-p' d='M0,0 h2'/></defs><g id='c2-g1' filter='url(#c2-f)'>"
                     "<use xlink:href='#c2-p' transform='rotate(180)'/><text x='1'>a &lt; b "
                     "&amp; c &gt; d &amp; e</text></g></svg>\n");
    free(out);
    strbuf b = {0};
    cr_expect_eq(svg_clean(&b, "<html><SVG></SVG></html>", "c1"), -1, "no <svg>: %s", b.s);
    cr_expect_eq(b.len, 0);
    /* a file cut short: its elements closed */
    out = clean("<svg><g><text>abc", "c1");
    cr_expect_str_eq(out, "<svg><g><text>abc</text></g></svg>\n");
    free(out);
}

Test(svg_clean, leaves_out_every_attack)
{
    char *text = hostile();
    char *out = clean(text, "c1");
    static const char *const never[] = {"script", "SCRIPT", "Script", "onload", "onerror",
                                        "ONERROR", "javascript", "&#106;", "foreignObject",
                                        "<a", "<image", "<IMAGE", "<img", "<iframe", "srcdoc",
                                        "<animate", "<set", "<style", "style=", "data:",
                                        "http://example", "pwned", "<body"};
    for (size_t i = 0; i < sizeof never / sizeof *never; i++)
        cr_expect_null(strstr(out, never[i]), "'%s' in:\n%s", never[i], out);
    /* the harmless parts stay */
    cr_expect(strstr(out, "<g id='c1-x'><rect width='10' height='10' fill='red'/></g>"), "%s",
              out);
    cr_expect(strstr(out, "<text x='1' y='40'>a &lt;b&gt; &amp; c</text>"), "%s", out);
    free(out);
    free(text);
}

/* The output's markup is the allow-list's: each tag an allowed element,
 * its attributes name='value' with no on* handler, a link only "#id".
 * NULL, or what broke the rule. */
static const char *bad_markup(const char *s)
{
    static const char *const ok[] = {
        "svg", "g", "defs", "title", "desc", "path", "rect", "circle", "ellipse", "line",
        "polyline", "polygon", "text", "tspan", "use", "symbol", "marker", "clipPath", "filter",
        "feFlood", "feComposite", "feOffset", "feGaussianBlur", "feMerge", "feMergeNode",
        "linearGradient", "radialGradient", "stop", NULL};
    for (const char *p = s; (p = strchr(p, '<'));) {
        p++;
        if (*p == '/')
            p++;
        size_t l = strcspn(p, " />");
        int known = 0;
        for (int i = 0; ok[i] && !known; i++)
            known = strlen(ok[i]) == l && !strncmp(ok[i], p, l);
        if (!known)
            return p;
        p += l;
        while (*p == ' ') { /* name='value', the value without a quote */
            p++;
            const char *name = p;
            p += strcspn(p, "=");
            if (p[0] != '=' || p[1] != '\'')
                return name;
            if ((name[0] == 'o' || name[0] == 'O') && (name[1] == 'n' || name[1] == 'N'))
                return name;
            const char *v = p + 2;
            int link = !strncmp(name, "href=", 5) || !strncmp(name, "xlink:href=", 11);
            if (link && *v != '#')
                return name;
            p = strchr(v, '\'');
            if (!p)
                return v;
            p++;
        }
        if (*p == '/')
            p++;
        if (*p != '>')
            return p;
    }
    return NULL;
}

/* The hostile file cut, spliced and with bytes changed, 3000 times (a fixed
 * seed): no output ever holds a script, a handler or a javascript: link. */
Test(svg_clean, mutated_attacks_stay_out)
{
    char *text = hostile();
    size_t n = strlen(text);
    unsigned long long x = 88172645463325252ULL;
    char *m = xmalloc(2 * n + 1);
    for (int round = 0; round < 3000; round++) {
        memcpy(m, text, n + 1);
        size_t len = n;
        for (int k = 0; k < 8; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            size_t at = (size_t)(x % len);
            switch ((x >> 32) % 4) {
            case 0: /* a byte changed to one of the markup's */
                m[at] = "<>/=\"' \nSsOoAa&#;:"[(x >> 40) % 19];
                break;
            case 1: /* a cut */
                len = at + 1;
                m[len] = '\0';
                break;
            case 2: { /* a part repeated */
                size_t from = (size_t)((x >> 20) % len), l = (size_t)((x >> 44) % 64);
                if (from + l > len)
                    l = len - from;
                if (len + l < 2 * n) {
                    memmove(m + at + l, m + at, len - at + 1);
                    memmove(m + at, m + (from < at ? from : at), l);
                    len += l;
                }
                break;
            }
            default: /* a byte dropped */
                memmove(m + at, m + at + 1, len - at);
                len--;
                break;
            }
            if (!len)
                break;
        }
        strbuf b = {0};
        if (svg_clean(&b, m, "c1") == 0) {
            const char *bad = bad_markup(b.s);
            cr_assert_null(bad, "round %d: at '%.30s' in\n%s", round, bad, b.s);
        }
        sb_free(&b);
    }
    free(m);
    free(text);
}

Test(svg_clean, hostile_charts_run_no_script_in_chromium, .timeout = 240)
{
    const char *browser = chromium_or_skip("the hostile SVGs");
    char *d = tmpdir();
    char *text = hostile();
    /* the control: the same SVG inlined as it is does run its scripts in
     * this browser, so a clean page below means the attacks were removed */
    char *raw = xasprintf("<!DOCTYPE html><html><head><title>t</title></head><body>%s"
                          "</body></html>\n",
                          strstr(text, "<svg"));
    write_text(d, "control.html", raw);
    char page[4200];
    snprintf(page, sizeof page, "file://%s/control.html", d);
    char *dom = dump_dom(browser, d, page, NULL);
    static const char *const fired[] = {"data-pwned-upper", "data-pwned-lower",
                                        "data-pwned-cdata", "data-pwned-svgonload",
                                        "data-pwned-image", "data-pwned-foreign",
                                        "data-pwned-breakout"};
    for (size_t i = 0; i < sizeof fired / sizeof *fired; i++)
        cr_assert(strstr(dom, fired[i]), "the control did not run %s: %.300s", fired[i], dom);
    free(dom);
    /* a run folder whose charts were replaced by the hostile one */
    free(fixture_copy(d)); /* tests/fixtures/matmul_run */
    proc_out r;
    run((char *[]){"plot", d, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    static const char *const charts[] = {"time", "throughput", "speedup", "breakdown"};
    char plots[4200];
    snprintf(plots, sizeof plots, "%s/plots", d);
    for (size_t i = 0; i < sizeof charts / sizeof *charts; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s.svg", charts[i]);
        write_text(plots, name, text);
    }
    run((char *[]){"report", d, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    snprintf(page, sizeof page, "file://%s/report.html#sort=median", d);
    dom = dump_dom(browser, d, page, NULL);
    cr_expect_null(strstr(dom, "data-pwned"), "a hostile chart ran script: %.300s",
                   strstr(dom, "data-pwned") ? strstr(dom, "data-pwned") : "");
    /* the report's own script ran: it sorted the table (#sort=median) */
    cr_expect(strstr(dom, "data-dir=\"asc\">median</th>"), "the report's script did not run");
    free(dom);
    free(raw);
    free(text);
    free(d);
}
