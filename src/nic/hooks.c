/*
 * Packet handlers on list entries (see xg_nic_hooks.h): the NIC side.
 *
 * The target state machine runs under the NI lock, handlers must not: a
 * state that meets a hooked message queues the call on the NI (the
 * operation, its handle, what to call) and the operation waits.  The
 * poller runs the queue without the NI lock -- after each packet, and
 * before it handles a packet of an NI with calls pending, so that a
 * payload call always runs while its packet is still in the ring -- then,
 * with the lock again, applies the result (the packet's bytes land or
 * not) and resumes the operation.  An operation has at most one queued
 * call at a time and its calls are queued in message order, so the calls
 * of one message come in order and never overlap.  A queued operation
 * that was freed meanwhile (aborted, NI closed) is recognized by its
 * handle and skipped.
 *
 * Asynchronous sets (xg_nic_hooks.h): a header or payload call that
 * answers BUSY is made again, the poller pushing the send queues between
 * tries (a handler engine whose buffers are full may be waiting for its
 * own sends); a completion call that answers PENDING leaves the operation
 * waiting in COMPLETE until xg_nic_hook_resume() queues a resume call.
 * The operation is marked pending before the completion call (under the
 * lock), so a resume that comes while the call still runs is not lost.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xg_compiler.h"
#include "base/xg_log.h"
#include "base/xg_pool.h"
#include "base/xg_wait.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_hooks.h"
#include "nic/xg_nic_initiator_int.h"
#include "nic/xg_nic_me_int.h"
#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_obj_int.h"
#include "nic/xg_nic_progress_int.h"
#include "nic/xg_nic_region_int.h"
#include "nic/xg_nic_tgt_int.h"
#include "nic/xg_nic_tx_int.h"

enum {
    XG_NIC_HOOK_CALL_HEADER     = 1u << 0,
    XG_NIC_HOOK_CALL_PAYLOAD    = 1u << 1,
    XG_NIC_HOOK_CALL_COMPLETION = 1u << 2,
    XG_NIC_HOOK_CALL_RESUME     = 1u << 3 /* a pending completion ended */
};

struct xg_nic_hook_ref {
    xg_nic_tgt_t *tgt;
    uint32_t handle;
};

int xg_nic_entry_set_hooks(const char *fn, ptl_handle_any_t handle,
                           xg_nic_hooks_t *hooks)
{
    xg_nic_ni_t *ni = xg_nic_ni_lookup(
        xg_nic_handle_make(XG_NIC_OBJ_NI, xg_nic_handle_ni(handle), 0, 0));
    xg_nic_me_t *me;

    if (ni == NULL) {
        xg_warn("nic", "%s: %#x is not a list entry of an open NI", fn, handle);
        return PTL_ARG_INVALID;
    }
    pthread_mutex_lock(&ni->lock);
    me = xg_pool_lookup(&ni->me_pool, handle);
    if ((me == NULL) || me->zombie) {
        pthread_mutex_unlock(&ni->lock);
        xg_warn("nic", "%s: %#x is not a live list entry (unlinked?)", fn,
                handle);
        return PTL_ARG_INVALID;
    }
    me->hooks = hooks;
    pthread_mutex_unlock(&ni->lock);
    return PTL_OK;
}

