/* diag.c - see diag.h. */
#include "base/diag.h"

#include "base/util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Beyond this many, more errors only bury the first ones. */
#define DIAG_MAX 100

void diag_add(diags *d, int line, int col, const char *fmt, ...)
{
    if (d->n >= DIAG_MAX)
        return;
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 8;
        d->items = xrealloc(d->items, (size_t)d->cap * sizeof *d->items);
    }
    strbuf b = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    sanitize_text(b.s); /* a Lua error's escape sequences never reach the terminal */
    /* one node reached through several aliases reports once */
    for (int i = 0; i < d->n; i++)
        if (d->items[i].line == line && d->items[i].col == col && !strcmp(d->items[i].msg, b.s)) {
            sb_free(&b);
            return;
        }
    d->items[d->n++] = (diag_item){line, col, sb_take(&b)};
}

void diag_print(const diags *d, FILE *out)
{
    for (int i = 0; i < d->n; i++) {
        const diag_item *it = &d->items[i];
        if (it->line > 0)
            fprintf(out, "%s:%d:%d: error: %s\n", d->file, it->line, it->col, it->msg);
        else
            fprintf(out, "%s: error: %s\n", d->file, it->msg);
    }
}

void diag_free(diags *d)
{
    for (int i = 0; i < d->n; i++)
        free(d->items[i].msg);
    free(d->items);
    d->items = NULL;
    d->n = d->cap = 0;
}
