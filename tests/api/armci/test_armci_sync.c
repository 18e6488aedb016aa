/*
 * ARMCI completion and ordering: explicit, aggregate and implicit
 * non-blocking handles (Wait, Test, WaitProc, WaitAll); location
 * consistency -- a get after a put, and after an accumulate, to the same
 * place returns what they wrote, with no fence in between, for puts past
 * the NIC's rendezvous limit; fences; and ARMCI_Rmw (fetch-and-add and
 * swap, int and long) from every process onto one counter and onto each
 * other, checked exactly.
 */
#include <string.h>

#include "armci_test.h"

#define BIG (96 * 1024)

static int right, left;

static void test_handles(void)
{
    void **a = at_malloc(BIG), **b = at_malloc(BIG);
    static char src[BIG], back[BIG], back2[BIG];
    armci_hdl_t h, agg;
    int i;

    for (i = 0; i < BIG; i++) {
        src[i] = (char)at_byte(at_me, i);
    }
    memset(a[at_me], 0, BIG);
    memset(b[at_me], 0, BIG);
    ARMCI_Barrier();
    /* explicit */
    ARMCI_INIT_HANDLE(&h);
    CHECK(ARMCI_NbPut(src, a[right], BIG, right, &h) == 0, "nbput");
    CHECK(ARMCI_Wait(&h) == 0, "wait");
    CHECK(ARMCI_Test(&h) == 0, "a waited handle tests complete");
    /* aggregate: a put and a get on two allocations, one wait */
    ARMCI_INIT_HANDLE(&agg);
    ARMCI_SET_AGGREGATE_HANDLE(&agg);
    CHECK(ARMCI_NbPut(src, b[right], BIG / 2, right, &agg) == 0, "nbput");
    CHECK(ARMCI_NbGet(a[right], back, BIG, right, &agg) == 0, "nbget");
    CHECK(ARMCI_Wait(&agg) == 0, "wait aggregate");
    ARMCI_UNSET_AGGREGATE_HANDLE(&agg);
    CHECK(memcmp(back, src, BIG) == 0, "the get after the waited put");
    /* test until done */
    ARMCI_INIT_HANDLE(&h);
    CHECK(ARMCI_NbGet(b[right], back2, BIG / 2, right, &h) == 0, "nbget");
    while (ARMCI_Test(&h) != 0) {
        ARMCIX_Progress();
    }
    CHECK(memcmp(back2, src, BIG / 2) == 0, "the tested get");
    /* implicit handles */
    CHECK(ARMCI_NbPut(src + 1, (char *)a[right] + 1, 1000, right, NULL) == 0,
          "implicit");
    CHECK(ARMCI_NbGet((char *)b[right] + 5, back2, 100, right, NULL) == 0,
          "implicit get");
    CHECK(ARMCI_WaitProc(right) == 0, "waitproc");
    CHECK(memcmp(back2, src + 5, 100) == 0, "implicit get after WaitProc");
    CHECK(ARMCI_NbPut(src, b[right], 64, right, NULL) == 0, "implicit");
    CHECK(ARMCI_WaitAll() == 0, "waitall");
    ARMCI_Barrier();
    for (i = 0; i < BIG; i++) {
        CHECK(((char *)a[at_me])[i] == (char)at_byte(left, i), "a %d", i);
    }
    ARMCI_Barrier();
    at_free(a);
    at_free(b);
}

