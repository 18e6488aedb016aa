/*
 * Many rounds of shmem_init, a barrier and shmem_finalize.  The PEs leave
 * the barrier one by one and enter finalize while others may still wait
 * for their release: the hang watch must not mistake a member that left
 * a completed barrier for one that never came (on the remote collective
 * channel a release is a NIC operation, so the window is wide; run with
 * XGAS_ROUTE=nic, it caught that false alarm in about one run of six).
 */
#include <shmem.h>

#include "xg_test.h"

#define ROUNDS 40
#define WORK   500

static long counter;

int main(void)
{
    int round, i, last;

    for (round = 0; round < ROUNDS; round++) {
        shmem_init();
        xg_test_pe = shmem_my_pe();
        last       = shmem_n_pes() - 1;
        /* the last PE arrives late, so the others wait long enough for
         * the hang watch to look at their members */
        if (shmem_my_pe() == last) {
            for (i = 0; i < WORK; i++) {
                shmem_long_atomic_inc(&counter, i % shmem_n_pes());
            }
        }
        shmem_barrier_all();
        shmem_finalize();
    }
    return XG_TEST_PASS;
}
