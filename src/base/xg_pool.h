/*
 * Object pools addressed by handles.  A handle is
 *   tag (5 bits, the owner's) | generation (7) | slot index (20)
 * and names one allocation of one slot: freeing a slot bumps its
 * generation, so a stale handle no longer resolves.  Slots live in chunks
 * of XG_POOL_CHUNK objects allocated on demand and never moved or freed
 * before the pool is, so a lookup racing with a free reads a stale slot,
 * never freed memory.  Objects are padded to whole cache lines.
 *
 * Threads: alloc, free and each are serialized by the owner (one lock);
 * lookups take no lock.
 */
#ifndef XG_POOL_H
#define XG_POOL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "xgas_status.h"

#define XG_POOL_CHUNK      256u /* objects per chunk */
#define XG_POOL_TAG_SHIFT  27
#define XG_POOL_GEN_SHIFT  20
#define XG_POOL_GEN_MASK   0x7fu
#define XG_POOL_INDEX_MASK 0xfffffu

/* First member of every pooled object. */
typedef struct xg_pool_obj {
    _Atomic uint32_t handle; /* 0 while free */
    uint32_t index;
    uint32_t next_free; /* index + 1 of the next free slot */
    uint8_t gen;
    uint8_t live; /* allocated (its handle may be retired) */
    uint8_t pad[2];
} xg_pool_obj_t;

typedef struct xg_pool {
    size_t obj_size;
    uint32_t max;       /* objects allowed at once */
    uint32_t count;     /* in use */
    uint32_t created;   /* slots ever initialized */
    uint32_t free_head; /* index + 1, 0: none */
    uint32_t tag;       /* the handles' top bits */
    uint32_t nchunks;
    _Atomic(void *) *chunks;
} xg_pool_t;

/* A pool of at most @max objects of @obj_size bytes (an xg_pool_obj_t
 * first) whose handles carry @tag (< 32) in their top bits. */
xg_status_t xg_pool_init(xg_pool_t *pool, size_t obj_size, uint32_t max,
                         uint32_t tag);
void xg_pool_fini(xg_pool_t *pool);
/* A zeroed object with a fresh handle, or NULL at the limit. */
void *xg_pool_alloc(xg_pool_t *pool);
void xg_pool_free(xg_pool_t *pool, void *obj);
/* The live object named by @handle, or NULL (no lock needed). */
void *xg_pool_lookup(xg_pool_t *pool, uint32_t handle);
/* Calls @fn on every allocated object, retired handles included
 * (teardown). */
void xg_pool_each(xg_pool_t *pool, void (*fn)(void *obj, void *arg), void *arg);

static inline uint32_t xg_pool_obj_handle(const void *obj)
{
    return atomic_load_explicit(&((const xg_pool_obj_t *)obj)->handle,
                                memory_order_relaxed);
}

#endif
