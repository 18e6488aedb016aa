/*
 * The node structure of a job as the API shows it, on one node and across
 * nodes (blocks of ranks or round robin): SHMEM_TEAM_SHARED holds the PEs
 * of this node and only them, in rank order, with team-relative PE
 * numbers; shmem_ptr and shmem_team_ptr reach exactly those PEs (heap and
 * global objects), and the others are still reached by every operation;
 * a collective on SHMEM_TEAM_SHARED stays on the node, interleaved with
 * collectives over the world.
 */
#include <shmem.h>
#include <stdlib.h>

#include "xg_test.h"

static long global_word, sum; /* symmetric */

int main(void)
{
    shmem_team_t shared = SHMEM_TEAM_SHARED;
    int me, npes, pe, prev = -1, n, members = 0;
    long *heap, got;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    heap       = shmem_malloc(sizeof(long));
    XG_CHECK(heap != NULL, "shmem_malloc");
    *heap       = me;
    global_word = 100 + me;
    n           = shmem_team_n_pes(shared);
    XG_CHECK((n >= 1) && (n <= npes), "SHMEM_TEAM_SHARED has %d PEs", n);
    XG_CHECK(shmem_team_translate_pe(shared, shmem_team_my_pe(shared),
                                     SHMEM_TEAM_WORLD) == me,
             "my PE in SHMEM_TEAM_SHARED is not me");
    shmem_barrier_all();

    for (pe = 0; pe < npes; pe++) {
        int r       = shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, shared);
        long *there = shmem_ptr(heap, pe);

        if (r >= 0) {
            members++;
            XG_CHECK(r > prev,
                     "PE %d is member %d after member %d: not in "
                     "rank order",
                     pe, r, prev);
            prev = r;
            XG_CHECK((there != NULL) && (*there == pe),
                     "shmem_ptr to PE %d "
                     "of this node: %p",
                     pe, (void *)there);
            XG_CHECK(shmem_team_ptr(shared, heap, r) == there,
                     "shmem_team_ptr and shmem_ptr differ for PE %d", pe);
            XG_CHECK(*(long *)shmem_ptr(&global_word, pe) == 100 + pe,
                     "shmem_ptr to PE %d's global", pe);
        } else {
            XG_CHECK(there == NULL,
                     "shmem_ptr reaches PE %d of another "
                     "node",
                     pe);
            XG_CHECK(shmem_ptr(&global_word, pe) == NULL,
                     "shmem_ptr "
                     "reaches PE %d's global on another node",
                     pe);
        }
        /* every PE answers every operation, whatever its node */
        XG_CHECK(shmem_long_g(heap, pe) == pe, "get from PE %d", pe);
        XG_CHECK(shmem_long_g(&global_word, pe) == 100 + pe,
                 "get of PE %d's global", pe);
        XG_CHECK(shmem_addr_accessible(heap, pe), "PE %d not accessible", pe);
    }
    XG_CHECK(members == n, "%d PEs map into SHMEM_TEAM_SHARED of %d", members,
             n);

    /* a reduction over the node sums the node's PEs only */
    shmem_barrier_all();
    XG_CHECK(shmem_long_sum_reduce(shared, &sum, heap, 1) == 0, "reduce");
    for (got = 0, pe = 0; pe < npes; pe++) {
        if (shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, shared) >= 0) {
            got += pe;
        }
    }
    XG_CHECK(sum == got, "sum over the node %ld, expected %ld", sum, got);

    /* node and world collectives interleaved: each stays in its team */
    for (n = 0; n < 10; n++) {
        XG_CHECK(shmem_team_sync(shared) == 0, "team_sync on the node");
        XG_CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &sum, heap, 1) == 0,
                 "world reduce");
        XG_CHECK(sum == (long)npes * (npes - 1) / 2, "world sum %ld", sum);
    }
    shmem_barrier_all();
    shmem_free(heap);
    shmem_finalize();
    return XG_TEST_PASS;
}
