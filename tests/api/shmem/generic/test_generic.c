/*
 * The C11 type-generic interface: every generic routine of RMA, atomics,
 * put-with-signal, signals and point-to-point synchronization selects the
 * typed routine from its data argument, and the context form when a
 * shmem_ctx_t comes first.  Values are checked exactly, so a wrong
 * selection (say the int routine for a long) shows.
 */
#include <shmem.h>
#include <stdint.h>
#include <string.h>

#include "xg_test.h"

static int me, npes, right, left;

static long lv[4];
static double dv[4];
static unsigned char ucv[4];
static long double ldv[2];
static int iv;
static unsigned long ulv;
static long long llv;
static float fv;
static uint64_t sig;
static int flags[4];

static void test_rma(shmem_ctx_t ctx)
{
    long ls[4]          = {me, me + 1, me + 2, me + 3}, lb[4];
    double ds[4]        = {me + 0.5, me + 1.5, me + 2.5, me + 3.5}, db[4];
    unsigned char us[4] = {1, 2, 3, (unsigned char)me};
    long double lds[2]  = {me + 0.25L, me + 0.75L};

    shmem_put(lv, ls, 4, right);
    shmem_put(ctx, dv, ds, 4, right);
    shmem_put_nbi(ucv, us, 4, right);
    shmem_put_nbi(ctx, ldv, lds, 2, right);
    shmem_p(&iv, me * 3, right);
    shmem_p(ctx, &fv, (float)me + 0.5f, right);
    shmem_quiet();
    shmem_barrier_all();
    XG_CHECK(lv[3] == left + 3 && dv[2] == left + 2.5 && ucv[3] == left &&
                 ldv[1] == left + 0.75L && iv == left * 3 && fv == left + 0.5f,
             "generic put/p");
    shmem_barrier_all();
    shmem_get(lb, lv, 4, right);
    shmem_get(ctx, db, dv, 4, right);
    XG_CHECK(lb[0] == me && db[3] == me + 3.5, "generic get");
    shmem_get_nbi(lb, lv, 4, right);
    shmem_get_nbi(ctx, db, dv, 4, right);
    shmem_quiet();
    XG_CHECK(lb[1] == me + 1 && db[0] == me + 0.5, "generic get_nbi");
    XG_CHECK(shmem_g(&iv, right) == me * 3 &&
                 shmem_g(ctx, &fv, right) == me + 0.5f &&
                 shmem_g((const long *)&lv[2], right) == me + 2,
             "generic g");
    shmem_barrier_all();
    shmem_iput(lv, ls, 2, 1, 2, right);
    shmem_ibput(ctx, dv, ds, 2, 2, 1, 2, right);
    shmem_quiet();
    shmem_barrier_all();
    XG_CHECK(lv[0] == left && lv[2] == left + 1 && dv[2] == left + 2.5,
             "generic iput/ibput");
    shmem_barrier_all();
    memset(lb, 0, sizeof(lb));
    shmem_iget(lb, lv, 1, 2, 2, right);
    shmem_ibget(ctx, db, dv, 1, 2, 1, 2, right);
    XG_CHECK(lb[0] == me && lb[1] == me + 1 && db[1] == me + 2.5,
             "generic iget/ibget");
    shmem_barrier_all();
    shmem_put_signal(lv, ls, 4, &sig, 1, SHMEM_SIGNAL_ADD, right);
    shmem_put_signal_nbi(ctx, dv, ds, 4, &sig, 1, SHMEM_SIGNAL_ADD, right);
    shmem_signal_add(&sig, 1, right);
    shmem_signal_add(ctx, &sig, 1, right);
    shmem_quiet();
    shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 4);
    XG_CHECK(lv[3] == left + 3 && dv[0] == left + 0.5, "generic put_signal");
    shmem_barrier_all();
    shmem_signal_set(&sig, 0, me);
    shmem_signal_set(ctx, &sig, 0, me);
    shmem_barrier_all();
}

