/* history_format.c - see history_format.h (doc/history.md#runner-history). */
#include "results/history/history_format.h"

#include "base/csv.h"
#include "results/history/history_query.h"
#include "results/report/report_text.h"

#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void history_short_rev(const history_point *p, char *out, size_t n)
{
    if (!p->revision)
        snprintf(out, n, "?");
    else
        snprintf(out, n, "%.10s%s", p->revision, p->dirty == 1 ? "+dirty" : "");
}

static void pct(strbuf *b, double x)
{
    sb_printf(b, "%+.1f %%", 100 * x);
}

void history_describe_change(const history_series *s, const changepoint *c, strbuf *out)
{
    char before[48], after[48];
    history_short_rev(&s->pts[c->at - 1 >= 0 ? c->at - 1 : 0], before, sizeof before);
    history_short_rev(&s->pts[c->at], after, sizeof after);
    sb_printf(out, "change before run %s: %s -> %s, ", s->pts[c->at].run_id, before, after);
    pct(out, c->step);
    sb_puts(out, " [");
    pct(out, c->step_lo);
    sb_puts(out, ", ");
    pct(out, c->step_hi);
    sb_puts(out, "]");
    sb_puts(out, c->step > 0 ? " slower" : " faster");
}

/* The i-th part ("name=value") of key k: its start and length; 0 when none. */
static int key_part(const char *key, int i, const char **p, size_t *len)
{
    const char *s = key;
    for (; i > 0 && s; i--) {
        s = strstr(s, ", ");
        s = s ? s + 2 : NULL;
    }
    if (!s || !*s)
        return 0;
    const char *e = strstr(s, ", ");
    *p = s;
    *len = e ? (size_t)(e - s) : strlen(s);
    return 1;
}

char *history_key_varying(const char *key, const char *const *keys, int n)
{
    strbuf b = {0};
    const char *p;
    size_t len;
    for (int part = 0; key_part(key, part, &p, &len); part++) {
        int varies = 0;
        for (int j = 0; j < n && !varies; j++) {
            const char *q;
            size_t ql;
            varies = !key_part(keys[j], part, &q, &ql) || ql != len || memcmp(p, q, len);
        }
        if (varies)
            sb_printf(&b, "%s%.*s", b.len ? ", " : "", (int)len, p);
    }
    return b.len ? sb_take(&b) : xstrdup(key);
}

int history_key_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        const char *ea = strchr(a, '='), *eb = strchr(b, '=');
        if (!ea || !eb)
            break;
        char *na, *nb;
        double x = strtod(ea + 1, &na), y = strtod(eb + 1, &nb);
        int numa = na != ea + 1 && (!*na || *na == ','), numb = nb != eb + 1 && (!*nb || *nb == ',');
        if (numa && numb && x != y)
            return (x > y) - (x < y);
        const char *fa = strstr(a, ", "), *fb = strstr(b, ", ");
        size_t la = fa ? (size_t)(fa - a) : strlen(a), lb = fb ? (size_t)(fb - b) : strlen(b);
        int c = strncmp(a, b, la < lb ? la : lb);
        if (!(numa && numb) && (c || la != lb))
            return c ? c : (la > lb) - (la < lb);
        if (!fa || !fb)
            return (fa != NULL) - (fb != NULL);
        a = fa + 2, b = fb + 2;
    }
    return strcmp(a, b);
}

/* The change point that starts at point i, or NULL. */
static const changepoint *change_at(const history_series *s, int i)
{
    for (int k = 0; k < s->ncps; k++)
        if (s->cps[k].at == i)
            return &s->cps[k];
    return NULL;
}

static const char *flags(const history_point *p)
{
    return p->busy ? "busy" : p->throttled ? "throttled" : "";
}

static void secs(char *out, size_t n, double v)
{
    if (isfinite(v))
        fmt_seconds(out, n, v);
    else
        snprintf(out, n, "-");
}

/* A header line per experiment and machine, when it changes. */
static int new_group(const history_set *h, int i)
{
    return i == 0 || strcmp(h->s[i].experiment, h->s[i - 1].experiment) ||
           strcmp(h->s[i].machine, h->s[i - 1].machine);
}

static void text_or_md(sqlite3 *db, const history_set *h, int md, strbuf *b)
{
    sb_printf(b, "%s%d series of %d runs\n\n", md ? "" : "history: ", h->n, h->nruns);
    for (int i = 0; i < h->n; i++) {
        const history_series *s = &h->s[i];
        if (new_group(h, i)) {
            char *m = db ? history_machine_summary(db, s->machine) : NULL;
            sb_printf(b, "%s%s on machine %s%s%s%s\n\n", md ? "## " : "== ", s->experiment,
                      s->machine, m ? " (" : "", m ? m : "", m ? ")" : "");
            free(m);
        }
        if (md) { /* a key's value is the user's text: Markdown-safe */
            sb_puts(b, "### ");
            report_md(b, s->key);
            sb_puts(b, "\n\n");
        } else
            sb_printf(b, "%s\n", s->key);
        if (md)
            sb_puts(b, "| run | revision | median | 95 % CI | status | note |\n"
                       "| --- | --- | ---: | --- | --- | --- |\n");
        else
            sb_printf(b, "  %-20s %-16s %12s  %-25s %-8s %s\n", "run", "revision", "median",
                      "95 % CI", "status", "note");
        for (int k = 0; k < s->npts; k++) {
            const history_point *p = &s->pts[k];
            char rev[48], med[32], lo[32], hi[32], ci[80];
            history_short_rev(p, rev, sizeof rev);
            secs(med, sizeof med, p->median);
            secs(lo, sizeof lo, p->ci_low);
            secs(hi, sizeof hi, p->ci_high);
            snprintf(ci, sizeof ci, isfinite(p->ci_low) ? "[%s, %s]" : "", lo, hi);
            const changepoint *c = change_at(s, k);
            strbuf note = {0};
            sb_puts(&note, flags(p));
            if (c) {
                sb_puts(&note, note.len ? "; change: " : "change: ");
                pct(&note, c->step);
            }
            if (md)
                sb_printf(b, "| %s | %s | %s | %s | %s | %s |\n", p->run_id, rev, med, ci,
                          p->status, note.s ? note.s : "");
            else
                sb_printf(b, "  %-20s %-16s %12s  %-25s %-8s %s\n", p->run_id, rev, med, ci,
                          p->status, note.s ? note.s : "");
            sb_free(&note);
        }
        if (md)
            sb_puts(b, "\n");
        for (int k = 0; k < s->ncps; k++) {
            sb_puts(b, md ? "- " : "  ");
            history_describe_change(s, &s->cps[k], b);
            sb_puts(b, "\n");
        }
        if (!s->ncps)
            sb_puts(b, md ? "No change point.\n" : "  no change point\n");
        sb_puts(b, "\n");
    }
}

