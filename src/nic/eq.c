/*
 * Event queues: a ring of ptl_event_t.  Producers post under the NI lock
 * (so one at a time per NI) and take the EQ's spin lock only to exclude the
 * consumer.  A queue has room for the `count` events asked for; when it is
 * full a new event overwrites the oldest and the next PtlEQGet reports
 * PTL_EQ_DROPPED -- except for flow-controlled portal indexes, which check
 * xg_nic_eq_room() first and disable themselves instead (each of them has a
 * reserved extra slot for its PTL_EVENT_PT_DISABLED).
 *
 * Waiting (PtlEQWait/PtlEQPoll, blocking.c) polls with xg_wait backoff and re-checks
 * the handles each round: a queue freed meanwhile ends the wait with
 * PTL_INTERRUPTED.  Slots of freed queues are never unmapped before PtlFini,
 * so a waiter never touches freed memory.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xg_log.h"
#include "base/xg_pool.h"
#include "base/xg_spinlock.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_eq_int.h"
#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_obj_int.h"

int xg_nic_eq_alloc(const char *fn, ptl_handle_ni_t ni_handle, ptl_size_t count,
                    ptl_handle_eq_t *eq_handle)
{
    xg_nic_ni_t *ni = xg_nic_ni_lookup(ni_handle);
    xg_nic_eq_t *eq;
    ptl_event_t *ring;
    uint64_t capacity;

    if (ni == NULL) {
        xg_warn("ptl", "%s: %#x is not an open NI handle", fn, ni_handle);
        return PTL_ARG_INVALID;
    }
    if (count > (1ull << 26)) {
        xg_warn("ptl", "%s: count %llu is too large (at most 2^26 events)", fn,
                (unsigned long long)count);
        return PTL_ARG_INVALID;
    }
    if (count == 0) {
        count = 1;
    }
    capacity = count + XG_NIC_MAX_PT;
    ring     = calloc(capacity, sizeof(*ring));
    if (ring == NULL) {
        return PTL_NO_SPACE;
    }
    pthread_mutex_lock(&ni->lock);
    eq = xg_pool_alloc(&ni->eq_pool);
    if (eq == NULL) {
        pthread_mutex_unlock(&ni->lock);
        free(ring);
        xg_info("ptl", "%s: max_eqs (%d) event queues are allocated", fn,
                ni->limits.max_eqs);
        return PTL_NO_SPACE;
    }
    xg_spinlock_init(&eq->lock);
    eq->ring     = ring;
    eq->capacity = capacity;
    eq->size     = count;
    *eq_handle   = xg_pool_obj_handle(eq);
    pthread_mutex_unlock(&ni->lock);
    return PTL_OK;
}

void xg_nic_eq_destroy(xg_nic_ni_t *ni, xg_nic_eq_t *eq)
{
    ptl_event_t *ring;

    /* under the EQ lock: a waiter sees either the queue or no handle */
    xg_spinlock_lock(&eq->lock);
    ring     = eq->ring;
    eq->ring = NULL;
    xg_pool_free(&ni->eq_pool, eq);
    xg_spinlock_unlock(&eq->lock);
    free(ring);
}

int xg_nic_eq_free(const char *fn, ptl_handle_eq_t eq_handle)
{
    xg_nic_ni_t *ni = xg_nic_ni_lookup(
        xg_nic_handle_make(XG_NIC_OBJ_NI, xg_nic_handle_ni(eq_handle), 0, 0));
    xg_nic_eq_t *eq;

    if ((ni == NULL) || (xg_nic_handle_type(eq_handle) != XG_NIC_OBJ_EQ)) {
        xg_warn("ptl", "%s: %#x is not an event queue handle", fn, eq_handle);
        return PTL_ARG_INVALID;
    }
    pthread_mutex_lock(&ni->lock);
    eq = xg_pool_lookup(&ni->eq_pool, eq_handle);
    if (eq == NULL) {
        pthread_mutex_unlock(&ni->lock);
        xg_warn("ptl", "%s: event queue %#x does not exist (freed?)", fn,
                eq_handle);
        return PTL_ARG_INVALID;
    }
    /* objects still naming it find the handle dead and log nothing */
    xg_nic_eq_destroy(ni, eq);
    pthread_mutex_unlock(&ni->lock);
    return PTL_OK;
}

uint64_t xg_nic_eq_room(xg_nic_eq_t *eq)
{
    uint64_t used = atomic_load_explicit(&eq->tail, memory_order_relaxed) -
                    atomic_load_explicit(&eq->head, memory_order_relaxed);

    return (used >= eq->size) ? 0 : eq->size - used;
}

static void eq_post(xg_nic_eq_t *eq, const ptl_event_t *ev, int reserved)
{
    uint64_t tail, limit;

    xg_spinlock_lock(&eq->lock);
    if (eq->ring == NULL) {
        xg_spinlock_unlock(&eq->lock);
        return;
    }
    tail  = atomic_load_explicit(&eq->tail, memory_order_relaxed);
    limit = reserved ? eq->capacity : eq->size;
    if (tail - atomic_load_explicit(&eq->head, memory_order_relaxed) >= limit) {
        /* full: the oldest event is lost, the consumer is told */
        atomic_fetch_add_explicit(&eq->head, 1, memory_order_relaxed);
        eq->dropped = 1;
    }
    eq->ring[tail % eq->capacity] = *ev;
    /* release: the event is written before pollers see the new tail */
    atomic_store_explicit(&eq->tail, tail + 1, memory_order_release);
    xg_spinlock_unlock(&eq->lock);
}

void xg_nic_eq_post(xg_nic_eq_t *eq, const ptl_event_t *ev)
{
    eq_post(eq, ev, ev->type == PTL_EVENT_PT_DISABLED);
}

int xg_nic_eq_take(xg_nic_ni_t *ni, ptl_handle_eq_t handle, ptl_event_t *ev)
{
    xg_nic_eq_t *eq = xg_pool_lookup(&ni->eq_pool, handle);
    uint64_t head;
    int ret;

    if (eq == NULL) {
        return PTL_INTERRUPTED;
    }
    /* acquire: pairs with eq_post's release of tail */
    if (atomic_load_explicit(&eq->tail, memory_order_acquire) ==
        atomic_load_explicit(&eq->head, memory_order_relaxed)) {
        return PTL_EQ_EMPTY;
    }
    xg_spinlock_lock(&eq->lock);
    if (xg_pool_obj_handle(eq) != handle) {
        ret = PTL_INTERRUPTED;
        goto out_unlock;
    }
    head = atomic_load_explicit(&eq->head, memory_order_relaxed);
    if (atomic_load_explicit(&eq->tail, memory_order_relaxed) == head) {
        ret = PTL_EQ_EMPTY;
        goto out_unlock;
    }
    *ev = eq->ring[head % eq->capacity];
    atomic_store_explicit(&eq->head, head + 1, memory_order_relaxed);
    ret         = eq->dropped ? PTL_EQ_DROPPED : PTL_OK;
    eq->dropped = 0;
out_unlock:
    xg_spinlock_unlock(&eq->lock);
    return ret;
}
