/* cmd_list.c - `runner list workloads` and `runner list devices`. */
#include "experiment/registry/backends.h"
#include "cli/commands.h"
#include "results/rundir/meta.h"
#include "experiment/trial.h"
#include "base/util.h"
#include "experiment/registry/workloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int list_workloads(void)
{
    char why[512];
    const rn_backend *cpu = backend_for(RN_DEV_CPU, why, sizeof why);
    const rn_backend *cuda = backend_for(RN_DEV_CUDA, why, sizeof why);
    printf("%-12s %-6s %-6s %-18s %s\n", "WORKLOAD", "CPU", "CUDA", "DTYPES", "SIZE IS / PARAMETERS");
    const workload_desc *w;
    for (int i = 0; (w = workload_at(i)); i++) {
        /* concurrent runs its members on their own backends */
        int on_cpu = cpu && (w->core || cpu->workload(w->name));
        int on_cuda = cuda && (w->core || cuda->workload(w->name));
        printf("%-12s %-6s %-6s %-18s %s\n", w->name, on_cpu ? "yes" : "-", on_cuda ? "yes" : "-",
               w->dtypes, w->size_means);
        for (const param_spec *p = w->params; p->name; p++) {
            if (p->dflt)
                printf("%-46s %s: %s (default %s)\n", "", p->name, p->help, p->dflt);
            else
                printf("%-46s %s: %s\n", "", p->name, p->help);
        }
    }
    printf("\nlua:FILE     custom workloads in Lua (see doc/lua.md)\n");
    printf("command      your own program, started per call or kept running "
           "(see doc/own-code.md)\n");
    printf("plugin:LIB.so:NAME  your own C, C++ or CUDA code (see doc/own-code-plugins.md)\n");
    if (!cuda)
        printf("CUDA: %s\n", why);
    return EXIT_OK;
}

static int list_devices(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512], model[256] = "unknown CPU";
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
            snprintf(model, sizeof model, "%s", strchr(line, ':') + 2);
            model[strcspn(model, "\n")] = '\0';
            break;
        }
    if (f)
        fclose(f);
    char why[512];
    const rn_backend *cpu = backend_for(RN_DEV_CPU, why, sizeof why);
    rn_device_info di;
    memset(&di, 0, sizeof di);
    if (cpu)
        cpu->device_info(0, &di);
    char mem[32];
    fmt_bytes(mem, sizeof mem, di.memory_bytes);
    printf("cpu      %s, %d cores, %s memory\n", model, host_cpus(), mem);
    const rn_backend *cuda = backend_for(RN_DEV_CUDA, why, sizeof why);
    if (!cuda) {
        printf("cuda     none: %s\n", why);
        return EXIT_OK;
    }
    int n = cuda->device_count();
    if (n == 0)
        printf("cuda     none: no CUDA device\n");
    for (int i = 0; i < n; i++) {
        memset(&di, 0, sizeof di);
        cuda->device_info(i, &di);
        fmt_bytes(mem, sizeof mem, di.memory_bytes);
        printf("cuda:%-3d %s, %s memory, %s\n", i, di.name, mem, di.detail);
    }
    return EXIT_OK;
}

int cmd_list(const cli *c)
{
    return !strcmp(c->files[0], "workloads") ? list_workloads() : list_devices();
}
