/*
 * Unit test of the NIC route of gas (src/gas/xg_gas_nic.h), run with
 * XGAS_ROUTE=nic: every PE, this one too, is reached through the software
 * NIC.  Each operation family to the next PE on heap and global targets:
 * contiguous put/get small and past the NIC's eager limit (rendezvous),
 * p/g, strided (contiguous runs and single elements), non-blocking puts
 * and gets counted in the context until its quiet, fence ordering a put
 * before a flag, every atomic on 4 and 8 bytes with all PEs contending on
 * PE 0, put-with-signal seen through a local wait, the MCS lock guarding
 * a non-atomic update, the statuses of bad calls, and one PE switched back
 * to the direct route while the others stay on the NIC.
 */
#include <stdlib.h>

#include "base/xg_wait.h"
#include "gas_test.h"
#include "xg_test.h"
#include "xgas.h"

#define ROUNDS 40
#define BIG    (256 * 1024) /* past XGAS_NIC_EAGER_LIMIT (16K) */

typedef struct shared {
    uint64_t counter64[2];
    uint32_t counter32[2];
    uint64_t lock;
    uint64_t guarded;
    uint64_t sig;
    uint64_t flag;
    long data[64];
    long strided[64];
    uint64_t bits64;
} shared_t;

static long global_data[16];
static xg_gas_ctx_t ctx;
static const xg_gas_int_t u64 = {8, 0, "uint64_t"};

static void check_rma(shared_t *s, char *big, int me, int next, int prev)
{
    long src[16], back[64], v = 1000 + me;
    char *bigsrc = malloc(BIG), *bigback = malloc(BIG);
    int i;

    XG_CHECK((bigsrc != NULL) && (bigback != NULL), "malloc");
    XG_CHECK(xg_gas_translate(s->data, 8, next) == NULL,
             "XGAS_ROUTE=nic: PE %d must not be reached directly", next);
    for (i = 0; i < 16; i++) {
        src[i] = me * 100 + i;
    }
    for (i = 0; i < BIG; i++) {
        bigsrc[i] = (char)(me + i * 7);
    }
    XG_CHECK(xg_gas_put(&ctx, s->data, src, sizeof(src), next) == XG_OK, "put");
    XG_CHECK(xg_gas_p(&ctx, &s->data[15], &v, sizeof(v), next) == XG_OK, "p");
    XG_CHECK(xg_gas_put(&ctx, global_data, src, sizeof(src), next) == XG_OK,
             "put to a global");
    XG_CHECK(xg_gas_put(&ctx, big, bigsrc, BIG, next) == XG_OK, "big put");
    /* element runs: every other element; and one contiguous run */
    XG_CHECK(xg_gas_iput(&ctx, s->strided, src, sizeof(long), 2 * sizeof(long),
                         sizeof(long), 16, next) == XG_OK,
             "iput");
    XG_CHECK(xg_gas_iput(&ctx, &s->strided[32], src, sizeof(long), sizeof(long),
                         sizeof(long), 16, next) == XG_OK,
             "iput contiguous");
    xg_barrier();
    for (i = 0; i < 15; i++) {
        XG_CHECK(s->data[i] == prev * 100 + i, "data[%d] = %ld", i, s->data[i]);
        XG_CHECK(global_data[i] == prev * 100 + i, "global[%d] = %ld", i,
                 global_data[i]);
        XG_CHECK(s->strided[2 * i] == prev * 100 + i, "strided[%d] = %ld",
                 2 * i, s->strided[2 * i]);
        XG_CHECK(s->strided[32 + i] == prev * 100 + i, "run[%d] = %ld", i,
                 s->strided[32 + i]);
    }
    XG_CHECK(s->data[15] == 1000 + prev, "p: %ld", s->data[15]);
    for (i = 0; i < BIG; i++) {
        XG_CHECK(big[i] == (char)(prev + i * 7), "big[%d]", i);
    }
    XG_CHECK(xg_gas_get(&ctx, back, s->data, 16 * sizeof(long), next) == XG_OK,
             "get");
    XG_CHECK((back[0] == me * 100) && (back[15] == 1000 + me), "get: %ld %ld",
             back[0], back[15]);
    XG_CHECK(xg_gas_g(&ctx, &v, &global_data[3], sizeof(v), next) == XG_OK,
             "g");
    XG_CHECK(v == me * 100 + 3, "g of a global: %ld", v);
    XG_CHECK(xg_gas_get(&ctx, bigback, big, BIG, next) == XG_OK, "big get");
    XG_CHECK(memcmp(bigback, bigsrc, BIG) == 0, "big get data");
    XG_CHECK(xg_gas_iget(&ctx, back, s->strided, sizeof(long), sizeof(long),
                         2 * sizeof(long), 4, next) == XG_OK,
             "iget");
    XG_CHECK((back[0] == me * 100) && (back[3] == me * 100 + 3),
             "iget: %ld %ld", back[0], back[3]);
    /* the statuses of bad calls, as on the direct route */
    XG_CHECK(xg_gas_put(&ctx, s->data, src, sizeof(src), xg_size()) ==
                 XG_ERR_PE_RANGE,
             "PE range");
    XG_CHECK(xg_gas_put(&ctx, &v, src, sizeof(long), next) ==
                 XG_ERR_NOT_SYMMETRIC,
             "stack address");
    XG_CHECK(xg_gas_put(&ctx, s->data, src, (size_t)1 << 40, next) ==
                 XG_ERR_OUT_OF_BOUNDS,
             "past the end");
    XG_CHECK(xg_gas_put(&ctx, s->data, src, 0, next) == XG_OK, "length 0");
    xg_barrier();
    free(bigsrc);
    free(bigback);
}

