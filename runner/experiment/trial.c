/* trial.c - see trial.h. */
#include "experiment/trial.h"

#include "experiment/keys.h"
#include "base/util.h"
#include "experiment/registry/plugin.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int host_cpus(void)
{
    static int cached; /* the affinity mask does not change under us */
    if (cached)
        return cached;
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0)
            return cached = n;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return cached = n > 0 ? (int)n : 1;
}

static value get(const experiment *e, long long t, const char *name)
{
    int c = experiment_column(e, name);
    return c >= 0 ? trial_value(e, t, c) : (value){0};
}

void trial_resolve(const experiment *e, long long t, resolved_trial *r)
{
    memset(r, 0, sizeof *r);
    value v = get(e, t, "workload");
    r->t.workload = v.text ? v.text : "";
    r->lua = !strncmp(r->t.workload, "lua:", 4);
    r->plugin = plugin_is_spec(r->t.workload);
    v = get(e, t, "device");
    if (v.text && !strncmp(v.text, "cuda", 4)) {
        r->t.device = RN_DEV_CUDA;
        r->t.device_index = v.text[4] == ':' ? atoi(v.text + 5) : 0;
    }
    v = get(e, t, "threads");
    r->t.threads = v.kind == VAL_INT ? (int)v.i : host_cpus();
    v = get(e, t, "io");
    r->t.io = !v.text || !strcmp(v.text, "with") ? RN_IO_WITH
              : !strcmp(v.text, "without")       ? RN_IO_WITHOUT
                                                 : RN_IO_OVERLAP;
    v = get(e, t, "dtype");
    r->t.dtype = !v.text || !strcmp(v.text, "f32") ? RN_F32
                 : !strcmp(v.text, "f64")          ? RN_F64
                 : !strcmp(v.text, "f16")          ? RN_F16
                                                   : RN_BF16;
    v = get(e, t, "size");
    r->t.size = v.kind == VAL_INT ? v.i : -1; /* unset: a Lua file's defaults.size */
    v = get(e, t, "seed");
    r->t.seed = v.kind == VAL_INT ? (uint64_t)v.i : 0;
    v = get(e, t, "cold_cache");
    r->t.cold_cache = v.kind == VAL_BOOL && v.i;
    v = get(e, t, "repeats");
    r->repeats = v.kind == VAL_INT ? (int)v.i : v.kind == VAL_STR ? 0 : 5;
    v = get(e, t, "batch");
    r->batch = v.kind == VAL_INT ? (int)v.i : 0;
    v = get(e, t, "warmups");
    r->warmups = v.kind == VAL_INT ? (int)v.i : 1;
    v = get(e, t, "timeout");
    r->timeout = value_is_num(&v) ? v.f : 0;
    v = get(e, t, "parallel");
    r->processes = v.text && !strcmp(v.text, "processes") ? r->t.threads : 0;
    v = get(e, t, "share");
    r->replicate = v.text && !strcmp(v.text, "replicate");
    v = get(e, t, "spawn");
    r->per_call = v.text && !strcmp(v.text, "per_call");
    v = get(e, t, "warmup_curve");
    r->warmup_curve = v.kind == VAL_INT ? (int)v.i : 0;
    v = get(e, t, "energy");
    r->energy = v.kind == VAL_BOOL && v.i;
    r->warmup_time = e->warmup_time;
    r->warmup_tolerance = e->warmup_tolerance;
    r->sample_time = e->sample_time;

    r->params = xcalloc((size_t)e->ncols + 1, sizeof *r->params);
    for (int c = 0; c < e->ncols; c++) {
        if (e->cols[c].kind != COL_PARAM)
            continue;
        value p = trial_value(e, t, c);
        if (p.kind == VAL_NONE)
            continue;
        r->params[r->t.nparams++] = (rn_param){e->cols[c].name, p.text, p.f};
    }
    r->t.params = r->params;
}

void trial_release(resolved_trial *r)
{
    free(r->params);
    r->params = NULL;
}
