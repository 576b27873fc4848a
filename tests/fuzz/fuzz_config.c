/* fuzz_config.c - libFuzzer harness over config loading, sweep expansion,
 * --filter and the CSV reader (the input read back as a results file).
 * Any crash, leak, hang or sanitizer report is a bug; see `make fuzz-smoke`. */
#include "experiment/config.h"
#include "base/csv.h"
#include "experiment/table.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    diags d = {0};
    experiment *e = experiment_parse("fuzz.yaml", (const char *)data, size, &d);
    if (e) {
        strbuf b = {0};
        table_header(e, &b);
        for (long long t = 0; t < e->ntrials && t < 64; t++)
            table_keys(e, t, &b);
        sb_free(&b);
        char *filters[] = {"size=1*", "device=cpu", "size=2"};
        char err[256];
        experiment_filter(e, filters, 3, err, sizeof err);
        experiment_free(e);
    }
    diag_free(&d);

    /* the same bytes as a trials.csv */
    char path[] = "/tmp/fuzz-csv-XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0) {
        if (write(fd, data, size) == (ssize_t)size) {
            csv_table t;
            if (csv_read(path, &t) == 0) {
                csv_col(&t, "median");
                csv_free(&t);
            }
        }
        close(fd);
        unlink(path);
    }
    return 0;
}
