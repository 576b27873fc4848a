/* test_compare_text.c - `runner compare`'s text and Markdown outputs are
 * read on a terminal: escape sequences and line breaks from a run folder
 * (labels, the host name, the start time) are replaced as the run summary
 * replaces them (doc/compare.md), one trial per line; CSV and JSON keep
 * the values exactly. */
#include "runproc.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* DIR/NAME: two trials, the first labelled with escape sequences and a newline */
static void hostile_run(const char *dir, const char *name)
{
    char d[4096];
    snprintf(d, sizeof d, "%s/%s", dir, name);
    cr_assert_eq(mkdir(d, 0755), 0);
    write_text(d, "trials.csv",
               "trial,label,status,reason,samples,median\n"
               "0,\"a\033[31mRED\033]0;title\007\nx\",ok,,5,\n"
               "1,plain,ok,,5,\n");
    strbuf s = {0};
    sb_puts(&s, "trial,sample,seconds,device_seconds\n");
    for (int t = 0; t < 2; t++)
        for (int j = 0; j < 5; j++)
            sb_printf(&s, "%d,%d,0.0010%d,\n", t, j, j + 1); /* tight: judged, exit 0 */
    write_text(d, "samples.csv", s.s);
    sb_free(&s);
    write_text(d, "meta.json",
               "{\"host\": {\"hostname\": \"h\\u001b[2Jx\"}, \"start\": \"s\\u009b1m\", "
               "\"finished\": true}");
}

static int has_control(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if ((*p < 0x20 && *p != '\n') || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
            return 1;
    return 0;
}

Test(compare_text, escape_sequences_from_labels_replaced)
{
    char *d = tmpdir();
    hostile_run(d, "old");
    hostile_run(d, "new");
    char o[4096], n[4096];
    snprintf(o, sizeof o, "%s/old", d);
    snprintf(n, sizeof n, "%s/new", d);
    const char *formats[] = {"text", "md"};
    for (int f = 0; f < 2; f++) {
        proc_out r;
        run((char *[]){"compare", o, n, "--format", (char *)formats[f], NULL}, &r);
        cr_expect_eq(r.status, 0, "%s: %s", formats[f], r.err);
        cr_expect_not(has_control(r.out), "%s output holds a control character:\n%s", formats[f],
                      r.out);
        cr_expect(strstr(r.out, "a?[31mRED?]0;title? x"), "%s:\n%s", formats[f], r.out);
        cr_expect(strstr(r.out, "host h?[2Jx, started s??1m"), "%s:\n%s", formats[f], r.out);
    }
    /* the label's newline does not start a line of its own */
    proc_out r;
    run((char *[]){"compare", o, n, NULL}, &r);
    int lines = 0;
    for (const char *p = r.out; *p; p++)
        lines += *p == '\n';
    cr_expect_eq(lines, 9, "%s", r.out);
    /* CSV keeps the value exactly */
    run((char *[]){"compare", o, n, "--format", "csv", NULL}, &r);
    cr_expect(strstr(r.out, "a\033[31mRED"), "%s", r.out);
    free(d);
}
