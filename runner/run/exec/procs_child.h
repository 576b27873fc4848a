/* procs_child.h - one process of `parallel: processes` (procs.h), after
 * the worker forked it: it builds its part of the trial, prepares, answers
 * "ready", then serves the worker's one-byte commands over its socket until
 * Q or the socket closes, and exits.  The protocol between the two sides:
 * each command gets one procs_reply (and, when rc != 0, len bytes of
 * message). */
#ifndef RUNNER_PROCS_CHILD_H
#define RUNNER_PROCS_CHILD_H
/* internal header of runner/run/exec/: other folders may not include it */

#include "backend.h"
#include "experiment/registry/workloads.h"

#include <stdint.h>
#include <sys/types.h>

/* What `parallel: processes` runs: given to the worker's side
 * (procs_workload) and to each process. */
typedef struct procs_spec {
    int n;                        /* processes */
    int replicate;                /* share: replicate */
    const rn_workload_impl *impl; /* what each process runs */
    const rn_backend *b;          /* its backend (select: one thread) */
    const workload_desc *desc;    /* built-in: its registry entry; NULL: a Lua workload */
    int per_call;                 /* spawn: per_call: new processes for every call */
} procs_spec;

typedef struct procs_reply {
    int32_t rc;
    uint32_t len;       /* bytes of message after it (rc != 0) */
    double t0, t1;      /* R: the call's start and end; ready: started, ready; F: flops, bytes */
    int32_t cpu0, cpu1; /* R: the CPU it started and ended the call on (-1: unknown) */
} procs_reply;

/* The barrier, in a shared anonymous mapping: the last process to arrive
 * bumps the generation, the others spin on it (yielding now and then). */
typedef struct procs_shared {
    _Atomic unsigned arrived, gen;
} procs_shared;

/* Process k (0-based) of spec->n: runs trial `tr`'s part, talking over
 * `fd`; exits when done (never returns).  `parent`: the worker, whose
 * death ends it (PR_SET_PDEATHSIG). */
_Noreturn void procs_child_main(int k, const procs_spec *spec, const rn_trial *tr, int fd,
                                procs_shared *sh, pid_t parent);

#endif
