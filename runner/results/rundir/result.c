/* result.c - see result.h. */
#include "results/rundir/result.h"

#include "base/util.h"

#include <stdlib.h>
#include <string.h>

const char *const status_names[ST_COUNT] = {"ok", "failed", "timeout", "skipped", "interrupted"};

void trial_result_add_extra(trial_result *r, const char *key, const char *val)
{
    for (int i = 0; i < r->nextra; i++)
        if (!strcmp(r->extra_keys[i], key)) {
            free(r->extra_vals[i]);
            r->extra_vals[i] = xstrdup(val);
            return;
        }
    XGROW(r->extra_keys, r->nextra);
    XGROW(r->extra_vals, r->nextra);
    r->extra_keys[r->nextra] = xstrdup(key);
    r->extra_vals[r->nextra++] = xstrdup(val);
}

void trial_result_free(trial_result *r)
{
    for (int i = 0; i < r->nextra; i++) {
        free(r->extra_keys[i]);
        free(r->extra_vals[i]);
    }
    FREE_ALL(r->extra_keys, r->extra_vals, r->reason, r->samples);
    memset(r, 0, sizeof *r);
}
