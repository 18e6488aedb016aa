/*
 * shmem_barrier_all and shmem_sync_all, 1000 times each.  In every round
 * each PE atomically increments a counter on every PE, then enters the
 * barrier; after it, the counter must hold exactly npes more than after the
 * previous round -- a barrier that lets a PE through early shows up as a
 * missing increment.  Rounds alternate between two counters: a PE that is
 * already in the next round increments the other one, so the count read
 * after the barrier is exact without a second barrier.  sync_all is
 * preceded by shmem_quiet, which completes the increments as the
 * specification asks.
 */
#include <shmem.h>

#include "xg_test.h"

#define ROUNDS 1000

static long counter[2];

static void rounds(int use_sync, int me, int npes)
{
    long expect;
    int r, pe;

    for (r = 0; r < ROUNDS; r++) {
        for (pe = 0; pe < npes; pe++) {
            shmem_long_atomic_inc(&counter[r % 2], pe);
        }
        if (use_sync) {
            shmem_quiet();
            shmem_sync_all();
        } else {
            shmem_barrier_all();
        }
        expect = (long)(r / 2 + 1) * npes;
        XG_CHECK(shmem_long_atomic_fetch(&counter[r % 2], me) == expect,
                 "%s round %d: counter %ld, expected %ld",
                 use_sync ? "sync_all" : "barrier_all", r, counter[r % 2],
                 expect);
    }
}

int main(void)
{
    int me, npes;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;

    rounds(0, me, npes);
    shmem_barrier_all();
    counter[0] = counter[1] = 0;
    shmem_barrier_all();
    rounds(1, me, npes);

    shmem_finalize();
    return XG_TEST_PASS;
}
