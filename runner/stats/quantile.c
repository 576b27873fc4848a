/* quantile.c - see quantile.h. */
#include "stats/quantile.h"

#include <math.h>

double stats_probit(double p)
{
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                               -2.759285104469687e+02, 1.383577518672690e+02,
                               -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                               -1.556989798598866e+02, 6.680131188771972e+01,
                               -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                               -2.400758277161838e+00, -2.549732539343734e+00,
                               4.374664141464968e+00, 2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                               2.445134137142996e+00, 3.754408661907416e+00};
    if (p <= 0)
        return -INFINITY;
    if (p >= 1)
        return INFINITY;
    if (p < 0.02425 || p > 1 - 0.02425) {
        double q = sqrt(-2 * log(p < 0.5 ? p : 1 - p));
        double x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
                   ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
        return p < 0.5 ? x : -x;
    }
    double q = p - 0.5, r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/* The continued fraction of the regularised incomplete beta function I_x(a, b)
 * (its even and odd terms, evaluated by the modified Lentz method). */
static double beta_fraction(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = fabs(d) < tiny ? 1 / tiny : 1 / d;
    double f = d;
    for (int m = 1; m < 500; m++) {
        double m2 = 2.0 * m;
        double even = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        d = 1 + even * d;
        c = 1 + even / c;
        d = fabs(d) < tiny ? 1 / tiny : 1 / d;
        c = fabs(c) < tiny ? tiny : c;
        f *= d * c;
        double odd = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        d = 1 + odd * d;
        c = 1 + odd / c;
        d = fabs(d) < tiny ? 1 / tiny : 1 / d;
        c = fabs(c) < tiny ? tiny : c;
        double step = d * c;
        f *= step;
        if (fabs(step - 1) < 1e-14)
            break;
    }
    return f;
}

/* I_x(a, b), the regularised incomplete beta function. */
static double inc_beta(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double lf = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
    /* the fraction converges fast below the mean; above it, by symmetry */
    if (x < (a + 1) / (a + b + 2))
        return exp(lf) * beta_fraction(a, b, x) / a;
    return 1 - exp(lf) * beta_fraction(b, a, 1 - x) / b;
}

double stats_t_cdf(double t, double df)
{
    if (isnan(t) || !(df > 0))
        return NAN;
    if (isinf(df))
        return 0.5 * erfc(-t / sqrt(2.0));
    /* P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
    double tail = 0.5 * inc_beta(df / 2, 0.5, df / (df + t * t));
    return t > 0 ? 1 - tail : tail;
}

double stats_f_sf(double f, double d1, double d2)
{
    if (isnan(f) || !(d1 > 0) || !(d2 > 0))
        return NAN;
    if (f <= 0)
        return 1;
    if (isinf(f))
        return 0;
    /* P(F > f) = I_{d2 / (d2 + d1 f)}(d2 / 2, d1 / 2) */
    return inc_beta(d2 / 2, d1 / 2, d2 / (d2 + d1 * f));
}

double stats_t_quantile(double p, double df)
{
    if (!(p > 0 && p < 1) || !(df > 0))
        return p <= 0 ? -INFINITY : p >= 1 ? INFINITY : NAN;
    double z = stats_probit(p);
    if (isinf(df) || df > 1e7)
        return z;
    if (p < 0.5)
        return -stats_t_quantile(1 - p, df);
    /* bisection on the cdf: the quantile lies between z and a bound that
     * grows as df falls (Cauchy's at df = 1: tan(pi (p - 1/2))) */
    double lo = z > 0 ? z : 0, hi = lo + 1;
    while (stats_t_cdf(hi, df) < p && hi < 1e12)
        hi = 2 * hi + 1;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * (1 + hi); i++) {
        double mid = 0.5 * (lo + hi);
        if (stats_t_cdf(mid, df) < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}
