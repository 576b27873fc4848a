/* warmup_curve.c - see warmup_curve.h. */
#include "run/exec/warmup_curve.h"

#include "base/util.h"

#include <stdlib.h>

void wcurve_init(wcurve *c, int k)
{
    c->k = k > 0 ? k : 0;
    c->n = 0;
    c->t = c->k ? xcalloc((size_t)c->k, sizeof *c->t) : NULL;
}

int wcurve_add(wcurve *c, double seconds)
{
    if (c->n >= c->k)
        return 0;
    c->t[c->n++] = seconds;
    return 1;
}

char *wcurve_text(const wcurve *c)
{
    if (c->n == 0)
        return NULL;
    strbuf b = {0};
    for (int i = 0; i < c->n; i++)
        sb_printf(&b, "%s%.4g", i ? " " : "", c->t[i]);
    return sb_take(&b);
}

void wcurve_free(wcurve *c)
{
    free(c->t);
    c->t = NULL;
    c->n = c->k = 0;
}
