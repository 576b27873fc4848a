/* watch.h - the machine watched over a whole run
 * (doc/timing.md#the-speed-of-each-cpu, doc/timing.md#load): each CPU's
 * one-core speed at the run's start and end, the CPU time other processes
 * used over the run, and over the last LOAD_MIN_WALL seconds at least for a
 * trial too short to say alone.  Internal to runner/run/. */
#ifndef RUNNER_RUN_WATCH_H
#define RUNNER_RUN_WATCH_H
/* internal header of runner/run/: other folders may not include it */

#include "experiment/machine/ceilings.h"
#include "experiment/machine/sysload.h"
#include "results/rundir/meta.h"
#include "results/rundir/result.h"

#define WATCH_RING 32
#define WATCH_CPUS 64

typedef struct run_watch {
    load_snap start;
    load_snap ring[WATCH_RING]; /* snapshots at trials' ends, the newest at head - 1 */
    int nring, head;
    int ncpu, cpu[WATCH_CPUS];
    double g0[WATCH_CPUS], g1[WATCH_CPUS]; /* GFLOP/s at the start and the end */
} run_watch;

/* The start: the CPUs probed (the meta's `cpu_speed`), a warning in m when
 * they differ by more than CPU_SPEED_DIFFER; when the cached ceilings'
 * one-core figure is more than 5 % from the fastest, a longer probe, and if
 * it agrees C's CPU compute ceilings scaled to it (the meta's ceilings with
 * them) and a warning; the load's first snapshot. */
void run_watch_start(run_watch *w, meta *m, ceilings *C);
/* A trial ended (worker: the live worker, 0 when none): a trial that ran
 * under LOAD_MIN_WALL gets the load of the last LOAD_MIN_WALL seconds or more. */
void run_watch_trial(run_watch *w, pid_t worker, trial_result *res);
/* The end: the CPUs probed again, the meta's `cpu_speed` and `run_load`. */
void run_watch_end(run_watch *w, meta *m, pid_t worker);

#endif
