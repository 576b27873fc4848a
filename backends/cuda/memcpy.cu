/* memcpy.cu - copy bandwidth: host->device, device->host (pinned or
 * pageable host memory) and device->device. */
#include "cuda_backend.h"

#include <stdlib.h>
#include <string.h>

enum copy_dir { H2D, D2H, D2D };

typedef struct cp {
    size_t bytes;
    uint64_t seed;
    int pinned;
    copy_dir dir;
    unsigned char *host, *d1, *d2;
    cudaStream_t st;
    phase_timer tm;
} cp;

static void cp_release(void *state)
{
    cp *s = (cp *)state;
    if (!s)
        return;
    host_free(s->host, s->pinned);
    cudaFree(s->d1);
    cudaFree(s->d2);
    if (s->st)
        cudaStreamDestroy(s->st);
    timer_free(&s->tm);
    free(s);
}

static int cp_setup(cp *s, const rn_trial *t, rn_error *err)
{
    s->host = (unsigned char *)host_alloc(s->bytes, s->pinned, err);
    if (!s->host)
        return 1;
    /* a recognisable pattern from the seed, checked after the copies */
    for (size_t i = 0; i < s->bytes; i++)
        s->host[i] = (unsigned char)(i * 131 + t->seed);
    CK(cudaMalloc(&s->d1, s->bytes + 1));
    if (s->dir == D2D)
        CK(cudaMalloc(&s->d2, s->bytes + 1));
    CK(cudaStreamCreateWithFlags(&s->st, cudaStreamNonBlocking));
    if (s->dir != H2D)
        CK(cudaMemcpy(s->d1, s->host, s->bytes, cudaMemcpyHostToDevice));
    return timer_init(&s->tm, err);
}

static int cp_prepare(const rn_trial *t, void **state, rn_error *err)
{
    cp *s = (cp *)calloc(1, sizeof *s);
    if (!s) {
        snprintf(err->msg, sizeof err->msg, "memcpy: out of host memory");
        return 1;
    }
    s->bytes = (size_t)t->size;
    s->seed = t->seed;
    s->pinned = rn_param_num(t, "pinned", 1) != 0;
    const char *d = rn_param_text(t, "direction", "h2d");
    s->dir = !strcmp(d, "d2h") ? D2H : !strcmp(d, "d2d") ? D2D : H2D;
    if (cp_setup(s, t, err)) {
        cp_release(s);
        return 1;
    }
    *state = s;
    return 0;
}

static int cp_run(void *state, rn_sample *out, rn_error *err)
{
    cp *s = (cp *)state;
    cudaEvent_t *ev = s->tm.ev;
    CK(cudaEventRecord(ev[0], s->st));
    if (s->dir == H2D)
        CK(cudaMemcpyAsync(s->d1, s->host, s->bytes, cudaMemcpyHostToDevice, s->st));
    else if (s->dir == D2H)
        CK(cudaMemcpyAsync(s->host, s->d1, s->bytes, cudaMemcpyDeviceToHost, s->st));
    else
        CK(cudaMemcpyAsync(s->d2, s->d1, s->bytes, cudaMemcpyDeviceToDevice, s->st));
    CK(cudaEventRecord(ev[3], s->st));
    CK(cudaEventSynchronize(ev[3]));
    double sec = timer_span(&s->tm, 0, 3);
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
    /* the tail holds the pattern written in setup: a short copy shows there */
    unsigned char probe[256];
    size_t n = s->bytes < sizeof probe ? s->bytes : sizeof probe;
    size_t off = s->bytes - n;
    if (s->dir == D2H)
        memcpy(probe, s->host + off, n);
    else
        CK(cudaMemcpy(probe, (s->dir == D2D ? s->d2 : s->d1) + off, n, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++)
        if (probe[i] != (unsigned char)((off + i) * 131 + s->seed)) {
            snprintf(err->msg, sizeof err->msg, "memcpy: byte %zu differs after the copy", off + i);
            return 1;
        }
    return 0;
}

const rn_workload_impl cuda_memcpy = {
    .name = "memcpy",
    .prepare = cp_prepare,
    .run = cp_run,
    .check = cp_check,
    .release = cp_release,
};
