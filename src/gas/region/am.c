/*
 * Active messages of regions on the NIC route (region_int.h).
 *
 * A request is one put of at most one packet to a portal index of gas's
 * NI where a list entry with a payload handler (nic/xg_nic_hooks.h) takes
 * it: the handler runs on whichever thread polls the target's NIC -- its
 * progress thread, or one of its application threads waiting in the
 * library -- applies the request to the region and consumes the bytes.
 * The request's acknowledgement, which the NIC sends after the handler
 * returned, is what completes it at the initiator (counted on the
 * region's counter like every other operation on the region).
 *
 *   PUT, ACC  segments (offset, length) of one region with their data: the
 *             fallback of a put without the target's key, and XGAS_ACC=
 *             target's accumulate, applied under the target's region lock;
 *   GET       bytes of one region, sent back in a reply;
 *   RMW       fetch-and-add or swap of one word, answered with the old
 *             value.  With XGAS_AM_THREAD=0 the progress thread does not
 *             apply it but queues it for the application: the owner
 *             serves the queue when it next calls the library
 *             (xg_gas_am_serve, gas's waits).
 *
 * A reply is a put to a second portal index at the initiator, whose
 * handler finds the waiting call by its token (slot and generation),
 * copies the data there, and records the region key the reply carries
 * for the key cache.  Both handlers validate everything: a request comes
 * from another process.
 */
#include "gas/region/region_int.h"

#include <string.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "base/xg_spinlock.h"
#include "base/xg_wait.h"
#include "gas/xg_gas_nic.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_hooks.h"

#define AM_FN "gas active messages"

#define AM_BUF XG_GAS_AM_BUF

/* Reply slots of waiting calls; the token's low bits are the slot. */
#define AM_SLOTS     256u
#define AM_SLOT_BITS 8u

/* Read-modify-writes queued for the application (XGAS_AM_THREAD=0). */
#define AM_DEFER_MAX 1024u

typedef struct am_hdr {
    uint8_t kind;     /* am_kind_t */
    uint8_t type;     /* ACC: xg_op_type_t; RMW: xg_gas_amo_t */
    uint8_t want_key; /* answer with this PE's key of the region */
    uint8_t size;     /* RMW: bytes of the word */
    uint32_t nseg;    /* PUT, ACC: segments after the data */
    uint32_t token;   /* GET, RMW, REPLY: the initiator's slot; 0 none */
    int32_t status;   /* REPLY: xg_status_t */
    uint64_t region;  /* the region's id */
    uint64_t offset;  /* GET, RMW: where in the region */
    uint64_t len;     /* GET: bytes wanted; REPLY: bytes that follow */
    uint64_t value;   /* RMW: operand; REPLY: the old value */
    int32_t key;      /* REPLY: the region's key at its sender, or -1 */
    uint32_t pad;
    uint8_t scale[16];
} am_hdr_t;

typedef struct am_seg {
    uint64_t offset;
    uint64_t len;
} am_seg_t;

typedef struct am_slot {
    uint32_t gen;
    int busy;
    void *dst; /* GET: where the data goes */
    size_t len;
    uint64_t old;
    int32_t status;
    int done;
} am_slot_t;

typedef struct am_deferred {
    am_hdr_t hdr;
    int pe;
} am_deferred_t;

_Atomic int xg_gas_am_deferred;

static struct {
    int open;
    int thread; /* XGAS_AM_THREAD */
    int cache;  /* keys are cached: ask for them */
    size_t max_msg;
    ptl_pt_index_t pt_req, pt_rep;
    ptl_handle_le_t le_req, le_rep;
    ptl_handle_ct_t ct_rep;
    ptl_handle_md_t md_reply; /* replies: copied when issued */
    xg_nic_hooks_t hooks_req, hooks_rep;
    xg_spinlock_t slot_lock;
    am_slot_t slots[AM_SLOTS];
    xg_spinlock_t defer_lock;
    am_deferred_t defer[AM_DEFER_MAX];
    unsigned defer_head, defer_n;
} am;

/* The entries' landing area: handlers consume every byte, none lands. */
static uint8_t am_landing[64];

