/* progress.h - the progress line on stderr (only on a terminal) and the
 * closing summary. */
#ifndef RUNNER_PROGRESS_H
#define RUNNER_PROGRESS_H
/* internal header of runner/cli/: other folders may not include it */

typedef struct progress {
    int enabled; /* stderr is a terminal and not --quiet */
    long long total, done;
    double start;
    double busy;      /* seconds spent in trials that ran */
    long long nbusy;  /* trials that ran (not skipped) */
} progress;

void progress_init(progress *p, long long total, int quiet);
void progress_trial(progress *p, long long i, const char *desc);
void progress_finished(progress *p, double seconds, int ran);
void progress_clear(progress *p);

#endif
