/*
 * ARMCI mutexes: mutual exclusion (a counter on process 0 updated by a
 * non-atomic get and put under the mutex by every process, many times,
 * must count every update), each process hosting a different number of
 * mutexes, every mutex of every process used; ARMCIX_Trylock_hdl failing
 * while another process holds the mutex and succeeding once it is free;
 * batches on a group (ARMCIX_*_hdl) next to ARMCI's own batch.  That the
 * mutexes are fair -- first come, first served -- is checked with a fixed
 * arrival order in tests/unit/gas/test_lock_fifo.c.
 */
#include <string.h>

#include "armci_test.h"

#define ROUNDS 30

static void test_exclusion(void)
{
    long bytes = 4 + 4L * at_np;
    void **c   = at_malloc(bytes);
    int r, m, p, value, *counts;

    memset(c[at_me], 0, (size_t)bytes);
    /* process p hosts p + 1 mutexes */
    CHECK(ARMCI_Create_mutexes(at_me + 1) == 0, "create");
    ARMCI_Barrier();
    for (r = 0; r < ROUNDS; r++) {
        ARMCI_Lock(0, 0);
        value = ARMCI_GetValueInt(c[0], 0);
        ARMCI_PutValueInt(value + 1, c[0], 0);
        ARMCI_Unlock(0, 0);
    }
    /* every mutex of every process, once each */
    for (p = 0; p < at_np; p++) {
        for (m = 0; m <= p; m++) {
            ARMCI_Lock(m, p);
            value = ARMCI_GetValueInt((char *)c[p] + 4 + 4 * m, p);
            ARMCI_PutValueInt(value + 1, (char *)c[p] + 4 + 4 * m, p);
            ARMCI_Unlock(m, p);
        }
    }
    ARMCI_Barrier();
    if (at_me == 0) {
        CHECK(*(int *)c[0] == ROUNDS * at_np,
              "the counter reads %d after "
              "%d locked updates",
              *(int *)c[0], ROUNDS * at_np);
    }
    /* mutex m of this process guarded word m: one update per process */
    counts = (int *)((char *)c[at_me] + 4);
    for (m = 0; m <= at_me; m++) {
        CHECK(counts[m] == at_np, "word %d counts %d, not %d", m, counts[m],
              at_np);
    }
    CHECK(ARMCI_Destroy_mutexes() == 0, "destroy");
    at_free(c);
}

static void test_trylock_and_groups(void)
{
    ARMCI_Group world, half;
    armcix_mutex_hdl_t mw, mh;
    void **flag = at_malloc(64);
    int got, size;

    memset(flag[at_me], 0, 64);
    ARMCI_Group_get_world(&world);
    mw = ARMCIX_Create_mutexes_hdl(2, &world);
    CHECK(mw != NULL, "create on the world");
    if (at_np > 1) {
        /* process 0 holds mutex 1 of process 1; the others fail to take
         * it until it is released */
        if (at_me == 0) {
            while (ARMCIX_Trylock_hdl(mw, 1, 1) != 0) {
            }
        }
        ARMCI_Barrier();
        if (at_me != 0) {
            CHECK(ARMCIX_Trylock_hdl(mw, 1, 1) != 0, "trylock of a held "
                                                     "mutex succeeded");
        }
        ARMCI_Barrier();
        if (at_me == 0) {
            ARMCIX_Unlock_hdl(mw, 1, 1);
        }
        ARMCI_Barrier();
        /* free now: every process gets it in turn by trying */
        while (ARMCIX_Trylock_hdl(mw, 1, 1) != 0) {
            ARMCIX_Progress();
        }
        got = ARMCI_GetValueInt(flag[1], 1);
        ARMCI_PutValueInt(got + 1, flag[1], 1);
        ARMCIX_Unlock_hdl(mw, 1, 1);
        ARMCI_Barrier();
        if (at_me == 1) {
            CHECK(*(int *)flag[1] == at_np, "trylock holders counted %d",
                  *(int *)flag[1]);
        }
    }
    /* a batch on the even (or odd) processes: group ranks */
    ARMCIX_Group_split(&world, at_me % 2, at_me, &half);
    ARMCI_Group_size(&half, &size);
    mh = ARMCIX_Create_mutexes_hdl(1, &half);
    ARMCIX_Lock_hdl(mh, 0, size - 1);
    ARMCIX_Unlock_hdl(mh, 0, size - 1);
    CHECK(ARMCIX_Destroy_mutexes_hdl(mh) == 0, "destroy the group's");
    CHECK(ARMCIX_Destroy_mutexes_hdl(mw) == 0, "destroy the world's");
    ARMCI_Group_free(&half);
    at_free(flag);
}

int main(int argc, char **argv)
{
    at_start(&argc, &argv);
    test_exclusion();
    test_trylock_and_groups();
    return at_finish("test_armci_mutex");
}
