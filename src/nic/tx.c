/*
 * The send path.  A message (one header and a payload of any length) is cut
 * into packets of at most the transport's MTU: the first carries the
 * header, the rest are DATA packets.  Each destination peer has a FIFO
 * backlog under a spin lock: a sender pushes straight into the transport
 * only when that FIFO is empty, otherwise (or when the peer's queue fills)
 * it appends the rest of the message to the FIFO, which the progress thread
 * drains.  So a sender's packets to a peer always leave in order and the
 * packets of one message are consecutive on that stream.
 *
 * Nothing here blocks: a full peer queue means "queue and return", so the
 * progress thread can never deadlock on a peer that is itself waiting for
 * us.  Application threads are held back only before they take any lock,
 * by xg_nic_tx_throttle(), when the total backlog exceeds a bound.
 *
 * A queued message refers to the caller's region (the MD memory, which the
 * application may not touch before PTL_EVENT_SEND); inline bytes and the
 * data of PTL_MD_VOLATILE MDs are copied when queued.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xg_compiler.h"
#include "base/xg_log.h"
#include "base/xg_spinlock.h"
#include "base/xg_wait.h"
#include "nic/xg_nic_initiator_int.h"
#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_progress_int.h"
#include "nic/xg_nic_region_int.h"
#include "nic/xg_nic_tgt_int.h"
#include "nic/xg_nic_tx_int.h"
#include "nic/xg_nic_wire_int.h"

#define TX_BACKLOG_MAX 65536u

/* Pushes packets of @msg while the transport accepts them. */
static xg_status_t tx_push(xg_nic_t *nic, int peer, xg_nic_txmsg_t *msg)
{
    const xg_pkt_ops_t *ops = &nic->xport.ops;
    xg_nic_wire_t data_hdr;
    const xg_nic_wire_t *hdr;
    uint64_t n;
    void *buf, *token;
    xg_status_t status;

    while (!msg->first_done || (msg->sent < msg->len)) {
        n = msg->len - msg->sent;
        if (n > nic->max_payload) {
            n = nic->max_payload;
        }
        status =
            ops->tx_reserve(nic->xport.ep, peer,
                            sizeof(xg_nic_wire_t) + (size_t)n, &buf, &token);
        if (status != XG_OK) {
            return status;
        }
        if (!msg->first_done) {
            msg->hdr.payload = (uint32_t)n;
            hdr              = &msg->hdr;
        } else {
            xg_nic_wire_init(&data_hdr, XG_WIRE_DATA, msg->hdr.ni,
                             msg->hdr.src_rank);
            data_hdr.payload = (uint32_t)n;
            data_hdr.offset  = msg->hdr.offset + msg->sent;
            hdr              = &data_hdr;
        }
        memcpy(buf, hdr, sizeof(*hdr));
        if (n != 0) {
            if (msg->inline_data != NULL) {
                memcpy((uint8_t *)buf + sizeof(*hdr),
                       msg->inline_data + (msg->sent - msg->inline_base),
                       (size_t)n);
            } else {
                xg_nic_region_read(msg->src, msg->src_off + msg->sent,
                                   (uint8_t *)buf + sizeof(*hdr), n);
            }
        }
        ops->tx_commit(nic->xport.ep, peer, token,
                       sizeof(xg_nic_wire_t) + (size_t)n, msg->defer_wake);
        msg->first_done = 1;
        msg->sent += n;
    }
    return XG_OK;
}

static xg_nic_txq_t *txq_get(xg_nic_t *nic)
{
    xg_nic_txq_t *q;

    xg_spinlock_lock(&nic->busy_lock);
    q = nic->txq_free;
    if (q != NULL) {
        nic->txq_free = q->next;
    }
    xg_spinlock_unlock(&nic->busy_lock);
    if (q == NULL) {
        q = malloc(sizeof(*q));
    }
    return q;
}

static void txq_put(xg_nic_t *nic, xg_nic_txq_t *q)
{
    free(q->owned);
    q->owned = NULL;
    xg_spinlock_lock(&nic->busy_lock);
    q->next       = nic->txq_free;
    nic->txq_free = q;
    xg_spinlock_unlock(&nic->busy_lock);
}

/* Marks @peer as having a backlog (peer lock held). */
static void tx_mark_busy(xg_nic_t *nic, int peer)
{
    xg_spinlock_lock(&nic->busy_lock);
    if (!nic->peers[peer].busy) {
        nic->peers[peer].busy   = 1;
        nic->busy[nic->nbusy++] = (uint32_t)peer;
    }
    xg_spinlock_unlock(&nic->busy_lock);
}

