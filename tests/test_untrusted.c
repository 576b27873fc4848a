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
