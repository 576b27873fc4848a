/* test_export_formats.c - what `runner export` writes is valid for the tools
 * that read it (doc/results.md#exporting-a-run): JSON numbers only where
 * JSON's grammar has them, valid UTF-8, no NaN, whatever a run folder holds
 * (a property test over random run folders, each output checked by a
 * strict RFC 8259 validator); and the spreadsheet flavour of CSV, in which
 * no cell runs as a formula, while plain CSV keeps every cell exact. */
#include "base/util.h"
#include "results/rundir/export.h"
#include "runproc.h"
#include "strict_json.h"

#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void write_bytes(const char *dir, const char *name, const char *s, size_t n)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(s, 1, n, f), n);
    fclose(f);
}

static char *export_ok(const char *dir, const char *format)
{
    char err[4096] = "";
    char *out = export_run(dir, format, err, sizeof err);
    cr_assert_not_null(out, "%s", err);
    return out;
}

static void expect_strict(const char *out)
{
    size_t at;
    cr_assert(strict_json_valid(out, strlen(out), &at), "invalid JSON at byte %zu: ...%.40s...\n%s",
              at, out + (at > 20 ? at - 20 : 0), out);
}

/* trial 0's field k, as exported */
static json_object *field0(json_object *root, const char *k)
{
    json_object *trials, *t, *v;
    cr_assert(json_object_object_get_ex(root, "trials", &trials));
    t = json_object_array_get_idx(trials, 0);
    cr_assert(json_object_object_get_ex(t, k, &v), "no field '%s'", k);
    return v;
}

Test(export_formats, numbers_only_where_json_has_them)
{
    char *d = tmpdir();
    /* each column a text that strtod reads as a number and JSON does not */
    write_text(d, "trials.csv",
               "trial,x,status,a,b,c,d,e,f,g,h,i,j,k,l,m,n,o\n"
               "0,x,ok,007,08,-01,1.e5,1.,.5,+1,-0,1e999,nan,0x10,12,-3.5e-05,1E+2,9223372036854775808\n");
    write_text(d, "samples.csv", "trial,sample,seconds\n0,0,01.5\n0,1,2.5E-3\n");
    char *out = export_ok(d, "json");
    expect_strict(out);
    json_object *root = json_tokener_parse(out);
    cr_assert_not_null(root);
    const char *strings[] = {"a", "007", "b", "08", "c", "-01", "d", "1.e5", "e", "1.",
                             "f", ".5", "g", "+1", "i", "1e999", "j", "nan", "k", "0x10"};
    for (size_t i = 0; i < sizeof strings / sizeof *strings; i += 2) {
        json_object *v = field0(root, strings[i]);
        cr_expect(json_object_is_type(v, json_type_string), "%s: %s is not a string", strings[i],
                  json_object_to_json_string(v));
        cr_expect_str_eq(json_object_get_string(v), strings[i + 1]);
    }
    cr_expect(json_object_is_type(field0(root, "l"), json_type_int));
    cr_expect_eq(json_object_get_int64(field0(root, "l")), 12);
    cr_expect(json_object_is_type(field0(root, "m"), json_type_double));
    cr_expect(json_object_is_type(field0(root, "n"), json_type_double));
    cr_expect(strstr(out, "\"h\":-0,"), "%s", out);
    cr_expect(strstr(out, "\"m\":-3.5e-05,"), "the digits as written: %s", out);
    cr_expect(strstr(out, "\"o\":9223372036854775808"), "%s", out);
    /* samples too: 01.5 is no number */
    cr_expect(strstr(out, "\"seconds\":\"01.5\""), "%s", out);
    cr_expect(strstr(out, "\"seconds\":2.5E-3"), "%s", out);
    json_object_put(root);
    free(out);
    free(d);
}

Test(export_formats, text_is_valid_utf8_and_meta_has_no_nan)
{
    char *d = tmpdir();
    const char trials[] = "trial,x,status,label,na\xff" "me\n"
                          "0,x,ok,\"bad \xc3\x28 byte, \xed\xa0\x80 surrogate, tab\there\",x\n";
    write_bytes(d, "trials.csv", trials, sizeof trials - 1);
    const char meta[] = "{\"a\": NaN, \"b\": Infinity, \"c\": -Infinity, \"d\": \"\xff\", \"e\": [1.5, "
                        "NaN], \"f\": 1e999}";
    write_bytes(d, "meta.json", meta, sizeof meta - 1);
    char *out = export_ok(d, "json");
    expect_strict(out);
    cr_expect(strstr(out, "\"na\xef\xbf\xbdme\":\"x\""), "%s", out);
    cr_expect(strstr(out, "\"a\":null"), "%s", out);
    free(out);
    free(d);
}

/* Random run folders (cells from numbers, near-numbers, JSON's special
 * characters, random bytes; a random meta.json): every export parses. */
