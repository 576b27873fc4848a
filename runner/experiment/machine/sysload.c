/* sysload.c - see sysload.h.  Why: issue 16 measured matmul 2.7-5.5x slower with
 * another process on 1.6 of 2 cores, every trial reported ok; a trial must
 * say that its machine was busy (doc/timing.md#load). */
#include "experiment/machine/sysload.h"

#include "base/util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static double tv(struct timeval t)
{
    return (double)t.tv_sec + (double)t.tv_usec * 1e-6;
}

/* utime + stime of a live process and of the children it waited for
 * (cutime + cstime: the processes of `parallel: processes`,
 * doc/timing.md#processes-and-threads), in seconds; -1 when unreadable */
static double proc_cpu(pid_t pid)
{
    char p[64], buf[1024];
    snprintf(p, sizeof p, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(p, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* after the ") " that closes the command name: fields 3 .. ; utime, stime,
     * cutime, cstime are 14 to 17 */
    char *s = strrchr(buf, ')');
    unsigned long long ut, st;
    long long cut, cst;
    if (!s || sscanf(s + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld", &ut,
                     &st, &cut, &cst) != 4)
        return -1;
    return (double)(ut + st + (unsigned long long)(cut + cst)) / (double)sysconf(_SC_CLK_TCK);
}

/* The CPU time of pid's live descendants (depth levels down), each with the
 * children it reaped: a persistent program the worker started is the
 * trial's own work, not another process's load (without it, a Python
 * function's trials on an idle machine read other_cpu 1.0 and `busy`).
 * /proc/PID/task/PID/children lists a process's children; a kernel
 * without it gives 0, as before. */
static double tree_cpu(pid_t pid, int depth)
{
    char p[64], buf[1024];
    snprintf(p, sizeof p, "/proc/%d/task/%d/children", (int)pid, (int)pid);
    FILE *f = fopen(p, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    double sum = 0;
    char *save = NULL;
    for (char *w = strtok_r(buf, " \n", &save); w; w = strtok_r(NULL, " \n", &save)) {
        pid_t c = (pid_t)atol(w);
        double v = c > 0 ? proc_cpu(c) : -1;
        if (v > 0)
            sum += v;
        if (c > 0 && depth > 1)
            sum += tree_cpu(c, depth - 1);
    }
    return sum;
}

/* A fresh reading of /proc/stat, the runner's rusage and the worker's
 * /proc/PID/stat (its live descendants too) into *s. */
static void snap_read(load_snap *s, pid_t worker, double t)
{
    memset(s, 0, sizeof *s);
    s->t = t;
    FILE *f = fopen("/proc/stat", "r");
    if (f) {
        unsigned long long v[10] = {0};
        int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
                       &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
        fclose(f);
        if (n >= 8) {
            /* user nice system idle iowait irq softirq steal (guest is inside user) */
            s->busy = v[0] + v[1] + v[2] + v[5] + v[6];
            s->steal = v[7];
            s->total = s->busy + v[3] + v[4] + v[7];
            s->ok = 1;
        }
    }
    struct rusage me, kids;
    getrusage(RUSAGE_SELF, &me);
    getrusage(RUSAGE_CHILDREN, &kids);
    s->self = tv(me.ru_utime) + tv(me.ru_stime) + tv(kids.ru_utime) + tv(kids.ru_stime);
    s->worker = worker;
    s->worker_cpu = worker > 0 ? proc_cpu(worker) : 0;
    if (s->worker_cpu < 0)
        s->worker_cpu = 0;
    else if (worker > 0)
        s->worker_cpu += tree_cpu(worker, 3);
}

/* A snapshot within LOAD_STAT_EVERY of the last reading, of the same
 * worker, is that reading, its time included: the interval a trial's load
 * columns cover begins and ends at readings, at most one clock tick before
 * the trial's start and end (doc/timing.md#load).  Reading /proc/stat and
 * /proc/PID/stat twice a trial was 40 % of the runner's CPU time for
 * one-sample noop trials (bench/runner.sh, issue 38), and counts in ticks
 * that a shorter interval cannot see anyway. */
void load_snap_take(load_snap *s, pid_t worker)
{
    static load_snap last;
    static int have;
    double t = now_seconds();
    if (have && last.worker == worker && t >= last.t && t - last.t < LOAD_STAT_EVERY) {
        *s = last;
        return;
    }
    snap_read(s, worker, t);
    last = *s;
    have = 1;
}

static double read_num(const char *dir, const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "r");
    double v = -1;
    if (f) {
        if (fscanf(f, "%lf", &v) != 1)
            v = -1;
        fclose(f);
    }
    return v;
}

static double loadavg1(void)
{
    return read_num("/proc", "loadavg");
}

/* The load average and the frequencies (1 when a frequency is known), read
 * at most every LOAD_MHZ_EVERY seconds, an interval ending sooner after the
 * last reading reusing it: reading them cost 49 us of the runner's 177 us
 * per trial of a one-sample noop (bench/runner.sh, 2-core VM: a scan of
 * /sys/devices/system/cpu, then /proc/cpuinfo, whose text the kernel builds
 * for every CPU); the load average is a 1-minute mean anyway. */
static int machine_recent(double t, double *loadavg, double *cur, double *max)
{
    static double at = -1, l, c, m;
    static int known;
    if (at < 0 || t - at >= LOAD_MHZ_EVERY || t < at) {
        l = loadavg1();
        known = load_cpu_mhz("/sys/devices/system/cpu", "/proc/cpuinfo", &c, &m);
        at = t;
    }
    *loadavg = l;
    *cur = c;
    *max = m;
    return known;
}

void load_add(load_sum *sum, const load_snap *a, const load_snap *b)
{
    if (!a->ok || !b->ok || b->total < a->total)
        return;
    double hz = (double)sysconf(_SC_CLK_TCK);
    /* a worker started during the interval had used nothing before it */
    double wa = a->worker == b->worker ? a->worker_cpu : 0;
    double self = (b->self - a->self) + (b->worker_cpu - wa);
    double other = (double)(b->busy - a->busy) / hz - self;
    sum->wall += b->t - a->t;
    sum->other += other > 0 ? other : 0;
    sum->steal += (double)(b->steal - a->steal);
    sum->total += (double)(b->total - a->total);
    double l, cur, max;
    int known = machine_recent(b->t, &l, &cur, &max);
    if (l > sum->loadavg)
        sum->loadavg = l;
    if (known)
        load_add_mhz(sum, cur, max);
    sum->n++;
}

void load_add_mhz(load_sum *sum, double cur, double max)
{
    if (cur > 0 && (sum->mhz <= 0 || cur < sum->mhz))
        sum->mhz = cur;
    if (max > sum->max_mhz)
        sum->max_mhz = max;
}


int load_cpu_mhz(const char *sysdir, const char *cpuinfo, double *cur, double *max)
{
    *cur = *max = 0;
    DIR *d = opendir(sysdir);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d))) {
            int k;
            char tail;
            if (sscanf(de->d_name, "cpu%d%c", &k, &tail) != 1)
                continue;
            char p[400];
            snprintf(p, sizeof p, "%s/%s/cpufreq", sysdir, de->d_name);
            double c = read_num(p, "scaling_cur_freq"), m = read_num(p, "cpuinfo_max_freq");
            if (c > 0 && c / 1000 > *cur)
                *cur = c / 1000;
            if (m > 0 && m / 1000 > *max)
                *max = m / 1000;
        }
        closedir(d);
    }
    if (*cur > 0)
        return 1;
    *max = 0; /* a maximum without a current value says nothing */
    FILE *f = fopen(cpuinfo, "r");
    if (!f)
        return 0;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        double v;
        if (!strncmp(line, "cpu MHz", 7) && sscanf(strchr(line, ':') ? strchr(line, ':') + 1 : "",
                                                   "%lf", &v) == 1 && v > *cur)
            *cur = v;
    }
    fclose(f);
    return *cur > 0;
}

int load_throttled(const load_sum *s, char *why, size_t len)
{
    if (!(s->mhz > 0 && s->max_mhz > 0 && s->mhz < LOAD_THROTTLE_FRAC * s->max_mhz))
        return 0;
    snprintf(why, len, "throttled: fastest CPU at %.0f MHz, %.0f%% of its %.0f MHz maximum",
             s->mhz, 100 * s->mhz / s->max_mhz, s->max_mhz);
    return 1;
}

int load_busy(const load_sum *s, char *why, size_t len)
{
    if (!s->n || s->wall < LOAD_MIN_WALL)
        return 0;
    double cores = s->other / s->wall, steal = s->total > 0 ? s->steal / s->total : 0;
    if (cores >= LOAD_BUSY_CORES) {
        snprintf(why, len, "busy: other processes used %.2f cores", cores);
        return 1;
    }
    if (steal >= LOAD_BUSY_STEAL) {
        snprintf(why, len, "busy: %.0f%% of the CPU time stolen", 100 * steal);
        return 1;
    }
    return 0;
}
