/* trial_peak.c - see trial_peak.h. */
#include "run/trial_peak.h"

#include "experiment/trial.h"
#include "experiment/machine/machine.h"
#include "stats/stats.h"
#include "base/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the trial's value of a column as text, or dflt */
static const char *text_of(const experiment *e, long long t, const char *col, const char *dflt)
{
    int c = experiment_column(e, col);
    if (c < 0)
        return dflt;
    value v = trial_value(e, t, c);
    return v.kind != VAL_NONE && v.text ? v.text : dflt;
}

void trial_add_peak(trial_result *r, const ceilings *c, const experiment *e, long long t)
{
    if (!c || r->status != ST_OK || r->nsamples < 1 || !(r->flops > 0 || r->bytes > 0))
        return;
    double *x = xmalloc((size_t)r->nsamples * sizeof *x);
    for (int i = 0; i < r->nsamples; i++)
        x[i] = r->samples[i].seconds;
    double med = stats_median(x, r->nsamples);
    free(x);
    if (!(med > 0))
        return;
    const char *dev = text_of(e, t, "device", "cpu");
    char devname[32];
    snprintf(devname, sizeof devname, "%s", !strcmp(dev, "cuda") ? "cuda:0" : dev);
    const char *th = text_of(e, t, "threads", "all");
    int threads = !strcmp(th, "all") ? host_cpus() : atoi(th);
    char bound[32];
    double peak;
    double pct = ceilings_pct(c, devname, threads, text_of(e, t, "dtype", "f32"),
                              text_of(e, t, "math", NULL), r->flops, r->bytes,
                              r->flops > 0 ? r->flops / med / 1e9 : NAN,
                              r->bytes > 0 ? r->bytes / med / 1e9 : NAN, bound, sizeof bound, &peak);
    if (!isfinite(pct))
        return;
    char v[32];
    format_number(v, sizeof v, pct, 4);
    trial_result_add_extra(r, "pct_of_peak", v);
    trial_result_add_extra(r, "peak_bound", bound);
}

ceilings *run_ceilings(meta *m, strbuf *notes)
{
    int probed;
    char err[1024] = "";
    ceilings *c = machine_ceilings(0, &probed, notes, err, sizeof err);
    char *json = c ? ceilings_json(c) : NULL;
    meta_set_ceilings(m, json, err);
    free(json);
    if (!c)
        notes_printf(notes, "runner: warning: %s; the charts draw no ceilings\n", err);
    return c;
}
