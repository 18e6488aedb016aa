/*
 * The sPIN engine: HPU threads in clusters, the packet buffer, the
 * message processing queues (MPQs) and the scheduling of header, payload
 * and completion handlers (the order rules are in xg_spin_int.h).
 *
 * Injectors -- the NIC's poller through the hooks (portals.c), or a
 * driver thread (flow.c) -- take a free slot, copy the packet into it and
 * queue it; an HPU takes it from the ready queue of its cluster (or,
 * idle, of any cluster), runs the handlers, and gives the slot back.
 * Nothing on that path takes a lock or calls the system, except the
 * wake-up of a sleeping HPU and the rare race of a packet with the end of
 * its message's header handler (the message's spin lock).
 *
 * Idle HPU threads poll for XGAS_SPIN_IDLE_US, then sleep on a futex; an
 * injector wakes them only when one sleeps (an atomic increment and a
 * load per packet otherwise).
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "base/xg_time.h"
#include "base/xg_wait.h"
#include "spin/xg_spin_int.h"

xg_spin_engine_t xg_spin_engine = {
    .lock      = PTHREAD_MUTEX_INITIALIZER,
    .grow_lock = PTHREAD_MUTEX_INITIALIZER,
    .wd_lock   = PTHREAD_MUTEX_INITIALIZER,
    .wd_cond   = PTHREAD_COND_INITIALIZER,
    .ev_lock   = PTHREAD_MUTEX_INITIALIZER,
};

__thread xg_spin_hpu_t *xg_spin_tls_hpu
    __attribute__((tls_model("initial-exec")));

uint64_t xg_spin_now(void)
{
    return xg_time_ns() - xg_spin_engine.t0;
}

static void futex_wait(_Atomic uint32_t *word, uint32_t seen)
{
    struct timespec ts = {0, 100 * 1000 * 1000}; /* re-check now and then */

    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, seen, &ts, NULL, 0);
}

void xg_spin_wake(void)
{
    xg_spin_engine_t *e = &xg_spin_engine;

    /* the RMW orders the queued work before the look at sleepers; a
     * sleeper took its ticket (work_seq) before its last look at the
     * queues, so it either sees the work or wakes on the new ticket */
    atomic_fetch_add_explicit(&e->work_seq, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&e->sleepers, memory_order_seq_cst) != 0) {
        syscall(SYS_futex, &e->work_seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL,
                NULL, 0);
    }
}

/* Pushes @v on @q, which has room for every value there can be: a push
 * can still find its cell taken by a consumer that claimed it a lap ago
 * and was preempted before reading it; it waits for that one. */
static void queue_push(xg_mpmc_t *q, uintptr_t v)
{
    xg_wait_t wait;

    if (xg_likely(xg_mpmc_push(q, v))) {
        return;
    }
    xg_wait_init(&wait);
    while (!xg_mpmc_push(q, v)) {
        xg_wait_backoff(&wait);
    }
}

/* Queues @pkt for its message's home cluster: a payload for any HPU, a
 * header or completion handler for the home cluster's own. */
static void ready_push(xg_spin_pkt_t *pkt)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    unsigned home       = pkt->msg->home;

    queue_push((pkt->run == XG_SPIN_RUN_PAYLOAD) ? &e->ready[home]
                                                 : &e->home_only[home],
               (uintptr_t)pkt);
}

/* ------------------------------------------------------------------------
 * Slots and messages
 * --------------------------------------------------------------------- */

xg_spin_pkt_t *xg_spin_pkt_alloc(void)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    uintptr_t v;

    if (!xg_mpmc_pop(&e->free_slots, &v)) {
        return NULL;
    }
    return &e->pkts[v];
}

void xg_spin_pkt_drop(xg_spin_pkt_t *pkt)
{
    xg_spin_engine_t *e = &xg_spin_engine;

    pkt->msg = NULL;
    queue_push(&e->free_slots, (uintptr_t)(pkt - e->pkts));
}

/* The slots @hpu freed go back to the buffer. */
static void hpu_flush_slots(xg_spin_hpu_t *hpu)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    unsigned i;

    for (i = 0; i < hpu->stash_n; i++) {
        queue_push(&e->free_slots, hpu->stash[i]);
    }
    hpu->stash_n = 0;
}

/* Gives @pkt's slot back (after the driver's feedback, for raw flows):
 * an HPU stashes a few and returns them together when it has no work or
 * the stash is full; with a small buffer it does not stash. */
