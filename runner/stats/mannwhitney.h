/* mannwhitney.h - the Mann-Whitney U test (Wilcoxon rank-sum), two-sided.
 *
 * Used by `runner compare` to decide whether two runs' samples of a trial
 * differ.  The statistic and p-values are those of
 * scipy.stats.mannwhitneyu(x, y, alternative='two-sided', use_continuity=True)
 * with method='exact' or method='asymptotic'; which of the two is used is
 * chosen here as below (scipy's own 'auto' rule differs):
 *
 *   U  = R1 - n1 (n1 + 1) / 2, the U of the first sample (R1: the sum of the
 *        first sample's ranks in the pooled data, ties given their mean rank).
 *   exact (MW_AUTO when n1 <= 10, n2 <= 10 and no value is tied): the null
 *        distribution of U counted exactly; p = 2 P(U' >= max(U, n1 n2 - U)),
 *        at most 1.
 *   normal approximation (otherwise): mean n1 n2 / 2, variance
 *        n1 n2 / 12 ((n + 1) - sum(t^3 - t) / (n (n - 1))) over the groups
 *        of t tied values, continuity correction 0.5:
 *        z = (max(U, n1 n2 - U) - n1 n2 / 2 - 0.5) / sd, p = 2 (1 - Phi(z)),
 *        clipped to [0, 1].  When every value is tied (sd = 0), p = 1.
 *
 * Non-finite values are left out.  With an empty sample p is NaN. */
#ifndef RUNNER_MANNWHITNEY_H
#define RUNNER_MANNWHITNEY_H
/* public header of runner/stats/ */

typedef enum { MW_AUTO, MW_EXACT, MW_ASYMPTOTIC } mw_method;

/* Largest sample sizes for which MW_AUTO uses the exact distribution. */
#define MW_EXACT_MAX 10
/* Largest n1 * n2 for which the exact distribution is computed at all. */
#define MW_EXACT_CELLS 2500

typedef struct mw_result {
    double u;  /* U of the first sample */
    double p;  /* two-sided p-value; NaN when a sample is empty */
    int n1, n2; /* finite values used */
    int ties;  /* 1 when some values are tied */
    int exact; /* 1: exact distribution; 0: normal approximation */
} mw_result;

/* The test of x (n1 values) against y (n2 values).  MW_EXACT falls back to
 * the normal approximation when there are ties or n1 * n2 > MW_EXACT_CELLS.
 * Returns 0, or -1 (p = NaN) when a sample has no finite value. */
int mann_whitney(const double *x, int n1, const double *y, int n2, mw_method method,
                 mw_result *out);

/* P(U >= u) under the null hypothesis, exact, for samples of n1 and n2
 * values without ties (NaN when n1 * n2 > MW_EXACT_CELLS). */
double mw_exact_sf(int n1, int n2, double u);

#endif
