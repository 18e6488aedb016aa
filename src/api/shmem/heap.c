/*
 * OpenSHMEM symmetric heap routines.  All are collective: every PE makes the
 * same call, and the deterministic allocator hands out the same offsets.
 * Allocation ends with a barrier (the object exists everywhere before anyone
 * uses it); free starts with one (nobody still uses it).  That barrier
 * (xg_coll_heap) also checks that every PE called the same routine with the
 * same size, alignment and object: otherwise the offsets would differ and a
 * later put would land inside another object, so the job ends instead.
 */
#include <string.h>

#include "api/shmem/shmem_int.h"
#include "base/xg_log.h"
#include "gas/coll/xg_coll.h"

/* Heap offset of @ptr (what every PE must agree on), XG_COLL_HEAP_NULL for
 * NULL; a pointer outside the heap ends the job before the barrier. */
static uint64_t shmem_heap_offset(const char *routine, const void *ptr)
{
    uint64_t offset;

    if (ptr == NULL) {
        return XG_COLL_HEAP_NULL;
    }
    if (!xg_gas_heap_offset(ptr, &offset)) {
        xg_shmem_fail(routine,
                      "%p is not an object of the symmetric heap: "
                      "pass a pointer returned by shmem_malloc and friends",
                      ptr);
    }
    return offset;
}

/* MiB to suggest for SHMEM_SYMMETRIC_SIZE when @size bytes did not fit
 * in a heap of @heap bytes: twice the heap and the request, rounded up to
 * a whole MiB (at least 1, also for a heap of SHMEM_SYMMETRIC_SIZE=0). */
static unsigned long long shmem_heap_advice(uint64_t heap, size_t size)
{
    unsigned long long want = 2 * ((unsigned long long)heap + size);

    return (want + (1ULL << 20) - 1) >> 20;
}

/* Reports a failed allocation, then closes the call: a checked barrier of
 * heap routine @op, or a plain one for @op 0. */
static void *shmem_heap_result(const char *routine, xg_status_t status,
                               size_t size, void *ptr, int op, uint64_t extra)
{
    xg_gas_heap_diag_t heap = {0};

    if ((status == XG_ERR_INVALID_PARAM) || (status == XG_ERR_NO_MEMORY)) {
        xg_gas_heap_diagnose(size, &heap);
    }
    if (status == XG_ERR_INVALID_PARAM) {
        xg_error("shmem",
                 "%s: cannot align an object to more than %llu "
                 "bytes (the largest power of two not above the symmetric "
                 "heap size, or the alignment of XGAS_SYMMETRIC_BASE if "
                 "that is smaller); the call returns NULL; raise "
                 "SHMEM_SYMMETRIC_SIZE for larger alignments",
                 routine, (unsigned long long)heap.max_align);
        ptr = NULL;
    } else if ((status == XG_ERR_NO_MEMORY) && heap.too_large) {
        xg_error("shmem",
                 "%s: cannot allocate %zu bytes: that is more than "
                 "the whole symmetric heap (%llu bytes); check the size "
                 "argument, or set SHMEM_SYMMETRIC_SIZE above %zu bytes",
                 routine, size, (unsigned long long)heap.heap, size);
        ptr = NULL;
    } else if (status == XG_ERR_NO_MEMORY) {
        xg_error("shmem",
                 "%s: cannot allocate %zu bytes: the symmetric heap "
                 "of %llu bytes is exhausted (largest free block %llu bytes); "
                 "set SHMEM_SYMMETRIC_SIZE to a larger size, e.g. "
                 "SHMEM_SYMMETRIC_SIZE=%lluM",
                 routine, size, (unsigned long long)heap.heap,
                 (unsigned long long)heap.largest_free,
                 shmem_heap_advice(heap.heap, size));
        ptr = NULL;
    } else if (status != XG_OK) {
        ptr = NULL;
    }
    if (op == 0) {
        xg_gas_barrier_named(routine); /* arguments checked before */
    } else {
        xg_coll_heap((xg_coll_heap_op_t)op, size, extra);
    }
    return ptr;
}

/* @zero: clear the object before the closing barrier, so that no PE can
 * store into it (remotely) before its owner has cleared it. */
