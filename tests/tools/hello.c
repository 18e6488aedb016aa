/*
 * A plain OpenSHMEM program, built by the tool tests with xgascc (from the
 * build tree and from an installed package): every PE adds its number into
 * a counter on PE 0, which checks the sum.
 */
#include <shmem.h>
#include <stdio.h>

long total;

int main(void)
{
    int me, npes;

    shmem_init();
    me   = shmem_my_pe();
    npes = shmem_n_pes();
    shmem_long_atomic_add(&total, me + 1, 0);
    shmem_barrier_all();
    if (me == 0) {
        printf("hello from %d PEs: total %ld\n", npes, total);
        if (total != (long)npes * (npes + 1) / 2) {
            return 1;
        }
    }
    shmem_finalize();
    return 0;
}
