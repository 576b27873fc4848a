/* affinity.h - the `affinity` run key
 * (doc/timing.md#pinning): `none` (the default: the worker may run on every CPU this
 * process may use), `compact` (the first `threads` of those CPUs), or a CPU
 * list such as `0,2-3`.  Library code: it prints nothing. */
#ifndef RUNNER_AFFINITY_H
#define RUNNER_AFFINITY_H
/* public header of runner/base/ */

#include <sched.h>
#include <stddef.h>

/* Resolves `spec` for a trial of `threads` threads into *set.  Returns 1
 * when the worker is to be pinned, 0 for `none` (*set: every allowed CPU),
 * -1 with a message in err when the spec names CPUs this process may not
 * use. */
int affinity_resolve(const char *spec, int threads, cpu_set_t *set, char *err, size_t len);
/* "0-1,4" */
void affinity_format(const cpu_set_t *set, char *buf, size_t len);
/* The syntax check of the key (no CPU existence check: the file may be
 * validated on another machine); 0 when valid. */
int affinity_syntax_ok(const char *spec);
/* Pins each OpenMP thread of a `threads`-wide team but the calling one to
 * one CPU of the set in turn (thread k to the k-th CPU, as OMP_PROC_BIND=close
 * with one place per CPU does); the calling thread, and so every thread it
 * starts later (OpenBLAS's), gets the whole set.  With pin == 0 every
 * thread gets the whole set. */
void affinity_apply(const cpu_set_t *set, int threads, int pin);

#endif
