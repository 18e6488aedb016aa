/*
 * Regions on the NIC route (region_int.h): registration under a key, the
 * operations (RDMA with a key, active messages without; other PEs' keys
 * come from the cache of keys.c), per-region completion and location
 * consistency.
 *
 * Each region binds two memory descriptors over the whole address space
 * (one whose data the NIC copies when the operation is issued, for one
 * packet; one it reads in place) sharing one counter: the region's
 * operations in flight are those issued minus those the counter shows
 * complete.  Completion waits, as the route's own (route_nic.c), until at
 * one moment every operation issued on the counter is complete.
 */
#include "gas/region/region_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "base/xg_wait.h"
#include "gas/xg_gas_nic.h"
#include "nic/xg_nic.h"

#define RNIC_FN "gas regions"

/* Operations issued on a region between completions: the NIC holds a
 * bounded number in flight. */
#define RNIC_BATCH 256

/* Bytes a source-driven accumulate moves per get-add-put step. */
#define RNIC_STAGE 8192

/* ---- registration --------------------------------------------------------------- */

static int rnic_bind(xg_gas_region_t *region, unsigned extra,
                     ptl_handle_md_t *md_p)
{
    ptl_md_t md;

    memset(&md, 0, sizeof(md));
    md.start   = NULL;
    md.length  = PTL_SIZE_MAX;
    md.options = PTL_MD_EVENT_SUCCESS_DISABLE | PTL_MD_EVENT_CT_ACK |
                 PTL_MD_EVENT_CT_REPLY | extra;
    md.eq_handle = PTL_EQ_NONE;
    md.ct_handle = region->ct;
    return xg_nic_md_bind(RNIC_FN, xg_gas_nic_ni(), &md, md_p);
}

/* This PE's key of @region: a portal index below gas's own, with one list
 * entry over the region; -1 when every index is taken (then other PEs
 * reach it through active messages only). */
static void rnic_register(xg_gas_region_t *region)
{
    const ptl_ni_limits_t *limits = xg_gas_nic_limits();
    ptl_handle_ni_t ni            = xg_gas_nic_ni();
    xg_nic_entry_desc_t le;
    ptl_pt_index_t pt, got;
    int idx;

    region->key = -1;
    for (idx = limits->max_pt_index - 3; idx >= 0; idx--) {
        pt = (ptl_pt_index_t)idx;
        if (xg_nic_pt_alloc(RNIC_FN, ni, 0, PTL_EQ_NONE, pt, &got) == PTL_OK) {
            break;
        }
    }
    if (idx < 0) {
        xg_info("gas",
                "no free portal index for a region key: other PEs "
                "reach the region of %zu bytes through active messages",
                region->size);
        return;
    }
    memset(&le, 0, sizeof(le));
    le.is_le     = 1;
    le.start     = (void *)region->base;
    le.length    = region->size;
    le.ct_handle = PTL_CT_NONE;
    le.uid       = PTL_UID_ANY;
    le.options   = PTL_LE_OP_PUT | PTL_LE_OP_GET | PTL_LE_EVENT_LINK_DISABLE |
                 PTL_LE_EVENT_COMM_DISABLE;
    if (xg_nic_entry_append(RNIC_FN, ni, got, &le, PTL_PRIORITY_LIST, NULL,
                            &region->le, PTL_CT_NONE, 0) != PTL_OK) {
        xg_nic_pt_free(RNIC_FN, ni, got);
        return;
    }
    region->key = (int)got;
}

xg_status_t xg_gas_region_nic_open(xg_gas_region_t *region)
{
    int ret;

    region->nic = 0;
    region->key = -1;
    if (!xg_gas_nic_is_open()) {
        return XG_OK;
    }
    if (xg_gas_key_cache_open() != XG_OK) {
        return XG_ERR_NO_MEMORY;
    }
    region->md = region->md_copy = region->ct = PTL_INVALID_HANDLE;
    region->le                                = PTL_INVALID_HANDLE;
    ret = xg_nic_ct_alloc(RNIC_FN, xg_gas_nic_ni(), &region->ct);
    if (ret == PTL_OK) {
        ret = rnic_bind(region, 0, &region->md);
    }
    if (ret == PTL_OK) {
        ret = rnic_bind(region, PTL_MD_VOLATILE, &region->md_copy);
    }
    region->nic = 1;
    if (ret != PTL_OK) {
        xg_error("gas",
                 "cannot register a region of %zu bytes with the NIC "
                 "(Portals code %d)",
                 region->size, ret);
        xg_gas_region_nic_close(region);
        return XG_ERR_NO_RESOURCE;
    }
    rnic_register(region);
    return XG_OK;
}

