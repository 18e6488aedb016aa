/*
 * Counting events and triggered operations.
 *
 * A counter is two atomic words read without locks (PtlCTGet, PtlCTWait);
 * every change happens under the NI lock so that it and the triggered
 * operations waiting on the counter are checked together.  Each counter
 * keeps its pending triggers in a binary min-heap ordered by (threshold,
 * issue sequence): when success + failure reaches the smallest threshold,
 * triggers are popped and fired in threshold order, and in issue order for
 * equal thresholds, as the specification asks.  A trigger registered on a
 * counter that already reached its threshold fires at once.
 *
 * Chains: firing may change counters (PtlTriggeredCTInc/CTSet, or the SEND
 * event of a loopback put counted at once).  Changed counters go on the
 * NI's work list, which one loop drains, so chains of any length run
 * without recursion.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xg_log.h"
#include "base/xg_pool.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_ct_int.h"
#include "nic/xg_nic_initiator_int.h"
#include "nic/xg_nic_md_int.h"
#include "nic/xg_nic_me_int.h"
#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_obj_int.h"
#include "nic/xg_nic_tgt_int.h"

void xg_nic_ct_init_internal(xg_nic_ct_t *ct)
{
    memset(ct, 0, sizeof(*ct));
    ct->internal = 1;
}

static uint64_t ct_total(const xg_nic_ct_t *ct)
{
    return atomic_load_explicit(&ct->success, memory_order_acquire) +
           atomic_load_explicit(&ct->failure, memory_order_acquire);
}

/* ---------------------------------------------------------------- heap */

static int trig_before(const xg_nic_trig_t *a, const xg_nic_trig_t *b)
{
    return (a->threshold < b->threshold) ||
           ((a->threshold == b->threshold) && (a->seq < b->seq));
}

static int heap_push(xg_nic_ct_t *ct, xg_nic_trig_t *trig)
{
    xg_nic_trig_t **heap, *tmp;
    uint32_t i, parent, cap;

    if (ct->nheap == ct->heap_cap) {
        cap  = (ct->heap_cap == 0) ? 8 : ct->heap_cap * 2;
        heap = realloc(ct->heap, cap * sizeof(*heap));
        if (heap == NULL) {
            return -1;
        }
        ct->heap     = heap;
        ct->heap_cap = cap;
    }
    i           = ct->nheap++;
    ct->heap[i] = trig;
    while (i > 0) {
        parent = (i - 1) / 2;
        if (!trig_before(ct->heap[i], ct->heap[parent])) {
            break;
        }
        tmp              = ct->heap[i];
        ct->heap[i]      = ct->heap[parent];
        ct->heap[parent] = tmp;
        i                = parent;
    }
    return 0;
}

static xg_nic_trig_t *heap_pop(xg_nic_ct_t *ct)
{
    xg_nic_trig_t *top = ct->heap[0], *tmp;
    uint32_t i         = 0, l, r, m;

    ct->heap[0] = ct->heap[--ct->nheap];
    for (;;) {
        l = 2 * i + 1;
        r = l + 1;
        m = i;
        if ((l < ct->nheap) && trig_before(ct->heap[l], ct->heap[m])) {
            m = l;
        }
        if ((r < ct->nheap) && trig_before(ct->heap[r], ct->heap[m])) {
            m = r;
        }
        if (m == i) {
            break;
        }
        tmp         = ct->heap[i];
        ct->heap[i] = ct->heap[m];
        ct->heap[m] = tmp;
        i           = m;
    }
    return top;
}

/* ------------------------------------------------------------ triggers */

/* The MDs a triggered operation keeps from being released. */
static void trig_md_refs(xg_nic_ni_t *ni, const xg_nic_op_t *op, int add)
{
    ptl_handle_md_t mds[2] = {PTL_INVALID_HANDLE, PTL_INVALID_HANDLE};
    xg_nic_md_t *md;
    int i;

    if ((op->kind == XG_NIC_OP_CT_INC) || (op->kind == XG_NIC_OP_CT_SET)) {
        return;
    }
    mds[0] = op->md;
    if ((op->kind == XG_NIC_OP_FETCH) || (op->kind == XG_NIC_OP_SWAP)) {
        mds[1] = op->put_md;
    }
    for (i = 0; i < 2; i++) {
        md = xg_pool_lookup(&ni->md_pool, mds[i]);
        if (md == NULL) {
            continue;
        }
        if (add) {
            md->triggers++;
        } else if (md->triggers > 0) {
            md->triggers--;
        }
    }
}

static void trig_release(xg_nic_ni_t *ni, xg_nic_trig_t *trig)
{
    if (trig->kind == XG_TRIG_OP) {
        trig_md_refs(ni, &trig->op, 0);
    } else {
        xg_nic_me_trig_drop(ni, trig);
    }
    xg_pool_free(&ni->trig_pool, trig);
}

