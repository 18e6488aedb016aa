/*
 * Contexts on Portals entries: the engine as an asynchronous hook set of
 * the NIC (nic/xg_nic_hooks.h), and the sends of their handlers.
 *
 * On the NIC's poller, with no NI lock held:
 *   header      opens a message (an MPQ) and keeps it as the NIC's
 *               per-message state; a message of no bytes gets one packet
 *               of headers only, so its header and completion handlers
 *               have a packet to look at;
 *   payload     copies the packet into a slot of the packet buffer behind
 *               a pkt_hdr_t (docs/spin.md, "What a handler sees") and
 *               queues it; the packet whose bytes end the message ends it;
 *   completion  the NIC has every byte: PENDING until the engine is done
 *               (or the engine's answer at once, if it already is);
 * all three answer BUSY when the engine has no slot free (or its MPQ
 * table is as large as it may grow), which holds the sender back.  The
 * bytes land in the entry only for contexts with XG_SPIN_CTX_DELIVER,
 * after each packet's payload handler.
 *
 * The engine's end and the NIC's completion call meet in msg->nic_sync:
 * whichever comes second finishes the NIC's side (the answer, or
 * xg_nic_hook_resume).  The NIC's release call (NI lock held) marks the
 * NIC gone, so an engine that ends later calls nothing of the NIC.
 *
 * Shutdown: every call of the engine's own threads into the NIC -- a
 * handler's send, the bytes a DELIVER context lands, a resume -- passes
 * nic_enter, which counts the caller in (a word per HPU, one for other
 * threads) before it looks at engine->nic_closed.  When the NIC starts
 * its teardown it calls nic_shutdown (xg_nic_on_shutdown), which sets
 * the flag, then waits until nobody is inside: from then on sends fail
 * as command faults of their messages, bytes no longer land (the message
 * fails) and resumes are left to the NIC's release of the message.  The
 * hooks refuse new messages (and packets) at once, so a poller that
 * waits for room in the engine is not held up, and contexts forget
 * their entries, which go with the NIC: destroying a context later
 * touches nothing of it.
 */
#include <string.h>

#include "base/xg_log.h"
#include "base/xg_wait.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_hooks.h"
#include "spin/xg_spin_int.h"

#define XG_SPIN_NIC_GONE (1u << 2) /* msg->nic_sync: the NIC released it */

/* The engine's MD over NIC memory, per NI: the source of handlers' sends
 * (volatile: the NIC copies at once, so a send completes on return). */
static struct {
    ptl_handle_md_t md;
    uint32_t incarnation;
    int bound;
} send_md[4];

/* Counts the caller in for a call of the NIC: the word to give to
 * nic_leave, or NULL if the NIC shut down (do not call it). */
static _Atomic uint32_t *nic_enter(void)
{
    xg_spin_engine_t *e  = &xg_spin_engine;
    xg_spin_hpu_t *hpu   = xg_spin_tls_hpu;
    _Atomic uint32_t *in = (hpu != NULL) ? &hpu->in_nic : &e->nic_users;

    /* seq_cst, against nic_shutdown's flag then look */
    atomic_fetch_add_explicit(in, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&e->nic_closed, memory_order_seq_cst)) {
        atomic_fetch_sub_explicit(in, 1, memory_order_release);
        return NULL;
    }
    return in;
}

static void nic_leave(_Atomic uint32_t *in)
{
    atomic_fetch_sub_explicit(in, 1, memory_order_release);
}

static int nic_closed(void)
{
    return atomic_load_explicit(&xg_spin_engine.nic_closed,
                                memory_order_acquire) != 0;
}

static int msg_failed(const xg_spin_msg_t *msg)
{
    return (atomic_load_explicit(&msg->flags, memory_order_acquire) &
            XG_SPIN_MSG_FAILED) != 0;
}

/* Writes the pkt_hdr_t of a packet of @msg with @len payload bytes. */
static void pkt_header(const xg_spin_msg_t *msg, uint8_t *at, uint32_t len)
{
    pkt_hdr_t h;

    memset(&h, 0, sizeof(h));
    h.ip_hdr.version   = 4;
    h.ip_hdr.ihl       = 5;
    h.ip_hdr.length    = (uint16_t)(sizeof(h) + len);
    h.ip_hdr.ttl       = 64;
    h.ip_hdr.protocol  = 17;
    h.ip_hdr.source_id = msg->source;
    h.ip_hdr.dest_id   = xg_nic_hook_self_rank();
    h.udp_hdr.src_port = (uint16_t)msg->source;
    h.udp_hdr.dst_port = (uint16_t)msg->ni;
    h.udp_hdr.length   = (uint16_t)(sizeof(udp_hdr_t) + len);
    memcpy(at, &h, sizeof(h));
}

