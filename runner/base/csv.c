/* csv.c - see csv.h.  The reader loads the whole file and unquotes it in
 * place: one buffer holds every field, so a 100,000-row file is read and
 * freed in a few allocations. */
#include "base/csv.h"

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

int csv_read(const char *path, csv_table *t)
{
    memset(t, 0, sizeof *t);
    size_t len;
    char *text = read_file(path, &len);
    if (!text)
        return -1;
    csv_parse(text, len, t);
    return 0;
}

void csv_parse(char *text, size_t len, csv_table *t)
{
    memset(t, 0, sizeof *t);
    t->arena = text;
    /* a last line without its newline was cut short by a crash: drop it */
    if (len && t->arena[len - 1] != '\n') {
        t->torn = 1;
        while (len && t->arena[len - 1] != '\n')
            len--;
    }
    size_t cap_cells = 64, cap_rows = 16, ncells = 0;
    size_t *starts = xmalloc(cap_rows * sizeof *starts); /* first cell of each row */
    t->cells = xmalloc(cap_cells * sizeof *t->cells);
    char *r = t->arena, *end = t->arena + len;
    while (r < end) {
        if ((size_t)t->nrows == cap_rows) {
            cap_rows *= 2;
            starts = xrealloc(starts, cap_rows * sizeof *starts);
        }
        starts[t->nrows++] = ncells;
        for (;;) { /* one field: unquote in place, w never passes r */
            if (ncells == cap_cells) {
                cap_cells *= 2;
                t->cells = xrealloc(t->cells, cap_cells * sizeof *t->cells);
            }
            char *w = r, *field = r;
            int quoted = 0;
            while (r < end) {
                if (quoted) {
                    if (*r == '"' && r + 1 < end && r[1] == '"') {
                        *w++ = '"';
                        r += 2;
                    } else if (*r == '"') {
                        quoted = 0;
                        r++;
                    } else {
                        *w++ = *r++;
                    }
                } else if (*r == '"') {
                    quoted = 1;
                    r++;
                } else if (*r == ',' || *r == '\n') {
                    break;
                } else if (*r == '\r') {
                    r++;
                } else {
                    *w++ = *r++;
                }
            }
            char sep = r < end ? *r : '\n';
            *w = '\0';
            t->cells[ncells++] = field;
            r++;
            if (sep == '\n')
                break;
        }
    }
    t->rows = xmalloc(((size_t)t->nrows + 1) * sizeof *t->rows);
    t->nfields = xmalloc(((size_t)t->nrows + 1) * sizeof *t->nfields);
    for (int i = 0; i < t->nrows; i++) {
        size_t next = i + 1 < t->nrows ? starts[i + 1] : ncells;
        t->rows[i] = t->cells + starts[i];
        t->nfields[i] = (int)(next - starts[i]);
    }
    free(starts);
}

void csv_free(csv_table *t)
{
    FREE_ALL(t->rows, t->nfields, t->cells, t->arena);
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
