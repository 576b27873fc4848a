/* test_compare_gate.c - a regression gate never passes when it could not
 * judge (issue 34, item 5): `runner compare` exits 3 when a trial is busy
 * or throttled and none is slower, and an effect beyond what the busy or
 * throttled machine could explain (results/report/compare_trial.h) is judged
 * slower or faster anyway. */
#include "base/csv.h"
#include "base/util.h"
#include "runproc.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One trial of a hand-made run: its median, and the load columns. */
typedef struct spec {
    const char *size;
    double seconds;
    const char *noise, *other_cpu, *steal, *mhz, *max_mhz;
    const char *threads; /* NULL: 1 */
} spec;

/* DIR/NAME: a run folder with the trials of s, 20 samples each, on a host
 * of `cores` online CPUs (0: a meta.json that does not say). */
static char *make_run(const char *dir, const char *name, const spec *s, int n, int cores)
{
    char *d = xasprintf("%s/%s", dir, name);
    cr_assert_eq(make_dirs(d), 0);
    strbuf t = {0};
    sb_puts(&t, "trial,size,threads,status,reason,samples,median,other_cpu,steal,cpu_mhz,"
                "cpu_max_mhz,noise\n");
    for (int i = 0; i < n; i++) {
        sb_printf(&t, "%d,%s,%s,ok,,20,,%s,%s,%s,%s,", i, s[i].size,
                  s[i].threads ? s[i].threads : "1", s[i].other_cpu, s[i].steal, s[i].mhz,
                  s[i].max_mhz);
        csv_field(&t, s[i].noise);
        sb_putc(&t, '\n');
    }
    write_text(d, "trials.csv", t.s);
    t.len = 0;
    sb_puts(&t, "trial,sample,seconds,device_seconds\n");
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 20; j++)
            sb_printf(&t, "%d,%d,%.9g,\n", i, j, s[i].seconds * (1 + 0.001 * j));
    write_text(d, "samples.csv", t.s);
    t.len = 0;
    if (cores)
        sb_printf(&t, "{\"host\": {\"hostname\": \"vm\", \"online_cpus\": %d}}\n", cores);
    else
        sb_puts(&t, "{\"host\": {\"hostname\": \"vm\"}}\n");
    write_text(d, "meta.json", t.s);
    sb_free(&t);
    return d;
}

/* runner compare OLD NEW --format csv [extra]: its status, the verdicts in v. */
static int compare(const char *a, const char *b, const char *extra, csv_table *v)
{
    proc_out r;
    if (extra)
        run((char *[]){"compare", (char *)a, (char *)b, "--format", "csv", (char *)extra, NULL},
            &r);
    else
        run((char *[]){"compare", (char *)a, (char *)b, "--format", "csv", NULL}, &r);
    csv_parse(xstrdup(r.out), strlen(r.out), v);
    cr_assert_gt(v->nrows, 1, "%s%s", r.out, r.err);
    return r.status;
}

static const char *verdict(const csv_table *v, const char *size)
{
    int sc = csv_col(v, "size"), vc = csv_col(v, "verdict");
    for (int r = 1; r < v->nrows; r++)
        if (!strcmp(v->rows[r][sc], size))
            return v->rows[r][vc];
    cr_assert_fail("no row for size %s", size);
    return NULL;
}

#define BUSY1 "busy: other processes used 1.00 cores"
#define THROTTLED "throttled: fastest CPU at 2000 MHz, 67% of its 3000 MHz maximum"

/* The case: a run against a copy of itself made 3x slower, both on
 * a machine where another process used a core: inconclusive, exit 3, not
 * a pass. */
Test(compare_gate, busy_and_none_slower_exits_3, .timeout = 30)
{
    char *d = tmpdir();
    spec o[] = {{"1", 1e-3, BUSY1, "1.00", "0", "", "", NULL},
                {"2", 2e-3, BUSY1, "1.00", "0", "", "", "2"}};
    spec n[] = {{"1", 3e-3, BUSY1, "1.00", "0", "", "", NULL},
                {"2", 6e-3, BUSY1, "1.00", "0", "", "", "2"}};
    char *a = make_run(d, "a", o, 2, 2), *b = make_run(d, "b", n, 2, 2);
    csv_table v;
    cr_expect_eq(compare(a, b, NULL, &v), 3);
    cr_expect_str_eq(verdict(&v, "1"), "busy");
    cr_expect_str_eq(verdict(&v, "2"), "busy");
    csv_free(&v);
    /* --busy-ok judges them: slower, exit 1 */
    cr_expect_eq(compare(a, b, "--busy-ok", &v), 1);
    cr_expect_str_eq(verdict(&v, "1"), "slower");
    csv_free(&v);
    /* an A/A pair with a busy trial: still 3, never 0 */
    cr_expect_eq(compare(a, a, NULL, &v), 3);
    csv_free(&v);
    free(a);
    free(b);
    free(d);
}

/* Beyond what the machine could explain: on 4 cores, a 1-thread trial
 * with one core of other work could be at most 1 + 3 x 1 = 4x slower, 4.4x
 * with the 10 % noise floor; 10x is slower.  A faster NEW on a busy NEW
 * machine is faster: being busy only slows a side down. */
