/* clock.cu - was the GPU throttled during a sample?
 * (doc/timing.md#measurement-quality: throttled samples.)
 *
 * As nvbench does, a one-thread kernel stamps the SM cycle counter (clock64)
 * and the device's nanosecond timer (%globaltimer) right before the sample
 * and again right after it; cycles over nanoseconds is the mean SM clock
 * over the sample, not the clock at one instant after it.  It needs no NVML.
 * A sample whose mean clock is below 75 % of the device's default clock is
 * retaken by the worker, after a recovery pause. */
#include "cuda_backend.h"

#include <stdio.h>

/* Samples shorter than this are not judged: the two stamps may come from
 * two SMs, whose cycle counters agree only roughly. */
#define MIN_JUDGED_NS 100000ull

__global__ void stamp_clocks(unsigned long long *out)
{
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    out[0] = (unsigned long long)clock64();
    out[1] = ns;
}

namespace {
/* per worker thread: members of a `concurrent` trial sample on their own */
struct stamps {
    int device = -1;
    unsigned long long *dev = nullptr; /* [start clk, start ns, end clk, end ns] */
    cudaStream_t st = nullptr;
    int begun = 0;
    char broken[160] = "";
};
thread_local stamps clk;

int default_mhz(int d)
{
    static int mhz[64];
    if (d < 0 || d >= 64)
        return 0;
    if (!mhz[d]) {
        int khz = 0;
        if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, d) == cudaSuccess && khz > 0)
            mhz[d] = khz / 1000;
    }
    return mhz[d];
}

/* Stamps into slot 0 (start) or 2 (end); 0, or -1 with clk.broken set. */
int stamp(int slot)
{
    cudaError_t e = cudaSuccess;
    if (clk.device != cuda_current_device) {
        clk.dev = nullptr;
        clk.st = nullptr; /* the old device's: left to its context */
        e = cudaMalloc(&clk.dev, 4 * sizeof *clk.dev);
        if (e == cudaSuccess)
            e = cudaStreamCreateWithFlags(&clk.st, cudaStreamNonBlocking);
        if (e != cudaSuccess) {
            snprintf(clk.broken, sizeof clk.broken, "clock stamps unavailable: %s",
                     cudaGetErrorName(e));
            return -1;
        }
        clk.device = cuda_current_device;
    }
    stamp_clocks<<<1, 1, 0, clk.st>>>(clk.dev + slot);
    e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(clk.st);
    if (e != cudaSuccess) {
        snprintf(clk.broken, sizeof clk.broken, "clock stamp kernel failed: %s",
                 cudaGetErrorName(e));
        return -1;
    }
    return 0;
}
} // namespace

void cuda_sample_begin(const rn_trial *t)
{
    (void)t;
    clk.begun = !clk.broken[0] && stamp(0) == 0;
}

int cuda_sample_check(const rn_trial *t, char *why, size_t len)
{
    if (clk.broken[0]) {
        snprintf(why, len, "%s", clk.broken);
        return -1;
    }
    if (!clk.begun || stamp(2) != 0) {
        snprintf(why, len, "%s", clk.broken[0] ? clk.broken : "no clock stamp before the sample");
        return clk.broken[0] ? -1 : 0;
    }
    clk.begun = 0;
    unsigned long long v[4];
    if (cudaMemcpy(v, clk.dev, sizeof v, cudaMemcpyDeviceToHost) != cudaSuccess) {
        snprintf(why, len, "cannot read the clock stamps");
        return -1;
    }
    int base = default_mhz(t->device_index);
    if (!base) {
        snprintf(why, len, "the device reports no default SM clock");
        return -1;
    }
    if (v[3] <= v[1] || v[3] - v[1] < MIN_JUDGED_NS || v[2] <= v[0])
        return 0;
    double mhz = (double)(v[2] - v[0]) / (double)(v[3] - v[1]) * 1e3;
    if (mhz >= 0.75 * base)
        return 0;
    snprintf(why, len, "mean SM clock %.0f MHz over the sample, below 75%% of the default %d MHz",
             mhz, base);
    return 1;
}
