/*
 * The target path, as an explicit state machine.  Every incoming request
 * (put, get, atomic, fetch, swap) gets a target operation from the NI's
 * pool and runs through states, one function each, that return the next
 * state:
 *
 *   START -> MATCH -> CHECK -> CLAIM -+-> DATA (WAIT_DATA) ----+
 *     |        |        |             +-> DATA -> PULL --------+
 *     |        |        |             |   (WAIT_PULL)          |
 *     |        |        |             +-> HOLD (unexpected     +-> COMPLETE
 *     |        |        |             |   rendezvous)          |   -> ACK
 *     |        |        |             +-> ATOMIC --------------+   -> DONE
 *     |        |        |             +-> REPLY (WAIT_REPLY) --+
 *     +--------+--------+--> DROP -> DONE  (no match, disabled, violation)
 *
 * Wait states return XG_TGT_WAIT to the progress loop; the operation is
 * resumed by the packet or completion it waits for (more DATA packets,
 * RNDV_DATA packets, the reply leaving).  Everything runs under the NI lock.
 * With XGAS_LOG=debug every transition is traced with the state names.
 *
 * Unexpected messages: a message that matches the overflow list delivers
 * its data into the overflow entry and leaves a header in the unexpected
 * list.  The header is listed the moment the message matches, so that a
 * priority entry appended while the data is still landing finds it (in
 * matching order); such an entry "claims" the header and receives its
 * overflow event when the data is complete.  A rendezvous put that matches
 * the overflow list is held instead: its header and the bytes that came
 * with it (kept in the NI's buddy store) wait in the unexpected list, the
 * rest stays at the initiator, and the priority entry appended later
 * receives the whole message directly -- no data is lost, and none is
 * copied twice.
 */
#include <string.h>

#include "base/xg_compiler.h"
#include "base/xg_log.h"
#include "base/xg_pool.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_atomic_int.h"
#include "nic/xg_nic_ct_int.h"
#include "nic/xg_nic_eq_int.h"
#include "nic/xg_nic_me_int.h"
#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_obj_int.h"
#include "nic/xg_nic_pt_int.h"
#include "nic/xg_nic_region_int.h"
#include "nic/xg_nic_tgt_int.h"
#include "nic/xg_nic_tx_int.h"
#include "nic/xg_nic_uh_int.h"
#include "nic/xg_nic_wire_int.h"

typedef xg_nic_tgt_state_t (*tgt_state_func_t)(xg_nic_ni_t *ni,
                                               xg_nic_tgt_t *t);

static const char *const tgt_state_names[XG_TGT_STATE_LAST] = {
    [XG_TGT_START] = "start",       [XG_TGT_MATCH] = "match",
    [XG_TGT_CHECK] = "check",       [XG_TGT_CLAIM] = "claim",
    [XG_TGT_DATA] = "data",         [XG_TGT_WAIT_DATA] = "wait-data",
    [XG_TGT_PULL] = "pull",         [XG_TGT_WAIT_PULL] = "wait-pull",
    [XG_TGT_HOLD] = "hold",         [XG_TGT_ATOMIC] = "atomic",
    [XG_TGT_REPLY] = "reply",       [XG_TGT_WAIT_REPLY] = "wait-reply",
    [XG_TGT_COMPLETE] = "complete", [XG_TGT_ACK] = "ack",
    [XG_TGT_DROP] = "drop",         [XG_TGT_DONE] = "done",
    [XG_TGT_WAIT] = "wait",
};

const char *xg_nic_tgt_state_name(xg_nic_tgt_state_t state)
{
    return (state < XG_TGT_STATE_LAST) ? tgt_state_names[state] : "?";
}

/* ------------------------------------------------------------------------
 * Helpers
 * --------------------------------------------------------------------- */

static int tgt_is_put(const xg_nic_tgt_t *t)
{
    return t->kind == XG_WIRE_PUT;
}

static int tgt_wants_reply(const xg_nic_tgt_t *t)
{
    return (t->kind == XG_WIRE_GET) || (t->kind == XG_WIRE_FETCH) ||
           (t->kind == XG_WIRE_SWAP);
}

static xg_nic_rx_t *tgt_rx(xg_nic_ni_t *ni, const xg_nic_tgt_t *t)
{
    return &ni->nic->peers[t->src_rank].rx;
}

ptl_event_kind_t xg_nic_tgt_event_kind(uint8_t kind, int overflow)
{
    switch (kind) {
    case XG_WIRE_GET: return overflow ? PTL_EVENT_GET_OVERFLOW : PTL_EVENT_GET;
    case XG_WIRE_ATOMIC:
        return overflow ? PTL_EVENT_ATOMIC_OVERFLOW : PTL_EVENT_ATOMIC;
    case XG_WIRE_FETCH:
    case XG_WIRE_SWAP:
        return overflow ? PTL_EVENT_FETCH_ATOMIC_OVERFLOW
                        : PTL_EVENT_FETCH_ATOMIC;
    default: return overflow ? PTL_EVENT_PUT_OVERFLOW : PTL_EVENT_PUT;
    }
}

