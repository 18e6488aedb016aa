/*
 * speed.c: the machine's benchmark kernels (run with --stats; numbers
 * only, nothing timed is checked):
 *   loop N   a load/store-heavy loop over a 32 KiB array
 *   remote N N 8-byte xBGAS loads (eld) from the next PE, timed (wall
 *            and the process's CPU time)
 */
#include <string.h>
#include <time.h>

#include "guest.h"

static uint64_t arr[4096];
static uint64_t cell;

static double now_on(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now(void)
{
    return now_on(CLOCK_MONOTONIC);
}

static uint64_t loop(long iters)
{
    uint64_t sum = 0;
    for (long it = 0; it < iters; it++) {
        for (unsigned i = 1; i < 4096; i++) {
            uint64_t v = arr[i] + arr[i - 1];
            arr[i]     = v ^ (uint64_t)it;
            sum += v;
        }
    }
    return sum;
}

static void remote(long iters)
{
    uint64_t ns = xbgas_ns((guest_me + 1) % guest_npes), sum = 0;
    cell = 1;
    guest_barrier();
    double t0 = now(), c0 = now_on(CLOCK_PROCESS_CPUTIME_ID);
    for (long i = 0; i < iters; i++) {
        sum += xbgas_eld(ns, &cell);
    }
    double t = now() - t0, c = now_on(CLOCK_PROCESS_CPUTIME_ID) - c0;
    CHECK_EQ(sum, (uint64_t)iters);
    printf("PE %d: remote eld: %.1f ns per load, %.1f ns of CPU (%ld "
           "loads)\n",
           guest_me, t / (double)iters * 1e9, c / (double)iters * 1e9, iters);
    /* two loads per iteration: the difference is one eaddie + eld + add */
    c0 = now_on(CLOCK_PROCESS_CPUTIME_ID);
    for (long i = 0; i < iters; i++) {
        sum += xbgas_eld(ns, &cell);
        sum += xbgas_eld(ns, &cell + 0 * i);
    }
    double c2 = now_on(CLOCK_PROCESS_CPUTIME_ID) - c0;
    CHECK_EQ(sum, 3 * (uint64_t)iters);
    printf("PE %d: one more remote eld: %.1f ns of CPU\n", guest_me,
           (c2 - c) / (double)iters * 1e9);
    guest_barrier();
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "loop";
    long n           = argc > 2 ? atol(argv[2]) : 100;
    if (strcmp(what, "remote") == 0) {
        remote(n);
        return 0;
    }
    double t0  = now();
    uint64_t s = loop(n);
    printf("PE %d: loop %ld: sum %llx, %.3f s\n", guest_me, n,
           (unsigned long long)s, now() - t0);
    return 0;
}