static void am_count(uint64_t *counter)
{
    __atomic_add_fetch(counter, 1, __ATOMIC_RELAXED);
}

/* ---- sending ------------------------------------------------------------- */

/* Issues @len bytes at @msg to portal index @pt of @pe from @md (copied at
 * issue), counted on @region's counter when @region is given. */
static xg_status_t am_send(xg_gas_region_t *region, ptl_handle_md_t md,
                           ptl_pt_index_t pt, int pe, const void *msg,
                           size_t len)
{
    xg_nic_op_t op;
    int ret;

    xg_nic_op_init(&op, XG_NIC_OP_PUT, md, (ptl_size_t)(uintptr_t)msg, len);
    xg_nic_op_target(&op, xg_nic_phys_id(pe), pt, 0);
    op.ack_req = (region != NULL) ? PTL_ACK_REQ : PTL_NO_ACK_REQ;
    if (region != NULL) {
        __atomic_add_fetch(&region->issued, 1, __ATOMIC_SEQ_CST);
    }
    ret = xg_nic_issue(AM_FN, &op);
    if (ret != PTL_OK) {
        if (region != NULL) {
            __atomic_sub_fetch(&region->issued, 1, __ATOMIC_SEQ_CST);
        }
        return xg_nic_status(ret);
    }
    am_count(&xg_gas_region_stats.am_sent);
    return XG_OK;
}

static xg_status_t am_request(xg_gas_region_t *region, int pe, const void *msg,
                              size_t len)
{
    return am_send(region, region->md_copy, am.pt_req, pe, msg, len);
}

/* A reply to @pe: @hdr (kind, token, status, value set by the caller) and
 * @len bytes of @data. */
static void am_reply(int pe, am_hdr_t *hdr, const void *data, size_t len)
{
    uint8_t msg[AM_BUF];
    xg_gas_region_t *region = xg_gas_region_by_id(hdr->region);

    hdr->kind = AM_REPLY;
    hdr->len  = len;
    hdr->key  = ((region != NULL) && hdr->want_key) ? region->key : -1;
    memcpy(msg, hdr, sizeof(*hdr));
    if (len != 0) {
        memcpy(msg + sizeof(*hdr), data, len);
    }
    if (am_send(NULL, am.md_reply, am.pt_rep, pe, msg, sizeof(*hdr) + len) !=
        XG_OK) {
        xg_warn("gas",
                "an active-message reply to PE %d could not be "
                "sent (its NIC refused it); that PE's call will report "
                "it",
                pe);
    }
}

/* ---- reply slots ----------------------------------------------------------- */

static am_slot_t *am_slot_take(uint32_t *token_p)
{
    xg_wait_t wait;
    unsigned i;

    xg_wait_init(&wait);
    for (;;) {
        xg_spinlock_lock(&am.slot_lock);
        for (i = 0; i < AM_SLOTS; i++) {
            am_slot_t *slot = &am.slots[i];

            if (!slot->busy) {
                slot->busy = 1;
                slot->gen =
                    (slot->gen + 1) & ((1u << (32 - AM_SLOT_BITS)) - 1u);
                if (slot->gen == 0) {
                    slot->gen = 1; /* token 0 means "no reply" */
                }
                __atomic_store_n(&slot->done, 0, __ATOMIC_RELAXED);
                xg_spinlock_unlock(&am.slot_lock);
                *token_p = (slot->gen << AM_SLOT_BITS) | i;
                return slot;
            }
        }
        xg_spinlock_unlock(&am.slot_lock);
        xg_wait_backoff(&wait); /* 256 calls of this PE wait already */
    }
}

static void am_slot_give(am_slot_t *slot)
{
    xg_spinlock_lock(&am.slot_lock);
    slot->busy = 0;
    slot->dst  = NULL;
    xg_spinlock_unlock(&am.slot_lock);
}

/* Waits for @slot's reply, polling the NIC and serving deferred requests
 * meanwhile; XG_ERR_UNREACHABLE if the request failed (its
 * acknowledgement on @region's counter says so) or the NIC stopped. */
