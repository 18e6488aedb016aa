/*
 * The deprecated names OpenSHMEM 1.6 still requires: start_pes (a second
 * call does nothing; the library finalizes itself, collectively, when the
 * program exits), _my_pe, _num_pes, shmalloc, shrealloc, shmemalign,
 * shfree, the C11 names shmem_fetch, _set, _swap, _cswap, _finc, _inc,
 * _fadd, _add, the mpp/ header directory and the profiling names
 * (pstart_pes, p_my_pe, pshmalloc, ...).
 *
 * The program never calls shmem_finalize.  Its last put goes to the next
 * PE without a barrier after it; a handler registered before start_pes
 * runs after the implicit finalization and checks that the library is
 * finalized and that the put from the previous PE has arrived (the
 * finalization synchronized every PE).
 */
#include <mpp/shmem.h>
#include <pshmem.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "xg_test.h"

static long last_put = -1;
static int me, npes;

static void after_finalize(void)
{
    int initialized = 1;

    shmem_query_initialized(&initialized);
    if (initialized) {
        fprintf(stderr,
                "FAIL [pe %d] the library is still initialized at "
                "exit: start_pes must finalize it\n",
                me);
        _exit(XG_TEST_FAIL);
    }
    if (last_put != (me + npes - 1) % npes) {
        fprintf(stderr,
                "FAIL [pe %d] the put of the previous PE has not "
                "arrived after the implicit finalization (%ld)\n",
                me, last_put);
        _exit(XG_TEST_FAIL);
    }
}

static long counter;
static int ivalue;
static double dvalue;

int main(void)
{
    long *obj, *grown, *aligned;
    int right, i;

    atexit(after_finalize); /* runs after the library's exit handler */
    start_pes(0);
    start_pes(0); /* no effect */
    me         = _my_pe();
    npes       = _num_pes();
    xg_test_pe = me;
    XG_CHECK(me == shmem_my_pe() && npes == shmem_n_pes(),
             "_my_pe %d "
             "_num_pes %d",
             me, npes);
    XG_CHECK(p_my_pe() == me && p_num_pes() == npes, "profiling names");
    right = (me + 1) % npes;

    /* the 1.0 heap routines */
    obj = shmalloc(8 * sizeof(long));
    XG_CHECK(obj != NULL, "shmalloc");
    for (i = 0; i < 8; i++) {
        obj[i] = me * 100 + i;
    }
    shmem_barrier_all();
    grown = shrealloc(obj, 4096 * sizeof(long));
    XG_CHECK(grown != NULL, "shrealloc");
    for (i = 0; i < 8; i++) {
        XG_CHECK(grown[i] == me * 100 + i, "shrealloc lost element %d", i);
    }
    aligned = shmemalign(4096, sizeof(long));
    XG_CHECK(aligned != NULL && ((uintptr_t)aligned % 4096) == 0,
             "shmemalign(4096) gave %p", (void *)aligned);
    shmem_long_p(aligned, me, right);
    shmem_barrier_all();
    XG_CHECK(*aligned == (me + npes - 1) % npes, "put into shmemalign object");
    shfree(aligned);
    pshfree(grown);
    obj = pshmalloc(16);
    XG_CHECK(obj != NULL, "pshmalloc");
    shfree(obj);

    /* the deprecated C11 atomic names */
    shmem_barrier_all();
    shmem_add(&counter, 2L, 0);
    shmem_inc(&counter, 0);
    (void)shmem_fadd(&counter, 1L, 0);
    (void)shmem_finc(&counter, 0);
    shmem_barrier_all();
    XG_CHECK(shmem_fetch(&counter, 0) == 5L * npes, "counter %ld",
             shmem_fetch(&counter, 0));
    shmem_barrier_all();
    if (me == 0) {
        shmem_set(&ivalue, 7, right);
        XG_CHECK(shmem_swap(&ivalue, 8, right) == 7, "shmem_swap");
        XG_CHECK(shmem_cswap(&ivalue, 8, 9, right) == 8, "shmem_cswap");
        shmem_set(&dvalue, 2.5, right);
        XG_CHECK(shmem_fetch(&dvalue, right) == 2.5, "double fetch");
    }
    shmem_barrier_all();
    if (me == 1 % npes) { /* the PE after PE 0 */
        XG_CHECK(ivalue == 9 && dvalue == 2.5, "ivalue %d dvalue %g", ivalue,
                 dvalue);
    }

    /* the last put: no barrier after it; the implicit finalization must
     * complete it before after_finalize looks */
    shmem_long_p(&last_put, me, right);
    return 0;
}