static void csv(const history_set *h, strbuf *b)
{
    sb_puts(b, "experiment,machine,key,run,revision,dirty,started,status,median,median_ci_low,"
               "median_ci_high,busy,throttled,change,change_low,change_high\n");
    for (int i = 0; i < h->n; i++) {
        const history_series *s = &h->s[i];
        for (int k = 0; k < s->npts; k++) {
            const history_point *p = &s->pts[k];
            const char *cells[] = {s->experiment, s->machine, s->key, p->run_id,
                                   p->revision ? p->revision : "", p->dirty < 0 ? "" : p->dirty ? "1" : "0",
                                   p->started, p->status};
            for (size_t c = 0; c < sizeof cells / sizeof *cells; c++) {
                csv_field(b, cells[c] ? cells[c] : "");
                sb_putc(b, ',');
            }
            const changepoint *c = change_at(s, k);
            double v[] = {p->median, p->ci_low, p->ci_high};
            for (int j = 0; j < 3; j++)
                isfinite(v[j]) ? sb_printf(b, "%.9g,", v[j]) : sb_puts(b, ",");
            sb_printf(b, "%d,%d,", p->busy, p->throttled);
            if (c)
                sb_printf(b, "%.4g,%.4g,%.4g\n", c->step, c->step_lo, c->step_hi);
            else
                sb_puts(b, ",,\n");
        }
    }
}

/* a number with the digits the CSV has (%.9g), not 17 */
static json_object *jnum(double v)
{
    char t[32];
    snprintf(t, sizeof t, "%.9g", v);
    return isfinite(v) ? json_object_new_double_s(v, t) : NULL;
}

static json_object *jstr(const char *s)
{
    return s ? json_object_new_string(s) : NULL;
}

static void json(const history_set *h, strbuf *b)
{
    json_object *root = json_object_new_object(), *arr = json_object_new_array();
    json_object_object_add(root, "runs", json_object_new_int(h->nruns));
    for (int i = 0; i < h->n; i++) {
        const history_series *s = &h->s[i];
        json_object *o = json_object_new_object(), *pts = json_object_new_array(),
                    *cps = json_object_new_array();
        json_object_object_add(o, "experiment", jstr(s->experiment));
        json_object_object_add(o, "machine", jstr(s->machine));
        json_object_object_add(o, "key", jstr(s->key));
        json_object_object_add(o, "workload", jstr(s->workload));
        json_object_object_add(o, "device", jstr(s->device));
        for (int k = 0; k < s->npts; k++) {
            const history_point *p = &s->pts[k];
            json_object *q = json_object_new_object();
            json_object_object_add(q, "run", jstr(p->run_id));
            json_object_object_add(q, "revision", jstr(p->revision));
            json_object_object_add(q, "dirty", p->dirty < 0 ? NULL : json_object_new_boolean(p->dirty));
            json_object_object_add(q, "started", jstr(p->started));
            json_object_object_add(q, "status", jstr(p->status));
            json_object_object_add(q, "median", jnum(p->median));
            json_object_object_add(q, "median_ci_low", jnum(p->ci_low));
            json_object_object_add(q, "median_ci_high", jnum(p->ci_high));
            json_object_object_add(q, "busy", json_object_new_boolean(p->busy));
            json_object_object_add(q, "throttled", json_object_new_boolean(p->throttled));
            json_object_array_add(pts, q);
        }
        for (int k = 0; k < s->ncps; k++) {
            const changepoint *c = &s->cps[k];
            json_object *q = json_object_new_object();
            json_object_object_add(q, "run", jstr(s->pts[c->at].run_id));
            json_object_object_add(q, "revision_before", jstr(s->pts[c->at - 1].revision));
            json_object_object_add(q, "revision_after", jstr(s->pts[c->at].revision));
            json_object_object_add(q, "step", jnum(c->step));
            json_object_object_add(q, "step_low", jnum(c->step_lo));
            json_object_object_add(q, "step_high", jnum(c->step_hi));
            json_object_array_add(cps, q);
        }
        json_object_object_add(o, "points", pts);
        json_object_object_add(o, "change_points", cps);
        json_object_array_add(arr, o);
    }
    json_object_object_add(root, "series", arr);
    sb_puts(b, json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
                                                         JSON_C_TO_STRING_NOSLASHESCAPE));
    sb_puts(b, "\n");
    json_object_put(root);
}

void history_format(sqlite3 *db, const history_set *h, const char *format, strbuf *out)
{
    if (!strcmp(format, "csv"))
        csv(h, out);
    else if (!strcmp(format, "json"))
        json(h, out);
    else
        text_or_md(db, h, !strcmp(format, "md"), out);
}
