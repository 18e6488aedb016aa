/*
 * Binary buddy allocator (see xg_buddy.h).
 *
 * Tag byte of minimum block i: 0 if i is not the head of a block,
 * TAG_FREE | order if a free block of 2^(min_shift+order) bytes starts at
 * i, TAG_USED | order if an allocated one does.
 */
#include "base/xg_buddy.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/xg_compiler.h"

#define TAG_FREE  0x80u
#define TAG_USED  0x40u
#define TAG_ORDER 0x3fu

struct xg_buddy_block {
    xg_buddy_block_t *next;
    xg_buddy_block_t *prev;
};

static size_t buddy_index(const xg_buddy_t *buddy, const void *ptr)
{
    return (size_t)((const uint8_t *)ptr - buddy->base) >> buddy->min_shift;
}

static void *buddy_addr(const xg_buddy_t *buddy, size_t index)
{
    return buddy->base + (index << buddy->min_shift);
}

static void buddy_push(xg_buddy_t *buddy, size_t index, unsigned order)
{
    xg_buddy_block_t *block = buddy_addr(buddy, index);

    block->prev = NULL;
    block->next = buddy->free_list[order];
    if (block->next != NULL) {
        block->next->prev = block;
    }
    buddy->free_list[order] = block;
    buddy->tags[index]      = (uint8_t)(TAG_FREE | order);
}

static void buddy_unlink(xg_buddy_t *buddy, size_t index, unsigned order)
{
    xg_buddy_block_t *block = buddy_addr(buddy, index);

    if (block->prev != NULL) {
        block->prev->next = block->next;
    } else {
        buddy->free_list[order] = block->next;
    }
    if (block->next != NULL) {
        block->next->prev = block->prev;
    }
    buddy->tags[index] = 0;
}

static unsigned buddy_log2_ceil(size_t value)
{
    unsigned shift = 0;

    while (((size_t)1 << shift) < value) {
        shift++;
    }
    return shift;
}

xg_status_t xg_buddy_init(xg_buddy_t *buddy, void *arena, size_t size,
                          size_t min_block)
{
    unsigned size_shift;

    memset(buddy, 0, sizeof(*buddy));
    if ((min_block < sizeof(xg_buddy_block_t)) || !xg_is_pow2(min_block) ||
        (size < min_block)) {
        return XG_ERR_INVALID_PARAM;
    }
    size_shift       = buddy_log2_ceil(size);
    buddy->min_shift = buddy_log2_ceil(min_block);
    buddy->orders    = size_shift - buddy->min_shift + 1;
    if (buddy->orders > XG_BUDDY_MAX_ORDERS) {
        return XG_ERR_INVALID_PARAM;
    }
    buddy->size = (size_t)1 << size_shift;
    if (arena == NULL) {
        arena = mmap(NULL, buddy->size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (arena == MAP_FAILED) {
            return XG_ERR_NO_MEMORY;
        }
        buddy->mapped = 1;
    }
    buddy->base = arena;
    buddy->tags = calloc(buddy->size >> buddy->min_shift, 1);
    if (buddy->tags == NULL) {
        if (buddy->mapped) {
            munmap(arena, buddy->size);
        }
        return XG_ERR_NO_MEMORY;
    }
    buddy_push(buddy, 0, buddy->orders - 1);
    return XG_OK;
}

void xg_buddy_fini(xg_buddy_t *buddy)
{
    if ((buddy->base != NULL) && buddy->mapped) {
        munmap(buddy->base, buddy->size);
    }
    free(buddy->tags);
    memset(buddy, 0, sizeof(*buddy));
}

void *xg_buddy_alloc(xg_buddy_t *buddy, size_t len)
{
    unsigned want, order;
    size_t index;

    if ((buddy->base == NULL) || (len > buddy->size)) {
        return NULL;
    }
    want = buddy_log2_ceil(len);
    want = (want > buddy->min_shift) ? want - buddy->min_shift : 0;
    for (order = want; order < buddy->orders; order++) {
        if (buddy->free_list[order] != NULL) {
            break;
        }
    }
    if (order == buddy->orders) {
        return NULL;
    }
    index = buddy_index(buddy, buddy->free_list[order]);
    buddy_unlink(buddy, index, order);
    /* split: the upper half of each split goes back on a free list */
    while (order > want) {
        order--;
        buddy_push(buddy, index + ((size_t)1 << order), order);
    }
    buddy->tags[index] = (uint8_t)(TAG_USED | order);
    buddy->used += (size_t)1 << (order + buddy->min_shift);
    return buddy_addr(buddy, index);
}

size_t xg_buddy_block_size(const xg_buddy_t *buddy, const void *ptr)
{
    return (size_t)1 << ((buddy->tags[buddy_index(buddy, ptr)] & TAG_ORDER) +
                         buddy->min_shift);
}

void xg_buddy_free(xg_buddy_t *buddy, void *ptr)
{
    size_t index, mate;
    unsigned order;

    if (ptr == NULL) {
        return;
    }
    index = buddy_index(buddy, ptr);
    order = buddy->tags[index] & TAG_ORDER;
    buddy->used -= (size_t)1 << (order + buddy->min_shift);
    /* merge while the buddy is a free block of the same order */
    while (order + 1 < buddy->orders) {
        mate = index ^ ((size_t)1 << order);
        if (buddy->tags[mate] != (uint8_t)(TAG_FREE | order)) {
            break;
        }
        buddy_unlink(buddy, mate, order);
        buddy->tags[index] = 0;
        index              = (index < mate) ? index : mate;
        order++;
    }
    buddy_push(buddy, index, order);
}

int xg_buddy_check(const xg_buddy_t *buddy, size_t *free_p)
{
    const xg_buddy_block_t *block;
    size_t free_bytes = 0, index;
    unsigned order;

    for (order = 0; order < buddy->orders; order++) {
        for (block = buddy->free_list[order]; block != NULL;
             block = block->next) {
            index = buddy_index(buddy, block);
            if ((buddy->tags[index] != (uint8_t)(TAG_FREE | order)) ||
                ((index & (((size_t)1 << order) - 1)) != 0)) {
                return -1;
            }
            free_bytes += (size_t)1 << (order + buddy->min_shift);
        }
    }
    *free_p = free_bytes;
    return (free_bytes + buddy->used == buddy->size) ? 0 : -1;
}
