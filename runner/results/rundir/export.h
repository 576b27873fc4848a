/* export.h - a run's trials with their samples as one JSON document or one
 * CSV table (`runner export`, doc/results.md#exporting-a-run).  Library code: it prints
 * nothing; the caller prints the text or the error. */
#ifndef RUNNER_EXPORT_H
#define RUNNER_EXPORT_H
/* public header of runner/results/rundir/ */

#include <stddef.h>

/* The run folder `dir` (which holds trials.csv) exported as `format`
 * ("json", "csv", or "spreadsheet": CSV whose formula-like cells start with
 * a '): a malloc'd string, or NULL with the reason in err. */
char *export_run(const char *dir, const char *format, char *err, size_t errlen);
/* 1 when s is a number by JSON's grammar (RFC 8259 section 6). */
int export_is_json_number(const char *s);

#endif
