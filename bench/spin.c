/* spin.c - a program that runs for a given time and ends: `spin MS` keeps
 * one core busy for MS milliseconds of wall time (CLOCK_MONOTONIC), then
 * exits 0.  The "2 ms C program" of bench/exec-vs-hyperfine.sh. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    double ms = argc > 1 ? atof(argv[1]) : 2.0, end = now() + ms * 1e-3;
    volatile unsigned long x = 0;
    while (now() < end)
        x++;
    return 0;
}
