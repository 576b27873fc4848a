/* test_cli_unknown.c - every command that parses its own options says an
 * unknown one the same way, with the closest of its own options
 * (cli/opts.h: opts_say_unknown), and exits 2. */
#include "runproc.h"

#include <criterion/criterion.h>
#include <string.h>

/* `runner CMD ARG` exits 2 with exactly `want` (and a newline) on stderr. */
static void expect_unknown(const char *cmd, const char *arg, const char *want)
{
    proc_out r;
    run((char *[]){(char *)cmd, (char *)arg, NULL}, &r);
    cr_assert_eq(r.status, 2, "runner %s %s: %d\n%s", cmd, arg, r.status, r.err);
    char line[512];
    snprintf(line, sizeof line, "%s\n", want);
    cr_assert_str_eq(r.err, line, "runner %s %s", cmd, arg);
    cr_assert_str_eq(r.out, "", "runner %s %s", cmd, arg);
}

Test(cli_unknown, bogus_option_in_every_command)
{
    expect_unknown("new", "--bogus", "runner: new: unknown option '--bogus'");
    expect_unknown("submit", "--bogus", "runner: submit: unknown option '--bogus'");
    expect_unknown("machine", "--bogus", "runner: machine: unknown option '--bogus'");
    expect_unknown("status", "--bogus", "runner: status: unknown option '--bogus'");
    /* the commands that already said it so */
    expect_unknown("compare", "--bogus", "runner: compare: unknown option '--bogus'");
    expect_unknown("history", "--bogus", "runner: history: unknown option '--bogus'");
    expect_unknown("gate", "--bogus", "runner: gate: unknown option '--bogus'");
}

Test(cli_unknown, did_you_mean)
{
    expect_unknown("new", "--cud",
                   "runner: new: unknown option '--cud'; did you mean '--cuda'?");
    expect_unknown("submit", "--shard=4",
                   "runner: submit: unknown option '--shard'; did you mean '--shards'?");
    expect_unknown("machine", "--jsn",
                   "runner: machine: unknown option '--jsn'; did you mean '--json'?");
    expect_unknown("status", "--hepl",
                   "runner: status: unknown option '--hepl'; did you mean '--help'?");
}

Test(cli_unknown, status_refuses_a_double_dash)
{
    expect_unknown("status", "--", "runner: status: unknown option '--'");
}
