/*
 * The deprecated active-set collectives leave their pSync array at
 * SHMEM_SYNC_VALUE when they return, so a program may reuse it (after the
 * barrier the specification asks for) without resetting it: every word,
 * on every PE, right after the call returns and again after a barrier
 * (a late signal of the call would show there).  Every routine, on the
 * whole job and on a strided active set, with small payloads (trees) and
 * large ones (the split algorithms); barriers also back to back on one
 * pSync, which the specification allows, and repeated syncs over
 * shrinking active sets that alternate two pSync arrays without a barrier
 * in between.  Zero-length calls with NULL buffers are valid too.  Run at
 * 1..8 PEs.
 */
#include <shmem.h>
#include <string.h>

#include "xg_test.h"

#define BIG 8192 /* elements: large enough for the split reductions */

static long psync[SHMEM_SYNC_SIZE];
static long psync2[2][SHMEM_SYNC_SIZE];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE > BIG / 2 + 1
                     ? SHMEM_REDUCE_MIN_WRKDATA_SIZE
                     : BIG / 2 + 1];
static long src[BIG * 8], dst[BIG * 8];

static void check_psync(const char *what, int start, int log, int size,
                        int after_barrier)
{
    int i;

    for (i = 0; i < SHMEM_SYNC_SIZE; i++) {
        XG_CHECK(psync[i] == SHMEM_SYNC_VALUE,
                 "%s (set %d/%d/%d, %s): pSync[%d] is %ld, not "
                 "SHMEM_SYNC_VALUE",
                 what, start, log, size,
                 after_barrier ? "after a barrier" : "on return", i, psync[i]);
    }
}

/* Runs one call over the active set (if this PE is in it) and checks. */
#define RUN(WHAT, CALL)                                             \
    do {                                                            \
        if (member) {                                               \
            CALL;                                                   \
            check_psync(WHAT, start, log, size, 0);                 \
        }                                                           \
        shmem_barrier_all();                                        \
        check_psync(WHAT, start, log, size, 1);                     \
        shmem_barrier_all(); /* the next call may signal at once */ \
    } while (0)

static void run_set(int start, int log, int size)
{
    int me = shmem_my_pe(), stride = 1 << log;
    int member = (me >= start) && ((me - start) % stride == 0) &&
                 ((me - start) / stride < size);
    size_t n;
    const size_t counts[] = {1, 5, BIG};
    unsigned c;

    RUN("shmem_barrier", shmem_barrier(start, log, size, psync));
    RUN("shmem_barrier x3", (shmem_barrier(start, log, size, psync),
                             shmem_barrier(start, log, size, psync),
                             shmem_barrier(start, log, size, psync)));
    RUN("shmem_sync", shmem_sync(start, log, size, psync));
    for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        n = counts[c];
        RUN("shmem_broadcast64",
            shmem_broadcast64(dst, src, n, 0, start, log, size, psync));
        RUN("shmem_broadcast32",
            shmem_broadcast32(dst, src, n, size - 1, start, log, size, psync));
        RUN("shmem_long_sum_to_all",
            shmem_long_sum_to_all(dst, src, (int)n, start, log, size, pwrk,
                                  psync));
        RUN("shmem_int_max_to_all",
            shmem_int_max_to_all((int *)dst, (int *)src, (int)n, start, log,
                                 size, (int *)pwrk, psync));
        if (n * (size_t)size > BIG * 8) {
            continue;
        }
        RUN("shmem_fcollect64",
            shmem_fcollect64(dst, src, n, start, log, size, psync));
        RUN("shmem_collect64",
            shmem_collect64(dst, src, n, start, log, size, psync));
        RUN("shmem_collect32",
            shmem_collect32(dst, src, n, start, log, size, psync));
        RUN("shmem_fcollect32",
            shmem_fcollect32(dst, src, n, start, log, size, psync));
        RUN("shmem_alltoall64",
            shmem_alltoall64(dst, src, n, start, log, size, psync));
        RUN("shmem_alltoall32",
            shmem_alltoall32(dst, src, n, start, log, size, psync));
        if (n * 2 * (size_t)size <= BIG * 8) {
            RUN("shmem_alltoalls64",
                shmem_alltoalls64(dst, src, 2, 2, n, start, log, size, psync));
        }
    }
}

/* PE me syncs 20 times over each set i..npes-1, i <= me, alternating two
 * pSync arrays; then every word of both is SHMEM_SYNC_VALUE. */
static void shrinking_syncs(void)
{
    int me = shmem_my_pe(), npes = shmem_n_pes(), i, j, k;

    for (i = 0; i <= me; i++) {
        for (j = 0; j < 20; j++) {
            shmem_sync(i, 0, npes - i, psync2[i % 2]);
        }
    }
    shmem_barrier_all();
    for (k = 0; k < 2; k++) {
        for (i = 0; i < SHMEM_SYNC_SIZE; i++) {
            XG_CHECK(psync2[k][i] == SHMEM_SYNC_VALUE,
                     "shrinking syncs: pSync %d word %d is %ld", k, i,
                     psync2[k][i]);
        }
    }
    shmem_barrier_all();
}

/* Zero-length calls may pass NULL buffers. */
static void zero_length(void)
{
    int npes = shmem_n_pes();

    shmem_broadcast64(NULL, NULL, 0, 0, 0, 0, npes, psync);
    shmem_barrier_all();
    shmem_fcollect32(NULL, NULL, 0, 0, 0, npes, psync);
    shmem_barrier_all();
    shmem_collect64(NULL, NULL, 0, 0, 0, npes, psync);
    shmem_barrier_all();
    shmem_int_sum_to_all(NULL, NULL, 0, 0, 0, npes, (int *)pwrk, psync);
    shmem_barrier_all();
    shmem_alltoalls64(NULL, NULL, 1, 1, 0, 0, 0, npes, psync);
    shmem_barrier_all();
    shmem_long_broadcast(SHMEM_TEAM_WORLD, NULL, NULL, 0, 0);
    shmem_int_sum_reduce(SHMEM_TEAM_WORLD, NULL, NULL, 0);
    shmem_long_put(NULL, NULL, 0, 0);
    shmem_long_get(NULL, NULL, 0, 0);
    shmem_long_iput(NULL, NULL, 1, 1, 0, 0);
    check_psync("zero-length calls", 0, 0, npes, 1);
    shmem_barrier_all();
}

int main(void)
{
    int npes, i;

    shmem_init();
    xg_test_pe = shmem_my_pe();
    npes       = shmem_n_pes();
    for (i = 0; i < SHMEM_SYNC_SIZE; i++) {
        psync[i] = SHMEM_SYNC_VALUE;
    }
    for (i = 0; i < BIG * 8; i++) {
        src[i] = i + xg_test_pe;
    }
    shmem_barrier_all();
    run_set(0, 0, npes); /* the whole job */
    if (npes >= 3) {
        run_set(0, 1, (npes + 1) / 2); /* the even PEs */
        run_set(1, 0, npes - 1);       /* all but PE 0 */
        run_set(npes - 1, 0, 1);       /* the last PE alone */
    }
    if (npes >= 5) {
        run_set(1, 2, (npes - 2) / 4 + 1); /* every 4th PE from 1 */
    }
    shrinking_syncs();
    zero_length();
    shmem_finalize();
    return XG_TEST_PASS;
}
