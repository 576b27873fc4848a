/* blocks.h - a sequential trial's samples taken in blocks, each in a fresh
 * worker process, one-thread trials placed on the CPUs in turn
 * (doc/timing.md#blocks-across-processes-and-cpus): the run's interval and
 * `runner compare` see process and placement variation, not one worker's.
 * Internal to runner/run/. */
#ifndef RUNNER_RUN_BLOCKS_H
#define RUNNER_RUN_BLOCKS_H
/* internal header of runner/run/: other folders may not include it */

#include "run/exec/supervisor.h"
#include "run/finish.h"

/* At most this many blocks a trial, of at least RUN_BLOCK_MIN samples each. */
#define RUN_BLOCKS_MAX 6
#define RUN_BLOCK_MIN 3

/* How many blocks trial t's samples are taken in (1: one worker, as a
 * trial with `repeats: auto`, processes, warmup_curve or energy is). */
int run_block_count(const experiment *e, long long t);
/* Runs trial t: its blocks one after another, each in a fresh worker, and
 * folds them into *out; the `blocks` column says each block's CPU and
 * sample count ("0:3 1:3 0:3"; `?` where the worker was not placed). */
void run_trial_blocks(run_state *st, supervisor *S, long long t, double timeout,
                      trial_result *out);

#endif