/* Queues @t for the calls in @calls (NI lock held). */
static void hook_queue(xg_nic_tgt_t *t, unsigned calls)
{
    xg_nic_ni_t *ni = t->ni;
    struct xg_nic_hook_ref *v;
    uint32_t cap;

    if (t->hook.calls == 0) {
        if (ni->hookq_n == ni->hookq_cap) {
            cap = (ni->hookq_cap == 0) ? 16 : ni->hookq_cap * 2;
            v   = realloc(ni->hookq, cap * sizeof(*v));
            xg_assert((v != NULL) && "no memory for the handler queue");
            ni->hookq     = v;
            ni->hookq_cap = cap;
        }
        ni->hookq[ni->hookq_n].tgt    = t;
        ni->hookq[ni->hookq_n].handle = xg_pool_obj_handle(t);
        ni->hookq_n++;
        /* seq_cst: against the progress thread's last look before it
         * sleeps (nic_may_sleep), as the wake-up below is */
        atomic_fetch_add_explicit(&ni->hooks_pending, 1, memory_order_seq_cst);
        if (!xg_nic_engine_thread()) {
            /* queued by an application thread: the poller runs it */
            ni->nic->xport.ops.rx_wake(ni->nic->xport.ep);
        }
    }
    t->hook.calls |= (uint8_t)calls;
}

void xg_nic_hook_claim(xg_nic_tgt_t *t, xg_nic_hooks_t *hooks)
{
    t->hook.set = hooks;
    if (hooks != NULL) {
        atomic_fetch_add_explicit(&hooks->inflight, 1, memory_order_relaxed);
        hook_queue(t, XG_NIC_HOOK_CALL_HEADER);
    }
}

void xg_nic_hook_packet(xg_nic_tgt_t *t, uint64_t off, const uint8_t *data,
                        uint64_t len)
{
    if (t->hook.fail || (len == 0)) {
        return; /* after a failure nothing more lands */
    }
    xg_assert(!(t->hook.calls & XG_NIC_HOOK_CALL_PAYLOAD));
    t->hook.data = data;
    t->hook.off  = off;
    t->hook.len  = len;
    hook_queue(t, XG_NIC_HOOK_CALL_PAYLOAD);
}

int xg_nic_hook_complete(xg_nic_tgt_t *t)
{
    if ((t->hook.calls != 0) || t->hook.pending) {
        return 0; /* the queued call, or the resume, resumes it */
    }
    if (t->hook.completed || (t->hook.set->completion == NULL)) {
        return 1;
    }
    hook_queue(t, XG_NIC_HOOK_CALL_COMPLETION);
    return 0;
}

/* The NI lock is the poller's (nic->rx_locked): drop it around a call of
 * @t's handlers. */
static void hook_unlock(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    t->hook.busy       = 1;
    ni->nic->rx_locked = NULL;
    pthread_mutex_unlock(&ni->lock);
}

/* Takes the lock back; 0 if @t did not survive the call (NI closed, the
 * operation aborted and its slot reused). */
static int hook_relock(xg_nic_ni_t *ni, xg_nic_tgt_t *t, uint32_t handle,
                       uint32_t incarnation)
{
    pthread_mutex_lock(&ni->lock);
    ni->nic->rx_locked = ni;
    if (xg_nic_ni_is_open(ni) && (ni->incarnation == incarnation) &&
        (xg_pool_lookup(&ni->tgt_pool, handle) == t)) {
        t->hook.busy = 0;
        return 1;
    }
    return 0;
}

static void hook_args(xg_nic_tgt_t *t, xg_nic_hook_args_t *args)
{
    args->id        = &t->id;
    args->initiator = t->initiator;
    args->user_ptr  = (t->me != NULL) ? t->me->user_ptr : NULL;
    args->mem       = t->hook.set->mem;
    args->mem_size  = t->hook.set->mem_size;
    args->start =
        (t->me != NULL) ? xg_nic_region_addr(&t->me->region, t->moffset) : NULL;
    args->mlength            = t->mlength;
    args->data               = t->hook.data;
    args->len                = (size_t)t->hook.len;
    args->offset             = t->hook.off;
    args->fail               = t->hook.fail ? PTL_NI_DROPPED : PTL_NI_OK;
    args->msg                = &t->hook.msg;
    args->ticket.ni          = t->ni->index;
    args->ticket.incarnation = t->ni->incarnation;
    args->ticket.handle      = xg_pool_obj_handle(t);
    args->region             = (t->me != NULL) ? &t->me->region : NULL;
    args->moffset            = t->moffset;
}

