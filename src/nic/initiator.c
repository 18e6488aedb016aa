/*
 * The initiator side: issuing puts, gets and atomics (now or as triggered
 * operations), and handling what comes back -- acknowledgements, replies
 * and the rendezvous requests of targets pulling a large put.
 *
 * An initiator keeps no table of operations in flight: each request carries
 * its MD handle, local offset and user pointer, and the responses echo
 * them.  An MD counts the operations in flight on it (`pending`), so
 * PtlMDRelease waits (bounded) while data or events are outstanding (see
 * md.c), and an
 * echoed handle is looked up (and bounds-checked) before use.
 *
 * Protocols for puts: up to XGAS_NIC_EAGER_LIMIT bytes travel with the
 * header (eager); beyond it the header carries XGAS_NIC_RNDV_EAGER bytes
 * and the target pulls the rest with RNDV_GET (rendezvous).  PTL_EVENT_SEND
 * of a rendezvous put comes once the target has pulled everything it wants.
 */
#include <string.h>

#include "base/xg_log.h"
#include "base/xg_pool.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_ct_int.h"
#include "nic/xg_nic_eq_int.h"
#include "nic/xg_nic_initiator_int.h"
#include "nic/xg_nic_md_int.h"
#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_obj_int.h"
#include "nic/xg_nic_region_int.h"
#include "nic/xg_nic_tx_int.h"
#include "nic/xg_nic_wire_int.h"

/* An initiator event of message @id (its user pointer). */
static void init_event_base(ptl_event_t *ev, ptl_event_kind_t type,
                            const xg_nic_msg_id_t *id, ptl_process_t peer,
                            ptl_ni_fail_t fail)
{
    memset(ev, 0, sizeof(*ev));
    ev->type         = type;
    ev->user_ptr     = (void *)(uintptr_t)id->user_ptr;
    ev->initiator    = peer;
    ev->ni_fail_type = fail;
}

/* Counts an initiator event on the MD's counter if @option is set. */
static void md_count(xg_nic_ni_t *ni, const xg_nic_md_t *md, unsigned option,
                     ptl_ni_fail_t fail, uint64_t bytes)
{
    xg_nic_ct_t *ct;

    if (!(md->options & option)) {
        return;
    }
    ct = xg_nic_ct_of(ni, md->ct);
    if (ct == NULL) {
        return;
    }
    if (fail != PTL_NI_OK) {
        xg_nic_ct_add(ni, ct, 0, 1);
    } else {
        xg_nic_ct_add(ni, ct, (md->options & PTL_MD_EVENT_CT_BYTES) ? bytes : 1,
                      0);
    }
}

static void md_post(xg_nic_ni_t *ni, const xg_nic_md_t *md,
                    const ptl_event_t *ev)
{
    xg_nic_eq_t *eq = xg_nic_eq_of(ni, md->eq);

    if ((eq == NULL) || ((ev->ni_fail_type == PTL_NI_OK) &&
                         (md->options & PTL_MD_EVENT_SUCCESS_DISABLE))) {
        return;
    }
    xg_nic_eq_post(eq, ev);
}

void xg_nic_send_event(xg_nic_ni_t *ni, const xg_nic_txdone_t *done,
                       ptl_ni_fail_t fail)
{
    xg_nic_md_t *md = xg_pool_lookup(&ni->md_pool, done->id.md);
    ptl_event_t ev;

    if (md == NULL) {
        return;
    }
    if (!(md->options & PTL_MD_EVENT_SEND_DISABLE)) {
        init_event_base(&ev, PTL_EVENT_SEND, &done->id, done->target, fail);
        ev.mlength       = done->id.rlength;
        ev.rlength       = done->id.rlength;
        ev.remote_offset = done->id.roffset;
        ev.pt_index      = done->id.pt_index;
        ev.match_bits    = done->id.match_bits;
        ev.hdr_data      = done->id.hdr_data;
        ev.uid           = ni->nic->uid;
        ev.jid           = ni->nic->jid;
        md_post(ni, md, &ev);
    }
    md_count(ni, md, PTL_MD_EVENT_CT_SEND, fail, done->id.rlength);
    /* no response will come: the MD is free of this operation */
    if (!done->expect_response || (fail != PTL_NI_OK)) {
        xg_nic_md_put(md);
    }
}

