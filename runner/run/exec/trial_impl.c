/* trial_impl.c - see trial_impl.h. */
#include "run/exec/trial_impl.h"

#include "experiment/lua/lua_engine.h"
#include "experiment/registry/plugin.h"

#include <stdio.h>

const rn_workload_impl *trial_impl(const experiment *e, const resolved_trial *r,
                                   const rn_backend *b, const workload_desc *desc, int *failed,
                                   char *why, size_t len)
{
    *failed = 0;
    const rn_workload_impl *impl = NULL;
    if (r->plugin) {
        int st = plugin_workload(r->t.workload, e->dir, &impl, why, len);
        *failed = st == PLUGIN_FAIL;
        return st == PLUGIN_OK ? impl : NULL; /* plugin_workload checked its functions */
    }
    impl = r->lua ? lua_workload_impl() : desc ? b->workload(desc->name) : NULL;
    if (!impl || !impl->prepare || !impl->run || !impl->release) {
        snprintf(why, len, "workload %s does not run on %s", desc ? desc->name : r->t.workload,
                 b->name);
        return NULL;
    }
    return impl;
}
