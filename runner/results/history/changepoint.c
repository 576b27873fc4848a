/* changepoint.c - see changepoint.h (doc/history.md#change-points). */
#include "results/history/changepoint.h"

#include "base/util.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Two heaps that keep the running median of a growing set and the sums of
 * each half: the L1 cost of the set about its median in O(log n) a value. */
typedef struct halves {
    double *lo, *hi; /* lo: a max-heap of the smaller half; hi: a min-heap */
    int nlo, nhi;
    double slo, shi;
} halves;

static void heap_push(double *h, int *n, double v, int max)
{
    int i = (*n)++;
    h[i] = v;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (max ? h[p] >= h[i] : h[p] <= h[i])
            break;
        double t = h[p];
        h[p] = h[i];
        h[i] = t;
        i = p;
    }
}

static double heap_pop(double *h, int *n, int max)
{
    double top = h[0];
    h[0] = h[--*n];
    for (int i = 0;;) {
        int l = 2 * i + 1, r = l + 1, b = i;
        if (l < *n && (max ? h[l] > h[b] : h[l] < h[b]))
            b = l;
        if (r < *n && (max ? h[r] > h[b] : h[r] < h[b]))
            b = r;
        if (b == i)
            break;
        double t = h[b];
        h[b] = h[i];
        h[i] = t;
        i = b;
    }
    return top;
}

/* Adds v; returns the L1 cost of the set so far about its median. */
static double halves_add(halves *H, double v)
{
    if (H->nlo == 0 || v <= H->lo[0]) {
        heap_push(H->lo, &H->nlo, v, 1);
        H->slo += v;
    } else {
        heap_push(H->hi, &H->nhi, v, 0);
        H->shi += v;
    }
    if (H->nlo > H->nhi + 1) {
        double t = heap_pop(H->lo, &H->nlo, 1);
        H->slo -= t;
        heap_push(H->hi, &H->nhi, t, 0);
        H->shi += t;
    } else if (H->nhi > H->nlo) {
        double t = heap_pop(H->hi, &H->nhi, 0);
        H->shi -= t;
        heap_push(H->lo, &H->nlo, t, 1);
        H->slo += t;
    }
    double m = H->lo[0];
    return (H->nlo * m - H->slo) + (H->shi - H->nhi * m);
}

/* cost[i]: the L1 cost of y[0..i] (step 1) or of y[i..n-1] (step -1). */
static void l1_costs(const double *y, int n, int dir, double *cost, halves *H)
{
    H->nlo = H->nhi = 0;
    H->slo = H->shi = 0;
    for (int k = 0; k < n; k++) {
        int i = dir > 0 ? k : n - 1 - k;
        cost[i] = halves_add(H, y[i]);
    }
}

double changepoint_noise(const double *y, int n)
{
    if (n < 3)
        return NAN;
    double *d = xmalloc((size_t)n * sizeof *d);
    for (int i = 1; i < n; i++)
        d[i - 1] = fabs(log(y[i]) - log(y[i - 1]));
    double mad = stats_median(d, n - 1);
    free(d);
    /* the median of |difference| of two normal values is 0.6745 sqrt(2) sigma */
    return mad / (0.6745 * sqrt(2.0));
}

typedef struct seg_state {
    const double *x; /* log values */
    double sigma, pen;
    int *cuts, ncuts;
    double *pre, *suf;
    halves H;
} seg_state;

/* Splits x[a..b) at its best point when the gain clears the penalty, and
 * each side again (binary segmentation). */
static void split(seg_state *S, int a, int b)
{
    int n = b - a, m = CHANGEPOINT_MIN_SEGMENT;
    if (n < 2 * m)
        return;
    l1_costs(S->x + a, n, 1, S->pre, &S->H);
    l1_costs(S->x + a, n, -1, S->suf, &S->H);
    double whole = S->pre[n - 1], best = 0;
    int at = -1;
    for (int k = m; k <= n - m; k++) {
        double gain = whole - S->pre[k - 1] - S->suf[k];
        if (gain > best) {
            best = gain;
            at = k;
        }
    }
    if (at < 0 || best / S->sigma <= S->pen)
        return;
    S->cuts[S->ncuts++] = a + at;
    split(S, a, a + at);
    split(S, a + at, b);
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* The median of x[a..b) and its interval's ends (order statistics, 95 %). */
static void seg_median(const double *x, int a, int b, double *med, double *lo, double *hi)
{
    int n = b - a;
    double *s = xmalloc((size_t)n * sizeof *s);
    memcpy(s, x + a, (size_t)n * sizeof *s);
    stats st;
    stats_compute(s, n, &st);
    *med = st.median;
    *lo = st.median_ci_low;
    *hi = st.median_ci_high;
    free(s);
}

int changepoints_find(const double *y, int n, double penalty, changepoint **out)
{
    *out = NULL;
    if (n < 2 * CHANGEPOINT_MIN_SEGMENT)
        return 0;
    seg_state S = {0};
    double *x = xmalloc((size_t)n * sizeof *x);
    for (int i = 0; i < n; i++)
        x[i] = log(y[i]);
    S.x = x;
    /* a floor under the noise: a series of equal values is not all change */
    S.sigma = fmax(changepoint_noise(y, n), 1e-4);
    S.pen = (penalty > 0 ? penalty : CHANGEPOINT_PENALTY) * log((double)n);
    S.cuts = xmalloc((size_t)n * sizeof *S.cuts);
    S.pre = xmalloc((size_t)n * sizeof *S.pre);
    S.suf = xmalloc((size_t)n * sizeof *S.suf);
    S.H.lo = xmalloc((size_t)n * sizeof *S.H.lo);
    S.H.hi = xmalloc((size_t)n * sizeof *S.H.hi);
    split(&S, 0, n);
    xqsort(S.cuts, (size_t)S.ncuts, sizeof *S.cuts, cmp_int);
    changepoint *cp = S.ncuts ? xcalloc((size_t)S.ncuts, sizeof *cp) : NULL;
    for (int i = 0; i < S.ncuts; i++) {
        int a = i ? S.cuts[i - 1] : 0, c = S.cuts[i], b = i + 1 < S.ncuts ? S.cuts[i + 1] : n;
        double ml, ll, hl, mr, lr, hr;
        seg_median(x, a, c, &ml, &ll, &hl);
        seg_median(x, c, b, &mr, &lr, &hr);
        cp[i].at = c;
        cp[i].step = exp(mr - ml) - 1;
        cp[i].step_lo = exp(lr - hl) - 1;
        cp[i].step_hi = exp(hr - ll) - 1;
    }
    *out = cp;
    int k = S.ncuts;
    free(S.cuts);
    free(S.pre);
    free(S.suf);
    free(S.H.lo);
    free(S.H.hi);
    free(x);
    return k;
}