/* ------------------------------------------------------------------------
 * Issuing
 * --------------------------------------------------------------------- */

static xg_nic_md_t *op_md(xg_nic_ni_t *ni, const char *fn,
                          ptl_handle_md_t handle, ptl_size_t offset,
                          ptl_size_t length, const char *what)
{
    xg_nic_md_t *md = xg_pool_lookup(&ni->md_pool, handle);

    if (md == NULL) {
        xg_warn("ptl",
                "%s: %s %#x is not a memory descriptor of this NI "
                "(released?)",
                fn, what, handle);
        return NULL;
    }
    if ((offset > md->region.length) || (length > md->region.length - offset)) {
        xg_warn("ptl",
                "%s: %s offset %llu + length %llu runs past the end "
                "of the MD (%llu bytes)",
                fn, what, (unsigned long long)offset,
                (unsigned long long)length,
                (unsigned long long)md->region.length);
        return NULL;
    }
    return md;
}

/* The acknowledgement actually requested: one that could report nothing
 * (no EQ and no ACK counting) is not asked for. */
static ptl_ack_req_t op_ack(xg_nic_ni_t *ni, const xg_nic_md_t *md,
                            ptl_ack_req_t ack_req)
{
    int counts = (md->options & PTL_MD_EVENT_CT_ACK) &&
                 (xg_nic_ct_of(ni, md->ct) != NULL);

    switch (ack_req) {
    case PTL_ACK_REQ:
        return ((xg_nic_eq_of(ni, md->eq) != NULL) || counts) ? ack_req
                                                              : PTL_NO_ACK_REQ;
    case PTL_CT_ACK_REQ:
    case PTL_OC_ACK_REQ: return counts ? ack_req : PTL_NO_ACK_REQ;
    default: return PTL_NO_ACK_REQ;
    }
}

static void op_header(xg_nic_ni_t *ni, xg_nic_wire_t *hdr,
                      xg_nic_wire_type_t type, const xg_nic_op_t *op)
{
    xg_nic_wire_init(hdr, type, ni->index, (uint32_t)ni->nic->rank);
    hdr->id.pt_index    = op->pt_index;
    hdr->id.uid         = ni->nic->uid;
    hdr->id.jid         = ni->nic->jid;
    hdr->id.match_bits  = op->match_bits;
    hdr->id.hdr_data    = op->hdr_data;
    hdr->id.rlength     = op->length;
    hdr->id.roffset     = op->remote_offset;
    hdr->id.user_ptr    = (uint64_t)(uintptr_t)op->user_ptr;
    hdr->id.atomic_op   = op->atomic_op;
    hdr->id.atomic_type = op->atomic_type;
}

/* The SEND completion of request @hdr, whose data came from MD @md. */
static void op_done(xg_nic_txdone_t *done, const xg_nic_ni_t *ni,
                    const xg_nic_op_t *op, const xg_nic_wire_t *hdr,
                    ptl_handle_md_t md, int expect_response)
{
    memset(done, 0, sizeof(*done));
    done->kind            = XG_TXDONE_SEND;
    done->ni              = (uint8_t)ni->index;
    done->id              = hdr->id;
    done->id.md           = md;
    done->target          = op->target;
    done->expect_response = (uint8_t)expect_response;
}

