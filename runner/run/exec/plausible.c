/* plausible.c - see plausible.h. */
#include "run/exec/plausible.h"

#include "base/value.h"

#include <math.h>
#include <stdio.h>

/* x: NAN (not reported), or finite and >= 0 */
static int number_ok(double x)
{
    return isnan(x) || (isfinite(x) && x >= 0);
}

static const char *shown(double x, char *t, size_t len)
{
    format_number(t, len, x, 6);
    return t;
}

int plausible_work(const double counts[2], char *why, size_t len)
{
    static const char *const what[2] = {"flops", "bytes"};
    for (int i = 0; i < 2; i++)
        if (!number_ok(counts[i])) {
            char t[48];
            snprintf(why, len,
                     "the workload reported %s %s for one call: the work of a call is a finite "
                     "number >= 0 (a count that overflowed?)",
                     shown(counts[i], t, sizeof t), what[i]);
            return -1;
        }
    return 0;
}

int plausible_sample(const rn_sample *s, const double counts[2], char *why, size_t len)
{
    static const char *const names[4] = {"device time", "h2d time", "compute time", "d2h time"};
    const double v[4] = {s->device_seconds, s->h2d, s->compute, s->d2h};
    char t[48], u[48];
    for (int i = 0; i < 4; i++)
        if (!number_ok(v[i])) {
            snprintf(why, len,
                     "the workload reported a %s of %s s for a call: times are finite and >= 0",
                     names[i], shown(v[i], t, sizeof t));
            return -1;
        }
    static const char *const unit[2] = {"flop/s", "bytes/s"};
    for (int i = 0; i < 2; i++) {
        /* the fastest of the call's clocks makes the highest rate */
        double secs = s->seconds;
        if (isfinite(s->device_seconds) && s->device_seconds < secs)
            secs = s->device_seconds;
        if (!(counts[i] > 0) || !(secs > 0) || counts[i] / secs <= PLAUSIBLE_MAX_RATE)
            continue;
        snprintf(why, len,
                 "the workload reported %s %s a call, which in its %s s make %s %s: more than "
                 "any device does (a count that overflowed, or a time too short?)",
                 shown(counts[i], t, sizeof t), i ? "bytes" : "flops", shown(secs, u, sizeof u),
                 shown(counts[i] / secs, (char[48]){0}, 48), unit[i]);
        return -1;
    }
    return 0;
}
