/* size_meaning.h - what `size` counts on a chart's axis and in the findings
 * (doc/results.md#plots-and-reports): each workload says, a built-in one in the
 * registry ("iterations"), a Lua one with its table's `size_means`. */
#ifndef RUNNER_SIZE_MEANING_H
#define RUNNER_SIZE_MEANING_H
/* internal header of runner/results/report/: other folders may not include it */

/* The meaning of size for a run of the `n` workloads named (built-in names
 * or lua:PATH, PATH relative to `dir`, which may be NULL): one workload's
 * meaning as it is ("n of an n x n x n product"), several workloads' as
 * "matmul: n of ...; sumsq: iterations", or one meaning when they all
 * agree.  `command` and `plugin:` workloads, which cannot say, mean
 * `file_means`, the experiment file's `size_means` (NULL: none).  A
 * workload that declares none is "not stated".  NULL when no workload has
 * a size (noop, concurrent).  malloc'd. */
char *size_meaning(const char *const *workloads, int n, const char *dir, const char *file_means);

#endif
