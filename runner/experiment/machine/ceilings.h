/* ceilings.h - a machine's ceilings (doc/ceilings.md#the-ceilings): per
 * device ("cpu", "cuda:0", ...) the measured peak of each kind of work
 * ("fp32", "fp64", "fp32_1core", "tf32", "fp16", "bf16" in GFLOP/s;
 * "bandwidth", "bandwidth_1core", "h2d", "d2h" in GB/s) and, where it can
 * be computed, the nominal one; and what a trial's throughput is against
 * them (doc/ceilings.md#percent-of-peak).  Held as the JSON that the cache
 * and the run's metadata (rundir) store. */
#ifndef RUNNER_MACHINE_CEILINGS_H
#define RUNNER_MACHINE_CEILINGS_H
/* public header of runner/experiment/machine/ */

#include <stddef.h>

typedef struct ceilings ceilings;

/* Parses the JSON text of a cache file or of the run's metadata (rundir)'s "ceilings";
 * NULL when it is not one. */
ceilings *ceilings_parse(const char *json);
/* A new, empty set for this machine (machine id, fingerprint, date). */
ceilings *ceilings_new(const char *machine_id, const char *fingerprint);
void ceilings_free(ceilings *c);
/* The JSON text (pretty-printed); the caller frees it. */
char *ceilings_json(const ceilings *c);

/* Device facts: ceilings_set_info(c, "cpu", "isa", "avx512"). */
void ceilings_set_info(ceilings *c, const char *device, const char *key, const char *value);
const char *ceilings_info(const ceilings *c, const char *device, const char *key);
/* One ceiling: measured and nominal (NAN: none) in `unit`. */
void ceilings_set(ceilings *c, const char *device, const char *what, double measured,
                  double nominal, const char *unit);
/* Every measured compute ceiling (GFLOP/s) of a device times factor (the
 * clock measured now against the one the ceilings were probed at); the
 * nominal ones and the bandwidths as they are. */
void ceilings_scale_compute(ceilings *c, const char *device, double factor);
/* The measured figure (NAN: none, or one no device has); *nominal, when
 * not NULL, the nominal one (the same). */
double ceilings_get(const ceilings *c, const char *device, const char *what, double *nominal);
/* 0 when every figure of c is one a device may have (a number from 10^-3
 * to 10^8 GFLOP/s or GB/s), else -1 with the first that is not in why
 * ("cpu fp32 measured 1e-300 GFLOP/s: no device has that ..."). */
int ceilings_check(const ceilings *c, char *why, size_t len);

const char *ceilings_machine_id(const ceilings *c);
const char *ceilings_fingerprint(const ceilings *c);

/* The devices, in order: *n of them; names[i] valid while c lives. */
int ceilings_devices(const ceilings *c, const char **names, int max);
/* The ceilings of a device, in order: whats[i] valid while c lives. */
int ceilings_whats(const ceilings *c, const char *device, const char **whats, int max);

/* What bounds a trial and how close it came (doc/ceilings.md#percent-of-peak).
 * device: "cpu" or "cuda:N"; threads: the CPU threads (the one-core figure
 * times the threads below the cores); dtype: f32, f64, f16, bf16; math:
 * "tf32" for matmul's math: tf32, else NULL; flops, bytes of one call (NAN:
 * not declared); gflops, gbps achieved.  Returns the percent (NAN: no
 * ceiling applies) and writes the bound's name ("fp32", "bandwidth", ...)
 * and its figure in its unit. */
double ceilings_pct(const ceilings *c, const char *device, int threads, const char *dtype,
                    const char *math, double flops, double bytes, double gflops, double gbps,
                    char *bound, size_t len, double *peak);

/* The compute ceiling (GFLOP/s) of a device for a dtype and threads, and
 * the bandwidth (GB/s); NAN where there is none. */
double ceilings_compute(const ceilings *c, const char *device, int threads, const char *dtype,
                        const char *math, char *what, size_t len);
double ceilings_bandwidth(const ceilings *c, const char *device, int threads);

#endif
