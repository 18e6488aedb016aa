/*
 * What the ARMCI API tests share: the MPI and ARMCI start, the check that
 * ends the job on a failure (naming the process), and deterministic
 * patterns.  The programs are MPI programs started by mpirun (armci_run.sh).
 */
#ifndef ARMCI_TEST_H
#define ARMCI_TEST_H

#include <stdio.h>
#include <stdlib.h>

#include <armci.h>
#include <armcix.h>
#include <mpi.h>

static int at_me = -1, at_np = 0;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "FAIL [proc %d] %s:%d: %s: ", at_me, __FILE__, \
                    __LINE__, #cond);                                      \
            fprintf(stderr, __VA_ARGS__);                                  \
            fprintf(stderr, "\n");                                         \
            fflush(stderr);                                                \
            MPI_Abort(MPI_COMM_WORLD, 1);                                  \
        }                                                                  \
    } while (0)

static inline void at_start(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    CHECK(ARMCI_Init() == 0, "ARMCI_Init");
    MPI_Comm_rank(MPI_COMM_WORLD, &at_me);
    MPI_Comm_size(MPI_COMM_WORLD, &at_np);
}

static inline int at_finish(const char *name)
{
    ARMCI_Barrier();
    if (at_me == 0) {
        printf("%s: passed on %d processes\n", name, at_np);
    }
    CHECK(ARMCI_Finalize() == 0, "ARMCI_Finalize");
    MPI_Finalize();
    return 0;
}

/* A byte of process @p's pattern at @i. */
static inline unsigned char at_byte(int p, long i)
{
    return (unsigned char)(p * 31 + i * 7 + 3);
}

/* Every process's array of base pointers from ARMCI_Malloc. */
static inline void **at_malloc(long bytes)
{
    void **ptrs = malloc((size_t)at_np * sizeof(void *));

    CHECK(ptrs != NULL, "malloc");
    CHECK(ARMCI_Malloc(ptrs, bytes) == 0, "ARMCI_Malloc");
    return ptrs;
}

static inline void at_free(void **ptrs)
{
    CHECK(ARMCI_Free(ptrs[at_me]) == 0, "ARMCI_Free");
    free(ptrs);
}

#endif
