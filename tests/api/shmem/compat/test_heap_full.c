/*
 * The whole SHMEM_SYMMETRIC_SIZE belongs to the program, and shmem_align
 * honours every power-of-two alignment up to the heap size.  Run with
 * SHMEM_SYMMETRIC_SIZE set to a multiple of 64 KiB (the driver gives
 * 16M); each object is checked to be usable on every PE (a put into the
 * next PE's copy, read back by its owner).
 */
#include <shmem.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xg_test.h"

static int me, npes;

/* Every PE writes its number at @offset of the next PE's object. */
static void check_usable(unsigned char *obj, size_t offset, const char *what)
{
    int left = (me + npes - 1) % npes;

    shmem_int_p((int *)(obj + offset), me, (me + 1) % npes);
    shmem_barrier_all();
    XG_CHECK(*(int *)(obj + offset) == left,
             "%s: offset %zu holds %d, not "
             "%d",
             what, offset, *(int *)(obj + offset), left);
    shmem_barrier_all();
}

int main(void)
{
    const char *env = getenv("SHMEM_SYMMETRIC_SIZE");
    size_t size, part, align;
    unsigned char *obj, *parts[4];
    int i;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    XG_CHECK(env != NULL, "run with SHMEM_SYMMETRIC_SIZE set");
    size = strtoull(env, NULL, 10) << 20; /* "<n>M" */

    /* one object of the whole size */
    obj = shmem_malloc(size);
    XG_CHECK(obj != NULL, "shmem_malloc(SHMEM_SYMMETRIC_SIZE = %zu)", size);
    check_usable(obj, 0, "whole heap, first int");
    check_usable(obj, size - sizeof(int), "whole heap, last int");
    shmem_free(obj);

    /* several objects adding up to it */
    part = size / 4;
    for (i = 0; i < 4; i++) {
        parts[i] = shmem_malloc(part);
        XG_CHECK(parts[i] != NULL, "object %d of 4 x %zu bytes", i, part);
    }
    check_usable(parts[3], part - sizeof(int), "last quarter");
    for (i = 0; i < 4; i++) {
        shmem_free(parts[i]);
    }
    obj = shmem_calloc(size / sizeof(int), sizeof(int));
    XG_CHECK(obj != NULL && obj[size - 1] == 0, "shmem_calloc of the whole "
                                                "heap");
    shmem_free(obj);

    /* every alignment up to the heap size, for a small object; an
     * alignment of 64 KiB for an object of the whole size */
    for (align = 16; align <= size; align *= 2) {
        obj = shmem_align(align, 64);
        XG_CHECK(obj != NULL && ((uintptr_t)obj % align) == 0,
                 "shmem_align(%zu, 64) gave %p", align, (void *)obj);
        check_usable(obj, 60, "aligned object");
        shmem_free(obj);
    }
    obj = shmem_align(65536, size);
    XG_CHECK(obj != NULL && ((uintptr_t)obj % 65536) == 0,
             "shmem_align(65536, %zu) gave %p", size, (void *)obj);
    check_usable(obj, size - sizeof(int), "aligned whole heap");
    shmem_free(obj);

    /* far more than the heap: NULL on every PE, and the heap still works */
    XG_CHECK(shmem_malloc(2 * size) == NULL, "shmem_malloc(2 * size)");
    XG_CHECK(shmem_align(2 * size, 16) == NULL, "shmem_align(2 * size)");
    obj = shmem_malloc(size);
    XG_CHECK(obj != NULL, "the heap after failed requests");
    shmem_free(obj);
    shmem_finalize();
    return 0;
}
