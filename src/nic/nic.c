/*
 * The process's software NIC: its transport endpoint, the per-peer send
 * queues and receive streams, and the progress thread that makes every NI
 * of the process progress on its own -- the application never has to call
 * into the library for a put to land, a get to be answered or a triggered
 * operation to fire.
 *
 * Progress thread: polls the inbound packet queue and the send backlogs.
 * When there is nothing to do it keeps polling (with xg_wait backoff) for
 * XGAS_NIC_SPIN_US, then sleeps on the transport's doorbell; a sender rings
 * the doorbell only when the receiver sleeps, so an idle NIC costs no CPU
 * and a busy one no system calls.  Packets are handled in batches of up to
 * 64, each NI's lock taken once per batch.
 *
 * Waiting threads poll too: PtlCTWait, PtlEQWait and friends run
 * xg_nic_progress_once between their checks, and whichever thread takes
 * the poller role first does the work.  A thread that waits for an answer
 * thus handles it itself -- no wake-up of a sleeping thread, no context
 * switch on a busy core -- while the progress thread guarantees that
 * everything progresses when nobody waits.
 *
 * Receive dispatch: each packet is validated (xg_nic_wire_parse), then
 * either starts a message (a request: the target state machine; a
 * response: the initiator side) or continues the sender's current message
 * (DATA packets, tracked per peer).  Anything malformed or out of sequence
 * is dropped and counted; a broken message is aborted, never waited for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/xg_config.h"
#include "base/xg_time.h"
#include "base/xg_wait.h"
#include "boot/xg_boot.h"
#include "nic/xg_nic_int.h"

/* Packets per poll: the poller holds an NI lock for a whole batch, so a
 * short batch bounds how long an application thread of the same process
 * waits for that lock (loopback traffic: both sides are one NI). */
#define RX_BATCH 16

xg_nic_t *xg_nic_global;

static pthread_mutex_t nic_lock = PTHREAD_MUTEX_INITIALIZER;
static int nic_refs;
static int nic_atexit_set;
static __thread int nic_tls_progress;

int xg_nic_in_progress_thread(const xg_nic_t *nic)
{
    (void)nic;
    return nic_tls_progress;
}

int xg_nic_is_initialized(void)
{
    return __atomic_load_n(&nic_refs, __ATOMIC_ACQUIRE) > 0;
}

void xg_nic_count_malformed(xg_nic_t *nic, xg_nic_wire_err_t why)
{
    atomic_fetch_add_explicit(&nic->malformed[why], 1, memory_order_relaxed);
}

/* ------------------------------------------------------------------------
 * PtlAbort (Portals 4.3)
 *
 * A waiter counts itself in before it looks at the flag, PtlAbort sets
 * the flag before it looks at the count (both sequentially consistent):
 * either the waiter sees the flag, or PtlAbort sees the waiter and waits
 * for it to leave.  Waiters look at the flag on every turn of their loop.
 * --------------------------------------------------------------------- */

int xg_nic_wait_enter(xg_nic_t *nic)
{
    atomic_fetch_add_explicit(&nic->waiters, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&nic->aborted, memory_order_seq_cst) != 0) {
        atomic_fetch_sub_explicit(&nic->waiters, 1, memory_order_release);
        return PTL_ABORTED;
    }
    return PTL_OK;
}

void xg_nic_wait_leave(xg_nic_t *nic)
{
    atomic_fetch_sub_explicit(&nic->waiters, 1, memory_order_release);
}

void xg_nic_abort(void)
{
    xg_nic_t *nic = __atomic_load_n(&xg_nic_global, __ATOMIC_ACQUIRE);
    xg_wait_t wait;

    if (nic == NULL) {
        return;
    }
    atomic_store_explicit(&nic->aborted, 1, memory_order_seq_cst);
    xg_wait_init(&wait);
    while (atomic_load_explicit(&nic->waiters, memory_order_seq_cst) != 0) {
        if (xg_nic_in_progress_thread(nic)) {
            break; /* called from engine code: nobody waits on us */
        }
        xg_wait_backoff(&wait);
    }
}

/* ------------------------------------------------------------------------
 * Receiving
 * --------------------------------------------------------------------- */

static void rx_lock_ni(xg_nic_t *nic, xg_nic_ni_t *ni)
{
    if (nic->rx_locked != ni) {
        if (nic->rx_locked != NULL) {
            pthread_mutex_unlock(&nic->rx_locked->lock);
        }
        pthread_mutex_lock(&ni->lock);
        nic->rx_locked = ni;
    }
}

