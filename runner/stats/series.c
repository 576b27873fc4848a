/* series.c - see series.h. */
#include "stats/series.h"

#include "base/util.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>

void series_add(series *s, double v)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->x = xrealloc(s->x, (size_t)s->cap * sizeof *s->x);
    }
    s->x[s->n++] = v;
}

double series_median(const series *s)
{
    return s->n ? stats_median_copy(s->x, s->n) : NAN;
}

double series_spread(const series *s)
{
    if (!s->n)
        return NAN;
    double m = series_median(s), *dev = xmalloc((size_t)s->n * sizeof *dev);
    for (int i = 0; i < s->n; i++)
        dev[i] = fabs(s->x[i] - m);
    double d = stats_median_copy(dev, s->n);
    free(dev);
    return 1.4826 * d;
}

void series_free(series *s)
{
    free(s->x);
    s->x = NULL;
    s->n = s->cap = 0;
}
