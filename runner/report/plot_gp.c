/* plot_gp.c - see plot_gp.h. */
#include "report/plot_gp.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Length of the valid UTF-8 sequence at p (1..4), or 0 if invalid. */
static int utf8_len(const unsigned char *p)
{
    unsigned char c = p[0];
    int n;
    unsigned min;
    unsigned cp;
    if (c < 0x80)
        return 1;
    if ((c & 0xE0) == 0xC0) {
        n = 2;
        cp = c & 0x1F;
        min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3;
        cp = c & 0x0F;
        min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4;
        cp = c & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

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

static int executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

char *gp_find(void)
{
    const char *prog = getenv("RUNNER_GNUPLOT");
    if (!prog || !*prog)
        prog = "gnuplot";
    if (strchr(prog, '/'))
        return executable(prog) ? xstrdup(prog) : NULL;
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    char *copy = xstrdup(path), *save = NULL;
    char *found = NULL;
    for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        char *p = xasprintf("%s/%s", *d ? d : ".", prog);
        if (executable(p))
            found = p;
        else
            free(p);
    }
    free(copy);
    return found;
}

int gp_run(const char *prog, const char *dir, const char *script, double timeout, char *err,
           size_t errlen)
{
    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        close(pfd[0]);
        close(pfd[1]);
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0)
            dup2(nul, 0);
        dup2(pfd[1], 1);
        dup2(pfd[1], 2);
        if (chdir(dir) < 0) {
            dprintf(2, "cannot enter %s: %s\n", dir, strerror(errno));
            _exit(126);
        }
        char *argv[] = {(char *)prog, (char *)script, NULL};
        execvp(prog, argv);
        dprintf(2, "cannot run %s: %s\n", prog, strerror(errno));
        _exit(127);
    }
    close(pfd[1]);
    char out[8192];
    size_t len = 0;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int killed = 0;
    for (;;) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double left =
            timeout - ((double)(now.tv_sec - t0.tv_sec) + (now.tv_nsec - t0.tv_nsec) / 1e9);
        if (left <= 0) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            killed = 1;
            break;
        }
        struct pollfd pf = {.fd = pfd[0], .events = POLLIN};
        int pr = poll(&pf, 1, (int)(left * 1000) + 1);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0)
            continue;
        char buf[4096];
        ssize_t n = read(pfd[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        /* keep the last part of the output (buf is smaller than out) */
        if (len + (size_t)n >= sizeof out) {
            size_t drop = len + (size_t)n - (sizeof out - 1);
            memmove(out, out + drop, len - drop);
            len -= drop;
        }
        memcpy(out + len, buf, (size_t)n);
        len += (size_t)n;
    }
    close(pfd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    out[len] = '\0';
    /* trim trailing blank lines */
    while (len > 0 && (out[len - 1] == '\n' || out[len - 1] == ' '))
        out[--len] = '\0';
    if (killed) {
        snprintf(err, errlen, "%s did not finish in %.0f s", prog, timeout);
        return -1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    const char *tail = out;
    if (len > 600)
        tail = out + len - 600;
    if (WIFSIGNALED(status))
        snprintf(err, errlen, "%s was killed by signal %d%s%s", prog, WTERMSIG(status),
                 *tail ? ": " : "", tail);
    else
        snprintf(err, errlen, "%s exited with status %d%s%s", prog, WEXITSTATUS(status),
                 *tail ? ": " : "", tail);
    return -1;
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
