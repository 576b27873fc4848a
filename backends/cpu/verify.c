/* verify.c - sampling, comparison against the reference, the test hook. */
#include "verify.h"

#include <stdio.h>

#include "cpu.h"
#include "philox.h"
#include "verify_tol.h"

#define EDGE 8 /* entries checked at each end of a sampled output */

size_t cpu_sample_count(size_t n)
{
    return n < CPU_CHECK_SAMPLES ? n : CPU_CHECK_SAMPLES;
}

size_t cpu_sample_index(size_t n, size_t s)
{
    if (n <= CPU_CHECK_SAMPLES || s < EDGE)
        return s;
    if (s >= CPU_CHECK_SAMPLES - EDGE)
        return n - (CPU_CHECK_SAMPLES - s);
    /* A fixed key, independent of the trial's seed: the sample is part of the
     * check's definition, not of the inputs. */
    rn_philox_out o = rn_philox4x32((uint32_t)s, 0, 0, 0, 0x5eed5eedu, 0xc4ec4ec4u);
    uint64_t r = ((uint64_t)o.v[0] << 32) | o.v[1];
    return (size_t)(r % n);
}

int cpu_compare(double got, double ref, double tol, int digits, const char *workload,
                const char *what, rn_error *err)
{
    if (got == ref)
        return 0;
    double rel = fabs(got - ref) / fabs(ref);
    if (ref == 0)
        rel = fabs(got);
    if (rel <= tol)
        return 0;
    snprintf(err->msg, sizeof err->msg,
             "%s: %s = %.*g but the reference is %.*g (relative error %.1e > %.1e)", workload,
             what, digits, got, digits, ref, rel, tol);
    return -1;
}

int cpu_check_output(const void *state, double tol, size_t most, const char *workload,
                     cpu_reference_fn ref, rn_error *err)
{
    const cpu_output *o = state;
    int digits = o->dtype == RN_F32 ? 9 : 17;
    size_t count = cpu_sample_count(o->count), checks = count < most ? count : most;
    for (size_t q = 0; q < checks; q++) {
        size_t pos = checks == count ? q : q * (count - 1) / (checks - 1);
        size_t i = cpu_sample_index(o->count, pos);
        char what[64];
        double r = ref(state, i, what, sizeof what);
        if (cpu_compare(cpu_at(o->data, o->dtype, i), r, tol, digits, workload, what, err))
            return -1;
    }
    return 0;
}

int cpu_inject(const rn_trial *t, cpu_output *o, rn_error *err)
{
    switch (rn_inject(t)) {
    case RN_INJECT_SKIP_COPY:
        snprintf(err->msg, sizeof err->msg,
                 "%s: inject: skip_copy: the cpu backend makes no copy to skip", t->workload);
        return RN_PREPARE_SKIP;
    case RN_INJECT_SKIP_KERNEL:
        for (size_t i = 0; i < o->count; i++) {
            if (o->dtype == RN_F32)
                ((float *)o->data)[i] = NAN;
            else
                ((double *)o->data)[i] = NAN;
        }
        o->skip_kernel = 1;
        return 0;
    default:
        return 0;
    }
}

int cpu_test_corrupt(void *state, size_t index)
{
    cpu_output *o = state;
    if (!o || !o->data || index >= o->count)
        return -1;
    /* Large enough to exceed any tolerance, and never a no-op (x * 1.5 + 1
     * only equals x for x = -2, which no output holds). */
    if (o->dtype == RN_F32) {
        float *v = o->data;
        v[index] = v[index] * 1.5f + 1.0f;
    } else {
        double *v = o->data;
        v[index] = v[index] * 1.5 + 1.0;
    }
    return 0;
}