static void test_consistency(void)
{
    enum {
        ROUNDS = 6
    };
    void **a = at_malloc(BIG), **c = at_malloc(4096);
    static char src[BIG], back[BIG];
    int r, i, one = 1, got;
    long lgot;

    memset(a[at_me], 0, BIG);
    memset(c[at_me], 0, 4096);
    ARMCI_Barrier();
    for (r = 0; r < ROUNDS; r++) {
        int n = (r % 2) ? BIG : 3000 + r;

        for (i = 0; i < n; i++) {
            src[i] = (char)(at_byte(at_me, i) + r);
        }
        /* put, then get of the same place: no fence in between */
        CHECK(ARMCI_Put(src, a[right], n, right) == 0, "put");
        memset(back, 0, (size_t)n);
        CHECK(ARMCI_Get(a[right], back, n, right) == 0, "get");
        CHECK(memcmp(back, src, (size_t)n) == 0,
              "round %d: a get after a "
              "put of %d bytes does not see it",
              r, n);
        /* accumulate, then get */
        CHECK(ARMCI_Acc(ARMCI_ACC_INT, &one, &one, c[right], sizeof(int),
                        right) == 0,
              "acc");
        got = ARMCI_GetValueInt(c[right], right);
        CHECK(got == r + 1,
              "round %d: the get after the accumulate reads "
              "%d",
              r, got);
    }
    /* a non-blocking put, then a get of it before any wait */
    CHECK(ARMCI_NbPut(src, a[right], BIG, right, NULL) == 0, "nbput");
    CHECK(ARMCI_Get(a[right], back, BIG, right) == 0, "get");
    CHECK(memcmp(back, src, BIG) == 0, "a get after a non-blocking put");
    ARMCI_WaitAll();
    /* a fence completes a put at the target */
    CHECK(ARMCI_PutValueLong(77L + at_me, (char *)c[right] + 64, right) == 0,
          "putvalue");
    ARMCI_Fence(right);
    ARMCI_AllFence();
    lgot = ARMCI_GetValueLong((char *)c[right] + 64, right);
    CHECK(lgot == 77L + at_me, "after the fence %ld", lgot);
    ARMCI_Barrier();
    at_free(a);
    at_free(c);
}

static void test_rmw(void)
{
    enum {
        ROUNDS = 40
    };
    void **w = at_malloc(64);
    long sum = 0, lsum = 0, total, ltotal, old;
    int iold, r, v;

    memset(w[at_me], 0, 64);
    ARMCI_Barrier();
    for (r = 0; r < ROUNDS; r++) {
        CHECK(ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &iold, w[0], 1, 0) == 0, "fadd");
        sum += iold;
        CHECK(ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old,
                        (char *)w[at_np - 1] + 8, 3, at_np - 1) == 0,
              "fadd long");
        lsum += old;
    }
    /* swap: each process leaves its number in the right neighbour's word
     * and gets back what was there */
    v = 100 + at_me;
    CHECK(ARMCI_Rmw(ARMCI_SWAP, &v, (char *)w[right] + 16, 0, right) == 0,
          "swap");
    CHECK(v == 0, "swap returned %d", v);
    old = 1000L + at_me;
    CHECK(ARMCI_Rmw(ARMCI_SWAP_LONG, &old, (char *)w[right] + 24, 0, right) ==
              0,
          "swap long");
    CHECK(old == 0, "swap long returned %ld", old);
    /* ARMCI's barrier first: with XGAS_AM_THREAD=0 a process serves the
     * others' read-modify-writes only inside ARMCI, not inside MPI */
    ARMCI_Barrier();
    MPI_Allreduce(&sum, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&lsum, &ltotal, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    {
        long n = (long)ROUNDS * at_np;

        /* the fetched values are 0..n-1 (times 3), each once */
        CHECK(total == n * (n - 1) / 2, "fetch-and-add results sum to %ld",
              total);
        CHECK(ltotal == 3 * n * (n - 1) / 2, "long results sum to %ld", ltotal);
    }
    ARMCI_Barrier();
    CHECK(*(int *)((char *)w[at_me] + 16) == 100 + left, "swapped int");
    CHECK(*(long *)((char *)w[at_me] + 24) == 1000L + left, "swapped long");
    if (at_me == 0) {
        CHECK(*(int *)w[0] == ROUNDS * at_np, "counter");
    }
    ARMCI_Barrier();
    at_free(w);
}

int main(int argc, char **argv)
{
    at_start(&argc, &argv);
    right = (at_me + 1) % at_np;
    left  = (at_me + at_np - 1) % at_np;
    test_handles();
    test_consistency();
    test_rmw();
    return at_finish("test_armci_sync");
}
