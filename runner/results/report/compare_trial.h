/* compare_trial.h - one trial of one run as `runner compare` judges it
 * (doc/compare.md#comparing-runs): ok or not, its median, the medians of blocks of
 * its samples, and whether it ran on a busy machine or a throttled CPU or GPU
 * (doc/timing.md#measurement-quality).  Library code: nothing is printed. */
#ifndef RUNNER_COMPARE_TRIAL_H
#define RUNNER_COMPARE_TRIAL_H
/* public header of runner/results/report/ */
/* (public: history/ judges a trial ok, busy or throttled as compare does) */

#include "results/report/compare_load.h"

/* The most blocks a trial's samples are cut into (doc/compare.md#comparing-runs). */
#define COMPARE_BLOCKS 10

/* Whether the trial at position pos (-1: absent) has status ok. */
int compare_trial_ok(const compare_run *D, int pos);
/* Its median: the trials table's, or computed from the samples where the
 * cell is empty; NaN without samples. */
double compare_trial_median(const compare_run *D, int pos);
/* The medians of at most COMPARE_BLOCKS consecutive blocks of its samples,
 * in the order taken; *n of them, in a malloc'd array the caller frees. */
double *compare_trial_blocks(const compare_run *D, int pos, int *n);
/* Its worker blocks (the `blocks` cell, "0:3 1:3 ?:3": each block's CPU
 * and sample count, doc/timing.md#blocks-across-processes-and-cpus): the
 * median of each block's samples in *med and its CPU (-1: not placed) in
 * *cpu, malloc'd; how many.  0 with *why set when the cell is absent or
 * empty (an older run) or does not fit the samples (a tampered cell). */
int compare_trial_worker_blocks(const compare_run *D, int pos, double **med, int **cpu,
                                const char **why);
/* The one-core speed of the CPUs it ran on (its clock_gflops cell, else the
 * run's from its meta), GFLOP/s; NaN when unknown or not plausible. */
double compare_trial_clock(const compare_run *D, int pos);
/* Whether it ran on a busy machine: its `noise` cell says "busy: "
 * (doc/timing.md#load). */
int compare_trial_busy(const compare_run *D, int pos);
/* Whether it ran on a throttled CPU or GPU: its `noise` cell says
 * "throttled: " (a CPU below 80 % of its maximum,
 * doc/timing.md#load), or its `throttled_kept` cell (GPU samples kept while the
 * device stayed throttled, doc/timing.md#the-machine) is a
 * number above 0. */
int compare_trial_throttled(const compare_run *D, int pos);

/* How many times slower a busy machine may make a trial per core of other
 * work when every thread of the trial can have a core of its own
 * (doc/compare.md#busy-and-throttled-trials): issue 16 measured matmul
 * 2.7-5.5x slower with other processes on 1.6 of 2 cores. */
#define COMPARE_BUSY_PER_CORE 3.0
/* The factor a throttled GPU may slow a trial by, its clocks unknown. */
#define COMPARE_GPU_THROTTLE 2.0
/* How many times slower the machine's state could have made the trial: 1
 * on a quiet machine; busy: 1 + COMPARE_BUSY_PER_CORE x the cores other
 * processes used (its other_cpu cell) while its threads and that work fit
 * the host's cores (the run's meta), but without bound (INFINITY) when they do
 * not or either is unknown: a thread waiting for a core stalls the others
 * at every barrier (bench/aa.sh on a busy 2-core machine saw a 2-thread
 * trial 60x slower, unchanged); or 1 / (1 - steal) when the CPU time
 * stolen says more; throttled: the CPU's maximum over its clock
 * (cpu_max_mhz / cpu_mhz), or COMPARE_GPU_THROTTLE for GPU samples kept
 * throttled; the product when both. */
double compare_trial_explains(const compare_run *D, int pos);

#endif