static void ct_queue(xg_nic_ni_t *ni, xg_nic_ct_t *ct)
{
    xg_nic_ct_t **work;
    uint32_t cap;

    if (ct->queued || (ct->nheap == 0)) {
        return;
    }
    if (ni->ct_work_n == ni->ct_work_cap) {
        cap  = (ni->ct_work_cap == 0) ? 16 : ni->ct_work_cap * 2;
        work = realloc(ni->ct_work, cap * sizeof(*work));
        if (work == NULL) {
            xg_error("nic", "no memory for the triggered-operation work "
                            "list: a trigger may fire late");
            return;
        }
        ni->ct_work     = work;
        ni->ct_work_cap = cap;
    }
    ni->ct_work[ni->ct_work_n++] = ct;
    ct->queued                   = 1;
}

static void trig_fire(xg_nic_ni_t *ni, xg_nic_trig_t *trig)
{
    xg_nic_op_t *op = &trig->op;
    xg_nic_ct_t *ct;

    if (trig->kind == XG_TRIG_PULL) {
        xg_nic_tgt_pull(ni, trig->tgt);
        xg_pool_free(&ni->trig_pool, trig);
        return;
    }
    if ((trig->kind == XG_TRIG_ME_APPEND) ||
        (trig->kind == XG_TRIG_ME_UNLINK)) {
        xg_nic_me_trig_fire(ni, trig);
        xg_pool_free(&ni->trig_pool, trig);
        return;
    }
    switch (op->kind) {
    case XG_NIC_OP_CT_INC:
    case XG_NIC_OP_CT_SET:
        ct = xg_nic_ct_of(ni, op->ct);
        if (ct != NULL) {
            if (op->kind == XG_NIC_OP_CT_INC) {
                xg_nic_ct_add(ni, ct, op->ct_value.success,
                              op->ct_value.failure);
            } else {
                xg_nic_ct_store(ni, ct, op->ct_value.success,
                                op->ct_value.failure);
            }
        }
        break;
    default: xg_nic_issue_locked(ni, op, "triggered operation"); break;
    }
    trig_release(ni, trig);
}

/* Fires what the queued counters have reached; drains the work list. */
static void ct_run(xg_nic_ni_t *ni)
{
    xg_nic_ct_t *ct;
    xg_nic_trig_t *trig;

    if (ni->ct_running) {
        return; /* the outer loop sees what we queued */
    }
    ni->ct_running = 1;
    while (ni->ct_work_n > 0) {
        ct         = ni->ct_work[--ni->ct_work_n];
        ct->queued = 0;
        /* the total is re-read after each firing: a chain may move it */
        while ((ct->nheap > 0) && (ct->heap[0]->threshold <= ct_total(ct))) {
            trig = heap_pop(ct);
            trig_fire(ni, trig);
        }
    }
    ni->ct_running = 0;
}

xg_nic_trig_t *xg_nic_trig_new(xg_nic_ni_t *ni, const char *fn)
{
    xg_nic_trig_t *trig = xg_pool_alloc(&ni->trig_pool);

    if (trig == NULL) {
        xg_info("ptl", "%s: max_triggered_ops (%d) operations are pending", fn,
                ni->limits.max_triggered_ops);
    }
    return trig;
}

int xg_nic_trig_add(xg_nic_ni_t *ni, xg_nic_ct_t *ct, xg_nic_trig_t *trig)
{
    trig->seq = ni->seq++;
    trig->ct  = ct;
    if (trig->kind == XG_TRIG_OP) {
        trig_md_refs(ni, &trig->op, 1);
    }
    if (heap_push(ct, trig) != 0) {
        trig_release(ni, trig);
        return PTL_NO_SPACE;
    }
    /* the threshold may already be reached: check like a change */
    ct_queue(ni, ct);
    ct_run(ni);
    return PTL_OK;
}

void xg_nic_ct_add(xg_nic_ni_t *ni, xg_nic_ct_t *ct, uint64_t success,
                   uint64_t failure)
{
    /* release: data delivered before the count is visible to a waiter
     * that acquires the count */
    if (success != 0) {
        atomic_fetch_add_explicit(&ct->success, success, memory_order_release);
    }
    if (failure != 0) {
        atomic_fetch_add_explicit(&ct->failure, failure, memory_order_release);
    }
    if (ct->nheap > 0) {
        ct_queue(ni, ct);
        ct_run(ni);
    }
}

void xg_nic_ct_store(xg_nic_ni_t *ni, xg_nic_ct_t *ct, uint64_t success,
                     uint64_t failure)
{
    atomic_store_explicit(&ct->success, success, memory_order_release);
    atomic_store_explicit(&ct->failure, failure, memory_order_release);
    if (ct->nheap > 0) {
        ct_queue(ni, ct);
        ct_run(ni);
    }
}

void xg_nic_ct_cancel_all(xg_nic_ni_t *ni, xg_nic_ct_t *ct)
{
    while (ct->nheap > 0) {
        trig_release(ni, heap_pop(ct));
    }
}