void xg_nic_tgt_post(xg_nic_ni_t *ni, xg_nic_pt_t *pt, const ptl_event_t *ev)
{
    xg_nic_eq_t *eq = xg_nic_eq_of(ni, pt->eq);

    if (eq != NULL) {
        xg_nic_eq_post(eq, ev);
    }
}

/* Counts on counter @cth of an entry with @options when @option is set: a
 * success (1 or @bytes), or a failure. */
static void tgt_count_on(xg_nic_ni_t *ni, unsigned options, ptl_handle_ct_t cth,
                         unsigned option, uint64_t bytes, int failed)
{
    xg_nic_ct_t *ct;

    if (!(options & option)) {
        return;
    }
    ct = xg_nic_ct_of(ni, cth);
    if (ct == NULL) {
        return;
    }
    if (failed) {
        xg_nic_ct_add(ni, ct, 0, 1);
    } else {
        xg_nic_ct_add(ni, ct, (options & PTL_ME_EVENT_CT_BYTES) ? bytes : 1, 0);
    }
}

/* Counts on an entry's counter when @option is set. */
void xg_nic_tgt_count(xg_nic_ni_t *ni, const xg_nic_me_t *me, unsigned option,
                      uint64_t bytes)
{
    tgt_count_on(ni, me->options, me->ct, option, bytes, 0);
}

/* The message of a claimed header is done (@fail: how): the claiming
 * entry or search gets the overflow event and count it was owed, and
 * the header goes. */
static void tgt_finish_claim(xg_nic_ni_t *ni, xg_nic_tgt_t *t, xg_nic_uh_t *uh,
                             ptl_ni_fail_t fail)
{
    xg_nic_me_t *me = t->claim.me;

    if (t->claim.events) {
        xg_nic_uh_event(ni, t->pt, uh, xg_nic_tgt_event_kind(uh->kind, 1),
                        t->claim.user_ptr, fail);
    }
    tgt_count_on(ni, t->claim.options, t->claim.ct, PTL_ME_EVENT_CT_OVERFLOW,
                 uh->mlength, fail != PTL_NI_OK);
    if (me != NULL) {
        if (t->claim.unlink) {
            xg_nic_me_auto_unlink(ni, me);
        }
        me->inflight--;
        t->pt->inflight--;
        xg_nic_me_release(ni, me);
        t->claim.me = NULL;
    }
    t->claim.on = 0;
    xg_nic_uh_destroy(ni, uh, 0);
}

/* Sends the response of a put or atomic (ack or failure notice). */
void xg_nic_tgt_send_ack(xg_nic_ni_t *ni, const xg_nic_tgt_t *t,
                         ptl_ni_fail_t fail, unsigned flags)
{
    xg_nic_txmsg_t msg;

    memset(&msg, 0, sizeof(msg));
    xg_nic_wire_init(&msg.hdr, XG_WIRE_ACK, ni->index, (uint32_t)ni->nic->rank);
    msg.hdr.id         = t->id;
    msg.hdr.id.roffset = (fail == PTL_NI_OK) ? t->moffset : t->id.roffset;
    msg.hdr.flags      = (uint8_t)flags;
    msg.hdr.fail       = fail;
    msg.hdr.mlength    = (fail == PTL_NI_OK) ? t->mlength : 0;
    msg.hdr.list       = t->list;
    xg_nic_tx(ni, (int)t->src_rank, &msg);
}

/* Sends a reply with @len bytes from @region (or @inline_data). */
static xg_status_t tgt_send_reply(xg_nic_ni_t *ni, xg_nic_tgt_t *t,
                                  ptl_ni_fail_t fail,
                                  const xg_nic_region_t *region,
                                  const uint8_t *inline_data, uint64_t len,
                                  int wait_done)
{
    xg_nic_txmsg_t msg;

    memset(&msg, 0, sizeof(msg));
    xg_nic_wire_init(&msg.hdr, XG_WIRE_REPLY, ni->index,
                     (uint32_t)ni->nic->rank);
    msg.hdr.id         = t->id;
    msg.hdr.id.roffset = (fail == PTL_NI_OK) ? t->moffset : t->id.roffset;
    msg.hdr.fail       = fail;
    msg.hdr.mlength    = len;
    msg.hdr.list       = t->list;
    msg.src            = region;
    msg.src_off        = t->moffset;
    msg.inline_data    = inline_data;
    msg.len            = len;
    if (wait_done) {
        msg.done.kind = XG_TXDONE_TGT;
        msg.done.ni   = (uint8_t)ni->index;
        msg.done.tgt  = t;
    }
    return xg_nic_tx(ni, (int)t->src_rank, &msg);
}