/* Checks an operation against the NI's objects; fills the MDs and peer. */
static int op_check(xg_nic_ni_t *ni, const xg_nic_op_t *op, const char *fn,
                    xg_nic_md_t **md_p, xg_nic_md_t **put_md_p, int *peer_p)
{
    const xg_nic_md_t *src;
    size_t elem;

    if ((op->kind == XG_NIC_OP_CT_INC) || (op->kind == XG_NIC_OP_CT_SET)) {
        if (xg_nic_ct_of(ni, op->ct) == NULL) {
            xg_warn("ptl", "%s: %#x is not a counting event of this NI", fn,
                    op->ct);
            return PTL_ARG_INVALID;
        }
        return PTL_OK;
    }
    *md_p =
        op_md(ni, fn, op->md, op->local_offset, op->length,
              ((op->kind == XG_NIC_OP_FETCH) || (op->kind == XG_NIC_OP_SWAP))
                  ? "get MD"
                  : "MD");
    if (*md_p == NULL) {
        return PTL_ARG_INVALID;
    }
    if ((op->kind == XG_NIC_OP_FETCH) || (op->kind == XG_NIC_OP_SWAP)) {
        *put_md_p =
            op_md(ni, fn, op->put_md, op->put_offset, op->length, "put MD");
        if (*put_md_p == NULL) {
            return PTL_ARG_INVALID;
        }
    }
    src = ((op->kind == XG_NIC_OP_FETCH) || (op->kind == XG_NIC_OP_SWAP))
              ? *put_md_p
              : ((op->kind == XG_NIC_OP_GET) ? NULL : *md_p);
    if ((src != NULL) && (src->options & PTL_MD_VOLATILE) &&
        (op->length > ni->limits.max_volatile_size)) {
        /* the data must be copied before the call returns: one packet */
        xg_warn("ptl",
                "%s: length %llu from a PTL_MD_VOLATILE MD exceeds "
                "max_volatile_size (%llu) -- send it from an MD without "
                "PTL_MD_VOLATILE and keep the buffer until PTL_EVENT_SEND",
                fn, (unsigned long long)op->length,
                (unsigned long long)ni->limits.max_volatile_size);
        return PTL_ARG_INVALID;
    }
    *peer_p = xg_nic_target_peer(ni, op->target);
    if (*peer_p < 0) {
        if (ni->logical) {
            xg_warn("ptl",
                    "%s: target rank %u is not in the NI's map (%u "
                    "ranks)",
                    fn, op->target.rank, ni->map_size);
        } else {
            xg_warn("ptl",
                    "%s: target nid %u pid %u is not a process of "
                    "this job (%s)",
                    fn, op->target.phys.nid, op->target.phys.pid,
                    xg_nic_phys_range());
        }
        return PTL_ARG_INVALID;
    }
    if (op->length > ni->limits.max_msg_size) {
        xg_warn("ptl", "%s: length %llu exceeds max_msg_size", fn,
                (unsigned long long)op->length);
        return PTL_ARG_INVALID;
    }
    if ((op->kind == XG_NIC_OP_ATOMIC) || (op->kind == XG_NIC_OP_FETCH) ||
        (op->kind == XG_NIC_OP_SWAP)) {
        elem = xg_nic_atomic_size(op->atomic_type);
        if ((op->length > ((op->kind == XG_NIC_OP_ATOMIC)
                               ? ni->limits.max_atomic_size
                               : ni->limits.max_fetch_atomic_size)) ||
            (elem == 0) || (op->length % elem != 0)) {
            xg_warn(
                "ptl",
                "%s: length %llu must be a multiple of the "
                "datatype's %zu bytes and at most %s (%llu)",
                fn, (unsigned long long)op->length, elem,
                (op->kind == XG_NIC_OP_ATOMIC) ? "max_atomic_size"
                                               : "max_fetch_atomic_size",
                (unsigned long long)((op->kind == XG_NIC_OP_ATOMIC)
                                         ? ni->limits.max_atomic_size
                                         : ni->limits.max_fetch_atomic_size));
            return PTL_ARG_INVALID;
        }
    }
    return PTL_OK;
}

static void ack_failed(xg_nic_ni_t *ni, const xg_nic_wire_t *req, int peer,
                       ptl_ni_fail_t fail);

