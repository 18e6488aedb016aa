/*
 * shmem_ptr and shmem_addr_accessible on either route of gas: for the
 * calling PE shmem_ptr gives the address itself (heap and global), on the
 * direct route and when every PE, this one too, is reached through the
 * NIC (XGAS_ROUTE=nic); for another PE a pointer exactly when the route is
 * direct; shmem_addr_accessible is true for every PE on both routes.
 * A public suite (tests-sos shmem_ptr) caught shmem_ptr(p, me) == NULL
 * under XGAS_ROUTE=nic.
 */
#include <shmem.h>
#include <stdlib.h>
#include <string.h>

#include "xg_test.h"

static long global_word;

int main(void)
{
    const char *route = getenv("XGAS_ROUTE");
    int nic           = (route != NULL) && (strcmp(route, "nic") == 0);
    long *heap;
    int me, npes, pe;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    heap       = shmem_malloc(sizeof(long));
    XG_CHECK(heap != NULL, "shmem_malloc");
    XG_CHECK(shmem_ptr(heap, me) == heap, "shmem_ptr(heap, me) = %p, not %p",
             shmem_ptr(heap, me), (void *)heap);
    XG_CHECK(shmem_ptr(&global_word, me) == &global_word,
             "shmem_ptr(global, me) = %p", shmem_ptr(&global_word, me));
    for (pe = 0; pe < npes; pe++) {
        XG_CHECK(shmem_addr_accessible(heap, pe), "heap on PE %d", pe);
        XG_CHECK(shmem_addr_accessible(&global_word, pe), "global on PE %d",
                 pe);
        if (pe != me) {
            XG_CHECK((shmem_ptr(heap, pe) == NULL) ==
                         (nic || !XG_TEST_SAME_NODE(pe)),
                     "shmem_ptr(heap, %d) = %p with XGAS_ROUTE=%s", pe,
                     shmem_ptr(heap, pe), nic ? "nic" : "direct");
        }
    }
    shmem_barrier_all();
    shmem_free(heap);
    shmem_finalize();
    return XG_TEST_PASS;
}