/* Flow control: disables the portal index (once) and reports it. */
static void tgt_flow_control(xg_nic_ni_t *ni, xg_nic_tgt_t *t,
                             const xg_nic_me_t *me)
{
    ptl_event_t ev;

    t->end.fail = PTL_NI_PT_DISABLED;
    if (!t->pt->enabled) {
        return;
    }
    t->pt->enabled = 0;
    if ((me != NULL) && (me->options & PTL_ME_EVENT_FLOWCTRL_DISABLE)) {
        return;
    }
    xg_nic_tgt_event_init(&ev, PTL_EVENT_PT_DISABLED, &t->id, t->initiator);
    ev.ni_fail_type = PTL_NI_PT_DISABLED;
    xg_nic_tgt_post(ni, t->pt, &ev);
    xg_info("nic",
            "portal index %u disabled by flow control (message from "
            "PE %u)",
            t->id.pt_index, t->src_rank);
}

/* Releases what CLAIM took (in-flight counts, entry, header). */
static void tgt_unclaim(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    xg_nic_uh_t *uh;

    if (t->me != NULL) {
        t->me->inflight--;
        t->pt->inflight--;
        xg_nic_me_release(ni, t->me);
        t->me = NULL;
    }
    if (t->uh != NULL) {
        uh    = t->uh;
        t->uh = NULL;
        if (t->claim.on) {
            /* the entry that claimed the header learns it failed */
            tgt_finish_claim(ni, t, uh, PTL_NI_UNDELIVERABLE);
        } else {
            if (uh->pending == t) {
                xg_nic_uh_remove(t->pt, uh); /* listed since CLAIM */
                uh->pending = NULL;
            }
            xg_nic_uh_destroy(ni, uh, 0);
        }
    }
    if (t->held_data != NULL) {
        xg_nic_held_free(ni, t->held_data, t->held_len);
        t->held_data = NULL;
    }
}

static void tgt_free(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    xg_nic_rx_t *rx = tgt_rx(ni, t);

    if ((rx->kind == XG_RX_TGT) && (rx->tgt == t)) {
        rx->kind = XG_RX_IDLE;
    }
    if (t->pull_ct.heap != NULL) {
        xg_nic_ct_destroy(ni, &t->pull_ct);
    }
    if (xg_unlikely(t->hook.set != NULL)) {
        xg_nic_hook_free(ni, t);
    }
    xg_pool_free(&ni->tgt_pool, t);
}

/* ------------------------------------------------------------------------
 * States
 * --------------------------------------------------------------------- */

static xg_nic_tgt_state_t tgt_start(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    xg_nic_pt_t *pt =
        (t->id.pt_index < XG_NIC_MAX_PT) ? ni->pt[t->id.pt_index] : NULL;

    if ((pt == NULL) || !pt->allocated) {
        t->end.fail = PTL_NI_DROPPED;
        return XG_TGT_DROP;
    }
    t->pt = pt;
    if (!pt->enabled) {
        t->end.fail = PTL_NI_PT_DISABLED;
        return XG_TGT_DROP;
    }
    if ((t->kind == XG_WIRE_ATOMIC) || (t->kind == XG_WIRE_FETCH) ||
        (t->kind == XG_WIRE_SWAP)) {
        /* the initiator checked this; a packet that did not is bogus */
        if (!xg_nic_atomic_valid(t->id.atomic_op, t->id.atomic_type) ||
            (t->id.rlength % xg_nic_atomic_size(t->id.atomic_type) != 0) ||
            ((t->id.atomic_op >= PTL_SWAP) && (t->kind != XG_WIRE_SWAP))) {
            atomic_fetch_add_explicit(&ni->nic->rx_dropped, 1,
                                      memory_order_relaxed);
            t->end.fail = PTL_NI_DROPPED;
            return XG_TGT_DROP;
        }
    }
    return XG_TGT_MATCH;
}

static xg_nic_tgt_state_t tgt_match(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    xg_nic_me_t *me;

    me = xg_nic_list_match(ni, &t->pt->lists[PTL_PRIORITY_LIST], t->src_key,
                           t->id.match_bits, t->id.rlength, t->id.roffset);
    t->list = PTL_PRIORITY_LIST;
    if (me == NULL) {
        me = xg_nic_list_match(ni, &t->pt->lists[PTL_OVERFLOW_LIST], t->src_key,
                               t->id.match_bits, t->id.rlength, t->id.roffset);
        t->list = PTL_OVERFLOW_LIST;
    }
    if (me == NULL) {
        /* nothing takes it: flow control, or a drop */
        if (t->pt->options & PTL_PT_FLOWCTRL) {
            tgt_flow_control(ni, t, NULL);
        } else {
            t->end.fail = PTL_NI_DROPPED;
        }
        return XG_TGT_DROP;
    }
    t->me = me;
    return XG_TGT_CHECK;
}

