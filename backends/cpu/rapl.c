/* rapl.c - the CPU's energy counters: RAPL's package domains under
 * /sys/class/powercap (doc/ceilings.md#energy-per-call).  Each package
 * counts microjoules in energy_uj up to max_energy_range_uj, where it wraps
 * to 0; the runner undoes the wrap (run/exec/energy.c).  Other domains (core,
 * uncore, dram: intel-rapl:N:M) are parts of a package and are not added. */
#include "cpu.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POWERCAP "/sys/class/powercap"

/* a number from a sysfs file; -1 with errno when unreadable */
static int read_u64(const char *dir, const char *file, double *out)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s/%s", POWERCAP, dir, file);
    FILE *f = fopen(p, "r");
    if (!f)
        return -1;
    unsigned long long v;
    int ok = fscanf(f, "%llu", &v) == 1;
    int saved = errno;
    fclose(f);
    errno = ok ? 0 : saved ? saved : EIO;
    if (!ok)
        return -1;
    *out = (double)v;
    return 0;
}

int cpu_energy(int dev, rn_energy *e, char *why, size_t len)
{
    (void)dev;
    DIR *d = opendir(POWERCAP);
    if (!d) {
        snprintf(why, len, "no RAPL on this machine (%s is absent)", POWERCAP);
        return 1;
    }
    char names[RN_ENERGY_COUNTERS][256];
    int n = 0;
    for (struct dirent *de; (de = readdir(d)) && n < RN_ENERGY_COUNTERS;) {
        /* intel-rapl:N, the packages (AMD's RAPL appears under this name too) */
        const char *s = de->d_name;
        if (strncmp(s, "intel-rapl:", 11) || strchr(s + 11, ':'))
            continue;
        snprintf(names[n++], sizeof names[0], "%s", s);
    }
    closedir(d);
    if (n == 0) {
        snprintf(why, len, "no RAPL on this machine (no package domain in %s)", POWERCAP);
        return 1;
    }
    memset(e, 0, sizeof *e);
    for (int i = 0; i < n; i++) {
        double uj, range;
        if (read_u64(names[i], "energy_uj", &uj) < 0) {
            snprintf(why, len, "RAPL is not readable: %s/%s/energy_uj: %s%s", POWERCAP, names[i],
                     strerror(errno),
                     errno == EACCES ? " (root only since Linux 5.10; a udev rule or chmod opens it)"
                                     : "");
            return 1;
        }
        if (read_u64(names[i], "max_energy_range_uj", &range) < 0)
            range = 0;
        e->joules[i] = uj * 1e-6;
        e->wrap[i] = range > 0 ? (range + 1) * 1e-6 : 0;
    }
    e->n = n;
    e->resolution = 1e-6 * 61; /* the usual energy unit, 2^-14 J */
    e->update = 1e-3;          /* RAPL updates about every millisecond */
    e->scope = "package";
    return 0;
}