static void *shmem_alloc(const char *routine, xg_coll_heap_op_t op, size_t size,
                         size_t align, uint64_t extra, int zero)
{
    void *ptr = NULL;
    xg_status_t status;

    xg_shmem_check_init(routine);
    if (size == 0) {
        xg_coll_heap(op, 0, extra);
        return NULL;
    }
    status = xg_gas_alloc(size, align, &ptr);
    if ((status == XG_OK) && zero) {
        memset(ptr, 0, size);
    }
    return shmem_heap_result(routine, status, size, ptr, op, extra);
}

XG_SHMEM_API void *shmem_malloc(size_t size)
{
    return shmem_alloc(__func__, XG_COLL_HEAP_MALLOC, size, XG_HEAP_MIN_ALIGN,
                       0, 0);
}
XG_PSHMEM(shmem_malloc)

XG_SHMEM_API void *shmem_malloc_with_hints(size_t size, long hints)
{
    const long known = SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE;

    if ((hints & ~known) != 0) {
        xg_warn("shmem",
                "shmem_malloc_with_hints: unknown hint bits %#lx "
                "ignored",
                hints & ~known);
    }
    /* Same-node memory serves every hint equally: the hints change nothing
     * in where or how the object is placed, so PEs that pass different
     * hints get the same offsets and are not stopped (the specification
     * asks only the size to be the same). */
    return shmem_alloc(__func__, XG_COLL_HEAP_MALLOC_HINTS, size,
                       XG_HEAP_MIN_ALIGN, 0, 0);
}
XG_PSHMEM(shmem_malloc_with_hints)

XG_SHMEM_API void *shmem_calloc(size_t count, size_t size)
{
    if ((size != 0) && (count > SIZE_MAX / size)) {
        xg_shmem_fail(__func__, "%zu elements of %zu bytes overflow size_t",
                      count, size);
    }
    return shmem_alloc(__func__, XG_COLL_HEAP_CALLOC, count * size,
                       XG_HEAP_MIN_ALIGN, 0, 1);
}
XG_PSHMEM(shmem_calloc)

XG_SHMEM_API void *shmem_align(size_t alignment, size_t size)
{
    if (!xg_is_pow2(alignment)) {
        xg_shmem_fail(__func__, "alignment %zu is not a power of two",
                      alignment);
    }
    return shmem_alloc(__func__, XG_COLL_HEAP_ALIGN, size, alignment, alignment,
                       0);
}
XG_PSHMEM(shmem_align)

XG_SHMEM_API void shmem_free(void *ptr)
{
    xg_shmem_check_init(__func__);
    xg_coll_heap(XG_COLL_HEAP_FREE, 0, shmem_heap_offset(__func__, ptr));
    if ((ptr != NULL) && (xg_gas_free(ptr) != XG_OK)) {
        xg_shmem_fail(__func__,
                      "%p is not an object of the symmetric heap "
                      "(or was freed already): pass a pointer returned by "
                      "shmem_malloc and friends",
                      ptr);
    }
}
XG_PSHMEM(shmem_free)

XG_SHMEM_API void *shmem_realloc(void *ptr, size_t size)
{
    void *moved = NULL;
    xg_status_t status;

    xg_shmem_check_init(__func__);
    /* every PE must have finished with the old object before it moves, and
     * every PE must resize the same object to the same size */
    xg_coll_heap(XG_COLL_HEAP_REALLOC, size, shmem_heap_offset(__func__, ptr));
    if (ptr == NULL) {
        if (size == 0) {
            return NULL;
        }
        status = xg_gas_alloc(size, XG_HEAP_MIN_ALIGN, &moved);
    } else if (size == 0) {
        if (xg_gas_free(ptr) != XG_OK) {
            xg_shmem_fail(__func__,
                          "%p is not an object of the symmetric "
                          "heap (or was freed already): pass a pointer "
                          "returned by shmem_malloc and friends",
                          ptr);
        }
        return NULL;
    } else {
        status = xg_gas_realloc(ptr, size, &moved);
    }
    if (status == XG_ERR_NOT_SYMMETRIC) {
        xg_shmem_fail(__func__,
                      "%p is not an object of the symmetric heap: "
                      "pass a pointer returned by shmem_malloc and friends",
                      ptr);
    }
    /* the arguments were checked: a plain barrier closes the call */
    return shmem_heap_result(__func__, status, size, moved, 0, 0);
}
XG_PSHMEM(shmem_realloc)
