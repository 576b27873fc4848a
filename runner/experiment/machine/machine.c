/* machine.c - see machine.h. */
#include "experiment/machine/machine.h"

#include "base/child.h"
#include "experiment/machine/probe_cpu.h"
#include "experiment/registry/backends.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* /etc/machine-id, else the host name: one cache file per machine, also
 * where home folders are shared between machines. */
char *machine_id(void)
{
    char *s = read_file("/etc/machine-id", NULL);
    if (s) {
        s[strcspn(s, " \t\r\n")] = '\0';
        if (*s && valid_file_stem(s))
            return s;
        free(s);
    }
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    for (char *p = host; *p; p++)
        if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-", *p))
            *p = '_';
    return xstrdup(host[0] && valid_file_stem(host) ? host : "unknown");
}

/* What must be the same for the cache to hold: a container image copies
 * /etc/machine-id to whatever it runs on. */
char *machine_fingerprint(void)
{
    char *ci = read_file("/proc/cpuinfo", NULL);
    char model[256] = "unknown CPU";
    char *p = ci ? strstr(ci, "model name") : NULL;
    if (p && (p = strchr(p, ':'))) {
        p += 1 + strspn(p + 1, " \t");
        snprintf(model, sizeof model, "%.*s", (int)strcspn(p, "\n"), p);
    }
    free(ci);
    cpu_set_t set;
    int n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    return xasprintf("%s; %d CPUs; CUDA_VISIBLE_DEVICES=%s", model, n, vis ? vis : "(unset)");
}

/* The probe's version, in the cache's name: a cache an older probe wrote is
 * not read (version 1 ran its all-core probes on one CPU:
 * doc/ceilings.md#the-ceilings). */
#define PROBE_VERSION 2

char *machine_cache_path(void)
{
    const char *x = getenv("XDG_CACHE_HOME");
    char *id = machine_id();
    char *p;
    if (x && x[0] == '/')
        p = xasprintf("%s/runner/ceilings-p%d-%s.json", x, PROBE_VERSION, id);
    else
        p = xasprintf("%s/.cache/runner/ceilings-p%d-%s.json",
                      getenv("HOME") ? getenv("HOME") : "/tmp", PROBE_VERSION, id);
    free(id);
    return p;
}

/* What the cache may hold: a few KiB of JSON. */
#define CACHE_MAX ((size_t)1 << 20)

/* machine_cached; *bad: the cache is there but not usable (not a regular
 * file, too long, not ceilings, or a figure no device has), which a run
 * warns about before it probes again. */
static ceilings *cached(char *why, size_t len, int *bad)
{
    char *path = machine_cache_path(), rwhy[160];
    /* a FIFO there blocked every run, a link to /dev/zero read until the
     * memory ran out (doc/ceilings.md#the-ceilings) */
    char *text = read_file_max(path, CACHE_MAX, NULL, rwhy, sizeof rwhy);
    int absent = !text && errno == ENOENT;
    ceilings *c = text ? ceilings_parse(text) : NULL;
    free(text);
    char *fp = machine_fingerprint(), cwhy[300];
    int ok = 0;
    *bad = !absent;
    if (absent)
        snprintf(why, len, "no ceilings cached for this machine (%s)", path);
    else if (!text)
        snprintf(why, len, "the ceilings cache %s is not read: %s", path, rwhy);
    else if (!c)
        snprintf(why, len, "the ceilings cache %s holds no ceilings", path);
    else if (!ceilings_fingerprint(c) || strcmp(ceilings_fingerprint(c), fp)) {
        snprintf(why, len, "the cached ceilings are another machine's (%s)", path);
        *bad = 0;
    } else if (ceilings_check(c, cwhy, sizeof cwhy) < 0)
        snprintf(why, len, "the ceilings cache %s is not used: %s", path, cwhy);
    else
        ok = 1, *bad = 0;
    if (!ok) {
        ceilings_free(c);
        c = NULL;
    }
    free(fp);
    free(path);
    return c;
}

ceilings *machine_cached(char *why, size_t len)
{
    int bad;
    return cached(why, len, &bad);
}

/* ---- the probe, in a child -------------------------------------------- */

static void cuda_ceiling(void *ctx, const char *what, double measured, double nominal,
                         const char *unit)
{
    void **a = ctx;
    ceilings_set(a[0], a[1], what, measured, nominal, unit);
}

static void probe_cuda(ceilings *c)
{
    char why[512];
    const rn_backend *b = backend_for(RN_DEV_CUDA, why, sizeof why);
    if (!b)
        return;
    int n = b->device_count();
    for (int i = 0; i < n; i++) {
        char dev[32];
        snprintf(dev, sizeof dev, "cuda:%d", i);
        rn_device_info di;
        memset(&di, 0, sizeof di);
        if (b->device_info(i, &di) == 0)
            ceilings_set_info(c, dev, "name", di.name);
        if (!b->ceilings) {
            ceilings_set_info(c, dev, "note", "its backend measures no ceilings");
            continue;
        }
        void *ctx[2] = {c, dev};
        char err[512] = "";
        if (b->ceilings(i, ctx, cuda_ceiling, err, sizeof err) != 0)
            ceilings_set_info(c, dev, "note", err);
    }
}

