/*
 * One counter, hit at once from both sides of the network: the PEs of
 * PE 0's node update its words with CPU atomics (the direct route), the
 * PEs of other nodes through their software NIC and PE 0's (the NIC
 * route), and atomicity must hold between the two:
 *   - atomic_add and atomic_inc: the totals are exact;
 *   - fetch_inc: every value 0 .. npes * ITERS - 1 comes back once, and
 *     rises on each PE;
 *   - a compare_swap retry loop: exact;
 *   - 32-bit fetch_add beside a 64-bit add: neither disturbs the other;
 *   - put-with-signal from every PE to PE 0: once the signals add up, the
 *     data of every PE is there, whichever route carried it.
 */
#include <shmem.h>
#include <stdint.h>
#include <stdlib.h>

#include "xg_test.h"

#define ITERS   1500
#define WORDS   8
#define MAX_PES 64

struct counter {
    long add;
    uint64_t inc;
    long fetch_inc;
    uint32_t cswap;
    int32_t narrow; /* 32-bit neighbour of a 64-bit word */
    int64_t wide;
    uint64_t signal;
    long data[MAX_PES][WORDS]; /* each PE's, before its signal */
};

static long values[MAX_PES * ITERS]; /* fetch_inc results, PE 0 gathers */

int main(void)
{
    struct counter *c;
    long mine[WORDS], add = 0;
    unsigned char *once;
    uint32_t old;
    int me, npes, i, pe;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    XG_CHECK(npes <= MAX_PES, "at most %d PEs", MAX_PES);
    c = shmem_calloc(1, sizeof(*c));
    XG_CHECK(c != NULL, "shmem_calloc");
    if (me == 0) {
        printf("PE 0's node has %d of the %d PEs: they update its words "
               "by CPU atomics, the others through the network\n",
               shmem_team_n_pes(SHMEM_TEAM_SHARED), npes);
    }
    shmem_barrier_all();

    for (i = 0; i < ITERS; i++) {
        long *got = &values[(size_t)me * ITERS + (size_t)i];

        shmem_long_atomic_add(&c->add, me + 1, 0);
        shmem_uint64_atomic_inc(&c->inc, 0);
        *got = shmem_long_atomic_fetch_inc(&c->fetch_inc, 0);
        XG_CHECK((i == 0) || (*got > got[-1]),
                 "fetch_inc went from %ld to "
                 "%ld",
                 got[-1], *got);
        do {
            old = shmem_uint32_atomic_fetch(&c->cswap, 0);
        } while (shmem_uint32_atomic_compare_swap(&c->cswap, old, old + 1, 0) !=
                 old);
        shmem_int32_atomic_fetch_add(&c->narrow, 2, 0);
        shmem_int64_atomic_add(&c->wide, -3, 0);
    }
    for (i = 0; i < WORDS; i++) {
        mine[i] = 1000L * me + i;
    }
    shmem_long_put_signal(c->data[me], mine, WORDS, &c->signal, 1,
                          SHMEM_SIGNAL_ADD, 0);
    /* every PE's fetch_inc values to PE 0 */
    shmem_long_put(&values[(size_t)me * ITERS], &values[(size_t)me * ITERS],
                   ITERS, 0);

    if (me == 0) {
        shmem_uint64_wait_until(&c->signal, SHMEM_CMP_EQ, (uint64_t)npes);
        for (pe = 0; pe < npes; pe++) {
            for (i = 0; i < WORDS; i++) {
                XG_CHECK(c->data[pe][i] == 1000L * pe + i,
                         "PE %d's word "
                         "%d is %ld after its signal",
                         pe, i, c->data[pe][i]);
            }
        }
    }
    shmem_barrier_all();
    if (me == 0) {
        for (pe = 0; pe < npes; pe++) {
            add += (long)(pe + 1) * ITERS;
        }
        XG_CHECK(c->add == add, "atomic_add: %ld, expected %ld", c->add, add);
        XG_CHECK(c->inc == (uint64_t)npes * ITERS, "atomic_inc: %llu",
                 (unsigned long long)c->inc);
        XG_CHECK(c->fetch_inc == (long)npes * ITERS, "fetch_inc: %ld",
                 c->fetch_inc);
        XG_CHECK(c->cswap == (uint32_t)(npes * ITERS), "compare_swap: %u",
                 c->cswap);
        XG_CHECK(c->narrow == 2 * npes * ITERS, "32-bit fetch_add: %d",
                 c->narrow);
        XG_CHECK(c->wide == -3L * npes * ITERS,
                 "64-bit add beside it: "
                 "%lld",
                 (long long)c->wide);
        once = calloc((size_t)npes * ITERS, 1);
        XG_CHECK(once != NULL, "calloc");
        for (i = 0; i < npes * ITERS; i++) {
            XG_CHECK((values[i] >= 0) && (values[i] < (long)npes * ITERS) &&
                         !once[values[i]],
                     "fetch_inc gave %ld twice or out of "
                     "range",
                     values[i]);
            once[values[i]] = 1;
        }
        free(once);
    }
    shmem_barrier_all();
    shmem_free(c);
    shmem_finalize();
    return XG_TEST_PASS;
}
