/*
 * Argument errors of the RMA and atomic routines end the job with a message
 * naming the routine and the bad value; CTest matches the message.  The
 * case is the first argument:
 *   pe       shmem_long_p to a PE past the last one
 *   stride   shmem_int_iput with a destination stride of 0
 *   align    shmem_long_atomic_fetch_add on a misaligned address
 *   bounds   shmem_putmem running past the end of a heap object
 *   local    shmem_long_put to a stack variable
 *   init     shmem_putmem of 0 bytes before shmem_init
 *   zero     transfers of nothing with any addresses and PE: no error
 * A case that is not an error (or an error that went unnoticed) prints
 * "no error" and exits 0, which fails the error cases' expectation.
 */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

#include "xg_test.h"

int main(int argc, char **argv)
{
    const char *what = (argc > 1) ? argv[1] : "";
    long stack_var   = 0, *heap;
    int npes, src[4] = {0};

    if (strcmp(what, "init") == 0) {
        shmem_putmem(NULL, NULL, 0, 0);
    }
    shmem_init();
    npes       = shmem_n_pes();
    xg_test_pe = shmem_my_pe();
    heap       = shmem_malloc(4 * sizeof(long));
    XG_CHECK(heap != NULL, "shmem_malloc");

    if (strcmp(what, "pe") == 0) {
        shmem_long_p(heap, 1, npes);
    } else if (strcmp(what, "stride") == 0) {
        shmem_int_iput((int *)heap, src, 0, 1, 2, 0);
    } else if (strcmp(what, "align") == 0) {
        shmem_long_atomic_fetch_add((long *)((char *)heap + 4), 1, 0);
    } else if (strcmp(what, "bounds") == 0) {
        shmem_putmem(heap, src, 1u << 20, 0);
    } else if (strcmp(what, "local") == 0) {
        shmem_long_put(&stack_var, heap, 1, 0);
    } else if (strcmp(what, "zero") == 0) {
        shmem_putmem(NULL, NULL, 0, npes + 5);
        shmem_getmem(&stack_var, &stack_var, 0, -1);
        shmem_int_iput(NULL, NULL, 0, 0, 0, npes);
        shmem_longlong_ibget(NULL, NULL, 1, 1, 0, 3, npes);
    }
    printf("no error\n");
    shmem_free(heap);
    shmem_finalize();
    return 0;
}
