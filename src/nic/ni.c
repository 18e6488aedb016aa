/*
 * Network interfaces: opening (limits, pools, logical map), closing and
 * teardown, and bundles (finding an NI by handle, its status registers
 * and held-payload store are handle.c).
 *
 * The four NIs of the interface (matching/non-matching x logical/physical)
 * are slots of the process's NIC.  Opening one creates its pools and
 * portal table; the last PtlNIFini tears everything down but keeps the
 * pools' memory until PtlFini, so a thread still waiting on one of its
 * queues or counters reads stale memory and returns PTL_INTERRUPTED
 * instead of touching freed memory.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xg_buddy.h"
#include "base/xg_log.h"
#include "base/xg_pool.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_ct_int.h"
#include "nic/xg_nic_eq_int.h"
#include "nic/xg_nic_md_int.h"
#include "nic/xg_nic_me_int.h"
#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_obj_int.h"
#include "nic/xg_nic_progress_int.h"
#include "nic/xg_nic_pt_int.h"
#include "nic/xg_nic_region_int.h"
#include "nic/xg_nic_tgt_int.h"
#include "nic/xg_nic_tx_int.h"
#include "nic/xg_nic_uh_int.h"

/* Serializes opening and closing NIs (not the data path). */
static pthread_mutex_t ni_open_lock = PTHREAD_MUTEX_INITIALIZER;

/* Upper bounds of the limits (desired limits are lowered to these). */
enum {
    NI_MAX_ENTRIES    = 1 << 20,
    NI_MAX_HEADERS    = 1 << 20,
    NI_MAX_MDS        = 1 << 16,
    NI_MAX_CTS        = 1 << 16,
    NI_MAX_EQS        = 1 << 12,
    NI_MAX_IOVECS     = 1 << 16,
    NI_MAX_TRIGGERED  = 1 << 20,
    NI_MAX_TARGET_OPS = 1 << 16
};

static int ni_limit(int desired, int cap)
{
    return ((desired > 0) && (desired < cap)) ? desired : cap;
}

static ptl_size_t ni_limit_size(ptl_size_t desired, ptl_size_t cap)
{
    return ((desired > 0) && (desired < cap)) ? desired : cap;
}

static void ni_set_limits(xg_nic_ni_t *ni, const ptl_ni_limits_t *want)
{
    ptl_ni_limits_t none, *l = &ni->limits;
    ptl_size_t atomic_cap =
        ni->nic->max_payload < 4096 ? ni->nic->max_payload : 4096;

    if (want == NULL) {
        memset(&none, 0, sizeof(none));
        want = &none;
    }
    l->max_entries = ni_limit(want->max_entries, NI_MAX_ENTRIES);
    l->max_unexpected_headers =
        ni_limit(want->max_unexpected_headers, NI_MAX_HEADERS);
    l->max_mds = ni_limit(want->max_mds, NI_MAX_MDS);
    l->max_cts = ni_limit(want->max_cts, NI_MAX_CTS);
    l->max_eqs = ni_limit(want->max_eqs, NI_MAX_EQS);
    /* a smaller table is honoured: PtlPTAlloc then refuses the indexes
     * above it */
    l->max_pt_index      = ni_limit(want->max_pt_index, XG_NIC_MAX_PT - 1);
    l->max_iovecs        = ni_limit(want->max_iovecs, NI_MAX_IOVECS);
    l->max_list_size     = ni_limit(want->max_list_size, NI_MAX_ENTRIES);
    l->max_triggered_ops = ni_limit(want->max_triggered_ops, NI_MAX_TRIGGERED);
    l->max_msg_size    = ni_limit_size(want->max_msg_size, (ptl_size_t)1 << 40);
    l->max_atomic_size = ni_limit_size(want->max_atomic_size, atomic_cap);
    l->max_fetch_atomic_size =
        ni_limit_size(want->max_fetch_atomic_size, atomic_cap);
    /* a sender's eager messages are processed in order, whole */
    l->max_waw_ordered_size = ni->nic->eager_limit;
    l->max_war_ordered_size = ni->nic->eager_limit;
    if (l->max_waw_ordered_size < 64) {
        l->max_waw_ordered_size = 64;
        l->max_war_ordered_size = 64;
    }
    l->max_volatile_size =
        ni_limit_size(want->max_volatile_size, ni->nic->max_payload);
    l->features = 0;
}

