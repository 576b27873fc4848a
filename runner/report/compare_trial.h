/* compare_trial.h - one trial of one run as `runner compare` judges it
 * (doc/compare.md#comparing-runs): ok or not, its median, the medians of blocks of
 * its samples, and whether it ran on a busy machine or a throttled CPU or GPU
 * (doc/timing.md#measurement-quality).  Library code: nothing is printed. */
#ifndef RUNNER_COMPARE_TRIAL_H
#define RUNNER_COMPARE_TRIAL_H

#include "report/compare_load.h"

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
/* Whether it ran on a busy machine: its `noise` cell says "busy: "
 * (doc/timing.md#load). */
int compare_trial_busy(const compare_run *D, int pos);
/* Whether it ran on a throttled CPU or GPU: its `noise` cell says
 * "throttled: " (a CPU below 80 % of its maximum,
 * doc/timing.md#load), or its `throttled_kept` cell (GPU samples kept while the
 * device stayed throttled, doc/timing.md#the-machine) is a
 * number above 0. */
int compare_trial_throttled(const compare_run *D, int pos);

#endif
