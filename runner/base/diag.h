/* diag.h - configuration errors, collected and printed GCC-style:
 *   FILE:LINE:COLUMN: error: MESSAGE
 * Lines and columns count from 1 (libyaml's marks count from 0: add 1). */
#ifndef RUNNER_DIAG_H
#define RUNNER_DIAG_H
/* public header of runner/base/ */

#include <stdio.h>

typedef struct diag_item {
    int line, col; /* 0 = unknown */
    char *msg;
} diag_item;

typedef struct diags {
    const char *file;
    diag_item *items;
    int n, cap;
} diags;

void diag_add(diags *d, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void diag_print(const diags *d, FILE *out);
void diag_free(diags *d);

#endif
