/* noop.cu - an empty kernel launch and a synchronise: the floor of any
 * CUDA measurement.  selftest (below) misbehaves on purpose: `fault` makes
 * an illegal memory access (a sticky error that ruins the context), `trap`
 * aborts a kernel, `hang` spins a kernel on a flag nothing ever sets (the
 * worker must be killed at the trial's timeout), `segfault`, `abort` and
 * `exit` kill the worker from the host side as the CPU selftest does, `fail`
 * fails on the host side; `in_process: K` limits the action to process K of
 * a `parallel: processes` trial (selftest_params.h). */
#include "frame.h"
#include "selftest_params.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__global__ void empty_kernel(void) {}

__global__ void bad_write(int *p)
{
    p[threadIdx.x] = 1; /* p is an invalid device address */
}

/* volatile: the load is repeated each turn, so the loop never ends */
__global__ void spin_kernel(volatile int *flag)
{
    while (*flag == 0)
        ;
}

__global__ void trap_kernel(void)
{
    __trap();
}

typedef struct nk {
    cuda_lanes ln; /* one stream and the timer */
    char action[16];
    double seconds;
} nk;

static void nk_free(nk *s)
{
    lanes_free(&s->ln);
}

static void nk_release(void *state)
{
    cuda_release<nk>(state, nk_free);
}

/* action: skip skips before any stream is made */
static int nk_params(nk *s, const rn_trial *t, rn_error *err)
{
    return rn_selftest_params(t, s->action, sizeof s->action, &s->seconds, err);
}

static int nk_setup(nk *s, const rn_trial *t, rn_error *err)
{
    (void)t;
    return lanes_init(&s->ln, 1, 0, err);
}

/* noop and selftest share the state; its out-of-memory message names
 * neither */
static int nk_prepare(const rn_trial *t, void **state, rn_error *err)
{
    return cuda_prepare<nk>(t, state, err, NULL, nk_params, nk_setup, nk_release);
}

static int nk_run(void *state, rn_sample *out, rn_error *err)
{
    nk *s = (nk *)state;
    /* never held: the empty launch + sync is the floor a user pays */
    if (timer_start(&s->ln.tm, s->ln.st[0], 0, err))
        return 1;
    if (!strcmp(s->action, "fault")) {
        bad_write<<<1, 32, 0, s->ln.st[0]>>>((int *)(uintptr_t)0x10);
        CK_LAUNCH("bad_write");
    } else if (!strcmp(s->action, "trap")) {
        trap_kernel<<<1, 1, 0, s->ln.st[0]>>>();
        CK_LAUNCH("trap_kernel");
    } else if (!strcmp(s->action, "hang")) {
        int *flag = NULL;
        CK(cudaMallocAsync((void **)&flag, sizeof *flag, s->ln.st[0]));
        CK(cudaMemsetAsync(flag, 0, sizeof *flag, s->ln.st[0]));
        spin_kernel<<<1, 1, 0, s->ln.st[0]>>>(flag);
        CK_LAUNCH("spin_kernel");
    } else if (!strcmp(s->action, "segfault")) {
        raise(SIGSEGV);
    } else if (!strcmp(s->action, "abort")) {
        abort();
    } else if (!strcmp(s->action, "exit")) {
        _exit(7);
    } else if (!strcmp(s->action, "fail")) {
        snprintf(err->msg, sizeof err->msg, "selftest: failed on purpose");
        return 1;
    } else if (!strcmp(s->action, "sleep")) {
        usleep((useconds_t)(s->seconds * 1e6));
    } else {
        empty_kernel<<<1, 1, 0, s->ln.st[0]>>>();
        CK_LAUNCH("empty_kernel");
    }
    return timer_stop(&s->ln.tm, s->ln.st[0], out, 0, err);
}

static int nk_check(void *state, rn_error *err)
{
    nk *s = (nk *)state;
    if (!strcmp(s->action, "wrong")) {
        snprintf(err->msg, sizeof err->msg, "selftest: output 1 but the reference is 2");
        return 1;
    }
    return 0;
}

CUDA_WORKLOAD(noop, nk_prepare, nk_run, NULL, nk_release)
CUDA_WORKLOAD(selftest, nk_prepare, nk_run, nk_check, nk_release)
