/* opts.c - see opts.h.  getopt_long runs in RETURN_IN_ORDER mode ("-" at
 * the head of the short options: arguments come back in place, nothing is
 * permuted) with its own messages off (":" and opterr = 0); before each
 * call the next argument is checked against the command's options as
 * written, so that getopt_long only ever sees whole, known options. */
#include "cli/opts.h"

#include "base/util.h"
#include "cli/exit_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void opts_init(opts *o, int argc, char **argv, const opt_def *defs, int separator)
{
    memset(o, 0, sizeof *o);
    o->argc = argc;
    o->argv = argv;
    o->defs = defs;
    o->separator = separator;
    int n = 0;
    while (defs[n].name)
        n++;
    o->longs = xcalloc((size_t)n + 1, sizeof *o->longs);
    o->names = xcalloc((size_t)n + 1, sizeof *o->names);
    strbuf s = {0};
    sb_puts(&s, "-:");
    for (int i = 0; i < n; i++) {
        o->names[i] = defs[i].name;
        o->longs[i] = (struct option){defs[i].name + 2,
                                      defs[i].arg == OPT_NONE    ? no_argument
                                      : defs[i].arg == OPT_VALUE ? required_argument
                                                                 : optional_argument,
                                      NULL, 256 + i};
        if (defs[i].short_name)
            sb_printf(&s, "%c%s", defs[i].short_name, defs[i].arg == OPT_VALUE ? ":" : "");
    }
    o->shorts = sb_take(&s);
    opterr = 0;
    optind = 0; /* glibc: start afresh */
}

void opts_init_args(opts *o, int nargs, char **args, const opt_def *defs, int separator)
{
    char **argv = xcalloc((size_t)nargs + 2, sizeof *argv);
    argv[0] = "runner";
    memcpy(argv + 1, args, (size_t)nargs * sizeof *args);
    opts_init(o, nargs + 1, argv, defs, separator);
    o->own = argv;
}

void opts_free(opts *o)
{
    free(o->own);
    free(o->longs);
    free(o->shorts);
    free(o->names);
}

/* The option `a` names exactly, or NULL. */
static const opt_def *find(const opts *o, const char *a)
{
    size_t n = strcspn(a, "=");
    for (const opt_def *d = o->defs; d->name; d++) {
        if (a[1] == '-' ? strlen(d->name) == n && !strncmp(d->name, a, n)
                        : d->short_name && a[1] == d->short_name && !a[2])
            return d->arg == OPT_NONE && a[n] ? NULL : d;
    }
    return NULL;
}

int opts_next(opts *o)
{
    o->value = o->text = NULL;
    o->name[0] = '\0';
    if (o->rest) {
        if (o->rest >= o->argc)
            return OPT_END;
        o->value = o->text = o->argv[o->rest++];
        return OPT_ARG;
    }
    int at = o->base + (optind ? optind : 1); /* the argument getopt_long reads next */
    if (at >= o->argc)
        return OPT_END;
    const char *a = o->argv[at];
    o->text = a;
    const opt_def *d = NULL;
    if (a[0] == '-' && a[1] && strcmp(a, "--")) {
        snprintf(o->name, sizeof o->name, "%.*s", (int)strcspn(a, "="), a);
        if (!(d = find(o, a))) {
            optind = at - o->base + 1; /* past it */
            return OPT_UNKNOWN;
        }
    }
    int c = getopt_long(o->argc - o->base, o->argv + o->base, o->shorts, o->longs, NULL);
    if (c == -1) {
        int next = o->base + optind;
        if (next > at && !strcmp(o->argv[next - 1], "--")) {
            if (!o->separator) {
                o->rest = next;
                return opts_next(o);
            }
            /* go on after it: the `--` stands where argv[0] stood */
            o->base = next - 1;
            optind = 0;
            return OPT_SEPARATOR;
        }
        return OPT_END;
    }
    if (c == 1) { /* an argument */
        o->value = optarg;
        return OPT_ARG;
    }
    if (!d) /* cannot happen: only arguments come back without a check */
        return OPT_UNKNOWN;
    /* a known option (checked above); '?' or ':' when its value is missing */
    o->value = c == '?' || c == ':' ? NULL : optarg;
    return d->id;
}

const char *opts_suggest(const opts *o)
{
    return closest_word(o->name, o->names);
}

void opts_say_unknown(const opts *o, const char *cmd)
{
    const char *s = o->name[0] ? opts_suggest(o) : NULL;
    fprintf(stderr, "runner: %s%sunknown option '%s'%s%s%s\n", cmd ? cmd : "", cmd ? ": " : "",
            o->name[0] ? o->name : o->text, s ? "; did you mean '" : "", s ? s : "",
            s ? "'?" : "");
}

/* id is the one of --help */
static int is_help(const opt_def *defs, int id)
{
    for (const opt_def *d = defs; id >= 0 && d->name; d++)
        if (d->id == id)
            return !strcmp(d->name, "--help");
    return 0;
}

int opts_parse(const opts_cmd *k, int nargs, char **args, opts_fn *fn, void *ctx)
{
    opts p;
    opts_init_args(&p, nargs, args, k->defs, k->separator);
    int rc = -1, id;
    while (rc < 0 && (id = opts_next(&p)) != OPT_END) {
        if (id == OPT_UNKNOWN) {
            opts_say_unknown(&p, k->cmd);
            rc = EXIT_INVALID;
        } else if (k->usage && is_help(k->defs, id)) {
            fputs(k->usage, stdout);
            rc = EXIT_OK;
        } else {
            rc = fn(ctx, &p, id);
        }
    }
    opts_free(&p);
    return rc;
}