static void pkt_free(xg_spin_hpu_t *hpu, xg_spin_pkt_t *pkt)
{
    xg_spin_engine_t *e = &xg_spin_engine;

    if (pkt->msg->ctx->raw) {
        xg_spin_flow_pkt_done(pkt);
    }
    if ((hpu == NULL) || (e->stash_max == 0)) {
        xg_spin_pkt_drop(pkt);
        return;
    }
    pkt->msg                   = NULL;
    hpu->stash[hpu->stash_n++] = (uintptr_t)(pkt - e->pkts);
    if (hpu->stash_n == e->stash_max) {
        hpu_flush_slots(hpu);
    }
}

/* The MPQs chunk @k of the table holds. */
static uint32_t msgs_in_chunk(const xg_spin_engine_t *e, uint32_t k)
{
    uint32_t base = e->nmsgs * ((1u << k) - 1u);
    uint32_t size = e->nmsgs << k;

    return (size > e->max_msgs - base) ? e->max_msgs - base : size;
}

/* The per-message scratchpad of MPQ @msg: in its home cluster's L1 for
 * the first chunk of the table, in process memory for later chunks (made
 * the first time a message of @ctx lands in the chunk).  NULL: none, or
 * no memory (*@oom set). */
static void *msg_pad(xg_spin_ctx_t *ctx, const xg_spin_msg_t *msg, int *oom)
{
    const xg_spin_engine_t *e = &xg_spin_engine;
    uint32_t entry, chunk = xg_spin_msg_chunk(e, msg->index, &entry);
    uint8_t *pads, *mine;

    if (ctx->pad_size == 0) {
        return NULL;
    }
    if (chunk == 0) {
        return ctx->pads[msg->home] + (size_t)entry * ctx->pad_size;
    }
    pads = atomic_load_explicit(&ctx->xpads[chunk], memory_order_acquire);
    if (pads == NULL) {
        mine =
            aligned_alloc(64, (size_t)msgs_in_chunk(e, chunk) * ctx->pad_size);
        if (mine == NULL) {
            *oom = 1;
            return NULL;
        }
        if (atomic_compare_exchange_strong_explicit(&ctx->xpads[chunk], &pads,
                                                    mine, memory_order_acq_rel,
                                                    memory_order_acquire)) {
            pads = mine;
        } else {
            free(mine); /* another opener made it first */
        }
    }
    return pads + (size_t)entry * ctx->pad_size;
}

/* Adds a chunk to the MPQ table, if none was added since the free queue
 * was seen empty and the table may grow.  0: no MPQ to be had. */
static int msgs_grow(xg_spin_engine_t *e)
{
    uint32_t n, i, base, size;
    xg_spin_msg_t *chunk;
    uintptr_t v;
    int ok = 0;

    pthread_mutex_lock(&e->grow_lock);
    if (xg_mpmc_pop(&e->free_msgs, &v)) {
        /* freed (or grown) meanwhile: give it back for the caller */
        queue_push(&e->free_msgs, v);
        ok = 1;
        goto out;
    }
    n    = atomic_load_explicit(&e->nchunks, memory_order_relaxed);
    base = atomic_load_explicit(&e->nmsgs_all, memory_order_relaxed);
    if ((n == XG_SPIN_MPQ_CHUNKS) || (base >= e->max_msgs)) {
        goto out;
    }
    size = e->nmsgs << n;
    if (size > e->max_msgs - base) {
        size = e->max_msgs - base; /* the last chunk */
    }
    chunk = calloc(size, sizeof(*chunk));
    if (chunk == NULL) {
        goto out;
    }
    for (i = 0; i < size; i++) {
        chunk[i].index = base + i;
        xg_spinlock_init(&chunk[i].lock);
    }
    e->msgs[n] = chunk;
    atomic_store_explicit(&e->nchunks, n + 1, memory_order_relaxed);
    /* release: the chunk before the watchdog scans it */
    atomic_store_explicit(&e->nmsgs_all, base + size, memory_order_release);
    for (i = 0; i < size; i++) {
        queue_push(&e->free_msgs, base + i);
    }
    xg_debug("spin", "MPQ table grown to %u messages", base + size);
    ok = 1;
out:
    pthread_mutex_unlock(&e->grow_lock);
    return ok;
}

