/* test_merge_verify.c - a run folder is untrusted input (issue 34, item 2):
 * `runner merge` checks each shard against the trials its number owns and
 * names the missing ones (exit 1, never complete), names a shard whose
 * files do not parse (exit 2), and `runner status` does not count the lines
 * of a file that is not a trials table as trials. */
#include "base/util.h"
#include "runproc.h"

#include <criterion/criterion.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Two shards of a 5-trial experiment run into DIR/run: shard 1 of 2 owns
 * trials 0, 2, 4, shard 2 trials 1, 3. */
static char *two_shards(void)
{
    char *d = tmpdir();
    for (int k = 1; k <= 2; k++) {
        char sh[8];
        snprintf(sh, sizeof sh, "%d/2", k);
        proc_out r;
        run_yaml_in(
            d, "name: m\nworkload: noop\nrepeats: 2\nwarmups: 0\nsweep:\n  size: [1, 2, 3, 4, 5]\n",
            (const char *const[]){"--shard", sh, NULL}, &r);
        cr_assert_eq(r.status, 0, "%s", r.err);
    }
    return d;
}

static void merge(const char *d, proc_out *r)
{
    char rd[4096];
    snprintf(rd, sizeof rd, "%s/run", d);
    run((char *[]){"merge", "--no-plots", rd, NULL}, r);
}

/* PATH's text (malloc'd; asserted). */
static char *text_of(const char *path)
{
    char *text = read_file(path, NULL);
    cr_assert_not_null(text, "cannot read %s", path);
    return text;
}

static char *shard_file(const char *d, int k, const char *name)
{
    return xasprintf("%s/run/shard-%d-of-2/%s", d, k, name);
}

static int file_exists(const char *path)
{
    return access(path, F_OK) == 0;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* The merged meta.json says finished. */
static int merged_finished(const char *d)
{
    char *p = xasprintf("%s/run/meta.json", d);
    json_object *m = json_object_from_file(p), *f;
    free(p);
    cr_assert(m);
    int fin = json_object_object_get_ex(m, "finished", &f) && json_object_get_boolean(f);
    json_object_put(m);
    return fin;
}

Test(merge_verify, complete_shards_merge, .timeout = 60)
{
    char *d = two_shards();
    proc_out r;
    merge(d, &r);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.err, "merged 2 of 2 shards"), "%s", r.err);
    cr_expect(merged_finished(d));
    free(d);
}

/* A shard's trials.csv cut short: the trials it lost are named, exit 1,
 * the merge is not finished. */
Test(merge_verify, a_shard_cut_short_names_its_missing_trials, .timeout = 60)
{
    char *d = two_shards();
    char *tp = shard_file(d, 1, "trials.csv");
    char *text = text_of(tp);
    /* the header and trial 0's row only; trial 2's row torn mid-line */
    char *second = strchr(strchr(text, '\n') + 1, '\n') + 1;
    char *third = strchr(second, '\n') + 1;
    third[0] = '\0';
    second[(third - second) / 2] = '\0';
    put(tp, text);
    proc_out r;
    merge(d, &r);
    cr_expect_eq(r.status, 1, "%s", r.err);
    cr_expect(strstr(r.err, "shard-1-of-2: 2 of 3 trials missing: 2, 4"), "%s", r.err);
    cr_expect(strstr(r.err, "(incomplete"), "%s", r.err);
    cr_expect(!merged_finished(d));
    /* runner status: the merge is not complete, the torn line no trial */
    char rd[4096];
    snprintf(rd, sizeof rd, "%s/run", d);
    run((char *[]){"status", rd, NULL}, &r);
    cr_expect(strstr(r.out, "1/2          1/"), "%s", r.out);
    cr_expect(!strstr(r.out, "merged: complete"), "%s", r.out);
    /* a shard folder gone: all its trials are named */
    char *cmd = xasprintf("rm -rf '%s/run/shard-2-of-2'", d);
    cr_assert_eq(system(cmd), 0);
    free(cmd);
    merge(d, &r);
    cr_expect_eq(r.status, 1, "%s", r.err);
    cr_expect(strstr(r.err, "shard-2-of-2: 2 of 2 trials missing: 1, 3"), "%s", r.err);
    free(text);
    free(tp);
    free(d);
}

/* Files that do not parse: the shard and file named, exit 2, nothing
 * merged. */
Test(merge_verify, a_shard_whose_files_do_not_parse_is_named, .timeout = 60)
{
    char *d = two_shards();
    char *tp = shard_file(d, 2, "trials.csv");
    char *good = text_of(tp);
    proc_out r;
    /* not a trials table at all */
    put(tp, "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n");
    merge(d, &r);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, "shard-2-of-2/trials.csv: not a trials table"), "%s", r.err);
    char *mt = xasprintf("%s/run/trials.csv", d);
    cr_expect(!file_exists(mt), "merged despite a damaged shard");
    /* runner status does not count its lines as trials */
    char rd[4096];
    snprintf(rd, sizeof rd, "%s/run", d);
    run((char *[]){"status", rd, NULL}, &r);
    cr_expect(strstr(r.out, "2/2          0/?           unreadable"), "%s", r.out);
    cr_expect(strstr(r.out, "; 3 trials done"), "%s", r.out);
    /* a damaged row before the last */
    char *bad = xasprintf("%.*sgarbage\n%s", (int)(strchr(good, '\n') + 1 - good), good,
                          strchr(good, '\n') + 1);
    put(tp, bad);
    merge(d, &r);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, "shard-2-of-2/trials.csv: row 1 is not a trial"), "%s", r.err);
    cr_expect(!file_exists(mt));
    /* a samples table that is not one */
    put(tp, good);
    char *sp = shard_file(d, 1, "samples.csv");
    put(sp, "a,b\n1,2\n3,4\n");
    merge(d, &r);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, "shard-1-of-2/samples.csv: not a samples table"), "%s", r.err);
    cr_expect(!file_exists(mt));
    free(sp);
    free(bad);
    free(mt);
    free(good);
    free(tp);
    free(d);
}
