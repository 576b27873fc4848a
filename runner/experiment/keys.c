/* keys.c - scalar conversion and the run-key table. */
#include "experiment/keys.h"

#include "base/affinity.h"

#include "base/util.h"
#include "experiment/registry/plugin.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int is_int_text(const char *s)
{
    if (*s == '-' || *s == '+')
        s++;
    if (!isdigit((unsigned char)*s))
        return 0;
    while (isdigit((unsigned char)*s))
        s++;
    return *s == '\0';
}

static int is_float_text(const char *s, double *out)
{
    if (!strcmp(s, ".inf") || !strcmp(s, "+.inf") || !strcmp(s, "-.inf") || !strcmp(s, ".nan") ||
        !strcmp(s, ".Inf") || !strcmp(s, ".NaN"))
        return -1; /* YAML's infinities and NaN are never meaningful here */
    const char *p = s;
    if (*p == '-' || *p == '+')
        p++;
    if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
        return 0;
    char *end;
    errno = 0;
    double f = strtod(s, &end);
    if (*end || end == s)
        return 0;
    if (errno == ERANGE || !isfinite(f))
        return -1;
    *out = f;
    return 1;
}

int scalar_value(const yaml_node_t *n, value *out, const char *what, diags *d)
{
    *out = (value){0};
    if (!yml_is_scalar(n)) {
        diag_add(d, yml_line(n), yml_col(n), "%s must be a single value, not %s", what,
                 yml_kind(n));
        return -1;
    }
    const char *s = yml_text(n);
    if (strlen(s) != n->data.scalar.length) {
        diag_add(d, yml_line(n), yml_col(n), "%s contains a NUL byte", what);
        return -1;
    }
    if (!yml_is_plain(n)) {
        *out = value_str(s);
        return 0;
    }
    if (yml_is_null(n)) {
        diag_add(d, yml_line(n), yml_col(n), "%s is empty; give it a value", what);
        return -1;
    }
    if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE")) {
        *out = value_bool(1);
        return 0;
    }
    if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE")) {
        *out = value_bool(0);
        return 0;
    }
    if (is_int_text(s)) {
        errno = 0;
        long long i = strtoll(s, NULL, 10);
        if (errno == ERANGE) {
            diag_add(d, yml_line(n), yml_col(n), "%s: integer %s is out of range", what, s);
            return -1;
        }
        *out = value_int(i);
        return 0;
    }
    double f;
    int fl = is_float_text(s, &f);
    if (fl < 0) {
        diag_add(d, yml_line(n), yml_col(n), "%s: number %s is out of range", what, s);
        return -1;
    }
    if (fl > 0) {
        *out = value_float(f);
        return 0;
    }
    *out = value_str(s);
    return 0;
}

/* An integer in [lo, hi]; integral floats such as 1e6 are accepted. */
static int want_int(value *v, long long lo, long long hi, const char *key, int line, int col,
                    diags *d)
{
    if (v->kind == VAL_FLOAT && v->f == floor(v->f) && fabs(v->f) < 9.2e18) {
        value i = value_int((long long)v->f);
        value_free(v);
        *v = i;
    }
    if (v->kind != VAL_INT) {
        diag_add(d, line, col, "'%s' must be an integer, not '%s'", key, v->text);
        return -1;
    }
    if (v->i < lo || v->i > hi) {
        if (hi >= (1LL << 62) && v->i < lo)
            diag_add(d, line, col, "'%s' must be at least %lld, not %lld", key, lo, v->i);
        else if (hi == (1LL << 62))
            diag_add(d, line, col, "'%s' must be between %lld and 2^62 (%lld), not %lld", key, lo,
                     hi, v->i);
        else
            diag_add(d, line, col, "'%s' must be between %lld and %lld, not %lld", key, lo, hi,
                     v->i);
        return -1;
    }
    return 0;
}

static int want_bool(value *v, const char *key, int line, int col, diags *d)
{
    if (v->kind != VAL_BOOL) {
        diag_add(d, line, col, "'%s' must be true or false, not '%s'", key, v->text);
        return -1;
    }
    return 0;
}