xg_spin_msg_t *xg_spin_msg_open(xg_spin_ctx_t *ctx, uint32_t id)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    xg_spin_msg_t *msg;
    uintptr_t v;
    int oom = 0;

    while (!xg_mpmc_pop(&e->free_msgs, &v)) {
        if (!msgs_grow(e)) {
            return NULL;
        }
    }
    msg      = xg_spin_msg_at(e, (uint32_t)v);
    msg->ctx = ctx;
    /* (injectors of different contexts may open messages at once) */
    msg->id   = (id != UINT32_MAX)
                    ? id
                    : atomic_fetch_add_explicit(&e->next_msg_id, 1,
                                                memory_order_relaxed);
    msg->home = msg->id % e->nclusters;
    msg->held = msg->held_tail = NULL;
    msg->eom_pkt               = NULL;
    msg->header_sent           = 0;
    msg->pad                   = msg_pad(ctx, msg, &oom);
    if (oom) {
        queue_push(&e->free_msgs, v);
        return NULL;
    }
    if (msg->pad != NULL) {
        memset(msg->pad, 0, ctx->pad_size);
    }
    atomic_store_explicit(&msg->flags, 0, memory_order_relaxed);
    atomic_store_explicit(&msg->nic_sync, 0, memory_order_relaxed);
    atomic_store_explicit(&msg->refs, 1, memory_order_relaxed); /* open */
    atomic_store_explicit(
        &msg->last_ns,
        atomic_load_explicit(&e->coarse_ns, memory_order_relaxed),
        memory_order_relaxed);
    atomic_fetch_add_explicit(&ctx->active, 1, memory_order_relaxed);
    /* release: the fields above before the watchdog may look at it */
    atomic_store_explicit(&msg->life, 1, memory_order_release);
    return msg;
}

void xg_spin_msg_unref(xg_spin_msg_t *msg)
{
    if (atomic_fetch_sub_explicit(&msg->life, 1, memory_order_acq_rel) == 1) {
        queue_push(&xg_spin_engine.free_msgs, msg->index);
    }
}

int xg_spin_msg_fail(xg_spin_msg_t *msg)
{
    return !(atomic_fetch_or_explicit(&msg->flags, XG_SPIN_MSG_FAILED,
                                      memory_order_acq_rel) &
             XG_SPIN_MSG_FAILED);
}

static int msg_failed(const xg_spin_msg_t *msg)
{
    return (atomic_load_explicit(&msg->flags, memory_order_acquire) &
            XG_SPIN_MSG_FAILED) != 0;
}

/* Every packet is done and none will follow (@hpu: the HPU that ends it,
 * or NULL). */
static void msg_end(xg_spin_msg_t *msg, xg_spin_hpu_t *hpu)
{
    xg_spin_ctx_t *ctx = msg->ctx;

    if ((msg->ctx->th != NULL) && (msg->eom_pkt != NULL)) {
        pkt_free(hpu, msg->eom_pkt); /* kept for a completion handler */
    }
    msg->eom_pkt = NULL;
    if (!msg_failed(msg)) {
        __atomic_fetch_add(&ctx->desc->messages, 1, __ATOMIC_RELAXED);
    }
    if (!ctx->raw) {
        xg_spin_portals_done(msg);
    }
    atomic_fetch_sub_explicit(&ctx->active, 1, memory_order_release);
    xg_spin_msg_unref(msg);
}

static void hpu_exec(xg_spin_hpu_t *hpu, xg_spin_pkt_t *pkt);

/* The last reference of @msg is gone: its completion handler, or its end.
 * @hpu: the HPU that dropped it (runs the completion handler at once), or
 * NULL (an injector: an HPU of the home cluster runs it). */
static void msg_drained(xg_spin_msg_t *msg, xg_spin_hpu_t *hpu)
{
    xg_spin_pkt_t *pkt = msg->eom_pkt;

    if ((msg->ctx->th != NULL) && (pkt != NULL) && !msg_failed(msg)) {
        pkt->run = XG_SPIN_RUN_COMPLETION;
        if ((hpu != NULL) && (hpu->cluster == msg->home)) {
            hpu_exec(hpu, pkt);
        } else {
            ready_push(pkt);
            xg_spin_wake();
        }
        return;
    }
    msg_end(msg, hpu);
}

/* Drops @n references of @msg. */
static void msg_put_n(xg_spin_msg_t *msg, xg_spin_hpu_t *hpu, uint32_t n)
{
    /* acq_rel: every handler's work before whoever ends the message */
    if (atomic_fetch_sub_explicit(&msg->refs, n, memory_order_acq_rel) == n) {
        msg_drained(msg, hpu);
    }
}

static void msg_put(xg_spin_msg_t *msg, xg_spin_hpu_t *hpu)
{
    msg_put_n(msg, hpu, 1);
}

/* The references @hpu has kept back. */
static void hpu_flush_puts(xg_spin_hpu_t *hpu)
{
    xg_spin_msg_t *msg = hpu->put_msg;

    if (msg != NULL) {
        hpu->put_msg = NULL;
        msg_put_n(msg, hpu, hpu->put_n);
    }
}

