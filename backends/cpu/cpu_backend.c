/* cpu_backend.c - the CPU backend's table: the host as one device, the
 * workloads it runs, threads, and the facts that change its results. */
#include <cblas.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend_tables.h"
#include "cpu.h"

static int cpu_probe(char *why, size_t len)
{
    (void)why;
    (void)len;
    return 0; /* the host is always there */
}

static int cpu_device_count(void)
{
    return 1;
}

/* The value of "key<spaces>: value" in a /proc file, or -1. */
static int proc_field(const char *path, const char *key, char *out, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[512];
    size_t klen = strlen(key);
    int found = -1;
    while (found && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) != 0 || !strchr(" \t:", line[klen]))
            continue;
        char *v = strchr(line, ':');
        if (!v)
            continue;
        v += strspn(v + 1, " \t") + 1;
        v[strcspn(v, "\n")] = '\0';
        snprintf(out, len, "%s", v);
        found = 0;
    }
    fclose(f);
    return found;
}

/* A /proc/meminfo entry ("MemTotal", "MemAvailable") in bytes, or -1. */
static double meminfo_bytes(const char *key)
{
    char v[64];
    double kib;
    if (proc_field("/proc/meminfo", key, v, sizeof v) || sscanf(v, "%lf", &kib) != 1)
        return -1;
    return kib * 1024;
}

static const char *vector_isa(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return "AVX-512";
    if (__builtin_cpu_supports("avx2"))
        return "AVX2";
    return "SSE2";
#else
    return "baseline";
#endif
}

static int cpu_device_info(int index, rn_device_info *out)
{
    if (index != 0)
        return -1;
    memset(out, 0, sizeof *out);
    char model[sizeof out->name];
    if (proc_field("/proc/cpuinfo", "model name", model, sizeof model) &&
        proc_field("/proc/cpuinfo", "Model", model, sizeof model)) /* Arm boards */
        snprintf(model, sizeof model, "unknown CPU");
    snprintf(out->name, sizeof out->name, "%s", model);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t set;
    int usable = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : (int)online;
    snprintf(out->detail, sizeof out->detail, "%ld logical CPUs (%d usable by this process), %s",
             online, usable, vector_isa());
    out->memory_bytes = meminfo_bytes("MemTotal");
    out->free_bytes = meminfo_bytes("MemAvailable");
    return 0;
}

/* The workloads, as their files register them (RN_REGISTER_WORKLOAD). */
static rn_workload_list workloads;

void cpu_register_workload(const rn_workload_impl *w)
{
    rn_workload_list_add(&workloads, w);
}

static const rn_workload_impl *cpu_workload(const char *name)
{
    return rn_workload_list_find(&workloads, name); /* no memcpy: no copy from host to host */
}

static int cpu_select(const rn_trial *t, rn_error *err)
{
    if (t->threads < 1) {
        snprintf(err->msg, sizeof err->msg, "threads = %d: need at least 1", t->threads);
        return -1;
    }
    /* OpenMP's count only.  The element-wise workloads also pass t->threads
     * to each parallel region, since omp_set_num_threads only binds the
     * calling thread.  OpenBLAS's count is set by the code that calls BLAS,
     * just before (cpu_blas_threads): in a fresh worker, setting it starts
     * OpenBLAS's pool, whose threads then spin for about 0.1 s and take a
     * core from the worker's first trial even when it never calls BLAS (a
     * 2-thread axpb trial: the slowest of six in 13 of 30 runs with the
     * spin, 5 of 30 without; doc/timing.md#how-a-trial-is-timed, Order). */
    omp_set_num_threads(t->threads);
    return 0;
}

/* Only when it changes: openblas_set_num_threads wakes OpenBLAS's pool,
 * whose threads then spin for a while and steal a core from concurrent
 * members that call select before every run. */
static int blas_threads;

void cpu_blas_threads(int n)
{
    if (n != blas_threads) {
        openblas_set_num_threads(n);
        blas_threads = n;
    }
}

/* cold_cache: write a buffer of twice the last-level cache, so that no
 * input of the trial is still cached when its sample starts. */
static int cpu_flush_caches(const rn_trial *t, rn_error *err)
{
    (void)t;
    static unsigned char *junk;
    static size_t size;
    if (!junk) {
        long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
        if (llc <= 0)
            llc = sysconf(_SC_LEVEL2_CACHE_SIZE);
        size = 2 * (size_t)(llc > 0 ? llc : 32L << 20);
        if (size < (64u << 20))
            size = 64u << 20;
        junk = malloc(size);
        if (!junk) {
            snprintf(err->msg, sizeof err->msg, "cannot allocate %zu bytes to flush the caches",
                     size);
            return 1;
        }
    }
    static unsigned char pass;
    memset(junk, ++pass, size);
    return 0;
}

static int cpu_free_memory(int index, double *bytes)
{
    if (index != 0)
        return -1;
    *bytes = meminfo_bytes("MemAvailable");
    return *bytes < 0 ? -1 : 0;
}

static void cpu_env_info(void *ctx, rn_fact_cb cb)
{
    char buf[32];
    cb(ctx, "blas", openblas_get_config());
    cb(ctx, "blas_core", openblas_get_corename());
    snprintf(buf, sizeof buf, "%d", openblas_get_num_threads());
    cb(ctx, "blas_threads", buf);
    cb(ctx, "cpu_vector_isa", vector_isa());
    const char *warn = cpu_coretype_warning();
    if (warn)
        cb(ctx, "openblas_coretype_warning", warn);
}

static const rn_backend backend =
    RN_BACKEND_OF(cpu, cpu, .shutdown = NULL, .tensor = &cpu_tensor_ops, .energy = cpu_energy);

const rn_backend *cpu_backend(void)
{
    return &backend;
}
