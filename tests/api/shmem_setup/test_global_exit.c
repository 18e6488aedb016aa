/*
 * shmem_global_exit(7) from the last PE while every other PE waits in a
 * barrier that can never complete: the job must end (the driver script
 * runs under a CTest timeout) with status 7.  Any PE that gets past its
 * call exits 1, which the script reports.
 */
#include <shmem.h>

#include "xg_test.h"

int main(void)
{
    shmem_init();
    xg_test_pe = shmem_my_pe();
    if (shmem_my_pe() == shmem_n_pes() - 1) {
        shmem_global_exit(7);
    } else {
        shmem_barrier_all();
    }
    fprintf(stderr, "FAIL [pe %d]: returned from %s\n", xg_test_pe,
            (xg_test_pe == shmem_n_pes() - 1) ? "shmem_global_exit"
                                              : "a barrier missing a PE");
    return XG_TEST_FAIL;
}
