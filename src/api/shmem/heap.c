/*
 * OpenSHMEM symmetric heap routines.  All are collective: every PE makes the
 * same call, and the deterministic allocator hands out the same offsets.
 * Allocation ends with a barrier (the object exists everywhere before anyone
 * uses it); free starts with one (nobody still uses it).
 */
#include <string.h>

#include "api/shmem/shmem_int.h"
#include "base/xg_log.h"

static void *shmem_heap_result(const char *routine, xg_status_t status,
                               size_t size, void *ptr)
{
    if (status == XG_ERR_INVALID_PARAM) {
        xg_error("shmem", "%s: cannot align an object to more than %llu "
                 "bytes (the largest power of two not above the symmetric "
                 "heap size, or the alignment of XGAS_SYMMETRIC_BASE if "
                 "that is smaller); the call returns NULL; raise "
                 "SHMEM_SYMMETRIC_SIZE for larger alignments", routine,
                 (unsigned long long)xg_mem.heap.max_align);
        ptr = NULL;
    } else if ((status == XG_ERR_NO_MEMORY) && (size > xg_mem.heap_size)) {
        xg_error("shmem", "%s: cannot allocate %zu bytes: that is more than "
                 "the whole symmetric heap (%llu bytes); check the size "
                 "argument, or set SHMEM_SYMMETRIC_SIZE above %zu bytes",
                 routine, size, (unsigned long long)xg_mem.heap_size, size);
        ptr = NULL;
    } else if (status == XG_ERR_NO_MEMORY) {
        xg_error("shmem", "%s: cannot allocate %zu bytes: the symmetric heap "
                 "of %llu bytes is exhausted (largest free block %llu bytes); "
                 "set SHMEM_SYMMETRIC_SIZE to a larger size, e.g. "
                 "SHMEM_SYMMETRIC_SIZE=%lluM", routine, size,
                 (unsigned long long)xg_mem.heap_size,
                 (unsigned long long)xg_heap_largest_free(&xg_mem.heap),
                 (unsigned long long)((xg_mem.heap_size + size) >> 19));
        ptr = NULL;
    } else if (status != XG_OK) {
        ptr = NULL;
    }
    xg_gas_barrier();
    return ptr;
}

/* @zero: clear the object before the closing barrier, so that no PE can
 * store into it (remotely) before its owner has cleared it. */
static void *shmem_alloc(const char *routine, size_t size, size_t align,
                         int zero)
{
    void *ptr = NULL;
    xg_status_t status;

    xg_shmem_check_init(routine);
    if (size == 0) {
        xg_gas_barrier();
        return NULL;
    }
    status = xg_gas_alloc(size, align, &ptr);
    if ((status == XG_OK) && zero) {
        memset(ptr, 0, size);
    }
    return shmem_heap_result(routine, status, size, ptr);
}

XG_SHMEM_API void *shmem_malloc(size_t size)
{
    return shmem_alloc(__func__, size, XG_HEAP_MIN_ALIGN, 0);
}
XG_PSHMEM(shmem_malloc)

XG_SHMEM_API void *shmem_malloc_with_hints(size_t size, long hints)
{
    const long known =
        SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE;

    if ((hints & ~known) != 0) {
        xg_warn("shmem", "shmem_malloc_with_hints: unknown hint bits %#lx "
                "ignored", hints & ~known);
    }
    /* Same-node memory serves every hint equally: the hints change nothing
     * in where or how the object is placed. */
    return shmem_alloc(__func__, size, XG_HEAP_MIN_ALIGN, 0);
}
XG_PSHMEM(shmem_malloc_with_hints)

XG_SHMEM_API void *shmem_calloc(size_t count, size_t size)
{
    if ((size != 0) && (count > SIZE_MAX / size)) {
        xg_shmem_fail(__func__, "%zu elements of %zu bytes overflow size_t",
                      count, size);
    }
    return shmem_alloc(__func__, count * size, XG_HEAP_MIN_ALIGN, 1);
}
XG_PSHMEM(shmem_calloc)

XG_SHMEM_API void *shmem_align(size_t alignment, size_t size)
{
    if (!xg_is_pow2(alignment)) {
        xg_shmem_fail(__func__, "alignment %zu is not a power of two",
                      alignment);
    }
    return shmem_alloc(__func__, size, alignment, 0);
}
XG_PSHMEM(shmem_align)

XG_SHMEM_API void shmem_free(void *ptr)
{
    xg_shmem_check_init(__func__);
    xg_gas_barrier();
    if ((ptr != NULL) && (xg_gas_free(ptr) != XG_OK)) {
        xg_shmem_fail(__func__, "%p is not an object of the symmetric heap "
                      "(or was freed already): pass a pointer returned by "
                      "shmem_malloc and friends", ptr);
    }
}
XG_PSHMEM(shmem_free)

XG_SHMEM_API void *shmem_realloc(void *ptr, size_t size)
{
    void *moved = NULL;
    xg_status_t status;

    if (ptr == NULL) {
        return shmem_malloc(size);
    }
    if (size == 0) {
        shmem_free(ptr);
        return NULL;
    }
    xg_shmem_check_init(__func__);
    /* every PE must have finished with the old object before it moves */
    xg_gas_barrier();
    status = xg_gas_realloc(ptr, size, &moved);
    if (status == XG_ERR_NOT_SYMMETRIC) {
        xg_shmem_fail(__func__, "%p is not an object of the symmetric heap: "
                      "pass a pointer returned by shmem_malloc and friends",
                      ptr);
    }
    return shmem_heap_result(__func__, status, size, moved);
}
XG_PSHMEM(shmem_realloc)
