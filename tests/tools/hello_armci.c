/* An ARMCI program for the installed-package check: every process puts
 * its rank into process 0's allocation; process 0 prints the total. */
#include <stdio.h>
#include <stdlib.h>

#include <armci.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int me, np, i, total = 0;
    void **base;

    MPI_Init(&argc, &argv);
    ARMCI_Init();
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    base = malloc(sizeof(void *) * (size_t)np);
    ARMCI_Malloc(base, (armci_size_t)(sizeof(int) * (size_t)np));
    ARMCI_Put(&me, (int *)base[0] + me, sizeof(int), 0);
    ARMCI_Barrier();
    if (me == 0) {
        for (i = 0; i < np; i++) {
            total += ((int *)base[0])[i];
        }
        printf("armci total %d\n", total);
    }
    ARMCI_Free(base[me]);
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