Test(export_formats, every_json_export_is_strict_json)
{
    static const char *const pool[] = {
        "0", "-0", "007", "1.", ".5", "1.e5", "1e5", "1E-5", "-1e+5", "+1", "1e", "1e+", "-",
        "nan", "NaN", "inf", "-inf", "Infinity", "1e999", "-1e999", "0x1p3", "9223372036854775807",
        "-9223372036854775808", "9223372036854775808", "1,5", "\"q\"", "a\\b", "/", "\x7f",
        "\x01", "\t", " 1", "1 ", "true", "null", "=1+1", "\xc3\xa9", "\xe2\x82", "\xf4\x90\x80\x80",
        "\xc0\xaf", "", "ok", "1.5e-05", "12"};
    const int npool = (int)(sizeof pool / sizeof *pool);
    unsigned seed = 12345;
    char *d = tmpdir();
    for (int iter = 0; iter < 300; iter++) {
        strbuf t = {0}, s = {0}, m = {0};
        int ncol = 1 + (int)(rand_r(&seed) % 6);
        sb_puts(&t, "trial,x,status");
        for (int c = 0; c < ncol; c++) {
            sb_putc(&t, ',');
            csv_field(&t, pool[rand_r(&seed) % npool]);
        }
        sb_putc(&t, '\n');
        int nrow = (int)(rand_r(&seed) % 4);
        sb_puts(&s, "trial,sample,seconds,device_seconds\n");
        for (int r = 0; r < nrow; r++) {
            sb_printf(&t, "%d,x,ok", r);
            for (int c = 0; c < ncol; c++) {
                sb_putc(&t, ',');
                if (rand_r(&seed) % 4 == 0) { /* random bytes */
                    char cell[8];
                    int n = 1 + (int)(rand_r(&seed) % 7);
                    for (int k = 0; k < n; k++)
                        cell[k] = (char)(1 + rand_r(&seed) % 255);
                    cell[n] = '\0';
                    csv_field(&t, cell);
                } else {
                    csv_field(&t, pool[rand_r(&seed) % npool]);
                }
            }
            sb_putc(&t, '\n');
            sb_printf(&s, "%d,0,", r);
            csv_field(&s, pool[rand_r(&seed) % npool]);
            sb_putc(&s, ',');
            csv_field(&s, pool[rand_r(&seed) % npool]);
            sb_putc(&s, '\n');
        }
        sb_printf(&m, "{\"k\": [%s, %s, \"%s\"], \"n\": {\"x\": %s}}",
                  rand_r(&seed) % 2 ? "NaN" : "1.5", rand_r(&seed) % 2 ? "-Infinity" : "2",
                  rand_r(&seed) % 2 ? "\xff\xfe" : "v", rand_r(&seed) % 2 ? "1e400" : "true");
        write_bytes(d, "trials.csv", t.s, t.len);
        write_bytes(d, "samples.csv", s.s, s.len);
        write_bytes(d, "meta.json", m.s, m.len);
        char err[4096] = "";
        char *out = export_run(d, "json", err, sizeof err);
        cr_assert_not_null(out, "iteration %d: %s", iter, err);
        {
            size_t at;
            cr_assert(strict_json_valid(out, strlen(out), &at),
                      "iteration %d: invalid JSON at byte %zu\ntrials.csv:\n%s\nout:\n%s", iter, at,
                      t.s, out);
            free(out);
        }
        sb_free(&t);
        sb_free(&s);
        sb_free(&m);
    }
    free(d);
}

Test(export_formats, spreadsheet_cells_never_run_as_formulas)
{
    char *d = dir_with("trials.csv",
                       "trial,x,status,=col,label,n,neg,text\n"
                       "0,x,ok,=1+1,\"=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",-1.5,-x,a=b\n"
                       "1,x,ok,+1,@SUM(A1),-0,\"\tx\",-\n");
    write_text(d, "samples.csv", "trial,sample,seconds\n0,0,1.5\n1,0,-2\n");
    char *sheet = export_ok(d, "spreadsheet");
    cr_expect_str_eq(sheet,
                     "trial,x,status,'=col,label,n,neg,text,sample,seconds,device_seconds\n"
                     "0,x,ok,'=1+1,\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",-1.5,'-x,a=b,0,1.5,\n"
                     "1,x,ok,'+1,'@SUM(A1),-0,'\tx,'-,0,-2,\n");
    /* plain CSV keeps the cells exactly */
    char *csv = export_ok(d, "csv");
    cr_expect_str_eq(csv, "trial,x,status,=col,label,n,neg,text,sample,seconds,device_seconds\n"
                          "0,x,ok,=1+1,\"=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",-1.5,-x,a=b,0,1.5,\n"
                          "1,x,ok,+1,@SUM(A1),-0,\tx,-,0,-2,\n");
    free(sheet);
    free(csv);
    free(d);
}

Test(export_formats, spreadsheet_from_the_command_line)
{
    char *d = dir_with("trials.csv", "trial,x,status,label\n0,x,ok,=2*3\n");
    proc_out r;
    run((char *[]){"export", d, "--format", "spreadsheet", NULL}, &r);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_str_eq(r.out, "trial,x,status,label,sample,seconds,device_seconds\n0,x,ok,'=2*3,,,\n");
    run((char *[]){"export", d, "--format", "excel", NULL}, &r);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "json or csv (or spreadsheet"), "%s", r.err);
    run((char *[]){"help", "export", NULL}, &r);
    cr_expect(strstr(r.out, "--format json|csv|spreadsheet"), "%s", r.out);
    free(d);
}
