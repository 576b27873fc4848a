/* cpuspeed.c - see cpuspeed.h. */
#include "experiment/machine/cpuspeed.h"

#include "experiment/machine/probe_cpu.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>

double cpu_speed_on(int cpu, int reps, double window)
{
    cpu_set_t old, one;
    if (cpu < 0 || cpu >= CPU_SETSIZE ||
        pthread_getaffinity_np(pthread_self(), sizeof old, &old) != 0)
        return NAN;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (pthread_setaffinity_np(pthread_self(), sizeof one, &one) != 0)
        return NAN;
    sched_yield(); /* moved before the first window */
    double g = cpu_probe_here(reps, window);
    pthread_setaffinity_np(pthread_self(), sizeof old, &old);
    return g;
}

int cpu_speed_each(int *cpu, double *gflops, int max, int reps, double window)
{
    cpu_set_t set;
    int n = 0;
    if (pthread_getaffinity_np(pthread_self(), sizeof set, &set) != 0)
        return 0;
    for (int c = 0; c < CPU_SETSIZE && n < max; c++)
        if (CPU_ISSET(c, &set)) {
            cpu[n] = c;
            gflops[n++] = cpu_speed_on(c, reps, window);
        }
    return n;
}
