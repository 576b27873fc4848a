/* ceilings.c - see ceilings.h.  The JSON (json-c) is the representation:
 *   {"machine_id": ..., "fingerprint": ..., "probed_at": ...,
 *    "devices": {"cpu": {"info": {"name": ..., "isa": ...},
 *                        "ceilings": {"fp32": {"measured": 118.2,
 *                                              "nominal": 236.4,
 *                                              "unit": "GFLOP/s"}, ...}}, ...}}
 * (doc/ceilings.md#the-ceilings). */
#include "experiment/machine/ceilings.h"

#include "base/util.h"

#include <json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

struct ceilings {
    json_object *root;
};

static json_object *child(json_object *o, const char *key, int make)
{
    json_object *v = NULL;
    if (o && json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_object))
        return v;
    if (!make || !o)
        return NULL;
    v = json_object_new_object();
    json_object_object_add(o, key, v);
    return v;
}

static const char *str_of(json_object *o, const char *key)
{
    json_object *v;
    return o && json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
               ? json_object_get_string(v)
               : NULL;
}

static double num_of(json_object *o, const char *key)
{
    json_object *v;
    if (!o || !json_object_object_get_ex(o, key, &v))
        return NAN;
    if (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int))
        return json_object_get_double(v);
    return NAN;
}

ceilings *ceilings_parse(const char *json)
{
    json_object *root = json ? json_tokener_parse(json) : NULL;
    if (!root || !json_object_is_type(root, json_type_object) || !child(root, "devices", 0)) {
        json_object_put(root);
        return NULL;
    }
    ceilings *c = xcalloc(1, sizeof *c);
    c->root = root;
    return c;
}

ceilings *ceilings_new(const char *machine_id, const char *fingerprint)
{
    ceilings *c = xcalloc(1, sizeof *c);
    c->root = json_object_new_object();
    json_object_object_add(c->root, "machine_id", json_object_new_string(machine_id));
    json_object_object_add(c->root, "fingerprint", json_object_new_string(fingerprint));
    char t[64];
    time_t now = time(NULL);
    struct tm tm;
    strftime(t, sizeof t, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
    json_object_object_add(c->root, "probed_at", json_object_new_string(t));
    json_object_object_add(c->root, "devices", json_object_new_object());
    return c;
}

void ceilings_free(ceilings *c)
{
    if (!c)
        return;
    json_object_put(c->root);
    free(c);
}

char *ceilings_json(const ceilings *c)
{
    return xstrdup(json_object_to_json_string_ext(
        c->root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE));
}

static json_object *device(const ceilings *c, const char *dev, int make)
{
    return child(child(c->root, "devices", make), dev, make);
}

void ceilings_set_info(ceilings *c, const char *dev, const char *key, const char *value)
{
    json_object_object_add(child(device(c, dev, 1), "info", 1), key,
                           json_object_new_string(value ? value : ""));
}

const char *ceilings_info(const ceilings *c, const char *dev, const char *key)
{
    return str_of(child(device(c, dev, 0), "info", 0), key);
}

/* a figure rounded to 4 significant digits: a probe is not finer */
static json_object *figure(double x)
{
    if (!isfinite(x))
        return NULL;
    char t[32];
    snprintf(t, sizeof t, "%.4g", x);
    return json_object_new_double_s(atof(t), t);
}

void ceilings_set(ceilings *c, const char *dev, const char *what, double measured,
                  double nominal, const char *unit)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "measured", figure(measured));
    json_object_object_add(o, "nominal", figure(nominal));
    json_object_object_add(o, "unit", json_object_new_string(unit));
    json_object_object_add(child(device(c, dev, 1), "ceilings", 1), what, o);
}

void ceilings_scale_compute(ceilings *c, const char *dev, double factor)
{
    if (!c || !(factor > 0) || !isfinite(factor))
        return;
    json_object *all = child(device(c, dev, 0), "ceilings", 0), *o;
    if (!all)
        return;
    json_object_object_foreach(all, what, v)
    {
        const char *unit = str_of(v, "unit");
        if (!unit || strcmp(unit, "GFLOP/s") || !json_object_object_get_ex(v, "measured", &o) ||
            !(json_object_is_type(o, json_type_double) || json_object_is_type(o, json_type_int)))
            continue;
        (void)what;
        json_object_object_add(v, "measured", figure(json_object_get_double(o) * factor));
    }
}

/* A ceiling no device has: below a thousandth of a GFLOP/s or GB/s (a slow
 * core does a thousand times more) or above 10^8 (100 PFLOP/s or PB/s,
 * 25 times the fastest device's peak); a cache or a run folder is input, and
 * a peak of 1e-300 made a pct_of_peak of 4e+303 (doc/ceilings.md#the-ceilings). */
#define CEILING_LEAST 1e-3
#define CEILING_MOST 1e8

static int plausible(double x)
{
    return x >= CEILING_LEAST && x <= CEILING_MOST;
}