/* An integer from lo to hi, or the one word that stands for a choice the
 * runner makes (threads: all, repeats and batch: auto). */
static int want_int_or(value *v, const char *word, long long lo, long long hi, const char *key,
                       int line, int col, diags *d)
{
    if (v->kind == VAL_STR && !strcmp(v->text, word))
        return 0;
    if (v->kind == VAL_STR) {
        diag_add(d, line, col, "'%s' must be an integer >= %lld or '%s', not '%s'", key, lo, word,
                 v->text);
        return -1;
    }
    return want_int(v, lo, hi, key, line, col, d);
}

static int want_choice(value *v, const char *choices, const char *key, int line, int col,
                       diags *d)
{
    if (v->kind != VAL_NONE && v->text) {
        size_t n = strlen(v->text);
        for (const char *s = choices; *s;) {
            const char *e = strchr(s, '|');
            size_t len = e ? (size_t)(e - s) : strlen(s);
            if (len == n && !strncmp(s, v->text, n))
                return 0;
            s += len + (e ? 1 : 0);
        }
    }
    strbuf b = {0};
    for (const char *c = choices; *c; c++) {
        if (*c == '|')
            sb_puts(&b, c[1] && !strchr(c + 1, '|') ? " or " : ", ");
        else
            sb_putc(&b, *c);
    }
    diag_add(d, line, col, "'%s' must be %s, not '%s'", key, b.s, v->text ? v->text : "");
    sb_free(&b);
    return -1;
}

static int check_workload(value *v, int line, int col, diags *d)
{
    if (v->kind != VAL_STR) {
        diag_add(d, line, col, "'workload' must be a name, not '%s'", v->text);
        return -1;
    }
    if (!strncmp(v->text, "lua:", 4)) {
        if (!v->text[4]) {
            diag_add(d, line, col, "'workload: lua:' needs a file, e.g. lua:intensive.lua");
            return -1;
        }
        return 0;
    }
    if (plugin_is_spec(v->text)) { /* doc/own-code-plugins.md#a-plugin */
        char why[1024];
        if (plugin_spec_parse(v->text, NULL, 0, NULL, 0, why, sizeof why) == 0)
            return 0;
        diag_add(d, line, col, "%s", why);
        return -1;
    }
    if (workload_find(v->text) || !strcmp(v->text, "command")) /* doc/own-code.md */
        return 0;
    const char *names[32];
    int k = 0;
    for (const workload_desc *w; k < 31 && (w = workload_at(k)); k++)
        names[k] = w->name;
    names[k] = NULL;
    const char *s = closest_word(v->text, names);
    if (s)
        diag_add(d, line, col, "unknown workload '%s'; did you mean '%s'?", v->text, s);
    else
        diag_add(d, line, col,
                 "unknown workload '%s' (see 'runner list workloads', or use lua:FILE or "
                 "plugin:LIB.so:NAME)",
                 v->text);
    return -1;
}

static int check_device(value *v, int line, int col, diags *d)
{
    const char *s = v->text ? v->text : "";
    if (v->kind == VAL_STR && (!strcmp(s, "cpu") || !strcmp(s, "cuda")))
        return 0;
    if (v->kind == VAL_STR && !strncmp(s, "cuda:", 5) && is_int_text(s + 5) && s[5] != '-' &&
        s[5] != '+' && strlen(s + 5) <= 3 && atoi(s + 5) < 64)
        return 0;
    diag_add(d, line, col, "'device' must be cpu, cuda or cuda:N (N from 0 to 63), not '%s'", s);
    return -1;
}

static int check_threads(value *v, int line, int col, diags *d)
{
    return want_int_or(v, "all", 1, 4096, "threads", line, col, d);
}

static int check_io(value *v, int line, int col, diags *d)
{
    return want_choice(v, "with|without|overlap", "io", line, col, d);
}

static int check_dtype(value *v, int line, int col, diags *d)
{
    return want_choice(v, "f32|f64|f16|bf16", "dtype", line, col, d);
}

static int check_size(value *v, int line, int col, diags *d)
{
    return want_int(v, 0, 1LL << 62, "size", line, col, d);
}

