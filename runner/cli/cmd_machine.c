/* cmd_machine.c - `runner machine [--show] [--reprobe] [--json]`: this
 * machine's ceilings, probed once and cached (doc/ceilings.md#the-ceilings). */
#include "cli/commands.h"
#include "cli/opts.h"
#include "experiment/machine/cpuspeed.h"
#include "experiment/machine/machine.h"
#include "base/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { M_HELP, M_SHOW, M_REPROBE, M_JSON };

static const opt_def machine_options[] = {
    {"--help", 'h', OPT_NONE, M_HELP},       {"--show", 0, OPT_NONE, M_SHOW},
    {"--reprobe", 0, OPT_NONE, M_REPROBE}, {"--json", 0, OPT_NONE, M_JSON},
    {NULL, 0, 0, 0},
};

static const char machine_usage[] =
    "usage: runner machine [--show] [--reprobe] [--json]\n"
    "  this machine's ceilings: the CPU's FP32 and FP64 FMA peaks on one core\n"
    "  and on all cores, its memory bandwidth (a triad), and on each CUDA device\n"
    "  the FP32, TF32, FP16 and BF16 GEMM peaks, the device-to-device and pinned\n"
    "  host<->device bandwidths; beside each, the nominal figure where the clock\n"
    "  is known. Probed once (a few seconds) and cached per machine under\n"
    "  ${XDG_CACHE_HOME:-~/.cache}/runner/; every run records the ones it used.\n"
    "  Then each CPU's one-core speed now, and a warning when they differ\n"
    "  by more than 10 %.\n"
    "  --show     print the cached ceilings; probe nothing (exit 2 when none)\n"
    "  --reprobe  probe again, even where ceilings are cached\n"
    "  --json     print the cache file's JSON instead of the table\n";

static void print_table(const ceilings *c, FILE *f)
{
    fprintf(f, "machine %s: %s\n", ceilings_machine_id(c), ceilings_fingerprint(c));
    const char *devs[64];
    int nd = ceilings_devices(c, devs, 64);
    for (int d = 0; d < nd; d++) {
        const char *name = ceilings_info(c, devs[d], "name");
        fprintf(f, "%s: %s", devs[d], name ? name : "?");
        const char *isa = ceilings_info(c, devs[d], "isa");
        const char *mhz = ceilings_info(c, devs[d], "clock_mhz");
        const char *from = ceilings_info(c, devs[d], "clock_from");
        if (isa)
            fprintf(f, ", %s", isa);
        if (mhz)
            fprintf(f, ", clock %s MHz (%s)", mhz, from ? from : "?");
        const char *note = ceilings_info(c, devs[d], "note");
        if (note)
            fprintf(f, "; %s", note);
        fputc('\n', f);
        const char *w[32];
        int nw = ceilings_whats(c, devs[d], w, 32);
        for (int i = 0; i < nw; i++) {
            double nom, m = ceilings_get(c, devs[d], w[i], &nom);
            const char *unit = strncmp(w[i], "fp", 2) && strcmp(w[i], "tf32") &&
                                       strcmp(w[i], "bf16")
                                   ? "GB/s"
                                   : "GFLOP/s";
            fprintf(f, "  %-16s %10.4g %-8s", w[i], m, unit);
            if (isfinite(nom) && nom > 0)
                fprintf(f, "  nominal %10.4g (measured %.0f %%)", nom, 100 * m / nom);
            fputc('\n', f);
        }
    }
}

/* --show, --reprobe and --json set their flag (flags[id]); no arguments */
static int machine_option(void *ctx, const opts *p, int id)
{
    if (id < 0) {
        fprintf(stderr, "runner: machine takes no arguments, not '%s'\n", p->text);
        return EXIT_INVALID;
    }
    ((int *)ctx)[id] = 1;
    return -1;
}

/* Each CPU's one-core speed now (doc/timing.md#the-speed-of-each-cpu):
 * best of 20 windows of 2 ms each; a line per CPU, and a warning when they
 * differ by more than CPU_SPEED_DIFFER. */
static void print_speeds(FILE *f)
{
    int cpu[256];
    double g[256];
    int n = cpu_speed_each(cpu, g, 256, 20, 0.002);
    double hi = 0, lo = INFINITY;
    for (int i = 0; i < n; i++)
        if (isfinite(g[i])) {
            hi = fmax(hi, g[i]);
            lo = fmin(lo, g[i]);
        }
    if (!(hi > 0))
        return;
    fprintf(f, "each CPU now (FP32 FMA, one core, best of 20 windows of 2 ms):\n");
    for (int i = 0; i < n; i++)
        if (isfinite(g[i]))
            fprintf(f, "  cpu %-4d %10.4g GFLOP/s  %5.2fx the fastest\n", cpu[i], g[i], g[i] / hi);
    if (n > 1 && hi / lo - 1 > CPU_SPEED_DIFFER)
        fprintf(f, "warning: the CPUs differ in speed by %.0f%%: one-thread trials take their "
                   "blocks on every CPU in turn; compare whole runs, several a side, or pin "
                   "with `affinity` (doc/timing.md#the-speed-of-each-cpu)\n",
                100 * (hi / lo - 1));
}

int cmd_machine_main(int nargs, char **args)
{
    static const opts_cmd k = {"machine", machine_options, 0, machine_usage};
    int flags[M_JSON + 1] = {0};
    int rc = opts_parse(&k, nargs, args, machine_option, flags);
    if (rc >= 0)
        return rc;
    int show = flags[M_SHOW], reprobe = flags[M_REPROBE], json = flags[M_JSON];
    if (show && reprobe) {
        fprintf(stderr, "runner: machine: --show probes nothing; --reprobe probes: not both\n");
        return EXIT_INVALID;
    }
    char err[1024] = "";
    ceilings *c;
    if (show) {
        if (!(c = machine_cached(err, sizeof err))) {
            fprintf(stderr, "runner: machine: %s; `runner machine` probes them\n", err);
            return EXIT_INVALID;
        }
    } else {
        int probed;
        strbuf notes = {0};
        c = machine_ceilings(reprobe, &probed, &notes, err, sizeof err);
        if (!c) {
            fprintf(stderr, "runner: machine: %s\n", err);
            sb_free(&notes);
            return EXIT_TRIALS_FAILED;
        }
        if (notes.len)
            fprintf(stderr, "%s%s", notes.s, notes.s[notes.len - 1] == '\n' ? "" : "\n");
        sb_free(&notes);
    }
    if (json) {
        char *j = ceilings_json(c);
        printf("%s\n", j);
        free(j);
    } else {
        print_table(c, stdout);
        if (!show) /* --show probes nothing */
            print_speeds(stdout);
    }
    ceilings_free(c);
    return EXIT_OK;
}