static xg_nic_hook_ret_t on_header(const xg_nic_hook_args_t *a)
{
    xg_spin_ctx_t *ctx = a->mem;
    xg_spin_pkt_t *pkt = NULL;
    xg_spin_msg_t *msg;

    if (nic_closed()) {
        return XG_NIC_HOOK_ERROR; /* shutting down: no new message */
    }
    if ((a->id->rlength == 0) && ((pkt = xg_spin_pkt_alloc()) == NULL)) {
        return XG_NIC_HOOK_BUSY;
    }
    msg = xg_spin_msg_open(ctx, UINT32_MAX);
    if (msg == NULL) {
        if (pkt != NULL) {
            xg_spin_pkt_drop(pkt);
        }
        return XG_NIC_HOOK_BUSY;
    }
    atomic_fetch_add_explicit(&msg->life, 1, memory_order_relaxed); /* NIC */
    msg->rlength    = a->id->rlength;
    msg->mlength    = a->mlength;
    msg->match_bits = a->id->match_bits;
    msg->hdr_data   = a->id->hdr_data;
    msg->source     = xg_nic_hook_source_rank(a);
    msg->ni         = a->ticket.ni;
    msg->region     = a->region;
    msg->moffset    = a->moffset;
    msg->ticket     = a->ticket;
    *a->msg         = msg;
    if (pkt != NULL) {
        /* no bytes: one packet of headers carries the handlers */
        pkt_header(msg, pkt->data, 0);
        pkt->len    = sizeof(pkt_hdr_t);
        pkt->offset = 0;
        pkt->eom    = 1;
        xg_spin_pkt_inject(msg, pkt);
        xg_spin_msg_close(msg);
    }
    return XG_NIC_HOOK_CONSUMED;
}

static xg_nic_hook_ret_t on_payload(const xg_nic_hook_args_t *a)
{
    xg_spin_msg_t *msg = *a->msg;
    xg_spin_pkt_t *pkt;

    xg_assert(msg != NULL);
    if (msg_failed(msg)) {
        if (a->offset + a->len >= msg->rlength) {
            xg_spin_msg_close(msg); /* its last packet: nothing follows */
        }
        return XG_NIC_HOOK_CONSUMED; /* dropped: the message failed */
    }
    if (nic_closed()) {
        /* shutting down: it cannot finish, and no packet of it follows
         * (not a stall for the watchdog to report) */
        xg_spin_msg_fail(msg);
        xg_spin_msg_close(msg);
        return XG_NIC_HOOK_ERROR;
    }
    pkt = xg_spin_pkt_alloc();
    if (pkt == NULL) {
        return XG_NIC_HOOK_BUSY;
    }
    pkt_header(msg, pkt->data, (uint32_t)a->len);
    memcpy(pkt->data + sizeof(pkt_hdr_t), a->data, a->len);
    pkt->len    = (uint32_t)(sizeof(pkt_hdr_t) + a->len);
    pkt->offset = a->offset;
    pkt->eom    = (a->offset + a->len >= msg->rlength);
    if (!xg_spin_pkt_inject(msg, pkt)) {
        xg_spin_pkt_drop(pkt); /* reset meanwhile */
        return XG_NIC_HOOK_CONSUMED;
    }
    if (pkt->eom) {
        xg_spin_msg_close(msg);
    }
    return XG_NIC_HOOK_CONSUMED;
}

static xg_nic_hook_ret_t on_completion(const xg_nic_hook_args_t *a)
{
    xg_spin_msg_t *msg = *a->msg;
    uint32_t old;

    xg_assert(msg != NULL);
    if (a->fail != PTL_NI_OK) {
        xg_spin_msg_fail(msg);
    }
    old = atomic_fetch_or_explicit(&msg->nic_sync, XG_SPIN_NIC_COMPLETING,
                                   memory_order_acq_rel);
    if (old & XG_SPIN_NIC_ENGINE_DONE) {
        return msg_failed(msg) ? XG_NIC_HOOK_ERROR : XG_NIC_HOOK_PROCEED;
    }
    return XG_NIC_HOOK_PENDING; /* xg_spin_portals_done resumes it */
}

static void on_release(const xg_nic_hook_args_t *a)
{
    xg_spin_msg_t *msg = *a->msg;
    uint32_t old;

    if (msg == NULL) {
        return;
    }
    /* the NI lock is held: from now on the engine calls no NIC routine
     * for this message */
    old = atomic_fetch_or_explicit(&msg->nic_sync, XG_SPIN_NIC_GONE,
                                   memory_order_acq_rel);
    if (!(old & XG_SPIN_NIC_ENGINE_DONE)) {
        /* broken off (a lost packet, the NI closed): nothing more comes */
        xg_spin_msg_fail(msg);
        xg_spin_msg_close(msg);
    }
    xg_spin_msg_unref(msg); /* the NIC's reference */
}

