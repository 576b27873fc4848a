/* test_gpu_nominal.c - the CUDA ceilings' nominal figures
 * (backends/gpu_nominal.c, doc/ceilings.md#the-ceilings) against the
 * vendor's published dense peaks, from what each device reports (its name,
 * compute capability, SMs and highest SM clock). */
#include "gpu_nominal.h"

#include <criterion/criterion.h>
#include <math.h>

/* within 0.5 % of the published figure (GFLOP/s) */
static void near(double got, double want, const char *what)
{
    cr_assert(fabs(got / want - 1) < 0.005, "%s: %.1f GFLOP/s, the vendor says %.1f", what, got,
              want);
}

/* H100 SXM5 (132 SMs, 1980 MHz reported): FP32 66.9, FP64 tensor 66.9,
 * TF32 494.7, FP16 and BF16 989.4 TFLOP/s dense */
Test(gpu_nominal, h100_sxm_is_the_vendors_table)
{
    const char *n = "NVIDIA H100 80GB HBM3";
    near(gpu_nominal_gflops(n, 9, 0, 132, 1980, "fp32"), 66900, "H100 fp32");
    near(gpu_nominal_gflops(n, 9, 0, 132, 1980, "fp64"), 66900, "H100 fp64 (tensor cores)");
    near(gpu_nominal_gflops(n, 9, 0, 132, 1980, "tf32"), 494700, "H100 tf32");
    near(gpu_nominal_gflops(n, 9, 0, 132, 1980, "fp16"), 989400, "H100 fp16");
    near(gpu_nominal_gflops(n, 9, 0, 132, 1980, "bf16"), 989400, "H100 bf16");
}

/* H200 (the same GH100 at the same clocks): FP64 tensor 67, FP16 989.4 */
Test(gpu_nominal, h200_is_the_vendors_table)
{
    near(gpu_nominal_gflops("NVIDIA H200", 9, 0, 132, 1980, "fp64"), 66900, "H200 fp64");
    near(gpu_nominal_gflops("NVIDIA H200", 9, 0, 132, 1980, "bf16"), 989400, "H200 bf16");
    cr_assert_eq(gpu_tensor_mhz("NVIDIA H200", 9, 1980), 1830);
}

/* H100 PCIe (114 SMs, 1755 MHz): FP32 51.2, FP64 tensor 51.2, FP16 756 */
Test(gpu_nominal, h100_pcie_is_the_vendors_table)
{
    const char *n = "NVIDIA H100 PCIe";
    near(gpu_nominal_gflops(n, 9, 0, 114, 1755, "fp32"), 51200, "H100 PCIe fp32");
    near(gpu_nominal_gflops(n, 9, 0, 114, 1755, "fp64"), 51200, "H100 PCIe fp64");
    near(gpu_nominal_gflops(n, 9, 0, 114, 1755, "fp16"), 756000, "H100 PCIe fp16");
}

/* A100 SXM4 (108 SMs, 1410 MHz): FP32 19.5, FP64 tensor 19.5, TF32 156,
 * FP16 312 */
Test(gpu_nominal, a100_fp64_is_the_tensor_core_rate)
{
    const char *n = "NVIDIA A100-SXM4-80GB";
    near(gpu_nominal_gflops(n, 8, 0, 108, 1410, "fp32"), 19500, "A100 fp32");
    near(gpu_nominal_gflops(n, 8, 0, 108, 1410, "fp64"), 19500, "A100 fp64 (tensor cores)");
    near(gpu_nominal_gflops(n, 8, 0, 108, 1410, "tf32"), 156000, "A100 tf32");
    near(gpu_nominal_gflops(n, 8, 0, 108, 1410, "fp16"), 312000, "A100 fp16");
}

/* no FP64 tensor cores on V100 (80 SMs, 1530 MHz): FP64 7.8, FP32 15.7,
 * FP16 tensor 125, TF32 none (cuBLAS runs FP32) */
Test(gpu_nominal, v100_and_unknown_architectures)
{
    const char *n = "Tesla V100-SXM2-16GB";
    near(gpu_nominal_gflops(n, 7, 0, 80, 1530, "fp64"), 7834, "V100 fp64");
    near(gpu_nominal_gflops(n, 7, 0, 80, 1530, "fp32"), 15667, "V100 fp32");
    near(gpu_nominal_gflops(n, 7, 0, 80, 1530, "fp16"), 125337, "V100 fp16");
    near(gpu_nominal_gflops(n, 7, 0, 80, 1530, "tf32"), 15667, "V100 tf32 (runs fp32)");
    cr_assert(isnan(gpu_nominal_gflops("Future GPU", 12, 0, 100, 2000, "fp32")));
    cr_assert(isnan(gpu_nominal_gflops(n, 7, 0, 80, 1530, "int8")));
}