void xg_nic_rx_release(xg_nic_t *nic)
{
    if (nic->rx_locked != NULL) {
        pthread_mutex_unlock(&nic->rx_locked->lock);
        nic->rx_locked = NULL;
    }
}

/* The stream from @peer broke off mid-message: abort what it carried. */
static void rx_abort(xg_nic_t *nic, xg_nic_peer_t *peer)
{
    xg_nic_rx_t *rx = &peer->rx;
    xg_nic_ni_t *ni = &nic->ni[rx->ni];
    uint8_t kind = rx->kind;

    rx->kind = XG_RX_IDLE;
    if ((kind == XG_RX_IDLE) || (kind == XG_RX_DISCARD)) {
        return;
    }
    rx_lock_ni(nic, ni);
    if (!xg_nic_ni_is_open(ni) || (ni->incarnation != rx->incarnation)) {
        return;
    }
    if (kind == XG_RX_TGT) {
        xg_nic_tgt_abort(ni, rx->tgt);
    } else {
        xg_nic_init_rx_reply_fail(ni, rx);
    }
}

static void rx_data(xg_nic_t *nic, xg_nic_peer_t *peer,
                    const xg_nic_wire_t *hdr, const uint8_t *data)
{
    xg_nic_rx_t *rx = &peer->rx;
    xg_nic_ni_t *ni = &nic->ni[hdr->ni];

    if ((rx->kind == XG_RX_IDLE) || (rx->ni != hdr->ni) ||
        (hdr->offset != rx->next) || (hdr->payload > rx->end - rx->next)) {
        /* a continuation of nothing, or out of sequence */
        xg_nic_count_malformed(nic, XG_WIRE_ERR_FIELD);
        xg_nic_sr_inc(ni, PTL_SR_DROP_COUNT);
        rx_abort(nic, peer);
        return;
    }
    if (rx->kind == XG_RX_DISCARD) {
        rx->next += hdr->payload;
        if (rx->next == rx->end) {
            rx->kind = XG_RX_IDLE;
        }
        return;
    }
    rx_lock_ni(nic, ni);
    if (!xg_nic_ni_is_open(ni) || (ni->incarnation != rx->incarnation)) {
        /* the NI closed under the message: drop the rest quietly */
        rx->kind = XG_RX_DISCARD;
        rx->next += hdr->payload;
        if (rx->next == rx->end) {
            rx->kind = XG_RX_IDLE;
        }
        return;
    }
    if (rx->kind == XG_RX_TGT) {
        xg_nic_tgt_rx_data(ni, rx, data, hdr->payload);
    } else {
        xg_nic_init_rx_reply_data(ni, rx, data, hdr->payload);
    }
}

void xg_nic_rx_packet(xg_nic_t *nic, const void *buf, size_t len)
{
    const uint8_t *data = (const uint8_t *)buf + sizeof(xg_nic_wire_t);
    xg_nic_wire_err_t err;
    xg_nic_wire_t hdr;
    xg_nic_peer_t *peer;
    xg_nic_ni_t *ni;

    atomic_fetch_add_explicit(&nic->rx_packets, 1, memory_order_relaxed);
    err = xg_nic_wire_parse(buf, len, &hdr);
    if (err != XG_WIRE_OK) {
        xg_nic_count_malformed(nic, err);
        return;
    }
    if (hdr.src_rank >= (uint32_t)nic->npes) {
        xg_nic_count_malformed(nic, XG_WIRE_ERR_FIELD);
        return;
    }
    peer = &nic->peers[hdr.src_rank];
    if (hdr.type == XG_WIRE_DATA) {
        rx_data(nic, peer, &hdr, data);
        return;
    }
    if (peer->rx.kind != XG_RX_IDLE) {
        /* a new message while the last one is incomplete */
        xg_nic_count_malformed(nic, XG_WIRE_ERR_FIELD);
        rx_abort(nic, peer);
    }
    ni = &nic->ni[hdr.ni];
    rx_lock_ni(nic, ni);
    if (!xg_nic_ni_is_open(ni)) {
        atomic_fetch_add_explicit(&nic->rx_dropped, 1, memory_order_relaxed);
        if (xg_nic_wire_is_request(hdr.type)) {
            xg_nic_tgt_refuse(ni, &hdr);
        }
        return;
    }
    peer->rx.incarnation = ni->incarnation;
    switch ((xg_nic_wire_type_t)hdr.type) {
    case XG_WIRE_PUT:
    case XG_WIRE_GET:
    case XG_WIRE_ATOMIC:
    case XG_WIRE_FETCH:
    case XG_WIRE_SWAP:
        xg_nic_tgt_rx_request(ni, peer, &hdr, data);
        break;
    case XG_WIRE_ACK:
        xg_nic_init_rx_ack(ni, &hdr);
        break;
    case XG_WIRE_REPLY:
        xg_nic_init_rx_reply(ni, peer, &hdr, data);
        break;
    case XG_WIRE_RNDV_GET:
        xg_nic_init_rx_rndv_get(ni, &hdr);
        break;
    case XG_WIRE_RNDV_DATA:
        xg_nic_tgt_rx_rndv_data(ni, peer, &hdr, data);
        break;
    default:
        break;
    }
}

