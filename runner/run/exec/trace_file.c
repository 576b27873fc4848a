/* trace_file.c - see trace_file.h.  Events are built and escaped by json-c
 * and appended one per line; timestamps are microseconds since the file
 * was opened (the trace-event format's unit). */
#include "run/exec/trace_file.h"

#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct track {
    int pid, tid;
    char **open; /* names of the open spans, innermost last */
    int nopen, cap;
    double last; /* the latest timestamp written (us) */
} track;

struct trace_file {
    FILE *f;
    double origin; /* CLOCK_MONOTONIC seconds at open */
    int first;     /* no event written yet */
    int failed;    /* errno of the first failed write, or 0 */
    int self;      /* the runner's pid */
    track *tracks;
    int ntracks;
};

static void emit(trace_file *T, json_object *o)
{
    const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
    if (fprintf(T->f, "%s%s", T->first ? "[\n" : ",\n", s) < 0 && !T->failed)
        T->failed = errno ? errno : EIO;
    T->first = 0;
    json_object_put(o);
}

static void name_track(trace_file *T, int pid, const char *name)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "name", json_object_new_string("process_name"));
    json_object_object_add(o, "ph", json_object_new_string("M"));
    json_object_object_add(o, "pid", json_object_new_int(pid));
    json_object_object_add(o, "tid", json_object_new_int(pid));
    json_object *a = json_object_new_object();
    json_object_object_add(a, "name", json_object_new_string(name));
    json_object_object_add(o, "args", a);
    emit(T, o);
}

/* The track of (pid, tid); named on first sight unless `given` names it. */
static track *track_of(trace_file *T, int pid, int tid, const char *given)
{
    for (int i = 0; i < T->ntracks; i++)
        if (T->tracks[i].pid == pid && T->tracks[i].tid == tid)
            return &T->tracks[i];
    XGROW(T->tracks, T->ntracks);
    track *k = &T->tracks[T->ntracks++];
    *k = (track){.pid = pid, .tid = tid};
    char dflt[64];
    snprintf(dflt, sizeof dflt, pid == T->self ? "runner %d" : "worker %d", pid);
    name_track(T, pid, given ? given : dflt);
    return k;
}

static double us(const trace_file *T, double t)
{
    return (t - T->origin) * 1e6;
}

static void write_event(trace_file *T, track *k, char ph, const char *name, double ts, long idx,
                        double val, int calls)
{
    if (ts < k->last) /* a track's events are in time order */
        ts = k->last;
    k->last = ts;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "name", json_object_new_string(name));
    json_object_object_add(o, "cat", json_object_new_string("runner"));
    json_object_object_add(o, "ph", json_object_new_string(ph == 'B' ? "B" : "E"));
    /* to the nanosecond: a sample's span and its saved value agree */
    json_object_object_add(o, "ts", json_object_new_double(round(ts * 1e3) / 1e3));
    json_object_object_add(o, "pid", json_object_new_int(k->pid));
    json_object_object_add(o, "tid", json_object_new_int(k->tid));
    if (ph == 'B' && (idx >= 0 || isfinite(val) || calls > 0)) {
        json_object *a = json_object_new_object();
        if (idx >= 0)
            json_object_object_add(a, "n", json_object_new_int64(idx));
        if (isfinite(val))
            json_object_object_add(a, "seconds", json_object_new_double(val));
        if (calls > 0)
            json_object_object_add(a, "calls", json_object_new_int(calls));
        json_object_object_add(o, "args", a);
    }
    emit(T, o);
}

static void push(trace_file *T, track *k, const char *name, double ts, long idx, double val,
                 int calls)
{
    if (k->nopen == k->cap) {
        k->cap = k->cap ? k->cap * 2 : 8;
        k->open = xrealloc(k->open, (size_t)k->cap * sizeof *k->open);
    }
    k->open[k->nopen++] = xstrdup(name);
    write_event(T, k, 'B', name, ts, idx, val, calls);
}

static void pop(trace_file *T, track *k, double ts)
{
    if (k->nopen == 0)
        return; /* an end without its begin is dropped: spans stay nested */
    char *name = k->open[--k->nopen];
    write_event(T, k, 'E', name, ts, -1, NAN, 0);
    free(name);
}

trace_file *trace_file_open(const char *path, int nofollow, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0),
                  0666);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        snprintf(err, errlen, "cannot write the trace %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    trace_file *T = xcalloc(1, sizeof *T);
    T->f = f;
    T->origin = now_seconds();
    T->first = 1;
    T->self = (int)getpid();
    track_of(T, T->self, T->self, NULL);
    return T;
}

void trace_file_add(trace_file *T, const trace_rec *r, size_t n)
{
    for (size_t i = 0; T && i < n; i++) {
        char name[sizeof r->name + 1];
        memcpy(name, r[i].name, sizeof r->name);
        name[sizeof r->name] = '\0';
        if (r[i].ph == 'M') {
            track_of(T, r[i].pid, r[i].tid, name);
            continue;
        }
        track *k = track_of(T, r[i].pid, r[i].tid, NULL);
        if (r[i].ph == 'B')
            push(T, k, name, us(T, r[i].t), r[i].idx, r[i].val, r[i].calls);
        else
            pop(T, k, us(T, r[i].t));
    }
}

void trace_file_begin(trace_file *T, const char *name, long idx)
{
    if (T)
        push(T, track_of(T, T->self, T->self, NULL), name, us(T, now_seconds()), idx, NAN, 0);
}

void trace_file_end(trace_file *T)
{
    if (T)
        pop(T, track_of(T, T->self, T->self, NULL), us(T, now_seconds()));
}

void trace_file_settle(trace_file *T)
{
    if (!T)
        return;
    double now = us(T, now_seconds());
    for (int i = 0; i < T->ntracks; i++)
        while (T->tracks[i].pid != T->self && T->tracks[i].nopen > 0)
            pop(T, &T->tracks[i], now);
    fflush(T->f);
}

int trace_file_close(trace_file *T, char *err, size_t errlen)
{
    if (!T)
        return 0;
    trace_file_settle(T);
    track *self = track_of(T, T->self, T->self, NULL);
    while (self->nopen > 0)
        pop(T, self, us(T, now_seconds()));
    if (fputs(T->first ? "[]\n" : "\n]\n", T->f) < 0 && !T->failed)
        T->failed = errno ? errno : EIO;
    if (fclose(T->f) != 0 && !T->failed)
        T->failed = errno ? errno : EIO;
    int rc = 0;
    if (T->failed) {
        snprintf(err, errlen, "cannot write the trace: %s", strerror(T->failed));
        rc = -1;
    }
    for (int i = 0; i < T->ntracks; i++) {
        for (int j = 0; j < T->tracks[i].nopen; j++)
            free(T->tracks[i].open[j]);
        free(T->tracks[i].open);
    }
    free(T->tracks);
    free(T);
    return rc;
}
