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

#define RUN_BLOCK_CPUS 64
#define RUN_BLOCK_CLOCKS 64
/* At most this many trials a group taken in rounds: an interrupted run
 * loses the unfinished blocks of one group at most. */
#define RUN_ROUND_TRIALS 8

/* One trial's blocks under way: begin, a step a block, end. */
typedef struct block_trial {
    long long t;
    int nb, repeats, next;   /* blocks, samples in all, the next block */
    int ncpu, first;         /* placed on cpu[(first + b) % ncpu]; 0: not placed */
    int cpu[RUN_BLOCK_CPUS];
    double clock[RUN_BLOCK_CLOCKS]; /* GFLOP/s probed before the first placed blocks */
    double spent;                 /* seconds run */
    int nclock;
    trial_result acc;        /* the blocks so far */
    strbuf where;            /* the `blocks` cell so far */
} block_trial;

/* Trial t's blocks about to start (t has run_block_count >= 2). */
void run_blocks_begin(run_state *st, long long t, block_trial *bt);
/* Its next block in a fresh worker (its timeout counts every block's
 * time); 1 when the trial is over: every block taken, one failed, or the
 * run interrupted (bt->acc.status ST_INTERRUPTED). */
int run_blocks_step(supervisor *S, block_trial *bt, double timeout);
/* The trial's result, its `blocks` and `clock_gflops` cells added; bt is
 * spent. */
void run_blocks_end(block_trial *bt, trial_result *out);
/* Runs trial t: its blocks one after another, each in a fresh worker, and
 * folds them into *out; the `blocks` column says each block's CPU and
 * sample count ("0:3 1:3 0:3"; `?` where the worker was not placed). */
void run_trial_blocks(run_state *st, supervisor *S, long long t, double timeout,
                      trial_result *out);
/* Trials ts[0..n-1] (each with blocks) in rounds: the first block of each,
 * then the second of each, and so on, so that a trial's blocks are spread
 * over the group's time (doc/timing.md#blocks-across-processes-and-cpus);
 * each saved after its last block. */
void run_block_rounds(run_state *st, supervisor *S, const long long *ts, int n);

#endif
