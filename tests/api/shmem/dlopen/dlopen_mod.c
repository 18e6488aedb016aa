/*
 * The part of the shmem_dlopen test that uses OpenSHMEM: a module linked
 * with libxgas that the host program loads with dlopen, as Python loads an
 * extension module such as shmem4py's (cffi) after the interpreter started.
 * The host passes in pointers to its own globals.
 */
#include <shmem.h>
#include <stdlib.h>

#include "xg_test.h"

/* The module's own global: a shared library's globals are not symmetric
 * (docs/memory.md), and shmem_addr_accessible must say so. */
static long mod_private;

static void mod_finalize_cb(void)
{
    shmem_finalize();
}

int mod_init(void)
{
    shmem_init();
    xg_test_pe = shmem_my_pe();
    return xg_test_pe;
}

void mod_finalize(void)
{
    shmem_finalize();
}

/* Like shmem4py's Py_AtExit handler: the module finalizes at exit. */
void mod_finalize_at_exit(void)
{
    XG_CHECK(atexit(mod_finalize_cb) == 0, "atexit failed");
}

/* counter, slots: the host's globals (nslots >= PE count); moved: an
 * initialized static of the host, which must still read 5. */
void mod_run(long *counter, long *slots, int nslots, const long *moved)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int peer = (me + 1) % npes;
    long *heap, *src, *dst;
    int pe;

    XG_CHECK(npes <= nslots, "%d PEs, the test has %d slots", npes, nslots);
    XG_CHECK(*moved == 5, "the host's initialized static reads %ld", *moved);

    /* The executable's globals are symmetric even though libxgas came
     * later, through dlopen. */
    XG_CHECK(shmem_addr_accessible(counter, peer) == 1,
             "host global %p not accessible on PE %d", (void *)counter, peer);
    XG_CHECK((shmem_ptr(counter, peer) != NULL) == XG_TEST_SAME_NODE(peer),
             "shmem_ptr of a host global on PE %d is %p", peer,
             shmem_ptr(counter, peer));
    if (npes > 1) {
        XG_CHECK(shmem_addr_accessible(&mod_private, peer) == 0,
                 "a global of a shared library reads as symmetric");
    }

    shmem_long_atomic_add(counter, me + 1, 0);
    for (pe = 0; pe < npes; pe++) {
        shmem_long_p(&slots[me], 10L * me + 1, pe);
    }
    shmem_barrier_all();
    if (me == 0) {
        XG_CHECK(*counter == (long)npes * (npes + 1) / 2,
                 "host counter %ld, expected %ld", *counter,
                 (long)npes * (npes + 1) / 2);
    }
    for (pe = 0; pe < npes; pe++) {
        XG_CHECK(slots[pe] == 10L * pe + 1, "slot %d holds %ld", pe, slots[pe]);
    }

    /* The symmetric heap, a put ring, a reduction and a broadcast. */
    heap = shmem_malloc(3 * sizeof(long));
    XG_CHECK(heap != NULL, "shmem_malloc failed");
    src     = heap + 1;
    dst     = heap + 2;
    heap[0] = -1;
    shmem_barrier_all();
    shmem_long_put(heap, &(long){100L + me}, 1, peer);
    *src = me + 1;
    shmem_barrier_all();
    XG_CHECK(heap[0] == 100L + (me + npes - 1) % npes, "ring got %ld", heap[0]);
    XG_CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 1) == 0,
             "shmem_long_sum_reduce failed");
    XG_CHECK(*dst == (long)npes * (npes + 1) / 2, "sum %ld", *dst);
    XG_CHECK(shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 1, npes - 1) == 0,
             "shmem_long_broadcast failed");
    XG_CHECK(*dst == npes, "broadcast from PE %d gave %ld", npes - 1, *dst);
    shmem_barrier_all();
    shmem_free(heap);
}
