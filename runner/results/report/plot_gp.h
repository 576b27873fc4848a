/* plot_gp.h - talking to gnuplot safely: quoting user text, templates, and
 * running the program as a child process (base/spawn.h: no shell).
 *
 * Every string that comes from an experiment file or from the trials table reaches
 * a script only through gp_quote(): a gnuplot single-quoted string, which has
 * no escapes, no backquote substitution and no @macro expansion.  A quote
 * in the text is written as '."'".' (a concatenation: gnuplot's scanner
 * does not reliably read doubled quotes); newlines and other control
 * characters become spaces, so the text can end neither the string nor its
 * line. */
#ifndef RUNNER_PLOT_GP_H
#define RUNNER_PLOT_GP_H
/* public header of runner/results/report/ */
/* (public: history/ draws its trend charts with it) */

#include "base/util.h"

#include <stddef.h>

/* Appends `s` as a single-quoted gnuplot string.  Invalid UTF-8 bytes become
 * '?'; the text is cut (on a character boundary, with "...") after maxlen
 * bytes when maxlen > 0. */
void gp_quote(strbuf *b, const char *s, size_t maxlen);
/* The same text as gp_quote() without the quotes, for a datablock or a
 * comment: never a line of its own, never "EOD". */
char *gp_clean(const char *s, size_t maxlen);

/* The gnuplot program: $RUNNER_GNUPLOT (a path, or a name looked up in
 * PATH) or "gnuplot".  NULL when it cannot be found or run. */
char *gp_find(void);
/* Runs `prog script` with `dir` as the working directory, stdin from
 * /dev/null; kills it after timeout seconds.  Returns 0 when it exits 0;
 * otherwise -1 with the reason and the end of its output in err. */
int gp_run(const char *prog, const char *dir, const char *script, double timeout, char *err,
           size_t errlen);

/* The template plots/TYPE.gp (from $RUNNER_PLOT_TEMPLATES, next to the
 * binary, or the installed share/runner/plots), or a built-in one when none
 * is found (*builtin = 1).  Returns a malloc'd text. */
char *gp_template(const char *type, int *builtin);
/* Replaces each {{KEY}} of tmpl by the matching value (keys[i] -> vals[i]);
 * an unknown {{KEY}} becomes empty. */
char *gp_fill(const char *tmpl, const char *const *keys, const char *const *vals, int n);

#endif
