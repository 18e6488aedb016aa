/*
 * Unit test of the operations on global addresses (src/gas/xg_gas_gaddr.h),
 * the native API's data path, called directly: the owner of an address,
 * bulk and single-element put/get to the next PE and to local memory,
 * table atomics with every PE contending on PE 0's counters (4 and 8
 * bytes, add, compare-and-swap, fetch), and the statuses of bad calls --
 * misaligned, out of bounds, namespace out of range, a type no CPU atomic
 * covers, a PE without a direct route -- none of which moves anything.
 */
#include <string.h>

#include "base/xg_wait.h"
#include "gas/xg_gas_gaddr.h"
#include "gas/xg_gas_ops.h"
#include "xg_test.h"
#include "xgas.h"

#define ROUNDS 50

typedef struct shared {
    uint64_t counter64;
    uint32_t counter32;
    uint64_t word;
    char bulk[40];
    _Alignas(16) long double wide;
} shared_t;

/* The global address of @field of PE @pe's copy of @s. */
static xg_gaddr_t at(shared_t *s, void *field, int pe)
{
    xg_gaddr_t gaddr;

    XG_CHECK(xg_gaddr(s, pe, &gaddr) == XG_OK, "xg_gaddr");
    return xg_gaddr_add(gaddr, (char *)field - (char *)s);
}

static void check_owner(shared_t *s, int me, int npes)
{
    xg_gaddr_t far = {(uint64_t)npes + 1, 0};

    XG_CHECK(xg_gas_gaddr_pe(xg_gaddr_local(&me)) == me, "local namespace");
    XG_CHECK(xg_gas_gaddr_pe(at(s, s, npes - 1)) == npes - 1, "last PE");
    XG_CHECK(xg_gas_gaddr_pe(far) == -1, "namespace out of range");
}

static void check_put_get(shared_t *s, int me, int next)
{
    char bulk[40], back[40];
    uint64_t v = 0x1000 + (uint64_t)me, got = 0;
    int i;

    for (i = 0; i < 40; i++) {
        bulk[i] = (char)(me * 40 + i);
    }
    XG_CHECK(xg_gas_gaddr_put(at(s, s->bulk, next), bulk, 40, 1) == XG_OK,
             "bulk put");
    XG_CHECK(xg_gas_gaddr_put(at(s, &s->word, next), &v, 8, 8) == XG_OK,
             "element put");
    xg_barrier();
    /* each PE read back what it put to the next */
    XG_CHECK(xg_gas_gaddr_get(back, at(s, s->bulk, next), 40, 1) == XG_OK,
             "bulk get");
    for (i = 0; i < 40; i++) {
        XG_CHECK(back[i] == (char)(me * 40 + i), "bulk[%d] of PE %d", i, next);
    }
    XG_CHECK(xg_gas_gaddr_get(&got, at(s, &s->word, next), 8, 8) == XG_OK,
             "element get");
    XG_CHECK(got == v, "word %#llx", (unsigned long long)got);
    /* namespace 0: local memory */
    XG_CHECK(xg_gas_gaddr_put(xg_gaddr_local(&got), &v, 8, 8) == XG_OK,
             "local put");
    XG_CHECK(got == v, "local put moved nothing");
    xg_barrier();
}