static int issue_put(xg_nic_ni_t *ni, const xg_nic_op_t *op, xg_nic_md_t *md,
                     int peer)
{
    xg_nic_txmsg_t msg;
    ptl_ack_req_t ack = op_ack(ni, md, op->ack_req);
    /* a volatile put (at most max_volatile_size) is never pulled later */
    int rndv =
        (op->length > ni->nic->eager_limit) && !(md->options & PTL_MD_VOLATILE);
    xg_status_t status;

    memset(&msg, 0, sizeof(msg));
    op_header(ni, &msg.hdr, XG_WIRE_PUT, op);
    msg.hdr.id.ack_req = ack;
    msg.hdr.id.md      = op->md;
    msg.hdr.id.loffset = op->local_offset;
    msg.src            = &md->region;
    msg.src_off        = op->local_offset;
    msg.len            = op->length;
    msg.copy           = (md->options & PTL_MD_VOLATILE) != 0;
    if (rndv) {
        msg.hdr.flags |= XG_WIRE_F_RNDV;
        msg.len = ni->nic->rndv_eager;
        if (msg.len > op->length) {
            msg.len = op->length;
        }
        if (msg.len > ni->nic->max_payload) {
            msg.len = ni->nic->max_payload;
        }
    } else {
        op_done(&msg.done, ni, op, &msg.hdr, op->md, ack != PTL_NO_ACK_REQ);
    }
    md->pending++;
    if (!xg_nic_region_mapped(&md->region, op->local_offset, op->length)) {
        /* the source was unmapped after PtlMDBind: nothing is sent */
        xg_warn("ptl",
                "PtlPut: %llu bytes at offset %llu of the MD are not "
                "mapped memory any more (unmapped after PtlMDBind?): "
                "PTL_NI_SEGV, nothing sent",
                (unsigned long long)op->length,
                (unsigned long long)op->local_offset);
        op_done(&msg.done, ni, op, &msg.hdr, op->md, 0);
        xg_nic_send_event(ni, &msg.done, PTL_NI_SEGV);
        ack_failed(ni, &msg.hdr, peer, PTL_NI_SEGV);
        return PTL_OK;
    }
    status = xg_nic_tx(ni, peer, &msg);
    if (status == XG_OK) {
        xg_nic_txdone_run(ni, &msg.done);
    } else if (status != XG_INPROGRESS) {
        op_done(&msg.done, ni, op, &msg.hdr, op->md, 0);
        xg_nic_send_event(ni, &msg.done, PTL_NI_UNDELIVERABLE);
        xg_nic_init_unreachable(ni, &msg.hdr, peer);
    }
    return PTL_OK;
}

static int issue_get(xg_nic_ni_t *ni, const xg_nic_op_t *op, xg_nic_md_t *md,
                     int peer)
{
    xg_nic_txmsg_t msg;
    xg_status_t status;

    memset(&msg, 0, sizeof(msg));
    op_header(ni, &msg.hdr, XG_WIRE_GET, op);
    msg.hdr.id.md      = op->md;
    msg.hdr.id.loffset = op->local_offset;
    md->pending++;
    status = xg_nic_tx(ni, peer, &msg);
    if ((status != XG_OK) && (status != XG_INPROGRESS)) {
        xg_nic_init_unreachable(ni, &msg.hdr, peer);
    }
    return PTL_OK;
}

static int issue_atomic(xg_nic_ni_t *ni, const xg_nic_op_t *op, xg_nic_md_t *md,
                        xg_nic_md_t *put_md, int peer)
{
    static const xg_nic_wire_type_t types[] = {
        [XG_NIC_OP_ATOMIC] = XG_WIRE_ATOMIC,
        [XG_NIC_OP_FETCH]  = XG_WIRE_FETCH,
        [XG_NIC_OP_SWAP]   = XG_WIRE_SWAP,
    };
    xg_nic_txmsg_t msg;
    xg_nic_md_t *data_md = (op->kind == XG_NIC_OP_ATOMIC) ? md : put_md;
    ptl_handle_md_t data_h =
        (op->kind == XG_NIC_OP_ATOMIC) ? op->md : op->put_md;
    ptl_size_t data_off =
        (op->kind == XG_NIC_OP_ATOMIC) ? op->local_offset : op->put_offset;
    ptl_ack_req_t ack = PTL_NO_ACK_REQ;
    xg_status_t status;

    memset(&msg, 0, sizeof(msg));
    op_header(ni, &msg.hdr, types[op->kind], op);
    if (op->kind == XG_NIC_OP_ATOMIC) {
        ack                = op_ack(ni, md, op->ack_req);
        msg.hdr.id.md      = op->md;
        msg.hdr.id.loffset = op->local_offset;
    } else {
        /* the reply lands in the get MD */
        msg.hdr.id.md      = op->md;
        msg.hdr.id.loffset = op->local_offset;
        memcpy(msg.hdr.operand, op->operand, sizeof(msg.hdr.operand));
        md->pending++;
    }
    msg.hdr.id.ack_req = ack;
    msg.src            = &data_md->region;
    msg.src_off        = data_off;
    msg.len            = op->length;
    msg.copy           = (data_md->options & PTL_MD_VOLATILE) != 0;
    op_done(&msg.done, ni, op, &msg.hdr, data_h, ack != PTL_NO_ACK_REQ);
    data_md->pending++;
    status = xg_nic_tx(ni, peer, &msg);
    if (status == XG_OK) {
        xg_nic_txdone_run(ni, &msg.done);
    } else if (status != XG_INPROGRESS) {
        msg.done.expect_response = 0;
        xg_nic_send_event(ni, &msg.done, PTL_NI_UNDELIVERABLE);
        xg_nic_init_unreachable(ni, &msg.hdr, peer);
    }
    return PTL_OK;
}

