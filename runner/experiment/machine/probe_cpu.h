/* probe_cpu.h - the CPU's ceilings, measured (doc/ceilings.md#the-ceilings):
 * the FMA peak in FP32 and FP64 on one core and on all cores, from chains of
 * independent fused multiply-adds in the widest vector ISA the CPU runs
 * (AVX-512, AVX2 with FMA, else SSE2), and the memory bandwidth of a
 * STREAM-like triad over all cores; beside them, the nominal figures from
 * the clock, the core count and the FMA width where the clock is known. */
#ifndef RUNNER_MACHINE_PROBE_CPU_H
#define RUNNER_MACHINE_PROBE_CPU_H
/* internal header of runner/experiment/machine/: other folders may not include it */

typedef struct cpu_probe {
    const char *isa;          /* "avx512", "avx2", "sse2" */
    int cores;                /* the CPUs this process may run on */
    double fp32_1core, fp64_1core, fp32, fp64; /* measured GFLOP/s */
    double bandwidth_1core, bandwidth;         /* measured GB/s (triad, 24 bytes per element) */
    double clock_mhz;         /* the clock of the nominal figures; NAN: unknown */
    const char *clock_from;   /* where it was read */
    int fma_bits;             /* FMA bits per cycle per core the nominal figures assume */
    double nom_fp32_1core, nom_fp64_1core, nom_fp32, nom_fp64; /* NAN: no clock */
    double seconds;           /* how long the probe took */
} cpu_probe;

/* Measures this machine's CPU ceilings; `budget` scales the time spent (1:
 * the default, about 3 s on two cores; the tests may pass less). */
void cpu_probe_run(cpu_probe *p, double budget);

/* The FMA peak of one kernel alone: GFLOP/s of `threads` threads (1 or the
 * allowed CPUs, 0: all) in FP64 (f64 1) or FP32, best of `reps` windows of
 * `window` seconds each. */
double cpu_probe_fma(int f64, int threads, int reps, double window);

/* FP32 GFLOP/s of the calling thread where it runs now, best of `reps`
 * windows of `window` seconds: the short per-CPU speed probe
 * (cpuspeed.h), without the clock measurement of cpu_probe_fma. */
double cpu_probe_here(int reps, double window);

/* The triad bandwidth in GB/s over `threads` threads (0: all), best of reps. */
double cpu_probe_triad(int threads, int reps);

/* The nominal figures of p from its clock, cores and ISA (NAN without a clock). */
void cpu_probe_nominal(cpu_probe *p);

#endif
