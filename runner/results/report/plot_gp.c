/* plot_gp.c - see plot_gp.h. */
#include "results/report/plot_gp.h"

#include "base/spawn.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends the cleaned text: control characters (newlines included) as
 * spaces, invalid UTF-8 as '?'; with quote = '\'' (the text goes inside a
 * single-quoted string), each single quote as '."'".' -- see gp_quote(). */
static void put_clean(strbuf *b, const char *s, size_t maxlen, char quote)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t used = 0;
    while (*p) {
        int n = utf8_len(p);
        if (maxlen && used + (n ? (size_t)n : 1) > maxlen) {
            sb_puts(b, "...");
            break;
        }
        if (n == 0) {
            sb_putc(b, '?');
            p++;
            used++;
            continue;
        }
        if (n == 1) {
            char c = (char)*p;
            if (*p < 0x20 || *p == 0x7F)
                c = ' ';
            if (quote && c == quote)
                sb_puts(b, "'.\"'\".'"); /* see gp_quote() */
            else
                sb_putc(b, c);
        } else if (n == 2 && p[0] == 0xC2 && p[1] < 0xA0) {
            sb_putc(b, ' '); /* C1 controls (U+0080..U+009F) */
        } else if (n == 3 && p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0xA8 || p[2] == 0xA9)) {
            sb_putc(b, ' '); /* line and paragraph separators */
        } else {
            sb_putn(b, (const char *)p, (size_t)n);
        }
        p += n;
        used += (size_t)n;
    }
}

/* gnuplot's single-quoted strings know no escape but a doubled quote, and
 * its scanner does not always honour that one: '' right after the opening
 * quote, or right after another doubled quote, ends the string.  So a quote
 * in the text ends the string and is concatenated as a double-quoted "'"
 * (which holds no backquote, backslash or @): it's -> 'it'."'".'s'.  Every
 * place the runner puts text (titles, axis labels, labels, key entries,
 * tic labels) takes such a string expression. */
void gp_quote(strbuf *b, const char *s, size_t maxlen)
{
    sb_putc(b, '\'');
    put_clean(b, s, maxlen, '\'');
    sb_putc(b, '\'');
}

char *gp_clean(const char *s, size_t maxlen)
{
    strbuf b = {0};
    sb_puts(&b, "");
    put_clean(&b, s, maxlen, 0);
    /* a datablock ends at a line "EOD": keep such text off a line of its own */
    if (!strncmp(b.s, "EOD", 3)) {
        char *t = xasprintf("_%s", b.s);
        sb_free(&b);
        return t;
    }
    return sb_take(&b);
}

/* --- finding and running gnuplot -------------------------------------- */

char *gp_find(void)
{
    const char *prog = getenv("RUNNER_GNUPLOT");
    return spawn_find(prog && *prog ? prog : "gnuplot");
}

int gp_run(const char *prog, const char *dir, const char *script, double timeout, char *err,
           size_t errlen)
{
    char *argv[] = {(char *)prog, (char *)script, NULL};
    spawn_opts o = {.dir = dir, .with_stderr = 1, .own_group = 1, .timeout = timeout, .keep = 8191};
    spawn_result r;
    int rc = spawn_run(argv, &o, &r);
    char *out = r.out;
    size_t len = r.len;
    /* trim trailing blank lines */
    while (len > 0 && (out[len - 1] == '\n' || out[len - 1] == ' '))
        out[--len] = '\0';
    if (rc < 0 || r.status != 0) {
        const char *tail = len > 600 ? out + len - 600 : out;
        if (!r.started)
            snprintf(err, errlen, "cannot run %s: %s", prog, strerror(r.error));
        else if (r.timed_out)
            snprintf(err, errlen, "%s did not finish in %.0f s", prog, timeout);
        else if (r.signal)
            snprintf(err, errlen, "%s was killed by signal %d%s%s", prog, r.signal,
                     *tail ? ": " : "", tail);
        else
            snprintf(err, errlen, "%s exited with status %d%s%s", prog, r.status,
                     *tail ? ": " : "", tail);
        rc = -1;
    }
    spawn_result_free(&r);
    return rc;
}

/* --- templates -------------------------------------------------------- */

static const char builtin_template[] =
    "# {{NAME}}.gp - a {{TYPE}} chart of a runner run (built-in style: plots/{{TYPE}}.gp\n"
    "# was not found).  Edit, then re-draw with:  gnuplot {{NAME}}.gp\n"
    "{{DATA}}\n"
    "set encoding utf8\n"
    "set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11'\n"
    "set output {{PNG}}\n"
    "set title {{TITLE}} noenhanced font ',14'\n"
    "set xlabel {{XLABEL}} noenhanced\n"
    "set ylabel {{YLABEL}} noenhanced\n"
    "set grid lc rgb '#dddddd'\n"
    "set key outside right top noenhanced\n"
    "set style fill solid 0.85 border lc rgb '#444444'\n"
    "set bmargin 6\n"
    "h2d_colour = '#a8a8a8'\n"
    "compute_colour = '#4a4a4a'\n"
    "d2h_colour = '#dcdcdc'\n"
    "{{AXES}}\n"
    "{{MARKS}}\n"
    "plot {{PLOT}}{{REFLINE}}\n"
    "set terminal svg size 1000,650 enhanced font 'DejaVu Sans,11' background rgb 'white'\n"
    "set output {{SVG}}\n"
    "replot\n"
    "set output\n";


char *gp_template(const char *type, int *builtin)
{
    char *dirs[8];
    int nd = 0;
    const char *env = getenv("RUNNER_PLOT_TEMPLATES");
    if (env && *env)
        dirs[nd++] = xstrdup(env);
    /* bin/runner -> plots/; build/bin/runner and build/tests/ too */
    static const char *const rel[] = {"../plots", "../../plots", "../share/runner/plots"};
    char found[4096];
    if (find_beside_exe(rel, 3, 1, found, sizeof found) == 0)
        dirs[nd++] = xstrdup(found);
    dirs[nd++] = xstrdup("/usr/local/share/runner/plots");
    dirs[nd++] = xstrdup("/usr/share/runner/plots");
    char *text = NULL;
    for (int i = 0; i < nd; i++) {
        if (!text) {
            char *p = xasprintf("%s/%s.gp", dirs[i], type);
            text = read_file(p, NULL);
            free(p);
        }
        free(dirs[i]);
    }
    *builtin = text == NULL;
    return text ? text : xstrdup(builtin_template);
}

char *gp_fill(const char *tmpl, const char *const *keys, const char *const *vals, int n)
{
    strbuf b = {0};
    sb_puts(&b, "");
    const char *p = tmpl;
    while (*p) {
        const char *open = strstr(p, "{{");
        if (!open) {
            sb_puts(&b, p);
            break;
        }
        const char *close = strstr(open + 2, "}}");
        if (!close) {
            sb_puts(&b, p);
            break;
        }
        sb_putn(&b, p, (size_t)(open - p));
        size_t klen = (size_t)(close - open - 2);
        int found = 0;
        for (int i = 0; i < n && !found; i++)
            if (strlen(keys[i]) == klen && !strncmp(open + 2, keys[i], klen)) {
                sb_puts(&b, vals[i] ? vals[i] : "");
                found = 1;
            }
        p = close + 2;
    }
    return sb_take(&b);
}