void xg_gas_region_nic_close(xg_gas_region_t *region)
{
    ptl_handle_ni_t ni = xg_gas_nic_ni();

    if (!region->nic) {
        return;
    }
    if (region->key >= 0) {
        xg_nic_entry_unlink(RNIC_FN, region->le, 1, PTL_CT_NONE, 0);
        xg_nic_pt_free(RNIC_FN, ni, (ptl_pt_index_t)region->key);
    }
    if (region->md != PTL_INVALID_HANDLE) {
        xg_nic_md_release(RNIC_FN, region->md);
    }
    if (region->md_copy != PTL_INVALID_HANDLE) {
        xg_nic_md_release(RNIC_FN, region->md_copy);
    }
    if (region->ct != PTL_INVALID_HANDLE) {
        xg_nic_ct_free(RNIC_FN, region->ct);
    }
    xg_gas_key_drop(region->id);
    region->nic = 0;
    region->key = -1;
}

/* ---- completion --------------------------------------------------------------- */

static xg_status_t rnic_complete_one(xg_gas_region_t *region)
{
    uint64_t want = 0, old;
    xg_status_t status;

    if (!region->nic ||
        (__atomic_load_n(&region->issued, __ATOMIC_SEQ_CST) ==
         __atomic_load_n(&region->done_upto, __ATOMIC_ACQUIRE))) {
        return XG_OK; /* nothing issued since the last completion */
    }
    status =
        xg_gas_nic_wait_ct(region->ct, &region->issued, &region->failed_seen,
                           "operations on a region through the NIC", &want);
    /* done_upto only grows */
    old = __atomic_load_n(&region->done_upto, __ATOMIC_RELAXED);
    while ((old < want) &&
           !__atomic_compare_exchange_n(&region->done_upto, &old, want, 0,
                                        __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
    }
    return status;
}

static void rnic_complete_each(xg_gas_region_t *region, void *arg)
{
    xg_status_t *status = arg;
    xg_status_t one     = rnic_complete_one(region);

    if (one != XG_OK) {
        *status = one;
    }
}

xg_status_t xg_gas_region_nic_complete(xg_gas_region_t *region)
{
    xg_status_t status = XG_OK;

    if (region != NULL) {
        return rnic_complete_one(region);
    }
    xg_gas_region_each(rnic_complete_each, &status);
    return status;
}

static int rnic_idle_one(xg_gas_region_t *region)
{
    ptl_ct_event_t ev;
    uint64_t issued;

    if (!region->nic) {
        return 1;
    }
    issued = __atomic_load_n(&region->issued, __ATOMIC_SEQ_CST);
    if (issued == __atomic_load_n(&region->done_upto, __ATOMIC_ACQUIRE)) {
        return 1;
    }
    return (xg_nic_ct_get(RNIC_FN, region->ct, &ev) == PTL_OK) &&
           (ev.success + ev.failure == issued) &&
           (rnic_complete_one(region) == XG_OK);
}

static void rnic_idle_each(xg_gas_region_t *region, void *arg)
{
    int *idle = arg;

    *idle &= rnic_idle_one(region);
}

int xg_gas_region_nic_idle(xg_gas_region_t *region)
{
    int idle = 1;

    if (region != NULL) {
        return rnic_idle_one(region);
    }
    xg_gas_region_each(rnic_idle_each, &idle);
    return idle;
}

/* Location consistency before a read of @region: the writes the NIC may
 * reorder with it complete first -- the region's own, or with
 * XGAS_CONSISTENCY=process every region's. */
static int rnic_reorderable(const xg_gas_region_t *region)
{
    return __atomic_load_n(&region->unordered, __ATOMIC_ACQUIRE) >
           __atomic_load_n(&region->done_upto, __ATOMIC_ACQUIRE);
}

static void rnic_fence_each(xg_gas_region_t *region, void *arg)
{
    xg_status_t *status = arg;

    if (rnic_reorderable(region)) {
        __atomic_add_fetch(&xg_gas_region_stats.get_fences, 1,
                           __ATOMIC_RELAXED);
        rnic_complete_each(region, status);
    }
}

static xg_status_t rnic_before_read(xg_gas_region_t *region)
{
    xg_status_t status = XG_OK;

    if (xg_gas_region_per_process) {
        xg_gas_region_each(rnic_fence_each, &status);
    } else {
        rnic_fence_each(region, &status);
    }
    return status;
}

/* ---- operations ------------------------------------------------------------------ */

/* A put or get of @len bytes at @offset of @region on @pe with its key. */
static xg_status_t rnic_rdma(xg_gas_region_t *region, int put, int key, int pe,
                             uint64_t offset, void *local, size_t len)
{
    const ptl_ni_limits_t *limits = xg_gas_nic_limits();
    int copy                      = put && (len <= limits->max_volatile_size);
    xg_nic_op_t op;
    uint64_t issued;
    int ret;

    xg_nic_op_init(&op, put ? XG_NIC_OP_PUT : XG_NIC_OP_GET,
                   copy ? region->md_copy : region->md,
                   (ptl_size_t)(uintptr_t)local, len);
    xg_nic_op_target(&op, xg_nic_phys_id(pe), (ptl_pt_index_t)key, offset);
    op.ack_req = PTL_ACK_REQ;
    issued     = __atomic_add_fetch(&region->issued, 1, __ATOMIC_SEQ_CST);
    /* a rendezvous put may land after later eager messages */
    if (put && (len > xg_config.nic_eager_limit)) {
        __atomic_store_n(&region->unordered, issued, __ATOMIC_RELEASE);
    }
    ret = xg_nic_issue(RNIC_FN, &op);
    if (ret != PTL_OK) {
        __atomic_sub_fetch(&region->issued, 1, __ATOMIC_SEQ_CST);
        return xg_nic_status(ret);
    }
    if (issued - __atomic_load_n(&region->done_upto, __ATOMIC_RELAXED) >=
        RNIC_BATCH) {
        return rnic_complete_one(region);
    }
    return XG_OK;
}

/* The region's lock on @pe, taken and released through the NIC (its word
 * is symmetric memory: gas's own route reaches it). */
static xg_gas_ctx_t rnic_lock_ctx = XG_GAS_CTX_INIT_SHARED;

static xg_status_t rnic_lock(xg_gas_region_t *region, int pe)
{
    xg_gas_amo_result_t r;
    xg_wait_t wait;

    xg_wait_init(&wait);
    for (;;) {
        r = xg_gas_amo(&rnic_lock_ctx, XG_GAS_AMO_CSWAP, region->lock,
                       sizeof(uint64_t), 1, 0, pe);
        if ((r.status != XG_OK) || (r.old == 0)) {
            return r.status;
        }
        xg_gas_am_idle();
        xg_wait_backoff(&wait);
    }
}

static xg_status_t rnic_unlock(xg_gas_region_t *region, int pe)
{
    return xg_gas_amo(&rnic_lock_ctx, XG_GAS_AMO_SET, region->lock,
                      sizeof(uint64_t), 0, 0, pe)
        .status;
}

/* Source-driven accumulate: under the target's region lock, each row is
 * fetched into a staging buffer, updated here and put back. */
static xg_status_t rnic_acc_source(xg_gas_region_t *region, int pe, int key,
                                   const xg_gas_acc_t *acc, region_rows_t *rows)
{
    uint8_t stage[RNIC_STAGE];
    size_t elem                   = xg_op_type_size(acc->type);
    size_t step                   = RNIC_STAGE - RNIC_STAGE % elem;
    const ptl_ni_limits_t *limits = xg_gas_nic_limits();
    char *remote, *local;
    size_t len, chunk;
    xg_status_t status, unlocked;

    if (step > limits->max_volatile_size) {
        step = limits->max_volatile_size - limits->max_volatile_size % elem;
    }
    status = rnic_before_read(region);
    if (status == XG_OK) {
        status = rnic_lock(region, pe);
    }
    if (status != XG_OK) {
        return status;
    }
    while ((status == XG_OK) && region_rows_next(rows, &remote, &local, &len)) {
        for (; (len > 0) && (status == XG_OK);
             remote += chunk, local += chunk, len -= chunk) {
            uint64_t offset = (uintptr_t)remote - region->base;

            chunk  = (len < step) ? len : step;
            status = (key >= 0)
                         ? rnic_rdma(region, 0, key, pe, offset, stage, chunk)
                         : xg_gas_am_get(region, pe, offset, stage, chunk, 1);
            if (status == XG_OK) {
                status = rnic_complete_one(region);
            }
            if (status != XG_OK) {
                break;
            }
            xg_gas_region_acc_apply(acc, stage, local, chunk);
            if (key >= 0) {
                status = rnic_rdma(region, 1, key, pe, offset, stage, chunk);
            } else {
                am_batch_t batch;

                xg_gas_am_batch_init(&batch, AM_PUT, region, pe, NULL, 1);
                status = xg_gas_am_batch_add(&batch, offset, stage, chunk);
                if (status == XG_OK) {
                    status = xg_gas_am_batch_flush(&batch);
                }
            }
        }
    }
    /* the updates land before the lock is free */
    if (status == XG_OK) {
        status = rnic_complete_one(region);
    }
    unlocked = rnic_unlock(region, pe);
    return (status == XG_OK) ? unlocked : status;
}

xg_status_t xg_gas_region_nic_xfer(xg_gas_region_t *region, int pe,
                                   const xg_gas_acc_t *acc, region_rows_t *rows,
                                   int nb)
{
    int key                       = xg_gas_key_lookup(pe, region->id);
    const ptl_ni_limits_t *limits = xg_gas_nic_limits();
    xg_status_t status            = XG_OK;
    int in_place                  = 0;
    char *remote, *local;
    size_t len;
    am_batch_t batch;

    if (rows->kind == XG_GAS_XFER_GET) {
        status = rnic_before_read(region);
        while ((status == XG_OK) &&
               region_rows_next(rows, &remote, &local, &len)) {
            uint64_t offset = (uintptr_t)remote - region->base;

            status = (key >= 0)
                         ? rnic_rdma(region, 0, key, pe, offset, local, len)
                         : xg_gas_am_get(region, pe, offset, local, len, 1);
        }
        in_place = 1;
    } else if ((rows->kind == XG_GAS_XFER_PUT) && (key >= 0)) {
        while ((status == XG_OK) &&
               region_rows_next(rows, &remote, &local, &len)) {
            status = rnic_rdma(region, 1, key, pe,
                               (uintptr_t)remote - region->base, local, len);
            in_place |= len > limits->max_volatile_size;
        }
    } else if ((rows->kind == XG_GAS_XFER_ACC) && xg_gas_region_acc_source) {
        return rnic_acc_source(region, pe, key, acc, rows);
    } else {
        /* a put without the key, or an accumulate the target applies:
         * active messages */
        xg_gas_am_batch_init(&batch,
                             (rows->kind == XG_GAS_XFER_ACC) ? AM_ACC : AM_PUT,
                             region, pe, acc, key < 0);
        while ((status == XG_OK) &&
               region_rows_next(rows, &remote, &local, &len)) {
            status = xg_gas_am_batch_add(
                &batch, (uintptr_t)remote - region->base, local, len);
        }
        if (status == XG_OK) {
            status = xg_gas_am_batch_flush(&batch);
        }
    }
    /* blocking: the local buffers the NIC reads or writes in place are
     * done with */
    if ((status == XG_OK) && in_place && !nb) {
        status = rnic_complete_one(region);
    }
    return status;
}

xg_gas_amo_result_t xg_gas_region_nic_rmw(xg_gas_region_t *region, int pe,
                                          xg_gas_amo_t op, uint64_t offset,
                                          size_t size, uint64_t value)
{
    xg_gas_amo_result_t result = {0, XG_OK};

    /* ordered after this PE's earlier writes to the word */
    result.status = rnic_before_read(region);
    if (result.status != XG_OK) {
        return result;
    }
    return xg_gas_am_rmw(region, pe, offset, op, size, value);
}

void xg_gas_region_nic_fini(void)
{
    xg_gas_key_cache_close();
}
