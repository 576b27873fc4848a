/* report_text.h - the words of the reports: Markdown-safe text, numbers and
 * durations as the reports write them, a trial described by its swept
 * keys, and reading the run's metadata (JSON). */
#ifndef RUNNER_REPORT_TEXT_H
#define RUNNER_REPORT_TEXT_H
/* public header of runner/results/report/ */
/* (public: history/ reads a run's metadata and writes Markdown with it) */

#include "base/util.h"
#include "results/report/plot_model.h"

#include <json.h>

void report_md(strbuf *b, const char *s);
/* The names of the columns cols[0 .. n-1] (the header's), Markdown-safe,
 * each after `first` (the first) or `sep` (the others) and before `after`:
 * a list in a sentence, or the header cells of a table (" ", " ", " |"). */
void report_md_names(strbuf *b, const run_model *m, const int *cols, int n, const char *first,
                     const char *sep, const char *after);
const char *report_jstr(json_object *o, const char *path);
json_object *report_jget(json_object *o, const char *key);
void report_secs(char *out, size_t n, double s);
const char *report_num_cell(const run_model *m, int row, int col);
char *report_describe(const run_model *m, int row);

#endif
