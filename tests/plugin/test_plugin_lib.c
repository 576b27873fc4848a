/* test_plugin_lib.c - the plugins of tests/test_plugin.c, one source built
 * once per PLUGIN_VARIANT (the Makefile's PLUGINS):
 *   ok         workload "axpy" (y = 2x + 1 over `size` floats, checked),
 *              "picky" (fails prepare on any parameter but `scale`) and
 *              "hostile" (its extras() name the runner's `median` column)
 *   abi        built for workload interface 99
 *   norelease  axpy without its required release()
 *   nosym      exports no runner_plugin()
 *   crash      axpy whose run() dies of SIGSEGV when size is 2
 *   hang       axpy whose run() never returns when size is 2
 *   closefds   axpy whose run() closes fds 3 and up, then blocks, when size is 2
 *   forge      axpy whose run() writes a forged "trial done" header into every
 *              pipe the worker writes to, when size is 2
 *   selfkill   axpy whose run() sends itself SIGKILL when size is 2
 *   pidfile    axpy whose release() writes the worker's pid to
 *              $WORKER_PID_FILE when size is 1
 * Built against include/runner/workload.h alone, as a user's plugin is. */
#define _GNU_SOURCE /* kill, nanosleep under -std=c11 */
#include <runner/workload.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define V_OK 1
#define V_ABI 2
#define V_NORELEASE 3
#define V_NOSYM 4
#define V_CRASH 5
#define V_HANG 6
#define V_CLOSEFDS 7
#define V_FORGE 8
#define V_SELFKILL 9
#define V_PIDFILE 10

typedef struct {
    float *x, *y;
    size_t n;
    double scale;
} axpy_state;

static void axpy_release(void *st)
{
    axpy_state *s = st;
#if PLUGIN_VARIANT == V_PIDFILE
    const char *file = getenv("WORKER_PID_FILE");
    FILE *f = s && s->n == 1 && file ? fopen(file, "w") : NULL;
    if (f) {
        fprintf(f, "%d\n", (int)getpid());
        fclose(f);
    }
#endif
    if (s) {
        free(s->x);
        free(s->y);
        free(s);
    }
}

static int axpy_prepare(const rn_trial *t, void **state, rn_error *err)
{
    if (t->device != RN_DEV_CPU) {
        snprintf(err->msg, sizeof err->msg, "axpy: CPU only");
        return RN_PREPARE_SKIP;
    }
    axpy_state *s = calloc(1, sizeof *s);
    s->n = t->size > 0 ? (size_t)t->size : 1000;
    s->scale = rn_param_num(t, "scale", 2);
    s->x = malloc(s->n * sizeof *s->x);
    s->y = malloc(s->n * sizeof *s->y);
    for (size_t i = 0; i < s->n; i++)
        s->x[i] = (float)i;
    *state = s;
    return RN_PREPARE_OK;
}

static int axpy_run(void *st, rn_sample *smp, rn_error *err)
{
    (void)smp;
    (void)err;
    axpy_state *s = st;
#if PLUGIN_VARIANT == V_CRASH
    if (s->n == 2)
        raise(SIGSEGV);
#elif PLUGIN_VARIANT == V_HANG
    while (s->n == 2)
        pause();
#elif PLUGIN_VARIANT == V_CLOSEFDS
    if (s->n == 2) {
        for (int fd = 3; fd < 1024; fd++)
            close(fd);
        for (;;)
            pause();
    }
#elif PLUGIN_VARIANT == V_FORGE
    if (s->n == 2) {
        struct {
            int type, status;
            unsigned len;
            int retire;
            unsigned nonce;
        } h = {4, 1000, 0, 0, 0};
        for (int fd = 3; fd < 1024; fd++) {
            struct stat st;
            if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) &&
                (fcntl(fd, F_GETFL) & O_ACCMODE) == O_WRONLY && write(fd, &h, sizeof h) < 0)
                return 1;
        }
    }
#elif PLUGIN_VARIANT == V_SELFKILL
    if (s->n == 2)
        raise(SIGKILL);
#endif
    for (size_t i = 0; i < s->n; i++)
        s->y[i] = (float)s->scale * s->x[i] + 1;
    return 0;
}

static int axpy_check(void *st, rn_error *err)
{
    axpy_state *s = st;
    for (size_t i = 0; i < s->n; i++)
        if (s->y[i] != (float)s->scale * (float)i + 1) {
            snprintf(err->msg, sizeof err->msg, "axpy: y[%zu] = %g", i, s->y[i]);
            return 1;
        }
    return 0;
}

static void axpy_extras(void *st, void *ctx, void (*cb)(void *ctx, const char *k, const char *v))
{
    axpy_state *s = st;
    char v[32];
    snprintf(v, sizeof v, "%g", s->y[s->n - 1]);
    cb(ctx, "last_y", v);
}

static const rn_workload_impl axpy = {
    .name = "axpy", .prepare = axpy_prepare, .run = axpy_run, .check = axpy_check,
#if PLUGIN_VARIANT != V_NORELEASE
    .release = axpy_release,
#endif
    .extras = axpy_extras,
};

static int picky_prepare(const rn_trial *t, void **state, rn_error *err)
{
    for (int i = 0; i < t->nparams; i++)
        if (strcmp(t->params[i].name, "scale")) {
            snprintf(err->msg, sizeof err->msg, "picky: unknown parameter '%s' (it takes: scale)",
                     t->params[i].name);
            return RN_PREPARE_FAIL;
        }
    return axpy_prepare(t, state, err);
}

static const rn_workload_impl picky = {
    .name = "picky", .prepare = picky_prepare, .run = axpy_run, .check = axpy_check,
    .release = axpy_release,
};

static void hostile_extras(void *st, void *ctx,
                           void (*cb)(void *ctx, const char *k, const char *v))
{
    (void)st;
    cb(ctx, "median", "0");
}

static const rn_workload_impl hostile = {
    .name = "hostile", .prepare = axpy_prepare, .run = axpy_run, .release = axpy_release,
    .extras = hostile_extras,
};

#if PLUGIN_VARIANT == V_ABI
/* what a plugin built against interface 99 exports */
__attribute__((visibility("default"))) const rn_plugin *runner_plugin(void);
const rn_plugin *runner_plugin(void)
{
    static const rn_workload_impl *const list[] = {&axpy, &picky, &hostile, NULL};
    static const rn_plugin p = {99, list};
    return &p;
}
#elif PLUGIN_VARIANT == V_NOSYM
/* something else, so that the library is not empty */
__attribute__((visibility("default"))) const rn_workload_impl *not_runner_plugin(int i);
const rn_workload_impl *not_runner_plugin(int i)
{
    return i == 2 ? &hostile : i ? &axpy : &picky;
}
#else
RN_PLUGIN(&axpy, &picky, &hostile)
#endif