static int check_repeats(value *v, int line, int col, diags *d)
{
    return want_int_or(v, "auto", 1, 1000000000, "repeats", line, col, d);
}

static int check_workers(value *v, int line, int col, diags *d)
{
    return want_int_or(v, "auto", 1, RUN_WORKERS_MOST, "workers", line, col, d);
}

static int check_batch(value *v, int line, int col, diags *d)
{
    return want_int_or(v, "auto", 1, 1 << 30, "batch", line, col, d);
}

static int check_affinity(value *v, int line, int col, diags *d)
{
    /* a single CPU reads as an integer */
    if (v->kind == VAL_INT && v->i >= 0)
        return 0;
    if (v->kind != VAL_STR || !affinity_syntax_ok(v->text)) {
        diag_add(d, line, col,
                 "'affinity' must be none, compact or a CPU list such as 0,2-3, not '%s'", v->text);
        return -1;
    }
    return 0;
}

static int check_warmups(value *v, int line, int col, diags *d)
{
    return want_int(v, 0, 1000000, "warmups", line, col, d);
}

double parse_duration(const char *s)
{
    if (!*s)
        return -1;
    double total = 0;
    const char *p = s;
    while (*p) {
        char *end;
        errno = 0;
        double x = strtod(p, &end);
        if (end == p || errno || !isfinite(x) || x < 0)
            return -1;
        p = end;
        double unit;
        if (!strncmp(p, "ms", 2)) {
            unit = 1e-3;
            p += 2;
        } else if (*p == 's') {
            unit = 1;
            p++;
        } else if (*p == 'm') {
            unit = 60;
            p++;
        } else if (*p == 'h') {
            unit = 3600;
            p++;
        } else if (*p == '\0' && p == end && total == 0 && end != s) {
            unit = 1; /* a plain number: seconds */
        } else {
            return -1;
        }
        total += x * unit;
    }
    return total;
}

static int check_timeout(value *v, int line, int col, diags *d)
{
    double secs = -1;
    if (value_is_num(v))
        secs = v->f;
    else if (v->kind == VAL_STR)
        secs = parse_duration(v->text);
    if (!(secs > 0) || secs > 30 * 86400.0) {
        diag_add(d, line, col,
                 "'timeout' must be a duration such as 90s, 5m, 1h or a number of seconds "
                 "(more than 0, at most 30 days), not '%s'",
                 v->text);
        return -1;
    }
    value_free(v);
    *v = secs == floor(secs) ? value_int((long long)secs) : value_float(secs);
    return 0;
}

static int check_bool(value *v, int line, int col, diags *d)
{
    return want_bool(v, "cold_cache", line, col, d);
}

/* doc/timing.md#processes-and-threads */
static int check_parallel(value *v, int line, int col, diags *d)
{
    return want_choice(v, "threads|processes", "parallel", line, col, d);
}

static int check_share(value *v, int line, int col, diags *d)
{
    return want_choice(v, "split|replicate", "share", line, col, d);
}

static int check_spawn(value *v, int line, int col, diags *d)
{
    return want_choice(v, "once|per_call", "spawn", line, col, d);
}

/* doc/timing.md#the-warmup-curve */
static int check_warmup_curve(value *v, int line, int col, diags *d)
{
    return want_int(v, 0, 1000, "warmup_curve", line, col, d);
}

/* doc/timing.md#how-a-trial-is-timed: interleaved trials are measured together,
 * round by round, after the sequential ones */
static int check_order(value *v, int line, int col, diags *d)
{
    return want_choice(v, "sequential|interleaved", "order", line, col, d);
}

/* doc/ceilings.md#energy-per-call */
static int check_energy(value *v, int line, int col, diags *d)
{
    return want_bool(v, "energy", line, col, d);
}

static int check_seed(value *v, int line, int col, diags *d)
{
    return want_int(v, 0, 9223372036854775807LL, "seed", line, col, d);
}

