/* exec_yaml.c - see exec.h: a command given as one string split into
 * words, the experiment's name, the checks of its placeholders, and the
 * experiment file it implies (doc/own-code.md#one-line-mode). */
#include "cli/exec.h"

#include "base/util.h"
#include "experiment/command_spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a command line split as hyperfine --shell=none splits it ---------- */

static void push_word(char ***words, int *n, strbuf *w)
{
    XGROW(*words, *n + 1);
    (*words)[(*n)++] = sb_take(w);
    (*words)[*n] = NULL;
}

static int no_shell(char c, const char *line, const char *p, char *err, size_t errlen)
{
    snprintf(err, errlen,
             "'%c' at column %d of '%s': runner exec runs no shell, so the program would get it "
             "as text; quote it to mean that, or name the shell: -- sh -c '...'",
             c, (int)(p - line) + 1, line);
    return -1;
}

int exec_split(const char *line, char ***words, int *nwords, char *err, size_t errlen)
{
    *words = NULL;
    *nwords = 0;
    strbuf w = {0};
    int in_word = 0;
    const char *p = line;
    for (; *p; p++) {
        char c = *p;
        if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word)
                push_word(words, nwords, &w);
            in_word = 0;
            continue;
        }
        if (strchr("|&;<>$`*?", c) || (c == '~' && !in_word))
            goto refuse;
        in_word = 1;
        sb_puts(&w, "");
        if (c == '\\') {
            if (!p[1]) {
                snprintf(err, errlen, "'%s' ends in a lone '\\'", line);
                goto fail;
            }
            sb_putc(&w, *++p);
        } else if (c == '\'' || c == '"') {
            const char *q = p + 1;
            for (; *q && *q != c; q++) {
                if (c == '"' && (*q == '$' || *q == '`')) {
                    p = q;
                    c = *q;
                    goto refuse;
                }
                if (c == '"' && *q == '\\' && q[1] && strchr("\"\\$`", q[1]))
                    q++;
                sb_putc(&w, *q);
            }
            if (!*q) {
                snprintf(err, errlen, "'%s' has an unclosed %c (at column %d)", line, c,
                         (int)(p - line) + 1);
                goto fail;
            }
            p = q;
        } else {
            sb_putc(&w, c);
        }
    }
    if (in_word)
        push_word(words, nwords, &w);
    if (*nwords == 0) {
        snprintf(err, errlen, "an empty command ('%s'): give the program and its arguments", line);
        goto fail;
    }
    return 0;
refuse:
    no_shell(*p, line, p, err, errlen);
fail:
    sb_free(&w);
    for (int i = 0; i < *nwords; i++)
        free((*words)[i]);
    free(*words);
    *words = NULL;
    *nwords = 0;
    return -1;
}

char *exec_default_name(char *const *words, int nwords)
{
    strbuf b = {0};
    for (int i = 0; i < nwords && b.len < 40; i++) {
        const char *w = words[i];
        if (i == 0 && strrchr(w, '/'))
            w = strrchr(w, '/') + 1;
        int dash = b.len > 0;
        for (const char *p = w; *p && b.len < 48; p++) {
            int ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                     (*p >= '0' && *p <= '9') || *p == '.' || *p == '_';
            if (!ok) {
                dash = b.len > 0;
                continue;
            }
            if (dash && b.s[b.len - 1] != '-')
                sb_putc(&b, '-');
            dash = 0;
            sb_putc(&b, *p);
        }
    }
    char *s = sb_take(&b);
    if (!valid_file_stem(s)) {
        free(s);
        s = xstrdup("exec");
    }
    return s;
}

/* ---- placeholders ------------------------------------------------------ */

/* the run keys every trial has a value of, beside the parameters */
static const char *const always[] = {"threads", "seed", "device", "io", "dtype", NULL};

static int is_name(const char *s, size_t n)
{
    if (n == 0 || (s[0] >= '0' && s[0] <= '9'))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return 0;
    return 1;
}

static int known(const exec_spec *s, const char *name, size_t n)
{
    for (int i = 0; i < s->nparams; i++)
        if (strlen(s->params[i].name) == n && !strncmp(s->params[i].name, name, n))
            return 1;
    for (int i = 0; always[i]; i++)
        if (strlen(always[i]) == n && !strncmp(always[i], name, n))
            return 1;
    return 0;
}

/* The word as a template of command_expand: {NAME} of a known name stays a
 * placeholder, {{ and }} stay escapes, every other brace is text. */
