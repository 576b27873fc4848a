/* test_opts.c - cli/opts.h, the one option parser of the command line
 * (getopt_long underneath): arguments in order, --opt=VALUE and --opt
 * VALUE, a missing value, no abbreviations or bundles, `--` ending the
 * options or separating two lists. */
#include "cli/opts.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

enum { A_OUT, A_QUIET, A_RESUME, A_HELP };

static const opt_def defs[] = {
    {"--output", 0, OPT_VALUE, A_OUT},
    {"--quiet", 'q', OPT_NONE, A_QUIET},
    {"--resume", 0, OPT_ATTACHED, A_RESUME},
    {"--help", 'h', OPT_NONE, A_HELP},
    {NULL, 0, 0, 0},
};

/* Parses argv into a line of "id:value" words, e.g. "arg:a out:x". */
static void parse(int argc, char **argv, int separator, char *out, size_t len)
{
    opts o;
    opts_init(&o, argc, argv, defs, separator);
    out[0] = '\0';
    int id;
    while ((id = opts_next(&o)) != OPT_END) {
        char w[256];
        switch (id) {
        case OPT_ARG:
            snprintf(w, sizeof w, "arg:%s", o.value);
            break;
        case OPT_SEPARATOR:
            snprintf(w, sizeof w, "sep");
            break;
        case OPT_UNKNOWN: {
            const char *s = opts_suggest(&o);
            snprintf(w, sizeof w, "unknown:%s(%s)", o.name, s ? s : "-");
            break;
        }
        default:
            snprintf(w, sizeof w, "%d:%s", id, o.value ? o.value : "NULL");
        }
        if (out[0])
            strncat(out, " ", len - strlen(out) - 1);
        strncat(out, w, len - strlen(out) - 1);
    }
    opts_free(&o);
}

#define CHECK(sep, expect, ...)                                                                    \
    do {                                                                                           \
        char *argv[] = {"runner", __VA_ARGS__, NULL};                                              \
        char got[1024];                                                                            \
        parse((int)(sizeof argv / sizeof *argv) - 1, argv, sep, got, sizeof got);                  \
        cr_assert_str_eq(got, expect);                                                             \
    } while (0)

Test(opts, arguments_and_options_in_the_order_given)
{
    CHECK(0, "arg:a 0:x arg:b 1:NULL arg:c 0:y", "a", "--output", "x", "b", "-q", "c",
          "--output=y");
    CHECK(0, "arg:- 0:", "-", "--output=");
    /* a value may look like an option */
    CHECK(0, "0:--quiet arg:a", "--output", "--quiet", "a");
    CHECK(0, "0:--", "--output", "--");
}

Test(opts, a_missing_value_is_null)
{
    CHECK(0, "arg:a 0:NULL", "a", "--output");
}

Test(opts, options_are_written_in_full_and_one_to_an_argument)
{
    CHECK(0, "unknown:--out(-) unknown:--outpu(--output) arg:x", "--out", "--outpu", "x");
    CHECK(0, "unknown:--outputs(--output)", "--outputs=1");
    CHECK(0, "unknown:-qh(-)", "-qh");
    CHECK(0, "unknown:-x(-)", "-x");
    /* a flag given a value */
    CHECK(0, "unknown:--quiet(--quiet) unknown:-q(-)", "--quiet=1", "-q=1");
    CHECK(0, "3:NULL 1:NULL", "-h", "--quiet");
}

Test(opts, a_value_only_attached)
{
    CHECK(0, "2:NULL arg:dir 2:x 2:", "--resume", "dir", "--resume=x", "--resume=");
}

Test(opts, dash_dash_ends_the_options)
{
    CHECK(0, "arg:a arg:--quiet arg:-- arg:b", "a", "--", "--quiet", "--", "b");
    CHECK(0, "1:NULL", "-q", "--");
}

Test(opts, dash_dash_separates_when_asked)
{
    CHECK(1, "arg:a sep arg:b 1:NULL sep arg:c 0:x", "a", "--", "b", "--quiet", "--", "c",
          "--output", "x");
    CHECK(1, "sep", "--");
    CHECK(1, "arg:a sep", "a", "--");
}

Test(opts, a_second_parse_starts_afresh)
{
    CHECK(0, "0:x arg:a", "--output", "x", "a");
    CHECK(0, "arg:b 1:NULL", "b", "-q");
    CHECK(1, "sep arg:c", "--", "c");
    CHECK(0, "arg:d", "d");
}