/* Non-blocking puts and gets stay outstanding in their context until its
 * quiet; fence orders a put before the flag that announces it. */
static void check_nbi(shared_t *s, int me, int next, int prev)
{
    long src[64], back[64];
    xg_gas_ctx_t nbi;
    int i;

    xg_gas_ctx_init(&nbi, 0);
    for (i = 0; i < 64; i++) {
        src[i] = me * 1000 + i;
    }
    for (i = 0; i < 64; i++) {
        XG_CHECK(xg_gas_put_nbi(&nbi, &s->data[i], &src[i], sizeof(long),
                                next) == XG_OK,
                 "put_nbi %d", i);
    }
    XG_CHECK(xg_gas_ctx_pending(&nbi) == 64,
             "pending after 64 put_nbi: "
             "%llu",
             (unsigned long long)xg_gas_ctx_pending(&nbi));
    xg_gas_ctx_quiet(&nbi);
    XG_CHECK(xg_gas_ctx_pending(&nbi) == 0, "quiet drained the context");
    xg_barrier();
    for (i = 0; i < 64; i++) {
        XG_CHECK(s->data[i] == prev * 1000 + i, "nbi data[%d] = %ld", i,
                 s->data[i]);
    }
    xg_barrier();
    memset(back, 0, sizeof(back));
    XG_CHECK(xg_gas_get_nbi(&nbi, back, s->data, sizeof(back), next) == XG_OK,
             "get_nbi");
    XG_CHECK(xg_gas_ctx_pending(&nbi) == 1, "get_nbi pending");
    xg_gas_ctx_quiet(&nbi);
    XG_CHECK((back[0] == me * 1000) && (back[63] == me * 1000 + 63),
             "get_nbi data after quiet: %ld %ld", back[0], back[63]);
    /* fence: the data before the flag, each non-blocking */
    for (i = 0; i < 64; i++) {
        src[i] = -i - me;
    }
    XG_CHECK(xg_gas_put_nbi(&nbi, s->data, src, sizeof(src), next) == XG_OK,
             "put_nbi data");
    xg_gas_ctx_fence(&nbi);
    XG_CHECK(xg_gas_ctx_pending(&nbi) == 0, "fence completed the put");
    XG_CHECK(xg_gas_put_nbi(&nbi, &s->flag, &(uint64_t){1}, 8, next) == XG_OK,
             "put_nbi flag");
    xg_gas_wait("test_route_nic", &s->flag, u64, XG_GAS_CMP_EQ, 1);
    XG_CHECK((s->data[0] == -prev) && (s->data[63] == -63 - prev),
             "data before the flag: %ld %ld", s->data[0], s->data[63]);
    xg_gas_ctx_fini(&nbi);
    xg_barrier();
}

/* One step of the sequence the last PE runs on PE 0's word: the operation,
 * its operands, the old value it must return, and 0 for "any". */
typedef struct amo_step {
    xg_gas_amo_t op;
    uint64_t value, cond, old;
} amo_step_t;

static const amo_step_t amo_steps[] = {
    {XG_GAS_AMO_SWAP, 7, 0, 0},   {XG_GAS_AMO_CSWAP, 5, 6, 7},
    {XG_GAS_AMO_CSWAP, 12, 7, 7}, {XG_GAS_AMO_FETCH, 0, 0, 12},
    {XG_GAS_AMO_SET, 9, 0, 0},    {XG_GAS_AMO_AND, 8, 0, 9},
    {XG_GAS_AMO_OR, 3, 0, 8},     {XG_GAS_AMO_XOR, 1, 0, 11},
    {XG_GAS_AMO_ADD, 5, 0, 10},   {XG_GAS_AMO_FETCH, 0, 0, 15},
};

