/* quantile.h - the quantiles of the normal and Student t distributions, and
 * the tail of Fisher's F, for thresholds calibrated to a number of runs (doc/history.md#runner-gate).
 * Library code: pure computation. */
#ifndef RUNNER_QUANTILE_H
#define RUNNER_QUANTILE_H
/* public header of runner/stats/ */

/* The normal quantile function (Acklam's rational approximation, |error| <
 * 1.2e-9); -inf at p <= 0, +inf at p >= 1. */
double stats_probit(double p);
/* P(T <= t) for T Student t with df > 0 degrees of freedom (df need not be
 * whole: an effective number of degrees of freedom). */
double stats_t_cdf(double t, double df);
/* P(F > f) for F Fisher's F with d1 and d2 > 0 degrees of freedom; 1 at
 * f <= 0, NaN for a NaN f. */
double stats_f_sf(double f, double d1, double d2);
/* The t with P(T <= t) = p, df > 0; the normal quantile when df is infinite. */
double stats_t_quantile(double p, double df);

#endif