void xg_nic_ct_destroy(xg_nic_ni_t *ni, xg_nic_ct_t *ct)
{
    uint32_t i;

    xg_nic_ct_cancel_all(ni, ct);
    free(ct->heap);
    ct->heap     = NULL;
    ct->heap_cap = 0;
    for (i = 0; i < ni->ct_work_n; i++) {
        if (ni->ct_work[i] == ct) {
            ni->ct_work[i] = ni->ct_work[--ni->ct_work_n];
            break;
        }
    }
    if (!ct->internal) {
        xg_pool_free(&ni->ct_pool, ct);
    }
}

/* -------------------------------------------------------- API routines */

xg_nic_ni_t *xg_nic_ct_ni(ptl_handle_ct_t handle)
{
    return xg_nic_ni_lookup(
        xg_nic_handle_make(XG_NIC_OBJ_NI, xg_nic_handle_ni(handle), 0, 0));
}

xg_nic_ct_t *xg_nic_ct_lookup(const char *fn, xg_nic_ni_t *ni,
                              ptl_handle_ct_t handle)
{
    xg_nic_ct_t *ct = NULL;

    if ((ni != NULL) && (xg_nic_handle_type(handle) == XG_NIC_OBJ_CT)) {
        ct = xg_pool_lookup(&ni->ct_pool, handle);
    }
    if (ct == NULL) {
        xg_warn("ptl",
                "%s: %#x is not a counting event handle (freed, or "
                "from a closed NI?)",
                fn, handle);
    }
    return ct;
}

int xg_nic_ct_alloc(const char *fn, ptl_handle_ni_t ni_handle,
                    ptl_handle_ct_t *ct_handle)
{
    xg_nic_ni_t *ni = xg_nic_ni_lookup(ni_handle);
    xg_nic_ct_t *ct;

    if (ni == NULL) {
        xg_warn("ptl", "%s: %#x is not an open NI handle", fn, ni_handle);
        return PTL_ARG_INVALID;
    }
    pthread_mutex_lock(&ni->lock);
    ct = xg_pool_alloc(&ni->ct_pool);
    if (ct == NULL) {
        pthread_mutex_unlock(&ni->lock);
        xg_info("ptl", "%s: max_cts (%d) counters are allocated", fn,
                ni->limits.max_cts);
        return PTL_NO_SPACE;
    }
    *ct_handle = xg_pool_obj_handle(ct);
    pthread_mutex_unlock(&ni->lock);
    return PTL_OK;
}

int xg_nic_ct_free(const char *fn, ptl_handle_ct_t ct_handle)
{
    xg_nic_ni_t *ni = xg_nic_ct_ni(ct_handle);
    xg_nic_ct_t *ct;

    if (ni == NULL) {
        return (xg_nic_ct_lookup(fn, NULL, ct_handle), PTL_ARG_INVALID);
    }
    pthread_mutex_lock(&ni->lock);
    ct = xg_nic_ct_lookup(fn, ni, ct_handle);
    if (ct != NULL) {
        xg_nic_ct_destroy(ni, ct);
    }
    pthread_mutex_unlock(&ni->lock);
    return (ct != NULL) ? PTL_OK : PTL_ARG_INVALID;
}

int xg_nic_ct_cancel(const char *fn, ptl_handle_ct_t ct_handle)
{
    xg_nic_ni_t *ni = xg_nic_ct_ni(ct_handle);
    xg_nic_ct_t *ct;

    if (ni == NULL) {
        return (xg_nic_ct_lookup(fn, NULL, ct_handle), PTL_ARG_INVALID);
    }
    pthread_mutex_lock(&ni->lock);
    ct = xg_nic_ct_lookup(fn, ni, ct_handle);
    if (ct != NULL) {
        xg_nic_ct_cancel_all(ni, ct);
    }
    pthread_mutex_unlock(&ni->lock);
    return (ct != NULL) ? PTL_OK : PTL_ARG_INVALID;
}

int xg_nic_ct_get(const char *fn, ptl_handle_ct_t ct_handle,
                  ptl_ct_event_t *event)
{
    xg_nic_ct_t *ct = xg_nic_ct_lookup(fn, xg_nic_ct_ni(ct_handle), ct_handle);

    if (ct == NULL) {
        return PTL_ARG_INVALID;
    }
    event->success = atomic_load_explicit(&ct->success, memory_order_acquire);
    event->failure = atomic_load_explicit(&ct->failure, memory_order_acquire);
    return PTL_OK;
}

int xg_nic_ct_update(const char *fn, ptl_handle_ct_t ct_handle,
                     ptl_ct_event_t value, int set)
{
    xg_nic_ni_t *ni = xg_nic_ct_ni(ct_handle);
    xg_nic_ct_t *ct;

    if (ni == NULL) {
        return (xg_nic_ct_lookup(fn, NULL, ct_handle), PTL_ARG_INVALID);
    }
    pthread_mutex_lock(&ni->lock);
    ct = xg_nic_ct_lookup(fn, ni, ct_handle);
    if (ct != NULL) {
        if (set) {
            xg_nic_ct_store(ni, ct, value.success, value.failure);
        } else {
            xg_nic_ct_add(ni, ct, value.success, value.failure);
        }
    }
    pthread_mutex_unlock(&ni->lock);
    return (ct != NULL) ? PTL_OK : PTL_ARG_INVALID;
}
