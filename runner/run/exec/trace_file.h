/* trace_file.h - a run's timeline as a Chrome / Perfetto trace-event file
 * (doc/results.md#a-timeline-of-a-run): a JSON array of begin ('B') and end ('E')
 * events, one track per process (the runner, each worker, each process of
 * `parallel: processes`), each track's events in time order and every span
 * closed.  Written as the run goes, so a run killed on the way leaves a
 * file that the viewers still open (an unterminated array is allowed). */
#ifndef RUNNER_TRACE_FILE_H
#define RUNNER_TRACE_FILE_H
/* public header of runner/run/exec/ */

#include "run/exec/trace.h"

#include <stddef.h>

typedef struct trace_file trace_file;

/* Creates `path` (with `nofollow`, a symbolic link there is refused);
 * NULL with the reason in err. */
trace_file *trace_file_open(const char *path, int nofollow, char *err, size_t errlen);
/* Records from a worker (trace.h). */
void trace_file_add(trace_file *T, const trace_rec *r, size_t n);
/* A span of the runner's own track (hooks, a trial as the supervisor sees
 * it), begun now / ended now. */
void trace_file_begin(trace_file *T, const char *name, long idx);
void trace_file_end(trace_file *T);
/* Ends, now, the spans left open on every other track (a worker that
 * crashed or was killed at its timeout), so that each span is closed. */
void trace_file_settle(trace_file *T);
/* Ends the runner's open spans, closes the array and the file; 0, or -1
 * with the reason (a failed write) in err.  T may be NULL. */
int trace_file_close(trace_file *T, char *err, size_t errlen);

#endif