static void test_amo(shmem_ctx_t ctx)
{
    long lf;
    unsigned long ulf;

    shmem_atomic_set(&llv, 5LL, right);
    shmem_atomic_set(ctx, &fv, 2.5f, right);
    shmem_atomic_set(&ulv, 0xF0UL, right);
    shmem_atomic_set(ctx, &lv[0], 10L, right);
    XG_CHECK(shmem_atomic_fetch(&llv, right) == 5 &&
                 shmem_atomic_fetch(ctx, &fv, right) == 2.5f,
             "generic atomic_set/fetch");
    XG_CHECK(shmem_atomic_swap(&fv, 4.5f, right) == 2.5f &&
                 shmem_atomic_compare_swap(ctx, &llv, 5LL, 6LL, right) == 5 &&
                 shmem_atomic_fetch_inc(&llv, right) == 6 &&
                 shmem_atomic_fetch_add(ctx, &llv, 3LL, right) == 7,
             "generic swap/compare_swap/fetch_inc/fetch_add");
    shmem_atomic_inc(&lv[0], right);
    shmem_atomic_add(ctx, &lv[0], 4L, right);
    shmem_atomic_fetch_add_nbi(&lf, &lv[0], 1L, right);
    shmem_atomic_fetch_inc_nbi(ctx, &lf, &lv[0], right);
    shmem_quiet();
    XG_CHECK(lf == 16 && shmem_atomic_fetch(&lv[0], right) == 17,
             "generic inc/add/_nbi: %ld", lf);
    XG_CHECK(shmem_atomic_fetch_and(&ulv, 0x3CUL, right) == 0xF0 &&
                 shmem_atomic_fetch_or(ctx, &ulv, 0x01UL, right) == 0x30 &&
                 shmem_atomic_fetch_xor(&ulv, 0xFFUL, right) == 0x31,
             "generic fetch_and/or/xor");
    shmem_atomic_and(&ulv, 0x0FUL, right);
    shmem_atomic_or(ctx, &ulv, 0x100UL, right);
    shmem_atomic_xor(&ulv, 0x1UL, right);
    shmem_atomic_fetch_and_nbi(&ulf, &ulv, ~0UL, right);
    shmem_quiet();
    XG_CHECK(ulf == 0x10F, "generic and/or/xor: %#lx", ulf);
    shmem_atomic_fetch_or_nbi(ctx, &ulf, &ulv, 0UL, right);
    shmem_atomic_fetch_xor_nbi(&ulf, &ulv, 0UL, right);
    shmem_atomic_compare_swap_nbi(&lf, &lv[0], 17L, 18L, right);
    shmem_atomic_swap_nbi(ctx, &lf, &lv[0], 19L, right);
    shmem_atomic_fetch_nbi(&lf, &lv[0], right);
    shmem_quiet();
    XG_CHECK(lf == 19 && ulf == 0x10F, "generic _nbi: %ld %#lx", lf, ulf);
    shmem_barrier_all();
}

static void test_sync(void)
{
    int status[4] = {0, 0, 0, 0}, cmp_values[4] = {1, 1, 1, 1};
    size_t indices[4];

    shmem_barrier_all();
    shmem_atomic_set(&flags[me % 4], 1, right);
    shmem_atomic_set(&iv, 7, right);
    shmem_wait_until(&iv, SHMEM_CMP_EQ, 7);
    XG_CHECK(shmem_test(&iv, SHMEM_CMP_EQ, 7) == 1, "generic test");
    XG_CHECK(shmem_wait_until_any(flags, 4, status, SHMEM_CMP_EQ, 1) ==
                 (size_t)(left % 4),
             "generic wait_until_any");
    XG_CHECK(shmem_wait_until_some(flags, 4, indices, status, SHMEM_CMP_EQ,
                                   1) == 1 &&
                 indices[0] == (size_t)(left % 4),
             "generic wait_until_some");
    status[0] = status[1] = status[2] = status[3] = 1;
    status[left % 4]                              = 0;
    shmem_wait_until_all(flags, 4, status, SHMEM_CMP_EQ, 1);
    shmem_wait_until_all_vector(flags, 4, status, SHMEM_CMP_EQ, cmp_values);
    XG_CHECK(shmem_wait_until_any_vector(flags, 4, status, SHMEM_CMP_EQ,
                                         cmp_values) == (size_t)(left % 4),
             "generic wait_until_any_vector");
    XG_CHECK(shmem_wait_until_some_vector(flags, 4, indices, status,
                                          SHMEM_CMP_EQ, cmp_values) == 1,
             "generic wait_until_some_vector");
    XG_CHECK(
        shmem_test_all(flags, 4, status, SHMEM_CMP_EQ, 1) == 1 &&
            shmem_test_any(flags, 4, status, SHMEM_CMP_EQ, 1) ==
                (size_t)(left % 4) &&
            shmem_test_some(flags, 4, indices, status, SHMEM_CMP_EQ, 1) == 1 &&
            shmem_test_all_vector(flags, 4, status, SHMEM_CMP_EQ, cmp_values) ==
                1 &&
            shmem_test_any_vector(flags, 4, status, SHMEM_CMP_EQ, cmp_values) ==
                (size_t)(left % 4) &&
            shmem_test_some_vector(flags, 4, indices, status, SHMEM_CMP_EQ,
                                   cmp_values) == 1,
        "generic test_*");
    shmem_barrier_all();
}

int main(void)
{
    shmem_ctx_t ctx;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    right      = (me + 1) % npes;
    left       = (me + npes - 1) % npes;
    XG_CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");
    test_rma(ctx);
    test_amo(ctx);
    test_sync();
    shmem_ctx_destroy(ctx);
    shmem_finalize();
    return XG_TEST_PASS;
}
