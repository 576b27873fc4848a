/* sysload.h - how busy the machine was during a trial
 * (doc/timing.md#load): the load average, the CPU time stolen by the hypervisor
 * and the CPU time of other processes, from /proc.  Library code: it prints
 * nothing. */
#ifndef RUNNER_SYSLOAD_H
#define RUNNER_SYSLOAD_H
/* public header of runner/experiment/machine/ */

#include <sys/types.h>

/* Other processes used at least this many cores on average, or the
 * hypervisor stole at least LOAD_BUSY_STEAL of the CPU time: the trial ran
 * on a busy machine. */
#define LOAD_BUSY_CORES 0.5
#define LOAD_BUSY_STEAL 0.05
/* /proc/stat counts in clock ticks (10 ms): below this much wall time in
 * all, the CPU time of other processes is too coarse to say anything */
#define LOAD_MIN_WALL 0.2
/* The fastest CPU at a trial's end ran below this share of the highest
 * maximum frequency that cpufreq gives: the trial is flagged throttled */
#define LOAD_THROTTLE_FRAC 0.8
/* The load average and the frequencies are read at an interval's end, at
 * most this often (seconds): a shorter trial reuses the reading before it */
#define LOAD_MHZ_EVERY 0.1
/* /proc/stat and the CPU times are read at most this often (seconds, one
 * clock tick of USER_HZ 100, their resolution): a snapshot sooner after the
 * last reading is that reading, its time included */
#define LOAD_STAT_EVERY 0.01

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
    double mhz;           /* the fastest CPU's MHz at an end, the lowest over ends; 0: unknown */
    double max_mhz;       /* cpufreq's cpuinfo_max_freq, the highest over CPUs; 0: unknown */
    int n;                /* intervals added */
} load_sum;

/* A snapshot of now, or of the last reading when it is under
 * LOAD_STAT_EVERY old and of the same worker (s->t then is its time). */
void load_snap_take(load_snap *s, pid_t worker);
/* Adds the interval a..b to *sum (nothing when /proc could not be read). */
void load_add(load_sum *sum, const load_snap *a, const load_snap *b);
/* 1 when the interval counts as busy (at least LOAD_MIN_WALL seconds in
 * all); *why then says how ("other processes used 1.20 cores"). */
int load_busy(const load_sum *s, char *why, size_t len);
/* The current frequency of the fastest CPU, in MHz, into *cur, and the
 * highest maximum into *max (0 when not known): from SYSDIR/cpuN/cpufreq/
 * scaling_cur_freq and cpuinfo_max_freq (kHz) where the kernel has cpufreq,
 * else from the "cpu MHz" lines of CPUINFO (no maximum).  0 when neither
 * gives a value.  SYSDIR and CPUINFO are /sys/devices/system/cpu and
 * /proc/cpuinfo but for tests. */
int load_cpu_mhz(const char *sysdir, const char *cpuinfo, double *cur, double *max);
/* Adds one frequency reading to *sum (the lowest current, the highest max). */
void load_add_mhz(load_sum *sum, double cur, double max);
/* 1 when the trial ran with its fastest CPU below LOAD_THROTTLE_FRAC of the
 * maximum (only where the maximum is known); *why says how. */
int load_throttled(const load_sum *s, char *why, size_t len);

#endif
