/*
 * Object pools of an NI: handles are (type, NI, generation, slot).  Slots
 * live in chunks allocated on demand and never moved or freed before the
 * NI is, so a lookup racing with a free reads a stale slot, never freed
 * memory; the generation makes a freed handle invalid.  Allocation and
 * free are serialized by the NI lock; lookups take no lock.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xg_wait.h"
#include "nic/xg_nic_int.h"

void xg_nic_spin_lock_slow(xg_nic_spin_t *lock)
{
    xg_wait_t wait;

    xg_wait_init(&wait);
    while (atomic_flag_test_and_set_explicit(&lock->flag,
                                             memory_order_acquire)) {
        xg_wait_backoff(&wait);
    }
}

xg_status_t xg_nic_pool_init(xg_nic_pool_t *pool, size_t obj_size,
                             uint32_t max, unsigned type, unsigned ni)
{
    memset(pool, 0, sizeof(*pool));
    if (max > XG_NIC_H_INDEX_MASK) {
        max = XG_NIC_H_INDEX_MASK;
    }
    /* whole cache lines: an object never shares a line with another or
     * straddles one more line than its size needs (matching walks them) */
    pool->obj_size = xg_align_up(obj_size, 64);
    pool->max      = max;
    pool->type     = (uint8_t)type;
    pool->ni       = (uint8_t)ni;
    pool->nchunks  = (max + XG_NIC_CHUNK - 1) / XG_NIC_CHUNK;
    pool->chunks   = calloc(pool->nchunks ? pool->nchunks : 1,
                            sizeof(*pool->chunks));
    return (pool->chunks != NULL) ? XG_OK : XG_ERR_NO_MEMORY;
}

void xg_nic_pool_fini(xg_nic_pool_t *pool)
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

static xg_nic_obj_t *pool_slot(const xg_nic_pool_t *pool, uint32_t index)
{
    /* acquire: the chunk's initialization is visible */
    uint8_t *chunk = atomic_load_explicit(&pool->chunks[index / XG_NIC_CHUNK],
                                          memory_order_acquire);

    if (chunk == NULL) {
        return NULL;
    }
    return (xg_nic_obj_t *)(chunk +
                            (size_t)(index % XG_NIC_CHUNK) * pool->obj_size);
}

void *xg_nic_pool_alloc(xg_nic_pool_t *pool)
{
    xg_nic_obj_t *obj;
    uint32_t index, gen;
    uint8_t *chunk;

    if (pool->count >= pool->max) {
        return NULL;
    }
    if (pool->free_head != 0) {
        index = pool->free_head - 1;
        obj   = pool_slot(pool, index);
        pool->free_head = obj->next_free;
    } else {
        index = pool->created;
        if (index % XG_NIC_CHUNK == 0) {
            chunk = aligned_alloc(64, (size_t)XG_NIC_CHUNK * pool->obj_size);
            if (chunk == NULL) {
                return NULL;
            }
            memset(chunk, 0, (size_t)XG_NIC_CHUNK * pool->obj_size);
            /* release: the zeroed chunk before lookups can reach it */
            atomic_store_explicit(&pool->chunks[index / XG_NIC_CHUNK], chunk,
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
                          xg_nic_handle_make(pool->type, pool->ni, gen, index),
                          memory_order_release);
    pool->count++;
    return obj;
}

void xg_nic_pool_free(xg_nic_pool_t *pool, void *ptr)
{
    xg_nic_obj_t *obj = ptr;

    atomic_store_explicit(&obj->handle, 0, memory_order_release);
    obj->live = 0;
    obj->gen = (uint8_t)((obj->gen + 1) & XG_NIC_H_GEN_MASK);
    obj->next_free  = pool->free_head;
    pool->free_head = obj->index + 1;
    pool->count--;
}

void *xg_nic_pool_lookup(xg_nic_pool_t *pool, uint32_t handle)
{
    uint32_t index = handle & XG_NIC_H_INDEX_MASK;
    xg_nic_obj_t *obj;

    if ((pool->chunks == NULL) || (index >= pool->nchunks * XG_NIC_CHUNK) ||
        (xg_nic_handle_type(handle) != pool->type) ||
        (xg_nic_handle_ni(handle) != pool->ni)) {
        return NULL;
    }
    obj = pool_slot(pool, index);
    if ((obj == NULL) ||
        (atomic_load_explicit(&obj->handle, memory_order_acquire) !=
         handle)) {
        return NULL;
    }
    return obj;
}

void xg_nic_pool_each(xg_nic_pool_t *pool, void (*fn)(void *obj, void *arg),
                      void *arg)
{
    xg_nic_obj_t *obj;
    uint32_t i;

    for (i = 0; i < pool->created; i++) {
        obj = pool_slot(pool, i);
        if ((obj != NULL) && obj->live) {
            fn(obj, arg);
        }
    }
}
