/* plot_model.h - a finished run as the charts and report.md see it.
 *
 * The model is the trials table plus what the experiment file says about its
 * columns: which keys are swept, and which of them a linked axis (a list of
 * mappings such as `target: [{label: CPU, device: cpu}, ...]`) sets together.
 * A linked axis contributes its label column to chart series; the keys it
 * sets are not separate series keys.  Without an experiment, the same is
 * inferred from the data (a swept key whose value follows from an earlier
 * swept key is a member of that key's group).
 *
 * Columns are referred to by their index in the trials table's header. */
#ifndef RUNNER_PLOT_MODEL_H
#define RUNNER_PLOT_MODEL_H
/* public header of runner/results/report/ */

#include "experiment/config.h"
#include "base/csv.h"

#include <stddef.h>

typedef struct run_model {
    char *dir;
    csv_table t;
    int nrows;               /* data rows are t.rows[1..nrows] */
    int ncols;               /* header fields */
    int key_first, key_last; /* key columns: [key_first, key_last] */
    int *swept;              /* per column */
    int *group;    /* per column: linked group id shared by a label and its members, or -1 */
    int *is_label; /* per column: the label column of a linked group */
    int *numeric;  /* per column: every non-empty cell reads as a number (and one exists) */
    int c_status, c_reason, c_samples, c_min, c_median, c_mean, c_stddev, c_max, c_lo, c_hi, c_level, c_h2d,
        c_compute, c_d2h, c_gflops, c_gbps, c_device, c_size, c_workload;
    /* device-time statistics (CUDA events), -1 when no trial has them */
    int c_dev_min, c_dev_median, c_dev_max;
    char *name;       /* experiment name */
    char *size_means; /* what `size` means for the run's workload, or NULL */
} run_model;

/* Reads RUN_DIR's trials table; `e` (may be NULL) describes its columns.
 * Returns -1 with a message in err when it is missing or unusable. */
int pm_load(run_model *m, const char *run_dir, const experiment *e, char *err, size_t errlen);
void pm_free(run_model *m);

int pm_col(const run_model *m, const char *name);          /* -1 when absent */
/* "" when absent; inline: a report of 100,000 trials reads cells by the
 * million (bench/runner.sh "resume") */
static inline const char *pm_cell(const run_model *m, int row, int col)
{
    if (row < 1 || row > m->nrows || col < 0 || col >= m->t.nfields[row])
        return "";
    const char *s = m->t.rows[row][col];
    return s ? s : "";
}
/* Does the column hold more than one value over the rows? */
int pm_varies(const run_model *m, int col);
double pm_num(const run_model *m, int row, int col);       /* NAN when empty or not a number */
int pm_ok(const run_model *m, int row);
int pm_is_key(const run_model *m, int col);
/* Is the text a number (as a whole)? */
int pm_is_number(const char *s, double *out);

/* A `where` or `baseline` entry, by column. */
typedef struct pm_match {
    int col;
    match_kind kind;
    char **vals;
    int nvals;
    int has_min, has_max;
    double min, max;
} pm_match;
int pm_match_row(const run_model *m, int row, const pm_match *mt, int n);

typedef enum { CH_LINE, CH_SPEEDUP, CH_THROUGHPUT, CH_BREAKDOWN, CH_BAR, CH_WARMUP, CH_ROOFLINE } chart_type;
extern const char *const chart_type_names[];

typedef struct chart_spec {
    char *name;
    chart_type type;
    int x, y; /* columns; y < 0: the type's default */
    int *series;
    int nseries, series_given;
    pm_match *where;
    int nwhere;
    pm_match *baseline;
    int nbaseline;
    int logx, logy; /* -1 = default */
    char *title;    /* the file's title, or NULL */
    char *xlabel, *ylabel; /* the file's axis labels, or NULL */
    char *legend;   /* the file's legend position (plots_config.c), or NULL */
    int is_default;
    /* `y: device_median` / `time: device` (doc/results.md#plots-and-reports): y
     * is median, each trial drawn with its device time (CUDA events) where
     * it measured one, with its wall time otherwise */
    int device_time;
} chart_spec;

