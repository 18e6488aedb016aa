/*
 * ARMCI's world as a communicator other than MPI_COMM_WORLD: the job is
 * split in two halves, each its own ARMCI world with its processes in
 * reverse order (ARMCI process p is not MPI rank p, nor xgas PE p), and
 * each half allocates, puts, accumulates, locks and barriers within
 * itself.  Also: initialization counted (Global Arrays initializes
 * twice), ARMCI_Initialized, the topology queries, ARMCI_Malloc_local,
 * and allocation sizes that are 0 on some processes or all.
 */
#include <string.h>

#include "armci_test.h"

int main(int argc, char **argv)
{
    MPI_Comm half;
    int me, np, right, i, v, one = 1, wrank;
    void **base, **none;
    char *local;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    at_me = wrank;
    CHECK(!ARMCI_Initialized(), "initialized before ARMCI_Init");
    /* two halves, each in reverse order of world rank */
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_split(MPI_COMM_WORLD, wrank < np / 2, -wrank, &half);
    CHECK(ARMCI_Init_mpi_comm(half) == 0, "init");
    CHECK(ARMCI_Init() == 0, "a second init only counts");
    CHECK(ARMCI_Initialized(), "initialized");
    me = armci_msg_me();
    np = armci_msg_nproc();
    {
        int hr;

        MPI_Comm_rank(half, &hr);
        CHECK(me == hr, "ARMCI's ids are the communicator's ranks");
    }
    at_np = np;
    right = (me + 1) % np;
    base  = malloc(sizeof(void *) * (size_t)np);
    CHECK(ARMCI_Malloc(base, 256) == 0, "malloc");
    memset(base[me], 0, 256);
    ARMCI_Barrier();
    v = 500 + me;
    CHECK(ARMCI_Put(&v, base[right], sizeof(v), right) == 0, "put");
    CHECK(ARMCI_Acc(ARMCI_ACC_INT, &one, &one, (char *)base[0] + 8, sizeof(int),
                    0) == 0,
          "acc");
    ARMCI_Barrier();
    CHECK(*(int *)base[me] == 500 + (me + np - 1) % np,
          "put within the "
          "half: %d",
          *(int *)base[me]);
    if (me == 0) {
        CHECK(*(int *)((char *)base[0] + 8) == np, "acc within the half");
    }
    CHECK(ARMCI_Create_mutexes(1) == 0, "mutexes");
    ARMCI_Lock(0, np - 1);
    ARMCI_Unlock(0, np - 1);
    CHECK(ARMCI_Destroy_mutexes() == 0, "mutexes");
    /* sizes: 0 on all, 0 on the first */
    none = malloc(sizeof(void *) * (size_t)np);
    CHECK(ARMCI_Malloc(none, 0) == 0, "all zero");
    for (i = 0; i < np; i++) {
        CHECK(none[i] == NULL, "an allocation of nothing");
    }
    CHECK(ARMCI_Free(NULL) == 0, "free of nothing");
    CHECK(ARMCI_Malloc(none, (me == 0) ? 0 : 64) == 0, "some zero");
    CHECK((none[0] == NULL) && ((np == 1) || (none[np - 1] != NULL)),
          "NULL only where 0 bytes were asked");
    CHECK(ARMCI_Free(none[me]) == 0, "free with NULL on process 0");
    free(none);
    /* topology: processes of this node are one domain */
    CHECK(armci_domain_count(ARMCI_DOMAIN_SMP) >= 1, "domains");
    CHECK(armci_domain_same_id(ARMCI_DOMAIN_SMP, me), "own domain");
    CHECK(armci_domain_id(ARMCI_DOMAIN_SMP, me) ==
              armci_domain_my_id(ARMCI_DOMAIN_SMP),
          "my id");
    {
        int d = armci_domain_my_id(ARMCI_DOMAIN_SMP), n, found = 0;

        n = armci_domain_nprocs(ARMCI_DOMAIN_SMP, d);
        /* a negative id is this process's domain (Global Arrays asks
         * ga_cluster_nprocs(-1)) */
        CHECK(armci_domain_nprocs(ARMCI_DOMAIN_SMP, -1) == n, "domain -1");
        for (i = 0; i < n; i++) {
            found |= armci_domain_glob_proc_id(ARMCI_DOMAIN_SMP, d, i) == me;
        }
        CHECK(found, "this process in its domain");
        CHECK(ARMCI_Same_node(me), "same node as itself");
        CHECK(ARMCI_Same_node(right) ==
                  armci_domain_same_id(ARMCI_DOMAIN_SMP, right),
              "same node");
        CHECK(ARMCI_Uses_shm() == (n > 1), "uses shm");
    }
    local = ARMCI_Malloc_local(100);
    CHECK(local != NULL, "malloc_local");
    memset(local, 1, 100);
    CHECK(ARMCI_Free_local(local) == 0, "free_local");
    ARMCI_Barrier();
    CHECK(ARMCI_Free(base[me]) == 0, "free");
    free(base);
    CHECK(ARMCI_Finalize() == 0, "first finalize only counts");
    CHECK(ARMCI_Initialized(), "still initialized");
    if (wrank == 0) {
        printf("test_armci_init: passed on %d processes in two worlds\n",
               at_np);
    }
    CHECK(ARMCI_Finalize() == 0, "finalize");
    CHECK(!ARMCI_Initialized(), "finalized");
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
