/*
 * Requests whose size is near SIZE_MAX: each must fail like any other
 * request that does not fit -- NULL on every PE, a failed realloc leaving
 * its object unchanged -- and must not be rounded into a small size on the
 * way (SIZE_MAX rounded up to the heap's 16-byte granule wraps to 0).
 * Afterwards a new object must not overlap the one realloc was asked to
 * grow.
 */
#include <shmem.h>
#include <stdint.h>
#include <string.h>

#include "xg_test.h"

static const size_t huge[] = {SIZE_MAX, SIZE_MAX - 3, SIZE_MAX / 2 + 1};

int main(void)
{
    unsigned char *obj, *other;
    size_t i, k;

    shmem_init();
    xg_test_pe = shmem_my_pe();

    obj = shmem_malloc(4096);
    XG_CHECK(obj != NULL, "shmem_malloc(4096)");
    memset(obj, 0x5a, 4096);
    for (k = 0; k < sizeof(huge) / sizeof(huge[0]); k++) {
        XG_CHECK(shmem_malloc(huge[k]) == NULL, "shmem_malloc(%zu)", huge[k]);
        XG_CHECK(shmem_align(64, huge[k]) == NULL, "shmem_align(64, %zu)",
                 huge[k]);
        XG_CHECK(shmem_malloc_with_hints(huge[k], 0) == NULL,
                 "shmem_malloc_with_hints(%zu)", huge[k]);
        XG_CHECK(shmem_calloc(1, huge[k]) == NULL, "shmem_calloc(1, %zu)",
                 huge[k]);
        XG_CHECK(shmem_realloc(obj, huge[k]) == NULL,
                 "shmem_realloc(obj, %zu) did not fail", huge[k]);
    }
    for (i = 0; i < 4096; i++) {
        XG_CHECK(obj[i] == 0x5a, "byte %zu of the object changed", i);
    }
    other = shmem_malloc(4096);
    XG_CHECK((other != NULL) &&
                 ((other >= obj + 4096) || (other + 4096 <= obj)),
             "new object %p overlaps the live object %p", (void *)other,
             (void *)obj);
    shmem_free(other);
    shmem_free(obj);
    shmem_finalize();
    return XG_TEST_PASS;
}
