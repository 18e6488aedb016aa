/*
 * Atomicity under contention: all PEs hammer the same objects on PE 0.
 *   - atomic_add, atomic_inc and a compare_swap retry loop: the counters end
 *     at exactly npes * ITERS;
 *   - fetch_inc: the values returned over all PEs are exactly
 *     0 .. npes * ITERS - 1, each once, and rise on each PE;
 *   - fetch_add with a per-PE amount: the sum is exact;
 *   - atomic_xor: each PE flips its own bit an odd number of times;
 *   - a compare_swap race, ROUNDS times: exactly one PE wins each round and
 *     every PE agrees on which.
 */
#include <shmem.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xg_test.h"

#define ITERS  20000
#define ROUNDS 100

struct counters {
    long add;
    uint64_t inc;
    int fetch_inc;
    int32_t fetch_add;
    uint32_t cswap;
    uint64_t bits;
    int winner;
    long wins;
};

int main(void)
{
    struct counters *c;
    int *seen_values, *mine;
    unsigned char *seen;
    int me, npes, i, r, total;
    uint64_t bits;
    long sum;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    if (npes > 63) {
        return XG_TEST_SKIP; /* one bit per PE in a uint64_t */
    }
    total       = npes * ITERS;
    c           = shmem_calloc(1, sizeof(*c));
    seen_values = shmem_malloc((size_t)total * sizeof(int));
    mine        = malloc(ITERS * sizeof(int));
    XG_CHECK((c != NULL) && (seen_values != NULL) && (mine != NULL),
             "allocation");
    shmem_barrier_all();

    for (i = 0; i < ITERS; i++) {
        uint32_t old, seen_old;

        shmem_long_atomic_add(&c->add, 1, 0);
        shmem_uint64_atomic_inc(&c->inc, 0);
        mine[i] = shmem_int_atomic_fetch_inc(&c->fetch_inc, 0);
        shmem_int32_atomic_fetch_add(&c->fetch_add, me + 1, 0);
        shmem_uint64_atomic_xor(&c->bits, (uint64_t)1 << me, 0);
        /* increment by compare_swap: retry until no one came between */
        old = shmem_uint32_atomic_fetch(&c->cswap, 0);
        while ((seen_old = shmem_uint32_atomic_compare_swap(
                    &c->cswap, old, old + 1, 0)) != old) {
            old = seen_old;
        }
    }
    for (i = 1; i < ITERS; i++) {
        XG_CHECK(mine[i] > mine[i - 1], "fetch_inc went from %d to %d",
                 mine[i - 1], mine[i]);
    }
    shmem_int_put(seen_values + me * ITERS, mine, ITERS, 0);
    shmem_barrier_all();

    if (me == 0) {
        sum = (long)ITERS * npes * (npes + 1) / 2;
        XG_CHECK(c->add == total, "atomic_add: %ld, expected %d", c->add,
                 total);
        XG_CHECK(c->inc == (uint64_t)total, "atomic_inc: %llu, expected %d",
                 (unsigned long long)c->inc, total);
        XG_CHECK(c->fetch_inc == total, "fetch_inc counter: %d, expected %d",
                 c->fetch_inc, total);
        XG_CHECK(c->fetch_add == sum, "fetch_add: %d, expected %ld",
                 (int)c->fetch_add, sum);
        XG_CHECK(c->cswap == (uint32_t)total,
                 "compare_swap loop: %u, "
                 "expected %d",
                 c->cswap, total);
        XG_CHECK(c->bits == 0, "xor of an even count left %#llx",
                 (unsigned long long)c->bits);
        seen = calloc((size_t)total, 1);
        XG_CHECK(seen != NULL, "calloc");
        for (i = 0; i < total; i++) {
            XG_CHECK((seen_values[i] >= 0) && (seen_values[i] < total) &&
                         !seen[seen_values[i]],
                     "fetch_inc value %d returned "
                     "twice or out of range",
                     seen_values[i]);
            seen[seen_values[i]] = 1;
        }
        free(seen);
    }
    shmem_barrier_all();

    /* one more flip each: every PE's bit is now set */
    shmem_uint64_atomic_xor(&c->bits, (uint64_t)1 << me, 0);
    shmem_barrier_all();
    bits = shmem_uint64_atomic_fetch(&c->bits, 0);
    XG_CHECK(bits == ((uint64_t)1 << npes) - 1, "xor bits: %#llx",
             (unsigned long long)bits);

    for (r = 0; r < ROUNDS; r++) {
        int won, winner;

        if (me == 0) {
            shmem_int_atomic_set(&c->winner, -1, 0);
        }
        shmem_barrier_all();
        won = (shmem_int_atomic_compare_swap(&c->winner, -1, me, 0) == -1);
        if (won) {
            shmem_long_atomic_inc(&c->wins, 0);
        }
        shmem_barrier_all();
        winner = shmem_int_atomic_fetch(&c->winner, 0);
        XG_CHECK((winner >= 0) && (winner < npes), "round %d: winner %d", r,
                 winner);
        XG_CHECK(won == (winner == me), "round %d: won=%d but winner is %d", r,
                 won, winner);
        XG_CHECK(shmem_long_atomic_fetch(&c->wins, 0) == r + 1,
                 "round %d: "
                 "%ld wins so far",
                 r, shmem_long_atomic_fetch(&c->wins, 0));
        shmem_barrier_all();
    }

    free(mine);
    shmem_free(seen_values);
    shmem_free(c);
    shmem_finalize();
    return 0;
}
