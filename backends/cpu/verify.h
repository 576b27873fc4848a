/* verify.h - what check() shares: the output it compares, which entries it
 * compares, and how a mismatch is reported. */
#ifndef BACKENDS_CPU_VERIFY_H
#define BACKENDS_CPU_VERIFY_H

#include <stddef.h>

#include "backend.h"

/* The first member of every workload state: the output of the last run(),
 * `count` elements of `dtype` (RN_F32 or RN_F64).  It lets one test hook
 * (cpu_test_corrupt) reach the output of any workload. */
typedef struct cpu_output {
    void *data;
    size_t count;
    rn_dtype dtype;
    int skip_kernel; /* inject: skip_kernel: run() computes nothing */
} cpu_output;

/* Outputs up to this many entries are compared in full; larger ones on a
 * deterministic sample of this many. */
#define CPU_CHECK_SAMPLES 256

size_t cpu_sample_count(size_t n);

/* Entry s (< cpu_sample_count(n)) of the sample of [0, n): every index for
 * small n; otherwise the first and last 8 (where vector tails and thread
 * boundaries go wrong) and 240 spread over the rest by a fixed Philox key, so
 * the same entries are checked on every run and machine. */
size_t cpu_sample_index(size_t n, size_t s);

/* 0 when |got - ref| <= tol * |ref| (an exact match always passes, NaN
 * never does).  Otherwise writes "WORKLOAD: WHAT = GOT but the reference is
 * REF (relative error E > TOL)" with `digits` significant digits (9 shows
 * every float, 17 every double) and returns -1. */
int cpu_compare(double got, double ref, double tol, int digits, const char *workload,
                const char *what, rn_error *err);

/* Element i of an f32 or f64 array (the dtype d), as a double. */
static inline double cpu_at(const void *p, rn_dtype d, size_t i)
{
    return d == RN_F32 ? ((const float *)p)[i] : ((const double *)p)[i];
}

/* The reference value of entry i of a workload's output, computed from the
 * state's inputs; writes the entry's name to what (e.g. "x[12]"). */
typedef double (*cpu_reference_fn)(const void *state, size_t i, char *what, size_t len);

/* The loop of check(): the entries of the state's output (its cpu_output,
 * the first member) on the sample of cpu_sample_index, each compared with
 * ref() by cpu_compare within tol, with 9 significant digits for f32 and 17
 * for f64.  At most `most` (>= 2) entries of the sample, spread over it with
 * its first and last kept, where the reference is slow; SIZE_MAX: all.
 * 0, or -1 with err at the first mismatch. */
int cpu_check_output(const void *state, double tol, size_t most, const char *workload,
                     cpu_reference_fn ref, rn_error *err);

/* The `inject` testing aid (doc/workloads.md#fault-injection), called by prepare()
 * once `o` is set: skip_kernel poisons the output with NaN and sets
 * o->skip_kernel, so that run() leaves it and check() must fail; skip_copy
 * names a copy the CPU backend does not make, so the trial is skipped
 * (RN_PREPARE_SKIP, err says why).  0 otherwise. */
int cpu_inject(const rn_trial *t, cpu_output *o, rn_error *err);

#endif
