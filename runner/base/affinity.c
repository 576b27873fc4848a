/* affinity.c - see affinity.h.  Why pin: issue 16 saw 2-thread trials
 * stall 4-48 ms while the scheduler moved their threads around a shared
 * 2-core machine; pinning makes where a trial ran a stated parameter. */
#include "base/affinity.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses "0,2-3" into set; -1 when malformed. */
static int parse_list(const char *s, cpu_set_t *set)
{
    CPU_ZERO(set);
    if (!*s)
        return -1;
    while (*s) {
        char *end;
        if (*s < '0' || *s > '9')
            return -1;
        long a = strtol(s, &end, 10), b = a;
        s = end;
        if (*s == '-') {
            if (s[1] < '0' || s[1] > '9')
                return -1;
            b = strtol(s + 1, &end, 10);
            s = end;
        }
        if (a > b || b >= CPU_SETSIZE)
            return -1;
        for (long c = a; c <= b; c++)
            CPU_SET((int)c, set);
        if (*s == ',')
            s++;
        else if (*s)
            return -1;
    }
    return 0;
}

int affinity_syntax_ok(const char *spec)
{
    cpu_set_t s;
    return !strcmp(spec, "none") || !strcmp(spec, "compact") || parse_list(spec, &s) == 0;
}

int affinity_resolve(const char *spec, int threads, cpu_set_t *set, char *err, size_t len)
{
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) < 0)
        for (int c = 0; c < 2; c++)
            CPU_SET(c, &allowed);
    if (!strcmp(spec, "none")) {
        *set = allowed;
        return 0;
    }
    if (!strcmp(spec, "compact")) {
        CPU_ZERO(set);
        int n = 0;
        for (int c = 0; c < CPU_SETSIZE && n < (threads > 0 ? threads : 1); c++)
            if (CPU_ISSET(c, &allowed)) {
                CPU_SET(c, set);
                n++;
            }
        return 1;
    }
    if (parse_list(spec, set) < 0) {
        snprintf(err, len, "affinity '%s': not none, compact or a CPU list such as 0,2-3", spec);
        return -1;
    }
    cpu_set_t out;
    CPU_AND(&out, set, &allowed);
    if (!CPU_EQUAL(&out, set)) {
        char a[256];
        affinity_format(&allowed, a, sizeof a);
        snprintf(err, len, "affinity %s names CPUs this process may not use (it may use %s)", spec,
                 a);
        return -1;
    }
    return 1;
}

void affinity_format(const cpu_set_t *set, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, set))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
            e++;
        int n = e > c ? snprintf(buf + k, len - k, "%s%d-%d", k ? "," : "", c, e)
                      : snprintf(buf + k, len - k, "%s%d", k ? "," : "", c);
        if (n < 0 || (size_t)n >= len - k)
            break;
        k += (size_t)n;
        c = e;
    }
}

void affinity_apply(const cpu_set_t *set, int threads, int pin)
{
    int cpus[CPU_SETSIZE], n = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, set))
            cpus[n++] = c;
    if (!n)
        return;
    sched_setaffinity(0, sizeof *set, set);
    if (threads < 1)
        threads = 1;
#pragma omp parallel num_threads(threads)
    {
        cpu_set_t one;
        if (pin) {
            CPU_ZERO(&one);
            CPU_SET(cpus[omp_get_thread_num() % n], &one);
        } else {
            one = *set;
        }
        sched_setaffinity(0, sizeof one, &one);
    }
    /* the calling thread (OpenMP's thread 0) gets the whole set back: the
     * threads it starts later, OpenBLAS's pool among them, inherit its mask,
     * and one CPU would serialise them (the worker is new: supervisor.c) */
    sched_setaffinity(0, sizeof *set, set);
}
