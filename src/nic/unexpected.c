/*
 * Unexpected delivery: a priority append (or a search) meets an
 * unexpected header.  A complete message gets its overflow event; a
 * message whose data is still landing in the overflow entry is claimed
 * (the taker is owed its event, given when the data is complete, see
 * target.c); a held rendezvous put is delivered straight into the new
 * entry -- the bytes kept in the buddy store, then the rest pulled from
 * the initiator.  Everything runs under the NI lock.
 */
#include "nic/xg_nic_uh_int.h"

#include <string.h>

#include "nic/xg_nic_me_int.h"
#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_pt_int.h"
#include "nic/xg_nic_tgt_int.h"
#include "nic/xg_nic_wire_int.h"

/* Fills what held header @uh recorded of its request into target
 * operation @t: a held message is a rendezvous put (target.c holds no
 * other). */
static void uh_tgt_from_held(xg_nic_tgt_t *t, const xg_nic_uh_t *uh)
{
    t->kind      = XG_WIRE_PUT;
    t->rndv.on   = 1;
    t->src_rank  = uh->src_rank;
    t->id        = uh->id;
    t->initiator = uh->initiator;
    t->src_key   = uh->src_key;
}

/* Lets a held initiator go without delivering (search-delete, teardown):
 * its SEND comes with the RNDV_GET, then the acknowledgement. */
static void uh_release_initiator(xg_nic_ni_t *ni, const xg_nic_uh_t *uh,
                                 ptl_ni_fail_t fail)
{
    xg_nic_tgt_t tmp;

    memset(&tmp, 0, sizeof(tmp));
    uh_tgt_from_held(&tmp, uh);
    tmp.list = PTL_OVERFLOW_LIST;
    xg_nic_tgt_send_ack(ni, &tmp, fail, XG_WIRE_F_RNDV);
}

void xg_nic_uh_destroy(xg_nic_ni_t *ni, xg_nic_uh_t *uh, int tell_initiator)
{
    if (uh->held) {
        if (tell_initiator) {
            uh_release_initiator(ni, uh, PTL_NI_DROPPED);
        }
        xg_nic_held_free(ni, uh->held_data, uh->held_len);
        uh->held_data = NULL;
    }
    if (uh->me != NULL) {
        uh->me->uh_refs--;
        xg_nic_me_release(ni, uh->me);
        uh->me = NULL;
    }
    xg_pool_free(&ni->uh_pool, uh);
}

void xg_nic_uh_event(xg_nic_ni_t *ni, xg_nic_pt_t *pt, const xg_nic_uh_t *uh,
                     ptl_event_kind_t type, void *user_ptr, ptl_ni_fail_t fail)
{
    ptl_event_t ev;

    xg_nic_tgt_event_init(&ev, type, &uh->id, uh->initiator);
    ev.start        = uh->start;
    ev.user_ptr     = user_ptr;
    ev.mlength      = uh->mlength;
    ev.ptl_list     = PTL_OVERFLOW_LIST;
    ev.ni_fail_type = fail;
    xg_nic_tgt_post(ni, pt, &ev);
}

/* A held rendezvous put meets its priority entry: deliver straight into
 * it -- the bytes we kept, then the rest pulled from the initiator. */
