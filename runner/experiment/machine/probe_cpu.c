/* probe_cpu.c - see probe_cpu.h.  The FMA kernel is ten independent chains
 * acc = acc * m + a: an FMA's latency is about four cycles and a core issues
 * two a cycle, so eight chains in flight keep both pipes full; ten leave a
 * margin.  The ISA is picked at run time (__builtin_cpu_supports) and each
 * kernel is compiled for its own with a target attribute, so one binary
 * runs the widest one the CPU has.  Each figure is the best of several short
 * windows, so another program's burst on a shared machine costs a window,
 * not the figure (doc/ceilings.md#the-ceilings). */
#include "experiment/machine/probe_cpu.h"

#include "base/util.h"

#include <cpuid.h>
#include <immintrin.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ten chains, each a named variable so that they stay in registers */
#define CH10(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9)
#define NCHAINS 10

/* One kernel: `iters` rounds of the ten chains; returns a sum of the
 * accumulators so that the compiler keeps the work. */
#define FMA_KERNEL(NAME, TARGET, VT, ET, SET1, LANES)                                          \
    __attribute__((target(TARGET))) static double NAME(long iters)                            \
    {                                                                                          \
        VT m = SET1((ET)0.999999), a = SET1((ET)1e-6);                                         \
        CH10(DECL_##NAME)                                                                      \
        for (long i = 0; i < iters; i++) {                                                     \
            CH10(STEP_##NAME)                                                                  \
        }                                                                                      \
        ET out[LANES];                                                                         \
        double s = 0;                                                                          \
        CH10(SUM_##NAME)                                                                       \
        return s;                                                                              \
    }

/* per-kernel helpers: declaration, step and sum of chain c */
#define K512S_D(n) __m512 acc##n = _mm512_set1_ps((float)(n) * 0.01f);
#define K512S_S(n) acc##n = _mm512_fmadd_ps(acc##n, m, a);
#define K512S_R(n) _mm512_storeu_ps(out, acc##n); for (int l = 0; l < 16; l++) s += out[l];
#define DECL_fma512s K512S_D
#define STEP_fma512s K512S_S
#define SUM_fma512s K512S_R
FMA_KERNEL(fma512s, "avx512f", __m512, float, _mm512_set1_ps, 16)

#define K512D_D(n) __m512d acc##n = _mm512_set1_pd((double)(n) * 0.01);
#define K512D_S(n) acc##n = _mm512_fmadd_pd(acc##n, m, a);
#define K512D_R(n) _mm512_storeu_pd(out, acc##n); for (int l = 0; l < 8; l++) s += out[l];
#define DECL_fma512d K512D_D
#define STEP_fma512d K512D_S
#define SUM_fma512d K512D_R
FMA_KERNEL(fma512d, "avx512f", __m512d, double, _mm512_set1_pd, 8)

#define K256S_D(n) __m256 acc##n = _mm256_set1_ps((float)(n) * 0.01f);
#define K256S_S(n) acc##n = _mm256_fmadd_ps(acc##n, m, a);
#define K256S_R(n) _mm256_storeu_ps(out, acc##n); for (int l = 0; l < 8; l++) s += out[l];
#define DECL_fma256s K256S_D
#define STEP_fma256s K256S_S
#define SUM_fma256s K256S_R
FMA_KERNEL(fma256s, "avx2,fma", __m256, float, _mm256_set1_ps, 8)

#define K256D_D(n) __m256d acc##n = _mm256_set1_pd((double)(n) * 0.01);
#define K256D_S(n) acc##n = _mm256_fmadd_pd(acc##n, m, a);
#define K256D_R(n) _mm256_storeu_pd(out, acc##n); for (int l = 0; l < 4; l++) s += out[l];
#define DECL_fma256d K256D_D
#define STEP_fma256d K256D_S
#define SUM_fma256d K256D_R
FMA_KERNEL(fma256d, "avx2,fma", __m256d, double, _mm256_set1_pd, 4)

/* SSE2 has no FMA: a multiply and an add, two flops per lane as well */
#define K128S_D(n) __m128 acc##n = _mm_set1_ps((float)(n) * 0.01f);
#define K128S_S(n) acc##n = _mm_add_ps(_mm_mul_ps(acc##n, m), a);
#define K128S_R(n) _mm_storeu_ps(out, acc##n); for (int l = 0; l < 4; l++) s += out[l];
#define DECL_fma128s K128S_D
#define STEP_fma128s K128S_S
#define SUM_fma128s K128S_R
FMA_KERNEL(fma128s, "sse2", __m128, float, _mm_set1_ps, 4)

#define K128D_D(n) __m128d acc##n = _mm_set1_pd((double)(n) * 0.01);
#define K128D_S(n) acc##n = _mm_add_pd(_mm_mul_pd(acc##n, m), a);
#define K128D_R(n) _mm_storeu_pd(out, acc##n); for (int l = 0; l < 2; l++) s += out[l];
#define DECL_fma128d K128D_D
#define STEP_fma128d K128D_S
#define SUM_fma128d K128D_R
FMA_KERNEL(fma128d, "sse2", __m128d, double, _mm_set1_pd, 2)

typedef double (*kernel_fn)(long iters);

/* the widest ISA this CPU runs, its kernels and their lanes */
static const char *pick(int f64, kernel_fn *k, int *lanes)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        *k = f64 ? fma512d : fma512s;
        *lanes = f64 ? 8 : 16;
        return "avx512";
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        *k = f64 ? fma256d : fma256s;
        *lanes = f64 ? 4 : 8;
        return "avx2";
    }
    *k = f64 ? fma128d : fma128s;
    *lanes = f64 ? 2 : 4;
    return "sse2";
}

/* ---- threads: one per allowed CPU, pinned, started together ------------- */

typedef struct team team;
typedef void (*team_body)(team *t, int id);

/* A spinning barrier: each thread has a CPU of its own, and a thread that
 * sleeps in a barrier needs a busy machine's scheduling delay (milliseconds)
 * to wake, which would stretch a probe of 2 ms windows tenfold. */
typedef struct spin_bar {
    _Atomic int count, sense;
    int n;
} spin_bar;

static void spin_wait(spin_bar *b, int *local)
{
    *local = !*local;
    if (atomic_fetch_add(&b->count, 1) == b->n - 1) {
        atomic_store(&b->count, 0);
        atomic_store(&b->sense, *local);
    } else {
        while (atomic_load(&b->sense) != *local)
            __builtin_ia32_pause();
    }
}

struct team {
    int n;
    int cpus[1024];
    spin_bar bar;
    team_body body;
    void *arg;
    volatile double sink;
};

typedef struct member {
    team *t;
    int id;
} member;

static void *member_main(void *p)
{
    member *m = p;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(m->t->cpus[m->id], &one);
    pthread_setaffinity_np(pthread_self(), sizeof one, &one);
    m->t->body(m->t, m->id);
    return NULL;
}

/* Runs body on `want` threads (0: one per allowed CPU), each pinned. */
static void team_run(team *t, int want, team_body body, void *arg)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    t->n = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        for (int c = 0; c < CPU_SETSIZE && t->n < 1024; c++)
            if (CPU_ISSET(c, &set))
                t->cpus[t->n++] = c;
    }
    if (t->n == 0)
        t->cpus[t->n++] = 0;
    if (want > 0 && want < t->n)
        t->n = want;
    t->body = body;
    t->arg = arg;
    atomic_store(&t->bar.count, 0);
    atomic_store(&t->bar.sense, 0);
    t->bar.n = t->n;
    pthread_t th[1024];
    member mb[1024];
    for (int i = 0; i < t->n; i++) {
        mb[i] = (member){t, i};
        if (i && pthread_create(&th[i], NULL, member_main, &mb[i]) != 0)
            mb[i].t = NULL;
    }
    member_main(&mb[0]); /* pins this thread: its own CPU set comes back after */
    for (int i = 1; i < t->n; i++)
        pthread_join(th[i], NULL);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* ---- the FMA peak ------------------------------------------------------- */

