/*
 * Teams across re-initialization (OpenSHMEM 1.6): three sessions of
 * shmem_init .. shmem_finalize, each splitting teams (one left for
 * finalize to clean up), synchronizing and reducing on them and on the
 * world.  The node region keeps its contents between sessions, so this
 * fails if the signal counters of the previous session leak into the next.
 */
#include <shmem.h>

#include "xg_test.h"

static long one = 1, sum;

int main(void)
{
    int session, npes, i;
    shmem_team_t even, all;

    for (session = 0; session < 3; session++) {
        shmem_init();
        xg_test_pe = shmem_my_pe();
        npes       = shmem_n_pes();
        for (i = 0; i < 50; i++) {
            shmem_barrier_all();
        }
        XG_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2,
                                          (npes + 1) / 2, NULL, 0, &even) == 0,
                 "session %d: even split", session);
        XG_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0,
                                          &all) == 0,
                 "session %d: copy of the world", session);
        for (i = 0; i < 20; i++) {
            XG_CHECK(shmem_long_sum_reduce(all, &sum, &one, 1) == 0, "reduce");
            XG_CHECK(sum == npes, "session %d: sum %ld", session, sum);
            if (even != SHMEM_TEAM_INVALID) {
                XG_CHECK(shmem_team_sync(even) == 0, "even sync");
                XG_CHECK(shmem_long_sum_reduce(even, &sum, &one, 1) == 0,
                         "reduce");
                XG_CHECK(sum == (npes + 1) / 2, "session %d: even sum %ld",
                         session, sum);
            }
            XG_CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &sum, &one, 1) ==
                         0,
                     "world reduce");
            XG_CHECK(sum == npes, "session %d: world sum %ld", session, sum);
        }
        shmem_team_destroy(even);
        /* "all" is left alive: finalize invalidates it */
        shmem_finalize();
    }
    return XG_TEST_PASS;
}
