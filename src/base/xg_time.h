/* Monotonic time for timeouts and benchmarks (never used for correctness). */
#ifndef XG_TIME_H
#define XG_TIME_H

#include <stdint.h>
#include <time.h>

static inline uint64_t xg_time_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static inline double xg_time_sec(void)
{
    return (double)xg_time_ns() * 1e-9;
}

#endif