static char *template_of(const exec_spec *s, const char *word)
{
    strbuf b = {0};
    sb_puts(&b, "");
    for (const char *p = word; *p; p++) {
        if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
            sb_putn(&b, p, 2);
            p++;
            continue;
        }
        const char *end = *p == '{' ? strchr(p + 1, '}') : NULL;
        if (end && known(s, p + 1, (size_t)(end - p - 1))) {
            sb_putn(&b, p, (size_t)(end - p + 1));
            p = end;
        } else if (*p == '{' || *p == '}') {
            sb_putn(&b, p, 1);
            sb_putn(&b, p, 1);
        } else {
            sb_putc(&b, *p);
        }
    }
    return sb_take(&b);
}

typedef struct use_ctx {
    const char *name;
    int used;
} use_ctx;

static void note_use(void *ctx, const char *name, size_t at)
{
    (void)at;
    use_ctx *u = ctx;
    u->used |= !strcmp(name, u->name);
}

/* Each {NAME} of the words close to a known name but none: -1 with err. */
static int near_names(const exec_spec *s, char *const *words, int nwords, char *err,
                      size_t errlen)
{
    const char **names = xcalloc((size_t)s->nparams + 8, sizeof *names);
    int nn = 0;
    for (int i = 0; i < s->nparams; i++)
        names[nn++] = s->params[i].name;
    for (int i = 0; always[i]; i++)
        names[nn++] = always[i];
    int rc = 0;
    for (int w = 0; w < nwords && !rc; w++) {
        const char *p = words[w];
        while (!rc && (p = strchr(p, '{'))) {
            if (p[1] == '{') {
                p += 2;
                continue;
            }
            const char *end = strchr(p + 1, '}');
            size_t n = end ? (size_t)(end - p - 1) : 0;
            char name[64];
            if (end && n < sizeof name && is_name(p + 1, n) && !known(s, p + 1, n)) {
                snprintf(name, sizeof name, "%.*s", (int)n, p + 1);
                const char *sug = closest_word(name, names);
                if (sug) {
                    snprintf(err, errlen,
                             "'%s': unknown placeholder {%s}; did you mean {%s}? (write {{%s}} "
                             "for the text {%s})",
                             words[w], name, sug, name, name);
                    rc = -1;
                }
            }
            p++;
        }
    }
    free(names);
    return rc;
}

int exec_check_placeholders(const exec_spec *s, const char *text, char *err, size_t errlen)
{
    char *words[] = {(char *)text};
    return near_names(s, words, 1, err, errlen);
}

int exec_check_words(const exec_spec *s, const exec_cmd *c, char *err, size_t errlen)
{
    int rc = near_names(s, c->words, c->nwords, err, errlen);
    /* per_call: the parameters reach the program through its words only */
    for (int i = 0; i < s->nparams && !rc && strcmp(s->protocol, "persistent"); i++) {
        use_ctx u = {s->params[i].name, 0};
        for (int w = 0; w < c->nwords + (c->prepare != NULL); w++) { /* or its prepare's */
            char *t = template_of(s, w < c->nwords ? c->words[w] : c->prepare);
            char e2[200];
            size_t at;
            command_placeholders(t, note_use, &u, e2, sizeof e2, &at);
            free(t);
        }
        if (!u.used) {
            snprintf(err, errlen,
                     "parameter '%s' is not used by the command '%s': write {%s} where its value "
                     "goes",
                     u.name, c->words[0], u.name);
            rc = -1;
        }
    }
    return rc;
}

typedef struct value_ctx {
    const char *(*value)(void *ctx, const char *name);
    void *ctx;
} value_ctx;

static char *lookup(void *ctx, const char *name)
{
    value_ctx *v = ctx;
    const char *s = v->value(v->ctx, name);
    return s ? xstrdup(s) : NULL;
}

char *exec_expand_word(const exec_spec *s, const char *word,
                       const char *(*value)(void *ctx, const char *name), void *ctx)
{
    char *t = template_of(s, word), err[200];
    value_ctx v = {value, ctx};
    char *out = command_expand(t, lookup, &v, err, sizeof err);
    free(t);
    return out ? out : xstrdup(word);
}

/* ---- the experiment file ------------------------------------------------ */