/* An HPU's packet of @msg is done: the reference is dropped with the
 * next ones of the same message, as long as the HPU has work (it flushes
 * before it switches messages or looks for more work). */
static void hpu_put(xg_spin_hpu_t *hpu, xg_spin_msg_t *msg)
{
    if (hpu->put_msg == msg) {
        hpu->put_n++;
        return;
    }
    hpu_flush_puts(hpu);
    hpu->put_msg = msg;
    hpu->put_n   = 1;
}

void xg_spin_msg_close(xg_spin_msg_t *msg)
{
    if (!(atomic_fetch_or_explicit(&msg->flags, XG_SPIN_MSG_OPEN_GONE,
                                   memory_order_acq_rel) &
          XG_SPIN_MSG_OPEN_GONE)) {
        msg_put(msg, NULL);
    }
}

/* @pkt's handlers are done: its slot (kept for the completion handler if
 * it ends the message), its reference. */
static void pkt_finish(xg_spin_hpu_t *hpu, xg_spin_pkt_t *pkt)
{
    xg_spin_msg_t *msg = pkt->msg;

    /* (the packet's own flag: msg->eom_pkt is the injector's until the
     * message drains) */
    if (!pkt->eom || (msg->ctx->th == NULL)) {
        pkt_free(hpu, pkt);
    }
    hpu_put(hpu, msg);
}

int xg_spin_pkt_inject(xg_spin_msg_t *msg, xg_spin_pkt_t *pkt)
{
    xg_spin_ctx_t *ctx = msg->ctx;
    uint32_t flags, refs;

    /* a message that is closed (or reset) takes no more packets; refs
     * never climb back from 0, so it ends once */
    if (atomic_load_explicit(&msg->flags, memory_order_acquire) &
        XG_SPIN_MSG_OPEN_GONE) {
        return 0;
    }
    refs = atomic_load_explicit(&msg->refs, memory_order_relaxed);
    do {
        if (refs == 0) {
            return 0;
        }
    } while (!atomic_compare_exchange_weak_explicit(&msg->refs, &refs, refs + 1,
                                                    memory_order_acq_rel,
                                                    memory_order_relaxed));
    pkt->msg = msg;
    /* the watchdog's clock: no system call per packet */
    atomic_store_explicit(
        &msg->last_ns,
        atomic_load_explicit(&xg_spin_engine.coarse_ns, memory_order_relaxed),
        memory_order_relaxed);
    if (pkt->eom) {
        msg->eom_pkt = pkt;
    }
    pkt->run = XG_SPIN_RUN_PAYLOAD;
    if (ctx->hh != NULL) {
        if (!msg->header_sent) {
            msg->header_sent = 1;
            pkt->run         = XG_SPIN_RUN_HEADER;
        } else {
            flags = atomic_load_explicit(&msg->flags, memory_order_acquire);
            if (!(flags & XG_SPIN_MSG_HEADER_DONE)) {
                xg_spinlock_lock(&msg->lock);
                flags = atomic_load_explicit(&msg->flags, memory_order_relaxed);
                if (!(flags & XG_SPIN_MSG_HEADER_DONE)) {
                    /* the header handler releases it */
                    pkt->next = NULL;
                    if (msg->held_tail != NULL) {
                        msg->held_tail->next = pkt;
                    } else {
                        msg->held = pkt;
                    }
                    msg->held_tail = pkt;
                    xg_spinlock_unlock(&msg->lock);
                    return 1;
                }
                xg_spinlock_unlock(&msg->lock);
            }
        }
    }
    ready_push(pkt);
    xg_spin_wake();
    return 1;
}

/* ------------------------------------------------------------------------
 * Running handlers
 * --------------------------------------------------------------------- */

static void task_fill(xg_spin_hpu_t *hpu, const xg_spin_pkt_t *pkt)
{
    const xg_spin_msg_t *msg = pkt->msg;
    const xg_spin_ctx_t *ctx = msg->ctx;
    task_t *t                = hpu->task;
    unsigned c;

    t->handler_mem      = ctx->hmem;
    t->handler_mem_size = ctx->hmem_size;
    t->pkt_mem          = pkt->data;
    t->pkt_mem_size     = pkt->len;
    for (c = 0; c < XG_SPIN_NCLUSTERS; c++) {
        t->scratchpad[c]      = ctx->scratch[c];
        t->scratchpad_size[c] = ctx->scratch_size[c];
    }
    t->host_mem_high          = (uint32_t)(ctx->host_base >> 32);
    t->host_mem_low           = (uint32_t)ctx->host_base;
    t->host_mem_size          = ctx->host_size;
    t->l2_pkt_mem             = pkt->data;
    t->home_cluster_id        = msg->home;
    t->flow_id                = msg->id;
    t->xg_msg_offset          = pkt->offset;
    t->xg_msg_length          = msg->mlength;
    t->xg_match_bits          = msg->match_bits;
    t->xg_hdr_data            = msg->hdr_data;
    t->xg_source              = msg->source;
    t->xg_eom                 = pkt->eom;
    t->xg_msg_scratchpad      = msg->pad;
    t->xg_msg_scratchpad_size = (msg->pad != NULL) ? ctx->pad_size : 0;
    hpu->args.task            = t;
    hpu->args.hpu_gid         = hpu->gid;
    hpu->args.cluster_id      = hpu->cluster;
    hpu->args.hpu_id          = hpu->core;
}

