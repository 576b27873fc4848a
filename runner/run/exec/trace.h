/* trace.h - the worker's side of a run's timeline
 * (doc/results.md#a-timeline-of-a-run): spans (prepare, warmup, each sample and its CUDA
 * phases, check, release) recorded as begin/end records on CLOCK_MONOTONIC, which every process
 * of the machine shares, and handed to the supervisor over the worker's pipe (MSG_TRACE), which
 * writes them (trace_file.h).  Off unless the run asked for a trace: then every call returns at
 * once.  With a backend that marks ranges (the CUDA backend: NVTX), trace_begin and trace_end
 * mark them too, so a profiler's timeline carries the same names. */
#ifndef RUNNER_TRACE_H
#define RUNNER_TRACE_H
/* internal header of runner/run/exec/: other folders may not include it */

#include "backend.h"

#include <stddef.h>
#include <stdint.h>

/* One record: a span's begin ('B') or end ('E') on the track of process
 * `pid` (thread `tid`), or a track's name ('M': `name` is the name). */
typedef struct trace_rec {
    double t;      /* CLOCK_MONOTONIC seconds */
    double val;    /* sample: seconds per call; else NAN */
    int32_t pid, tid;
    int32_t idx;   /* sample or call number, trial index; -1: none */
    int32_t calls; /* sample: calls in it (the batch); 0: none */
    char ph;
    char name[39];
} trace_rec;

/* Starts recording for a trial (on = 0: off). */
void trace_start(int on);
/* The trial's backend, once known: it marks the ranges begun from now on. */
void trace_marker(const rn_backend *b);
int trace_on(void);

/* A span of this process, begun now and ended by trace_end (nested). */
void trace_begin(const char *name, long idx);
void trace_end(void);
/* Ends every span still open (a trial ending early). */
void trace_end_all(void);
/* A span of this process that ran from t0 to t1 (already over): a sample
 * (per_call seconds, `calls` calls), a call of the warmup curve.  With
 * `phases`, the h2d / compute / d2h times a backend measured in it become
 * spans inside it, laid end to end so that the last ends with it (for a
 * batch: the last call's). */
void trace_span(const char *name, long idx, double t0, double t1, double per_call, int calls,
                const rn_sample *phases);
/* Marks a range only (no record): around a sample, outside its timed region. */
void trace_range(const char *name, int begin);

/* Another process's track (parallel: processes): its name, a span of it,
 * and calls gathered per process and written as one span each time a span
 * of this process ends (so a sample shows each process's part of it). */
void trace_track(int pid, const char *name);
void trace_span_on(int pid, const char *name, double t0, double t1);
void trace_call_on(int slot, int pid, double t0, double t1);

/* Moves up to `max` recorded records to `out`; returns how many. */
size_t trace_take(trace_rec *out, size_t max);

#endif