typedef struct fma_job {
    kernel_fn k;
    long iters;
    int reps;
    double best; /* seconds of the fastest window */
} fma_job;

static void fma_body(team *t, int id)
{
    fma_job *j = t->arg;
    int sense = 0;
    for (int r = 0; r < j->reps; r++) {
        spin_wait(&t->bar, &sense);
        double t0 = now();
        double s = j->k(j->iters);
        spin_wait(&t->bar, &sense); /* the window ends with the slowest thread */
        double dt = now() - t0;
        if (id == 0 && dt < j->best)
            j->best = dt;
        if (s == 12345.678)
            t->sink = s;
    }
}

static double measured_clock(void);

double cpu_probe_fma(int f64, int threads, int reps, double window)
{
    kernel_fn k;
    int lanes;
    pick(f64, &k, &lanes);
    /* rounds for one window, from a short run on this thread */
    long iters = 20000;
    for (;;) {
        double t0 = now();
        volatile double s = k(iters);
        (void)s;
        double dt = now() - t0;
        if (dt > window / 8 || iters > (1L << 40)) {
            iters = (long)((double)iters * window / (dt > 0 ? dt : 1e-9)) + 1;
            break;
        }
        iters *= 4;
    }
    static team t; /* large: not on the stack */
    fma_job j = {k, iters, reps, INFINITY};
    team_run(&t, threads, fma_body, &j);
    double flops = 2.0 * lanes * NCHAINS * (double)iters * t.n;
    measured_clock(); /* the clock these windows ran at, for the nominal figures */
    return flops / j.best / 1e9;
}

