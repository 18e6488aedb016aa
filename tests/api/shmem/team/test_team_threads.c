/*
 * Concurrent team creation (SHMEM_THREAD_MULTIPLE): two threads per PE
 * split, use and destroy teams at the same time, one from SHMEM_TEAM_WORLD
 * and one from SHMEM_TEAM_SHARED (different parents, as the specification
 * allows).  The new teams have the same members, so their splits compete
 * for the same free slots on every PE; each must still get a slot of its
 * own, which the exact sums over each team check (two teams in one slot
 * would mix their signals and hang or give wrong sums).
 */
#include <pthread.h>
#include <shmem.h>

#include "xg_test.h"

#define CYCLES 30

static int me, npes;
static long src[2], dst[2];

static void *worker(void *arg)
{
    int which           = (int)(long)arg, cycle;
    shmem_team_t parent = which ? SHMEM_TEAM_SHARED : SHMEM_TEAM_WORLD, t;
    int size = shmem_team_n_pes(parent); /* the node's PEs may be fewer */

    for (cycle = 0; cycle < CYCLES; cycle++) {
        /* thread 0: the world in order; thread 1: its node in reverse */
        int start = which ? size - 1 : 0, stride = which ? -1 : 1;
        long want = 0;
        int i;

        XG_CHECK(shmem_team_split_strided(parent, start, stride, size, NULL, 0,
                                          &t) == 0,
                 "thread %d cycle %d: split failed", which, cycle);
        src[which] = (long)shmem_team_my_pe(t) * (which + 1) + cycle;
        XG_CHECK(shmem_long_sum_reduce(t, &dst[which], &src[which], 1) == 0,
                 "thread %d: reduce", which);
        for (i = 0; i < size; i++) {
            want += (long)i * (which + 1) + cycle;
        }
        XG_CHECK(dst[which] == want,
                 "thread %d cycle %d: sum %ld, expected %ld", which, cycle,
                 dst[which], want);
        XG_CHECK(shmem_team_sync(t) == 0, "thread %d: sync", which);
        shmem_team_destroy(t);
    }
    return NULL;
}

int main(void)
{
    pthread_t threads[2];
    int provided, i;

    XG_CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0,
             "init_thread");
    if (provided != SHMEM_THREAD_MULTIPLE) {
        shmem_finalize();
        return XG_TEST_SKIP;
    }
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;

    for (i = 0; i < 2; i++) {
        XG_CHECK(pthread_create(&threads[i], NULL, worker, (void *)(long)i) ==
                     0,
                 "pthread_create");
    }
    for (i = 0; i < 2; i++) {
        pthread_join(threads[i], NULL);
    }
    shmem_barrier_all();
    shmem_finalize();
    return XG_TEST_PASS;
}
