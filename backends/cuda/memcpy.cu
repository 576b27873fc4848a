/* memcpy.cu - copy bandwidth: host->device, device->host (pinned or
 * pageable host memory, doc/workloads.md#built-in-workloads) and device->device.
 *
 * The check must be able to fail (doc/workloads.md#verification): prepare clears
 * every destination to RN_POISON_BYTE after the source holds the pattern, so
 * a copy that never ran leaves poison where the pattern should be (a new
 * cudaMalloc often returns the previous trial's buffer, pattern and all). */
#include "cuda_backend.h"
#include "verify_tol.h"

#include <stdlib.h>
#include <string.h>

enum copy_dir { H2D, D2H, D2D };

typedef struct cp {
    size_t bytes;
    uint64_t seed;
    int pinned, inject;
    copy_dir dir;
    unsigned char *host, *d1, *d2;
    cuda_lanes ln; /* one stream and the timer */
} cp;

static void cp_release(void *state)
{
    cp *s = (cp *)state;
    if (!s)
        return;
    host_free(s->host, s->pinned);
    cudaFree(s->d1);
    cudaFree(s->d2);
    lanes_free(&s->ln);
    free(s);
}

static int cp_setup(cp *s, const rn_trial *t, rn_error *err)
{
    s->host = (unsigned char *)host_alloc(s->bytes, s->pinned, err);
    if (!s->host)
        return 1;
    /* a recognisable pattern from the seed, checked after the copies */
    for (size_t i = 0; i < s->bytes; i++)
        s->host[i] = rn_pattern_byte(i, t->seed);
    CK(cudaMalloc(&s->d1, s->bytes + 1));
    if (s->dir == D2D)
        CK(cudaMalloc(&s->d2, s->bytes + 1));
    if (lanes_init(&s->ln, 1, 0, err))
        return 1;
    if (s->dir == H2D) {
        CK(cudaMemset(s->d1, RN_POISON_BYTE, s->bytes));
    } else {
        CK(cudaMemcpy(s->d1, s->host, s->bytes, cudaMemcpyHostToDevice));
        if (s->dir == D2D)
            CK(cudaMemset(s->d2, RN_POISON_BYTE, s->bytes));
    }
    /* a pageable cudaMemcpy may return before its DMA lands, and the
     * memsets run on the legacy stream, which the non-blocking stream of
     * run() does not wait for */
    CK(cudaDeviceSynchronize());
    if (s->dir == D2H) /* the source is on the device now */
        memset(s->host, RN_POISON_BYTE, s->bytes);
    return 0;
}

static int cp_prepare(const rn_trial *t, void **state, rn_error *err)
{
    cp *s = (cp *)state_calloc(sizeof *s, "memcpy", err);
    if (!s)
        return 1;
    s->bytes = (size_t)t->size;
    s->seed = t->seed;
    s->pinned = rn_host_pinned(t);
    s->inject = rn_inject(t);
    const char *d = rn_param_text(t, "direction", "h2d");
    s->dir = !strcmp(d, "d2h") ? D2H : !strcmp(d, "d2d") ? D2D : H2D;
    return prepare_done(state, s, cp_setup(s, t, err), cp_release);
}

static int cp_run(void *state, rn_sample *out, rn_error *err)
{
    cp *s = (cp *)state;
    cudaEvent_t *ev = s->ln.tm.ev;
    CK(cudaEventRecord(ev[0], s->ln.st[0]));
    /* fault injection (skip_copy or skip_kernel: the copy is memcpy's only
     * work): the check must catch the missing copy */
    if (s->inject != RN_INJECT_NONE) {
    } else if (s->dir == H2D)
        CK(cudaMemcpyAsync(s->d1, s->host, s->bytes, cudaMemcpyHostToDevice, s->ln.st[0]));
    else if (s->dir == D2H)
        CK(cudaMemcpyAsync(s->host, s->d1, s->bytes, cudaMemcpyDeviceToHost, s->ln.st[0]));
    else
        CK(cudaMemcpyAsync(s->d2, s->d1, s->bytes, cudaMemcpyDeviceToDevice, s->ln.st[0]));
    CK(cudaEventRecord(ev[3], s->ln.st[0]));
    CK(cudaEventSynchronize(ev[3]));
    double sec = timer_span(&s->ln.tm, 0, 3);
    out->device_seconds = sec;
    if (s->dir == H2D)
        out->h2d = sec;
    else if (s->dir == D2H)
        out->d2h = sec;
    else
        out->compute = sec;
    return 0;
}

static int cp_check(void *state, rn_error *err)
{
    cp *s = (cp *)state;
    if (s->bytes == 0)
        return 0;
    /* the head and the tail of the destination (a short copy shows in the
     * tail) must hold the pattern; before the first copy they held poison */
    unsigned char probe[256];
    size_t n = s->bytes < sizeof probe ? s->bytes : sizeof probe;
    size_t offs[2] = {0, s->bytes - n};
    for (int p = 0; p < 2; p++) {
        size_t off = offs[p];
        if (s->dir == D2H)
            memcpy(probe, s->host + off, n);
        else
            CK(cudaMemcpy(probe, (s->dir == D2D ? s->d2 : s->d1) + off, n,
                          cudaMemcpyDeviceToHost));
        size_t bad = rn_pattern_mismatch(probe, off, n, s->seed);
        if (bad != (size_t)-1) {
            snprintf(err->msg, sizeof err->msg,
                     "memcpy: byte %zu differs after the copy (0x%02x, want 0x%02x)", bad,
                     probe[bad - off], rn_pattern_byte(bad, s->seed));
            return 1;
        }
    }
    return 0;
}

static void cp_extras(void *state, void *ctx, void (*cb)(void *ctx, const char *k, const char *v))
{
    cp *s = (cp *)state;
    if (s->dir != D2D)
        cb(ctx, "host_memory_used", s->pinned ? "pinned" : "pageable");
}

const rn_workload_impl cuda_memcpy = {
    .name = "memcpy",
    .prepare = cp_prepare,
    .run = cp_run,
    .check = cp_check,
    .release = cp_release,
    .extras = cp_extras,
};

RN_REGISTER_WORKLOAD(cuda_register_workload, cuda_memcpy)