static xg_status_t ni_pool_init(xg_nic_ni_t *ni, xg_pool_t *pool,
                                size_t obj_size, uint32_t max, unsigned type)
{
    return xg_pool_init(pool, obj_size, max, xg_nic_pool_tag(type, ni->index));
}

static xg_status_t ni_pools_init(xg_nic_ni_t *ni)
{
    unsigned me_type   = ni->matching ? XG_NIC_OBJ_ME : XG_NIC_OBJ_LE;
    xg_status_t status = XG_OK;

    /* pools persist across NI incarnations (see the file comment); the
     * entry pool's handle type follows the NI's kind */
    if (ni->eq_pool.chunks == NULL) {
        status = ni_pool_init(ni, &ni->eq_pool, sizeof(xg_nic_eq_t), NI_MAX_EQS,
                              XG_NIC_OBJ_EQ);
        if (status == XG_OK) {
            status = ni_pool_init(ni, &ni->ct_pool, sizeof(xg_nic_ct_t),
                                  NI_MAX_CTS, XG_NIC_OBJ_CT);
        }
        if (status == XG_OK) {
            status = ni_pool_init(ni, &ni->md_pool, sizeof(xg_nic_md_t),
                                  NI_MAX_MDS, XG_NIC_OBJ_MD);
        }
        if (status == XG_OK) {
            status = ni_pool_init(ni, &ni->me_pool, sizeof(xg_nic_me_t),
                                  NI_MAX_ENTRIES, me_type);
        }
        if (status == XG_OK) {
            status = ni_pool_init(ni, &ni->tgt_pool, sizeof(xg_nic_tgt_t),
                                  NI_MAX_TARGET_OPS, XG_NIC_OBJ_INTERNAL);
        }
        if (status == XG_OK) {
            status = ni_pool_init(ni, &ni->uh_pool, sizeof(xg_nic_uh_t),
                                  NI_MAX_HEADERS, XG_NIC_OBJ_INTERNAL);
        }
        if (status == XG_OK) {
            status = ni_pool_init(ni, &ni->trig_pool, sizeof(xg_nic_trig_t),
                                  NI_MAX_TRIGGERED, XG_NIC_OBJ_INTERNAL);
        }
        if (status != XG_OK) {
            return status;
        }
    }
    ni->eq_pool.max   = (uint32_t)ni->limits.max_eqs;
    ni->ct_pool.max   = (uint32_t)ni->limits.max_cts;
    ni->md_pool.max   = (uint32_t)ni->limits.max_mds;
    ni->me_pool.max   = (uint32_t)ni->limits.max_entries;
    ni->uh_pool.max   = (uint32_t)ni->limits.max_unexpected_headers;
    ni->trig_pool.max = (uint32_t)ni->limits.max_triggered_ops;
    return XG_OK;
}

static xg_status_t ni_map_init(xg_nic_ni_t *ni)
{
    xg_nic_t *nic = ni->nic;
    int r;

    ni->map      = calloc((size_t)nic->npes, sizeof(*ni->map));
    ni->pid_rank = calloc((size_t)nic->npes, sizeof(*ni->pid_rank));
    if ((ni->map == NULL) || (ni->pid_rank == NULL)) {
        free(ni->map);
        free(ni->pid_rank);
        return XG_ERR_NO_MEMORY;
    }
    for (r = 0; r < nic->npes; r++) {
        ni->map[r]      = xg_nic_phys_id(r);
        ni->pid_rank[r] = (uint32_t)r;
    }
    ni->map_size = (uint32_t)nic->npes;
    ni->my_rank  = (ptl_rank_t)nic->rank;
    return XG_OK;
}

