/* table.c - see table.h. */
#include "experiment/table.h"

#include "base/csv.h"

void table_header(const experiment *e, strbuf *b)
{
    for (int c = 0; c < e->ncols; c++) {
        if (c)
            sb_putc(b, ',');
        csv_field(b, e->cols[c].name);
    }
}

void table_keys(const experiment *e, long long t, strbuf *b)
{
    for (int c = 0; c < e->ncols; c++) {
        if (c)
            sb_putc(b, ',');
        value v = trial_value(e, t, c);
        if (v.text)
            csv_field(b, v.text);
    }
}

void table_describe(const experiment *e, long long t, strbuf *b)
{
    int first = 1;
    for (int c = 0; c < e->ncols; c++) {
        if (e->cols[c].axis < 0)
            continue;
        /* keys set by a linked axis are summed up by its label */
        if (e->cols[c].kind != COL_AXIS && e->axes[e->cols[c].axis].linked)
            continue;
        value v = trial_value(e, t, c);
        sb_printf(b, "%s%s=%s", first ? "" : " ", e->cols[c].name, v.text ? v.text : "");
        first = 0;
    }
    if (first) {
        int w = experiment_column(e, "workload");
        value v = trial_value(e, t, w);
        sb_printf(b, "workload=%s", v.text ? v.text : "");
    }
}