/* s in YAML's double quotes (every byte below 0x20 escaped) */
static void yaml_quoted(strbuf *b, const char *s)
{
    sb_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            sb_printf(b, "\\%c", *p);
        else if (*p == '\n')
            sb_puts(b, "\\n");
        else if (*p == '\t')
            sb_puts(b, "\\t");
        else if (*p < 0x20 || *p == 0x7f)
            sb_printf(b, "\\x%02x", *p);
        else
            sb_putc(b, (char)*p);
    }
    sb_putc(b, '"');
}

/* An integer written as the loader writes it back (no sign but -, no
 * leading zero) is plain; any other value is quoted text, so that the
 * program gets what was typed: the loader reads a plain 007 as 7 and 0.50
 * as 0.5, where hyperfine passes the text. */
static void yaml_value(strbuf *b, const char *s)
{
    const char *d = s + (s[0] == '-');
    int plain = *d && strspn(d, "0123456789") == strlen(d) && (d[0] != '0' || !d[1]) &&
                strlen(d) < 19;
    if (plain)
        sb_puts(b, s);
    else
        yaml_quoted(b, s);
}

char *exec_yaml(const exec_spec *s, int k)
{
    const exec_cmd *c = &s->cmds[k];
    strbuf b = {0};
    int flat = 1; /* the command line fits on a comment line */
    for (int i = 0; i < s->argc; i++)
        flat &= !strpbrk(s->argv[i], "\n\r");
    if (flat) {
        sb_puts(&b, "# runner");
        for (int i = 0; i < s->argc; i++) {
            sb_putc(&b, ' ');
            if (s->argv[i][0] && strspn(s->argv[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLM"
                                                      "NOPQRSTUVWXYZ0123456789-_.,/=:+@%{}") ==
                                     strlen(s->argv[i]))
                sb_puts(&b, s->argv[i]);
            else
                sh_quote(&b, s->argv[i]);
        }
        sb_putc(&b, '\n');
    }
    sb_puts(&b, "# The experiment this `runner exec` implies: `runner FILE.yaml` runs it again;\n"
                "# edit it into a full study (doc/own-code.md, doc/experiment-file.md).\n");
    sb_printf(&b, "name: %s\nworkload: command\ncommand: [", c->name);
    for (int i = 0; i < c->nwords; i++) {
        char *t = template_of(s, c->words[i]);
        /* a program's path is relative to the experiment file: made absolute */
        if (i == 0 && strchr(t, '/') && t[0] != '/' && t[0] != '{') {
            char *abs = xasprintf("%s/%s", s->cwd, t);
            free(t);
            t = abs;
        }
        sb_puts(&b, i ? ", " : "");
        yaml_quoted(&b, t);
        free(t);
    }
    sb_puts(&b, "]\ncwd: ");
    yaml_quoted(&b, s->cwd);
    sb_printf(&b, "\nprotocol: %s\n", s->protocol);
    if (c->prepare) { /* a shell's line: untimed, so the shell costs the samples nothing */
        char *t = template_of(s, c->prepare);
        sb_puts(&b, "prepare: [\"sh\", \"-c\", ");
        yaml_quoted(&b, t);
        sb_puts(&b, "]\n");
        free(t);
    }
    if (s->nparams)
        sb_puts(&b, "sweep:\n");
    for (int i = 0; i < s->nparams; i++) {
        const exec_param *p = &s->params[i];
        sb_printf(&b, "  %s: ", p->name);
        if (p->scan) {
            sb_printf(&b, "{range: [%lld, %lld, %lld]}\n", p->lo, p->hi, p->step);
            continue;
        }
        sb_putc(&b, '[');
        for (int j = 0; j < p->nvalues; j++) {
            sb_puts(&b, j ? ", " : "");
            yaml_value(&b, p->values[j]);
        }
        sb_puts(&b, "]\n");
    }
    if (s->runs > 0)
        sb_printf(&b, "repeats: %d\n", s->runs);
    else
        sb_puts(&b, "repeats: auto\n");
    if (s->min_runs > 0 || s->max_runs > 0) {
        sb_puts(&b, "stop: {");
        if (s->min_runs > 0)
            sb_printf(&b, "min_samples: %d%s", s->min_runs, s->max_runs > 0 ? ", " : "");
        if (s->max_runs > 0)
            sb_printf(&b, "max_samples: %d", s->max_runs);
        sb_puts(&b, "}\n");
    }
    if (s->warmups >= 0)
        sb_printf(&b, "warmups: %d\n", s->warmups);
    if (s->timeout) {
        sb_puts(&b, "timeout: ");
        yaml_value(&b, s->timeout);
        sb_putc(&b, '\n');
    }
    return sb_take(&b);
}