int xg_nic_ni_init(const char *fn, ptl_interface_t iface, unsigned options,
                   ptl_pid_t pid, const ptl_ni_limits_t *desired,
                   ptl_ni_limits_t *actual, ptl_handle_ni_t *ni_handle)
{
    xg_nic_t *nic = atomic_load_explicit(&xg_nic_global, memory_order_acquire);
    unsigned index;
    xg_nic_ni_t *ni;
    int ret = PTL_OK;

    if ((iface != 0) && (iface != PTL_IFACE_DEFAULT)) {
        xg_warn("ptl",
                "%s: interface %u does not exist: this node has one "
                "(use 0 or PTL_IFACE_DEFAULT)",
                fn, iface);
        return PTL_ARG_INVALID;
    }
    if ((pid != PTL_PID_ANY) && (pid != xg_nic_phys_id(nic->rank).phys.pid)) {
        xg_warn("ptl",
                "%s: pid %u is not available: a process's pid is its "
                "rank among the PEs of its node (%u) -- pass PTL_PID_ANY",
                fn, pid, xg_nic_phys_id(nic->rank).phys.pid);
        return PTL_PID_IN_USE;
    }
    index = ((options & PTL_NI_NO_MATCHING) ? 1u : 0u) |
            ((options & PTL_NI_PHYSICAL) ? 2u : 0u);
    ni = &nic->ni[index];
    pthread_mutex_lock(&ni_open_lock);
    if (xg_nic_ni_is_open(ni)) {
        atomic_fetch_add_explicit(&ni->open, 1, memory_order_acq_rel);
        goto out;
    }
    pthread_mutex_lock(&ni->lock);
    ni->index    = index;
    ni->options  = options;
    ni->matching = (options & PTL_NI_MATCHING) != 0;
    ni->logical  = (options & PTL_NI_LOGICAL) != 0;
    ni->nic      = nic;
    ni_set_limits(ni, desired);
    if ((ni_pools_init(ni) != XG_OK) || (ni_map_init(ni) != XG_OK)) {
        pthread_mutex_unlock(&ni->lock);
        ret = PTL_NO_SPACE;
        goto out_unlock;
    }
    memset(ni->pt, 0, sizeof(ni->pt));
    ni->seq        = 0;
    ni->entries    = 0;
    ni->bundle     = 0;
    ni->held_ready = 0;
    ni->held_bytes = 0;
    atomic_store_explicit(&ni->sr[PTL_SR_DROP_COUNT], 0, memory_order_relaxed);
    atomic_store_explicit(&ni->sr[PTL_SR_PERMISSION_VIOLATIONS], 0,
                          memory_order_relaxed);
    atomic_store_explicit(&ni->sr[PTL_SR_OPERATION_VIOLATIONS], 0,
                          memory_order_relaxed);
    ni->incarnation++;
    atomic_store_explicit(&ni->open, 1, memory_order_release);
    pthread_mutex_unlock(&ni->lock);
    if (xg_nic_start_progress(nic) != XG_OK) {
        xg_nic_ni_teardown(ni);
        ret = PTL_FAIL;
        goto out_unlock;
    }
out:
    if (actual != NULL) {
        *actual = ni->limits;
    }
    *ni_handle = xg_nic_handle_make(XG_NIC_OBJ_NI, index, 0, 0);
out_unlock:
    pthread_mutex_unlock(&ni_open_lock);
    return ret;
}

static void teardown_tgt(void *obj, void *arg)
{
    xg_nic_tgt_t *t = obj;
    xg_nic_ni_t *ni = arg;

    if (t->pull_ct.heap != NULL) {
        xg_nic_ct_destroy(ni, &t->pull_ct);
    }
    if (t->hook.set != NULL) {
        xg_nic_hook_free(ni, t);
    }
    xg_pool_free(&ni->tgt_pool, t);
}

static void teardown_uh(void *obj, void *arg)
{
    /* drops its entry's reference: unlinked entries may go with it */
    xg_nic_uh_destroy(arg, obj, 0);
}

static void teardown_me(void *obj, void *arg)
{
    xg_nic_me_destroy(arg, obj);
}

static void teardown_md(void *obj, void *arg)
{
    xg_nic_md_t *md = obj;

    xg_nic_region_fini(&md->region);
    xg_pool_free(&((xg_nic_ni_t *)arg)->md_pool, md);
}

