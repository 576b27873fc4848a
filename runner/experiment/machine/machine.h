/* machine.h - this machine's ceilings, probed once and cached
 * (doc/ceilings.md#the-ceilings): in
 * ${XDG_CACHE_HOME:-~/.cache}/runner/ceilings-<machine id>.json, reused
 * while the machine's fingerprint (CPU model, CPUs, GPUs) is the same. */
#ifndef RUNNER_MACHINE_MACHINE_H
#define RUNNER_MACHINE_MACHINE_H
/* public header of runner/experiment/machine/ */

#include "base/util.h"
#include "experiment/machine/ceilings.h"

/* This machine's id (/etc/machine-id, else its host name) and what must
 * stay the same for its cache to hold (CPU model, CPUs,
 * CUDA_VISIBLE_DEVICES); the caller frees them. */
char *machine_id(void);
char *machine_fingerprint(void);

/* The cache file of this machine (the caller frees it). */
char *machine_cache_path(void);

/* The cached ceilings, or NULL (none, unreadable, or another machine's:
 * `why` says which). */
ceilings *machine_cached(char *why, size_t len);

/* Probes this machine, in a child process (the CPU, and each CUDA device
 * through its backend, so that this process never touches CUDA), and
 * writes the cache.  NULL with err filled when the probe failed. */
ceilings *machine_probe(char *err, size_t len);

/* The cached ceilings, else (or with reprobe) probed now; *probed says
 * which; notes get a line on what was done. */
ceilings *machine_ceilings(int reprobe, int *probed, strbuf *notes, char *err, size_t len);

#endif