/* sigsetjmp saves no signal mask (that would be a system call per
 * handler; signals of faults are not blocked, SA_NODEFER).  Under
 * ThreadSanitizer a jump out of a signal handler works only to a context
 * that saved its mask (gcc 12's interceptors), so there it does. */
#if defined(__SANITIZE_THREAD__)
#define XG_SPIN_SAVEMASK 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define XG_SPIN_SAVEMASK 1
#endif
#endif
#ifndef XG_SPIN_SAVEMASK
#define XG_SPIN_SAVEMASK 0
#endif

/* Runs @fn on @pkt; 1 if it returned, 0 if it faulted (reported). */
static XG_NOINLINE int run_handler(xg_spin_hpu_t *hpu, xg_spin_pkt_t *pkt,
                                   handler_fn fn, int kind)
{
    uint32_t seq = atomic_load_explicit(&hpu->seq, memory_order_relaxed);
    int ok;

    task_fill(hpu, pkt);
    hpu->pkt         = pkt;
    hpu->msg         = pkt->msg;
    hpu->run         = kind;
    hpu->fault       = XG_SPIN_FAULT_NONE;
    hpu->fault_quiet = 0;
    atomic_store_explicit(&hpu->wd_limit, pkt->msg->ctx->watchdog_ns,
                          memory_order_relaxed);
    /* odd: a handler runs (the watchdog's view) */
    atomic_store_explicit(&hpu->seq, seq + 1, memory_order_release);
    if (sigsetjmp(hpu->jb, XG_SPIN_SAVEMASK) == 0) {
        hpu->in_handler = 1;
        fn(&hpu->args);
        hpu->in_handler = 0;
        ok              = 1;
        if (xg_spin_kill_asked(hpu)) {
            /* the watchdog gave up on it before it returned: a system
             * call its signal interrupted (pause, sleep) made it return
             * early, but it ran too long all the same */
            hpu->fault      = XG_SPIN_FAULT_WATCHDOG;
            hpu->fault_sig  = xg_spin_fault_signal();
            hpu->fault_addr = 0;
            ok              = 0;
        }
    } else {
        hpu->in_handler = 0; /* a fault: fault.c jumped back here */
        ok              = 0;
    }
    atomic_store_explicit(&hpu->seq, seq + 2, memory_order_release);
    hpu->kill_pending = 0;
    if (!ok) {
        xg_spin_event_t ev;

        memset(&ev, 0, sizeof(ev));
        ev.ctx     = pkt->msg->ctx;
        ev.fault   = (xg_spin_fault_t)hpu->fault;
        ev.handler = (uint32_t)kind;
        ev.msg     = pkt->msg->id;
        ev.addr    = hpu->fault_addr;
        ev.signal  = hpu->fault_sig;
        ev.hpu     = hpu->gid;
        /* one report per message: handlers of its other packets that
         * were already running may fault too */
        if (xg_spin_msg_fail(pkt->msg) && !hpu->fault_quiet) {
            xg_spin_fault_report(pkt->msg->ctx, &ev);
        }
    }
    return ok;
}

/* The header handler of @msg is done (@ok: it returned): the packets it
 * held back go to work, or are dropped if it failed. */
static void header_done(xg_spin_hpu_t *hpu, xg_spin_msg_t *msg, int ok)
{
    xg_spin_pkt_t *pkt, *next;
    unsigned n = 0;

    xg_spinlock_lock(&msg->lock);
    atomic_fetch_or_explicit(&msg->flags, XG_SPIN_MSG_HEADER_DONE,
                             memory_order_release);
    pkt       = msg->held;
    msg->held = msg->held_tail = NULL;
    xg_spinlock_unlock(&msg->lock);
    for (; pkt != NULL; pkt = next) {
        next = pkt->next;
        if (ok) {
            ready_push(pkt);
            n++;
        } else {
            pkt_finish(hpu, pkt);
        }
    }
    if (n != 0) {
        xg_spin_wake();
    }
}

