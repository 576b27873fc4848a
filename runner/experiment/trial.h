/* trial.h - one trial of an experiment, resolved for a backend. */
#ifndef RUNNER_TRIAL_H
#define RUNNER_TRIAL_H
/* public header of runner/experiment/ */

#include "backend.h"
#include "experiment/config.h"

typedef struct resolved_trial {
    rn_trial t;
    rn_param *params;
    int repeats, warmups; /* repeats 0 = auto (adaptive stopping) */
    int batch;            /* calls per sample; 0 = auto */
    double timeout; /* seconds; 0 = none */
    int lua;        /* workload is lua:PATH */
    int plugin;     /* workload is plugin:PATH:NAME (doc/own-code-plugins.md) */
    double warmup_time, warmup_tolerance; /* the experiment's (config.h) */
    double sample_time;                   /* the least sample with batch: auto */
    int processes; /* parallel: processes: that many (the trial's threads); 0: threads */
    int replicate; /* share: replicate (each process runs the whole size) */
    int per_call;  /* spawn: per_call (new processes for every call) */
    int warmup_curve; /* calls timed one by one at the start (doc/timing.md#the-warmup-curve) */
    int energy;       /* energy: true (doc/ceilings.md#energy-per-call) */
} resolved_trial;

void trial_resolve(const experiment *e, long long t, resolved_trial *out);
void trial_release(resolved_trial *r);
/* Cores this process may run on ("threads: all"). */
int host_cpus(void);

#endif
