/*
 * Unit test of the gas operations (src/gas/xg_gas_ops.h), called directly
 * under the native API: put/get (element, contiguous, strided) to the next
 * PE, every atomic on 4 and 8 bytes with all PEs contending on PE 0's
 * counters, put-with-signal observed through a gas wait, the wait/test
 * family on local variables (signed and unsigned orders, sets), the MCS
 * lock guarding a non-atomic update, the statuses of bad calls, contexts'
 * pending counters (quiet waits for an outstanding operation another
 * thread completes), and a PE whose route is not direct: every operation
 * returns XG_ERR_UNREACHABLE and moves nothing.
 */
#include <pthread.h>

#include "base/xg_wait.h"
#include "gas/xg_gas_ops.h"
#include "xg_test.h"
#include "xgas.h"

#define ROUNDS 50

typedef struct shared {
    uint64_t counter64[2];
    uint32_t counter32[2];
    uint64_t lock;
    uint64_t guarded; /* updated by get + put under the lock */
    uint64_t sig;
    long data[16];
    long strided[32];
    uint64_t bits64;
    uint32_t bits32;
} shared_t;

static xg_gas_ctx_t ctx;

static void check_put_get(shared_t *s, int me, int next)
{
    long src[16], back[16], v = 1000 + me;
    int i;

    for (i = 0; i < 16; i++) {
        src[i] = me * 100 + i;
    }
    XG_CHECK(xg_gas_put(&ctx, s->data, src, sizeof(src), next) == XG_OK, "put");
    XG_CHECK(xg_gas_p(&ctx, &s->data[15], &v, sizeof(v), next) == XG_OK, "p");
    /* every other element of src into strided[0, 2, ..., 30] */
    XG_CHECK(xg_gas_iput(&ctx, s->strided, src, sizeof(long), 2 * sizeof(long),
                         sizeof(long), 16, next) == XG_OK,
             "iput");
    xg_barrier();
    for (i = 0; i < 15; i++) {
        int prev = (me + xg_size() - 1) % xg_size();

        XG_CHECK(s->data[i] == prev * 100 + i, "data[%d] = %ld", i, s->data[i]);
        XG_CHECK(s->strided[2 * i] == prev * 100 + i, "strided[%d] = %ld",
                 2 * i, s->strided[2 * i]);
    }
    XG_CHECK(xg_gas_get(&ctx, back, s->data, sizeof(back), next) == XG_OK,
             "get");
    XG_CHECK(back[15] == 1000 + me, "get of p: %ld", back[15]);
    XG_CHECK(xg_gas_g(&ctx, &v, &s->data[3], sizeof(v), next) == XG_OK, "g");
    XG_CHECK(v == me * 100 + 3, "g: %ld", v);
    XG_CHECK(xg_gas_iget(&ctx, back, s->strided, sizeof(long), sizeof(long),
                         2 * sizeof(long), 4, next) == XG_OK,
             "iget");
    XG_CHECK((back[0] == me * 100) && (back[3] == me * 100 + 3),
             "iget: %ld %ld", back[0], back[3]);
    /* nothing moves on a bad call */
    XG_CHECK(xg_gas_iput(&ctx, s->strided, src, sizeof(long), 0, sizeof(long),
                         4, next) == XG_ERR_INVALID_PARAM,
             "stride 0");
    XG_CHECK(xg_gas_put(&ctx, s->data, src, sizeof(src), xg_size()) ==
                 XG_ERR_PE_RANGE,
             "PE range");
    XG_CHECK(xg_gas_put(&ctx, &v, src, sizeof(long), next) ==
                 XG_ERR_NOT_SYMMETRIC,
             "stack address");
    XG_CHECK(xg_gas_put(&ctx, s->data, src, 0, next) == XG_OK, "length 0");
    xg_barrier();
}

