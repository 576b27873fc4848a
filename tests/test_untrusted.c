/* test_untrusted.c - what a user's program, plugin or file hands the runner
 * is checked before it becomes a cell (doc/own-code.md#what-the-runner-checks):
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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
 * `runner export`. */
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
               "      printf '{\"seconds\": 0.000001, \"extras\": {\"note\": \"caf\\351 \\377\"}}\\n' >&4 ;;\n"
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
    expect_trial(&t, 2, "failed", "stderr: caf\xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD cut");
    csv_free(&t);
    assert_utf8_file(rd, "trials.csv");
    assert_utf8_file(rd, "report.md");
    assert_utf8_file(rd, "report.html");
    rm_rf(d);
    free(d);
}