static void uh_deliver_held(xg_nic_ni_t *ni, xg_nic_pt_t *pt, xg_nic_uh_t *uh,
                            xg_nic_me_t *me)
{
    xg_nic_tgt_t *t = xg_pool_alloc(&ni->tgt_pool);
    ptl_size_t room;

    if (t == NULL) {
        /* no context: report as an overflow with nothing delivered */
        xg_nic_uh_event(ni, pt, uh, PTL_EVENT_PUT_OVERFLOW, me->user_ptr,
                        PTL_NI_OK);
        uh_release_initiator(ni, uh, PTL_NI_DROPPED);
        uh->held = 0;
        xg_nic_uh_destroy(ni, uh, 0);
        return;
    }
    t->ni = ni;
    uh_tgt_from_held(t, uh);
    t->pt              = pt;
    t->list            = PTL_PRIORITY_LIST;
    t->end.drop_reason = PTL_SR_DROP_COUNT;
    t->me              = me;
    /* claim the priority entry as a fresh match would */
    t->moffset =
        (me->options & PTL_ME_MANAGE_LOCAL) ? me->local_offset : t->id.roffset;
    room =
        (t->moffset > me->region.length) ? 0 : me->region.length - t->moffset;
    t->mlength = (t->id.rlength < room) ? t->id.rlength : room;
    if (me->options & PTL_ME_MANAGE_LOCAL) {
        me->local_offset += t->mlength;
        if ((me->min_free != 0) &&
            (me->region.length - me->local_offset < me->min_free)) {
            t->end.unlink_after = 1;
            me->consumed        = 1; /* the append does not link it */
        }
    }
    if (me->options & PTL_ME_USE_ONCE) {
        t->end.unlink_after = 1;
        me->consumed        = 1;
    }
    t->end.ack_disabled = (me->options & PTL_ME_ACK_DISABLE) != 0;
    if (me->hooks != NULL) {
        xg_nic_hook_claim(t, me->hooks);
    }
    me->inflight++;
    pt->inflight++;
    xg_nic_tgt_land(t, 0, uh->held_data, uh->held_len);
    t->eager = uh->held_len;
    t->expect =
        t->eager + ((t->mlength > t->eager) ? t->mlength - t->eager : 0);
    t->held_data  = uh->held_data; /* freed when the operation ends */
    t->held_len   = uh->held_len;
    uh->held_data = NULL;
    uh->held      = 0;
    xg_nic_uh_destroy(ni, uh, 0);
    t->state = XG_TGT_PULL;
    xg_nic_tgt_run(ni, t);
}

/* An append or search-delete takes a header whose data is still landing
 * in the overflow entry: what it is owed is recorded on the message and
 * given when the message completes (tgt_finish_claim). */
static void uh_claim_pending(xg_nic_pt_t *pt, xg_nic_uh_t *uh, xg_nic_me_t *me,
                             int search, void *user_ptr)
{
    xg_nic_tgt_t *t = uh->pending;

    uh->pending       = NULL;
    t->claim.on       = 1;
    t->claim.events   = !(me->options & PTL_ME_EVENT_OVER_DISABLE);
    t->claim.options  = me->options;
    t->claim.ct       = me->ct;
    t->claim.user_ptr = user_ptr;
    if (search == 0) {
        /* the entry stays until then (PtlMEUnlink says PTL_IN_USE) */
        t->claim.me = me;
        me->inflight++;
        pt->inflight++;
        t->claim.unlink = (me->options & PTL_ME_USE_ONCE) != 0;
    }
}

void xg_nic_tgt_take_header(xg_nic_ni_t *ni, xg_nic_uh_t *uh, xg_nic_me_t *me,
                            int search, void *user_ptr)
{
    xg_nic_pt_t *pt = me->pt;
    int events      = !(me->options & PTL_ME_EVENT_OVER_DISABLE);

    if (search == 1) {
        /* PTL_SEARCH_ONLY: report, count (4.3), keep the header */
        if (events) {
            xg_nic_uh_event(ni, pt, uh, PTL_EVENT_SEARCH, user_ptr, PTL_NI_OK);
        }
        xg_nic_tgt_count(ni, me, PTL_ME_EVENT_CT_OVERFLOW, uh->mlength);
        return;
    }
    xg_nic_uh_remove(pt, uh);
    if (uh->pending != NULL) {
        uh_claim_pending(pt, uh, me, search, user_ptr);
        return;
    }
    if (uh->held && (search == 0)) {
        uh_deliver_held(ni, pt, uh, me);
        return;
    }
    if (events) {
        xg_nic_uh_event(ni, pt, uh, xg_nic_tgt_event_kind(uh->kind, 1),
                        user_ptr, PTL_NI_OK);
    }
    xg_nic_tgt_count(ni, me, PTL_ME_EVENT_CT_OVERFLOW, uh->mlength);
    if (uh->held) {
        /* deleted by a search: the initiator is released, nothing moved */
        uh_release_initiator(ni, uh, PTL_NI_OK);
    }
    xg_nic_uh_destroy(ni, uh, 0);
}