static xg_nic_tgt_state_t tgt_check(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    xg_nic_me_t *me = t->me;
    xg_nic_eq_t *eq;
    unsigned need_ops;
    int allowed;

    if (me->options & PTL_ME_AUTH_USE_JID) {
        allowed = (me->jid == PTL_JID_ANY) || (me->jid == t->id.jid);
    } else {
        allowed = (me->uid == PTL_UID_ANY) || (me->uid == t->id.uid);
    }
    if (!allowed) {
        t->me              = NULL;
        t->end.fail        = PTL_NI_PERM_VIOLATION;
        t->end.drop_reason = PTL_SR_PERMISSION_VIOLATIONS;
        return XG_TGT_DROP;
    }
    switch (t->kind) {
    case XG_WIRE_GET: need_ops = PTL_ME_OP_GET; break;
    case XG_WIRE_FETCH:
    case XG_WIRE_SWAP: need_ops = PTL_ME_OP_GET | PTL_ME_OP_PUT; break;
    default: need_ops = PTL_ME_OP_PUT; break;
    }
    if ((me->options & need_ops) != need_ops) {
        t->me              = NULL;
        t->end.fail        = PTL_NI_OP_VIOLATION;
        t->end.drop_reason = PTL_SR_OPERATION_VIOLATIONS;
        return XG_TGT_DROP;
    }
    if (t->pt->options & PTL_PT_FLOWCTRL) {
        /* room for the comm event, an unlink and, on the overflow list,
         * the free event to come; otherwise disable before losing any */
        eq = xg_nic_eq_of(ni, t->pt->eq);
        if ((eq != NULL) &&
            (xg_nic_eq_room(eq) < 2u + (t->list == PTL_OVERFLOW_LIST))) {
            t->me = NULL;
            tgt_flow_control(ni, t, me);
            return XG_TGT_DROP;
        }
    }
    if ((t->list == PTL_OVERFLOW_LIST) &&
        !(me->options & PTL_ME_UNEXPECTED_HDR_DISABLE)) {
        t->uh = xg_pool_alloc(&ni->uh_pool);
        if (t->uh == NULL) {
            t->me = NULL;
            if (t->pt->options & PTL_PT_FLOWCTRL) {
                tgt_flow_control(ni, t, me);
            } else {
                t->end.fail = PTL_NI_DROPPED;
            }
            return XG_TGT_DROP;
        }
    }
    return XG_TGT_CLAIM;
}

static xg_nic_tgt_state_t tgt_claim(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    xg_nic_me_t *me = t->me;
    xg_nic_uh_t *uh = t->uh;
    ptl_size_t room, advance;
    size_t elem;
    int hold = tgt_is_put(t) && t->rndv.on && (uh != NULL);

    t->moffset =
        (me->options & PTL_ME_MANAGE_LOCAL) ? me->local_offset : t->id.roffset;
    room =
        (t->moffset > me->region.length) ? 0 : me->region.length - t->moffset;
    t->mlength = (t->id.rlength < room) ? t->id.rlength : room;
    if ((t->kind != XG_WIRE_PUT) && (t->kind != XG_WIRE_GET)) {
        elem = xg_nic_atomic_size(t->id.atomic_type);
        t->mlength -= t->mlength % elem; /* whole elements only */
    }
    if (hold) {
        t->mlength = 0; /* nothing lands in the overflow entry */
    }
    if (me->options & PTL_ME_MANAGE_LOCAL) {
        advance = ((me->options & PTL_ME_LOCAL_INC_UH_RLENGTH) &&
                   (t->list == PTL_OVERFLOW_LIST) && !hold)
                      ? t->id.rlength
                      : t->mlength;
        me->local_offset += advance;
    }
    me->inflight++;
    t->pt->inflight++;
    t->end.ack_disabled = (me->options & PTL_ME_ACK_DISABLE) != 0;
    /* consumed entries leave the list now; AUTO_UNLINK follows the event */
    if ((me->options & PTL_ME_USE_ONCE) ||
        ((me->options & PTL_ME_MANAGE_LOCAL) && (me->min_free != 0) &&
         (me->region.length - me->local_offset < me->min_free))) {
        xg_nic_list_remove(&t->pt->lists[me->list], me);
        t->end.unlink_after = 1;
    }
    if (uh != NULL) {
        uh->kind      = t->kind;
        uh->id        = t->id;
        uh->initiator = t->initiator;
        uh->src_key   = t->src_key;
        uh->src_rank  = t->src_rank;
        uh->mlength   = t->mlength;
        uh->start = hold ? NULL : xg_nic_region_addr(&me->region, t->moffset);
        uh->me    = me;
        me->uh_refs++;
        if (!hold) {
            /* listed now, in matching order; appends that find it before
             * the data is complete claim it (see tgt_finish_claim) */
            uh->pending = t;
            xg_nic_uh_insert(ni, t->pt, uh);
        }
    }
    if (hold) {
        return XG_TGT_HOLD;
    }
    switch (t->kind) {
    case XG_WIRE_PUT:
        if (xg_unlikely(me->hooks != NULL)) {
            xg_nic_hook_claim(t, me->hooks);
        }
        return XG_TGT_DATA;
    case XG_WIRE_GET: return XG_TGT_REPLY;
    default: return XG_TGT_ATOMIC;
    }
}

