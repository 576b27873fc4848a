/* exit_status.h - the runner's exit statuses, for the commands and the
 * option parser that ends them (opts.h). */
#ifndef RUNNER_EXIT_STATUS_H
#define RUNNER_EXIT_STATUS_H
/* internal header of runner/cli/: other folders may not include it */

/* Exit statuses (README.md#exit-status); EXIT_INCONCLUSIVE: runner compare
 * with trials it could not judge (busy, throttled) and none slower
 * (doc/compare.md#exit-status). */
enum {
    EXIT_OK = 0,
    EXIT_TRIALS_FAILED = 1,
    EXIT_INVALID = 2,
    EXIT_INCONCLUSIVE = 3,
    EXIT_INTERRUPTED = 130
};

#endif