void chart_spec_free(chart_spec *s);
/* The charts drawn when the experiment has no `plots` key (doc/results.md#plots-and-reports). */
int pm_default_charts(const run_model *m, chart_spec **out);
/* Converts the file's `plots` into charts over this run's columns.  A chart
 * naming a column that the trials table lacks is left out with a message in warn. */
int pm_file_charts(const run_model *m, const experiment *e, chart_spec **out, char *warn,
                   size_t warnlen);

/* Is key column `col` a configuration (experiment/roles.h)? */
int pm_is_config(const run_model *m, int col);
/* Is `col` a workload's or a hook's own column (after gbps, experiment/roles.h)? */
int pm_is_extra_col(const run_model *m, int col);

/* The default x (a swept size, else the first numeric swept key that is
 * not a configuration, else the first numeric swept key), or -1. */
int pm_default_x(const run_model *m);
/* The x of a chart with none given: the default x, else the first swept
 * key (a category), else the workload. */
int pm_chart_x(const run_model *m);
/* Default series keys for a chart with x column `x`: every swept key but x,
 * a linked group counted once (by its label).  Returns the count. */
int pm_default_series(const run_model *m, int x, int *out);
/* "GPU", or "target=GPU, threads=4": the label of a row under these keys. */
char *pm_label(const run_model *m, int row, const int *keys, int nkeys);

/* Tidy numbers for people (doc/results.md#plots-and-reports), used for every
 * size and ratio in report.md and in the charts' crossover labels:
 * pm_fmt_num writes a value below 10000 as it is (3 significant digits
 * when not a whole number), an integer power of two from 2^14 up as
 * 2^K, anything else with 3 significant digits and an engineering suffix
 * (k, M, G, T, P: 26.4k, 4.19M); never an exponent.  pm_fmt_ratio writes 3
 * significant digits with no exponent (2.64, 0.0123, 26400). */
void pm_fmt_num(char *out, size_t n, double v);
void pm_fmt_ratio(char *out, size_t n, double r);

typedef struct pm_point {
    double x, y, lo, hi; /* lo/hi: error bar (NAN when none) */
    /* speedup: the lowest and highest speedup the two medians' confidence
     * intervals allow (baseline low / trial high, baseline high / trial
     * low); NAN when either interval is unknown */
    double slo, shi;
    double ph[3];        /* breakdown: h2d, compute, d2h (seconds) */
    int row;
} pm_point;

typedef struct pm_curve {
    char *label;
    pm_point *p;
    int n;
    int ndevice; /* points drawn with device time (device_time charts) */
} pm_curve;

typedef struct chart_data {
    pm_curve *curves; /* sorted by label (strverscmp) */
    int ncurves;
    int x, y; /* resolved columns (y = -1 for breakdown) */
    int xcat; /* x is categorical: p.x is an index into cats */
    char **cats;
    int ncats;
    char *baseline_label; /* speedup: what the line at 1 stands for */
    int unlabelled;       /* no series key: one curve, named after the chart */
    int bars;             /* drawn as bars */
    /* the time drawn: 0 wall time, 1 device time (every point), 2 both
     * (device time where measured, wall time elsewhere) */
    int time_kind;
} chart_data;

/* Computes the points of a chart: ok trials only, failed and skipped ones
 * are left out (never drawn as zeros).  Returns the number of points. */
int pm_chart_data(const run_model *m, const chart_spec *s, chart_data *d);
void chart_data_free(chart_data *d);

/* Is `col` a time column (seconds)? */
int pm_is_time_col(const run_model *m, int col);
/* Is `col` one of the device-time statistics (device_median, ...)? */
int pm_is_device_col(const run_model *m, int col);
/* The time a chart draws for `row` in column y: with device_time and y the
 * median, the device median where the row has one (*dev = 1), else y. */
double pm_row_time(const run_model *m, const chart_spec *s, int row, int y, int *dev);

#endif