static xg_status_t am_wait(xg_gas_region_t *region, am_slot_t *slot)
{
    ptl_ct_event_t ev;
    ptl_size_t test;
    int ret;

    while (!__atomic_load_n(&slot->done, __ATOMIC_ACQUIRE)) {
        xg_gas_am_idle();
        if ((xg_nic_ct_get(AM_FN, region->ct, &ev) == PTL_OK) &&
            (ev.failure >
             __atomic_load_n(&region->failed_seen, __ATOMIC_RELAXED))) {
            return XG_ERR_UNREACHABLE;
        }
        if (xg_nic_ct_get(AM_FN, am.ct_rep, &ev) != PTL_OK) {
            return XG_ERR_UNREACHABLE;
        }
        /* one more reply (any call's), or a millisecond to look again */
        test = ev.success + ev.failure + 1;
        ret  = xg_nic_ct_poll(AM_FN, &am.ct_rep, &test, 1, 1, &ev, NULL);
        if ((ret != PTL_OK) && (ret != PTL_CT_NONE_REACHED)) {
            return XG_ERR_UNREACHABLE;
        }
    }
    return (xg_status_t)slot->status;
}

/* ---- the target's side ------------------------------------------------------- */

/* The segments of a PUT or ACC inside @region; 0 if one is not. */
static int am_segs_valid(const xg_gas_region_t *region, const am_seg_t *segs,
                         uint32_t nseg, size_t data_len, size_t elem)
{
    size_t sum = 0;
    uint32_t i;

    for (i = 0; i < nseg; i++) {
        if ((segs[i].offset > region->size) ||
            (segs[i].len > region->size - segs[i].offset) ||
            (segs[i].len > data_len - sum) ||
            ((elem != 0) && (segs[i].len % elem != 0))) {
            return 0;
        }
        sum += segs[i].len;
    }
    return sum == data_len;
}

static xg_nic_hook_ret_t am_put_acc(const am_hdr_t *hdr, const uint8_t *msg,
                                    size_t len, int pe)
{
    xg_gas_region_t *region = xg_gas_region_by_id(hdr->region);
    xg_gas_acc_t acc;
    am_seg_t segs[AM_BUF / sizeof(am_seg_t)];
    size_t seg_bytes    = (size_t)hdr->nseg * sizeof(am_seg_t), data_len;
    size_t elem         = 0;
    const uint8_t *data = msg + sizeof(*hdr);
    uint32_t i;

    if ((region == NULL) || (seg_bytes > len - sizeof(*hdr))) {
        return XG_NIC_HOOK_ERROR;
    }
    data_len = len - sizeof(*hdr) - seg_bytes;
    memcpy(segs, data + data_len, seg_bytes); /* aligned copies */
    if (hdr->kind == AM_ACC) {
        acc.type = (xg_op_type_t)hdr->type;
        if (!xg_op_valid(XG_OP_ACC, acc.type)) {
            return XG_NIC_HOOK_ERROR;
        }
        memcpy(acc.scale, hdr->scale, sizeof(acc.scale));
        elem = xg_op_type_size(acc.type);
    }
    if (!am_segs_valid(region, segs, hdr->nseg, data_len, elem)) {
        return XG_NIC_HOOK_ERROR;
    }
    if (hdr->kind == AM_ACC) {
        xg_gas_region_lock_local(region);
    }
    for (i = 0; i < hdr->nseg; i++) {
        void *dst = (void *)(region->base + segs[i].offset);

        if (hdr->kind == AM_ACC) {
            xg_gas_region_acc_apply(&acc, dst, data, segs[i].len);
        } else {
            memcpy(dst, data, segs[i].len);
        }
        data += segs[i].len;
    }
    if (hdr->kind == AM_ACC) {
        xg_gas_region_unlock_local(region);
    }
    if (hdr->want_key) {
        am_hdr_t rep = *hdr;

        rep.token  = 0;
        rep.status = XG_OK;
        am_reply(pe, &rep, NULL, 0);
    }
    return XG_NIC_HOOK_CONSUMED;
}

