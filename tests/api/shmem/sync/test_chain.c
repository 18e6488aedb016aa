/*
 * A producer/consumer chain around the ring of PEs.  In each round PE 0
 * starts a block of data; every PE waits for the previous PE's flag, checks
 * the block it received, adds its own contribution and passes it on (put
 * the data, shmem_fence, then set the next PE's flag).  The block comes
 * back to PE 0, which checks it and starts the next round.
 *
 * What it shows: wait_until returns only after the flag was written, and
 * the data put before the flag (ordered by the fence) is visible after the
 * wait, with the exact values.  A second chain uses atomic_set for the flag
 * and shmem_signal_wait_until to wait, checking the value it returns.  The
 * token passing orders everything, so nothing depends on timing: a PE's
 * buffer is only rewritten in the next round, which starts after the PE
 * passed this round on.
 */
#include <shmem.h>

#include "xg_test.h"

#define ROUNDS 200
#define WORDS  64

static long block[WORDS];
static long flag;
static uint64_t signal_word;

static int me, npes, next;

/* What PE @pe receives in round @r: every PE before it added pe + 1. */
static long expected(int r, int k, int pe)
{
    return (long)r * 1000 + k + (long)pe * (pe + 1) / 2;
}

static void check_block(int r, int from_pes)
{
    int k;

    for (k = 0; k < WORDS; k++) {
        XG_CHECK(block[k] == expected(r, k, from_pes),
                 "round %d word %d: %ld, expected %ld", r, k, block[k],
                 expected(r, k, from_pes));
    }
}

static void pass_on(void)
{
    long out[WORDS];
    int k;

    for (k = 0; k < WORDS; k++) {
        out[k] = block[k] + me + 1;
    }
    shmem_long_put(block, out, WORDS, next);
    shmem_fence();
}

static void chain_flag(void)
{
    int r, k;

    for (r = 0; r < ROUNDS; r++) {
        if (me == 0) {
            for (k = 0; k < WORDS; k++) {
                block[k] = expected(r, k, 0);
            }
        } else {
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r + 1);
            check_block(r, me);
        }
        pass_on();
        shmem_long_p(&flag, r + 1, next);
        if (me == 0) {
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r + 1);
            check_block(r, npes);
        }
    }
}

static void chain_signal(void)
{
    uint64_t seen;
    int r, k;

    for (r = 0; r < ROUNDS; r++) {
        if (me == 0) {
            for (k = 0; k < WORDS; k++) {
                block[k] = expected(r, k, 0);
            }
        } else {
            seen = shmem_signal_wait_until(&signal_word, SHMEM_CMP_GE,
                                           (uint64_t)r + 1);
            XG_CHECK(seen == (uint64_t)r + 1, "signal %llu in round %d",
                     (unsigned long long)seen, r);
            check_block(r, me);
        }
        pass_on();
        shmem_uint64_atomic_set(&signal_word, (uint64_t)r + 1, next);
        if (me == 0) {
            seen = shmem_signal_wait_until(&signal_word, SHMEM_CMP_GE,
                                           (uint64_t)r + 1);
            XG_CHECK(seen == (uint64_t)r + 1, "signal %llu in round %d",
                     (unsigned long long)seen, r);
            check_block(r, npes);
        }
    }
}

int main(void)
{
    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    next       = (me + 1) % npes;
    xg_test_pe = me;

    chain_flag();
    shmem_barrier_all();
    chain_signal();

    shmem_finalize();
    return XG_TEST_PASS;
}
