/*
 * Deterministic first-fit allocator for the symmetric heap (see xg_heap.h).
 */
#include "mem/xg_heap.h"

#include <stdlib.h>
#include <string.h>

#include "base/xg_compiler.h"
#include "base/xg_log.h"

xg_status_t xg_heap_init(xg_heap_t *heap, uintptr_t base, uint64_t size,
                         uint64_t max_align)
{
    xg_assert(xg_is_pow2(max_align) && ((base & (max_align - 1)) == 0));
    memset(heap, 0, sizeof(*heap));
    heap->capacity = 64;
    heap->blocks   = calloc(heap->capacity, sizeof(*heap->blocks));
    if (heap->blocks == NULL) {
        return XG_ERR_NO_MEMORY;
    }
    heap->base      = base;
    heap->size      = size;
    heap->max_align = max_align;
    heap->count     = 1;
    heap->blocks[0] = (xg_heap_block_t){.off = 0, .size = size, .used = 0};
    pthread_mutex_init(&heap->lock, NULL);
    return XG_OK;
}

void xg_heap_fini(xg_heap_t *heap)
{
    if (heap->blocks == NULL) {
        return;
    }
    pthread_mutex_destroy(&heap->lock);
    free(heap->blocks);
    heap->blocks = NULL;
    heap->count  = 0;
}

/* Makes room for one more block at index @at (shifting the rest up). */
static int heap_insert(xg_heap_t *heap, size_t at, xg_heap_block_t block)
{
    xg_heap_block_t *grown;

    if (heap->count == heap->capacity) {
        grown = realloc(heap->blocks, 2 * heap->capacity * sizeof(*grown));
        if (grown == NULL) {
            return -1;
        }
        heap->blocks = grown;
        heap->capacity *= 2;
    }
    memmove(&heap->blocks[at + 1], &heap->blocks[at],
            (heap->count - at) * sizeof(*heap->blocks));
    heap->blocks[at] = block;
    heap->count++;
    return 0;
}

static void heap_remove(xg_heap_t *heap, size_t at)
{
    memmove(&heap->blocks[at], &heap->blocks[at + 1],
            (heap->count - at - 1) * sizeof(*heap->blocks));
    heap->count--;
}

/* Merges free block @at with free neighbours; returns its final index. */
static size_t heap_coalesce(xg_heap_t *heap, size_t at)
{
    if ((at + 1 < heap->count) && !heap->blocks[at + 1].used) {
        heap->blocks[at].size += heap->blocks[at + 1].size;
        heap_remove(heap, at + 1);
    }
    if ((at > 0) && !heap->blocks[at - 1].used) {
        heap->blocks[at - 1].size += heap->blocks[at].size;
        heap_remove(heap, at);
        at--;
    }
    return at;
}