static void am_get(const am_hdr_t *hdr, int pe)
{
    xg_gas_region_t *region = xg_gas_region_by_id(hdr->region);
    am_hdr_t rep            = *hdr;

    rep.status = XG_OK;
    if ((region == NULL) || (hdr->offset > region->size) ||
        (hdr->len > region->size - hdr->offset) ||
        (hdr->len > am.max_msg - sizeof(*hdr))) {
        rep.status = XG_ERR_OUT_OF_BOUNDS;
        am_reply(pe, &rep, NULL, 0);
        return;
    }
    am_reply(pe, &rep, (const void *)(region->base + hdr->offset), hdr->len);
}

static void am_rmw(const am_hdr_t *hdr, int pe)
{
    xg_gas_region_t *region = xg_gas_region_by_id(hdr->region);
    am_hdr_t rep            = *hdr;

    rep.status = XG_OK;
    rep.value  = 0;
    if ((region == NULL) || ((hdr->size != 4) && (hdr->size != 8)) ||
        (hdr->offset > region->size) ||
        (hdr->size > region->size - hdr->offset) ||
        (((region->base + hdr->offset) & (hdr->size - 1u)) != 0) ||
        ((hdr->type != XG_GAS_AMO_ADD) && (hdr->type != XG_GAS_AMO_SWAP))) {
        rep.status = XG_ERR_OUT_OF_BOUNDS;
    } else {
        rep.value = xg_gas_amo_apply((xg_gas_amo_t)hdr->type,
                                     (void *)(region->base + hdr->offset),
                                     hdr->size, hdr->value, 0);
    }
    am_count(&xg_gas_region_stats.am_served);
    am_reply(pe, &rep, NULL, 0);
}

/* Queues a read-modify-write for the application; 0 if the queue is full
 * (then the caller applies it now). */
static int am_defer(const am_hdr_t *hdr, int pe)
{
    int queued = 0;

    xg_spinlock_lock(&am.defer_lock);
    if (am.defer_n < AM_DEFER_MAX) {
        am_deferred_t *d =
            &am.defer[(am.defer_head + am.defer_n) % AM_DEFER_MAX];

        d->hdr = *hdr;
        d->pe  = pe;
        am.defer_n++;
        atomic_fetch_add_explicit(&xg_gas_am_deferred, 1, memory_order_release);
        queued = 1;
    }
    xg_spinlock_unlock(&am.defer_lock);
    if (queued) {
        am_count(&xg_gas_region_stats.am_deferred);
    }
    return queued;
}

void xg_gas_am_serve(void)
{
    am_deferred_t d;

    while (atomic_load_explicit(&xg_gas_am_deferred, memory_order_acquire) !=
           0) {
        xg_spinlock_lock(&am.defer_lock);
        if (am.defer_n == 0) {
            xg_spinlock_unlock(&am.defer_lock);
            return;
        }
        d             = am.defer[am.defer_head];
        am.defer_head = (am.defer_head + 1) % AM_DEFER_MAX;
        am.defer_n--;
        atomic_fetch_sub_explicit(&xg_gas_am_deferred, 1, memory_order_release);
        xg_spinlock_unlock(&am.defer_lock);
        am_rmw(&d.hdr, d.pe);
    }
}

static xg_nic_hook_ret_t am_on_request(const xg_nic_hook_args_t *args)
{
    const uint8_t *msg = args->data;
    int pe             = xg_nic_phys_rank(args->initiator);
    am_hdr_t hdr;

    /* one packet holds the whole request */
    if ((args->offset != 0) || (args->len != args->id->rlength) ||
        (args->len < sizeof(hdr)) || (args->len > am.max_msg)) {
        return XG_NIC_HOOK_ERROR;
    }
    memcpy(&hdr, msg, sizeof(hdr));
    switch (hdr.kind) {
    case AM_PUT:
    case AM_ACC:
        am_count(&xg_gas_region_stats.am_served);
        return am_put_acc(&hdr, msg, args->len, pe);
    case AM_GET:
        am_count(&xg_gas_region_stats.am_served);
        am_get(&hdr, pe);
        return XG_NIC_HOOK_CONSUMED;
    case AM_RMW:
        /* the progress thread leaves it to the owner when told to */
        if (!am.thread && xg_nic_on_progress_thread() && am_defer(&hdr, pe)) {
            return XG_NIC_HOOK_CONSUMED;
        }
        am_rmw(&hdr, pe);
        return XG_NIC_HOOK_CONSUMED;
    default: return XG_NIC_HOOK_ERROR;
    }
}

