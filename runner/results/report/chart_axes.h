/* chart_axes.h - the look of a chart: colours, points and dashes by a
 * series' rank (the same series looks the same on every chart of a run),
 * and the axes (time units, decades, powers of two, categories) as gnuplot
 * commands. */
#ifndef RUNNER_CHART_AXES_H
#define RUNNER_CHART_AXES_H
/* internal header of runner/results/report/: other folders may not include it */

#include "base/util.h"

typedef struct palette {
    char **labels;
    int n;
} palette;

typedef struct yinfo {
    double scale; /* multiply data by this (linear time axes) */
    const char *unit;
} yinfo;

void palette_add(palette *p, const char *label);
int palette_index(const palette *p, const char *label);
/* Sorts the labels: a series' look follows its rank among them. */
void palette_sort(palette *p);
void palette_free(palette *p);
void palette_style(strbuf *b, const palette *p, const char *label, int points_too);
const char *palette_colour(const palette *p, const char *label);
void gp_num(strbuf *b, double v);
int gp_is_pow2(double v);
yinfo gp_y_axis(strbuf *ax, int kind, int log, double lo, double hi);
void gp_x_axis_numeric(strbuf *ax, int log, double lo, double hi, int pow2);
void gp_x_axis_cats(strbuf *ax, char **cats, const double *pos, int n, double lo, double hi);

#endif
