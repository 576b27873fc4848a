/* quantile.h - the quantiles of the normal and Student t distributions, for
 * thresholds calibrated to a number of runs (doc/history.md#runner-gate).
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
/* The t with P(T <= t) = p, df > 0; the normal quantile when df is infinite. */
double stats_t_quantile(double p, double df);

#endif
