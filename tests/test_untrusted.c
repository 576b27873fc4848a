/* test_untrusted.c - what a user's program, plugin or file hands the runner
 * is checked before it becomes a cell (doc/own-code.md#what-the-runner-guarantees):
 * a placeholder's long value reaches the program whole; times and work a
 * program or plugin reports must be finite, not negative and, where the
 * runner can tell, possible; invalid UTF-8 from a program never lands raw in
 * trials.csv or the reports; files the runner reads (the ceilings cache, a
 * run's meta.json) must be regular files of bounded size, whose figures are
 * plausible; and a run never executes what the experiment folder's git
 * configuration names. */
#include "base/util.h"
#include "scenario.h"

#include <criterion/criterion.h>
#include <sqlite3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A value of n letters 'a'. */
static char *letters(size_t n)
{
    char *s = xmalloc(n + 1);
    memset(s, 'a', n);
    s[n] = '\0';
    return s;
}

/* A placeholder's value longer than 4 KiB reaches the program whole, in
 * an argument and in the environment (it was cut at 4,095 bytes while the
 * trial was ok and its row showed the whole value). */
Test(untrusted, a_long_placeholder_value_reaches_the_program_whole, .timeout = 60)
{
    char *v = letters(20000);
    /* sh counts them: ${#1} the argument's length, ${#V} the variable's
     * ("x" and the value); {{ and }} are braces */
    char *yaml = xasprintf("workload: command\n"
                           "command: [sh, -c, 'test ${{#1}} -eq 20000 && test ${{#V}} -eq 20001', "
                           "sh, \"{p}\"]\nprotocol: per_call\nenv: {V: \"x{p}\"}\nrepeats: 2\n"
                           "params: {p: %s}\n",
                           v);
    csv_table t;
    proc_out r;
    char *d = run_trials(yaml, 0, &r, &t);
    expect_trial(&t, 1, "ok", NULL);
    cr_assert_eq(strlen(cell(&t, 1, "p")), 20000);
    trials_done(&t, d);
    free(yaml);
    free(v);
}

/* ---- numbers a program or plugin reports ------------------------------------ */

/* A persistent program in sh that answers every request at once, its
 * replies to `run` being RUN_REPLY; written into dir as prog.sh. */
static void sh_program(const char *dir, const char *run_reply)
{
    char *text = xasprintf("#!/bin/sh\n"
                           "while read -r line <&3; do\n"
                           "  case \"$line\" in\n"
                           "    *'\"op\":\"run\"'*) printf '%%s\\n' '%s' >&4 ;;\n"
                           "    *) printf '{\"ok\": true}\\n' >&4 ;;\n"
                           "  esac\n"
                           "done\n",
                           run_reply);
    char p[4096];
    snprintf(p, sizeof p, "%s/prog.sh", dir);
    write_file(p, text, 1);
    free(text);
}

/* A persistent program's device time longer than the round trip of its
 * request is not the calls' (10^6 times the real time read as an ok cell). */
Test(untrusted, a_device_time_longer_than_the_round_trip_fails_the_trial, .timeout = 60)
{
    char *d = tmpdir();
    sh_program(d, "{\"seconds\": 0.000001, \"device_seconds\": 1000}");
    csv_table t;
    proc_out r;
    run_trials_in(d, "workload: command\ncommand: [./prog.sh]\nprotocol: persistent\nrepeats: 2\n",
                  1, &r, &t);
    expect_trial(&t, 1, "failed", "reported a device time of 1000 s for 1 call whose round trip took");
    cr_assert_str_eq(cell(&t, 1, "median"), "");
    trials_done(&t, d);
}

/* $RUNNER_FAKES/plugin-liar.so's workload with `params`. */
static char *liar(const char *params, int want, csv_table *t)
{
    const char *dir = getenv("RUNNER_FAKES");
    cr_assert(dir, "RUNNER_FAKES is not set (run through make test)");
    char *yaml = xasprintf("workload: plugin:%s/plugin-liar.so:liar\nrepeats: 3\nwarmups: 1\n"
                           "params: {%s}\n",
                           dir, params);
    proc_out r;
    char *d = run_trials(yaml, want, &r, t);
    free(yaml);
    return d;
}