void xg_spin_portals_hooks(xg_spin_ctx_t *ctx)
{
    ctx->hooks.header     = on_header;
    ctx->hooks.payload    = on_payload;
    ctx->hooks.completion = on_completion;
    ctx->hooks.release    = on_release;
    ctx->hooks.mem        = ctx;
    ctx->hooks.mem_size   = sizeof(*ctx);
    atomic_init(&ctx->hooks.inflight, 0);
}

void xg_spin_portals_done(xg_spin_msg_t *msg)
{
    uint32_t old = atomic_fetch_or_explicit(
        &msg->nic_sync, XG_SPIN_NIC_ENGINE_DONE, memory_order_acq_rel);

    _Atomic uint32_t *in;

    if ((old & XG_SPIN_NIC_COMPLETING) && !(old & XG_SPIN_NIC_GONE) &&
        ((in = nic_enter()) != NULL)) {
        /* (shut down: the NIC's teardown releases the message) */
        xg_nic_hook_resume(&msg->ticket, msg_failed(msg) ? XG_NIC_HOOK_ERROR
                                                         : XG_NIC_HOOK_PROCEED);
        nic_leave(in);
    }
}

void xg_spin_portals_land(xg_spin_msg_t *msg, const xg_spin_pkt_t *pkt)
{
    uint64_t len = pkt->len - sizeof(pkt_hdr_t), n;
    _Atomic uint32_t *in;

    if ((msg->region == NULL) || (pkt->offset >= msg->mlength)) {
        return;
    }
    in = nic_enter();
    if (in == NULL) {
        xg_spin_msg_fail(msg); /* the entry went with the NIC */
        return;
    }
    n = msg->mlength - pkt->offset;
    if (n > len) {
        n = len;
    }
    xg_nic_hook_region_write(msg->region, msg->moffset + pkt->offset,
                             pkt->data + sizeof(pkt_hdr_t), n);
    nic_leave(in);
}

/* Binds the engine's send MD on the NI of @entry (engine lock held). */
static xg_status_t send_md_bind(const char *fn, ptl_handle_me_t entry)
{
    ptl_handle_ni_t nih;
    uint32_t i, incarnation;
    ptl_md_t md;

    if (xg_nic_hook_entry_ni(fn, entry, &nih, &i, &incarnation) != PTL_OK) {
        return XG_ERR_INVALID_PARAM;
    }
    if (send_md[i].bound && (send_md[i].incarnation == incarnation)) {
        return XG_OK;
    }
    memset(&md, 0, sizeof(md));
    md.start     = (void *)(uintptr_t)XG_SPIN_MAP_START;
    md.length    = XG_SPIN_MAP_END - XG_SPIN_MAP_START;
    md.options   = PTL_MD_VOLATILE;
    md.eq_handle = PTL_EQ_NONE;
    md.ct_handle = PTL_CT_NONE;
    if (xg_nic_md_bind(fn, nih, &md, &send_md[i].md) != PTL_OK) {
        return XG_ERR_NO_RESOURCE;
    }
    send_md[i].incarnation = incarnation;
    send_md[i].bound       = 1;
    return XG_OK;
}

xg_status_t xg_spin_ctx_attach_entry(const char *fn, xg_spin_ctx_t *ctx,
                                     ptl_handle_me_t entry)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    ptl_handle_me_t *v;
    ptl_handle_ni_t nih;
    uint32_t index, incarnation;
    xg_status_t status = XG_OK;
    unsigned cap;

    if ((xg_nic_hook_max_payload() == 0) ||
        (xg_nic_hook_max_payload() + sizeof(pkt_hdr_t) > e->slot_size)) {
        xg_error("spin", "%s: %s", fn,
                 (xg_nic_hook_max_payload() == 0)
                     ? "Portals is not initialized (call PtlInit and "
                       "PtlNIInit first)"
                     : "the NIC's packets do not fit the engine's slots: "
                       "set XGAS_SPIN_PKT_SIZE to the NIC's packet size "
                       "(XGAS_NIC_SLOT_SIZE) or more");
        return XG_ERR_INVALID_PARAM;
    }
    pthread_mutex_lock(&e->lock);
    /* a NIC that shut down before is open again */
    atomic_store_explicit(&e->nic_closed, 0, memory_order_relaxed);
    if (ctx->can_send) {
        status = send_md_bind(fn, entry);
    }
    if ((status == XG_OK) && (ctx->nentries == ctx->entries_cap)) {
        cap = (ctx->entries_cap == 0) ? 4 : ctx->entries_cap * 2;
        v   = realloc(ctx->entries, cap * sizeof(*v));
        if (v == NULL) {
            status = XG_ERR_NO_MEMORY;
        } else {
            ctx->entries     = v;
            ctx->entries_cap = cap;
        }
    }
    if ((status == XG_OK) &&
        (xg_nic_entry_set_hooks(fn, entry, &ctx->hooks) != PTL_OK)) {
        status = XG_ERR_INVALID_PARAM;
    }
    if ((status == XG_OK) && (ctx->send_ni < 0) &&
        (xg_nic_hook_entry_ni(fn, entry, &nih, &index, &incarnation) ==
         PTL_OK)) {
        ctx->send_ni = (int)index;
    }
    if (status == XG_OK) {
        ctx->entries[ctx->nentries++] = entry;
    }
    pthread_mutex_unlock(&e->lock);
    return status;
}