double ceilings_get(const ceilings *c, const char *dev, const char *what, double *nominal)
{
    json_object *o = c ? child(child(device(c, dev, 0), "ceilings", 0), what, 0) : NULL;
    if (nominal) {
        *nominal = num_of(o, "nominal");
        if (!plausible(*nominal))
            *nominal = NAN;
    }
    double m = num_of(o, "measured");
    return plausible(m) ? m : NAN;
}

int ceilings_check(const ceilings *c, char *why, size_t len)
{
    json_object *devs = child(c->root, "devices", 0);
    if (!devs)
        return 0;
    json_object_object_foreach(devs, dev, d) {
        /* a device its backend measures nothing on has no "ceilings" */
        json_object *cs = child(d, "ceilings", 0);
        if (!cs)
            continue;
        json_object_object_foreach(cs, what, o) {
            static const char *const fields[] = {"measured", "nominal"};
            for (int i = 0; i < 2; i++) {
                json_object *v;
                if (!json_object_is_type(o, json_type_object) ||
                    !json_object_object_get_ex(o, fields[i], &v) ||
                    json_object_is_type(v, json_type_null))
                    continue;
                double x = num_of(o, fields[i]);
                if (plausible(x))
                    continue;
                const char *unit = str_of(o, "unit");
                snprintf(why, len, "%s %s %s %s %s: no device has that (from %g to %g)", dev,
                         what, fields[i], json_object_to_json_string(v), unit ? unit : "",
                         CEILING_LEAST, CEILING_MOST);
                return -1;
            }
        }
    }
    return 0;
}

const char *ceilings_machine_id(const ceilings *c)
{
    return str_of(c->root, "machine_id");
}

const char *ceilings_fingerprint(const ceilings *c)
{
    return str_of(c->root, "fingerprint");
}

int ceilings_devices(const ceilings *c, const char **names, int max)
{
    int n = 0;
    json_object_object_foreach(child(c->root, "devices", 0), k, v) {
        (void)v;
        if (n < max)
            names[n++] = k;
    }
    return n;
}

int ceilings_whats(const ceilings *c, const char *dev, const char **whats, int max)
{
    int n = 0;
    json_object *cs = child(device(c, dev, 0), "ceilings", 0);
    if (!cs)
        return 0;
    json_object_object_foreach(cs, k, v) {
        (void)v;
        if (n < max)
            whats[n++] = k;
    }
    return n;
}

/* A CPU trial of fewer threads than the cores: the one-core figure times
 * its threads (the all-core figure is the most it may reach). */
static double cpu_scaled(const ceilings *c, const char *all, const char *one, int threads)
{
    double a = ceilings_get(c, "cpu", all, NULL), o = ceilings_get(c, "cpu", one, NULL);
    if (threads > 0 && isfinite(o) && o * threads < a)
        return o * threads;
    return a;
}

double ceilings_compute(const ceilings *c, const char *dev, int threads, const char *dtype,
                        const char *math, char *what, size_t len)
{
    const char *w = !strcmp(dtype, "f64") ? "fp64" : !strcmp(dtype, "f16") ? "fp16"
                  : !strcmp(dtype, "bf16") ? "bf16"
                  : math && !strcmp(math, "tf32") ? "tf32"
                                                   : "fp32";
    snprintf(what, len, "%s", w);
    if (!strcmp(dev, "cpu")) {
        char one[32];
        snprintf(one, sizeof one, "%s_1core", w);
        return cpu_scaled(c, w, one, threads);
    }
    return ceilings_get(c, dev, w, NULL);
}

double ceilings_bandwidth(const ceilings *c, const char *dev, int threads)
{
    if (!strcmp(dev, "cpu"))
        return cpu_scaled(c, "bandwidth", "bandwidth_1core", threads);
    return ceilings_get(c, dev, "bandwidth", NULL);
}

/* The roofline's rule: a call of intensity flops/bytes below the device's
 * ridge (compute peak / bandwidth) is bound by the bandwidth, above it by
 * the compute peak of its dtype; a workload that declares only one of them
 * is bound by that one (doc/ceilings.md#percent-of-peak). */
double ceilings_pct(const ceilings *c, const char *dev, int threads, const char *dtype,
                    const char *math, double flops, double bytes, double gflops, double gbps,
                    char *bound, size_t len, double *peak)
{
    bound[0] = '\0';
    *peak = NAN;
    if (!c)
        return NAN;
    char what[16];
    double pc = ceilings_compute(c, dev, threads, dtype, math, what, sizeof what);
    double pb = ceilings_bandwidth(c, dev, threads);
    int has_f = flops > 0 && isfinite(gflops), has_b = bytes > 0 && isfinite(gbps);
    int by_bw;
    if (has_f && has_b && isfinite(pc) && isfinite(pb))
        by_bw = flops / bytes < pc / pb;
    else if (has_f && isfinite(pc))
        by_bw = 0;
    else if (has_b && isfinite(pb))
        by_bw = 1;
    else
        return NAN;
    snprintf(bound, len, "%s", by_bw ? "bandwidth" : what);
    *peak = by_bw ? pb : pc;
    return 100 * (by_bw ? gbps / pb : gflops / pc);
}