/* A plugin's device time must be finite and not negative (one of -1 ms was
 * the trial's device_median); a device time the plugin may have measured
 * (longer than the host's call, as an announced batch's) stays. */
Test(untrusted, a_plugins_negative_device_time_fails_the_trial, .timeout = 60)
{
    csv_table t;
    char *d = liar("device_seconds: -0.001", 1, &t);
    expect_trial(&t, 1, "failed", "reported a device time of -0.001 s for a call: times are finite "
                                  "and >= 0");
    trials_done(&t, d);
    d = liar("device_seconds: 0.001", 0, &t);
    expect_trial(&t, 1, "ok", NULL);
    cr_assert_float_eq(cell_num(&t, 1, "device_median"), 0.001, 1e-12);
    trials_done(&t, d);
}

/* A plugin's work of a call must be finite, not negative and possible in
 * the call's time: a count that overflowed (negative, or 10^30 flops in a
 * call of microseconds) gave gflops of -4e8; it fails the trial. */
Test(untrusted, a_plugins_overflowed_work_fails_the_trial, .timeout = 60)
{
    csv_table t;
    char *d = liar("flops: -4e17", 1, &t);
    expect_trial(&t, 1, "failed", "reported -4e+17 flops for one call: the work of a call is a "
                                  "finite number >= 0");
    cr_assert_str_eq(cell(&t, 1, "gflops"), "");
    trials_done(&t, d);
    d = liar("flops: 1e30", 1, &t);
    expect_trial(&t, 1, "failed", "flop/s: more than any device does");
    cr_assert_str_eq(cell(&t, 1, "gflops"), "");
    trials_done(&t, d);
    d = liar("flops: 1000", 0, &t);
    expect_trial(&t, 1, "ok", NULL);
    cr_assert(cell_num(&t, 1, "gflops") > 0);
    trials_done(&t, d);
}

/* ---- text a program writes ------------------------------------------------------ */

/* 1 when the n bytes at s are valid UTF-8 (RFC 3629), else 0 with *at the
 * first bad byte's offset; counted here, not with the runner's code. */
static int valid_utf8(const char *s, size_t n, size_t *at)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned c = p[i], need = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2
                                              : (c & 0xF8) == 0xF0 ? 3 : 9;
        unsigned cp = need == 1 ? c & 0x1F : need == 2 ? c & 0x0F : c & 0x07;
        if (need == 9 || i + need >= n + (need == 0))
            return *at = i, 0;
        for (unsigned k = 1; k <= need; k++) {
            if ((p[i + k] & 0xC0) != 0x80)
                return *at = i, 0;
            cp = cp << 6 | (p[i + k] & 0x3F);
        }
        static const unsigned least[4] = {0, 0x80, 0x800, 0x10000};
        if (need && (cp < least[need] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)))
            return *at = i, 0;
        i += need + 1;
    }
    return 1;
}

static void assert_utf8_file(const char *run_dir, const char *name)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", run_dir, name);
    size_t n, at = 0;
    char *text = read_file(p, &n);
    cr_assert(text, "no %s", p);
    cr_assert(valid_utf8(text, n, &at), "%s: invalid UTF-8 at byte %zu: '%.40s'", name, at,
              text + (at > 10 ? at - 10 : 0));
    cr_assert(strstr(text, "\xEF\xBF\xBD"), "%s: no U+FFFD where the bad bytes were", name);
    free(text);
}

/* A program's extras value and its stderr in Latin-1, or cut inside a
 * character, never land raw in trials.csv, report.md or report.html (pandas
 * and Python's csv could not read them): each bad byte is U+FFFD, as in
 * `runner export`; an extras value of NaN or Infinity is an empty cell. */