/* Index of the used block starting at offset @off, or -1. */
static long heap_find(const xg_heap_t *heap, uint64_t off)
{
    size_t lo = 0, hi = heap->count;

    while (lo < hi) {
        size_t mid = (lo + hi) / 2;

        if (heap->blocks[mid].off < off) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if ((lo < heap->count) && (heap->blocks[lo].off == off) &&
        heap->blocks[lo].used) {
        return (long)lo;
    }
    return -1;
}

/* Carves [start, start + size) out of free block @at. */
static int heap_carve(xg_heap_t *heap, size_t at, uint64_t start, uint64_t size)
{
    xg_heap_block_t block = heap->blocks[at];
    uint64_t end          = start + size;

    if (end < block.off + block.size) {
        if (heap_insert(
                heap, at + 1,
                (xg_heap_block_t){end, block.off + block.size - end, 0}) != 0) {
            return -1;
        }
    }
    heap->blocks[at] = (xg_heap_block_t){start, size, 1};
    if (start > block.off) {
        if (heap_insert(heap, at,
                        (xg_heap_block_t){block.off, start - block.off, 0}) !=
            0) {
            return -1;
        }
    }
    heap->in_use += size;
    if (heap->in_use > heap->peak) {
        heap->peak = heap->in_use;
    }
    return 0;
}

static xg_status_t heap_alloc_locked(xg_heap_t *heap, uint64_t size,
                                     uint64_t align, void **ptr_p)
{
    size_t i;

    for (i = 0; i < heap->count; i++) {
        xg_heap_block_t *block = &heap->blocks[i];
        uint64_t start         = xg_align_up(block->off, align);

        if (block->used || (start + size > block->off + block->size) ||
            (start < block->off)) {
            continue;
        }
        if (heap_carve(heap, i, start, size) != 0) {
            return XG_ERR_NO_MEMORY;
        }
        *ptr_p = (void *)(heap->base + start);
        return XG_OK;
    }
    return XG_ERR_NO_MEMORY;
}

static uint64_t heap_round(size_t size)
{
    return xg_align_up(size, XG_HEAP_MIN_ALIGN);
}

static xg_status_t heap_check_request(const xg_heap_t *heap, size_t size,
                                      size_t *align)
{
    if ((size == 0) || !xg_is_pow2(*align) || (*align > heap->max_align)) {
        return XG_ERR_INVALID_PARAM;
    }
    if (size > heap->size) {
        return XG_ERR_NO_MEMORY;
    }
    if (*align < XG_HEAP_MIN_ALIGN) {
        *align = XG_HEAP_MIN_ALIGN;
    }
    return XG_OK;
}

xg_status_t xg_heap_alloc(xg_heap_t *heap, size_t size, size_t align,
                          void **ptr_p)
{
    xg_status_t status = heap_check_request(heap, size, &align);

    if (status != XG_OK) {
        return status;
    }
    pthread_mutex_lock(&heap->lock);
    status = heap_alloc_locked(heap, heap_round(size), align, ptr_p);
    pthread_mutex_unlock(&heap->lock);
    return status;
}

/* Lowest @align-aligned offset >= @min_off with @size free bytes. */
static int heap_fit_locked(const xg_heap_t *heap, uint64_t size, uint64_t align,
                           uint64_t min_off, uint64_t *off_p)
{
    size_t i;

    for (i = 0; i < heap->count; i++) {
        const xg_heap_block_t *block = &heap->blocks[i];
        uint64_t end                 = block->off + block->size;
        uint64_t start =
            xg_align_up(block->off > min_off ? block->off : min_off, align);

        if (block->used || (start < min_off) || (start >= end) ||
            (size > end - start)) {
            continue;
        }
        *off_p = start;
        return 1;
    }
    return 0;
}

xg_status_t xg_heap_fit(xg_heap_t *heap, size_t size, size_t align,
                        uint64_t min_off, uint64_t *off_p)
{
    xg_status_t status = heap_check_request(heap, size, &align);
    int found;

    if (status != XG_OK) {
        return status;
    }
    pthread_mutex_lock(&heap->lock);
    found = heap_fit_locked(heap, heap_round(size), align, min_off, off_p);
    pthread_mutex_unlock(&heap->lock);
    return found ? XG_OK : XG_ERR_NO_MEMORY;
}

xg_status_t xg_heap_alloc_at(xg_heap_t *heap, uint64_t off, size_t size,
                             void **ptr_p)
{
    size_t align       = XG_HEAP_MIN_ALIGN;
    xg_status_t status = heap_check_request(heap, size, &align);
    uint64_t got;

    if (status != XG_OK) {
        return status;
    }
    if ((off % XG_HEAP_MIN_ALIGN) != 0) {
        return XG_ERR_INVALID_PARAM;
    }
    pthread_mutex_lock(&heap->lock);
    status = XG_ERR_NO_MEMORY;
    if (heap_fit_locked(heap, heap_round(size), XG_HEAP_MIN_ALIGN, off, &got) &&
        (got == off)) {
        size_t i = 0;

        /* the free block holding off */
        while (heap->blocks[i].off + heap->blocks[i].size <= off) {
            i++;
        }
        if (heap_carve(heap, i, off, heap_round(size)) == 0) {
            *ptr_p = (void *)(heap->base + off);
            status = XG_OK;
        }
    }
    pthread_mutex_unlock(&heap->lock);
    return status;
}

static long heap_lookup(const xg_heap_t *heap, const void *ptr)
{
    uintptr_t addr = (uintptr_t)ptr;

    if ((addr < heap->base) || (addr >= heap->base + heap->size)) {
        return -1;
    }
    return heap_find(heap, addr - heap->base);
}

xg_status_t xg_heap_free(xg_heap_t *heap, void *ptr)
{
    long at;

    pthread_mutex_lock(&heap->lock);
    at = heap_lookup(heap, ptr);
    if (at >= 0) {
        heap->in_use -= heap->blocks[at].size;
        heap->blocks[at].used = 0;
        heap_coalesce(heap, (size_t)at);
    }
    pthread_mutex_unlock(&heap->lock);
    return (at >= 0) ? XG_OK : XG_ERR_NOT_SYMMETRIC;
}

/* Shrinks or grows block @at in place; 0 on success. */
static int heap_resize_in_place(xg_heap_t *heap, size_t at, uint64_t size)
{
    uint64_t old_size = heap->blocks[at].size;
    uint64_t avail    = old_size;
    int next_free     = (at + 1 < heap->count) && !heap->blocks[at + 1].used;

    if (next_free) {
        avail += heap->blocks[at + 1].size;
    }
    if (size > avail) {
        return -1;
    }
    if (next_free) {
        heap_remove(heap, at + 1); /* absorb the free neighbour */
    }
    if ((avail > size) &&
        (heap_insert(heap, at + 1,
                     (xg_heap_block_t){heap->blocks[at].off + size,
                                       avail - size, 0}) != 0)) {
        size = avail; /* no memory for the metadata: keep the slack */
    }
    heap->blocks[at].size = size;
    heap->in_use          = heap->in_use - old_size + size;
    if (heap->in_use > heap->peak) {
        heap->peak = heap->in_use;
    }
    return 0;
}

xg_status_t xg_heap_realloc(xg_heap_t *heap, void *ptr, size_t size,
                            void **ptr_p)
{
    xg_status_t status;
    uint64_t old_size;
    void *moved;
    long at;

    if (size == 0) {
        return XG_ERR_INVALID_PARAM;
    }
    if (size > heap->size) {
        return XG_ERR_NO_MEMORY; /* also keeps heap_round from wrapping */
    }
    pthread_mutex_lock(&heap->lock);
    at = heap_lookup(heap, ptr);
    if (at < 0) {
        pthread_mutex_unlock(&heap->lock);
        return XG_ERR_NOT_SYMMETRIC;
    }
    if (heap_resize_in_place(heap, (size_t)at, heap_round(size)) == 0) {
        pthread_mutex_unlock(&heap->lock);
        *ptr_p = ptr;
        return XG_OK;
    }
    old_size = heap->blocks[at].size;
    status =
        heap_alloc_locked(heap, heap_round(size), XG_HEAP_MIN_ALIGN, &moved);
    if (status == XG_OK) {
        memcpy(moved, ptr, old_size);
        at = heap_lookup(heap, ptr); /* indices moved during the carve */
        heap->in_use -= heap->blocks[at].size;
        heap->blocks[at].used = 0;
        heap_coalesce(heap, (size_t)at);
        *ptr_p = moved;
    }
    pthread_mutex_unlock(&heap->lock);
    return status;
}

uint64_t xg_heap_top(xg_heap_t *heap)
{
    uint64_t top;

    pthread_mutex_lock(&heap->lock);
    top = heap->blocks[heap->count - 1].used
              ? heap->size
              : heap->blocks[heap->count - 1].off;
    pthread_mutex_unlock(&heap->lock);
    return top;
}

uint64_t xg_heap_largest_free(xg_heap_t *heap)
{
    uint64_t largest = 0;
    size_t i;

    pthread_mutex_lock(&heap->lock);
    for (i = 0; i < heap->count; i++) {
        if (!heap->blocks[i].used && (heap->blocks[i].size > largest)) {
            largest = heap->blocks[i].size;
        }
    }
    pthread_mutex_unlock(&heap->lock);
    return largest;
}
