/* table.h - the trial-key part of --dry-run output and of the trials table. */
#ifndef RUNNER_TABLE_H
#define RUNNER_TABLE_H
/* public header of runner/experiment/ */

#include "experiment/config.h"
#include "base/util.h"

void table_header(const experiment *e, strbuf *b);              /* no newline */
void table_keys(const experiment *e, long long t, strbuf *b);   /* no newline */
/* "size=256 target=GPU ..." for progress lines: swept keys only. */
void table_describe(const experiment *e, long long t, strbuf *b);

#endif
