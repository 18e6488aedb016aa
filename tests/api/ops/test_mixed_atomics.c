/*
 * One atomicity domain: counters on PE 0 that are symmetric objects and,
 * at the same time, the memory of a Portals list entry of PE 0 are
 * incremented concurrently by OpenSHMEM atomics (and the native API's)
 * from the even PEs and by PtlAtomic / PtlFetchAtomic (PTL_SUM) from the
 * odd ones.  The odd PEs do ITERATIONS operations each; the even PEs go
 * on until every odd PE is done, so the two kinds overlap all the time.
 * Every increment must count: the final values equal the totals, and the
 * values fetched from the 64-bit counter are all different (each fetching
 * add saw its own predecessor).  A NIC that combined with plain loads and
 * stores under its own lock loses updates to the CPU atomics here.
 *
 *   ops_mixed_atomics [ITERATIONS]    (run with 2 or more PEs)
 */
#include <shmem.h>
#include <xgas.h>

#include "api/portals/ptl_test.h"

#define PT    7
#define BATCH 64 /* Portals operations in flight per PE */

/* The counters, at fixed offsets of the list entry. */
struct counters {
    long c64;
    int32_t c32;
};
static struct counters counters;

/* Fetched values, collected on PE 0 to check they are distinct. */
static long *fetched;

/* Odd PEs done (on PE 0); what each PE did: increments of c64 and c32,
 * fetched values kept. */
static long odd_done;
static long did[3];

static void portals_side(ptl_handle_ni_t ni, long iters, long *mine)
{
    ptl_handle_ct_t ct;
    ptl_handle_md_t md;
    ptl_ct_event_t cev;
    ptl_md_t mdd;
    /* [0] 64-bit operand, [1] 32-bit operand, then the fetched values */
    static int64_t buf[2 + BATCH];
    uint64_t issued = 0;
    long i, k;

    buf[0] = 1;
    buf[1] = 1; /* little endian: the low 4 bytes hold int32_t 1 */
    PTL_OK_OR_DIE(PtlCTAlloc(ni, &ct));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = buf;
    mdd.length    = sizeof(buf);
    mdd.eq_handle = PTL_EQ_NONE;
    mdd.ct_handle = ct;
    mdd.options   = PTL_MD_EVENT_CT_ACK | PTL_MD_EVENT_CT_REPLY;
    PTL_OK_OR_DIE(PtlMDBind(ni, &mdd, &md));
    for (i = 0; i < iters; i += BATCH) {
        long n = (iters - i < BATCH) ? iters - i : BATCH;

        for (k = 0; k < n; k++) {
            if ((i + k) % 3 == 0) {
                PTL_OK_OR_DIE(
                    PtlFetchAtomic(md, (ptl_size_t)(2 + k) * sizeof(int64_t),
                                   md, 0, sizeof(int64_t), ptl_test_rank(0), PT,
                                   0, offsetof(struct counters, c64), NULL, 0,
                                   PTL_SUM, PTL_INT64_T));
            } else if ((i + k) % 3 == 1) {
                PTL_OK_OR_DIE(PtlAtomic(md, 0, sizeof(int64_t), PTL_ACK_REQ,
                                        ptl_test_rank(0), PT, 0,
                                        offsetof(struct counters, c64), NULL, 0,
                                        PTL_SUM, PTL_INT64_T));
            } else {
                PTL_OK_OR_DIE(PtlAtomic(md, sizeof(int64_t), sizeof(int32_t),
                                        PTL_ACK_REQ, ptl_test_rank(0), PT, 0,
                                        offsetof(struct counters, c32), NULL, 0,
                                        PTL_SUM, PTL_INT32_T));
            }
        }
        issued += (uint64_t)n;
        PTL_OK_OR_DIE(PtlCTWait(ct, issued, &cev));
        XG_CHECK(cev.failure == 0, "%llu Portals atomics failed",
                 (unsigned long long)cev.failure);
        for (k = 0; k < n; k++) {
            if ((i + k) % 3 == 0) {
                mine[did[2]++] = (long)buf[2 + k];
            }
            did[((i + k) % 3 == 2) ? 1 : 0]++;
        }
    }
    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlCTFree(ct));
}

