/*
 * The collective helpers of the OpenSHMEM benchmarks (bench.h): ending the
 * job with a message, PE 0's value broadcast to every PE, and the state
 * every kernel reads.  Plain OpenSHMEM: builds with oshcc too.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* clock_gettime under oshcc -std=c11 */
#endif

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <shmem.h>

#include "bench.h"

bench_env_t bench_env;
volatile long bench_sink;
const char *bench_prog = "xgas-bench";

static long bench_bcast_word; /* a global: symmetric in every library */

void bench_die(const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt); /* %m still sees the caller's errno */
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    /* one write, so that the PEs' messages do not interleave */
    fprintf(stderr, "%s: PE %d: %s\n", bench_prog, bench_env.me, msg);
    shmem_global_exit(1);
    exit(1);
}

size_t bench_size_option(const char *arg, const char *name)
{
    size_t v = bench_parse_size(arg);

    if (v == 0) {
        bench_die("%s %s: expected a positive size such as 4096, 64K or 1M",
                  name, arg);
    }
    return v;
}

long bench_bcast(long value)
{
    if (bench_env.me == 0) {
        bench_bcast_word = value;
    }
    shmem_barrier_all();
    if (bench_env.me != 0) {
        value = shmem_long_g(&bench_bcast_word, 0);
    }
    shmem_barrier_all();
    return value;
}

/*
 * Quadruples a trial count while a run is shorter than an eighth of the
 * budget, or shorter than the budget but not yet growing with the count (a
 * fixed cost per run, such as a barrier, still dominates), then scales it.
 * A run longer than an eighth of the budget is repeated and the faster of
 * the two counts, so that one run slowed down by the scheduler neither
 * stops the search early nor makes the count tiny.  PE 0 decides; the
 * others follow its broadcast.
 */
long bench_calibrate(bench_once_fn once, void *ctx, double budget)
{
    double scaled;
    long iters = 1, next;
    uint64_t ns, again, prev = 0;
    int proportional;

    for (;;) {
        ns = once(ctx, iters);
        if (bench_bcast((double)ns * 8.0 >= budget)) {
            again = once(ctx, iters);
            ns    = (again < ns) ? again : ns;
        }
        next = 0;
        if (bench_env.me == 0) {
            proportional = (prev > 0) && ((double)ns >= 2.5 * (double)prev);
            if ((((double)ns * 8.0 < budget) ||
                 (!proportional && ((double)ns < budget))) &&
                (iters < BENCH_ITERS_MAX / 4)) {
                next = iters * 4;
            } else {
                scaled = (double)iters * budget / (double)(ns > 0 ? ns : 1);
                scaled = (scaled < 1.0) ? 1.0 : scaled;
                scaled = (scaled > (double)BENCH_ITERS_MAX)
                             ? (double)BENCH_ITERS_MAX
                             : scaled;
                next   = -(long)scaled;
            }
        }
        next = bench_bcast(next);
        if (next < 0) {
            return -next;
        }
        prev  = ns;
        iters = next;
    }
}