Test(compare_gate, an_effect_beyond_the_busy_machine_is_judged, .timeout = 30)
{
    char *d = tmpdir();
    spec o[] = {{"1", 1e-3, "", "0.05", "0", "", "", NULL},
                {"2", 1e-3, "", "0.05", "0", "", "", NULL},
                {"3", 1e-3, BUSY1, "1.00", "0", "", "", NULL},
                {"4", 1e-3, "", "0.05", "0", "", "", NULL}};
    spec n[] = {{"1", 10e-3, BUSY1, "1.00", "0", "", "", NULL},  /* 10x, NEW busy: slower */
                {"2", 4e-3, BUSY1, "1.00", "0", "", "", NULL},   /* 4x, NEW busy: busy */
                {"3", 0.4e-3, "", "0.05", "0", "", "", NULL},    /* 2.5x faster, OLD busy: busy */
                {"4", 0.5e-3, BUSY1, "1.00", "0", "", "", NULL}}; /* 2x faster, NEW busy: faster */
    char *a = make_run(d, "a", o, 4, 4), *b = make_run(d, "b", n, 4, 4);
    csv_table v;
    cr_expect_eq(compare(a, b, NULL, &v), 1);
    cr_expect_str_eq(verdict(&v, "1"), "slower");
    cr_expect_str_eq(verdict(&v, "2"), "busy");
    cr_expect_str_eq(verdict(&v, "3"), "busy");
    cr_expect_str_eq(verdict(&v, "4"), "faster");
    csv_free(&v);
    /* the other way round: a busy OLD explains a faster NEW up to 4.4x, a
     * busy NEW a slower one; a quiet NEW slower than a busy OLD is slower */
    cr_expect_eq(compare(b, a, NULL, &v), 1);
    cr_expect_str_eq(verdict(&v, "1"), "faster");
    cr_expect_str_eq(verdict(&v, "2"), "busy");
    cr_expect_str_eq(verdict(&v, "3"), "busy");
    cr_expect_str_eq(verdict(&v, "4"), "slower");
    csv_free(&v);
    free(a);
    free(b);
    free(d);
}

/* What cannot be bounded stays busy, however large: threads and other work
 * beyond the cores (a thread waiting for a core stalls the others: 60x seen
 * unchanged), no other_cpu cell, a host whose cores meta.json does not
 * give.  Stolen CPU time explains 1 / (1 - steal) (0.5: 2x, 2.2x with the
 * floor) when more; a throttled CPU its maximum over its clock (3000 / 2000
 * = 1.5x, 1.65x with the floor). */
Test(compare_gate, what_cannot_be_bounded_steal_and_throttling, .timeout = 30)
{
    char *d = tmpdir();
    spec o[] = {{"1", 1e-3, "", "", "", "", "", "2"},
                {"2", 1e-3, "", "", "", "", "", NULL},
                {"3", 1e-3, "", "", "", "", "", NULL},
                {"4", 1e-3, "", "", "", "", "", NULL},
                {"5", 1e-3, "", "", "", "", "", NULL},
                {"6", 1e-3, "", "", "", "", "", NULL}};
    spec n[] = {{"1", 50e-3, BUSY1, "1.00", "0", "", "", "2"},                   /* 2 + 1 > 2 */
                {"2", 50e-3, BUSY1, "", "0", "", "", NULL},                       /* unknown */
                {"3", 5e-3, "busy: 80% of the CPU time stolen", "0.1", "0.8", "", "", NULL},
                {"4", 1.6e-3, THROTTLED, "", "", "2000", "3000", NULL},            /* < 1.65 */
                {"5", 1.7e-3, THROTTLED, "", "", "2000", "3000", NULL},            /* > 1.65 */
                {"6", 6e-3, "busy: 80% of the CPU time stolen", "0.1", "0.8", "", "", NULL}};
    char *a = make_run(d, "a", o, 6, 2), *b = make_run(d, "b", n, 6, 2);
    csv_table v;
    cr_expect_eq(compare(a, b, NULL, &v), 1);
    cr_expect_str_eq(verdict(&v, "1"), "busy");
    cr_expect_str_eq(verdict(&v, "2"), "busy");
    cr_expect_str_eq(verdict(&v, "3"), "busy");   /* 5x < 1.1 / (1 - 0.8) = 5.5x */
    cr_expect_str_eq(verdict(&v, "4"), "throttled");
    cr_expect_str_eq(verdict(&v, "5"), "slower");
    cr_expect_str_eq(verdict(&v, "6"), "slower"); /* 6x > 5.5x */
    csv_free(&v);
    free(a);
    free(b);
    /* the same NEW on a host whose cores are unknown: busy */
    char *a2 = make_run(d, "a2", o, 6, 0), *b2 = make_run(d, "b2", n, 6, 0);
    cr_expect_eq(compare(a2, b2, NULL, &v), 1); /* 5 is throttled beyond its clock: slower */
    cr_expect_str_eq(verdict(&v, "1"), "busy");
    cr_expect_str_eq(verdict(&v, "3"), "busy");
    csv_free(&v);
    free(a2);
    free(b2);
    free(d);
}
