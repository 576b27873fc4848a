/* progress.c - see progress.h. */
#include "cli/progress.h"

#include "base/util.h"

#include <stdio.h>
#include <unistd.h>

void progress_init(progress *p, long long total, int quiet)
{
    p->enabled = !quiet && isatty(2);
    p->total = total;
    p->done = 0;
    p->start = now_seconds();
    p->busy = 0;
    p->nbusy = 0;
}

void progress_trial(progress *p, long long i, const char *desc)
{
    if (!p->enabled)
        return;
    char el[32], eta[32] = "?";
    double elapsed = now_seconds() - p->start;
    fmt_seconds(el, sizeof el, elapsed);
    if (p->done > 0) {
        /* ETA from the trials done so far (skipped ones cost nothing) */
        double per = elapsed / (double)p->done;
        fmt_seconds(eta, sizeof eta, per * (double)(p->total - p->done));
    }
    fprintf(stderr, "\r\033[K[%lld/%lld] %.80s  elapsed %s  ETA %s", i + 1, p->total, desc, el,
            eta);
    fflush(stderr);
}

void progress_finished(progress *p, double seconds, int ran)
{
    p->done++;
    if (ran) {
        p->busy += seconds;
        p->nbusy++;
    }
}

void progress_clear(progress *p)
{
    if (p->enabled) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
}
