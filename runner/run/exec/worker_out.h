/* worker_out.h - what a worker sends the supervisor (run/exec/proto.h's
 * messages): gathered in one buffer and written together, one write() per
 * trial for most; a trial's verdict held back while its state is alive. */
#ifndef RUNNER_WORKER_OUT_H
#define RUNNER_WORKER_OUT_H
/* internal header of runner/run/exec/: other folders may not include it */

#include "backend.h"
#include "results/rundir/result.h"

/* Samples go out in batches, so the pipe is not touched between most
 * samples, and at least every WOUT_FLUSH_EVERY (100 ms) so that a timeout keeps what was done. */
typedef struct sample_buf {
    rn_sample s[256];
    int n;
    double last_flush;
} sample_buf;

/* The nonce of every header this worker sends (proto.h), before its first. */
void wout_set_nonce(unsigned nonce);
unsigned wout_nonce(void);
/* A trial starts: its device (a failed CUDA trial retires the worker) and
 * the descriptor its messages go to. */
void wout_trial(int fd, rn_device_kind device);
void wout_msg(int fd, int type, int status, const void *payload, unsigned len);
/* The trial's verdict (MSG_DONE), sent now, or held while wout_hold() is on. */
void wout_done(int fd, trial_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* From prepare() on, the verdict waits for release(): wout_hold() holds it,
 * wout_unhold() sends the held verdict, failed instead when the user's
 * teardown failed (torn != 0, terr its message). */
void wout_hold(void);
void wout_unhold(int fd, int torn, const char *terr);
/* The samples in b, the timeline so far and the buffer, written now. */
void wout_samples(int fd, sample_buf *b);
/* The last samples of a trial: queued with the trial's other messages, and
 * written now only when the last write is WOUT_FLUSH_EVERY old, so that a
 * small trial's samples and verdict go in one write() (issue 38: one pipe
 * wake-up of the supervisor a trial, not two).  A timeout in check(),
 * extras() or teardown keeps the samples written before then, as a timeout
 * while sampling does. */
void wout_samples_end(int fd, sample_buf *b);
#define WOUT_FLUSH_EVERY 0.1
/* In a batch (proto.h's worker_cmd.more) a trial's samples and verdict are
 * queued, not written, unless the buffer is full or the worker retires;
 * wout_flush writes what is queued (the batch's end). */
void wout_batch(int on);
void wout_flush(int fd);
/* One extra column, "column\tvalue" (an rn_extra_fn: ctx unused). */
void wout_extra(void *ctx, const char *k, const char *v);
/* Whether this worker must run no other trial: a failed CUDA trial may leave
 * a sticky error that ruins the context for good. */
int wout_retired(void);

#endif