/* All PEs add to PE 0's counters of both sizes (a lost update shows in
 * the sum) and set one bit each; then the last PE runs every operation
 * in turn on a 4- and an 8-byte word, checking each old value. */
static void check_atomics(shared_t *s, int me, int npes)
{
    void *words[2] = {&s->counter32[1], &s->counter64[1]};
    xg_gas_amo_result_t r;
    size_t i, k;

    for (i = 0; i < ROUNDS; i++) {
        XG_CHECK(xg_gas_amo(&ctx, XG_GAS_AMO_ADD, &s->counter64[0], 8,
                            1ull << 33, 0, 0)
                         .status == XG_OK,
                 "add64");
        XG_CHECK(xg_gas_amo(&ctx, XG_GAS_AMO_ADD, &s->counter32[0], 4, 3, 0, 0)
                         .status == XG_OK,
                 "add32");
    }
    XG_CHECK(xg_gas_amo(&ctx, XG_GAS_AMO_OR, &s->bits64, 8, 1ull << me, 0, 0)
                     .status == XG_OK,
             "or");
    xg_barrier();
    if (me == 0) {
        XG_CHECK(s->counter64[0] == (uint64_t)npes * ROUNDS << 33,
                 "sum of 64-bit adds: %#llx",
                 (unsigned long long)s->counter64[0]);
        XG_CHECK(s->counter32[0] == (uint32_t)(npes * ROUNDS * 3),
                 "sum of 32-bit adds: %u", s->counter32[0]);
        XG_CHECK(s->bits64 == (1ull << npes) - 1, "bits: %#llx",
                 (unsigned long long)s->bits64);
    }
    if (me == npes - 1) {
        for (k = 0; k < 2; k++) {
            for (i = 0; i < sizeof(amo_steps) / sizeof(amo_steps[0]); i++) {
                const amo_step_t *st = &amo_steps[i];

                r = xg_gas_amo(&ctx, st->op, words[k], k ? 8 : 4, st->value,
                               st->cond, 0);
                XG_CHECK((r.status == XG_OK) && (r.old == st->old),
                         "%d-byte step %zu: old %llu, expected %llu", k ? 8 : 4,
                         i, (unsigned long long)r.old,
                         (unsigned long long)st->old);
            }
        }
    }
    r = xg_gas_amo(&ctx, XG_GAS_AMO_ADD, (char *)&s->counter64[0] + 4, 8, 1, 0,
                   0);
    XG_CHECK(r.status == XG_ERR_MISALIGNED, "misaligned: %d", r.status);
    xg_barrier();
}

static void check_signal(shared_t *s, int me, int next, int prev)
{
    long block[4] = {me, me + 1, me + 2, me + 3};

    XG_CHECK(xg_gas_put_signal(&ctx, &s->data[8], block, sizeof(block), &s->sig,
                               5, XG_GAS_SIGNAL_ADD, next) == XG_OK,
             "put_signal");
    XG_CHECK(xg_gas_wait("test_route_nic", &s->sig, u64, XG_GAS_CMP_GE, 5) == 5,
             "signal value");
    XG_CHECK((s->data[8] == prev) && (s->data[11] == prev + 3),
             "data before the signal: %ld %ld", s->data[8], s->data[11]);
    xg_barrier();
}

/* The lock guards a get-increment-put on PE 0 (lost updates show in the
 * total); odd rounds take it with test in a loop, even ones with set.
 * Then the statuses: clear of a free lock, of another PE's. */
static void check_lock(shared_t *s, int me)
{
    xg_wait_t wait;
    uint64_t v;
    int i, taken;

    for (i = 0; i < ROUNDS / 4; i++) {
        if (i & 1) {
            xg_wait_init(&wait);
            for (taken = 0; !taken; xg_wait_backoff(&wait)) {
                XG_CHECK(xg_gas_lock_test(&s->lock, &taken) == XG_OK, "test");
            }
        } else {
            XG_CHECK(xg_gas_lock_set("test_route_nic", &s->lock) == XG_OK,
                     "set");
        }
        XG_CHECK(xg_gas_g(&ctx, &v, &s->guarded, 8, 0) == XG_OK, "g");
        v += 1;
        XG_CHECK(xg_gas_p(&ctx, &s->guarded, &v, 8, 0) == XG_OK, "p");
        XG_CHECK(xg_gas_lock_clear(&ctx, &s->lock) == XG_OK, "clear");
    }
    xg_barrier();
    XG_CHECK(xg_gas_g(&ctx, &v, &s->guarded, 8, 0) == XG_OK, "g total");
    XG_CHECK(v == (uint64_t)xg_size() * (ROUNDS / 4), "guarded: %llu",
             (unsigned long long)v);
    XG_CHECK(xg_gas_lock_clear(&ctx, &s->lock) == XG_GAS_LOCK_FREE,
             "clear of a free lock");
    xg_barrier();
    if (me == 0) {
        XG_CHECK(xg_gas_lock_set("test_route_nic", &s->lock) == XG_OK,
                 "set by PE 0");
    }
    xg_barrier();
    if (me != 0) {
        XG_CHECK(xg_gas_lock_clear(&ctx, &s->lock) == XG_GAS_LOCK_NOT_MINE,
                 "clear of PE 0's lock");
    }
    xg_barrier();
    if (me == 0) {
        XG_CHECK(xg_gas_lock_clear(&ctx, &s->lock) == XG_OK, "final clear");
    }
    xg_barrier();
}

