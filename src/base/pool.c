/*
 * Object pools with generation-checked handles (see xg_pool.h).
 */
#include "base/xg_pool.h"

#include <stdlib.h>
#include <string.h>

#include "base/xg_compiler.h"

xg_status_t xg_pool_init(xg_pool_t *pool, size_t obj_size, uint32_t max,
                         uint32_t tag)
{
    memset(pool, 0, sizeof(*pool));
    if (max > XG_POOL_INDEX_MASK) {
        max = XG_POOL_INDEX_MASK;
    }
    /* whole cache lines: an object never shares a line with another or
     * straddles one more line than its size needs (matching walks them) */
    pool->obj_size = xg_align_up(obj_size, 64);
    pool->max      = max;
    pool->tag      = tag;
    pool->nchunks  = (max + XG_POOL_CHUNK - 1) / XG_POOL_CHUNK;
    pool->chunks =
        calloc(pool->nchunks ? pool->nchunks : 1, sizeof(*pool->chunks));
    return (pool->chunks != NULL) ? XG_OK : XG_ERR_NO_MEMORY;
}

void xg_pool_fini(xg_pool_t *pool)
{
    uint32_t i;

    if (pool->chunks == NULL) {
        return;
    }
    for (i = 0; i < pool->nchunks; i++) {
        free(atomic_load_explicit(&pool->chunks[i], memory_order_relaxed));
    }
    free(pool->chunks);
    memset(pool, 0, sizeof(*pool));
}

static xg_pool_obj_t *pool_slot(const xg_pool_t *pool, uint32_t index)
{
    /* acquire: the chunk's initialization is visible */
    uint8_t *chunk = atomic_load_explicit(&pool->chunks[index / XG_POOL_CHUNK],
                                          memory_order_acquire);

    if (chunk == NULL) {
        return NULL;
    }
    return (xg_pool_obj_t *)(chunk +
                             (size_t)(index % XG_POOL_CHUNK) * pool->obj_size);
}

void *xg_pool_alloc(xg_pool_t *pool)
{
    xg_pool_obj_t *obj;
    uint32_t index, gen;
    uint8_t *chunk;

    if (pool->count >= pool->max) {
        return NULL;
    }
    if (pool->free_head != 0) {
        index           = pool->free_head - 1;
        obj             = pool_slot(pool, index);
        pool->free_head = obj->next_free;
    } else {
        index = pool->created;
        if (index % XG_POOL_CHUNK == 0) {
            chunk = aligned_alloc(64, (size_t)XG_POOL_CHUNK * pool->obj_size);
            if (chunk == NULL) {
                return NULL;
            }
            memset(chunk, 0, (size_t)XG_POOL_CHUNK * pool->obj_size);
            /* release: the zeroed chunk before lookups can reach it */
            atomic_store_explicit(&pool->chunks[index / XG_POOL_CHUNK], chunk,
                                  memory_order_release);
        }
        pool->created++;
        obj = pool_slot(pool, index);
    }
    gen = obj->gen;
    memset((uint8_t *)obj + sizeof(*obj), 0, pool->obj_size - sizeof(*obj));
    obj->index     = index;
    obj->next_free = 0;
    obj->live      = 1;
    /* generation 0 is skipped so that no handle is all-zero bits */
    if (gen == 0) {
        gen = 1;
    }
    obj->gen = (uint8_t)gen;
    atomic_store_explicit(&obj->handle,
                          (pool->tag << XG_POOL_TAG_SHIFT) |
                              (gen << XG_POOL_GEN_SHIFT) | index,
                          memory_order_release);
    pool->count++;
    return obj;
}

void xg_pool_free(xg_pool_t *pool, void *ptr)
{
    xg_pool_obj_t *obj = ptr;

    atomic_store_explicit(&obj->handle, 0, memory_order_release);
    obj->live       = 0;
    obj->gen        = (uint8_t)((obj->gen + 1) & XG_POOL_GEN_MASK);
    obj->next_free  = pool->free_head;
    pool->free_head = obj->index + 1;
    pool->count--;
}

void *xg_pool_lookup(xg_pool_t *pool, uint32_t handle)
{
    uint32_t index = handle & XG_POOL_INDEX_MASK;
    xg_pool_obj_t *obj;

    if ((pool->chunks == NULL) || (index >= pool->nchunks * XG_POOL_CHUNK) ||
        ((handle >> XG_POOL_TAG_SHIFT) != pool->tag)) {
        return NULL;
    }
    obj = pool_slot(pool, index);
    if ((obj == NULL) ||
        (atomic_load_explicit(&obj->handle, memory_order_acquire) != handle)) {
        return NULL;
    }
    return obj;
}

void xg_pool_each(xg_pool_t *pool, void (*fn)(void *obj, void *arg), void *arg)
{
    xg_pool_obj_t *obj;
    uint32_t i;

    for (i = 0; i < pool->created; i++) {
        obj = pool_slot(pool, i);
        if ((obj != NULL) && obj->live) {
            fn(obj, arg);
        }
    }
}
