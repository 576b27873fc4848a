/* meta.h - meta.json: what ran, where, with what (doc/results.md#results). */
#ifndef RUNNER_META_H
#define RUNNER_META_H
/* public header of runner/results/rundir/ */

#include "experiment/config.h"

typedef struct meta meta;

/* Collects the environment (host, BLAS, CUDA devices: the backends are
 * asked in a short-lived child process so this one never touches CUDA). */
meta *meta_collect(const experiment *e, int argc, char **argv);
void meta_warn(meta *m, const char *msg);
/* A resumed run (--resume, --run-dir on a run folder) keeps the start its
 * meta.json says and adds now to its `resumed` list, so the run stays one
 * run (doc/results.md#results; the history's identity, doc/history.md).  A
 * meta.json that is absent or unreadable leaves the start now. */
void meta_resume(meta *m, const char *run_dir);
/* The ceilings the run uses (JSON text, doc/ceilings.md#the-ceilings), or
 * the reason it has none. */
void meta_set_ceilings(meta *m, const char *json, const char *why_none);
/* Sets the top-level `key` to the JSON text `json` (the CPUs' speed and the
 * run's load, doc/timing.md#the-speed-of-each-cpu); nothing when it does
 * not parse. */
void meta_set_json(meta *m, const char *key, const char *json);
/* Writes RUN_DIR/meta.json; `finished` = 0 while the run goes on. */
int meta_write(meta *m, const char *run_dir, int finished, const long long counts[5],
               double wall);
void meta_free(meta *m);

/* The list of warnings collected (for printing). */
int meta_warnings(const meta *m, const char ***out);

/* SHA-256 of a buffer as 64 hex digits. */
void sha256_hex(const void *data, size_t len, char out[65]);

/* Facts reported by the backends: "key\tvalue" lines (list devices too). */
char *backend_facts(void);

#endif