/* ---- the initiator's side of replies ------------------------------------------- */

static xg_nic_hook_ret_t am_on_reply(const xg_nic_hook_args_t *args)
{
    const uint8_t *msg = args->data;
    int pe             = xg_nic_phys_rank(args->initiator);
    am_slot_t *slot;
    am_hdr_t hdr;

    if ((args->offset != 0) || (args->len != args->id->rlength) ||
        (args->len < sizeof(hdr))) {
        return XG_NIC_HOOK_ERROR;
    }
    memcpy(&hdr, msg, sizeof(hdr));
    if ((hdr.kind != AM_REPLY) || (hdr.len != args->len - sizeof(hdr))) {
        return XG_NIC_HOOK_ERROR;
    }
    if ((hdr.key >= 0) && am.cache) {
        xg_gas_key_insert(pe, hdr.region, hdr.key);
    }
    if (hdr.token == 0) {
        return XG_NIC_HOOK_CONSUMED;
    }
    slot = &am.slots[hdr.token & (AM_SLOTS - 1u)];
    xg_spinlock_lock(&am.slot_lock);
    if (!slot->busy || (slot->gen != (hdr.token >> AM_SLOT_BITS)) ||
        __atomic_load_n(&slot->done, __ATOMIC_RELAXED) ||
        (hdr.len > slot->len)) {
        xg_spinlock_unlock(&am.slot_lock);
        return XG_NIC_HOOK_ERROR; /* not a reply this PE waits for */
    }
    if (hdr.len != 0) {
        memcpy(slot->dst, msg + sizeof(hdr), hdr.len);
    }
    slot->old    = hdr.value;
    slot->status = hdr.status;
    __atomic_store_n(&slot->done, 1, __ATOMIC_RELEASE);
    xg_spinlock_unlock(&am.slot_lock);
    return XG_NIC_HOOK_CONSUMED;
}

/* ---- calls ------------------------------------------------------------------ */

void xg_gas_am_batch_init(am_batch_t *batch, am_kind_t kind,
                          xg_gas_region_t *region, int pe,
                          const xg_gas_acc_t *acc, int want_key)
{
    batch->kind     = kind;
    batch->region   = region;
    batch->pe       = pe;
    batch->acc      = acc;
    batch->want_key = want_key && am.cache;
    batch->cap      = am.max_msg;
    batch->used     = sizeof(am_hdr_t);
    batch->nseg     = 0;
}

xg_status_t xg_gas_am_batch_flush(am_batch_t *batch)
{
    am_seg_t segs[AM_BUF / sizeof(am_seg_t)];
    am_hdr_t hdr;
    uint32_t i;
    size_t seg_bytes = (size_t)batch->nseg * sizeof(am_seg_t);
    xg_status_t status;

    if (batch->nseg == 0) {
        return XG_OK;
    }
    memset(&hdr, 0, sizeof(hdr));
    hdr.kind     = (uint8_t)batch->kind;
    hdr.want_key = (uint8_t)batch->want_key;
    hdr.nseg     = batch->nseg;
    hdr.region   = batch->region->id;
    if (batch->kind == AM_ACC) {
        hdr.type = (uint8_t)batch->acc->type;
        memcpy(hdr.scale, batch->acc->scale, sizeof(hdr.scale));
    }
    memcpy(batch->buf, &hdr, sizeof(hdr));
    /* the segments were kept at the end of the buffer, last first: in
     * order after the data */
    for (i = 0; i < batch->nseg; i++) {
        memcpy(&segs[i], batch->buf + batch->cap - (i + 1) * sizeof(am_seg_t),
               sizeof(am_seg_t));
    }
    memcpy(batch->buf + batch->used, segs, seg_bytes);
    status      = am_request(batch->region, batch->pe, batch->buf,
                             batch->used + seg_bytes);
    batch->used = sizeof(am_hdr_t);
    batch->nseg = 0;
    return status;
}