/* The end of a message that claimed set @h: its release call, if its
 * header call ran, then the in-flight count. */
static void hook_end(xg_nic_hooks_t *h, xg_nic_hook_args_t *args, int started)
{
    if (started && (h->release != NULL)) {
        h->release(args);
    }
    atomic_fetch_sub_explicit(&h->inflight, 1, memory_order_release);
}

void xg_nic_hook_free(xg_nic_ni_t *ni, xg_nic_tgt_t *t)
{
    xg_nic_hook_args_t args;

    (void)ni;
    if (!t->hook.busy) {
        /* (a call in progress ends the message itself: hook_run) */
        hook_args(t, &args);
        args.fail =
            (t->hook.completed && !t->hook.fail) ? PTL_NI_OK : PTL_NI_DROPPED;
        hook_end(t->hook.set, &args, t->hook.started);
    }
    t->hook.set = NULL;
}

/* Makes a header or payload call, again while it answers BUSY: meanwhile
 * the NIC's own send queues move (no NI lock is held here). */
static xg_nic_hook_ret_t hook_call(xg_nic_ni_t *ni, xg_nic_hook_fn_t fn,
                                   const xg_nic_hook_args_t *args)
{
    xg_nic_hook_ret_t ret;
    xg_wait_t wait;

    xg_wait_init(&wait);
    while ((ret = fn(args)) == XG_NIC_HOOK_BUSY) {
        if (xg_nic_tx_progress(ni->nic) == 0) {
            xg_wait_backoff(&wait);
        }
    }
    return ret;
}

/* Runs the queued calls of @t and resumes it (NI lock held on entry and
 * on return, dropped during the calls). */
static void hook_run(xg_nic_ni_t *ni, xg_nic_tgt_t *t, uint32_t handle)
{
    xg_nic_hooks_t *h      = t->hook.set;
    unsigned calls         = t->hook.calls;
    uint32_t incarnation   = ni->incarnation;
    xg_nic_hook_ret_t hret = XG_NIC_HOOK_PROCEED;
    xg_nic_hook_ret_t pret = XG_NIC_HOOK_PROCEED;
    xg_nic_hook_ret_t cret;
    xg_nic_hook_args_t args;
    xg_nic_msg_id_t id = t->id;
    void *msg          = t->hook.msg;
    int started        = t->hook.started;

    t->hook.calls = 0;
    hook_args(t, &args);
    args.id  = &id; /* the operation is not touched without the lock */
    args.msg = &msg;
    if (calls & (XG_NIC_HOOK_CALL_HEADER | XG_NIC_HOOK_CALL_PAYLOAD)) {
        hook_unlock(ni, t);
        if ((calls & XG_NIC_HOOK_CALL_HEADER) && (h->header != NULL)) {
            hret = hook_call(ni, h->header, &args);
        }
        if ((calls & XG_NIC_HOOK_CALL_PAYLOAD) && (h->payload != NULL) &&
            (hret != XG_NIC_HOOK_ERROR)) {
            pret = hook_call(ni, h->payload, &args);
        }
        if (!hook_relock(ni, t, handle, incarnation)) {
            /* freed meanwhile: the end its free left to this call */
            args.fail = PTL_NI_DROPPED;
            hook_end(h, &args, started || (calls & XG_NIC_HOOK_CALL_HEADER));
            return;
        }
        if (calls & XG_NIC_HOOK_CALL_HEADER) {
            t->hook.consume = (hret == XG_NIC_HOOK_CONSUMED);
            t->hook.started = 1;
            t->hook.msg     = msg;
        }
        t->hook.fail |=
            (hret == XG_NIC_HOOK_ERROR) || (pret == XG_NIC_HOOK_ERROR);
        if ((calls & XG_NIC_HOOK_CALL_PAYLOAD) && !t->hook.fail &&
            !t->hook.consume && (pret == XG_NIC_HOOK_PROCEED)) {
            xg_nic_tgt_write(t, t->hook.off, t->hook.data, t->hook.len);
        }
        t->hook.data = NULL;
    }
    if (calls & XG_NIC_HOOK_CALL_COMPLETION) {
        hook_args(t, &args);
        args.id         = &id;
        args.msg        = &msg;
        t->hook.pending = 1; /* before the call: a resume may come in it */
        hook_unlock(ni, t);
        cret = h->completion(&args);
        if (!hook_relock(ni, t, handle, incarnation)) {
            args.fail = PTL_NI_DROPPED;
            hook_end(h, &args, 1);
            return;
        }
        if (cret == XG_NIC_HOOK_PENDING) {
            return; /* xg_nic_hook_resume() queues the rest */
        }
        t->hook.pending = 0;
        t->hook.fail |= (cret == XG_NIC_HOOK_ERROR);
        t->hook.completed = 1;
    } else if (!(calls & XG_NIC_HOOK_CALL_RESUME) && t->hook.pending) {
        return; /* still waiting for its resume */
    }
    xg_nic_tgt_resume(ni, t);
}

