/*
 * Bad ARMCI calls, one per case (argv[1]), on 2 processes: each must end
 * the job with a message naming the routine, the value and the fix
 * (CMakeLists.txt holds the expected messages).
 */
#include <string.h>

#include "armci_test.h"

int main(int argc, char **argv)
{
    const char *c  = (argc > 1) ? argv[1] : "";
    char stack[64] = {0};
    void **base;
    int right, count[3] = {8, 2, 2}, stride[2] = {16, 32}, one = 1, old;

    if (strcmp(c, "init_without_mpi") == 0) {
        ARMCI_Init();
        return 0;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &at_me);
    MPI_Comm_size(MPI_COMM_WORLD, &at_np);
    if (strcmp(c, "put_before_init") == 0) {
        ARMCI_Put(stack, stack, 8, 0);
    }
    ARMCI_Init();
    right = (at_me + 1) % at_np;
    base  = at_malloc(64);
    ARMCI_Barrier();
    if (strcmp(c, "put_bad_proc") == 0) {
        ARMCI_Put(stack, base[0], 8, at_np);
    } else if (strcmp(c, "get_negative_proc") == 0) {
        ARMCI_Get(base[0], stack, 8, -1);
    } else if (strcmp(c, "put_stack") == 0) {
        ARMCI_Put(stack, stack + 8, 8, right);
    } else if (strcmp(c, "put_past_end") == 0) {
        ARMCI_Put(stack, (char *)base[right] + 60, 16, right);
    } else if (strcmp(c, "puts_stride_overflow") == 0) {
        stride[1] = 0x7fffffff;
        ARMCI_PutS(stack, stride, base[right], stride, count, 2, right);
    } else if (strcmp(c, "puts_levels") == 0) {
        ARMCI_PutS(stack, stride, base[right], stride, count, 9, right);
    } else if (strcmp(c, "gets_negative_count") == 0) {
        count[1] = -1;
        ARMCI_GetS(base[right], stride, stack, stride, count, 1, right);
    } else if (strcmp(c, "acc_bad_type") == 0) {
        ARMCI_Acc(99, &one, stack, base[right], 8, right);
    } else if (strcmp(c, "acc_null_scale") == 0) {
        ARMCI_Acc(ARMCI_ACC_INT, NULL, stack, base[right], 8, right);
    } else if (strcmp(c, "acc_partial") == 0) {
        double scale = 1.0;

        ARMCI_Acc(ARMCI_ACC_DBL, &scale, stack, base[right], 12, right);
    } else if (strcmp(c, "putv_bad_segment") == 0) {
        void *src[2] = {stack, stack}, *dst[2] = {base[right], stack};
        armci_giov_t iov = {src, dst, 8, 2};

        ARMCI_PutV(&iov, 1, right);
    } else if (strcmp(c, "rmw_misaligned") == 0) {
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, (char *)base[right] + 4, 1,
                  right);
    } else if (strcmp(c, "rmw_bad_op") == 0) {
        ARMCI_Rmw(7, &old, base[right], 1, right);
    } else if (strcmp(c, "lock_no_mutexes") == 0) {
        ARMCI_Lock(0, 0);
    } else if (strcmp(c, "lock_bad_mutex") == 0) {
        ARMCI_Create_mutexes(1);
        ARMCI_Lock(5, right);
    } else if (strcmp(c, "unlock_free") == 0) {
        ARMCI_Create_mutexes(1);
        ARMCI_Unlock(0, 0);
    } else if (strcmp(c, "malloc_alone") == 0) {
        if (at_me == 0) {
            at_malloc(64);
        }
        ARMCI_Barrier();
    } else if (strcmp(c, "malloc_vs_free") == 0) {
        if (at_me == 0) {
            at_malloc(64);
        } else {
            ARMCI_Free(base[at_me]);
        }
    } else if (strcmp(c, "free_not_base") == 0) {
        ARMCI_Free((char *)base[at_me] + 8);
    } else if (strcmp(c, "armci_error") == 0) {
        if (at_me == 1) {
            ARMCI_Error("custom failure", 42);
        }
        ARMCI_Barrier();
    } else if (strcmp(c, "gop_bad_op") == 0) {
        armci_msg_igop(&one, 1, "xor");
    } else if (strcmp(c, "group_bad_pid") == 0) {
        int pids[2] = {0, at_np};
        ARMCI_Group group;

        ARMCI_Group_create(2, pids, &group);
    } else if (strcmp(c, "malloc_beyond_node") == 0) {
        /* 16 TiB per process: more than any node gives */
        at_malloc(1L << 44);
    } else if (strcmp(c, "malloc_beyond_size") == 0) {
        /* SHMEM_SYMMETRIC_SIZE=64M: 100 MiB do not fit */
        at_malloc(100L << 20);
    } else if (strcmp(c, "put_after_finalize") == 0) {
        ARMCI_Finalize();
        ARMCI_Put(stack, stack, 8, 0);
    } else {
        fprintf(stderr, "bad_armci: unknown case '%s'\n", c);
        return 2;
    }
    /* the call above must not return */
    fprintf(stderr, "bad_armci: case '%s' was accepted\n", c);
    return 0;
}