xg_status_t xg_gas_am_batch_add(am_batch_t *batch, uint64_t offset,
                                const void *data, size_t len)
{
    size_t elem =
        (batch->kind == AM_ACC) ? xg_op_type_size(batch->acc->type) : 1;
    const uint8_t *from = data;
    xg_status_t status;

    while (len > 0) {
        size_t need  = ((size_t)batch->nseg + 1) * sizeof(am_seg_t);
        size_t room  = (batch->cap - batch->used > need)
                           ? batch->cap - batch->used - need
                           : 0;
        size_t chunk = (len < room) ? len : room;
        am_seg_t seg;

        chunk -= chunk % elem;
        if (chunk == 0) {
            status = xg_gas_am_batch_flush(batch);
            if (status != XG_OK) {
                return status;
            }
            continue;
        }
        memcpy(batch->buf + batch->used, from, chunk);
        seg.offset = offset;
        seg.len    = chunk;
        batch->nseg++;
        memcpy(batch->buf + batch->cap - batch->nseg * sizeof(seg), &seg,
               sizeof(seg));
        batch->used += chunk;
        offset += chunk;
        from += chunk;
        len -= chunk;
    }
    return XG_OK;
}

xg_status_t xg_gas_am_get(xg_gas_region_t *region, int pe, uint64_t offset,
                          void *dst, size_t len, int want_key)
{
    size_t most        = am.max_msg - sizeof(am_hdr_t);
    uint8_t *to        = dst;
    xg_status_t status = XG_OK;

    while ((len > 0) && (status == XG_OK)) {
        size_t chunk = (len < most) ? len : most;
        am_hdr_t hdr;
        am_slot_t *slot;
        uint32_t token;

        slot      = am_slot_take(&token);
        slot->dst = to;
        slot->len = chunk;
        memset(&hdr, 0, sizeof(hdr));
        hdr.kind     = AM_GET;
        hdr.want_key = (uint8_t)(want_key && am.cache);
        hdr.token    = token;
        hdr.region   = region->id;
        hdr.offset   = offset;
        hdr.len      = chunk;
        status       = am_request(region, pe, &hdr, sizeof(hdr));
        if (status == XG_OK) {
            status = am_wait(region, slot);
        }
        am_slot_give(slot);
        offset += chunk;
        to += chunk;
        len -= chunk;
    }
    return status;
}

xg_gas_amo_result_t xg_gas_am_rmw(xg_gas_region_t *region, int pe,
                                  uint64_t offset, xg_gas_amo_t op, size_t size,
                                  uint64_t value)
{
    xg_gas_amo_result_t result = {0, XG_OK};
    am_hdr_t hdr;
    am_slot_t *slot;
    uint32_t token;

    slot      = am_slot_take(&token);
    slot->len = 0;
    memset(&hdr, 0, sizeof(hdr));
    hdr.kind      = AM_RMW;
    hdr.type      = (uint8_t)op;
    hdr.size      = (uint8_t)size;
    hdr.token     = token;
    hdr.region    = region->id;
    hdr.offset    = offset;
    hdr.value     = value;
    result.status = am_request(region, pe, &hdr, sizeof(hdr));
    if (result.status == XG_OK) {
        result.status = am_wait(region, slot);
        result.old    = slot->old;
    }
    am_slot_give(slot);
    return result;
}

/* ---- opening and closing ------------------------------------------------------ */

static int am_entry(ptl_pt_index_t pt, ptl_handle_ct_t ct,
                    xg_nic_hooks_t *hooks, ptl_handle_le_t *le_p)
{
    xg_nic_entry_desc_t le;
    int ret;

    memset(&le, 0, sizeof(le));
    le.is_le     = 1;
    le.start     = am_landing;
    le.length    = am.max_msg;
    le.ct_handle = ct;
    le.uid       = PTL_UID_ANY;
    le.options   = PTL_LE_OP_PUT | PTL_LE_EVENT_LINK_DISABLE |
                 PTL_LE_EVENT_COMM_DISABLE |
                 ((ct != PTL_CT_NONE) ? PTL_LE_EVENT_CT_COMM : 0);
    ret = xg_nic_entry_append(AM_FN, xg_gas_nic_ni(), pt, &le,
                              PTL_PRIORITY_LIST, NULL, le_p, PTL_CT_NONE, 0);
    if (ret == PTL_OK) {
        ret = xg_nic_entry_set_hooks(AM_FN, *le_p, hooks);
    }
    return ret;
}

