/*
 * Invalid xbrtime calls, one per case (argv[1]); each must end the job
 * with a message naming the routine, the bad value and the fix (checked
 * by CMakeLists.txt through tests/tools/expect_failure.sh).
 */
#include <stdlib.h>
#include <string.h>

#include "xbrtime.h"

static long global_word;

int main(int argc, char **argv)
{
    const char *c   = (argc > 1) ? argv[1] : "";
    long stack_word = 0, local[4] = {0};
    int counts[2] = {1, 5}, disps[2] = {0, 1};
    long *sym;
    int npes;

    if (strcmp(c, "put_before_init") == 0) {
        xbrtime_long_put(&global_word, local, 1, 1, 0);
    }
    if (xbrtime_init() != 0) {
        return 1;
    }
    npes = xbrtime_num_pes();
    sym  = xbrtime_malloc(4 * sizeof(long));
    if (strcmp(c, "put_bad_pe") == 0) {
        xbrtime_long_put(sym, local, 1, 1, npes);
    } else if (strcmp(c, "get_negative_pe") == 0) {
        xbrtime_long_get(local, sym, 1, 1, -1);
    } else if (strcmp(c, "put_stack") == 0) {
        xbrtime_long_put(&stack_word, local, 1, 1, 0);
    } else if (strcmp(c, "get_malloc") == 0) {
        long *heap = malloc(sizeof(long));

        xbrtime_long_get(local, heap, 1, 1, 0);
    } else if (strcmp(c, "put_past_end") == 0) {
        xbrtime_long_put_nb(sym, local, 4, 2, 0);
    } else if (strcmp(c, "stride_zero") == 0) {
        xbrtime_int_get((int *)local, (int *)sym, 2, 0, 0);
    } else if (strcmp(c, "atomic_stack") == 0) {
        xbrtime_long_atomic_add(&stack_word, 1, 0);
    } else if (strcmp(c, "atomic_bad_pe") == 0) {
        xbrtime_uint_atomic_max((unsigned *)sym, 1, npes + 5);
    } else if (strcmp(c, "atomic_misaligned") == 0) {
        xbrtime_int_atomic_add((int *)((char *)sym + 2), 1, 0);
    } else if (strcmp(c, "free_stack") == 0) {
        xbrtime_free(&stack_word);
    } else if (strcmp(c, "barrier_after_close") == 0) {
        xbrtime_close();
        xbrtime_barrier();
    } else if (strcmp(c, "broadcast_bad_root") == 0) {
        xbrtime_long_broadcast(sym, sym + 2, 1, 1, npes);
    } else if (strcmp(c, "root_mismatch") == 0) {
        xbrtime_long_broadcast(sym, sym + 2, 1, 1, xbrtime_mype());
    } else if (strcmp(c, "reduce_stack") == 0) {
        xbrtime_long_reduce_sum(sym, &stack_word, 1, 1, 0);
    } else if (strcmp(c, "scatter_block") == 0) {
        xbrtime_long_scatter(local, sym, counts, disps, 4, 0);
    } else if (strcmp(c, "alltoall_stride") == 0) {
        xbrtime_long_alltoall(local, sym, 1, -2, 1);
    }
    xbrtime_close();
    return 0; /* the case was accepted: the test fails */
}