void xg_nic_tgt_write(xg_nic_tgt_t *t, uint64_t off, const uint8_t *data,
                      uint64_t len)
{
    uint64_t n;

    if ((t->me != NULL) && (off < t->mlength)) {
        n = t->mlength - off;
        if (n > len) {
            n = len;
        }
        xg_nic_region_write(&t->me->region, t->moffset + off, data, n);
    }
}

void xg_nic_tgt_land(xg_nic_tgt_t *t, uint64_t off, const uint8_t *data,
                     uint64_t len)
{
    if (xg_unlikely(t->hook.set != NULL)) {
        xg_nic_hook_packet(t, off, data, len); /* lands after the calls */
    } else {
        xg_nic_tgt_write(t, off, data, len);
    }
    t->landed += len;
}

static xg_nic_tgt_state_t tgt_data(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    xg_nic_rx_t *rx;

    xg_nic_tgt_land(t, 0, t->payload, t->payload_len);
    t->eager   = t->payload_len;
    t->payload = NULL;
    if (t->rndv.on) {
        t->expect =
            t->eager + ((t->mlength > t->eager) ? t->mlength - t->eager : 0);
        return XG_TGT_PULL;
    }
    t->expect = t->id.rlength;
    if (t->landed < t->expect) {
        rx       = tgt_rx(ni, t);
        rx->kind = XG_RX_TGT;
        rx->ni   = (uint8_t)ni->index;
        rx->tgt  = t;
        rx->next = t->landed;
        rx->end  = t->expect;
        return XG_TGT_WAIT_DATA;
    }
    return XG_TGT_COMPLETE;
}

static xg_nic_tgt_state_t tgt_wait_data(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    (void)ni;
    return (t->landed < t->expect) ? XG_TGT_WAIT : XG_TGT_COMPLETE;
}

void xg_nic_tgt_pull(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    xg_nic_txmsg_t msg;
    xg_status_t status;

    memset(&msg, 0, sizeof(msg));
    xg_nic_wire_init(&msg.hdr, XG_WIRE_RNDV_GET, ni->index,
                     (uint32_t)ni->nic->rank);
    msg.hdr.flags      = XG_WIRE_F_FINAL;
    msg.hdr.id         = t->id;
    msg.hdr.tgt_cookie = xg_pool_obj_handle(t);
    msg.hdr.offset     = t->eager;
    msg.hdr.mlength    = t->expect - t->eager;
    status             = xg_nic_tx(ni, (int)t->src_rank, &msg);
    if ((status != XG_OK) && (status != XG_INPROGRESS)) {
        xg_nic_tgt_abort(ni, t);
        return;
    }
    t->rndv.pull_sent = 1;
    if (t->expect == t->eager) {
        xg_nic_tgt_resume(ni, t); /* nothing to wait for */
    }
}

static xg_nic_tgt_state_t tgt_pull(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    xg_nic_trig_t *trig;

    if (ni->nic->rndv_triggered) {
        /* the paper's triggered rendezvous: the get is a triggered
         * operation on a counter of the bytes that came with the header,
         * armed now and fired by the counter (here at once) */
        trig = xg_pool_alloc(&ni->trig_pool);
        if (trig != NULL) {
            xg_nic_ct_init_internal(&t->pull_ct);
            trig->kind      = XG_TRIG_PULL;
            trig->tgt       = t;
            trig->threshold = t->eager + 1;
            t->state = XG_TGT_WAIT_PULL; /* resumes may come while firing */
            if (xg_nic_trig_add(ni, &t->pull_ct, trig) == PTL_OK) {
                xg_nic_ct_add(ni, &t->pull_ct, t->eager + 1, 0);
                return XG_TGT_WAIT_PULL;
            }
        }
    }
    t->state = XG_TGT_WAIT_PULL;
    xg_nic_tgt_pull(ni, t);
    return XG_TGT_WAIT_PULL;
}

static xg_nic_tgt_state_t tgt_wait_pull(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    (void)ni;
    return (t->rndv.pull_sent && (t->landed >= t->expect)) ? XG_TGT_COMPLETE
                                                           : XG_TGT_WAIT;
}

