/* config_fixture.c - see config_fixture.h. */
#include "config_fixture.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *diags_text(const diags *d)
{
    strbuf b = {0};
    for (int i = 0; i < d->n; i++)
        sb_printf(&b, "%d:%d: %s\n", d->items[i].line, d->items[i].col, d->items[i].msg);
    return sb_take(&b);
}

experiment *parse_ok(const char *text)
{
    diags d = {0};
    experiment *e = experiment_parse("t.yaml", text, strlen(text), &d);
    char *msgs = diags_text(&d);
    cr_assert(e != NULL, "experiment_parse failed:\n%s\nfile:\n%s", msgs, text);
    cr_assert_eq(d.n, 0, "a valid file produced diagnostics:\n%s", msgs);
    free(msgs);
    diag_free(&d);
    return e;
}

experiment *parse_n(const char *text, long long n)
{
    experiment *e = parse_ok(text);
    cr_assert_eq(e->ntrials, n, "%lld trials, want %lld", (long long)e->ntrials, n);
    return e;
}

char *parse_err(const char *text)
{
    diags d = {0};
    experiment *e = experiment_parse("t.yaml", text, strlen(text), &d);
    if (e) {
        long long n = e->ntrials;
        experiment_free(e);
        cr_assert_fail("expected an error, got %lld trials; file:\n%s", n, text);
    }
    cr_assert_gt(d.n, 0, "NULL without a diagnostic");
    char *msgs = diags_text(&d);
    diag_free(&d);
    return msgs;
}

int col_of(const experiment *e, const char *name)
{
    int c = experiment_column(e, name);
    cr_assert_geq(c, 0, "no column '%s'", name);
    return c;
}

const char *tv(const experiment *e, long long t, const char *name)
{
    value v = trial_value(e, t, col_of(e, name));
    return v.kind == VAL_NONE ? "" : v.text;
}

char *values(const experiment *e, const char *name)
{
    int c = col_of(e, name);
    strbuf b = {0};
    for (long long t = 0; t < e->ntrials; t++) {
        value v = trial_value(e, t, c);
        sb_printf(&b, "%s%s", t ? "," : "", v.kind == VAL_NONE ? "" : v.text);
    }
    return sb_take(&b);
}

char *rows(const experiment *e, const char *const *names)
{
    strbuf b = {0};
    for (long long t = 0; t < e->ntrials; t++) {
        if (t)
            sb_putc(&b, ' ');
        for (int i = 0; names[i]; i++)
            sb_printf(&b, "%s%s", i ? "/" : "", tv(e, t, names[i]));
    }
    return sb_take(&b);
}

char *column_names(const experiment *e)
{
    strbuf b = {0};
    for (int c = 0; c < e->ncols; c++)
        sb_printf(&b, "%s%s", c ? "," : "", e->cols[c].name);
    return sb_take(&b);
}

void expect_parse_error(const char *text, const char *want)
{
    char *m = parse_err(text);
    expect_diag(m, want);
    free(m);
}
