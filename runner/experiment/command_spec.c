/* command_spec.c - see command_spec.h. */
#include "experiment/command_spec.h"

#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const command_key_names[CMDKEY_COUNT + 1] = {
    "command", "protocol", "env", "cwd", "subtract_spawn", "restart", "prepare", NULL};

void command_spec_free(command_spec *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->argc; i++)
        free(c->argv[i]);
    for (int i = 0; i < c->nenv; i++)
        free(c->env[i]);
    for (int i = 0; i < c->nprepare; i++)
        free(c->prepare[i]);
    FREE_ALL(c->argv, c->env, c->arg_line, c->arg_col, c->env_line, c->env_col, c->cwd,
             c->prepare, c->prep_line, c->prep_col, c);
}

/* One pass over tmpl: literal text to `lit`, each placeholder to `ph`
 * (either may be NULL).  0, or -1 with err and *at set. */
static int scan(const char *tmpl, void (*lit)(void *ctx, const char *s, size_t n),
                int (*ph)(void *ctx, const char *name, size_t at), void *ctx, char *err,
                size_t errlen, size_t *at)
{
    const char *p = tmpl;
    while (*p) {
        if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
            if (lit)
                lit(ctx, p, 1);
            p += 2;
            continue;
        }
        if (*p == '}') {
            snprintf(err, errlen, "a lone '}' (write '}}' for a brace)");
            *at = (size_t)(p - tmpl);
            return -1;
        }
        if (*p != '{') {
            size_t n = strcspn(p, "{}");
            if (lit)
                lit(ctx, p, n);
            p += n;
            continue;
        }
        const char *end = strchr(p + 1, '}');
        size_t n = end ? (size_t)(end - p - 1) : 0;
        if (!end || !n || strcspn(p + 1, "{ \t") < n) {
            snprintf(err, errlen, "%s (a placeholder is {name}; write '{{' for a brace)",
                     !end ? "unclosed '{'" : !n ? "an empty placeholder '{}'"
                                                : "a '{' that opens no placeholder");
            *at = (size_t)(p - tmpl);
            return -1;
        }
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(n < 127 ? n : 127), p + 1);
        if (ph && ph(ctx, name, (size_t)(p - tmpl)) < 0) {
            *at = (size_t)(p - tmpl);
            return -1;
        }
        p = end + 1;
    }
    return 0;
}

typedef struct expand_ctx {
    strbuf b;
    cmd_lookup lookup;
    void *ctx;
    char *err;
    size_t errlen;
} expand_ctx;

static void put_lit(void *c, const char *s, size_t n)
{
    sb_putn(&((expand_ctx *)c)->b, s, n);
}

static int put_ph(void *c, const char *name, size_t at)
{
    (void)at;
    expand_ctx *x = c;
    char *v = x->lookup(x->ctx, name);
    if (!v) {
        snprintf(x->err, x->errlen, "placeholder {%s} has no value in this trial", name);
        return -1;
    }
    sb_puts(&x->b, v);
    free(v);
    return 0;
}

char *command_expand(const char *tmpl, cmd_lookup lookup, void *ctx, char *err, size_t errlen)
{
    expand_ctx x = {{0}, lookup, ctx, err, errlen};
    size_t at;
    sb_puts(&x.b, ""); /* "" expands to "", not NULL */
    if (scan(tmpl, put_lit, put_ph, &x, err, errlen, &at) < 0) {
        sb_free(&x.b);
        return NULL;
    }
    return sb_take(&x.b);
}

typedef struct list_ctx {
    void (*fn)(void *ctx, const char *name, size_t at);
    void *ctx;
} list_ctx;

static int list_ph(void *c, const char *name, size_t at)
{
    list_ctx *l = c;
    l->fn(l->ctx, name, at);
    return 0;
}

int command_placeholders(const char *tmpl, void (*fn)(void *ctx, const char *name, size_t at),
                         void *ctx, char *err, size_t errlen, size_t *at)
{
    list_ctx l = {fn, ctx};
    return scan(tmpl, NULL, list_ph, &l, err, errlen, at);
}