double cpu_probe_here(int reps, double window)
{
    kernel_fn k;
    int lanes;
    pick(0, &k, &lanes);
    long iters = 2000;
    double best = 0;
    for (int tries = 0; reps > 0 && tries < 64; tries++) {
        double t0 = now();
        volatile double s = k(iters);
        (void)s;
        double dt = now() - t0;
        if (dt < window / 4 && tries < 8) { /* still finding the window: not counted */
            iters = (long)((double)iters * window / (dt > 1e-7 ? dt : 1e-7)) + 1;
            continue;
        }
        double g = 2.0 * lanes * NCHAINS * (double)iters / dt / 1e9;
        best = g > best ? g : best;
        reps--;
    }
    return best > 0 ? best : NAN;
}

/* ---- the triad bandwidth ------------------------------------------------ */

typedef struct triad_job {
    double *a, *b, *c;
    size_t n;
    int reps;
    double best;
} triad_job;

/* Each pass over the arrays is timed in TRIAD_PARTS windows of one part
 * each (every thread doing its share of the part): a window of about a
 * millisecond fits in a busy machine's time slice, and a part the last pass
 * streamed long ago is not in the caches. */
#define TRIAD_PARTS 16

static void triad_body(team *t, int id)
{
    triad_job *j = t->arg;
    int sense = 0;
    size_t part = j->n / TRIAD_PARTS;
    /* each thread first touches its own shares (its NUMA node's memory) */
    for (int k = 0; k < TRIAD_PARTS; k++) {
        size_t lo = part * (size_t)k + part * (size_t)id / (size_t)t->n;
        size_t hi = part * (size_t)k + part * (size_t)(id + 1) / (size_t)t->n;
        /* values that differ page to page: a hypervisor that merges equal
         * pages (KSM) would otherwise serve the reads from one cached page */
        for (size_t i = lo; i < hi; i++)
            j->a[i] = 0, j->b[i] = (double)i, j->c[i] = (double)(i ^ 0x5555);
    }
    for (int r = 0; r < j->reps; r++)
        for (int k = 0; k < TRIAD_PARTS; k++) {
            size_t lo = part * (size_t)k + part * (size_t)id / (size_t)t->n;
            size_t hi = part * (size_t)k + part * (size_t)(id + 1) / (size_t)t->n;
            spin_wait(&t->bar, &sense);
            double t0 = now();
            const double s = 3.0;
            for (size_t i = lo; i < hi; i++)
                j->a[i] = j->b[i] + s * j->c[i];
            spin_wait(&t->bar, &sense);
            double dt = now() - t0;
            if (id == 0 && r > 0 && dt < j->best) /* the first pass settles the pages */
                j->best = dt;
        }
}

/* One array of `bytes`, in huge pages where the kernel gives them: a
 * virtual machine's page faults would otherwise cost more than the probe. */
static double *big_array(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, (size_t)2 << 20, bytes) != 0)
        return NULL;
    madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}

double cpu_probe_triad(int threads, int reps)
{
    /* the last-level cache per array, at least 16 MiB: the three arrays
     * stream through three times what the caches hold, so that no pass
     * finds its data there */
    long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (llc <= 0)
        llc = sysconf(_SC_LEVEL2_CACHE_SIZE);
    size_t bytes = llc > 0 ? (size_t)llc : 0;
    if (bytes < ((size_t)16 << 20))
        bytes = (size_t)16 << 20;
    if (bytes > ((size_t)256 << 20))
        bytes = (size_t)256 << 20;
    /* the arrays stay for the next call: a virtual machine's first touch
     * of fresh memory costs seconds, more than the probe itself */
    static double *arena[3];
    static size_t arena_bytes;
    static int settled;
    if (arena_bytes != bytes) {
        settled = 0;
        for (int i = 0; i < 3; i++) {
            free(arena[i]);
            arena[i] = big_array(bytes);
        }
        arena_bytes = bytes;
    }
    triad_job j = {arena[0], arena[1], arena[2], bytes / sizeof(double), reps + 1, INFINITY};
    if (!j.a || !j.b || !j.c)
        return NAN;
    static team t;
    if (!settled++) { /* fresh memory read twice as fast as it streams once
                       * settled, on a virtual machine: a pass first */
        triad_job s = j;
        s.reps = 2;
        team_run(&t, threads, triad_body, &s);
    }
    team_run(&t, threads, triad_body, &j);
    /* STREAM's count: two arrays read, one written */
    return 3.0 * (double)(j.n / TRIAD_PARTS * sizeof(double)) / j.best / 1e9;
}

/* ---- nominal figures ---------------------------------------------------- */

/* The clock as a chain of dependent integer adds sees it: each add waits
 * for the one before, one cycle on every x86 core, so adds per second are
 * cycles per second.  Best of short windows, as the FMA probe; and the
 * fastest of every measurement this process made, as each FMA probe
 * measures it too: a host that boosts less while it is busy must not give
 * the nominal figure a clock the FMA windows did not see. */
