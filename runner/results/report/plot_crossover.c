/* plot_crossover.c - see plot_crossover.h. */
#include "results/report/plot_crossover.h"

#include <math.h>
#include <stddef.h>

static double lerp_cross(double x0, double s0, double x1, double s1)
{
    /* interpolate log(s) against log(x) (or x when not positive) to s = 1 */
    double l0 = log(s0), l1 = log(s1);
    double t = l1 != l0 ? (0.0 - l0) / (l1 - l0) : 0.5;
    if (t < 0)
        t = 0;
    if (t > 1)
        t = 1;
    if (x0 > 0 && x1 > 0)
        return exp(log(x0) + t * (log(x1) - log(x0)));
    return x0 + t * (x1 - x0);
}

int find_clear_crossings(const double *x, const double *speedup, const double *lo,
                         const double *hi, int n, double min_effect, crossing *out, int max)
{
    int found = 0, have_prev = 0, prev_faster = 0;
    double px = 0, ps = 0;
    for (int i = 0; i < n; i++) {
        double s = speedup[i];
        if (!isfinite(s) || s <= 0 || !isfinite(x[i]))
            continue;
        double l = lo && isfinite(lo[i]) ? lo[i] : s, h = hi && isfinite(hi[i]) ? hi[i] : s;
        int faster;
        if (l > 1.0 + min_effect)
            faster = 1;
        else if (min_effect > 0 ? h * (1.0 + min_effect) < 1.0 : h <= 1.0)
            faster = 0;
        else
            continue; /* within the minimum effect or the intervals */
        if (have_prev && faster != prev_faster) {
            if (found < max && out)
                out[found] = (crossing){.x = x[i],
                                        .x_prev = px,
                                        .x_cross = lerp_cross(px, ps, x[i], s),
                                        .faster = faster};
            found++;
        }
        have_prev = 1;
        prev_faster = faster;
        px = x[i];
        ps = s;
    }
    return found;
}

int find_crossings(const double *x, const double *speedup, int n, crossing *out, int max)
{
    return find_clear_crossings(x, speedup, NULL, NULL, n, 0, out, max);
}
