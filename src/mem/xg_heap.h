/*
 * The symmetric heap allocator.  It manages one PE's heap partition with
 * metadata kept in private memory, and is deterministic: the same sequence
 * of calls gives the same offsets on every PE, which is what makes a
 * collective shmem_malloc return symmetric addresses without talking to the
 * other PEs.  First fit over an offset-sorted block array; neighbouring free
 * blocks are merged.  Cost: O(blocks) per call (setup tier).  Thread-safe.
 */
#ifndef XG_HEAP_H
#define XG_HEAP_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "xgas_status.h"

#define XG_HEAP_MIN_ALIGN 16

typedef struct xg_heap_block {
    uint64_t off;
    uint64_t size;
    int used;
} xg_heap_block_t;

typedef struct xg_heap {
    uintptr_t base;
    uint64_t size;
    uint64_t max_align;      /* alignment every PE's heap base shares */
    xg_heap_block_t *blocks; /* sorted by offset, covering [0, size) */
    size_t count;
    size_t capacity;
    uint64_t in_use; /* bytes in used blocks */
    uint64_t peak;   /* largest in_use seen */
    pthread_mutex_t lock;
} xg_heap_t;

/* @max_align: the largest alignment honoured (a power of two dividing
 * @base); larger requests fail with XG_ERR_INVALID_PARAM.  Symmetric heaps
 * pass the alignment shared by every PE's partition, so an aligned block
 * has the same offset on every PE. */
xg_status_t xg_heap_init(xg_heap_t *heap, uintptr_t base, uint64_t size,
                         uint64_t max_align);
void xg_heap_fini(xg_heap_t *heap);

/* Allocates @size bytes (> 0) aligned to @align (a power of two, at most
 * max_align); on exhaustion returns XG_ERR_NO_MEMORY without logging (the
 * caller knows which routine and variable to name). */
xg_status_t xg_heap_alloc(xg_heap_t *heap, size_t size, size_t align,
                          void **ptr_p);

/* Frees a block returned by xg_heap_alloc; XG_ERR_NOT_SYMMETRIC if @ptr is
 * not the start of a live block. */
xg_status_t xg_heap_free(xg_heap_t *heap, void *ptr);

/* Resizes a live block, moving it (and copying this PE's contents) when it
 * cannot grow in place. */
xg_status_t xg_heap_realloc(xg_heap_t *heap, void *ptr, size_t size,
                            void **ptr_p);

/*
 * Placement for allocations agreed by a group of PEs whose heaps may differ
 * (blocks some PEs allocated without the others): fit gives, in *off_p,
 * the lowest offset >= @min_off, aligned to @align, where @size bytes are
 * free (XG_ERR_NO_MEMORY if there is none); alloc_at takes exactly
 * [@off, @off + @size) if it is free (XG_ERR_NO_MEMORY if not).  A group
 * that proposes the largest fit of its members until every member's fit
 * is that offset gets the same offset on every member.  Sizes round up as
 * in xg_heap_alloc.
 */
xg_status_t xg_heap_fit(xg_heap_t *heap, size_t size, size_t align,
                        uint64_t min_off, uint64_t *off_p);
xg_status_t xg_heap_alloc_at(xg_heap_t *heap, uint64_t off, size_t size,
                             void **ptr_p);

/* End offset of the highest used block: [0, top) holds every live object. */
uint64_t xg_heap_top(xg_heap_t *heap);

/* Bytes of the largest free block. */
uint64_t xg_heap_largest_free(xg_heap_t *heap);

#endif