Test(untrusted, invalid_utf8_from_a_program_becomes_u_fffd, .timeout = 90)
{
    char *d = tmpdir();
    char p[4096];
    snprintf(p, sizeof p, "%s/prog.sh", d);
    write_file(p,
               "#!/bin/sh\n"
               "die=0\n"
               "while read -r line <&3; do\n"
               "  case \"$line\" in\n"
               "    *'\"action\":\"die\"'*'\"op\":\"setup\"'*) die=1; printf '{\"ok\": true}\\n' >&4 ;;\n"
               "    *'\"k\":0,\"op\":\"run\"'*) printf '{\"seconds\": 0}\\n' >&4 ;;\n"
               "    *'\"op\":\"run\"'*)\n"
               "      if [ $die = 1 ]; then printf 'caf\\351 \\342\\202 cut\\n' >&2; exit 3; fi\n"
               "      printf '{\"seconds\": 0.000001, \"extras\": {\"note\": \"caf\\351 \\377\", "
               "\"inf\": Infinity, \"nan\": NaN}}\\n' >&4 ;;\n"
               "    *) printf '{\"ok\": true}\\n' >&4 ;;\n"
               "  esac\n"
               "done\n",
               1);
    proc_out r;
    run_drawn_in(d,
                 "name: u\nworkload: command\ncommand: [./prog.sh]\nprotocol: persistent\n"
                 "repeats: 2\nsweep:\n  action: [ok, die]\n",
                 NULL, &r);
    cr_assert_eq(r.status, 1, "%s", r.err);
    char rd[4096];
    snprintf(rd, sizeof rd, "%s/run", d);
    csv_table t;
    read_trials(d, &t);
    expect_trial(&t, 1, "ok", NULL);
    cr_assert_str_eq(cell(&t, 1, "note"), "caf\xEF\xBF\xBD \xEF\xBF\xBD");
    /* a number JSON has not is no number in a cell */
    cr_assert_str_eq(cell(&t, 1, "inf"), "");
    cr_assert_str_eq(cell(&t, 1, "nan"), "");
    expect_trial(&t, 2, "failed", "stderr: caf\xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD cut");
    csv_free(&t);
    assert_utf8_file(rd, "trials.csv");
    assert_utf8_file(rd, "report.md");
    assert_utf8_file(rd, "report.html");
    rm_rf(d);
    free(d);
}

/* ---- files the runner reads ------------------------------------------------------ */

/* A run folder is input: a FIFO or a link to /dev/zero in the place of its
 * meta.json is refused at once by `runner history import` (a FIFO hung it),
 * and a FIFO trials.csv by `runner report`. */
Test(untrusted, a_fifo_or_a_device_in_a_run_folder_is_refused_at_once, .timeout = 60)
{
    char *d = tmpdir();
    proc_out r;
    run_yaml_in(d, "name: h\nworkload: noop\nrepeats: 2\n", NULL, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char rd[4096], meta[4096], trials[4096], db[4096];
    snprintf(rd, sizeof rd, "%s/run", d);
    snprintf(meta, sizeof meta, "%s/meta.json", rd);
    snprintf(trials, sizeof trials, "%s/trials.csv", rd);
    snprintf(db, sizeof db, "%s/h.sqlite", d);
    cr_assert_eq(unlink(meta), 0);
    cr_assert_eq(mkfifo(meta, 0600), 0);
    expect_exit((char *[]){"history", "import", rd, "--history", db, NULL}, 2,
                "meta.json: not read: a FIFO, not a regular file");
    cr_assert_eq(unlink(meta), 0);
    cr_assert_eq(symlink("/dev/zero", meta), 0);
    expect_exit((char *[]){"history", "import", rd, "--history", db, NULL}, 2,
                "meta.json: not read: a character device, not a regular file");
    cr_assert_eq(unlink(meta), 0);
    write_text(rd, "meta.json", "{}");
    cr_assert_eq(unlink(trials), 0);
    cr_assert_eq(mkfifo(trials, 0600), 0);
    run((char *[]){"report", rd, NULL}, &r);
    cr_assert_neq(r.status, 0, "a FIFO trials.csv made a report: %s", r.out);
    rm_rf(d);
    free(d);
}

/* ---- the experiment folder's git -------------------------------------------------- */

/* The first column of the newest run of the history at db, as text
 * (malloc'd; NULL: none). */
static char *newest(const char *db, const char *col)
{
    sqlite3 *h;
    cr_assert_eq(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK, "%s", db);
    char *sql = xasprintf("SELECT %s FROM runs ORDER BY id DESC LIMIT 1", col);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(h));
    char *v = NULL;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        v = xstrdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(h);
    free(sql);
    return v;
}