static xg_nic_tgt_state_t tgt_hold(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    xg_nic_uh_t *uh = t->uh;

    /* keep the bytes that came along; without room, pull them later */
    if (t->payload_len != 0) {
        uh->held_data = xg_nic_held_alloc(ni, t->payload_len);
        if (uh->held_data != NULL) {
            memcpy(uh->held_data, t->payload, t->payload_len);
            uh->held_len = t->payload_len;
        }
    }
    uh->held          = 1;
    t->rndv.ack_later = 1;
    t->payload        = NULL;
    xg_nic_uh_insert(ni, t->pt, uh);
    t->uh = NULL;
    return XG_TGT_COMPLETE;
}

static xg_nic_tgt_state_t tgt_atomic(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    uint8_t fetched[4096];
    uint8_t *fetch = tgt_wants_reply(t) ? fetched : NULL;

    xg_assert(t->mlength <= sizeof(fetched));
    xg_nic_atomic_apply(t->id.atomic_op, t->id.atomic_type, &t->me->region,
                        t->moffset, t->payload, t->operand, fetch, t->mlength);
    t->payload = NULL;
    if (fetch != NULL) {
        tgt_send_reply(ni, t, PTL_NI_OK, NULL, fetch, t->mlength, 0);
    }
    return XG_TGT_COMPLETE;
}

static xg_nic_tgt_state_t tgt_reply(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    xg_status_t status;

    /* the GET event may only follow once the data has been read */
    t->state = XG_TGT_WAIT_REPLY;
    status =
        tgt_send_reply(ni, t, PTL_NI_OK, &t->me->region, NULL, t->mlength, 1);
    if (status == XG_OK) {
        return XG_TGT_COMPLETE;
    }
    if (status == XG_INPROGRESS) {
        return XG_TGT_WAIT_REPLY;
    }
    return XG_TGT_COMPLETE; /* the initiator is gone: finish locally */
}

static xg_nic_tgt_state_t tgt_wait_reply(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    (void)ni;
    return t->end.reply_done ? XG_TGT_COMPLETE : XG_TGT_WAIT;
}

static xg_nic_tgt_state_t tgt_complete(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    xg_nic_me_t *me      = t->me;
    xg_nic_uh_t *claimed = NULL;
    ptl_event_t ev;

    if (xg_unlikely(t->hook.set != NULL) && !xg_nic_hook_complete(t)) {
        return XG_TGT_WAIT; /* the completion handler first */
    }
    if (t->uh != NULL) {
        /* the data is in the overflow entry: the header, listed since
         * CLAIM, is complete -- or was claimed meanwhile and is owed */
        if (t->claim.on) {
            claimed = t->uh;
        } else {
            t->uh->pending = NULL;
        }
        t->uh = NULL;
    }
    if (!(me->options & PTL_ME_EVENT_COMM_DISABLE) &&
        (t->hook.fail || !(me->options & PTL_ME_EVENT_SUCCESS_DISABLE))) {
        xg_nic_tgt_event_init(&ev, xg_nic_tgt_event_kind(t->kind, 0), &t->id,
                              t->initiator);
        ev.start        = xg_nic_region_addr(&me->region, t->moffset);
        ev.user_ptr     = me->user_ptr;
        ev.mlength      = t->mlength;
        ev.ptl_list     = (ptl_list_t)t->list;
        ev.ni_fail_type = t->hook.fail ? PTL_NI_DROPPED : PTL_NI_OK;
        xg_nic_tgt_post(ni, t->pt, &ev);
    }
    tgt_count_on(ni, me->options, me->ct, PTL_ME_EVENT_CT_COMM, t->mlength,
                 t->hook.fail);
    if (t->end.unlink_after) {
        xg_nic_me_auto_unlink(ni, me);
    }
    if (claimed != NULL) {
        /* after the overflow entry's own event, as a later append's */
        tgt_finish_claim(ni, t, claimed, PTL_NI_OK);
    }
    me->inflight--;
    t->pt->inflight--;
    xg_nic_me_release(ni, me);
    t->me = NULL;
    if (t->held_data != NULL) {
        xg_nic_held_free(ni, t->held_data, t->held_len);
        t->held_data = NULL;
    }
    if ((t->kind == XG_WIRE_PUT) || (t->kind == XG_WIRE_ATOMIC)) {
        return XG_TGT_ACK;
    }
    return XG_TGT_DONE;
}

static xg_nic_tgt_state_t tgt_ack(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    /* a held message is acknowledged when it is finally delivered */
    if (t->rndv.ack_later) {
        return XG_TGT_DONE;
    }
    if (t->hook.fail) {
        /* a handler failed it: reported as a drop is */
        xg_nic_tgt_send_ack(ni, t, PTL_NI_DROPPED, 0);
    } else if (t->id.ack_req != PTL_NO_ACK_REQ) {
        /* with acknowledgements disabled the initiator still learns that
         * its MD is free of the operation, but reports nothing */
        xg_nic_tgt_send_ack(ni, t, PTL_NI_OK,
                            t->end.ack_disabled ? XG_WIRE_F_QUIET : 0);
    }
    return XG_TGT_DONE;
}