int xg_nic_issue_locked(xg_nic_ni_t *ni, const xg_nic_op_t *op, const char *fn)
{
    xg_nic_md_t *md = NULL, *put_md = NULL;
    xg_nic_ct_t *ct;
    int ret, peer = -1;

    ret = op_check(ni, op, fn, &md, &put_md, &peer);
    if (ret != PTL_OK) {
        return ret;
    }
    switch (op->kind) {
    case XG_NIC_OP_PUT: return issue_put(ni, op, md, peer);
    case XG_NIC_OP_GET: return issue_get(ni, op, md, peer);
    case XG_NIC_OP_ATOMIC:
    case XG_NIC_OP_FETCH:
    case XG_NIC_OP_SWAP: return issue_atomic(ni, op, md, put_md, peer);
    case XG_NIC_OP_CT_INC:
    case XG_NIC_OP_CT_SET:
        ct = xg_nic_ct_of(ni, op->ct);
        if (op->kind == XG_NIC_OP_CT_INC) {
            xg_nic_ct_add(ni, ct, op->ct_value.success, op->ct_value.failure);
        } else {
            xg_nic_ct_store(ni, ct, op->ct_value.success, op->ct_value.failure);
        }
        return PTL_OK;
    }
    return PTL_ARG_INVALID;
}

xg_status_t xg_nic_status(int ptl_rc)
{
    switch (ptl_rc) {
    case PTL_OK: return XG_OK;
    case PTL_NO_SPACE: return XG_ERR_NO_RESOURCE;
    case PTL_ARG_INVALID: return XG_ERR_INVALID_PARAM;
    default: return XG_ERR_UNREACHABLE;
    }
}

int xg_nic_issue(const char *fn, const xg_nic_op_t *op)
{
    ptl_handle_any_t any =
        ((op->kind == XG_NIC_OP_CT_INC) || (op->kind == XG_NIC_OP_CT_SET))
            ? op->ct
            : op->md;
    xg_nic_ni_t *ni = xg_nic_ni_lookup(
        xg_nic_handle_make(XG_NIC_OBJ_NI, xg_nic_handle_ni(any), 0, 0));
    xg_nic_md_t *md = NULL, *put_md = NULL;
    xg_nic_trig_t *trig;
    xg_nic_ct_t *ct;
    int ret, peer;

    if (ni == NULL) {
        xg_warn("ptl", "%s: %#x does not belong to an open NI", fn, any);
        return PTL_ARG_INVALID;
    }
    if ((op->kind == XG_NIC_OP_FETCH || op->kind == XG_NIC_OP_SWAP) &&
        (xg_nic_handle_ni(op->put_md) != ni->index)) {
        xg_warn("ptl", "%s: the get and put MDs belong to different NIs", fn);
        return PTL_ARG_INVALID;
    }
    xg_nic_tx_throttle(ni->nic);
    pthread_mutex_lock(&ni->lock);
    if (op->trig_ct == PTL_CT_NONE) {
        ret = xg_nic_issue_locked(ni, op, fn);
        goto out_unlock;
    }
    ct = (xg_nic_handle_ni(op->trig_ct) == ni->index)
             ? xg_nic_ct_of(ni, op->trig_ct)
             : NULL;
    if (ct == NULL) {
        xg_warn("ptl",
                "%s: trigger counter %#x is not a counting event of "
                "the operation's NI",
                fn, op->trig_ct);
        ret = PTL_ARG_INVALID;
        goto out_unlock;
    }
    ret = op_check(ni, op, fn, &md, &put_md, &peer);
    if (ret != PTL_OK) {
        goto out_unlock;
    }
    trig = xg_nic_trig_new(ni, fn);
    if (trig == NULL) {
        ret = PTL_NO_SPACE;
        goto out_unlock;
    }
    trig->kind      = XG_TRIG_OP;
    trig->op        = *op;
    trig->threshold = op->threshold;
    ret             = xg_nic_trig_add(ni, ct, trig);
out_unlock:
    pthread_mutex_unlock(&ni->lock);
    return ret;
}

