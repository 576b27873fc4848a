/* fuzz_lua.c - libFuzzer harness over the Lua loader: the input as a
 * workload file (lua_file_check, then prepare, one run, check, flops, bytes,
 * extras, teardown, release) and as a hooks file (open, skip, before_trial,
 * after_trial, close), under the sandbox and a small memory cap.  A crash,
 * leak or sanitizer report is a bug; a hang in one C function (string.find
 * with a pathological pattern) is what the runner's supervised processes
 * stop, and shows here as a libFuzzer timeout.  See `make fuzz-smoke`. */
#include "experiment/registry/backends.h"
#include "experiment/lua/lua_engine.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void add_col(void *ctx, const char *k, const char *v)
{
    (void)ctx;
    (void)k;
    (void)v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int configured;
    if (!configured) {
        lua_engine_configure("/tmp", "lua", 0);
        lua_engine_set_memory_limit(64u << 20);
        lua_hooks_set_time_limit(1.0);
        configured = 1;
    }
    char path[] = "/tmp/fuzz-lua-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 0;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        unlink(path);
        return 0;
    }
    close(fd);
    char err[1024];
    if (lua_file_check(path, err, sizeof err) == 0) {
        char wl[64];
        snprintf(wl, sizeof wl, "lua:%s", path);
        rn_trial t = {.workload = wl, .device = RN_DEV_CPU, .threads = 1, .size = 4, .seed = 1};
        void *st = NULL;
        rn_error e = {{0}};
        const rn_workload_impl *impl = lua_workload_impl();
        if (impl->prepare(&t, &st, &e) == 0 && st) {
            rn_sample s;
            memset(&s, 0, sizeof s);
            impl->run(st, &s, &e);
            if (impl->check)
                impl->check(st, &e);
            (void)lua_workload_flops(st);
            (void)lua_workload_bytes(st);
            impl->extras(st, NULL, add_col);
            (void)lua_workload_diagnostic(st);
            lua_workload_teardown(st, &e);
            impl->release(st);
        }
    }
    lua_hooks *h = lua_hooks_open(path, err, sizeof err);
    if (h) {
        const char *keys[] = {"size", "device"}, *vals[] = {"4", "cpu"};
        lua_trial_view tv = {.index = 0, .n = 2, .keys = keys, .values = vals};
        char why[512];
        lua_hooks_skip(h, &tv, why, sizeof why);
        lua_hooks_before(h, &tv, why, sizeof why);
        lua_result_view rv = {.status = "ok", .reason = NULL, .samples = 1, .min = 1, .median = 1,
                              .mean = 1, .stddev = 0, .max = 1, .gflops = NAN, .gbps = NAN};
        lua_extra x;
        if (lua_hooks_after(h, &tv, &rv, &x, why, sizeof why) == 0)
            lua_extra_free(&x);
        lua_hooks_close(h);
    }
    unlink(path);
    return 0;
}
