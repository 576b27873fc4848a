/* expand.c - see expand.h: the sweep expanded into trials, first axis
 * outermost, less the excluded ones. */
#include "experiment/expand.h"

#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static int excluded_by(const experiment *e, long long t, const exclude_entry *x)
{
    int all = x->n > 0;
    for (int j = 0; j < x->n && all; j++)
        all = match_trial(e, t, &x->m[j]);
    return all;
}

/* The exclude entries indexed by axis element, so that the expansion costs
 * trials x (entries that may match) rather than trials x entries (issue 14:
 * 20,000 entries on a 1M sweep took minutes).  An entry is filed under the
 * elements its most selective match allows, on an axis whose every element
 * sets that match's column (so the element alone decides the match); entries
 * with no such match are tried on every trial. */
typedef struct excl_index {
    int *start[64]; /* per axis: start[a][k] .. start[a][k+1] into entry[a] */
    int *entry[64];
    int *always, nalways;
} excl_index;

static const value *elem_value(const axis_elem *el, int c)
{
    for (int i = 0; i < el->nkv; i++)
        if (el->kv[i].column == c)
            return &el->kv[i].v;
    return NULL;
}

static void excl_index_build(const experiment *e, excl_index *ix)
{
    memset(ix, 0, sizeof *ix);
    int na = e->naxes < 64 ? e->naxes : 64;
    int *key = xmalloc(((size_t)e->nexcl + 1) * sizeof *key);
    int **count = xcalloc((size_t)na + 1, sizeof *count);
    for (int a = 0; a < na; a++)
        count[a] = xcalloc((size_t)e->axes[a].nelems + 1, sizeof **count);
    ix->always = xmalloc(((size_t)e->nexcl + 1) * sizeof *ix->always);
    /* pass 1: choose each entry's axis; pass 2: file it */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < e->nexcl; i++) {
            const exclude_entry *x = &e->excl[i];
            if (x->n == 0)
                continue; /* matches nothing */
            int best = -1, bestj = -1;
            double bestfrac = 1.0;
            if (pass == 1) {
                best = key[i] >> 16;
                bestj = key[i] & 0xffff;
                if (key[i] < 0) {
                    ix->always[ix->nalways++] = i;
                    continue;
                }
            }
            for (int j = 0; j < x->n && j < 0xffff; j++) {
                if (pass == 1 && j != bestj)
                    continue;
                int c = x->m[j].column, a = e->cols[c].axis;
                if (a < 0 || a >= na)
                    continue;
                const axis *ax = &e->axes[a];
                int all_set = 1;
                for (int k = 0; k < ax->nelems && all_set; k++)
                    all_set = elem_value(&ax->elems[k], c) != NULL;
                if (!all_set)
                    continue;
                int cnt = 0;
                for (int k = 0; k < ax->nelems; k++) {
                    int m = match_value(*elem_value(&ax->elems[k], c), &x->m[j]);
                    cnt += m;
                    if (pass == 1 && m)
                        ix->entry[a][count[a][k]++] = i;
                }
                double frac = ax->nelems ? (double)cnt / ax->nelems : 1.0;
                if (pass == 0 && frac < bestfrac) {
                    bestfrac = frac;
                    best = a;
                    bestj = j;
                }
            }
            if (pass == 0) {
                key[i] = best < 0 ? -1 : (best << 16) | bestj;
                if (best >= 0) {
                    /* count the elements it is filed under */
                    const axis *ax = &e->axes[best];
                    int c = x->m[bestj].column;
                    for (int k = 0; k < ax->nelems; k++)
                        count[best][k] += match_value(*elem_value(&ax->elems[k], c), &x->m[bestj]);
                }
            }
        }
        if (pass == 0) {
            /* start[a][k] .. start[a][k+1]: the entries of element k; in
             * pass 2, count[a][k] is the cursor that fills them */
            for (int a = 0; a < na; a++) {
                int ne = e->axes[a].nelems;
                ix->start[a] = xmalloc(((size_t)ne + 1) * sizeof *ix->start[a]);
                ix->start[a][0] = 0;
                for (int k = 0; k < ne; k++) {
                    ix->start[a][k + 1] = ix->start[a][k] + count[a][k];
                    count[a][k] = ix->start[a][k];
                }
                ix->entry[a] = xmalloc(((size_t)ix->start[a][ne] + 1) * sizeof *ix->entry[a]);
            }
        }
    }
    for (int a = 0; a < na; a++)
        free(count[a]);
    free(count);
    free(key);
}

static void excl_index_free(const experiment *e, excl_index *ix)
{
    for (int a = 0; a < e->naxes && a < 64; a++) {
        free(ix->start[a]);
        free(ix->entry[a]);
    }
    free(ix->always);
}

static int excluded(const experiment *e, const excl_index *ix, long long t, const uint32_t *idx)
{
    for (int i = 0; i < ix->nalways; i++)
        if (excluded_by(e, t, &e->excl[ix->always[i]]))
            return 1;
    for (int a = 0; a < e->naxes && a < 64; a++) {
        if (!ix->start[a])
            continue;
        for (int p = ix->start[a][idx[a]]; p < ix->start[a][idx[a] + 1]; p++)
            if (excluded_by(e, t, &e->excl[ix->entry[a][p]]))
                return 1;
    }
    return 0;
}

void sweep_expand(experiment *e, diags *d)
{
    long double total = 1;
    for (int a = 0; a < e->naxes; a++)
        total *= e->axes[a].nelems;
    if (total > MAX_TRIALS) {
        diag_add(d, e->axes[0].line, e->axes[0].col,
                 "the sweep expands to %.0Lf trials; the limit is %lld: split the experiment",
                 total, MAX_TRIALS);
        return;
    }
    long long n = (long long)total;
    int na = e->naxes;
    e->choices = xmalloc((size_t)(n ? n : 1) * (size_t)(na ? na : 1) * sizeof *e->choices);
    e->ids = xmalloc((size_t)(n ? n : 1) * sizeof *e->ids);
    uint32_t *idx = xcalloc((size_t)na + 1, sizeof *idx);
    excl_index ix;
    excl_index_build(e, &ix);
    long long kept = 0;
    for (long long t = 0; t < n; t++) {
        memcpy(&e->choices[kept * na], idx, (size_t)na * sizeof *idx);
        e->ntrials = kept + 1; /* let trial_value see this row */
        if (!excluded(e, &ix, kept, idx)) {
            e->ids[kept] = kept;
            kept++;
        }
        for (int a = na - 1; a >= 0; a--) { /* odometer: last axis fastest */
            if (++idx[a] < (uint32_t)e->axes[a].nelems)
                break;
            idx[a] = 0;
        }
    }
    e->ntrials = kept;
    excl_index_free(e, &ix);
    free(idx);
}