static void nic_rx_func(void *arg, const void *pkt, size_t len)
{
    xg_nic_rx_packet(arg, pkt, len);
}

unsigned xg_nic_progress_once(xg_nic_t *nic)
{
    int was_progress = nic_tls_progress;
    unsigned n;

    /* the inbound queue has one consumer: whoever holds the poller role */
    if (atomic_flag_test_and_set_explicit(&nic->poll_lock.flag,
                                          memory_order_acquire)) {
        return 0;
    }
    nic_tls_progress = 1; /* engine code run here acts as the NIC */
    n = nic->xport.ops.rx_poll(nic->xport.ep, RX_BATCH, nic_rx_func, nic);
    xg_nic_rx_release(nic);
    n += xg_nic_tx_progress(nic);
    nic_tls_progress = was_progress;
    xg_nic_spin_unlock(&nic->poll_lock);
    return n;
}

/* ------------------------------------------------------------------------
 * Progress thread
 * --------------------------------------------------------------------- */

/* The progress thread's last look before it sleeps (see rx_wait). */
static int nic_may_sleep(void *arg)
{
    xg_nic_t *nic = arg;

    return (atomic_load_explicit(&nic->stop, memory_order_seq_cst) == 0) &&
           (atomic_load_explicit(&nic->backlog, memory_order_seq_cst) == 0);
}

static void *nic_progress_main(void *arg)
{
    xg_nic_t *nic = arg;
    uint64_t idle_since = 0, now;
    xg_wait_t wait;

    nic_tls_progress = 1;
    xg_wait_init(&wait);
    while (!atomic_load_explicit(&nic->stop, memory_order_acquire)) {
        if (xg_nic_progress_once(nic) > 0) {
            idle_since = 0;
            xg_wait_init(&wait);
            continue;
        }
        if (atomic_load_explicit(&nic->backlog, memory_order_relaxed) != 0) {
            /* a peer's queue is full: retry soon, never sleep on it */
            xg_wait_backoff(&wait);
            continue;
        }
        now = xg_time_ns();
        if (idle_since == 0) {
            idle_since = now;
        }
        if (now - idle_since < nic->spin_ns) {
            xg_wait_backoff(&wait);
            continue;
        }
        /* idle: sleep until a sender rings (or a timeout, to re-check) */
        nic->xport.ops.rx_wait(nic->xport.ep, 100 * 1000000ull,
                               nic_may_sleep, nic);
        idle_since = 0;
        xg_wait_init(&wait);
    }
    return NULL;
}