static void hpu_exec(xg_spin_hpu_t *hpu, xg_spin_pkt_t *pkt)
{
    xg_spin_msg_t *msg = pkt->msg;
    xg_spin_ctx_t *ctx = msg->ctx;
    int ok;

    hpu->packets++;
    if (pkt->run == XG_SPIN_RUN_COMPLETION) {
        run_handler(hpu, pkt, ctx->th, XG_SPIN_HANDLER_COMPLETION);
        msg_end(msg, hpu);
        return;
    }
    if (pkt->run == XG_SPIN_RUN_HEADER) {
        /* the first packet: the header handler, then its payload's */
        ok = msg_failed(msg)
                 ? 0
                 : run_handler(hpu, pkt, ctx->hh, XG_SPIN_HANDLER_HEADER);
        header_done(hpu, msg, ok);
    }
    if ((ctx->ph != NULL) && !msg_failed(msg)) {
        run_handler(hpu, pkt, ctx->ph, XG_SPIN_HANDLER_PAYLOAD);
    }
    if (!ctx->raw && (ctx->flags & XG_SPIN_CTX_DELIVER) && !msg_failed(msg)) {
        xg_spin_portals_land(msg, pkt);
    }
    pkt_finish(hpu, pkt);
}

/* ------------------------------------------------------------------------
 * HPU threads
 * --------------------------------------------------------------------- */

/* Work for @hpu: payloads it took already, its cluster's header and
 * completion handlers, then payloads of its cluster, then of the others
 * (a few at a time: one claim of the queue for them). */
static xg_spin_pkt_t *hpu_take(xg_spin_hpu_t *hpu)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    uintptr_t v[XG_SPIN_TAKE];
    unsigned i, c, n, k;

    if (hpu->batch_at < hpu->batch_n) {
        return hpu->batch[hpu->batch_at++];
    }
    if (xg_mpmc_pop(&e->home_only[hpu->cluster], &v[0])) {
        return (xg_spin_pkt_t *)v[0];
    }
    for (i = 0; i < e->nclusters; i++) {
        c = (hpu->cluster + i) % e->nclusters;
        n = xg_mpmc_pop_many(&e->ready[c], v, XG_SPIN_TAKE);
        if (n != 0) {
            for (k = 1; k < n; k++) {
                hpu->batch[k - 1] = (xg_spin_pkt_t *)v[k];
            }
            hpu->batch_at = 0;
            hpu->batch_n  = n - 1;
            return (xg_spin_pkt_t *)v[0];
        }
    }
    return NULL;
}

static void *hpu_main(void *arg)
{
    xg_spin_hpu_t *hpu  = arg;
    xg_spin_engine_t *e = &xg_spin_engine;
    xg_spin_pkt_t *pkt;
    uint64_t idle_since = 0;
    uint32_t ticket;
    xg_wait_t wait;

    xg_spin_tls_hpu = hpu;
    hpu->self       = pthread_self();
    if (pthread_getcpuclockid(pthread_self(), &hpu->cpu_clock) != 0) {
        hpu->cpu_clock = CLOCK_MONOTONIC;
    }
    if (xg_spin_hpu_signals_init(hpu) != 0) {
        return NULL;
    }
    xg_wait_init(&wait);
    while (!atomic_load_explicit(&e->stop, memory_order_acquire)) {
        pkt = hpu_take(hpu);
        if (pkt != NULL) {
            hpu_exec(hpu, pkt);
            idle_since = 0;
            xg_wait_init(&wait);
            continue;
        }
        /* no work: the references kept back go now (one may end a
         * message, and another HPU may wait for it), and the slots */
        if ((hpu->put_msg != NULL) || (hpu->stash_n != 0)) {
            hpu_flush_puts(hpu);
            hpu_flush_slots(hpu);
            continue;
        }
        if (idle_since == 0) {
            idle_since = xg_time_ns();
        }
        if (xg_time_ns() - idle_since < e->idle_ns) {
            xg_wait_backoff(&wait);
            continue;
        }
        /* sleep: the ticket first, then the last look (see xg_spin_wake) */
        ticket = atomic_load_explicit(&e->work_seq, memory_order_seq_cst);
        atomic_fetch_add_explicit(&e->sleepers, 1, memory_order_seq_cst);
        pkt = hpu_take(hpu);
        if ((pkt == NULL) &&
            !atomic_load_explicit(&e->stop, memory_order_acquire)) {
            futex_wait(&e->work_seq, ticket);
        }
        atomic_fetch_sub_explicit(&e->sleepers, 1, memory_order_relaxed);
        if (pkt != NULL) {
            hpu_exec(hpu, pkt);
        }
        idle_since = 0;
        xg_wait_init(&wait);
    }
    hpu_flush_puts(hpu);
    hpu_flush_slots(hpu);
    xg_spin_hpu_signals_fini(hpu);
    xg_spin_tls_hpu = NULL;
    return NULL;
}

