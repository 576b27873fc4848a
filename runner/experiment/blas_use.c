/* blas_use.c - see blas_use.h. */
#include "experiment/blas_use.h"

#include "base/util.h"
#include "experiment/registry/workloads.h"

#include <stdlib.h>
#include <string.h>

/* Does the workload `w` (a built-in name or lua:PATH) call the BLAS? */
static int workload_calls_blas(const experiment *e, const char *w)
{
    if (strncmp(w, "lua:", 4)) {
        const workload_desc *d = workload_find(w);
        return d && d->blas;
    }
    char *p = w[4] == '/' ? xstrdup(w + 4) : xasprintf("%s/%s", e->dir, w + 4);
    char *text = read_file(p, NULL);
    int calls = !text || strstr(text, "matmul") != NULL; /* unreadable: it may */
    free(text);
    free(p);
    return calls;
}

/* concurrent's members, as the trial table writes them:
 * "workload=matmul device=cpu size=8 ; workload=... device=cuda:0 ..." */
static int members_call_blas(const experiment *e, const char *members)
{
    char *s = xstrdup(members);
    int calls = 0;
    for (char *save, *m = strtok_r(s, ";", &save); m && !calls; m = strtok_r(NULL, ";", &save)) {
        char w[512] = "", dev[64] = "cpu";
        for (char *save2, *f = strtok_r(m, " ", &save2); f; f = strtok_r(NULL, " ", &save2)) {
            if (!strncmp(f, "workload=", 9))
                snprintf(w, sizeof w, "%s", f + 9);
            else if (!strncmp(f, "device=", 7))
                snprintf(dev, sizeof dev, "%s", f + 7);
        }
        calls = !strcmp(dev, "cpu") && *w && workload_calls_blas(e, w);
    }
    free(s);
    return calls;
}

int experiment_calls_blas(const experiment *e)
{
    int wc = experiment_column(e, "workload"), dc = experiment_column(e, "device"),
        mc = experiment_column(e, "members");
    for (long long t = 0; t < e->ntrials && wc >= 0; t++) {
        value w = trial_value(e, t, wc), dev = dc >= 0 ? trial_value(e, t, dc) : (value){0};
        if (!w.text)
            continue;
        if (!strcmp(w.text, "concurrent")) {
            value m = mc >= 0 ? trial_value(e, t, mc) : (value){0};
            if (m.text && members_call_blas(e, m.text))
                return 1;
        } else if ((!dev.text || !strcmp(dev.text, "cpu")) && workload_calls_blas(e, w.text)) {
            return 1;
        }
    }
    return 0;
}