static void sh(const char *fmt, const char *d)
{
    char *cmd = xasprintf(fmt, d, d, d, d, d, d);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    free(cmd);
}

/* Runs D/toy.yaml (in folder sub of D) into D/res, recorded in D/res's
 * history; the run's revision, dirty flag and time are checked against
 * git's own answer. */
static void run_and_check_revision(const char *d, const char *sub)
{
    char y[4096], out[4096], db[4096];
    snprintf(y, sizeof y, "%s/%s/toy.yaml", d, sub);
    snprintf(out, sizeof out, "%s/res", d);
    snprintf(db, sizeof db, "%s/res/history.sqlite", d);
    proc_out r;
    run((char *[]){"--quiet", "--no-plots", "--output", out, y, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *want = xasprintf("cd %s/%s && git rev-parse HEAD > %s/want", d, sub, d);
    cr_assert_eq(system(want), 0);
    free(want);
    char wp[4096];
    snprintf(wp, sizeof wp, "%s/want", d);
    char *head = read_file(wp, NULL);
    head[strcspn(head, "\n")] = '\0';
    char *rev = newest(db, "revision"), *dirty = newest(db, "dirty"), *t = newest(db, "revision_time");
    cr_assert(rev && !strcmp(rev, head), "revision %s, git says %s", rev, head);
    cr_assert(dirty && !strcmp(dirty, "0"), "dirty %s", dirty);
    cr_assert(t && atoll(t) > 1500000000, "revision_time %s", t);
    free(rev), free(dirty), free(t), free(head);
}

/* A run reads the revision of the experiment's checkout without running
 * what the repository's configuration names (a received tarball's
 * core.fsmonitor ran a command at every run, even of `workload: noop`): no
 * fsmonitor, no filter of its own, no hook; the revision is git's, from a
 * branch, from packed refs, a detached HEAD and a linked worktree. */
Test(untrusted, a_run_executes_nothing_the_folders_git_config_names, .timeout = 120)
{
    char *d = dir_with("toy.yaml", "name: toy\nworkload: noop\nrepeats: 2\n");
    sh("cd %s && git init -q && git -c user.name=t -c user.email=t@t add toy.yaml && "
       "git -c user.name=t -c user.email=t@t commit -qm one && "
       "git config core.fsmonitor 'touch %s/ran-fsmonitor; false' && "
       "git config filter.evil.clean 'touch %s/ran-filter; cat' && "
       "git config filter.evil.process 'touch %s/ran-process' && "
       "echo '* filter=evil' > .git/info/attributes && mkdir -p hooks && "
       "printf '#!/bin/sh\\ntouch %s/ran-hook\\n' > hooks/post-index-change && "
       "chmod +x hooks/post-index-change && git config core.hooksPath hooks && "
       "echo hooks > .git/info/exclude && touch -d 2020-01-01 toy.yaml",
       d);
    run_and_check_revision(d, ".");
    sh("cd %s && git pack-refs --all && test ! -e .git/refs/heads/master -a ! -e "
       ".git/refs/heads/main && touch -d 2019-01-01 toy.yaml",
       d);
    run_and_check_revision(d, ".");
    /* the test's own git with the repository's commands off */
    sh("cd %s && G='git -c core.hooksPath=/dev/null -c core.fsmonitor=false -c "
       "filter.evil.clean= -c filter.evil.process=' && $G checkout -q --detach && "
       "$G worktree add -q --detach wt",
       d);
    run_and_check_revision(d, "wt");
    static const char *const ran[] = {"ran-fsmonitor", "ran-filter", "ran-process", "ran-hook"};
    for (int i = 0; i < 4; i++) {
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", d, ran[i]);
        cr_assert_neq(access(p, F_OK), 0, "%s: the repository's command ran", ran[i]);
    }
    rm_rf(d);
    free(d);
}