static void teardown_ct(void *obj, void *arg)
{
    xg_nic_ct_destroy(arg, obj);
}

static void teardown_eq(void *obj, void *arg)
{
    xg_nic_eq_destroy(arg, obj);
}

static void teardown_trig(void *obj, void *arg)
{
    xg_pool_free(&((xg_nic_ni_t *)arg)->trig_pool, obj);
}

void xg_nic_ni_teardown(xg_nic_ni_t *ni)
{
    unsigned i;

    pthread_mutex_lock(&ni->lock);
    atomic_store_explicit(&ni->open, 0, memory_order_release);
    xg_nic_tx_cancel_ni(ni->nic, ni->index);
    xg_pool_each(&ni->tgt_pool, teardown_tgt, ni);
    xg_pool_each(&ni->uh_pool, teardown_uh, ni);
    /* then every entry left, linked or waiting for in-flight uses */
    xg_pool_each(&ni->me_pool, teardown_me, ni);
    for (i = 0; i < XG_NIC_MAX_PT; i++) {
        if (ni->pt[i] != NULL) {
            xg_nic_list_fini(&ni->pt[i]->lists[0]);
            xg_nic_list_fini(&ni->pt[i]->lists[1]);
            xg_htab_fini(&ni->pt[i]->uh_exact);
            xg_htab_fini(&ni->pt[i]->uh_mb);
            free(ni->pt[i]);
            ni->pt[i] = NULL;
        }
    }
    xg_pool_each(&ni->md_pool, teardown_md, ni);
    xg_pool_each(&ni->ct_pool, teardown_ct, ni);
    xg_pool_each(&ni->trig_pool, teardown_trig, ni);
    xg_pool_each(&ni->eq_pool, teardown_eq, ni);
    free(ni->ct_work);
    ni->ct_work   = NULL;
    ni->ct_work_n = ni->ct_work_cap = 0;
    free(ni->map);
    free(ni->pid_rank);
    ni->map      = NULL;
    ni->pid_rank = NULL;
    if (ni->held_ready) {
        xg_buddy_fini(&ni->held);
        ni->held_ready = 0;
    }
    xg_nic_hooks_fini(ni);
    pthread_mutex_unlock(&ni->lock);
}

int xg_nic_ni_fini(const char *fn, ptl_handle_ni_t ni_handle)
{
    xg_nic_ni_t *ni;
    int last = 0;

    pthread_mutex_lock(&ni_open_lock);
    ni = xg_nic_ni_lookup(ni_handle);
    if (ni == NULL) {
        pthread_mutex_unlock(&ni_open_lock);
        xg_warn("ptl", "%s: %#x is not an open NI handle", fn, ni_handle);
        return PTL_ARG_INVALID;
    }
    if (atomic_load_explicit(&ni->open, memory_order_acquire) == 1) {
        last = 1;
    } else {
        atomic_fetch_sub_explicit(&ni->open, 1, memory_order_acq_rel);
    }
    if (last) {
        xg_nic_ni_teardown(ni);
    }
    pthread_mutex_unlock(&ni_open_lock);
    return PTL_OK;
}

int xg_nic_bundle(const char *fn, ptl_handle_ni_t ni_handle, int start)
{
    xg_nic_ni_t *ni = xg_nic_ni_lookup(ni_handle);
    int flush       = 0;

    if (ni == NULL) {
        xg_warn("ptl", "%s: %#x is not an open NI handle", fn, ni_handle);
        return PTL_ARG_INVALID;
    }
    pthread_mutex_lock(&ni->lock);
    if (start) {
        ni->bundle++;
    } else if (ni->bundle == 0) {
        pthread_mutex_unlock(&ni->lock);
        xg_warn("ptl", "%s: no PtlStartBundle to end", fn);
        return PTL_ARG_INVALID;
    } else {
        ni->bundle--;
        flush = 1;
    }
    pthread_mutex_unlock(&ni->lock);
    if (flush) {
        /* every operation held back so far goes out now */
        xg_nic_tx_flush_wakes(ni->nic);
    }
    return PTL_OK;
}