xg_status_t xg_nic_tx(xg_nic_ni_t *ni, int peer, xg_nic_txmsg_t *msg)
{
    xg_nic_t *nic    = ni->nic;
    xg_nic_peer_t *p = &nic->peers[peer];
    xg_nic_txq_t *q;
    xg_status_t status;
    uint64_t rest;

    msg->sent       = 0;
    msg->first_done = 0;
    msg->defer_wake = (ni->bundle > 0) && !xg_nic_engine_thread();
    xg_spinlock_lock(&p->lock);
    if (p->head == NULL) {
        status = tx_push(nic, peer, msg);
        if ((status != XG_OK) && (status != XG_ERR_NO_RESOURCE) &&
            msg->first_done) {
            /* the header left: the target answers it (it refuses what
             * reached it while closing); the rest is not needed */
            status = XG_OK;
        }
        if (status != XG_ERR_NO_RESOURCE) {
            if (msg->defer_wake && (status == XG_OK)) {
                p->wake_pending = 1;
            }
            xg_spinlock_unlock(&p->lock);
            return status;
        }
    }
    q = txq_get(nic);
    if (q == NULL) {
        xg_spinlock_unlock(&p->lock);
        xg_error("nic", "no memory to queue a message for PE %d", peer);
        return XG_ERR_NO_MEMORY;
    }
    q->next           = NULL;
    q->msg            = *msg;
    q->owned          = NULL;
    q->msg.defer_wake = 0; /* the progress thread rings as it pushes */
    rest              = msg->len - msg->sent;
    if ((rest != 0) && ((msg->inline_data != NULL) || msg->copy)) {
        q->owned = malloc((size_t)rest);
        if (q->owned == NULL) {
            xg_spinlock_unlock(&p->lock);
            txq_put(nic, q);
            return XG_ERR_NO_MEMORY;
        }
        if (msg->inline_data != NULL) {
            memcpy(q->owned, msg->inline_data + (msg->sent - msg->inline_base),
                   (size_t)rest);
        } else {
            xg_nic_region_read(msg->src, msg->src_off + msg->sent, q->owned,
                               rest);
        }
        /* the copy starts at the first byte not yet sent */
        q->msg.inline_data = q->owned;
        q->msg.inline_base = msg->sent;
    }
    if (p->tail != NULL) {
        p->tail->next = q;
    } else {
        p->head = q;
    }
    p->tail = q;
    /* seq_cst: ordered before rx_wake's doorbell (see nic_may_sleep) */
    atomic_fetch_add_explicit(&nic->backlog, 1, memory_order_seq_cst);
    tx_mark_busy(nic, peer);
    xg_spinlock_unlock(&p->lock);
    if (atomic_load_explicit(&nic->thread_running, memory_order_relaxed) &&
        !xg_nic_engine_thread()) {
        nic->xport.ops.rx_wake(nic->xport.ep);
    }
    return XG_INPROGRESS;
}

void xg_nic_txdone_run(xg_nic_ni_t *ni, const xg_nic_txdone_t *done)
{
    switch ((xg_nic_txdone_kind_t)done->kind) {
    case XG_TXDONE_SEND:
    case XG_TXDONE_RNDV: xg_nic_send_event(ni, done, PTL_NI_OK); break;
    case XG_TXDONE_TGT: xg_nic_tgt_resume(ni, done->tgt); break;
    case XG_TXDONE_NONE: break;
    }
}

/* A queued message could not be sent to @peer (it finalized, ended or
 * never initialized).  If its header never left, it fails as a refusing
 * target would make it fail (failed SEND for data, then the ACK or REPLY
 * with PTL_NI_UNDELIVERABLE).  If the header left, the target has it and
 * refuses it itself (a closing NIC answers what is in its queue): the
 * payload is simply not needed, and the SEND reports the buffer free. */
static void tx_fail(xg_nic_ni_t *ni, const xg_nic_txmsg_t *msg, int peer)
{
    const xg_nic_txdone_t *done = &msg->done;
    xg_nic_txdone_t rndv;

    if (msg->first_done) {
        if (done->kind == XG_TXDONE_TGT) {
            xg_nic_tgt_abort(ni, done->tgt);
        } else {
            xg_nic_txdone_run(ni, done);
        }
        return;
    }
    switch ((xg_nic_txdone_kind_t)done->kind) {
    case XG_TXDONE_SEND:
        xg_nic_send_event(ni, done, PTL_NI_UNDELIVERABLE);
        xg_nic_init_unreachable(ni, &msg->hdr, peer);
        break;
    case XG_TXDONE_RNDV:
        xg_nic_send_event(ni, done, PTL_NI_UNDELIVERABLE);
        break;
    case XG_TXDONE_TGT: xg_nic_tgt_abort(ni, done->tgt); break;
    case XG_TXDONE_NONE:
        if ((msg->hdr.type == XG_WIRE_PUT) &&
            (msg->hdr.flags & XG_WIRE_F_RNDV)) {
            /* a rendezvous header that never left: its SEND fails now */
            memset(&rndv, 0, sizeof(rndv));
            rndv.kind            = XG_TXDONE_RNDV;
            rndv.ni              = msg->hdr.ni;
            rndv.id              = msg->hdr.id;
            rndv.target          = xg_nic_peer_id(ni, (uint32_t)peer);
            rndv.expect_response = msg->hdr.id.ack_req != PTL_NO_ACK_REQ;
            xg_nic_send_event(ni, &rndv, PTL_NI_UNDELIVERABLE);
        }
        xg_nic_init_unreachable(ni, &msg->hdr, peer);
        break;
    }
}

