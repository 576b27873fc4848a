/* worker_out.c - see worker_out.h. */
#include "run/exec/worker_out.h"

#include "experiment/registry/backends.h"
#include "run/exec/proto.h"
#include "run/exec/trace.h"
#include "base/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Set when this process must not run another trial: a failed CUDA trial may
 * leave a sticky error (illegal address) that ruins the context for good.
 * A failed trial of another device counts too once this process has loaded
 * the CUDA backend: a `concurrent` trial (device cpu) with a CUDA member
 * that faulted leaves the same sticky error behind
 * (doc/contributing/backends.md#backends). */
static int retire;
static rn_device_kind current_device;
static int extra_fd = -1;

/* Messages are gathered and written together (at the end of a trial, and at
 * least every 100 ms while samples come): one write() per trial for most. */
static char out_buf[1 << 17];
static size_t out_len;
/* A batch's trials are running (proto.h's worker_cmd.more): nothing is
 * written until its last one is done (or the buffer is full, or the worker
 * retires), so the supervisor, waiting in the pipe, does none of its own
 * work while a trial of the batch is measured. */
static int batching;

static void out_flush(int fd)
{
    if (out_len && fd_write_all(fd, out_buf, out_len) < 0)
        _exit(3); /* the supervisor is gone */
    out_len = 0;
}

void wout_batch(int on)
{
    batching = on;
}

void wout_flush(int fd)
{
    out_flush(fd);
}

static unsigned nonce;

void wout_set_nonce(unsigned n)
{
    nonce = n;
}

unsigned wout_nonce(void)
{
    return nonce;
}

void wout_msg(int fd, int type, int status, const void *payload, unsigned len)
{
    msg_header h = {type, status, len, retire, nonce};
    if (out_len + sizeof h + len > sizeof out_buf)
        out_flush(fd);
    memcpy(out_buf + out_len, &h, sizeof h);
    out_len += sizeof h;
    if (len)
        memcpy(out_buf + out_len, payload, len);
    out_len += len;
}

/* The timeline recorded so far (doc/results.md#a-timeline-of-a-run), in messages. */
static void send_trace(int fd)
{
    trace_rec r[MSG_MAX_PAYLOAD / sizeof(trace_rec)];
    for (size_t n; (n = trace_take(r, sizeof r / sizeof r[0])) > 0;)
        wout_msg(fd, MSG_TRACE, 0, r, (unsigned)(n * sizeof r[0]));
}

void wout_trial(int fd, rn_device_kind device)
{
    extra_fd = fd;
    current_device = device;
}

int wout_retired(void)
{
    return retire;
}

/* While a trial's state is alive its verdict is held back: the trial is
 * done only after release() (the user's teardown, lua_close) returned, so
 * that a teardown that fails, loops or crashes is charged to its own trial
 * (doc/timing.md#how-a-trial-is-timed), never to the next one. */
static int hold_done, held;
static trial_status held_st;
static char held_reason[4096];

void wout_done(int fd, trial_status st, const char *fmt, ...)
{
    if ((st == ST_FAILED || st == ST_TIMEOUT) &&
        (current_device == RN_DEV_CUDA || backend_cuda_loaded()))
        retire = 1;
    char reason[4096] = "";
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(reason, sizeof reason, fmt, ap);
        va_end(ap);
    }
    if (hold_done) {
        if (!held) {
            held = 1;
            held_st = st;
            snprintf(held_reason, sizeof held_reason, "%s", reason);
        }
        return;
    }
    trace_end_all(); /* the trial's spans end before its verdict */
    send_trace(fd);
    wout_msg(fd, MSG_DONE, st, reason, (unsigned)strlen(reason));
    /* in a batch the verdicts go together at its end; a retiring worker
     * runs no more of it */
    if (!batching || retire)
        out_flush(fd);
}

void wout_hold(void)
{
    hold_done = 1;
    held = 0;
}

void wout_unhold(int fd, int torn, const char *terr)
{
    hold_done = 0;
    if (torn != 0 && held_st != ST_FAILED && held_st != ST_TIMEOUT)
        wout_done(fd, ST_FAILED, "teardown failed: %s", terr);
    else if (torn != 0)
        wout_done(fd, held_st, "%s; teardown failed too: %s", held_reason, terr);
    else
        wout_done(fd, held_st, "%s", held_reason);
}

void wout_samples(int fd, sample_buf *b)
{
    if (b->n)
        wout_msg(fd, MSG_SAMPLES, 0, b->s, (unsigned)(b->n * sizeof b->s[0]));
    send_trace(fd);
    if (!batching) /* a batch has no timeout to keep samples for */
        out_flush(fd);
    b->n = 0;
    b->last_flush = now_seconds();
}

void wout_samples_end(int fd, sample_buf *b)
{
    if (b->n)
        wout_msg(fd, MSG_SAMPLES, 0, b->s, (unsigned)(b->n * sizeof b->s[0]));
    b->n = 0;
    if (now_seconds() - b->last_flush > WOUT_FLUSH_EVERY)
        wout_samples(fd, b);
}

/* Extra columns go out as "column\tvalue" messages. */
void wout_extra(void *ctx, const char *k, const char *v)
{
    (void)ctx;
    char buf[1024];
    size_t kn = strlen(k), vn = strlen(v); /* "%s\t%s" without a printf a column */
    if (kn + 1 + vn < sizeof buf && !strchr(k, '\t')) {
        memcpy(buf, k, kn);
        buf[kn] = '\t';
        memcpy(buf + kn + 1, v, vn);
        wout_msg(extra_fd, MSG_EXTRA, 0, buf, (unsigned)(kn + 1 + vn));
    }
}