int xg_nic_hook_resume(const xg_nic_hook_ticket_t *ticket,
                       xg_nic_hook_ret_t ret)
{
    xg_nic_ni_t *ni =
        xg_nic_ni_lookup(xg_nic_handle_make(XG_NIC_OBJ_NI, ticket->ni, 0, 0));
    xg_nic_tgt_t *t;
    int rc = PTL_ARG_INVALID;

    if (ni == NULL) {
        return rc;
    }
    pthread_mutex_lock(&ni->lock);
    if (xg_nic_ni_is_open(ni) && (ni->incarnation == ticket->incarnation)) {
        t = xg_pool_lookup(&ni->tgt_pool, ticket->handle);
        if ((t != NULL) && t->hook.pending) {
            t->hook.pending   = 0;
            t->hook.completed = 1;
            t->hook.fail |= (ret == XG_NIC_HOOK_ERROR);
            hook_queue(t, XG_NIC_HOOK_CALL_RESUME);
            rc = PTL_OK;
        }
    }
    pthread_mutex_unlock(&ni->lock);
    return rc;
}

void xg_nic_hooks_drain(xg_nic_t *nic, xg_nic_ni_t *ni)
{
    struct xg_nic_hook_ref ref;

    xg_assert(nic->rx_locked == ni);
    while (ni->hookq_head < ni->hookq_n) {
        ref = ni->hookq[ni->hookq_head++];
        if (ni->hookq_head == ni->hookq_n) {
            ni->hookq_head = ni->hookq_n = 0;
        }
        atomic_fetch_sub_explicit(&ni->hooks_pending, 1, memory_order_relaxed);
        if (xg_nic_ni_is_open(ni) &&
            (xg_pool_lookup(&ni->tgt_pool, ref.handle) == ref.tgt) &&
            (ref.tgt->hook.calls != 0)) {
            hook_run(ni, ref.tgt, ref.handle);
        }
    }
}

/* Shutdown listeners (xg_nic_on_shutdown): a slot is written once, then
 * counted in (release), so the NIC reads them without a lock. */
enum {
    XG_NIC_SHUTDOWN_MAX = 4
};
static struct {
    xg_nic_shutdown_fn_t fn;
    void *arg;
} shutdown_fns[XG_NIC_SHUTDOWN_MAX];
static _Atomic unsigned shutdown_n;
static pthread_mutex_t shutdown_lock = PTHREAD_MUTEX_INITIALIZER;

