/* proto.h - messages from a worker process to the supervisor, over a pipe.
 * Each is a header and `len` bytes of payload. */
#ifndef RUNNER_PROTO_H
#define RUNNER_PROTO_H
/* internal header of runner/run/exec/: other folders may not include it */

#include "backend.h"
#include "results/rundir/result.h"

typedef enum {
    MSG_SAMPLES = 1, /* payload: rn_sample[n] */
    MSG_COLD,        /* payload: double (first warmup, seconds) */
    MSG_COUNTS,      /* payload: double[2] (flops, bytes) per call */
    MSG_DONE,        /* payload: the reason text (may be empty) */
    MSG_EXTRA,       /* payload: "column\tvalue" */
    MSG_TRACE,       /* payload: trace_rec[n] (run/exec/trace.h) */
    MSG_GROUP,       /* payload: int, the process group of the worker's
                      * command program (doc/own-code.md), 0: none; killed
                      * with the worker */
} msg_type;

/* A command to the worker: run this trial.  Several commands may come in
 * one write (a batch of small trials, supervisor.c): `more` says how many
 * follow this one in it, and the worker holds its messages back until the
 * last one is done, so a batch costs one round trip (issue 38). */
typedef struct worker_cmd {
    long long trial;
    int samples, warmups; /* >= 0: instead of the trial's repeats / warmups */
    int trace;            /* record the trial's timeline (MSG_TRACE) */
    int more;             /* commands of the same batch after this one */
} worker_cmd;

typedef struct msg_header {
    int type;
    int status; /* MSG_DONE */
    unsigned len;
    int retire; /* MSG_DONE: the worker exits after this trial */
    unsigned nonce; /* the worker's, drawn by the supervisor at its start: a
                     * header without it is bytes that something else in the
                     * worker wrote into the pipe (supervisor.c: msg_valid) */
} msg_header;

#define MSG_MAX_PAYLOAD (1 << 16)

#endif