static double clock_seen;

static double measured_clock(void)
{
#if defined(__x86_64__)
    double best = INFINITY;
    const long iters = 20000; /* 2,000,000 adds: under 1 ms at 2 GHz */
    for (int r = 0; r < 60; r++) {
        unsigned long x = 0;
        double t0 = now();
        for (long i = 0; i < iters; i++)
            __asm__ volatile(".rept 100\n\tadd $1, %0\n\t.endr" : "+r"(x));
        double dt = now() - t0;
        if (dt < best)
            best = dt;
    }
    double mhz = 100.0 * (double)iters / best / 1e6;
    if (mhz > clock_seen)
        clock_seen = mhz;
    return clock_seen;
#else
    return NAN;
#endif
}

/* The clock in MHz: cpufreq's largest (the rated top clock); else the one
 * a chain of adds measures, since a virtual machine's /proc/cpuinfo shows
 * the time-stamp counter's rate, not the clock its cores boost to; else
 * /proc/cpuinfo's "cpu MHz". */
static double read_clock(const char **from)
{
    char *s = read_file("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", NULL);
    if (s) {
        double khz = atof(s);
        free(s);
        if (khz > 0) {
            *from = "cpufreq cpuinfo_max_freq";
            return khz / 1000;
        }
    }
    double m = measured_clock();
    if (m > 0) {
        *from = "measured: a chain of dependent adds";
        return m;
    }
    char *ci = read_file("/proc/cpuinfo", NULL);
    double mhz = NAN;
    char *p = ci ? strstr(ci, "cpu MHz") : NULL;
    if (p && (p = strchr(p, ':')))
        mhz = atof(p + 1);
    free(ci);
    if (mhz > 0) {
        *from = "/proc/cpuinfo cpu MHz";
        return mhz;
    }
    *from = "unknown";
    return NAN;
}

/* FMA bits a core retires per cycle: two FMA pipes of the vector width on
 * current x86 cores, except AMD's Zen 4, whose AVX-512 runs on two 256-bit
 * pipes (family 0x19); SSE2: a multiply pipe and an add pipe of 128 bits,
 * which count as one FMA pipe of 128 bits' two flops per lane each. */
static int fma_bits(const char *isa)
{
    if (!strcmp(isa, "avx512")) {
        unsigned a, b, c, d;
        char vendor[13] = "";
        if (__get_cpuid(0, &a, &b, &c, &d)) {
            memcpy(vendor, &b, 4), memcpy(vendor + 4, &d, 4), memcpy(vendor + 8, &c, 4);
        }
        unsigned family = 0;
        if (__get_cpuid(1, &a, &b, &c, &d))
            family = ((a >> 8) & 0xf) + ((a >> 20) & 0xff);
        return !strcmp(vendor, "AuthenticAMD") && family == 0x19 ? 512 : 1024;
    }
    return !strcmp(isa, "avx2") ? 512 : 256;
}

void cpu_probe_nominal(cpu_probe *p)
{
    p->clock_mhz = read_clock(&p->clock_from);
    p->fma_bits = fma_bits(p->isa);
    /* flops per cycle: 2 per FMA lane */
    double f32 = 2.0 * p->fma_bits / 32, f64 = 2.0 * p->fma_bits / 64;
    double ghz = p->clock_mhz / 1000;
    p->nom_fp32_1core = ghz * f32;
    p->nom_fp64_1core = ghz * f64;
    p->nom_fp32 = ghz * f32 * p->cores;
    p->nom_fp64 = ghz * f64 * p->cores;
}

void cpu_probe_run(cpu_probe *p, double budget)
{
    memset(p, 0, sizeof *p);
    double t0 = now();
    kernel_fn k;
    int lanes;
    p->isa = pick(0, &k, &lanes);
    cpu_set_t set;
    p->cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    /* windows of 2 ms, shorter than a busy machine's time slice, best of
     * 60: about 0.15 s a figure on a quiet machine */
    int reps = (int)(60 * budget) > 5 ? (int)(60 * budget) : 5;
    p->fp32_1core = cpu_probe_fma(0, 1, reps, 0.002);
    p->fp64_1core = cpu_probe_fma(1, 1, reps, 0.002);
    p->fp32 = cpu_probe_fma(0, 0, reps, 0.002);
    p->fp64 = cpu_probe_fma(1, 0, reps, 0.002);
    int treps = (int)(10 * budget) > 2 ? (int)(10 * budget) : 2;
    p->bandwidth_1core = cpu_probe_triad(1, treps);
    p->bandwidth = cpu_probe_triad(0, treps);
    cpu_probe_nominal(p);
    p->seconds = now() - t0;
}
