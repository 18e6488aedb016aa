/*
 * A binary buddy allocator over one contiguous arena (the NIC keeps the
 * payloads of unexpected messages it holds in one, docs/nic.md).  The arena is
 * 2^k bytes cut into blocks of 2^j bytes (min_block <= 2^j <= arena); a
 * request is rounded up to a power of two, taken from the smallest free
 * block that fits (split in halves as needed), and a freed block merges
 * with its buddy -- the block at its address xor its size -- while that is
 * free too.  Free blocks link through their own first bytes; one tag byte
 * per minimum block records the order of a free or allocated block head.
 *
 * Cost: alloc and free are O(log(arena / min_block)).  Not thread-safe:
 * the owner (an NI) serializes calls.
 */
#ifndef XG_BUDDY_H
#define XG_BUDDY_H

#include <stddef.h>
#include <stdint.h>

#include "xgas_status.h"

#define XG_BUDDY_MAX_ORDERS 40

typedef struct xg_buddy_block xg_buddy_block_t;

typedef struct xg_buddy {
    uint8_t *base;      /* arena */
    size_t size;        /* arena bytes, power of two */
    unsigned min_shift; /* log2 of the smallest block */
    unsigned orders;    /* block sizes 2^min_shift .. size */
    uint8_t *tags;      /* one per minimum block */
    xg_buddy_block_t *free_list[XG_BUDDY_MAX_ORDERS];
    size_t used; /* bytes in allocated blocks */
    int mapped;  /* arena came from mmap */
} xg_buddy_t;

/* Creates an allocator over @size bytes (rounded up to a power of two) with
 * @min_block-byte (power of two) smallest blocks.  @arena may be NULL: the
 * arena is then mapped privately. */
xg_status_t xg_buddy_init(xg_buddy_t *buddy, void *arena, size_t size,
                          size_t min_block);
void xg_buddy_fini(xg_buddy_t *buddy);

/* A block of at least @len bytes, or NULL when none is free. */
void *xg_buddy_alloc(xg_buddy_t *buddy, size_t len);

/* Returns a block from xg_buddy_alloc (NULL is ignored). */
void xg_buddy_free(xg_buddy_t *buddy, void *ptr);

/* Bytes of the block xg_buddy_alloc gave for @ptr. */
size_t xg_buddy_block_size(const xg_buddy_t *buddy, const void *ptr);

/* Checks the free lists and tags against each other; 0 when consistent
 * (for tests).  Sets *free_p to the free bytes. */
int xg_buddy_check(const xg_buddy_t *buddy, size_t *free_p);

#endif
