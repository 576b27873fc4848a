/* svg_clean.h - an SVG chart made fit to inline in report.html
 * (doc/results.md#plots-and-reports): a run folder is untrusted input (a colleague's
 * results, a cluster shard), so its SVG files are rebuilt through an
 * allow-list, never copied.  Library code: nothing is printed. */
#ifndef RUNNER_SVG_CLEAN_H
#define RUNNER_SVG_CLEAN_H
/* internal header of runner/results/report/: other folders may not include it */

#include "base/util.h"

/* Appends to b the first <svg> element of `text`, rebuilt from what the
 * SVG that gnuplot writes is made of: its drawing elements (svg, g, path,
 * text, use, filter, ...) with their presentation attributes, every other
 * element left out with what it holds (script, style, foreignObject, a,
 * image, animate, an element spelt in capitals), every other attribute
 * left out (on* handlers, style), a link kept only when it names an
 * element of the chart ("#id"), a value kept only when it holds no markup,
 * entity or url() other than url(#id), text kept as text; every id (and
 * every reference to one) given the prefix `pre` so that the charts of one
 * page do not share ids.  Returns 0, or -1 (nothing appended) when text has
 * no <svg> element. */
int svg_clean(strbuf *b, const char *text, const char *pre);

#endif