xg_status_t xg_gas_am_open(void)
{
    const ptl_ni_limits_t *limits = xg_gas_nic_limits();
    ptl_handle_ni_t ni            = xg_gas_nic_ni();
    ptl_md_t md;
    int ret;

    memset(&am, 0, sizeof(am));
    am.le_req = am.le_rep = PTL_INVALID_HANDLE;
    am.ct_rep = am.md_reply = PTL_INVALID_HANDLE;
    am.pt_req = am.pt_rep = PTL_PT_ANY;
    xg_spinlock_init(&am.slot_lock);
    xg_spinlock_init(&am.defer_lock);
    atomic_store_explicit(&xg_gas_am_deferred, 0, memory_order_relaxed);
    am.thread            = xg_config.am_thread;
    am.cache             = xg_config.region_cache > 0;
    am.max_msg           = (limits->max_volatile_size < AM_BUF)
                               ? (size_t)limits->max_volatile_size
                               : AM_BUF;
    am.hooks_req.payload = am_on_request;
    am.hooks_rep.payload = am_on_reply;
    am.open              = 1;
    ret                  = xg_nic_pt_alloc(AM_FN, ni, 0, PTL_EQ_NONE,
                                           (ptl_pt_index_t)limits->max_pt_index - 1, &am.pt_req);
    if (ret == PTL_OK) {
        ret = xg_nic_pt_alloc(AM_FN, ni, 0, PTL_EQ_NONE,
                              (ptl_pt_index_t)limits->max_pt_index - 2,
                              &am.pt_rep);
    }
    if (ret == PTL_OK) {
        ret = xg_nic_ct_alloc(AM_FN, ni, &am.ct_rep);
    }
    if (ret == PTL_OK) {
        ret = am_entry(am.pt_req, PTL_CT_NONE, &am.hooks_req, &am.le_req);
    }
    if (ret == PTL_OK) {
        ret = am_entry(am.pt_rep, am.ct_rep, &am.hooks_rep, &am.le_rep);
    }
    if (ret == PTL_OK) {
        memset(&md, 0, sizeof(md));
        md.start     = NULL;
        md.length    = PTL_SIZE_MAX;
        md.options   = PTL_MD_VOLATILE | PTL_MD_EVENT_SUCCESS_DISABLE;
        md.eq_handle = PTL_EQ_NONE;
        md.ct_handle = PTL_CT_NONE;
        ret          = xg_nic_md_bind(AM_FN, ni, &md, &am.md_reply);
    }
    if (ret != PTL_OK) {
        xg_error("gas",
                 "the NIC route (XGAS_ROUTE=nic, or PEs on other "
                 "nodes): cannot open its active-message portals (Portals "
                 "code %d); the software NIC cannot carry the operations of "
                 "gas",
                 ret);
        xg_gas_am_close();
        return XG_ERR_NO_RESOURCE;
    }
    return XG_OK;
}

void xg_gas_am_close(void)
{
    ptl_handle_ni_t ni = xg_gas_nic_ni();

    if (!am.open) {
        return;
    }
    xg_gas_am_serve(); /* nobody waits for these any more, but answer */
    if (am.md_reply != PTL_INVALID_HANDLE) {
        xg_nic_md_release(AM_FN, am.md_reply);
    }
    if (am.le_req != PTL_INVALID_HANDLE) {
        xg_nic_entry_unlink(AM_FN, am.le_req, 1, PTL_CT_NONE, 0);
    }
    if (am.le_rep != PTL_INVALID_HANDLE) {
        xg_nic_entry_unlink(AM_FN, am.le_rep, 1, PTL_CT_NONE, 0);
    }
    if (am.ct_rep != PTL_INVALID_HANDLE) {
        xg_nic_ct_free(AM_FN, am.ct_rep);
    }
    if (am.pt_req != PTL_PT_ANY) {
        xg_nic_pt_free(AM_FN, ni, am.pt_req);
    }
    if (am.pt_rep != PTL_PT_ANY) {
        xg_nic_pt_free(AM_FN, ni, am.pt_rep);
    }
    am.open = 0;
}
