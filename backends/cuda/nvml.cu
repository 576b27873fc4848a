/* nvml.cu - GPU clock throttling and other processes on the GPU, read
 * through NVML (libnvidia-ml, part of the driver), loaded with dlopen: no
 * NVML, no checks.  As nvbench does, a sample during which the SM clock was
 * below 75 % of the device's default clock is discarded and retaken.
 * The few NVML entry points are declared here (nvml.h is not in every
 * toolkit); their C ABI is stable across driver versions. */
#include "cuda_backend.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef void *nvml_device;
typedef struct nvml_process {
    unsigned int pid;
    unsigned long long used_memory;
    unsigned int gpu_instance, compute_instance;
} nvml_process;

enum { NVML_SUCCESS = 0, NVML_ERROR_INSUFFICIENT_SIZE = 7, NVML_CLOCK_SM = 1 };

static struct {
    int tried, ok;
    int (*init)(void);
    int (*by_pci)(const char *bus, nvml_device *dev);
    int (*clock)(nvml_device dev, int type, unsigned int *mhz);
    int (*procs)(nvml_device dev, unsigned int *count, nvml_process *infos);
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
    *(void **)&nvml_api.clock = dlsym(h, "nvmlDeviceGetClockInfo");
    *(void **)&nvml_api.procs = dlsym(h, "nvmlDeviceGetComputeRunningProcesses_v3");
    nvml_api.ok = nvml_api.init && nvml_api.by_pci && nvml_api.clock && nvml_api.init() == NVML_SUCCESS;
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

int cuda_sample_check(const rn_trial *t, char *why, size_t len)
{
    nvml_device dev = device_of(t->device_index);
    if (!dev)
        return 0;
    static int default_mhz[64];
    int d = t->device_index;
    if (!default_mhz[d]) {
        int khz = 0;
        if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, d) != cudaSuccess || khz <= 0)
            return 0;
        default_mhz[d] = khz / 1000;
    }
    unsigned int mhz = 0;
    if (nvml_api.clock(dev, NVML_CLOCK_SM, &mhz) != NVML_SUCCESS || mhz == 0)
        return 0;
    if (mhz >= 0.75 * default_mhz[d])
        return 0;
    snprintf(why, len, "SM clock %u MHz, below 75%% of the default %d MHz", mhz, default_mhz[d]);
    return 1;
}

int cuda_device_warning(const rn_trial *t, char *out, size_t len)
{
    nvml_device dev = device_of(t->device_index);
    if (!dev || !nvml_api.procs)
        return 0;
    nvml_process p[64];
    unsigned int n = 64;
    if (nvml_api.procs(dev, &n, p) != NVML_SUCCESS)
        return 0;
    unsigned int others = 0;
    for (unsigned int i = 0; i < n && i < 64; i++)
        others += p[i].pid != (unsigned int)getpid();
    if (!others)
        return 0;
    snprintf(out, len, "%u other process%s on this GPU", others, others == 1 ? "" : "es");
    return 1;
}
