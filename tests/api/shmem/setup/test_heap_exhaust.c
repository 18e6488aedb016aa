/*
 * Heap exhaustion, run with SHMEM_SYMMETRIC_SIZE=1M: a request larger than
 * the heap returns NULL on every PE (shmem_malloc, calloc, align,
 * malloc_with_hints and realloc), the library says which variable to raise
 * (the driver script checks the message names SHMEM_SYMMETRIC_SIZE), a
 * failed realloc leaves the object unchanged, and the heap keeps working
 * afterwards.
 *
 * With the argument "fill" (run with SHMEM_SYMMETRIC_SIZE=0), small objects
 * are allocated until the heap is exhausted: the message must suggest a
 * real size (the driver checks SHMEM_SYMMETRIC_SIZE=<n>M with n > 0).
 */
#include <shmem.h>
#include <string.h>

#include "xg_test.h"

#define TOO_BIG (2u << 20)

/* Allocates 1 KiB objects until one fails (the heap holds far fewer than
 * 1 Mi of them). */
static int fill_heap(void)
{
    size_t n = 0;

    while ((n < (1u << 20)) && (shmem_malloc(1024) != NULL)) {
        n++;
    }
    XG_CHECK(n < (1u << 20), "1 Mi objects of 1 KiB fit in the heap");
    shmem_finalize();
    return XG_TEST_PASS;
}

int main(int argc, char **argv)
{
    unsigned char *p;
    size_t i;

    shmem_init();
    xg_test_pe = shmem_my_pe();
    if ((argc > 1) && (strcmp(argv[1], "fill") == 0)) {
        return fill_heap();
    }

    XG_CHECK(shmem_malloc(TOO_BIG) == NULL, "shmem_malloc(2M) in 1M");
    XG_CHECK(shmem_calloc(2, TOO_BIG / 2) == NULL, "shmem_calloc");
    XG_CHECK(shmem_align(4096, TOO_BIG) == NULL, "shmem_align");
    XG_CHECK(shmem_malloc_with_hints(TOO_BIG, SHMEM_MALLOC_ATOMICS_REMOTE) ==
                 NULL,
             "shmem_malloc_with_hints");

    p = shmem_malloc(4096);
    XG_CHECK(p != NULL, "a small allocation after the failures");
    for (i = 0; i < 4096; i++) {
        p[i] = (unsigned char)i;
    }
    XG_CHECK(shmem_realloc(p, TOO_BIG) == NULL, "shmem_realloc to 2M");
    for (i = 0; i < 4096; i++) {
        XG_CHECK(p[i] == (unsigned char)i,
                 "byte %zu changed by a failed "
                 "realloc",
                 i);
    }
    shmem_putmem(p, p, 4096, (shmem_my_pe() + 1) % shmem_n_pes());
    shmem_free(p);

    /* most of the heap is still available */
    p = shmem_malloc(512u << 10);
    XG_CHECK(p != NULL, "512K in a 1M heap after the failures");
    shmem_free(p);
    shmem_finalize();
    return XG_TEST_PASS;
}
