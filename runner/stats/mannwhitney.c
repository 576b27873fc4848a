/* mannwhitney.c - see mannwhitney.h. */
#include "stats/mannwhitney.h"

#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double mw_exact_sf(int n1, int n2, double u)
{
    if (n1 < 0 || n2 < 0 || (long long)n1 * n2 > MW_EXACT_CELLS || isnan(u))
        return NAN;
    /* The null distribution is the same for (n1, n2) and (n2, n1): keep the
     * smaller one as `a`, the one whose every size is kept in memory. */
    int a = n1 < n2 ? n1 : n2, b = n1 < n2 ? n2 : n1;
    int cells = a * b;
    if (u <= 0)
        return 1.0;
    if (u > cells)
        return 0.0;
    size_t w = (size_t)cells + 1;
    /* prev[m][k] = P(U = k) for sizes (m, n - 1); cur[m][k] for (m, n).
     * The largest pooled value comes from the first sample with probability
     * m / (m + n), and then beats all n values of the second:
     *   P_{m,n}(k) = m/(m+n) P_{m-1,n}(k - n) + n/(m+n) P_{m,n-1}(k).
     * Only additions of positive terms: no cancellation, no overflow. */
    double *prev = xcalloc((size_t)(a + 1) * w, sizeof *prev);
    double *cur = xcalloc((size_t)(a + 1) * w, sizeof *cur);
    for (int m = 0; m <= a; m++)
        prev[(size_t)m * w] = 1.0; /* n = 0: U = 0 */
    for (int n = 1; n <= b; n++) {
        memset(cur, 0, (size_t)(a + 1) * w * sizeof *cur);
        cur[0] = 1.0; /* m = 0: U = 0 */
        for (int m = 1; m <= a; m++) {
            double px = (double)m / (m + n), py = (double)n / (m + n);
            double *c = cur + (size_t)m * w;
            const double *below = cur + (size_t)(m - 1) * w, *p = prev + (size_t)m * w;
            for (int k = 0; k <= m * n; k++) {
                double v = k <= m * (n - 1) ? py * p[k] : 0.0;
                if (k >= n && k - n <= (m - 1) * n)
                    v += px * below[k - n];
                c[k] = v;
            }
        }
        double *t = prev;
        prev = cur;
        cur = t;
    }
    const double *dist = b == 0 ? prev : prev + (size_t)a * w;
    double sf = 0.0;
    for (int k = cells; k >= 0 && k >= u - 1e-9; k--)
        sf += dist[k];
    free(prev);
    free(cur);
    return sf > 1.0 ? 1.0 : sf;
}

typedef struct obs {
    double v;
    int first; /* 1: from the first sample */
} obs;

static int cmp_obs(const void *pa, const void *pb)
{
    double x = ((const obs *)pa)->v, y = ((const obs *)pb)->v;
    return (x > y) - (x < y);
}

int mann_whitney(const double *x, int n1, const double *y, int n2, mw_method method,
                 mw_result *out)
{
    memset(out, 0, sizeof *out);
    out->u = out->p = NAN;
    obs *o = xmalloc(((size_t)(n1 > 0 ? n1 : 0) + (size_t)(n2 > 0 ? n2 : 0) + 1) * sizeof *o);
    int n = 0, a = 0, b = 0;
    for (int i = 0; i < n1; i++)
        if (isfinite(x[i])) {
            o[n++] = (obs){x[i], 1};
            a++;
        }
    for (int i = 0; i < n2; i++)
        if (isfinite(y[i])) {
            o[n++] = (obs){y[i], 0};
            b++;
        }
    out->n1 = a;
    out->n2 = b;
    if (a == 0 || b == 0) {
        free(o);
        return -1;
    }
    xqsort(o, (size_t)n, sizeof *o, cmp_obs);
    /* mean ranks of tied groups; the tie term sum(t^3 - t) */
    double r1 = 0.0, tie = 0.0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && o[j + 1].v == o[i].v)
            j++;
        double rank = 0.5 * ((i + 1) + (j + 1)), t = j - i + 1;
        for (int k = i; k <= j; k++)
            if (o[k].first)
                r1 += rank;
        if (t > 1)
            tie += t * t * t - t;
        i = j + 1;
    }
    free(o);
    double cells = (double)a * b;
    double u1 = r1 - (double)a * (a + 1) / 2.0;
    double umax = u1 > cells - u1 ? u1 : cells - u1;
    out->u = u1;
    out->ties = tie > 0;

    int exact = 0;
    if (!out->ties && (long long)a * b <= MW_EXACT_CELLS) {
        if (method == MW_EXACT)
            exact = 1;
        else if (method == MW_AUTO)
            exact = a <= MW_EXACT_MAX && b <= MW_EXACT_MAX;
    }
    if (exact) {
        double p = 2.0 * mw_exact_sf(a, b, umax);
        out->p = p > 1.0 ? 1.0 : p;
        out->exact = 1;
        return 0;
    }
    double var = cells / 12.0 * ((n + 1) - tie / ((double)n * (n - 1)));
    if (!(var > 0)) {
        out->p = 1.0; /* every value tied: no evidence of any difference */
        return 0;
    }
    double z = (umax - cells / 2.0 - 0.5) / sqrt(var);
    double p = erfc(z / sqrt(2.0)); /* 2 (1 - Phi(z)) */
    out->p = p > 1.0 ? 1.0 : p < 0.0 ? 0.0 : p;
    return 0;
}
