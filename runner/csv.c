/* csv.c - see csv.h. */
#include "csv.h"

#include <stdlib.h>
#include <string.h>

void csv_field(strbuf *b, const char *s)
{
    if (!s)
        return;
    if (!strpbrk(s, ",\"\r\n")) {
        sb_puts(b, s);
        return;
    }
    sb_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"')
            sb_putc(b, '"');
        sb_putc(b, *s);
    }
    sb_putc(b, '"');
}

static void add_field(csv_table *t, strbuf *f)
{
    int r = t->nrows - 1;
    t->rows[r] = xrealloc(t->rows[r], (size_t)(t->nfields[r] + 1) * sizeof(char *));
    t->rows[r][t->nfields[r]++] = sb_take(f);
}

static void add_row(csv_table *t)
{
    t->rows = xrealloc(t->rows, (size_t)(t->nrows + 1) * sizeof *t->rows);
    t->nfields = xrealloc(t->nfields, (size_t)(t->nrows + 1) * sizeof *t->nfields);
    t->rows[t->nrows] = NULL;
    t->nfields[t->nrows] = 0;
    t->nrows++;
}

int csv_read(const char *path, csv_table *t)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    strbuf field = {0};
    int c, inq = 0, row_open = 0, last = '\n';
    while ((c = getc(f)) != EOF) {
        if (!row_open) {
            add_row(t);
            row_open = 1;
        }
        if (inq) {
            if (c == '"') {
                int n = getc(f);
                if (n == '"')
                    sb_putc(&field, '"');
                else {
                    inq = 0;
                    if (n != EOF)
                        ungetc(n, f);
                }
            } else {
                sb_putc(&field, (char)c);
            }
        } else if (c == '"') {
            inq = 1;
        } else if (c == ',') {
            add_field(t, &field);
        } else if (c == '\n') {
            add_field(t, &field);
            row_open = 0;
        } else if (c != '\r') {
            sb_putc(&field, (char)c);
        }
        last = c;
    }
    if (row_open) {
        /* no final newline: a row cut short by a crash; drop it */
        t->torn = 1;
        int r = t->nrows - 1;
        for (int i = 0; i < t->nfields[r]; i++)
            free(t->rows[r][i]);
        free(t->rows[r]);
        t->nrows--;
    }
    (void)last;
    sb_free(&field);
    fclose(f);
    return 0;
}

void csv_free(csv_table *t)
{
    for (int r = 0; r < t->nrows; r++) {
        for (int i = 0; i < t->nfields[r]; i++)
            free(t->rows[r][i]);
        free(t->rows[r]);
    }
    free(t->rows);
    free(t->nfields);
    memset(t, 0, sizeof *t);
}

int csv_col(const csv_table *t, const char *name)
{
    if (t->nrows == 0)
        return -1;
    for (int i = 0; i < t->nfields[0]; i++)
        if (!strcmp(t->rows[0][i], name))
            return i;
    return -1;
}
