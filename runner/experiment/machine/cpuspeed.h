/* cpuspeed.h - the one-core speed of each CPU, measured
 * (doc/timing.md#the-speed-of-each-cpu): a few milliseconds of FP32 FMA
 * chains on the calling thread, pinned to the CPU for the probe and put
 * back after.  The vCPUs of a virtual machine need not run at one speed
 * (1.4-1.7x apart on the one the runner is built on), and /proc/cpuinfo
 * does not see it.  Library code: it prints nothing. */
#ifndef RUNNER_CPUSPEED_H
#define RUNNER_CPUSPEED_H
/* public header of runner/experiment/machine/ */

/* Two CPUs whose speeds differ by more than this are told apart (the run's
 * warnings, the report). */
#define CPU_SPEED_DIFFER 0.10
/* A probe window, and how many are taken (the best counts). */
#define CPU_SPEED_WINDOW 0.0005
#define CPU_SPEED_REPS 5

/* GFLOP/s (FP32, one core) of CPU `cpu`; NaN when this thread cannot run
 * there. */
double cpu_speed_on(int cpu, int reps, double window);
/* Every CPU this process may use: its number in cpu[], its speed in
 * gflops[]; how many (at most max). */
int cpu_speed_each(int *cpu, double *gflops, int max, int reps, double window);

#endif
