/* trace.c - see trace.h. */
#include "run/exec/trace.h"

#include "base/util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define DEPTH 16
#define SLOTS 256

static int on;
static const rn_backend *marker;
static trace_rec *recs;
static size_t head, nrecs, cap; /* recs[head..nrecs) not taken yet */
static char open_names[DEPTH][sizeof ((trace_rec *)0)->name];
static int marked[DEPTH]; /* the range was marked too */
static int depth;
static int32_t self;

/* calls of other processes, gathered until a span of this process ends */
static struct {
    int pid;
    double t0, t1;
    int calls;
} slot[SLOTS];

static void add(char ph, int pid, const char *name, double t, long idx, double val, int calls)
{
    if (nrecs == cap && head > 0) {
        memmove(recs, recs + head, (nrecs - head) * sizeof *recs);
        nrecs -= head;
        head = 0;
    }
    if (nrecs == cap) {
        cap = cap ? cap * 2 : 1024;
        recs = xrealloc(recs, cap * sizeof *recs);
    }
    trace_rec *r = &recs[nrecs++];
    memset(r, 0, sizeof *r);
    r->t = t;
    r->val = val;
    r->pid = r->tid = pid;
    r->idx = (int32_t)idx;
    r->calls = calls;
    r->ph = ph;
    snprintf(r->name, sizeof r->name, "%s", name);
}

void trace_start(int want)
{
    on = want;
    marker = NULL;
    depth = 0;
    self = want ? (int32_t)getpid() : 0; /* only a timeline uses it: no syscall a trial */
    memset(slot, 0, sizeof slot);
}

void trace_marker(const rn_backend *b)
{
    marker = on && b && b->range ? b : NULL;
}

int trace_on(void)
{
    return on;
}

static void flush_calls(const char *name)
{
    for (int i = 0; i < SLOTS; i++)
        if (slot[i].calls) {
            add('B', slot[i].pid, name, slot[i].t0, -1, NAN, slot[i].calls);
            add('E', slot[i].pid, name, slot[i].t1, -1, NAN, 0);
            slot[i].calls = 0;
        }
}

void trace_begin(const char *name, long idx)
{
    if (!on)
        return;
    if (depth < DEPTH) {
        snprintf(open_names[depth], sizeof open_names[depth], "%s", name);
        marked[depth] = marker != NULL;
    }
    depth++;
    add('B', self, name, now_seconds(), idx, NAN, 0);
    if (marker && depth <= DEPTH) {
        char label[64]; /* "trial 12": a profiler's timeline names the trial */
        if (idx >= 0)
            snprintf(label, sizeof label, "%s %ld", name, idx);
        marker->range(idx >= 0 ? label : name, 1);
    }
}

void trace_end(void)
{
    if (!on || depth == 0)
        return;
    depth--;
    const char *name = depth < DEPTH ? open_names[depth] : "";
    if (depth < DEPTH && marked[depth] && marker)
        marker->range(name, 0);
    double t = now_seconds();
    flush_calls(name);
    add('E', self, name, t, -1, NAN, 0);
}

void trace_end_all(void)
{
    while (on && depth > 0)
        trace_end();
}

/* the phases of a sample, ending with it at t1, never before t0 */
static void phases_of(const rn_sample *s, double t0, double t1)
{
    const char *names[3] = {"h2d", "compute", "d2h"};
    double d[3] = {s->h2d, s->compute, s->d2h}, sum = 0;
    for (int k = 0; k < 3; k++)
        sum += isfinite(d[k]) && d[k] > 0 ? d[k] : 0;
    double t = t1 - sum < t0 ? t0 : t1 - sum;
    for (int k = 0; k < 3 && sum > 0; k++) {
        if (!(isfinite(d[k]) && d[k] > 0))
            continue;
        double e = t + d[k] > t1 ? t1 : t + d[k];
        add('B', self, names[k], t, -1, d[k], 0);
        add('E', self, names[k], e, -1, NAN, 0);
        t = e;
    }
}

void trace_span(const char *name, long idx, double t0, double t1, double per_call, int calls,
                const rn_sample *phases)
{
    if (!on)
        return;
    add('B', self, name, t0, idx, per_call, calls);
    if (phases)
        phases_of(phases, t0, t1);
    flush_calls(name);
    add('E', self, name, t1, -1, NAN, 0);
}

void trace_range(const char *name, int begin)
{
    if (on && marker)
        marker->range(name, begin);
}

void trace_track(int pid, const char *name)
{
    if (on)
        add('M', pid, name, now_seconds(), -1, NAN, 0);
}

void trace_span_on(int pid, const char *name, double t0, double t1)
{
    if (!on)
        return;
    add('B', pid, name, t0, -1, NAN, 0);
    add('E', pid, name, t1, -1, NAN, 0);
}

void trace_call_on(int k, int pid, double t0, double t1)
{
    if (!on || k < 0 || k >= SLOTS)
        return;
    if (!slot[k].calls) {
        slot[k].pid = pid;
        slot[k].t0 = t0;
    }
    slot[k].t1 = t1;
    slot[k].calls++;
}

size_t trace_take(trace_rec *out, size_t max)
{
    size_t n = nrecs - head < max ? nrecs - head : max;
    if (n)
        memcpy(out, recs + head, n * sizeof *out);
    head += n;
    if (head == nrecs)
        head = nrecs = 0;
    return n;
}
