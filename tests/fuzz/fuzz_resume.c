/* fuzz_resume.c - libFuzzer harness over what --resume reads: the input is
 * a run folder's trials.csv (and, after a line "===", its trials.more.csv)
 * beside a fixed experiment; results_open_dir parses the rows strictly,
 * drops damaged ones and folds the cells aside, results_close sorts and
 * folds again.  A crash, leak or sanitizer report is a bug.  See
 * `make fuzz-smoke`. */
#include "experiment/config.h"
#include "base/csv.h"
#include "results/rundir/results.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char yaml[] = "name: fz\nworkload: selftest\nrepeats: 1\nsweep:\n  size: [1, 2, 3, 4]\n";

static void put(const char *dir, const char *name, const char *p, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    fwrite(p, 1, n, f);
    fclose(f);
}

static void rm(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static experiment *e;
    if (!e) {
        diags d = {0};
        e = experiment_parse("fz.yaml", yaml, strlen(yaml), &d);
        diag_free(&d);
        if (!e)
            abort();
    }
    char dir[] = "/tmp/fuzz-resume-XXXXXX";
    if (!mkdtemp(dir))
        return 0;
    const char *p = (const char *)data, *sep = memmem(p, size, "\n===\n", 5);
    size_t tn = sep ? (size_t)(sep - p) + 1 : size;
    put(dir, "experiment.yaml", e->text, e->text_len);
    put(dir, "samples.csv", "trial,sample,seconds,device_seconds\n1,0,0.5,\n", 45);
    put(dir, "trials.csv", p, tn);
    if (sep)
        put(dir, "trials.more.csv", sep + 5, size - tn - 4);
    run_files R;
    char err[1024];
    if (results_open_dir(&R, e, dir, err, sizeof err) == 0)
        results_close(&R, 1, err, sizeof err);
    results_free(&R);
    static const char *const files[] = {"experiment.yaml", "samples.csv", "trials.csv",
                                        "trials.more.csv", ".lock", "meta.json"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        rm(dir, files[i]);
    rmdir(dir);
    return 0;
}