xg_status_t xg_spin_ctx_detach_entry(const char *fn, xg_spin_ctx_t *ctx,
                                     ptl_handle_me_t entry)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    unsigned i;

    pthread_mutex_lock(&e->lock);
    for (i = 0; i < ctx->nentries; i++) {
        if (ctx->entries[i] == entry) {
            break;
        }
    }
    if (i == ctx->nentries) {
        pthread_mutex_unlock(&e->lock);
        xg_error("spin", "%s: entry %#x is not attached to this context", fn,
                 entry);
        return XG_ERR_INVALID_PARAM;
    }
    ctx->entries[i] = ctx->entries[--ctx->nentries];
    pthread_mutex_unlock(&e->lock);
    /* an entry unlinked meanwhile is fine: its messages are counted */
    if (xg_nic_is_initialized()) {
        xg_nic_entry_set_hooks(fn, entry, NULL);
    }
    return XG_OK;
}

int xg_spin_portals_send(xg_spin_hpu_t *hpu, uint32_t dest, const void *data,
                         uint32_t len)
{
    const xg_spin_msg_t *msg = hpu->msg;
    const xg_spin_ctx_t *ctx = msg->ctx;
    _Atomic uint32_t *in;
    int rc;

    if (!ctx->can_send || (msg->ni >= 4)) {
        return XG_SPIN_FAULT_COMMAND;
    }
    in = nic_enter();
    if (in == NULL) {
        /* the NIC shut down: the message is one the shutdown breaks off,
         * not the context's error */
        hpu->fault_quiet = 1;
        return XG_SPIN_FAULT_COMMAND;
    }
    if (!send_md[msg->ni].bound) {
        nic_leave(in);
        return XG_SPIN_FAULT_COMMAND;
    }
    rc = xg_nic_hook_put("spin_send_packet", msg->ni, send_md[msg->ni].md,
                         (uintptr_t)data - XG_SPIN_MAP_START, len, dest,
                         ctx->send_pt, ctx->send_bits, xg_nic_hook_self_rank());
    nic_leave(in);
    return (rc == PTL_OK) ? 0 : XG_SPIN_FAULT_COMMAND;
}

/* The NIC starts its teardown (xg_nic_on_shutdown): see the top. */
static void nic_shutdown(void *arg)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    xg_spin_ctx_t *ctx;
    xg_wait_t wait;
    unsigned i;

    (void)arg;
    pthread_mutex_lock(&e->lock);
    if (e->refs == 0) {
        pthread_mutex_unlock(&e->lock);
        return; /* the engine is stopped */
    }
    atomic_store_explicit(&e->nic_closed, 1, memory_order_seq_cst);
    xg_wait_init(&wait);
    for (i = 0; i < e->nhpus; i++) {
        while (atomic_load_explicit(&e->hpus[i].in_nic, memory_order_seq_cst) !=
               0) {
            xg_wait_backoff(&wait);
        }
    }
    while (atomic_load_explicit(&e->nic_users, memory_order_seq_cst) != 0) {
        xg_wait_backoff(&wait);
    }
    /* nobody is inside now, and nobody gets in: forget what goes with
     * the NIC */
    for (ctx = e->ctxs; ctx != NULL; ctx = ctx->next) {
        ctx->nentries = 0;
        ctx->send_ni  = -1;
    }
    memset(send_md, 0, sizeof(send_md));
    pthread_mutex_unlock(&e->lock);
}

xg_status_t xg_spin_portals_listen(void)
{
    return (xg_nic_on_shutdown("xg_spin_ctx_create", nic_shutdown, NULL) ==
            PTL_OK)
               ? XG_OK
               : XG_ERR_NO_RESOURCE;
}
