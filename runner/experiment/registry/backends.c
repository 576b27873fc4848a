/* backends.c - see backends.h.  Modelled on fio's engine loader: a versioned
 * table of hooks, checked before use, with a message naming what is wrong. */
#include "experiment/registry/backends.h"

#include "cpu/cpu.h"
#include "base/util.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int backend_validate(const rn_backend *b, char *why, size_t len)
{
    if (!b) {
        snprintf(why, len, "the backend returned no table");
        return -1;
    }
    if (b->abi != RN_BACKEND_ABI) {
        snprintf(why, len, "backend '%s' has interface version %d; this runner needs %d (rebuild it)",
                 b->name ? b->name : "?", b->abi, RN_BACKEND_ABI);
        return -1;
    }
    const char *missing = !b->name           ? "name"
                          : !b->probe        ? "probe"
                          : !b->device_count ? "device_count"
                          : !b->device_info  ? "device_info"
                          : !b->workload     ? "workload"
                                             : NULL;
    if (missing) {
        snprintf(why, len, "backend '%s' lacks the required function '%s'",
                 b->name ? b->name : "?", missing);
        return -1;
    }
    return 0;
}

const rn_backend *backend_load_file(const char *path, char *why, size_t len)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(why, len, "cannot load %s: %s", path, e ? e : "unknown error");
        return NULL;
    }
    rn_backend_entry_fn entry;
    *(void **)&entry = dlsym(h, RN_BACKEND_SYMBOL);
    if (!entry) {
        snprintf(why, len, "%s does not export %s(): not a runner backend", path,
                 RN_BACKEND_SYMBOL);
        dlclose(h);
        return NULL;
    }
    const rn_backend *b = entry();
    if (backend_validate(b, why, len) < 0) {
        dlclose(h);
        return NULL;
    }
    return b; /* stays loaded for the life of the process */
}

int backend_cuda_path(char *out, size_t len)
{
    const char *env = getenv("RUNNER_CUDA_BACKEND");
    if (env && *env) {
        snprintf(out, len, "%s", env);
        return 0;
    }
    /* bin/runner, build/bin/runner, PREFIX/bin/runner */
    static const char *const rel[] = {"../lib/runner-cuda.so", "../../lib/runner-cuda.so",
                                      "../lib/runner/runner-cuda.so"};
    return find_beside_exe(rel, 3, 0, out, len);
}

static const rn_backend *cuda; /* loaded and probed, or NULL */

/* The driver's library, looked for before the backend is loaded: loading
 * runner-cuda.so brings cuBLAS and its constructors (0.1 s on a machine
 * without a GPU, paid by every run for its meta and its probe), only for
 * the runtime to find no driver.  The runtime looks for the same name
 * (doc/workloads.md#built-in-workloads). */
static int cuda_driver_present(char *why, size_t len)
{
    void *d = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!d) {
        snprintf(why, len, "no CUDA driver (libcuda.so.1 is not on this machine)");
        return 0;
    }
    return 1; /* stays loaded: the runtime uses it next */
}

int backend_cuda_loaded(void)
{
    return cuda != NULL;
}

void backends_shutdown(void)
{
    if (cuda && cuda->shutdown)
        cuda->shutdown();
}

const rn_backend *backend_for(rn_device_kind kind, char *why, size_t len)
{
    static int cuda_tried, cpu_tried;
    static char cuda_why[512], cpu_why[512];
    static const rn_backend *cpu;
    if (kind == RN_DEV_CPU) {
        /* checked like any backend: its table, then its probe */
        if (!cpu_tried) {
            cpu_tried = 1;
            const rn_backend *b = cpu_backend();
            char pw[400];
            if (backend_validate(b, cpu_why, sizeof cpu_why) == 0) {
                if (b->probe(pw, sizeof pw) == 0)
                    cpu = b;
                else
                    snprintf(cpu_why, sizeof cpu_why, "%s", pw);
            }
        }
        if (!cpu)
            snprintf(why, len, "%s", cpu_why);
        return cpu;
    }
    if (!cuda_tried) {
        cuda_tried = 1;
        char path[PATH_MAX];
        if (!getenv("RUNNER_CUDA_BACKEND") && !cuda_driver_present(cuda_why, sizeof cuda_why)) {
            /* cuda_why says why: no driver, whether or not the backend is built */
        } else if (backend_cuda_path(path, sizeof path) < 0) {
            snprintf(cuda_why, sizeof cuda_why,
                     "the CUDA backend is not installed (runner-cuda.so not found; make cuda builds it where nvcc is present)");
        } else if ((cuda = backend_load_file(path, cuda_why, sizeof cuda_why))) {
            char pw[400];
            if (cuda->probe(pw, sizeof pw) != 0) {
                snprintf(cuda_why, sizeof cuda_why, "%s", pw);
                cuda = NULL;
            }
        }
    }
    if (!cuda)
        snprintf(why, len, "%s", cuda_why);
    return cuda;
}
