/* test_history_report.c - the History section of a run's report
 * (doc/history.md#the-history-section-of-a-report): a run 2x slower than its
 * history says so, with each trial's verdict and detectable change. */
#include "base/util.h"
#include "runproc.h"

#include <criterion/criterion.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The fields of one CSV line (quotes honoured), malloc'd each; their count. */
static int fields(const char *line, char **out, int max)
{
    int n = 0;
    const char *p = line;
    while (n < max) {
        strbuf f = {0};
        sb_puts(&f, "");
        if (*p == '"') {
            for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
                if (*p == '"')
                    p++;
                sb_putc(&f, *p);
            }
            if (*p == '"')
                p++;
        } else
            for (; *p && *p != ','; p++)
                sb_putc(&f, *p);
        out[n++] = sb_take(&f);
        if (*p != ',')
            break;
        p++;
    }
    return n;
}

/* RUN/trials.csv with the time columns times f, the noise cells empty
 * and the intervals +-1 % of the median, into DIR/trials.csv. */
static void scaled_trials(const char *run, const char *dir, double f)
{
    char *path = xasprintf("%s/trials.csv", run), *text = read_file(path, NULL);
    cr_assert_not_null(text);
    strbuf out = {0};
    char *hdr[128];
    int nh = 0, imed = -1, ilo = -1, ihi = -1, inoise = -1;
    int first = 1;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *c[128];
        int n = fields(line, c, 128);
        if (first) {
            nh = n;
            for (int i = 0; i < n; i++) {
                hdr[i] = c[i];
                imed = !strcmp(c[i], "median") ? i : imed;
                ilo = !strcmp(c[i], "median_ci_low") ? i : ilo;
                ihi = !strcmp(c[i], "median_ci_high") ? i : ihi;
                inoise = !strcmp(c[i], "noise") ? i : inoise;
            }
            sb_printf(&out, "%s\n", line);
            first = 0;
            continue;
        }
        double m = strtod(c[imed], NULL) * f;
        for (int i = 0; i < n; i++) {
            if (i == imed || i == ilo || i == ihi)
                sb_printf(&out, "%.9g", i == imed ? m : i == ilo ? m * 0.99 : m * 1.01);
            else if (strcmp(hdr[i], "min") && strcmp(hdr[i], "max") && strcmp(hdr[i], "mean") &&
                     i != inoise)
                sb_printf(&out, "\"%s\"", c[i]);
            else if (i != inoise)
                sb_printf(&out, "%.9g", strtod(c[i], NULL) * f);
            sb_puts(&out, i + 1 < n ? "," : "\n");
            free(c[i]);
        }
    }
    for (int i = 0; i < nh; i++)
        free(hdr[i]);
    write_text(dir, "trials.csv", out.s);
    sb_free(&out);
    free(text);
    free(path);
}

Test(history_report, a_run_2x_slower_than_its_history_says_so, .timeout = 120)
{
    char *d = dir_with("s.yaml", "name: s\nworkload: command\ncommand: [sleep, \"0.02\"]\n"
                                 "protocol: per_call\nrepeats: 3\nsweep:\n  size: [1, 2]\n");
    char *y = xasprintf("%s/s.yaml", d), *res = xasprintf("%s/res", d);
    proc_out r;
    run((char *[]){"--quiet", "--no-plots", "--no-history", "--output", res, y, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *first = xasprintf("%s/s/latest", res), *hist = xasprintf("%s/hist", d);
    mkdir(hist, 0755);
    /* six earlier runs at half the time: the same machine, earlier starts */
    for (int k = 0; k < 6; k++) {
        char *dir = xasprintf("%s/old%d", hist, k), *mp = xasprintf("%s/meta.json", first);
        mkdir(dir, 0755);
        json_object *meta = json_object_from_file(mp);
        cr_assert_not_null(meta);
        char start[32];
        snprintf(start, sizeof start, "2020-01-0%dT00:00:00Z", k + 1);
        json_object_object_add(meta, "start", json_object_new_string(start));
        write_text(dir, "meta.json", json_object_to_json_string(meta));
        json_object_put(meta);
        scaled_trials(first, dir, 0.5 * (1 + 0.005 * (k % 3 - 1)));
        write_text(dir, "samples.csv", "trial,sample,seconds,device_seconds\n");
        free(dir), free(mp);
    }
    char *db = xasprintf("%s/history.sqlite", res);
    run((char *[]){"history", "import", hist, "--history", db, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run((char *[]){"--quiet", "--no-plots", "--output", res, y, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *hp = xasprintf("%s/s/latest/history.md", res), *h = read_file(hp, NULL);
    cr_assert_not_null(h, "%s", hp);
    cr_assert(strstr(h, "**This run is slower than its history**: 2 of 2 trials"), "%s", h);
    cr_assert(strstr(h, "| trial | earlier runs | history | this run | ratio | detectable | verdict |"),
              "%s", h);
    cr_assert(strstr(h, "| size=1 | 6 |"), "%s", h);
    cr_assert(strstr(h, "±"), "%s", h);
    char *rp = xasprintf("%s/s/latest/report.md", res), *rep = read_file(rp, NULL);
    cr_assert(rep && strstr(rep, "This run is slower than its history"), "%s", rep);
    free(h), free(hp), free(rep), free(rp), free(db), free(first), free(hist), free(y), free(res);
}
