/*
 * Every deprecated active-set collective leaves pSync exactly as it found
 * it the moment it returns, on every PE, even while the other members have
 * already gone on to the next call: each routine runs ROUNDS times, and
 * right after each call (no barrier in between) every element of its
 * pSync must be SHMEM_SYNC_VALUE; a barrier on a second pSync separates
 * the calls and its pSync is checked the same way right after it returns.
 * Barriers and syncs also run back to back on one pSync (which the
 * specification allows), checked after each.  A peer that signals into a
 * member's pSync -- late for this call, or early for the next -- shows up
 * as a word that is not SHMEM_SYNC_VALUE.  Small payloads (trees) and
 * large ones (the split reduction).
 */
#include <shmem.h>

#include "coll_test.h"

#define ROUNDS 100
#define BIG    4096 /* longs: the split reduction from 16 KiB */

static long psync_a[SHMEM_SYNC_SIZE], psync_b[SHMEM_SYNC_SIZE];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE > BIG / 2 + 1
                     ? SHMEM_REDUCE_MIN_WRKDATA_SIZE
                     : BIG / 2 + 1];
static long src[BIG], dst[BIG * 8];
static int me, npes;

static void check(const char *what, const long *psync, const char *name,
                  int round)
{
    int i;

    for (i = 0; i < SHMEM_SYNC_SIZE; i++) {
        XG_CHECK(psync[i] == SHMEM_SYNC_VALUE,
                 "%s round %d: %s[%d] is %ld right after the call, not "
                 "SHMEM_SYNC_VALUE",
                 what, round, name, i, psync[i]);
    }
}

enum {
    BARRIER,
    SYNC,
    BCAST64,
    BCAST32,
    FCOLLECT64,
    FCOLLECT32,
    COLLECT64,
    COLLECT32,
    ALLTOALL64,
    ALLTOALL32,
    ALLTOALLS64,
    ALLTOALLS32,
    SUM_TO_ALL,
    MAX_TO_ALL,
    SUM_TO_ALL_BIG,
    CALLS
};

static const char *const names[CALLS] = {"shmem_barrier",
                                         "shmem_sync",
                                         "shmem_broadcast64",
                                         "shmem_broadcast32",
                                         "shmem_fcollect64",
                                         "shmem_fcollect32",
                                         "shmem_collect64",
                                         "shmem_collect32",
                                         "shmem_alltoall64",
                                         "shmem_alltoall32",
                                         "shmem_alltoalls64",
                                         "shmem_alltoalls32",
                                         "shmem_long_sum_to_all",
                                         "shmem_int_max_to_all",
                                         "shmem_long_sum_to_all (split)"};

/* One call of @which over the whole job with @psync. */
static void call(int which, long *psync, int round)
{
    int n = 1 + round % 3; /* elements: collect's counts differ by PE */

    switch (which) {
    case BARRIER: shmem_barrier(0, 0, npes, psync); break;
    case SYNC: shmem_sync(0, 0, npes, psync); break;
    case BCAST64:
        shmem_broadcast64(dst, src, 4, round % npes, 0, 0, npes, psync);
        break;
    case BCAST32:
        shmem_broadcast32(dst, src, 5, (round + 1) % npes, 0, 0, npes, psync);
        break;
    case FCOLLECT64: shmem_fcollect64(dst, src, 3, 0, 0, npes, psync); break;
    case FCOLLECT32: shmem_fcollect32(dst, src, 3, 0, 0, npes, psync); break;
    case COLLECT64:
        shmem_collect64(dst, src, (size_t)(n + me % 2), 0, 0, npes, psync);
        break;
    case COLLECT32:
        shmem_collect32(dst, src, (size_t)(n + me % 2), 0, 0, npes, psync);
        break;
    case ALLTOALL64: shmem_alltoall64(dst, src, 2, 0, 0, npes, psync); break;
    case ALLTOALL32: shmem_alltoall32(dst, src, 2, 0, 0, npes, psync); break;
    case ALLTOALLS64:
        shmem_alltoalls64(dst, src, 2, 1, 2, 0, 0, npes, psync);
        break;
    case ALLTOALLS32:
        shmem_alltoalls32(dst, src, 1, 2, 2, 0, 0, npes, psync);
        break;
    case SUM_TO_ALL:
        shmem_long_sum_to_all(dst, src, 4, 0, 0, npes, pwrk, psync);
        break;
    case MAX_TO_ALL:
        shmem_int_max_to_all((int *)dst, (int *)src, 7, 0, 0, npes, (int *)pwrk,
                             psync);
        break;
    default:
        shmem_long_sum_to_all(dst, src, BIG, 0, 0, npes, pwrk, psync);
        break;
    }
}

int main(void)
{
    int i, which, round;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    for (i = 0; i < SHMEM_SYNC_SIZE; i++) {
        psync_a[i] = psync_b[i] = SHMEM_SYNC_VALUE;
    }
    for (i = 0; i < BIG; i++) {
        src[i] = (long)i * npes + me;
    }
    shmem_barrier_all();

    for (which = 0; which < CALLS; which++) {
        for (round = 0; round < ROUNDS; round++) {
            call(which, psync_a, round);
            check(names[which], psync_a, "pSync", round);
            shmem_barrier(0, 0, npes, psync_b);
            check(names[which], psync_b, "the separating barrier's pSync",
                  round);
        }
        shmem_barrier_all();
    }

    /* back to back on one pSync, which barriers may do */
    for (round = 0; round < ROUNDS; round++) {
        shmem_barrier(0, 0, npes, psync_a);
        check("shmem_barrier back to back", psync_a, "pSync", round);
    }
    for (round = 0; round < ROUNDS; round++) {
        shmem_sync(0, 0, npes, psync_b);
        check("shmem_sync back to back", psync_b, "pSync", round);
    }
    shmem_barrier_all();
    shmem_finalize();
    return XG_TEST_PASS;
}