unsigned xg_nic_tx_progress(xg_nic_t *nic)
{
    xg_nic_txq_t *done_head = NULL, *done_tail = NULL, *q;
    xg_nic_peer_t *p;
    xg_nic_ni_t *ni;
    uint32_t n, i, peer;
    xg_status_t status;
    unsigned completed = 0;
    uint32_t *work;

    if (atomic_load_explicit(&nic->backlog, memory_order_relaxed) == 0) {
        return 0;
    }
    xg_spinlock_lock(&nic->busy_lock);
    n    = nic->nbusy;
    work = nic->busy + nic->npes; /* second half: scratch */
    memcpy(work, nic->busy, n * sizeof(*work));
    for (i = 0; i < n; i++) {
        nic->peers[work[i]].busy = 0;
    }
    nic->nbusy = 0;
    xg_spinlock_unlock(&nic->busy_lock);

    for (i = 0; i < n; i++) {
        peer = work[i];
        p    = &nic->peers[peer];
        xg_spinlock_lock(&p->lock);
        while ((q = p->head) != NULL) {
            status = tx_push(nic, (int)peer, &q->msg);
            if (status == XG_ERR_NO_RESOURCE) {
                break;
            }
            p->head = q->next;
            if (p->head == NULL) {
                p->tail = NULL;
            }
            atomic_fetch_sub_explicit(&nic->backlog, 1, memory_order_relaxed);
            q->msg.failed = (status != XG_OK);
            q->msg.peer   = (int32_t)peer;
            q->next       = NULL;
            if (done_tail != NULL) {
                done_tail->next = q;
            } else {
                done_head = q;
            }
            done_tail = q;
        }
        if (p->head != NULL) {
            tx_mark_busy(nic, (int)peer);
        }
        xg_spinlock_unlock(&p->lock);
    }

    /* completions need the NI lock, which may not be taken under a peer's */
    while ((q = done_head) != NULL) {
        done_head = q->next;
        if ((q->msg.done.kind != XG_TXDONE_NONE) || q->msg.failed) {
            ni = &nic->ni[(q->msg.done.kind != XG_TXDONE_NONE) ? q->msg.done.ni
                                                               : q->msg.hdr.ni];
            pthread_mutex_lock(&ni->lock);
            if (xg_nic_ni_is_open(ni)) {
                if (!q->msg.failed) {
                    xg_nic_txdone_run(ni, &q->msg.done);
                } else {
                    tx_fail(ni, &q->msg, q->msg.peer);
                }
            }
            pthread_mutex_unlock(&ni->lock);
        }
        txq_put(nic, q);
        completed++;
    }
    return completed;
}

void xg_nic_tx_throttle(xg_nic_t *nic)
{
    xg_wait_t wait;

    if (xg_likely(atomic_load_explicit(&nic->backlog, memory_order_relaxed) <
                  TX_BACKLOG_MAX) ||
        xg_nic_engine_thread()) {
        return;
    }
    xg_wait_init(&wait);
    while (atomic_load_explicit(&nic->backlog, memory_order_relaxed) >=
           TX_BACKLOG_MAX) {
        xg_wait_net_backoff(&wait, xg_nic_progress_once(nic));
    }
}

void xg_nic_tx_cancel_ni(xg_nic_t *nic, unsigned ni)
{
    xg_nic_txq_t *q, **link;
    xg_nic_peer_t *p;
    int peer;

    for (peer = 0; peer < nic->npes; peer++) {
        p = &nic->peers[peer];
        xg_spinlock_lock(&p->lock);
        link    = &p->head;
        p->tail = NULL;
        while ((q = *link) != NULL) {
            if (q->msg.hdr.ni == ni) {
                *link = q->next;
                atomic_fetch_sub_explicit(&nic->backlog, 1,
                                          memory_order_relaxed);
                txq_put(nic, q);
            } else {
                p->tail = q;
                link    = &q->next;
            }
        }
        xg_spinlock_unlock(&p->lock);
    }
}

void xg_nic_tx_flush_wakes(xg_nic_t *nic)
{
    xg_nic_peer_t *p;
    int peer, wake;

    for (peer = 0; peer < nic->npes; peer++) {
        p = &nic->peers[peer];
        xg_spinlock_lock(&p->lock);
        wake            = p->wake_pending;
        p->wake_pending = 0;
        xg_spinlock_unlock(&p->lock);
        if (wake) {
            nic->xport.ops.tx_flush(nic->xport.ep, peer);
        }
    }
}
