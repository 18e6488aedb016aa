/*
 * collect back to back: rounds of shmem_long_collect on the world team with
 * no barrier between them and a count that changes per PE and per round
 * (0 to 4 elements, some PEs contribute nothing), into the same dest; then
 * rounds of fcollect, broadcast and alltoall; then collect64 over the
 * active set of all PEs, alternating two pSync arrays.
 * Across nodes a member writes its block into every member's dest once it
 * has read the counts, and leaves without a closing barrier: a member
 * that is still checking the last round's dest must not see the next
 * round's blocks (each PE clears its dest after its check), and a count
 * must not be reset before every member read it.  Run with more than 64 PEs too, where the counts are read in groups.
 */
#include <shmem.h>

#include "xg_test.h"

enum {
    ROUNDS    = 24,
    MAX_COUNT = 4
};

static long psync[2][SHMEM_COLLECT_SYNC_SIZE];

static size_t count_of(int pe, int round)
{
    return (size_t)((pe * 7 + round * 3) % (MAX_COUNT + 1));
}

static long value_of(int pe, int round, size_t i)
{
    return ((long)round << 40) ^ ((long)pe << 8) ^ (long)i;
}

static void check_round(long *dst, int npes, int round, const char *what)
{
    size_t off = 0, i;
    int q;

    for (q = 0; q < npes; q++) {
        for (i = 0; i < count_of(q, round); i++, off++) {
            XG_CHECK(dst[off] == value_of(q, round, i),
                     "%s round %d: member %d element %zu is %#lx", what, round,
                     q, i, (unsigned long)dst[off]);
        }
    }
    XG_CHECK(dst[off] == -1, "%s round %d: written past the end", what, round);
    /* this PE's dest is its own until it enters the next call */
    for (i = 0; i < off; i++) {
        dst[i] = -1;
    }
}

int main(void)
{
    long *src, *dst;
    int me, npes, round, k;
    size_t i, n;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    for (k = 0; k < 2; k++) {
        for (i = 0; i < SHMEM_COLLECT_SYNC_SIZE; i++) {
            psync[k][i] = SHMEM_SYNC_VALUE;
        }
    }
    src = shmem_malloc(((size_t)npes + MAX_COUNT) * sizeof(long));
    dst = shmem_malloc(((size_t)npes * MAX_COUNT + 1) * sizeof(long));
    XG_CHECK((src != NULL) && (dst != NULL), "shmem_malloc");
    for (i = 0; i <= (size_t)npes * MAX_COUNT; i++) {
        dst[i] = -1;
    }
    shmem_barrier_all();

    for (round = 0; round < ROUNDS; round++) {
        n = count_of(me, round);
        for (i = 0; i < n; i++) {
            src[i] = value_of(me, round, i);
        }
        XG_CHECK(shmem_long_collect(SHMEM_TEAM_WORLD, dst, src, n) == 0,
                 "shmem_long_collect round %d", round);
        check_round(dst, npes, round, "long_collect");
    }

    /* fcollect, a broadcast and alltoall back to back: small blocks go
     * through the stages across nodes, whose halves alternate by
     * exchange; a broadcast's leaf may leave before the others entered */
    for (round = 0; round < ROUNDS; round++) {
        int root = round % npes, q;

        n = 1 + (size_t)round % MAX_COUNT;
        for (i = 0; i < n; i++) {
            src[i] = value_of(me, round, i);
        }
        XG_CHECK(shmem_long_fcollect(SHMEM_TEAM_WORLD, dst, src, n) == 0,
                 "shmem_long_fcollect round %d", round);
        for (q = 0; q < npes; q++) {
            for (i = 0; i < n; i++) {
                XG_CHECK(dst[(size_t)q * n + i] == value_of(q, round, i),
                         "fcollect round %d: member %d element %zu is %#lx",
                         round, q, i, (unsigned long)dst[(size_t)q * n + i]);
            }
        }
        src[0] = value_of(root, round, 99);
        XG_CHECK(shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 1, root) == 0,
                 "shmem_long_broadcast round %d", round);
        XG_CHECK(dst[0] == value_of(root, round, 99),
                 "broadcast round %d: %#lx", round, (unsigned long)dst[0]);
        for (q = 0; q < npes; q++) {
            src[q] = value_of(me, round, (size_t)q + 7);
        }
        XG_CHECK(shmem_long_alltoall(SHMEM_TEAM_WORLD, dst, src, 1) == 0,
                 "shmem_long_alltoall round %d", round);
        for (q = 0; q < npes; q++) {
            XG_CHECK(dst[q] == value_of(q, round, (size_t)me + 7),
                     "alltoall round %d: from member %d %#lx", round, q,
                     (unsigned long)dst[q]);
        }
    }
    for (i = 0; i <= (size_t)npes * MAX_COUNT; i++) {
        dst[i] = -1;
    }

    shmem_barrier_all();
    for (round = 0; round < ROUNDS; round++) {
        n = count_of(me, round + 1);
        for (i = 0; i < n; i++) {
            src[i] = value_of(me, round + 1, i);
        }
        shmem_collect64(dst, src, n, 0, 0, npes, psync[round % 2]);
        check_round(dst, npes, round + 1, "collect64");
        for (i = 0; i < SHMEM_COLLECT_SYNC_SIZE; i++) {
            XG_CHECK(psync[round % 2][i] == SHMEM_SYNC_VALUE,
                     "collect64 round %d: pSync[%zu] is %ld on return", round,
                     i, psync[round % 2][i]);
        }
        if (round % 2 == 1) {
            shmem_barrier_all(); /* before either pSync is used again */
        }
    }

    shmem_barrier_all();
    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return XG_TEST_PASS;
}