/* ------------------------------------------------------------------------
 * Life cycle
 * --------------------------------------------------------------------- */

static void engine_free(xg_spin_engine_t *e)
{
    unsigned c;

    for (c = 0; c < XG_SPIN_NCLUSTERS; c++) {
        if (e->ready[c].cells != NULL) {
            xg_mpmc_fini(&e->ready[c]);
        }
        if (e->home_only[c].cells != NULL) {
            xg_mpmc_fini(&e->home_only[c]);
        }
    }
    if (e->free_slots.cells != NULL) {
        xg_mpmc_fini(&e->free_slots);
    }
    if (e->free_msgs.cells != NULL) {
        xg_mpmc_fini(&e->free_msgs);
    }
    free(e->pkts);
    for (c = 0; c < XG_SPIN_MPQ_CHUNKS; c++) {
        free(e->msgs[c]);
        e->msgs[c] = NULL;
    }
    atomic_store_explicit(&e->nchunks, 0, memory_order_relaxed);
    atomic_store_explicit(&e->nmsgs_all, 0, memory_order_relaxed);
    free(e->hpus);
    e->pkts = NULL;
    e->hpus = NULL;
}

static void engine_stop_hpus(xg_spin_engine_t *e, unsigned started)
{
    unsigned i;

    atomic_store_explicit(&e->stop, 1, memory_order_release);
    xg_spin_wake();
    for (i = 0; i < started; i++) {
        pthread_join(e->hpus[i].thread, NULL);
    }
}

/* Sizes and tables from the settings (engine lock held). */
static xg_status_t engine_setup(xg_spin_engine_t *e)
{
    uint32_t i;
    unsigned c;

    e->nclusters    = (unsigned)xg_config.spin_clusters;
    e->cluster_hpus = (unsigned)xg_config.spin_cluster_hpus;
    e->nhpus        = e->nclusters * e->cluster_hpus;
    e->slot_size    = (uint32_t)xg_align_up(xg_config.spin_pkt_size, 64);
    e->nslots       = (uint32_t)(xg_config.spin_pkt_buffer / e->slot_size);
    e->nmsgs        = (uint32_t)xg_config.spin_mpqs;
    /* a stash per HPU only where the buffer is large next to them */
    e->stash_max = e->nslots / (8 * e->nhpus);
    if (e->stash_max > XG_SPIN_STASH) {
        e->stash_max = XG_SPIN_STASH;
    }
    e->idle_ns          = (uint64_t)xg_config.spin_idle_us * 1000;
    e->wd_default_ns    = (uint64_t)xg_config.spin_watchdog_us * 1000;
    e->stall_default_ns = (uint64_t)xg_config.spin_stall_ms * 1000000;
    if (e->nslots == 0) {
        xg_error("spin",
                 "XGAS_SPIN_PKT_BUFFER=%llu holds no packet of "
                 "XGAS_SPIN_PKT_SIZE=%u bytes: make the buffer larger",
                 (unsigned long long)xg_config.spin_pkt_buffer, e->slot_size);
        return XG_ERR_INVALID_PARAM;
    }
    e->pkts     = calloc(e->nslots, sizeof(*e->pkts));
    e->max_msgs = (e->nmsgs > XG_SPIN_MPQ_MAX) ? e->nmsgs : XG_SPIN_MPQ_MAX;
    e->msgs[0]  = calloc(e->nmsgs, sizeof(*e->msgs[0]));
    e->hpus     = aligned_alloc(XG_CACHELINE, e->nhpus * sizeof(*e->hpus));
    /* every queue holds at most all slots (or MPQs the table may have);
     * room for four times that, so that a consumer preempted between
     * claiming a cell and reading it rarely holds a producer up
     * (queue_push) */
    if ((e->pkts == NULL) || (e->msgs[0] == NULL) || (e->hpus == NULL) ||
        (xg_mpmc_init(&e->free_slots, 4 * (uint64_t)e->nslots) != 0) ||
        (xg_mpmc_init(&e->free_msgs, 4 * (uint64_t)e->max_msgs) != 0)) {
        return XG_ERR_NO_MEMORY;
    }
    atomic_store_explicit(&e->nchunks, 1, memory_order_relaxed);
    atomic_store_explicit(&e->nmsgs_all, e->nmsgs, memory_order_relaxed);
    for (c = 0; c < XG_SPIN_NCLUSTERS; c++) {
        if ((xg_mpmc_init(&e->ready[c], 4 * (uint64_t)e->nslots) != 0) ||
            (xg_mpmc_init(&e->home_only[c], 4 * (uint64_t)e->nslots) != 0)) {
            return XG_ERR_NO_MEMORY;
        }
    }
    memset(e->hpus, 0, e->nhpus * sizeof(*e->hpus));
    for (i = 0; i < e->nmsgs; i++) {
        e->msgs[0][i].index = i;
        xg_spinlock_init(&e->msgs[0][i].lock);
        xg_mpmc_push(&e->free_msgs, i);
    }
    for (i = 0; i < e->nslots; i++) {
        xg_mpmc_push(&e->free_slots, i);
    }
    return XG_OK;
}

