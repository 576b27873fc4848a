/* nvml.cu - other processes on the GPU, read through NVML (libnvidia-ml,
 * part of the driver) loaded with dlopen: no NVML, no warning.  (The
 * throttle check needs no NVML: clock.cu.)  The few NVML entry points are
 * declared here (nvml.h is not in every toolkit); their C ABI is stable
 * across driver versions for a given versioned name. */
#include "cuda_backend.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef void *nvml_device;
/* nvmlProcessInfo_v2_t, what ..._v2 writes: 24 bytes an entry.  (The _v3
 * entry grew to 32 bytes in later drivers; _v2's layout is fixed.) */
typedef struct nvml_process_v2 {
    unsigned int pid;
    unsigned long long used_memory;
    unsigned int gpu_instance, compute_instance;
} nvml_process_v2;
/* nvmlProcessInfo_v1_t, what the unversioned entry point writes */
typedef struct nvml_process_v1 {
    unsigned int pid;
    unsigned long long used_memory;
} nvml_process_v1;

enum { NVML_SUCCESS = 0, NVML_ERROR_INSUFFICIENT_SIZE = 7 };

static struct {
    int tried, ok;
    int (*init)(void);
    int (*by_pci)(const char *bus, nvml_device *dev);
    int (*procs_v2)(nvml_device dev, unsigned int *count, nvml_process_v2 *infos);
    int (*procs_v1)(nvml_device dev, unsigned int *count, nvml_process_v1 *infos);
    int (*energy)(nvml_device dev, unsigned long long *millijoules);
} nvml_api;

static int nvml_ready(void)
{
    if (nvml_api.tried)
        return nvml_api.ok;
    nvml_api.tried = 1;
    void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return 0;
    *(void **)&nvml_api.init = dlsym(h, "nvmlInit_v2");
    *(void **)&nvml_api.by_pci = dlsym(h, "nvmlDeviceGetHandleByPciBusId_v2");
    *(void **)&nvml_api.procs_v2 = dlsym(h, "nvmlDeviceGetComputeRunningProcesses_v2");
    *(void **)&nvml_api.procs_v1 = dlsym(h, "nvmlDeviceGetComputeRunningProcesses");
    *(void **)&nvml_api.energy = dlsym(h, "nvmlDeviceGetTotalEnergyConsumption");
    /* each use checks its own entry point: the energy needs no process list */
    nvml_api.ok = nvml_api.init && nvml_api.by_pci && nvml_api.init() == NVML_SUCCESS;
    return nvml_api.ok;
}

/* The NVML handle of a CUDA device (matched by PCI bus id: the two number
 * devices differently). */
static nvml_device device_of(int index)
{
    static nvml_device cache[64];
    if (index < 0 || index >= 64 || !nvml_ready())
        return NULL;
    if (!cache[index]) {
        char bus[32];
        if (cudaDeviceGetPCIBusId(bus, sizeof bus, index) != cudaSuccess ||
            nvml_api.by_pci(bus, &cache[index]) != NVML_SUCCESS)
            cache[index] = NULL;
    }
    return cache[index];
}

/* The compute processes on dev: their count, and their PIDs in *pids
 * (malloc'd); -1 when NVML cannot say. */
static int process_pids(nvml_device dev, unsigned int **pids)
{
    *pids = NULL;
    if (!nvml_api.procs_v2 && !nvml_api.procs_v1)
        return -1;
    for (int attempt = 0; attempt < 3; attempt++) {
        unsigned int n = 0;
        int rc = nvml_api.procs_v2 ? nvml_api.procs_v2(dev, &n, NULL)
                                   : nvml_api.procs_v1(dev, &n, NULL);
        if (rc == NVML_SUCCESS)
            return 0;
        if (rc != NVML_ERROR_INSUFFICIENT_SIZE)
            return -1;
        n += 4; /* processes may start between the two calls */
        unsigned int *out = (unsigned int *)calloc(n, sizeof *out);
        void *buf = calloc(n, nvml_api.procs_v2 ? sizeof(nvml_process_v2) : sizeof(nvml_process_v1));
        if (!out || !buf) {
            free(out);
            free(buf);
            return -1;
        }
        rc = nvml_api.procs_v2 ? nvml_api.procs_v2(dev, &n, (nvml_process_v2 *)buf)
                               : nvml_api.procs_v1(dev, &n, (nvml_process_v1 *)buf);
        if (rc == NVML_SUCCESS) {
            for (unsigned int i = 0; i < n; i++)
                out[i] = nvml_api.procs_v2 ? ((nvml_process_v2 *)buf)[i].pid
                                           : ((nvml_process_v1 *)buf)[i].pid;
            free(buf);
            *pids = out;
            return (int)n;
        }
        free(out);
        free(buf);
        if (rc != NVML_ERROR_INSUFFICIENT_SIZE)
            return -1;
    }
    return -1;
}

/* Other processes on this trial's GPU.  This worker holds a context (the
 * trial is prepared) and the supervisor, its parent, may hold one.  Inside
 * a container NVML reports the host's PIDs: when this process's own PID is
 * not in the list, which entries are the runner's cannot be told, and the
 * warning says so rather than blaming the runner's own contexts. */
int cuda_device_warning(const rn_trial *t, char *out, size_t len)
{
    nvml_device dev = device_of(t->device_index);
    if (!dev)
        return 0;
    unsigned int *pids = NULL;
    int n = process_pids(dev, &pids);
    if (n <= 0) {
        free(pids);
        return 0;
    }
    unsigned int self = (unsigned int)getpid(), parent = (unsigned int)getppid();
    int seen_self = 0, others = 0;
    for (int i = 0; i < n; i++) {
        seen_self |= pids[i] == self;
        others += pids[i] != self && pids[i] != parent;
    }
    free(pids);
    if (seen_self) {
        if (!others)
            return 0;
        snprintf(out, len, "%d other process%s on this GPU", others, others == 1 ? "" : "es");
        return 1;
    }
    if (n <= 2) /* this worker and perhaps the supervisor */
        return 0;
    snprintf(out, len,
             "%d processes on this GPU, at least %d of them not the runner's (their PIDs are "
             "from another PID namespace)",
             n, n - 2);
    return 1;
}

/* The board's energy since the driver loaded (doc/ceilings.md#energy-per-call):
 * NVML's total energy in millijoules, updated every 100-125 ms on an H200;
 * a 64-bit count that does not wrap in practice. */
int cuda_energy(int dev, rn_energy *e, char *why, size_t len)
{
    nvml_device d = device_of(dev);
    unsigned long long mj = 0;
    if (!d) {
        snprintf(why, len, "no energy counter: NVML (libnvidia-ml.so.1) is not loaded");
        return 1;
    }
    int rc = nvml_api.energy ? nvml_api.energy(d, &mj) : -1;
    if (rc != NVML_SUCCESS) {
        snprintf(why, len, "no energy counter: nvmlDeviceGetTotalEnergyConsumption %s",
                 nvml_api.energy ? "is not supported on this GPU" : "is absent from this driver");
        return 1;
    }
    e->n = 1;
    e->joules[0] = (double)mj * 1e-3;
    e->wrap[0] = 0;
    e->resolution = 1e-3;
    e->update = 0.125; /* the slowest update seen (H200: 100-125 ms) */
    e->scope = "board";
    return 0;
}