static xg_nic_tgt_state_t tgt_drop(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    xg_nic_rx_t *rx;

    xg_nic_sr_inc(ni, t->end.drop_reason);
    xg_debug("nic", "dropped %s from PE %u on portal %u: fail type %u",
             xg_nic_wire_type_name(t->kind), t->src_rank, t->id.pt_index,
             t->end.fail);
    if (tgt_wants_reply(t)) {
        tgt_send_reply(ni, t, t->end.fail, NULL, NULL, 0, 0);
    } else {
        /* failures are reported even when no acknowledgement was asked;
         * a rendezvous initiator also learns it may post its SEND */
        xg_nic_tgt_send_ack(ni, t, t->end.fail,
                            t->rndv.on ? XG_WIRE_F_RNDV : 0);
    }
    if (tgt_is_put(t) && !t->rndv.on && (t->payload_len < t->id.rlength)) {
        rx       = tgt_rx(ni, t);
        rx->kind = XG_RX_DISCARD;
        rx->ni   = (uint8_t)ni->index;
        rx->next = t->payload_len;
        rx->end  = t->id.rlength;
    }
    return XG_TGT_DONE;
}

static const tgt_state_func_t tgt_states[XG_TGT_STATE_LAST] = {
    [XG_TGT_START] = tgt_start,       [XG_TGT_MATCH] = tgt_match,
    [XG_TGT_CHECK] = tgt_check,       [XG_TGT_CLAIM] = tgt_claim,
    [XG_TGT_DATA] = tgt_data,         [XG_TGT_WAIT_DATA] = tgt_wait_data,
    [XG_TGT_PULL] = tgt_pull,         [XG_TGT_WAIT_PULL] = tgt_wait_pull,
    [XG_TGT_HOLD] = tgt_hold,         [XG_TGT_ATOMIC] = tgt_atomic,
    [XG_TGT_REPLY] = tgt_reply,       [XG_TGT_WAIT_REPLY] = tgt_wait_reply,
    [XG_TGT_COMPLETE] = tgt_complete, [XG_TGT_ACK] = tgt_ack,
    [XG_TGT_DROP] = tgt_drop,
};

/* Runs @t until it finishes (and is freed) or waits. */
void xg_nic_tgt_run(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    xg_nic_tgt_state_t next;

    if (t->run.running) {
        return; /* a resume from inside a state: the loop continues */
    }
    t->run.running = 1;
    for (;;) {
        next = tgt_states[t->state](ni, t);
        if (xg_unlikely(xg_log_level >= XG_LOG_DEBUG)) {
            xg_debug("nic", "target %s from PE %u: %s -> %s",
                     xg_nic_wire_type_name(t->kind), t->src_rank,
                     xg_nic_tgt_state_name(t->state),
                     xg_nic_tgt_state_name(next));
        }
        if (t->run.aborted) {
            tgt_free(ni, t); /* xg_nic_tgt_abort() ran inside the state */
            return;
        }
        if (next == XG_TGT_WAIT) {
            t->run.running = 0;
            if (t->run.resumed) {
                t->run.resumed = 0;
                t->run.running = 1;
                continue;
            }
            return;
        }
        t->state = next;
        if (next == XG_TGT_DONE) {
            tgt_free(ni, t);
            return;
        }
    }
}

void xg_nic_tgt_resume(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    if (t->state == XG_TGT_WAIT_REPLY) {
        t->end.reply_done = 1;
    }
    if (t->run.running) {
        t->run.resumed = 1; /* the running loop re-checks its wait state */
        return;
    }
    xg_nic_tgt_run(ni, t);
}

void xg_nic_tgt_abort(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    tgt_unclaim(ni, t);
    if (tgt_is_put(t) || (t->kind == XG_WIRE_ATOMIC)) {
        xg_nic_tgt_send_ack(ni, t, PTL_NI_DROPPED,
                            t->rndv.on ? XG_WIRE_F_RNDV : 0);
    }
    xg_nic_sr_inc(ni, PTL_SR_DROP_COUNT);
    if (t->run.running) {
        /* inside xg_nic_tgt_run: let it end there */
        t->state       = XG_TGT_DONE;
        t->run.aborted = 1;
        return;
    }
    tgt_free(ni, t);
}

/* ------------------------------------------------------------------------
 * Entry points from the receive path
 * --------------------------------------------------------------------- */

/* Fills what request @hdr says of itself into target operation @t (the
 * rest is the caller's): the one place a target reads a request's header.
 * @data: the payload bytes that came with it.  Only a put comes by
 * rendezvous (xg_nic_wire_parse refuses the flag on any other request). */