static xg_status_t engine_start(xg_spin_engine_t *e)
{
    pthread_attr_t attr;
    xg_spin_hpu_t *hpu;
    xg_status_t status;
    unsigned i;
    size_t stack;

    status = xg_config_load();
    if (status != XG_OK) {
        return status;
    }
    stack  = (size_t)xg_align_up(xg_config.spin_hpu_stack, 4096);
    status = xg_spin_portals_listen();
    if (status != XG_OK) {
        return status;
    }
    status = engine_setup(e);
    if (status != XG_OK) {
        goto err_free;
    }
    status = xg_spin_mem_map();
    if (status != XG_OK) {
        goto err_free;
    }
    for (i = 0; i < e->nslots; i++) {
        e->pkts[i].data = e->pktbuf + (size_t)i * e->slot_size;
    }
    e->t0 = xg_time_ns();
    atomic_store_explicit(&e->coarse_ns, 0, memory_order_relaxed);
    atomic_store_explicit(&e->stop, 0, memory_order_relaxed);
    status = xg_spin_fault_start();
    if (status != XG_OK) {
        goto err_unmap;
    }
    for (i = 0; i < e->nhpus; i++) {
        hpu             = &e->hpus[i];
        hpu->cluster    = i / e->cluster_hpus;
        hpu->core       = i % e->cluster_hpus;
        hpu->gid        = hpu->cluster * NB_CORES + hpu->core;
        hpu->task       = xg_spin_mem_task(hpu->cluster, hpu->core);
        hpu->stack      = xg_spin_mem_stack(hpu->gid, stack);
        hpu->stack_size = stack;
        if ((hpu->stack == NULL) || (pthread_attr_init(&attr) != 0)) {
            status = XG_ERR_NO_MEMORY;
            break;
        }
        if ((errno = pthread_attr_setstack(&attr, hpu->stack, stack)) ||
            (errno = pthread_create(&hpu->thread, &attr, hpu_main, hpu))) {
            pthread_attr_destroy(&attr);
            xg_error("spin",
                     "cannot start HPU thread %u on a stack of %zu "
                     "bytes: %m (the thread's TLS lives on it too: raise "
                     "XGAS_SPIN_HPU_STACK)",
                     i, stack);
            status = XG_ERR_NO_RESOURCE;
            break;
        }
        pthread_attr_destroy(&attr);
    }
    if (status != XG_OK) {
        engine_stop_hpus(e, i);
        xg_spin_fault_stop();
        goto err_unmap;
    }
    xg_info("spin",
            "engine started: %u clusters x %u HPUs, %u packet "
            "slots of %u bytes, %u MPQs",
            e->nclusters, e->cluster_hpus, e->nslots, e->slot_size, e->nmsgs);
    return XG_OK;

err_unmap:
    xg_spin_mem_unmap();
err_free:
    engine_free(e);
    return status;
}

xg_status_t xg_spin_engine_get(void)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    xg_status_t status  = XG_OK;

    pthread_mutex_lock(&e->lock);
    if (e->refs == 0) {
        status = engine_start(e);
    }
    if (status == XG_OK) {
        e->refs++;
    }
    pthread_mutex_unlock(&e->lock);
    return status;
}

void xg_spin_engine_put(void)
{
    xg_spin_engine_t *e = &xg_spin_engine;

    pthread_mutex_lock(&e->lock);
    xg_assert(e->refs > 0);
    if (--e->refs == 0) {
        engine_stop_hpus(e, e->nhpus);
        xg_spin_fault_stop();
        xg_spin_obj_unload_all();
        xg_spin_mem_unmap();
        engine_free(e);
    }
    pthread_mutex_unlock(&e->lock);
}
