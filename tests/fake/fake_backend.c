/* fake_backend.c - backends that are wrong on purpose, for the loader's
 * refusals.  Built as several .so files with -DFAKE_VARIANT=N:
 *   1  a valid backend with no devices ("fake")
 *   2  the wrong interface version
 *   3  a missing required hook (probe)
 *   4  no entry symbol at all
 *   5  a backend whose probe says no driver */
#include "backend.h"

#include <stdio.h>

#if FAKE_VARIANT != 4

static int probe_ok(char *why, size_t len)
{
    (void)why;
    (void)len;
    return 0;
}

static int probe_no_driver(char *why, size_t len)
{
    snprintf(why, len, "no CUDA driver (fake)");
    return 1;
}

static int count(void)
{
    return 0;
}

static int info(int i, rn_device_info *out)
{
    (void)i;
    (void)out;
    return -1;
}

static const rn_workload_impl *find(const char *name)
{
    (void)name;
    return NULL;
}

static const rn_backend fake = {
    .abi = FAKE_VARIANT == 2 ? RN_BACKEND_ABI + 41 : RN_BACKEND_ABI,
    .name = "fake",
    .probe = FAKE_VARIANT == 3 ? NULL : FAKE_VARIANT == 5 ? probe_no_driver : probe_ok,
    .device_count = count,
    .device_info = info,
    .workload = find,
};

const rn_backend *runner_backend_entry(void)
{
    return &fake;
}
#else
int not_a_backend(void)
{
    return 0;
}
#endif
