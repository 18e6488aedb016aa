/*
 * gups.c: a GUPS-style random-access kernel written with xBGAS
 * instructions: each PE applies `updates` xor updates (eamoxor.d) to
 * random words of a table spread over all PEs, then every PE checks its
 * part by replaying every PE's random stream.  Prints the update rate
 * measured in the guest (a benchmark figure, never checked).
 * Usage: gups.rv64 [log2 words per PE (12)] [updates per PE (20000)]
 */
#include <time.h>

#include "guest.h"

#define MAX_LOG 16
static uint64_t table[1u << MAX_LOG];
static uint64_t expect[1u << MAX_LOG];

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static uint64_t seed_of(int pe)
{
    return 0x9e3779b97f4a7c15ull * (pe + 1);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int logn     = argc > 1 ? atoi(argv[1]) : 12;
    long updates = argc > 2 ? atol(argv[2]) : 20000;
    CHECK(logn >= 1 && logn <= MAX_LOG && updates > 0);
    uint64_t n = 1ull << logn, npes = (uint64_t)guest_npes;
    for (uint64_t i = 0; i < n; i++) {
        table[i] = expect[i] = i + ((uint64_t)guest_me << 32);
    }
    guest_barrier();
    double t0  = now();
    uint64_t s = seed_of(guest_me);
    for (long u = 0; u < updates; u++) {
        uint64_t r = next_rand(&s), word = (r >> 8) % (n * npes);
        xbgas_eamoxor_d(xbgas_ns((int)(word / n)), &table[word % n], r);
    }
    guest_barrier();
    double t = now() - t0;
    for (int pe = 0; pe < guest_npes; pe++) {
        uint64_t ps = seed_of(pe);
        for (long u = 0; u < updates; u++) {
            uint64_t r = next_rand(&ps), word = (r >> 8) % (n * npes);
            if (word / n == (uint64_t)guest_me) {
                expect[word % n] ^= r;
            }
        }
    }
    for (uint64_t i = 0; i < n; i++) {
        CHECK_EQ(table[i], expect[i]);
    }
    guest_barrier();
    if (guest_me == 0) {
        printf("gups: %d PEs, %llu words, %ld updates per PE: verified; "
               "%.3f s, %.2f M updates/s\n",
               guest_npes, (unsigned long long)(n * npes), updates, t,
               (double)updates * (double)npes / t / 1e6);
    }
    return 0;
}