/* ------------------------------------------------------------------------
 * Responses
 * --------------------------------------------------------------------- */

/* The events and counts of acknowledgement @hdr; @release: drop the MD
 * reference the operation kept for it. */
static void ack_apply(xg_nic_ni_t *ni, xg_nic_md_t *md,
                      const xg_nic_wire_t *hdr, int release)
{
    ptl_ni_fail_t fail = hdr->fail;
    ptl_event_t ev;
    xg_nic_txdone_t done;
    int full;

    if (hdr->flags & XG_WIRE_F_QUIET) {
        if (hdr->id.ack_req != PTL_NO_ACK_REQ) {
            xg_nic_md_put(md);
        }
        return;
    }
    if (hdr->flags & XG_WIRE_F_RNDV) {
        /* a rendezvous put the target dropped: its SEND was pending */
        memset(&done, 0, sizeof(done));
        done.id              = hdr->id;
        done.target          = xg_nic_peer_id(ni, hdr->src_rank);
        done.expect_response = hdr->id.ack_req != PTL_NO_ACK_REQ;
        xg_nic_send_event(ni, &done, PTL_NI_OK);
    }
    switch (hdr->id.ack_req) {
    case PTL_ACK_REQ:
        full = 1;
        md_count(ni, md, PTL_MD_EVENT_CT_ACK, fail, hdr->mlength);
        break;
    case PTL_CT_ACK_REQ:
        full = 0;
        md_count(ni, md, PTL_MD_EVENT_CT_ACK, fail, hdr->mlength);
        break;
    case PTL_OC_ACK_REQ:
        /* operation completed: counted whatever happened at the target */
        full = 0;
        md_count(ni, md, PTL_MD_EVENT_CT_ACK, PTL_NI_OK, 1);
        break;
    default:
        /* no acknowledgement asked: only failures come back */
        full = (fail != PTL_NI_OK) &&
               !(md->options & PTL_MD_REMOTE_FAILURE_DISABLE);
        if (fail != PTL_NI_OK) {
            md_count(ni, md, PTL_MD_EVENT_CT_ACK, fail, 0);
        }
        break;
    }
    if (full) {
        init_event_base(&ev, PTL_EVENT_ACK, &hdr->id,
                        xg_nic_peer_id(ni, hdr->src_rank), fail);
        ev.mlength       = hdr->mlength;
        ev.rlength       = hdr->id.rlength;
        ev.remote_offset = hdr->id.roffset;
        ev.pt_index      = hdr->id.pt_index;
        ev.match_bits    = hdr->id.match_bits;
        ev.ptl_list      = (ptl_list_t)hdr->list;
        ev.uid           = ni->nic->uid;
        ev.jid           = ni->nic->jid;
        md_post(ni, md, &ev);
    }
    if (release && (hdr->id.ack_req != PTL_NO_ACK_REQ)) {
        xg_nic_md_put(md);
    }
}

void xg_nic_init_rx_ack(xg_nic_ni_t *ni, const xg_nic_wire_t *hdr)
{
    xg_nic_md_t *md = xg_pool_lookup(&ni->md_pool, hdr->id.md);

    if (md == NULL) {
        return; /* released after a no-ack put: nobody to tell */
    }
    ack_apply(ni, md, hdr, 1);
}

/* The REPLY a refusing target would send for get-like request @req. */
static void reply_undeliverable(xg_nic_ni_t *ni, const xg_nic_wire_t *req,
                                int peer)
{
    xg_nic_md_t *md = xg_pool_lookup(&ni->md_pool, req->id.md);
    ptl_event_t ev;

    if (md == NULL) {
        return;
    }
    init_event_base(&ev, PTL_EVENT_REPLY, &req->id,
                    xg_nic_peer_id(ni, (uint32_t)peer), PTL_NI_UNDELIVERABLE);
    ev.rlength       = req->id.rlength;
    ev.remote_offset = req->id.roffset;
    ev.uid           = ni->nic->uid;
    ev.jid           = ni->nic->jid;
    md_post(ni, md, &ev);
    md_count(ni, md, PTL_MD_EVENT_CT_REPLY, PTL_NI_UNDELIVERABLE, 0);
    xg_nic_md_put(md);
}

