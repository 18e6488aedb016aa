/*
 * ARMCI on half of the job while the other half waits in MPI, then the
 * other way round (what Global Arrays' comm_init test does): xgas starts
 * with MPI_Init on every process, so ARMCI_Init_mpi_comm involves only
 * the processes of its communicator.  Each half allocates, puts,
 * accumulates and finalizes ARMCI alone.
 */
#include <string.h>

#include "armci_test.h"

static void run_half(MPI_Comm half)
{
    void **base;
    int me, np, right, v, one = 1;

    CHECK(ARMCI_Init_mpi_comm(half) == 0, "init on half of the job");
    me    = armci_msg_me();
    np    = armci_msg_nproc();
    right = (me + 1) % np;
    base  = malloc(sizeof(void *) * (size_t)np);
    CHECK(ARMCI_Malloc(base, 64) == 0, "malloc");
    memset(base[me], 0, 64);
    ARMCI_Barrier();
    v = 7 + me;
    ARMCI_Put(&v, base[right], sizeof(v), right);
    ARMCI_Acc(ARMCI_ACC_INT, &one, &one, (char *)base[0] + 8, sizeof(int), 0);
    ARMCI_Barrier();
    CHECK(*(int *)base[me] == 7 + (me + np - 1) % np, "put in the half");
    if (me == 0) {
        CHECK(*(int *)((char *)base[0] + 8) == np, "acc in the half");
    }
    ARMCI_Free(base[me]);
    free(base);
    CHECK(ARMCI_Finalize() == 0, "finalize");
}

int main(int argc, char **argv)
{
    MPI_Comm half;
    int first;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &at_me);
    MPI_Comm_size(MPI_COMM_WORLD, &at_np);
    first = at_me < (at_np + 1) / 2;
    MPI_Comm_split(MPI_COMM_WORLD, first, at_me, &half);
    if (first) {
        run_half(half);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (!first) {
        run_half(half);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (at_me == 0) {
        printf("test_armci_half: passed on %d processes\n", at_np);
    }
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
