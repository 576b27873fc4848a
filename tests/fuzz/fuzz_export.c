/* fuzz_export.c - libFuzzer harness over `runner export --format json`: the
 * input is a run folder's trials.csv, then after a line "===" its
 * samples.csv, then after another its meta.json (a run folder is untrusted
 * input); whatever they hold, the export must be one JSON text by RFC 8259
 * (tests/strict_json.h), or refused with a reason.  An invalid output
 * aborts; a crash, leak or sanitizer report is a bug too.  See
 * `make fuzz-smoke` (doc/results.md#exporting-a-run). */
#include "results/rundir/export.h"

#include "../strict_json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void put(const char *dir, const char *name, const char *p, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!p) {
        unlink(path);
        return;
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    fwrite(p, 1, n, f);
    fclose(f);
}

/* the next part of [*p, end) up to a line "===" */
static const char *part(const char **p, const char *end, size_t *n)
{
    if (!*p)
        return NULL;
    const char *s = *p;
    const char *m = memmem(s, (size_t)(end - s), "\n===\n", 5);
    *n = m ? (size_t)(m - s) + 1 : (size_t)(end - s);
    *p = m ? m + 5 : NULL;
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char dir[] = "/tmp/fuzz-export-XXXXXX";
    static int made;
    if (!made) {
        if (!mkdtemp(dir))
            abort();
        made = 1;
    }
    const char *p = (const char *)data, *end = p + size;
    size_t n[3] = {0, 0, 0};
    const char *t = part(&p, end, &n[0]);
    const char *s = part(&p, end, &n[1]);
    const char *m = part(&p, end, &n[2]);
    put(dir, "trials.csv", t, n[0]);
    put(dir, "samples.csv", s, n[1]);
    put(dir, "meta.json", m, n[2]);
    char err[1024];
    char *out = export_run(dir, "json", err, sizeof err);
    if (out) {
        size_t at;
        if (!strict_json_valid(out, strlen(out), &at)) {
            fprintf(stderr, "fuzz_export: invalid JSON at byte %zu:\n%s\n", at, out);
            abort();
        }
        free(out);
    }
    out = export_run(dir, "spreadsheet", err, sizeof err);
    free(out);
    return 0;
}