/* Until every odd PE is done, and at least @iters times. */
static void shmem_side(long iters, long *mine, int nodd)
{
    xg_gaddr_t g;
    uint64_t old;
    long i, v;

    XG_CHECK(xg_gaddr(&counters.c64, 0, &g) == XG_OK, "xg_gaddr");
    for (i = 0; (i < iters) || (shmem_long_atomic_fetch(&odd_done, 0) < nodd);
         i++) {
        switch (i % 4) {
        case 0: shmem_long_atomic_add(&counters.c64, 1, 0); break;
        case 1:
            v = shmem_long_atomic_fetch_add(&counters.c64, 1, 0);
            if (did[2] < iters) {
                mine[did[2]++] = v;
            }
            break;
        case 2:
            XG_CHECK(xg_atomic_fetch_op64(g, XG_AMO_ADD, 1, &old) == XG_OK,
                     "xg_atomic_fetch_op64");
            if (did[2] < iters) {
                mine[did[2]++] = (long)old;
            }
            break;
        default: shmem_int32_atomic_add(&counters.c32, 1, 0); break;
        }
        did[(i % 4 == 3) ? 1 : 0]++;
    }
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;

    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    long iters  = (argc > 1) ? atol(argv[1]) : 100000;
    long want64 = 0, want32 = 0, total = 0, i, c64, *mine;
    int32_t c32;
    ptl_handle_ni_t ni;
    ptl_handle_me_t meh;
    ptl_pt_index_t pt;
    ptl_me_t me;
    int pe, npes, p;

    shmem_init();
    pe         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = pe;
    if (npes < 2) {
        fprintf(stderr, "needs 2 or more PEs\n");
        shmem_finalize();
        return XG_TEST_SKIP;
    }
    PTL_OK_OR_DIE(PtlInit());
    PTL_OK_OR_DIE(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_LOGICAL,
                            PTL_PID_ANY, NULL, NULL, &ni));
    if (pe == 0) {
        PTL_OK_OR_DIE(PtlPTAlloc(ni, 0, PTL_EQ_NONE, PT, &pt));
        memset(&me, 0, sizeof(me));
        me.start         = &counters;
        me.length        = sizeof(counters);
        me.ct_handle     = PTL_CT_NONE;
        me.uid           = PTL_UID_ANY;
        me.options       = PTL_ME_OP_PUT | PTL_ME_OP_GET;
        me.match_id.rank = PTL_RANK_ANY;
        PTL_OK_OR_DIE(PtlMEAppend(ni, PT, &me, PTL_PRIORITY_LIST, NULL, &meh));
    }
    /* the fetched values of every PE, in PE order, on PE 0 */
    fetched = shmem_malloc((size_t)npes * (size_t)iters * sizeof(long));
    XG_CHECK(fetched != NULL, "shmem_malloc");
    mine = malloc((size_t)iters * sizeof(long));
    XG_CHECK(mine != NULL, "malloc");
    shmem_barrier_all(); /* the entry is there before anybody sends */

    if (pe % 2 == 0) {
        shmem_side(iters, mine, npes / 2);
    } else {
        portals_side(ni, iters, mine);
        shmem_long_atomic_inc(&odd_done, 0);
    }
    shmem_long_put(fetched + (size_t)pe * (size_t)iters, mine, (size_t)did[2],
                   0);
    shmem_barrier_all();

    if (pe == 0) {
        for (p = 0; p < npes; p++) {
            long d[3];

            shmem_long_get(d, did, 3, p);
            want64 += d[0];
            want32 += d[1];
            memmove(fetched + total, fetched + (size_t)p * (size_t)iters,
                    (size_t)d[2] * sizeof(long));
            total += d[2];
        }
        /* atomic reads: this PE's progress thread wrote them last */
        c64 = shmem_long_atomic_fetch(&counters.c64, 0);
        c32 = shmem_int32_atomic_fetch(&counters.c32, 0);
        XG_CHECK(c64 == want64,
                 "64-bit counter is %ld, expected %ld: %ld "
                 "increments were lost",
                 c64, want64, want64 - c64);
        /* the even PEs may run long enough to wrap it */
        XG_CHECK(c32 == (int32_t)(uint32_t)want32,
                 "32-bit counter is %d, "
                 "expected %d (%ld modulo 2^32)",
                 (int)c32, (int)(int32_t)(uint32_t)want32, want32);
        qsort(fetched, (size_t)total, sizeof(long), cmp_long);
        for (i = 0; i < total; i++) {
            XG_CHECK((fetched[i] >= 0) && (fetched[i] < want64) &&
                         ((i == 0) || (fetched[i] != fetched[i - 1])),
                     "fetched value %ld (%ld of %ld) is out of range or "
                     "seen twice",
                     fetched[i], i, total);
        }
        printf("mixed atomics: %d PEs, %ld + %ld increments, %ld fetched "
               "values distinct\n",
               npes, want64, want32, total);
    }
    shmem_barrier_all();
    if (pe == 0) {
        PTL_OK_OR_DIE(PtlMEUnlink(meh));
        PTL_OK_OR_DIE(PtlPTFree(ni, PT));
    }
    PTL_OK_OR_DIE(PtlNIFini(ni));
    PtlFini();
    free(mine);
    shmem_free(fetched);
    shmem_finalize();
    return XG_TEST_PASS;
}
