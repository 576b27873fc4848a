/* test_backends.c - the backend loader's checks, with fake backends. */
#include "experiment/registry/backends.h"

#include "runproc.h"

#include <criterion/criterion.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const rn_backend *load(int variant, char *why, size_t len)
{
    char path[4096];
    const char *dir = getenv("RUNNER_FAKES");
    cr_assert(dir, "RUNNER_FAKES is not set (run through make test)");
    snprintf(path, sizeof path, "%s/fake-%d.so", dir, variant);
    return backend_load_file(path, why, len);
}

Test(backends, loads_a_valid_backend)
{
    char why[512] = "";
    const rn_backend *b = load(1, why, sizeof why);
    cr_assert_not_null(b, "%s", why);
    cr_assert_str_eq(b->name, "fake");
    cr_assert_eq(b->device_count(), 0);
}

Test(backends, refuses_wrong_version)
{
    char why[512] = "";
    cr_assert_null(load(2, why, sizeof why));
    char want[128]; /* the fake says RN_BACKEND_ABI + 41 */
    snprintf(want, sizeof want, "interface version %d; this runner needs %d", RN_BACKEND_ABI + 41,
             RN_BACKEND_ABI);
    cr_assert(strstr(why, want), "got: %s", why);
    cr_assert_eq(RN_BACKEND_ABI, 9,
                 "ABI 3: prepare's named status, work, teardown, diagnostic; 4: range; "
                 "5: the tensor ops' fuse_*; 6: a workload's timed_begin, unsettled; "
                 "7: min_warm; 8: ceilings, energy; 9: batch_begin, warm_carry");
}

Test(backends, refuses_missing_hook)
{
    char why[512] = "";
    cr_assert_null(load(3, why, sizeof why));
    cr_assert(strstr(why, "lacks the required function 'probe'"), "got: %s", why);
}

Test(backends, refuses_a_library_without_entry_point)
{
    char why[512] = "";
    cr_assert_null(load(4, why, sizeof why));
    cr_assert(strstr(why, "does not export runner_backend_entry(): not a runner backend"),
              "got: %s", why);
}

Test(backends, refuses_a_missing_file)
{
    char why[512] = "";
    cr_assert_null(backend_load_file("/nonexistent/runner-cuda.so", why, sizeof why));
    cr_assert(strstr(why, "cannot load /nonexistent/runner-cuda.so"), "got: %s", why);
}

Test(backends, validate_names_what_is_missing)
{
    rn_backend b = {.abi = RN_BACKEND_ABI, .name = "x"};
    char why[256];
    cr_assert_eq(backend_validate(&b, why, sizeof why), -1);
    cr_assert_str_eq(why, "backend 'x' lacks the required function 'probe'");
    cr_assert_eq(backend_validate(NULL, why, sizeof why), -1);
}

Test(backends, cpu_backend_is_always_there)
{
    char why[256];
    const rn_backend *b = backend_for(RN_DEV_CPU, why, sizeof why);
    cr_assert_not_null(b);
    cr_assert_eq(backend_validate(b, why, sizeof why), 0, "%s", why);
    cr_assert_eq(b->device_count(), 1);
}

/* Without the CUDA driver the runner does not load its CUDA backend (whose
 * libraries take 0.1 s to load) and says why: the driver's library is
 * looked for first (doc/workloads.md#built-in-workloads). */
Test(backends, no_cuda_driver_is_said_without_loading_the_backend)
{
    void *d = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (d) {
        dlclose(d);
        cr_skip_test("this machine has a CUDA driver");
    }
    unsetenv("RUNNER_CUDA_BACKEND");
    char why[512] = "";
    cr_assert_null(backend_for(RN_DEV_CUDA, why, sizeof why));
    cr_assert_str_eq(why, "no CUDA driver (libcuda.so.1 is not on this machine)");
    cr_assert_eq(backend_cuda_loaded(), 0);
    proc_out r;
    run((char *[]){"list", "devices", NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "cuda     none: no CUDA driver (libcuda.so.1 is not on this machine)"),
              "%s", r.out);
}
