/* export.h - a run's trials with their samples as one JSON document or one
 * CSV table (`runner export`, doc/results.md#results).  Library code: it prints
 * nothing; the caller prints the text or the error. */
#ifndef RUNNER_EXPORT_H
#define RUNNER_EXPORT_H

#include <stddef.h>

/* The run folder `dir` (which holds trials.csv) exported as `format`
 * ("json" or "csv"): a malloc'd string, or NULL with the reason in err. */
char *export_run(const char *dir, const char *format, char *err, size_t errlen);

#endif