xg_status_t xg_nic_start_progress(xg_nic_t *nic)
{
    xg_status_t status = XG_OK;

    pthread_mutex_lock(&nic_lock);
    if (!nic->thread_running && !nic->manual_progress) {
        atomic_store_explicit(&nic->stop, 0, memory_order_relaxed);
        if (pthread_create(&nic->thread, NULL, nic_progress_main, nic) !=
            0) {
            xg_error("nic", "cannot start the progress thread (%m)");
            status = XG_ERR_NO_RESOURCE;
        } else {
            __atomic_store_n(&nic->thread_running, 1, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&nic_lock);
    return status;
}

void xg_nic_stop_progress(xg_nic_t *nic)
{
    nic->manual_progress = 1;
    if (!nic->thread_running) {
        return;
    }
    atomic_store_explicit(&nic->stop, 1, memory_order_release);
    nic->xport.ops.rx_wake(nic->xport.ep);
    pthread_join(nic->thread, NULL);
    __atomic_store_n(&nic->thread_running, 0, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------------------
 * Life cycle
 * --------------------------------------------------------------------- */

static int nic_configure(xg_nic_t *nic)
{
    const char *mode = xg_config.nic_rndv;

    nic->eager_limit = xg_config.nic_eager_limit;
    nic->rndv_eager  = xg_config.nic_rndv_eager;
    nic->hashing     = xg_config.nic_hash;
    nic->held_size   = xg_config.nic_unexpected_size;
    nic->spin_ns     = (xg_config.nic_spin_us > 0)
                           ? (uint64_t)xg_config.nic_spin_us * 1000u : 0;
    if ((mode == NULL) || (strcasecmp(mode, "triggered") == 0)) {
        nic->rndv_triggered = 1;
    } else if (strcasecmp(mode, "get") == 0) {
        nic->rndv_triggered = 0;
    } else {
        xg_error("nic", "XGAS_NIC_RNDV='%s' is not valid: expected "
                 "triggered or get", mode);
        return -1;
    }
    if ((nic->held_size < 4096) || (nic->held_size > (1ull << 36))) {
        xg_error("nic", "XGAS_NIC_UNEXPECTED_SIZE=%llu is out of range "
                 "(4K..64G)", (unsigned long long)nic->held_size);
        return -1;
    }
    return 0;
}

/* Stops receiving for good (last PtlFini, or exit): the packets already
 * in the inbound queue are handled -- requests to closed NIs are refused,
 * so their initiators hear PTL_NI_UNDELIVERABLE -- and every later sender
 * is refused by the transport at once.  Then what is queued for peers
 * (those refusals included) gets a bounded last chance to leave. */
static void nic_close_endpoint(xg_nic_t *nic)
{
    xg_wait_t wait;
    int i;

    xg_wait_init(&wait);
    while (atomic_flag_test_and_set_explicit(&nic->poll_lock.flag,
                                             memory_order_acquire)) {
        xg_wait_backoff(&wait); /* a waiting thread is polling: let it */
    }
    nic_tls_progress = 1;
    nic->xport.ops.rx_close(nic->xport.ep, nic_rx_func, nic);
    xg_nic_rx_release(nic);
    nic_tls_progress = 0;
    xg_nic_spin_unlock(&nic->poll_lock);
    for (i = 0; (i < 1000) &&
                (atomic_load_explicit(&nic->backlog, memory_order_relaxed) !=
                 0); i++) {
        xg_nic_progress_once(nic);
        usleep(100);
    }
}

/* A process that exits without its last PtlFini: close the endpoint so
 * that senders are refused instead of filling a queue nobody reads. */
static void nic_at_exit(void)
{
    xg_nic_t *nic;

    pthread_mutex_lock(&nic_lock);
    nic = (nic_refs > 0) ? xg_nic_global : NULL;
    pthread_mutex_unlock(&nic_lock);
    if (nic != NULL) {
        xg_nic_stop_progress(nic);
        nic_close_endpoint(nic);
    }
}

int xg_nic_init(void)
{
    pthread_mutexattr_t attr;
    xg_boot_identity_t job;
    xg_nic_t *nic;
    xg_status_t status;
    int i;

    pthread_mutex_lock(&nic_lock);
    if (nic_refs > 0) {
        __atomic_add_fetch(&nic_refs, 1, __ATOMIC_ACQ_REL);
        pthread_mutex_unlock(&nic_lock);
        return PTL_OK;
    }
    if (xg_config_load() != XG_OK) {
        pthread_mutex_unlock(&nic_lock);
        return PTL_FAIL;
    }
    nic = calloc(1, sizeof(*nic));
    if (nic == NULL) {
        pthread_mutex_unlock(&nic_lock);
        return PTL_FAIL;
    }
    status = xg_pkt_open(&nic->xport);
    if ((status != XG_OK) || (nic_configure(nic) != 0)) {
        free(nic);
        pthread_mutex_unlock(&nic_lock);
        return PTL_FAIL;
    }
    /* receiving again after an earlier PtlFini closed the endpoint */
    nic->xport.ops.rx_open(nic->xport.ep);
    if (!nic_atexit_set) {
        nic_atexit_set = (atexit(nic_at_exit) == 0);
    }
    nic->rank        = nic->xport.rank;
    nic->npes        = nic->xport.npes;
    nic->mtu         = nic->xport.ops.mtu(nic->xport.ep);
    nic->max_payload = nic->mtu - sizeof(xg_nic_wire_t);
    nic->uid         = (ptl_uid_t)getuid();
    /* the job as boot names it: the same in every PE */
    xg_boot_identity(&job);
    nic->jid = (ptl_jid_t)job.job_id;
    nic->peers = calloc((size_t)nic->npes, sizeof(*nic->peers));
    nic->busy  = calloc(2 * (size_t)nic->npes, sizeof(*nic->busy));
    if ((nic->peers == NULL) || (nic->busy == NULL)) {
        free(nic->peers);
        free(nic->busy);
        free(nic);
        pthread_mutex_unlock(&nic_lock);
        return PTL_FAIL;
    }
    for (i = 0; i < nic->npes; i++) {
        xg_nic_spin_init(&nic->peers[i].lock);
    }
    xg_nic_spin_init(&nic->busy_lock);
    xg_nic_spin_init(&nic->poll_lock);
    /* adaptive: the poller holds an NI lock for a batch of packets; an
     * application thread that wants it meanwhile spins briefly instead of
     * going to sleep in the kernel (and costing the poller a wake-up) */
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
    for (i = 0; i < XG_NIC_NUM_NI; i++) {
        pthread_mutex_init(&nic->ni[i].lock, &attr);
        nic->ni[i].index = (unsigned)i;
        nic->ni[i].nic   = nic;
    }
    pthread_mutexattr_destroy(&attr);
    __atomic_store_n(&xg_nic_global, nic, __ATOMIC_RELEASE);
    __atomic_store_n(&nic_refs, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&nic_lock);
    return PTL_OK;
}

static void nic_print_stats(const xg_nic_t *nic)
{
    uint64_t bad = 0;
    int i;

    for (i = 0; i < XG_WIRE_ERR_LAST; i++) {
        bad += atomic_load_explicit(&nic->malformed[i], memory_order_relaxed);
    }
    fprintf(stderr, "xgas[pe %d] nic: %llu packets received, %llu "
            "malformed, %llu unusable\n", nic->rank,
            (unsigned long long)atomic_load_explicit(&nic->rx_packets,
                                                     memory_order_relaxed),
            (unsigned long long)bad,
            (unsigned long long)atomic_load_explicit(&nic->rx_dropped,
                                                     memory_order_relaxed));
}

void xg_nic_fini(void)
{
    xg_nic_t *nic;
    xg_nic_txq_t *q;
    int i;

    pthread_mutex_lock(&nic_lock);
    if ((nic_refs == 0) ||
        (__atomic_sub_fetch(&nic_refs, 1, __ATOMIC_ACQ_REL) > 0)) {
        pthread_mutex_unlock(&nic_lock);
        return;
    }
    nic = xg_nic_global;
    pthread_mutex_unlock(&nic_lock);

    xg_nic_stop_progress(nic);
    /* what is still queued for peers gets a bounded last chance to leave
     * before the memory it points into goes away */
    for (i = 0; (i < 1000) &&
                (atomic_load_explicit(&nic->backlog, memory_order_relaxed) !=
                 0); i++) {
        xg_nic_progress_once(nic);
        usleep(100);
    }
    for (i = 0; i < XG_NIC_NUM_NI; i++) {
        if (xg_nic_ni_is_open(&nic->ni[i])) {
            xg_nic_ni_teardown(&nic->ni[i]);
        }
    }
    nic_close_endpoint(nic);
    if (xg_config.stats) {
        nic_print_stats(nic);
    }
    __atomic_store_n(&xg_nic_global, NULL, __ATOMIC_RELEASE);
    for (i = 0; i < XG_NIC_NUM_NI; i++) {
        xg_nic_pool_fini(&nic->ni[i].eq_pool);
        xg_nic_pool_fini(&nic->ni[i].ct_pool);
        xg_nic_pool_fini(&nic->ni[i].md_pool);
        xg_nic_pool_fini(&nic->ni[i].me_pool);
        xg_nic_pool_fini(&nic->ni[i].tgt_pool);
        xg_nic_pool_fini(&nic->ni[i].uh_pool);
        xg_nic_pool_fini(&nic->ni[i].trig_pool);
        pthread_mutex_destroy(&nic->ni[i].lock);
    }
    for (i = 0; i < nic->npes; i++) {
        while ((q = nic->peers[i].head) != NULL) {
            nic->peers[i].head = q->next;
            free(q->owned);
            free(q);
        }
    }
    while ((q = nic->txq_free) != NULL) {
        nic->txq_free = q->next;
        free(q);
    }
    free(nic->peers);
    free(nic->busy);
    free(nic);
}