int xg_nic_on_shutdown(const char *fn_name, xg_nic_shutdown_fn_t fn, void *arg)
{
    unsigned i, n;
    int ret = PTL_OK;

    pthread_mutex_lock(&shutdown_lock);
    n = atomic_load_explicit(&shutdown_n, memory_order_relaxed);
    for (i = 0; i < n; i++) {
        if ((shutdown_fns[i].fn == fn) && (shutdown_fns[i].arg == arg)) {
            goto out_unlock;
        }
    }
    if (n == XG_NIC_SHUTDOWN_MAX) {
        xg_error("nic",
                 "%s: no room for another shutdown listener (%d "
                 "taken)",
                 fn_name, XG_NIC_SHUTDOWN_MAX);
        ret = PTL_NO_SPACE;
        goto out_unlock;
    }
    shutdown_fns[n].fn  = fn;
    shutdown_fns[n].arg = arg;
    atomic_store_explicit(&shutdown_n, n + 1, memory_order_release);
out_unlock:
    pthread_mutex_unlock(&shutdown_lock);
    return ret;
}

void xg_nic_hooks_shutdown(void)
{
    unsigned i, n = atomic_load_explicit(&shutdown_n, memory_order_acquire);

    for (i = 0; i < n; i++) {
        shutdown_fns[i].fn(shutdown_fns[i].arg);
    }
}

void xg_nic_hooks_fini(xg_nic_ni_t *ni)
{
    free(ni->hookq);
    ni->hookq      = NULL;
    ni->hookq_head = ni->hookq_n = ni->hookq_cap = 0;
    atomic_store_explicit(&ni->hooks_pending, 0, memory_order_relaxed);
}

/* ---- what a provider may ask of the NIC --------------------------------- */

/* The running NIC, or NULL before xg_nic_init and after xg_nic_fini. */
static xg_nic_t *hook_nic(void)
{
    return atomic_load_explicit(&xg_nic_global, memory_order_acquire);
}

uint32_t xg_nic_hook_self_rank(void)
{
    xg_nic_t *nic = hook_nic();

    return (nic != NULL) ? (uint32_t)nic->rank : 0;
}

uint32_t xg_nic_hook_source_rank(const xg_nic_hook_args_t *args)
{
    return hook_nic()->ni[args->ticket.ni].logical
               ? args->initiator.rank
               : (uint32_t)xg_nic_phys_rank(args->initiator);
}

size_t xg_nic_hook_max_payload(void)
{
    xg_nic_t *nic = hook_nic();

    return (nic != NULL) ? nic->max_payload : 0;
}

void xg_nic_hook_region_write(const struct xg_nic_region *region,
                              uint64_t offset, const void *src, uint64_t len)
{
    xg_nic_region_write(region, offset, src, len);
}

int xg_nic_hook_entry_ni(const char *fn, ptl_handle_any_t entry,
                         ptl_handle_ni_t *ni_p, uint32_t *index_p,
                         uint32_t *incarnation_p)
{
    xg_nic_ni_t *ni;

    if (xg_nic_ni_handle(fn, entry, ni_p) != PTL_OK) {
        return PTL_ARG_INVALID;
    }
    ni = xg_nic_ni_lookup(*ni_p);
    if (ni == NULL) {
        return PTL_ARG_INVALID;
    }
    *index_p       = ni->index;
    *incarnation_p = ni->incarnation;
    return PTL_OK;
}

int xg_nic_hook_put(const char *fn, uint32_t ni_index, ptl_handle_md_t md,
                    ptl_size_t local_offset, ptl_size_t length, uint32_t dest,
                    ptl_pt_index_t pt, ptl_match_bits_t match_bits,
                    uint64_t hdr_data)
{
    xg_nic_op_t op;

    xg_nic_op_init(&op, XG_NIC_OP_PUT, md, local_offset, length);
    if (hook_nic()->ni[ni_index].logical) {
        op.target.rank = dest;
    } else {
        op.target = xg_nic_phys_id((int)dest);
    }
    op.pt_index   = pt;
    op.match_bits = match_bits;
    op.hdr_data   = hdr_data;
    return xg_nic_issue(fn, &op);
}