static void check_atomics(shared_t *s, int me, int npes)
{
    xg_gas_amo_result_t r;
    int i;

    for (i = 0; i < ROUNDS; i++) {
        r = xg_gas_amo(&ctx, XG_GAS_AMO_ADD, &s->counter64[0], 8, 1, 0, 0);
        XG_CHECK(r.status == XG_OK, "add64");
        r = xg_gas_amo(&ctx, XG_GAS_AMO_ADD, &s->counter32[0], 4, (uint32_t)-1,
                       0, 0);
        XG_CHECK(r.status == XG_OK, "add32");
    }
    /* each PE sets its own bit, then one cswap race: one winner */
    r = xg_gas_amo(&ctx, XG_GAS_AMO_OR, &s->bits64, 8, 1ull << me, 0, 0);
    XG_CHECK(r.status == XG_OK, "or");
    r = xg_gas_amo(&ctx, XG_GAS_AMO_XOR, &s->bits32, 4, 1u << me, 0, 0);
    XG_CHECK(r.status == XG_OK, "xor");
    r = xg_gas_amo(&ctx, XG_GAS_AMO_CSWAP, &s->counter64[1], 8, me + 1, 0, 0);
    XG_CHECK(r.status == XG_OK, "cswap");
    xg_barrier();
    if (me == 0) {
        XG_CHECK(s->counter64[0] == (uint64_t)npes * ROUNDS, "add64: %llu",
                 (unsigned long long)s->counter64[0]);
        XG_CHECK(s->counter32[0] == (uint32_t) - (npes * ROUNDS), "add32: %u",
                 s->counter32[0]);
        XG_CHECK(s->bits64 == (1ull << npes) - 1, "or: %#llx",
                 (unsigned long long)s->bits64);
        XG_CHECK(s->bits32 == (uint32_t)((1ull << npes) - 1), "xor: %#x",
                 s->bits32);
        XG_CHECK((s->counter64[1] >= 1) && (s->counter64[1] <= (uint64_t)npes),
                 "cswap winner %llu", (unsigned long long)s->counter64[1]);
    }
    xg_barrier();
    if (me == npes - 1) {
        r = xg_gas_amo(&ctx, XG_GAS_AMO_SWAP, &s->counter32[1], 4, 7, 0, 0);
        XG_CHECK((r.status == XG_OK) && (r.old == 0), "swap");
        r = xg_gas_amo(&ctx, XG_GAS_AMO_FETCH, &s->counter32[1], 4, 0, 0, 0);
        XG_CHECK((r.status == XG_OK) && (r.old == 7), "fetch");
        r = xg_gas_amo(&ctx, XG_GAS_AMO_SET, &s->counter32[1], 4, 9, 0, 0);
        r = xg_gas_amo(&ctx, XG_GAS_AMO_AND, &s->counter32[1], 4, 8, 0, 0);
        XG_CHECK((r.status == XG_OK) && (r.old == 9), "and");
        r = xg_gas_amo(&ctx, XG_GAS_AMO_FETCH, &s->counter32[1], 4, 0, 0, 0);
        XG_CHECK(r.old == 8, "set then and: %llu", (unsigned long long)r.old);
    }
    r = xg_gas_amo(&ctx, XG_GAS_AMO_ADD, (char *)&s->counter64[0] + 4, 8, 1, 0,
                   0);
    XG_CHECK(r.status == XG_ERR_MISALIGNED, "misaligned: %d", r.status);
    xg_barrier();
}

/* Every PE puts its block into the next PE's data with a signal add; the
 * receiver waits for the signal and must then see the data. */
static void check_signal(shared_t *s, int me, int next)
{
    long block[4]    = {me, me + 1, me + 2, me + 3};
    int prev         = (me + xg_size() - 1) % xg_size();
    xg_gas_int_t u64 = {8, 0, "uint64_t"};

    XG_CHECK(xg_gas_put_signal(&ctx, &s->data[8], block, sizeof(block), &s->sig,
                               5, XG_GAS_SIGNAL_ADD, next) == XG_OK,
             "put_signal");
    XG_CHECK(xg_gas_wait("test_ops", &s->sig, u64, XG_GAS_CMP_GE, 5) == 5,
             "signal value");
    XG_CHECK((s->data[8] == prev) && (s->data[11] == prev + 3),
             "data before the signal: %ld %ld", s->data[8], s->data[11]);
    xg_barrier();
}