/* The ACK a refusing target would send for put-like request @req (by the
 * usual acknowledgement rules), without the MD reference: the failed
 * SEND released it. */
static void ack_failed(xg_nic_ni_t *ni, const xg_nic_wire_t *req, int peer,
                       ptl_ni_fail_t fail)
{
    xg_nic_md_t *md   = xg_pool_lookup(&ni->md_pool, req->id.md);
    xg_nic_wire_t ack = *req;

    if (md == NULL) {
        return;
    }
    ack.type     = XG_WIRE_ACK;
    ack.flags    = 0;
    ack.fail     = (uint8_t)fail;
    ack.mlength  = 0;
    ack.list     = PTL_PRIORITY_LIST;
    ack.src_rank = (uint32_t)peer;
    ack_apply(ni, md, &ack, 0);
}

/* A request could not leave at all: @peer has no open endpoint (it never
 * initialized, finalized or ended).  The initiator hears exactly what a
 * live target that refuses it would say (PTL_NI_UNDELIVERABLE in the ACK
 * or REPLY), after a failed SEND for what carries data.  @sent_fail: the
 * SEND (and its MD reference) was already handled by the caller. */
void xg_nic_init_unreachable(xg_nic_ni_t *ni, const xg_nic_wire_t *req,
                             int peer)
{
    switch ((xg_nic_wire_type_t)req->type) {
    case XG_WIRE_PUT:
    case XG_WIRE_ATOMIC: ack_failed(ni, req, peer, PTL_NI_UNDELIVERABLE); break;
    case XG_WIRE_GET:
    case XG_WIRE_FETCH:
    case XG_WIRE_SWAP: reply_undeliverable(ni, req, peer); break;
    default: break; /* a response to a gone initiator: nobody to tell */
    }
}

static void reply_done(xg_nic_ni_t *ni, const xg_nic_rx_t *rx)
{
    xg_nic_md_t *md = xg_pool_lookup(&ni->md_pool, rx->id.md);
    ptl_event_t ev;

    if (md == NULL) {
        return;
    }
    init_event_base(&ev, PTL_EVENT_REPLY, &rx->id,
                    xg_nic_peer_id(ni, rx->src_rank), rx->fail);
    ev.mlength       = rx->mlength;
    ev.rlength       = rx->id.rlength;
    ev.remote_offset = rx->id.roffset;
    ev.ptl_list      = (ptl_list_t)rx->list;
    ev.start         = xg_nic_region_addr(&md->region, rx->id.loffset);
    ev.uid           = ni->nic->uid;
    ev.jid           = ni->nic->jid;
    md_post(ni, md, &ev);
    md_count(ni, md, PTL_MD_EVENT_CT_REPLY, rx->fail, rx->mlength);
    xg_nic_md_put(md);
}

void xg_nic_init_rx_reply(xg_nic_ni_t *ni, xg_nic_peer_t *peer,
                          const xg_nic_wire_t *hdr, const uint8_t *data)
{
    xg_nic_rx_t *rx = &peer->rx;
    xg_nic_md_t *md = xg_pool_lookup(&ni->md_pool, hdr->id.md);

    memset(rx, 0, sizeof(*rx));
    rx->ni          = (uint8_t)ni->index;
    rx->incarnation = ni->incarnation;
    rx->next        = hdr->payload;
    rx->end         = hdr->mlength;
    rx->id          = hdr->id;
    rx->mlength     = hdr->mlength;
    rx->fail        = hdr->fail;
    rx->list        = (uint8_t)hdr->list;
    rx->src_rank    = hdr->src_rank;
    if ((md == NULL) || (md->pending == 0) ||
        (hdr->id.loffset > md->region.length) ||
        (hdr->id.rlength > md->region.length - hdr->id.loffset)) {
        /* not ours (any more): swallow the data */
        atomic_fetch_add_explicit(&ni->nic->rx_dropped, 1,
                                  memory_order_relaxed);
        rx->kind = (rx->next < rx->end) ? XG_RX_DISCARD : XG_RX_IDLE;
        return;
    }
    xg_nic_region_write(&md->region, hdr->id.loffset, data, hdr->payload);
    if (rx->next < rx->end) {
        rx->kind = XG_RX_REPLY;
        return;
    }
    rx->kind = XG_RX_IDLE;
    reply_done(ni, rx);
}

