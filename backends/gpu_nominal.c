/* gpu_nominal.c - see gpu_nominal.h.
 *
 * SMs x clock x flops per clock per SM.  The rates per SM are the
 * architecture's dense ones (no sparsity): FP32 on the CUDA cores; FP64 on
 * the FP64 tensor cores where they exist (sm_80, sm_90: cuBLAS's DGEMM runs
 * there, at twice the CUDA cores' FP64 rate, so the non-tensor rate read
 * a measured DGEMM at 150-190 % of nominal), else the CUDA cores; FP16 and
 * BF16 on the tensor cores with FP32 accumulation, TF32 half of that.
 *
 * The clock: the vendor's figures for FP32 and FP64 use the highest boost
 * clock, which the device reports, but Hopper's 16-bit and TF32 tensor
 * figures use a lower one (H100 SXM and H200: 989.4 TFLOP/s dense FP16 =
 * 132 SMs x 4096 x 1830 MHz, where the device reports 1980 MHz; H100 PCIe:
 * 756 = 114 x 4096 x 1620, against 1755).  Named products take their
 * published clock; another Hopper the SXM's ratio 1830 / 1980; every other
 * architecture the reported clock (A100: 1410 MHz for every figure). */
#include "gpu_nominal.h"

#include <math.h>
#include <string.h>

typedef struct sm_rate {
    int major, minor;
    double fp32, fp64, fp16; /* flops per clock per SM; fp64: tensor cores where they exist */
} sm_rate;

static const sm_rate rates[] = {
    {7, 0, 128, 64, 1024}, {7, 5, 128, 4, 1024}, {8, 0, 128, 128, 2048},
    {8, 6, 256, 4, 512},   {8, 9, 256, 4, 512},  {9, 0, 256, 256, 4096},
};

/* Hopper products whose tensor figures the vendor publishes at a clock
 * below the highest one: the first name found in the device's name wins */
static const struct {
    const char *name;
    double mhz;
} tensor_clock[] = {
    {"H100 PCIe", 1620},
    {"H100", 1830}, /* SXM5 */
    {"H200", 1830}, /* SXM, and GH200 */
};

double gpu_tensor_mhz(const char *name, int major, double sm_mhz)
{
    if (major != 9)
        return sm_mhz;
    for (size_t i = 0; i < sizeof tensor_clock / sizeof tensor_clock[0]; i++)
        if (name && strstr(name, tensor_clock[i].name) && !strstr(name, "NVL"))
            return tensor_clock[i].mhz;
    return sm_mhz * 1830.0 / 1980.0;
}

double gpu_nominal_gflops(const char *name, int major, int minor, int sms, double sm_mhz,
                          const char *kind)
{
    const sm_rate *r = NULL;
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
        if (rates[i].major == major && rates[i].minor == minor)
            r = &rates[i];
    if (!r || sms <= 0 || !(sm_mhz > 0))
        return NAN;
    double ghz_sm = sm_mhz * 1e-3 * sms, tensor = gpu_tensor_mhz(name, major, sm_mhz) * 1e-3 * sms;
    if (!strcmp(kind, "fp32"))
        return ghz_sm * r->fp32;
    if (!strcmp(kind, "fp64"))
        return ghz_sm * r->fp64;
    if (!strcmp(kind, "fp16") || !strcmp(kind, "bf16"))
        return tensor * r->fp16;
    if (!strcmp(kind, "tf32")) /* no TF32 before Ampere: cuBLAS runs FP32 */
        return major < 8 ? ghz_sm * r->fp32 : tensor * r->fp16 / 2;
    return NAN;
}
