/* load.h - how busy the machine was during a trial (README "Measurement
 * quality", Load): the load average, the CPU time stolen by the hypervisor
 * and the CPU time of other processes, from /proc.  Library code: it prints
 * nothing. */
#ifndef RUNNER_LOAD_H
#define RUNNER_LOAD_H

#include <sys/types.h>

/* Other processes used at least this many cores on average, or the
 * hypervisor stole at least LOAD_BUSY_STEAL of the CPU time: the trial ran
 * on a busy machine. */
#define LOAD_BUSY_CORES 0.5
#define LOAD_BUSY_STEAL 0.05
/* /proc/stat counts in clock ticks (10 ms): below this much wall time in
 * all, the CPU time of other processes is too coarse to say anything */
#define LOAD_MIN_WALL 0.2

typedef struct load_snap {
    double t;                        /* CLOCK_MONOTONIC seconds */
    unsigned long long busy, total, steal; /* jiffies of all CPUs, /proc/stat */
    double self;                     /* CPU seconds of this process, its reaped children and `worker` */
    pid_t worker;
    double worker_cpu;
    int ok;                          /* 0: /proc/stat could not be read */
} load_snap;

/* What one or more intervals add up to (interleaved trials add rounds). */
typedef struct load_sum {
    double wall, other;   /* seconds; CPU seconds of other processes */
    double steal, total;  /* jiffies */
    double loadavg;       /* the largest 1-minute load average seen at an end */
    int n;                /* intervals added */
} load_sum;

void load_snap_take(load_snap *s, pid_t worker);
/* Adds the interval a..b to *sum (nothing when /proc could not be read). */
void load_add(load_sum *sum, const load_snap *a, const load_snap *b);
/* 1 when the interval counts as busy (at least LOAD_MIN_WALL seconds in
 * all); *why then says how ("other processes used 1.20 cores"). */
int load_busy(const load_sum *s, char *why, size_t len);

#endif