void xg_nic_init_rx_reply_data(xg_nic_ni_t *ni, xg_nic_rx_t *rx,
                               const uint8_t *data, uint32_t len)
{
    xg_nic_md_t *md = xg_pool_lookup(&ni->md_pool, rx->id.md);

    if (md != NULL) {
        xg_nic_region_write(&md->region, rx->id.loffset + rx->next, data, len);
    }
    rx->next += len;
    if (rx->next == rx->end) {
        rx->kind = XG_RX_IDLE;
        reply_done(ni, rx);
    }
}

void xg_nic_init_rx_rndv_get(xg_nic_ni_t *ni, const xg_nic_wire_t *hdr)
{
    xg_nic_md_t *md = xg_pool_lookup(&ni->md_pool, hdr->id.md);
    xg_nic_txmsg_t msg;
    xg_status_t status;
    int peer = (int)hdr->src_rank;

    if ((md == NULL) || (md->pending == 0) ||
        (hdr->id.loffset > md->region.length) ||
        (hdr->id.rlength > md->region.length - hdr->id.loffset) ||
        (peer >= ni->nic->npes)) {
        atomic_fetch_add_explicit(&ni->nic->rx_dropped, 1,
                                  memory_order_relaxed);
        return;
    }
    memset(&msg, 0, sizeof(msg));
    xg_nic_wire_init(&msg.hdr, XG_WIRE_RNDV_DATA, ni->index,
                     (uint32_t)ni->nic->rank);
    msg.hdr.tgt_cookie = hdr->tgt_cookie;
    msg.hdr.offset     = hdr->offset;
    msg.hdr.mlength    = hdr->mlength;
    msg.src            = &md->region;
    msg.src_off        = hdr->id.loffset + hdr->offset;
    msg.len            = hdr->mlength;
    if (hdr->flags & XG_WIRE_F_FINAL) {
        /* once this leaves, the target needs nothing more: SEND */
        msg.done.kind            = XG_TXDONE_RNDV;
        msg.done.ni              = (uint8_t)ni->index;
        msg.done.id              = hdr->id;
        msg.done.target          = xg_nic_peer_id(ni, hdr->src_rank);
        msg.done.expect_response = hdr->id.ack_req != PTL_NO_ACK_REQ;
    }
    if ((hdr->mlength == 0) && (hdr->flags & XG_WIRE_F_FINAL)) {
        /* nothing to send: the target only releases us */
        xg_nic_txdone_run(ni, &msg.done);
        return;
    }
    status = xg_nic_tx(ni, peer, &msg);
    if (status == XG_OK) {
        xg_nic_txdone_run(ni, &msg.done);
    } else if ((status != XG_INPROGRESS) && (msg.done.kind != XG_TXDONE_NONE)) {
        xg_nic_send_event(ni, &msg.done, PTL_NI_UNDELIVERABLE);
    }
}

void xg_nic_init_rx_reply_fail(xg_nic_ni_t *ni, xg_nic_rx_t *rx)
{
    rx->kind = XG_RX_IDLE;
    rx->fail = PTL_NI_DROPPED;
    reply_done(ni, rx);
}

int xg_nic_atomic_sync(void)
{
    xg_nic_t *nic = atomic_load_explicit(&xg_nic_global, memory_order_acquire);
    int i;

    /* atomics run under their NI's lock: once we have held each lock,
     * every atomic that had started has finished writing memory */
    for (i = 0; (nic != NULL) && (i < XG_NIC_NUM_NI); i++) {
        if (xg_nic_ni_is_open(&nic->ni[i])) {
            pthread_mutex_lock(&nic->ni[i].lock);
            pthread_mutex_unlock(&nic->ni[i].lock);
        }
    }
    return PTL_OK;
}
