/*
 * shmem_global_exit(7) (or of the status given as the argument) from the
 * last PE while every other PE waits in a barrier that can never complete:
 * the job must end (the driver script runs under a CTest timeout) with the
 * status that docs/shmem.md gives for it (7 for 7; 1 for 256).  Any PE that
 * gets past its call exits 1, which the script reports -- as a status 1 it
 * is told apart from the mapped statuses by its FAIL message.
 */
#include <shmem.h>
#include <stdlib.h>

#include "xg_test.h"

int main(int argc, char **argv)
{
    int status = (argc > 1) ? atoi(argv[1]) : 7;

    shmem_init();
    xg_test_pe = shmem_my_pe();
    if (shmem_my_pe() == shmem_n_pes() - 1) {
        shmem_global_exit(status);
    } else {
        shmem_barrier_all();
    }
    fprintf(stderr, "FAIL [pe %d]: returned from %s\n", xg_test_pe,
            (xg_test_pe == shmem_n_pes() - 1) ? "shmem_global_exit"
                                              : "a barrier missing a PE");
    return XG_TEST_FAIL;
}