/* The wait/test family on local variables, with no other PE involved. */
static void check_waits(void)
{
    int16_t small[4]   = {-5, 3, -1, 7};
    uint16_t usmall[2] = {65531, 3};
    int status[4]      = {0, 1, 0, 0};
    int64_t values[4]  = {-5, 0, 0, 7};
    size_t idx[4], n;
    xg_gas_int_t i16 = {2, 1, "short"}, u16 = {2, 0, "unsigned short"};
    xg_gas_int_t i64 = {8, 1, "int64_t"};
    int64_t big[4]   = {-1, 2, -3, 7};

    XG_CHECK(xg_gas_test(&small[0], i16, XG_GAS_CMP_LT, 0), "-5 < 0 signed");
    XG_CHECK(!xg_gas_test(&usmall[0], u16, XG_GAS_CMP_LT, 0),
             "65531 < 0 unsigned");
    XG_CHECK(xg_gas_test(&small[2], i16, XG_GAS_CMP_EQ, (uint64_t)-1),
             "-1 == -1");
    XG_CHECK((int16_t)xg_gas_wait("test_ops", &small[3], i16, XG_GAS_CMP_GE,
                                  (uint64_t)(int64_t)-100) == 7,
             "wait");
    /* element 1 excluded: of the rest, 0 and 2 are below 5 */
    {
        int16_t five = 5;

        n = xg_gas_test_some(small, 4, idx, status, i16, XG_GAS_CMP_LT, &five,
                             0);
        XG_CHECK((n == 2) && (idx[0] == 0) && (idx[1] == 2), "some: %zu", n);
        XG_CHECK(xg_gas_wait_any("test_ops", small, 4, status, i16,
                                 XG_GAS_CMP_GT, &five, 0) == 3,
                 "any");
        XG_CHECK(xg_gas_test_all(small, 4, status, i16, XG_GAS_CMP_LT, &five,
                                 0) == 0,
                 "not all < 5");
    }
    XG_CHECK(xg_gas_test_all(big, 4, NULL, i64, XG_GAS_CMP_EQ, big, 1),
             "vector: each equals itself");
    XG_CHECK(xg_gas_test_all(big, 4, NULL, i64, XG_GAS_CMP_EQ, values, 1) == 0,
             "vector: differs");
    XG_CHECK(xg_gas_test_any(big, 4, (int[]){1, 1, 1, 1}, i64, XG_GAS_CMP_EQ,
                             big, 1) == SIZE_MAX,
             "empty set");
    XG_CHECK(xg_gas_wait_some("test_ops", big, 4, idx, NULL, i64, XG_GAS_CMP_GT,
                              &(int64_t){0}, 0) == 2,
             "wait_some");
}

static void check_lock(shared_t *s, int me)
{
    uint64_t v;
    int i, taken;

    for (i = 0; i < ROUNDS / 5; i++) {
        XG_CHECK(xg_gas_lock_set("test_ops", &s->lock) == XG_OK, "set");
        XG_CHECK(xg_gas_lock_set("test_ops", &s->lock) == XG_GAS_LOCK_REENTERED,
                 "reentry refused");
        XG_CHECK(xg_gas_g(&ctx, &v, &s->guarded, 8, 0) == XG_OK, "g");
        v++;
        XG_CHECK(xg_gas_p(&ctx, &s->guarded, &v, 8, 0) == XG_OK, "p");
        XG_CHECK(xg_gas_lock_clear(&ctx, &s->lock) == XG_OK, "clear");
    }
    xg_barrier();
    if (me == 0) {
        XG_CHECK(s->guarded == (uint64_t)xg_size() * (ROUNDS / 5),
                 "guarded: %llu", (unsigned long long)s->guarded);
        XG_CHECK(xg_gas_lock_clear(&ctx, &s->lock) == XG_GAS_LOCK_FREE,
                 "clear of a free lock");
        XG_CHECK(xg_gas_lock_test(&s->lock, &taken) == XG_OK && taken,
                 "test of a free lock");
    }
    xg_barrier();
    if (me != 0) {
        XG_CHECK(xg_gas_lock_test(&s->lock, &taken) == XG_OK && !taken,
                 "test of a held lock");
        XG_CHECK(xg_gas_lock_clear(&ctx, &s->lock) == XG_GAS_LOCK_NOT_MINE,
                 "clear of another PE's lock");
    }
    xg_barrier();
    if (me == 0) {
        XG_CHECK(xg_gas_lock_clear(&ctx, &s->lock) == XG_OK, "final clear");
    }
    xg_barrier();
}

static int completed;

static void *complete_later(void *arg)
{
    xg_gas_ctx_t *c = arg;
    xg_wait_t wait;
    int i;

    xg_wait_init(&wait);
    for (i = 0; i < 1000; i++) {
        xg_wait_backoff(&wait); /* give quiet a chance to wait */
    }
    __atomic_store_n(&completed, 1, __ATOMIC_RELAXED);
    xg_gas_ctx_op_done(c);
    return NULL;
}