const runkey runkeys[] = {
    [RK_WORKLOAD] = {"workload", check_workload, NULL, "built-in name or lua:PATH"},
    [RK_DEVICE] = {"device", check_device, "cpu", "cpu, cuda or cuda:N"},
    [RK_THREADS] = {"threads", check_threads, "all", "CPU threads, or all"},
    [RK_IO] = {"io", check_io, "with", "with, without or overlap (CUDA only)"},
    [RK_DTYPE] = {"dtype", check_dtype, "f32", "f32, f64, f16 or bf16"},
    [RK_SIZE] = {"size", check_size, NULL, "problem size (the workload's own default)"},
    [RK_REPEATS] = {"repeats", check_repeats, "5", "timed samples per trial"},
    [RK_WARMUPS] = {"warmups", check_warmups, "1", "untimed runs before the samples"},
    [RK_TIMEOUT] = {"timeout", check_timeout, NULL, "per-trial time limit"},
    [RK_SEED] = {"seed", check_seed, "0", "seed of every random input"},
    [RK_COLD_CACHE] = {"cold_cache", check_bool, "false",
                       "flush the caches (CPU LLC, GPU L2) before each sample"},
    [RK_BATCH] = {"batch", check_batch, "auto", "calls per timed sample (auto: tiny calls batched)"},
    [RK_AFFINITY] = {"affinity", check_affinity, "none",
                     "CPUs of the worker: none, compact, or a list (0,2-3)"},
    [RK_PARALLEL] = {"parallel", check_parallel, "threads",
                     "threads: threads of one process; processes: that many processes", 1},
    [RK_SHARE] = {"share", check_share, "split",
                  "parallel: processes: each runs its part (split) or the whole (replicate)", 1},
    [RK_SPAWN] = {"spawn", check_spawn, "once",
                  "parallel: processes: started once a trial, or for every call (per_call)", 1},
    [RK_WARMUP_CURVE] = {"warmup_curve", check_warmup_curve, "0",
                         "time each of the first K calls of a fresh worker", 1},
    [RK_ORDER] = {"order", check_order, "sequential",
                  "sequential, or interleaved: one sample per round with the other "
                  "interleaved trials", 1},
    [RK_ENERGY] = {"energy", check_energy, "false",
                   "after the samples, the joules of one call from the device's energy counter", 1},
    [RK_WORKERS] = {"workers", check_workers, "auto",
                    "worker processes a trial's samples are taken in, one block each (auto: "
                    "repeats / 3, at most 6)", 1},
};
const int nrunkeys = (int)(sizeof runkeys / sizeof runkeys[0]);

int param_check(const param_spec *p, value *v, int line, int col, diags *d)
{
    switch (p->type) {
    case PT_INT: {
        if (want_int(v, (long long)p->min, (long long)p->max, p->name, line, col, d))
            return -1;
        const char *rule = workload_param_rule(p, v->i);
        if (rule) {
            diag_add(d, line, col, "'%s' must be %s, not %lld", p->name, rule, v->i);
            return -1;
        }
        return 0;
    }
    case PT_FLOAT:
        if (!value_is_num(v)) {
            diag_add(d, line, col, "'%s' must be a number, not '%s'", p->name, v->text);
            return -1;
        }
        if (v->f < p->min || v->f > p->max) {
            diag_add(d, line, col, "'%s' must be between %g and %g, not %s", p->name, p->min,
                     p->max, v->text);
            return -1;
        }
        return 0;
    case PT_BOOL:
        if (v->kind != VAL_BOOL) {
            diag_add(d, line, col, "'%s' must be true or false, not '%s'", p->name, v->text);
            return -1;
        }
        return 0;
    case PT_ENUM:
        return want_choice(v, p->choices, p->name, line, col, d);
    case PT_STR:
        if (v->kind != VAL_STR) {
            value s = value_str(v->text);
            value_free(v);
            *v = s;
        }
        return 0;
    }
    return 0;
}

const char *const runkey_names[] = {"workload", "device",  "threads", "io",
                                    "dtype",    "size",    "repeats", "warmups",
                                    "timeout",  "seed",    "cold_cache", "batch",
                                    "affinity", "parallel", "share", "spawn", "warmup_curve",
                                    "order", "energy", NULL};

int runkey_index(const char *name)
{
    for (int i = 0; i < nrunkeys; i++)
        if (!strcmp(runkeys[i].name, name))
            return i;
    return -1;
}