static void probe_child(int fd, const char *id, const char *fp)
{
    ceilings *c = ceilings_new(id, fp);
    cpu_probe p;
    cpu_probe_run(&p, 1);
    char t[64];
    char *ci = read_file("/proc/cpuinfo", NULL);
    char *m = ci ? strstr(ci, "model name") : NULL;
    if (m && (m = strchr(m, ':'))) {
        m += 1 + strspn(m + 1, " \t");
        m[strcspn(m, "\n")] = '\0';
        ceilings_set_info(c, "cpu", "name", m);
    }
    free(ci);
    ceilings_set_info(c, "cpu", "isa", p.isa);
    snprintf(t, sizeof t, "%d", p.cores);
    ceilings_set_info(c, "cpu", "cores", t);
    snprintf(t, sizeof t, "%.0f", p.clock_mhz);
    ceilings_set_info(c, "cpu", "clock_mhz", t);
    ceilings_set_info(c, "cpu", "clock_from", p.clock_from);
    snprintf(t, sizeof t, "%d", p.fma_bits);
    ceilings_set_info(c, "cpu", "fma_bits_per_cycle", t);
    snprintf(t, sizeof t, "%.2f", p.seconds);
    ceilings_set_info(c, "cpu", "probe_seconds", t);
    ceilings_set(c, "cpu", "fp32", p.fp32, p.nom_fp32, "GFLOP/s");
    ceilings_set(c, "cpu", "fp64", p.fp64, p.nom_fp64, "GFLOP/s");
    ceilings_set(c, "cpu", "fp32_1core", p.fp32_1core, p.nom_fp32_1core, "GFLOP/s");
    ceilings_set(c, "cpu", "fp64_1core", p.fp64_1core, p.nom_fp64_1core, "GFLOP/s");
    ceilings_set(c, "cpu", "bandwidth", p.bandwidth, NAN, "GB/s");
    ceilings_set(c, "cpu", "bandwidth_1core", p.bandwidth_1core, NAN, "GB/s");
    probe_cuda(c);
    char *j = ceilings_json(c);
    int rc = fd_write_all(fd, j, strlen(j));
    free(j);
    ceilings_free(c);
    _exit(rc == 0 ? 0 : 1);
}

typedef struct probe_arg {
    char *id, *fp;
} probe_arg;

static void probe_main(void *arg, int in, int out)
{
    const probe_arg *a = arg;
    (void)in;
    probe_child(out, a->id, a->fp);
}

ceilings *machine_probe(char *err, size_t len)
{
    char *id = machine_id(), *fp = machine_fingerprint();
    probe_arg a = {id, fp};
    child ch;
    pid_t pid = child_start(&ch, CHILD_OUT, probe_main, &a) < 0 ? -1 : ch.pid;
    int why = errno, st = 0;
    char *text = pid > 0 ? child_output(&ch, &st) : xstrdup("");
    free(id), free(fp);
    ceilings *c = pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? ceilings_parse(text) : NULL;
    if (!c) {
        if (pid < 0)
            snprintf(err, len, "cannot probe the machine: %s", strerror(why));
        else if (WIFSIGNALED(st))
            snprintf(err, len, "the probe of this machine died of signal %d", WTERMSIG(st));
        else
            snprintf(err, len, "the probe of this machine failed");
        free(text);
        return NULL;
    }
    char *path = machine_cache_path();
    char *dir = xstrdup(path);
    *strrchr(dir, '/') = '\0';
    if (make_dirs(dir) < 0 || write_file_atomic(path, text, strlen(text)) < 0)
        snprintf(err, len, "cannot write %s: %s", path, strerror(errno));
    else
        err[0] = '\0';
    free(dir), free(path), free(text);
    return c;
}

ceilings *machine_ceilings(int reprobe, int *probed, strbuf *notes, char *err, size_t len)
{
    char why[1024] = "";
    *probed = 0;
    int bad = 0;
    ceilings *c = reprobe ? NULL : cached(why, sizeof why, &bad);
    if (c)
        return c;
    if (bad)
        notes_printf(notes, "runner: warning: %s; probing the machine again\n", why);
    double t0 = now_seconds();
    c = machine_probe(err, len);
    *probed = c != NULL;
    if (c) {
        char *path = machine_cache_path();
        notes_printf(notes, "runner: ceilings: probed this machine in %.1f s%s%s (runner machine --show)\n",
                     now_seconds() - t0, err[0] ? "; " : ", cached in ", err[0] ? err : path);
        free(path);
    }
    return c;
}