static void check_contexts(void)
{
    xg_gas_ctx_t priv, shared;
    pthread_t thread;

    xg_gas_ctx_init(&priv, 1);
    xg_gas_ctx_init(&shared, 0);
    XG_CHECK(priv.lock == XG_GAS_CTX_LOCK_NONE, "private: no lock");
    XG_CHECK(shared.lock == XG_GAS_CTX_LOCK_ATOMIC, "shared: atomic");
    /* the direct route leaves nothing outstanding */
    XG_CHECK(xg_gas_put_nbi(&shared, &completed, &completed, 0, xg_rank()) ==
                 XG_OK,
             "put_nbi");
    XG_CHECK(xg_gas_ctx_pending(&shared) == 0, "direct nbi pending");
    xg_gas_ctx_op_start(&priv);
    xg_gas_ctx_op_start(&priv);
    XG_CHECK(xg_gas_ctx_pending(&priv) == 2, "private count");
    xg_gas_ctx_op_done(&priv);
    xg_gas_ctx_op_done(&priv);
    XG_CHECK(xg_gas_ctx_pending(&priv) == 0, "private drained");
    /* quiet returns only once the outstanding operation completed */
    xg_gas_ctx_op_start(&shared);
    XG_CHECK(pthread_create(&thread, NULL, complete_later, &shared) == 0,
             "thread");
    xg_gas_ctx_quiet(&shared);
    XG_CHECK(__atomic_load_n(&completed, __ATOMIC_RELAXED) == 1,
             "quiet returned before the operation completed");
    XG_CHECK(xg_gas_ctx_pending(&shared) == 0, "quiet drained");
    pthread_join(thread, NULL);
    xg_gas_ctx_fini(&shared);
    xg_gas_ctx_fini(&priv);
}

/* PE @peer reached through the NIC route, which no build has yet. */
static void check_unreachable(shared_t *s, int peer)
{
    long v = 42;
    xg_gas_amo_result_t r;

    xg_gas_set_route(peer, XG_GAS_ROUTE_NIC);
    XG_CHECK(xg_gas_translate(s->data, 8, peer) == NULL, "translate");
    XG_CHECK(xg_gas_diagnose(s->data, 8, peer) == XG_ERR_UNREACHABLE,
             "diagnose");
    XG_CHECK(xg_gas_p(&ctx, s->data, &v, sizeof(v), peer) == XG_ERR_UNREACHABLE,
             "p");
    XG_CHECK(xg_gas_put(&ctx, s->data, &v, sizeof(v), peer) ==
                 XG_ERR_UNREACHABLE,
             "put");
    XG_CHECK(xg_gas_get(&ctx, &v, s->data, sizeof(v), peer) ==
                 XG_ERR_UNREACHABLE,
             "get");
    XG_CHECK(xg_gas_iput(&ctx, s->strided, &v, 8, 8, 8, 1, peer) ==
                 XG_ERR_UNREACHABLE,
             "iput");
    r = xg_gas_amo(&ctx, XG_GAS_AMO_ADD, &s->counter64[0], 8, 1, 0, peer);
    XG_CHECK(r.status == XG_ERR_UNREACHABLE, "amo");
    XG_CHECK(xg_gas_signal(&ctx, &s->sig, 1, XG_GAS_SIGNAL_SET, peer) ==
                 XG_ERR_UNREACHABLE,
             "signal");
    XG_CHECK(v == 42, "get moved data");
    xg_gas_set_route(peer, XG_GAS_ROUTE_DIRECT);
    XG_CHECK(xg_gas_g(&ctx, &v, s->data, sizeof(v), peer) == XG_OK,
             "direct again");
}

int main(void)
{
    shared_t *s;
    int me, npes, next;

    XG_CHECK(xg_init() == XG_OK, "xg_init");
    me         = xg_rank();
    npes       = xg_size();
    next       = (me + 1) % npes;
    xg_test_pe = me;
    xg_gas_ctx_init(&ctx, 1);
    XG_CHECK(xg_malloc(sizeof(*s), (void **)&s) == XG_OK, "alloc");
    memset(s, 0, sizeof(*s));
    xg_barrier();

    check_put_get(s, me, next);
    check_atomics(s, me, npes);
    check_signal(s, me, next);
    check_waits();
    check_lock(s, me);
    check_contexts();
    check_unreachable(s, next);

    xg_barrier();
    XG_CHECK(xg_free(s) == XG_OK, "free");
    XG_CHECK(xg_fini() == XG_OK, "xg_fini");
    return XG_TEST_PASS;
}