static void check_atomics(shared_t *s, int me, int npes)
{
    uint64_t one64 = 1, old64, expected, desired;
    uint32_t one32 = 1, old32;
    xg_wait_t wait;
    int i;

    for (i = 0; i < ROUNDS; i++) {
        XG_CHECK(xg_gas_gaddr_amo(XG_OP_SUM, XG_TYPE_U64,
                                  at(s, &s->counter64, 0), &one64, NULL,
                                  NULL) == XG_OK,
                 "add 64");
        XG_CHECK(xg_gas_gaddr_amo(XG_OP_SUM, XG_TYPE_U32,
                                  at(s, &s->counter32, 0), &one32, NULL,
                                  &old32) == XG_OK,
                 "fetch-add 32");
    }
    xg_barrier();
    XG_CHECK(xg_gas_gaddr_amo(XG_OP_FETCH, XG_TYPE_U64, at(s, &s->counter64, 0),
                              NULL, NULL, &old64) == XG_OK,
             "fetch 64");
    XG_CHECK(old64 == (uint64_t)npes * ROUNDS, "counter64 %llu",
             (unsigned long long)old64);
    XG_CHECK(xg_gas_gaddr_amo(XG_OP_FETCH, XG_TYPE_U32, at(s, &s->counter32, 0),
                              NULL, NULL, &old32) == XG_OK,
             "fetch 32");
    XG_CHECK(old32 == (uint32_t)npes * ROUNDS, "counter32 %u", old32);
    xg_barrier();
    /* PE me swaps the counter from npes * ROUNDS + me to + me + 1: they
     * take turns in PE order, each succeeding once */
    expected = (uint64_t)npes * ROUNDS + (uint64_t)me;
    desired  = expected + 1;
    xg_wait_init(&wait);
    do {
        XG_CHECK(xg_gas_gaddr_amo(XG_OP_CSWAP, XG_TYPE_U64,
                                  at(s, &s->counter64, 0), &desired, &expected,
                                  &old64) == XG_OK,
                 "cswap");
        if (old64 != expected) {
            xg_wait_backoff(&wait);
        }
    } while (old64 != expected);
    xg_barrier();
    XG_CHECK(s->counter64 == ((me == 0) ? (uint64_t)npes * (ROUNDS + 1) : 0),
             "after the swaps: %llu", (unsigned long long)s->counter64);
}

static void check_errors(shared_t *s, int me, int npes)
{
    xg_gaddr_t far = {(uint64_t)npes + 1, 0}, word;
    static char big[1 << 20];
    uint64_t v = 7, old = 0;
    long double one = 1;

    s->word = 0;
    XG_CHECK(xg_gas_gaddr_put(xg_gaddr_add(at(s, &s->word, me), 1), &v, 8, 8) ==
                 XG_ERR_MISALIGNED,
             "misaligned put");
    XG_CHECK(xg_gas_gaddr_amo(XG_OP_SUM, XG_TYPE_U64,
                              xg_gaddr_add(at(s, &s->word, me), 4), &v, NULL,
                              &old) == XG_ERR_MISALIGNED,
             "misaligned amo");
    XG_CHECK(s->word == 0, "a misaligned operation moved data");
    XG_CHECK(xg_gas_gaddr_put(at(s, s->bulk, me), big, sizeof(big), 1) ==
                 XG_ERR_OUT_OF_BOUNDS,
             "past the heap");
    XG_CHECK(xg_gas_gaddr_get(&v, far, 8, 8) == XG_ERR_PE_RANGE,
             "namespace out of range");
    XG_CHECK(xg_gas_gaddr_amo(XG_OP_SUM, XG_TYPE_LDOUBLE, at(s, &s->wide, me),
                              &one, NULL, NULL) == XG_ERR_UNSUPPORTED,
             "long double atomic");
    XG_CHECK(v == 7, "a failed get moved data");

    word = at(s, &s->word, me);
    xg_gas_set_route(me, XG_GAS_ROUTE_NIC);
    XG_CHECK(xg_gas_gaddr_put(word, &v, 8, 8) == XG_ERR_UNREACHABLE,
             "put without a route");
    XG_CHECK(xg_gas_gaddr_amo(XG_OP_SUM, XG_TYPE_U64, word, &v, NULL, &old) ==
                 XG_ERR_UNREACHABLE,
             "amo without a route");
    xg_gas_set_route(me, XG_GAS_ROUTE_DIRECT);
    XG_CHECK(s->word == 0, "an unreachable operation moved data");
}

int main(void)
{
    shared_t *s;
    int me, npes;

    XG_CHECK(xg_init() == XG_OK, "xg_init");
    me         = xg_rank();
    npes       = xg_size();
    xg_test_pe = me;
    XG_CHECK(xg_malloc(sizeof(*s), (void **)&s) == XG_OK, "alloc");
    memset(s, 0, sizeof(*s));
    xg_barrier();
    check_owner(s, me, npes);
    check_put_get(s, me, (me + 1) % npes);
    check_atomics(s, me, npes);
    check_errors(s, me, npes);
    xg_barrier();
    XG_CHECK(xg_free(s) == XG_OK, "free");
    XG_CHECK(xg_fini() == XG_OK, "xg_fini");
    return 0;
}