static void tgt_from_wire(xg_nic_tgt_t *t, const xg_nic_wire_t *hdr,
                          const uint8_t *data)
{
    t->kind = hdr->type;
    t->rndv.on =
        (hdr->type == XG_WIRE_PUT) && ((hdr->flags & XG_WIRE_F_RNDV) != 0);
    t->src_rank = hdr->src_rank;
    t->id       = hdr->id;
    memcpy(t->operand, hdr->operand, sizeof(t->operand));
    t->payload     = data;
    t->payload_len = hdr->payload;
}

void xg_nic_tgt_refuse(xg_nic_ni_t *ni, const xg_nic_wire_t *hdr)
{
    xg_nic_tgt_t tmp;
    xg_nic_rx_t *rx;

    memset(&tmp, 0, sizeof(tmp));
    tgt_from_wire(&tmp, hdr, NULL);
    xg_debug("nic", "%s from PE %u for NI %u, which is not open: refused",
             xg_nic_wire_type_name(tmp.kind), tmp.src_rank, ni->index);
    /* the initiator hears of it (a waiting initiator would hang
     * otherwise): it may try again once this process has opened the NI */
    if (tgt_wants_reply(&tmp)) {
        tgt_send_reply(ni, &tmp, PTL_NI_UNDELIVERABLE, NULL, NULL, 0, 0);
    } else {
        xg_nic_tgt_send_ack(ni, &tmp, PTL_NI_UNDELIVERABLE,
                            tmp.rndv.on ? XG_WIRE_F_RNDV : 0);
    }
    if ((tmp.kind != XG_WIRE_GET) && !tmp.rndv.on &&
        (tmp.payload_len < tmp.id.rlength)) {
        rx       = tgt_rx(ni, &tmp);
        rx->kind = XG_RX_DISCARD;
        rx->ni   = (uint8_t)ni->index;
        rx->next = tmp.payload_len;
        rx->end  = tmp.id.rlength;
    }
}

void xg_nic_tgt_rx_request(xg_nic_ni_t *ni, xg_nic_peer_t *peer,
                           const xg_nic_wire_t *hdr, const uint8_t *data)
{
    xg_nic_tgt_t *t = xg_pool_alloc(&ni->tgt_pool);

    (void)peer;
    if (t == NULL) {
        /* no context left: say so without one */
        xg_nic_tgt_t tmp;

        memset(&tmp, 0, sizeof(tmp));
        tgt_from_wire(&tmp, hdr, data);
        tmp.end.fail = PTL_NI_DROPPED;
        tgt_drop(ni, &tmp);
        return;
    }
    t->ni    = ni;
    t->state = XG_TGT_START;
    tgt_from_wire(t, hdr, data);
    xg_nic_source_id(ni, hdr->src_rank, &t->initiator, &t->src_key);
    if (!ni->matching) {
        t->id.match_bits = 0;
    }
    t->end.drop_reason = PTL_SR_DROP_COUNT;
    xg_nic_tgt_run(ni, t);
}

void xg_nic_tgt_rx_data(xg_nic_ni_t *ni, xg_nic_rx_t *rx, const uint8_t *data,
                        uint32_t len)
{
    xg_nic_tgt_t *t = rx->tgt;

    xg_nic_tgt_land(t, rx->next, data, len);
    rx->next += len;
    if (rx->next == rx->end) {
        rx->kind = XG_RX_IDLE;
        xg_nic_tgt_resume(ni, t);
    }
}

void xg_nic_tgt_rx_rndv_data(xg_nic_ni_t *ni, xg_nic_peer_t *peer,
                             const xg_nic_wire_t *hdr, const uint8_t *data)
{
    xg_nic_tgt_t *t = xg_pool_lookup(&ni->tgt_pool, (uint32_t)hdr->tgt_cookie);
    xg_nic_rx_t *rx = &peer->rx;

    if ((t == NULL) || (hdr->tgt_cookie > UINT32_MAX) ||
        (t->state != XG_TGT_WAIT_PULL) || (t->src_rank != hdr->src_rank) ||
        (hdr->offset != t->landed) || (hdr->mlength != t->expect - t->eager)) {
        /* not an answer we are waiting for: swallow it */
        atomic_fetch_add_explicit(&ni->nic->rx_dropped, 1,
                                  memory_order_relaxed);
        if (hdr->payload < hdr->mlength) {
            rx->kind = XG_RX_DISCARD;
            rx->ni   = (uint8_t)ni->index;
            rx->next = hdr->offset + hdr->payload;
            rx->end  = hdr->offset + hdr->mlength;
        }
        return;
    }
    xg_nic_tgt_land(t, hdr->offset, data, hdr->payload);
    if (t->landed < t->expect) {
        rx->kind = XG_RX_TGT;
        rx->ni   = (uint8_t)ni->index;
        rx->tgt  = t;
        rx->next = hdr->offset + hdr->payload;
        rx->end  = hdr->offset + hdr->mlength;
        return;
    }
    xg_nic_tgt_resume(ni, t);
}