/* Routes are per PE: the next PE direct again, the others through the
 * NIC, data moves either way. */
static void check_mixed(shared_t *s, int me, int next, int prev)
{
    long v = 5000 + me;

    xg_gas_set_route(next, XG_GAS_ROUTE_DIRECT);
    XG_CHECK(xg_gas_translate(s->data, 8, next) != NULL, "direct again");
    XG_CHECK(xg_gas_p(&ctx, &s->data[1], &v, sizeof(v), next) == XG_OK,
             "p direct");
    XG_CHECK(xg_gas_p(&ctx, &s->data[2], &v, sizeof(v), prev) == XG_OK,
             "p through the NIC");
    xg_barrier();
    XG_CHECK(s->data[1] == 5000 + prev, "direct data: %ld", s->data[1]);
    XG_CHECK(s->data[2] == 5000 + next, "NIC data: %ld", s->data[2]);
    xg_barrier();
    xg_gas_set_route(next, XG_GAS_ROUTE_NIC);
}

/* A strided get and put of many single elements (more than the NIC holds
 * in flight at once) from and to the next PE. */
#define MANY 100000
static void check_many_strided(long *many, int me, int next, int prev)
{
    long *local = malloc(MANY * sizeof(long));
    int i;

    XG_CHECK(local != NULL, "malloc");
    for (i = 0; i < 2 * MANY; i++) {
        many[i] = (i % 2) ? -1 : (long)me * MANY + i / 2;
    }
    xg_barrier();
    XG_CHECK(xg_gas_iget(&ctx, local, many, sizeof(long), sizeof(long),
                         2 * sizeof(long), MANY, next) == XG_OK,
             "iget of %d elements", MANY);
    for (i = 0; i < MANY; i++) {
        XG_CHECK(local[i] == (long)next * MANY + i, "iget [%d] = %ld", i,
                 local[i]);
    }
    xg_barrier();
    XG_CHECK(xg_gas_iput(&ctx, many + 1, local, sizeof(long), 2 * sizeof(long),
                         sizeof(long), MANY, next) == XG_OK,
             "iput of %d elements", MANY);
    xg_barrier();
    /* the odd slots now hold what prev read from me */
    for (i = 0; i < MANY; i++) {
        XG_CHECK(many[2 * i + 1] == (long)me * MANY + i, "iput [%d] = %ld", i,
                 many[2 * i + 1]);
    }
    (void)prev;
    free(local);
    xg_barrier();
}

int main(void)
{
    shared_t *s;
    char *big;
    long *many;
    gas_test_ring_t ring;

    ring = gas_test_start(&ctx);
    XG_CHECK(xg_malloc(sizeof(*s), (void **)&s) == XG_OK, "alloc");
    XG_CHECK(xg_malloc(BIG, (void **)&big) == XG_OK, "alloc big");
    XG_CHECK(xg_malloc(2 * MANY * sizeof(long), (void **)&many) == XG_OK,
             "alloc many");
    memset(s, 0, sizeof(*s));
    xg_barrier();

    check_rma(s, big, ring.me, ring.next, ring.prev);
    check_nbi(s, ring.me, ring.next, ring.prev);
    check_atomics(s, ring.me, ring.npes);
    check_signal(s, ring.me, ring.next, ring.prev);
    check_lock(s, ring.me);
    check_mixed(s, ring.me, ring.next, ring.prev);
    check_many_strided(many, ring.me, ring.next, ring.prev);

    xg_barrier();
    XG_CHECK(xg_free(many) == XG_OK, "free many");
    XG_CHECK(xg_free(big) == XG_OK, "free big");
    XG_CHECK(xg_free(s) == XG_OK, "free");
    XG_CHECK(xg_fini() == XG_OK, "xg_fini");
    return XG_TEST_PASS;
}
