/*
 * Heap exhaustion, run with SHMEM_SYMMETRIC_SIZE=1M: a request larger than
 * the heap returns NULL on every PE (shmem_malloc, calloc, align,
 * malloc_with_hints and realloc), the library says which variable to raise
 * (the driver script checks the message names SHMEM_SYMMETRIC_SIZE), a
 * failed realloc leaves the object unchanged, and the heap keeps working
 * afterwards.
 */
#include <shmem.h>
#include <string.h>

#include "xg_test.h"

#define TOO_BIG (2u << 20)

int main(void)
{
    unsigned char *p;
    size_t i;

    shmem_init();
    xg_test_pe = shmem_my_pe();

    XG_CHECK(shmem_malloc(TOO_BIG) == NULL, "shmem_malloc(2M) in 1M");
    XG_CHECK(shmem_calloc(2, TOO_BIG / 2) == NULL, "shmem_calloc");
    XG_CHECK(shmem_align(4096, TOO_BIG) == NULL, "shmem_align");
    XG_CHECK(shmem_malloc_with_hints(TOO_BIG, SHMEM_MALLOC_ATOMICS_REMOTE) ==
             NULL, "shmem_malloc_with_hints");

    p = shmem_malloc(4096);
    XG_CHECK(p != NULL, "a small allocation after the failures");
    for (i = 0; i < 4096; i++) {
        p[i] = (unsigned char)i;
    }
    XG_CHECK(shmem_realloc(p, TOO_BIG) == NULL, "shmem_realloc to 2M");
    for (i = 0; i < 4096; i++) {
        XG_CHECK(p[i] == (unsigned char)i, "byte %zu changed by a failed "
                 "realloc", i);
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
