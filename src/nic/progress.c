/*
 * Progress: the thread that makes every NI of the process progress on its
 * own -- the application never has to call into the library for a put to
 * land, a get to be answered or a triggered operation to fire -- and the
 * receive dispatch it (or a waiting thread) runs.
 *
 * Progress thread: polls the inbound packet queue and the send backlogs.
 * When there is nothing to do it keeps polling (with xg_wait backoff) for
 * XGAS_NIC_SPIN_US, then sleeps on the transport's doorbell; a sender rings
 * the doorbell only when the receiver sleeps, so an idle NIC costs no CPU
 * and a busy one no system calls.  Packets are handled in batches of up to
 * RX_BATCH (16); the poller keeps the lock of the NI the last packet went
 * to across a batch (nic->rx_locked) and drops it at the end of the batch.
 *
 * Waiting threads poll too: PtlCTWait, PtlEQWait and friends run
 * xg_nic_progress_once between their checks, and whichever thread takes
 * the poller role first does the work.  A thread that waits for an answer
 * thus handles it itself -- no wake-up of a sleeping thread, no context
 * switch on a busy core -- while the progress thread guarantees that
 * everything progresses when nobody waits.
 *
 * In a job over several nodes the progress thread also stays off the
 * network while a waiting application thread polls it or sleeps on its
 * doorbell (xg_wait_net_backoff, base/xg_wait.h): woken by every arrival,
 * it would take turns with that thread on the cores and the provider's
 * lock, which on few cores doubled the latency of an off-node get.  It
 * looks again after NIC_DEFER_NS, doubling up to NIC_DEFER_MAX_NS while
 * the application thread goes on.  On one node it does not: the packets
 * of a PE that waits on an oversubscribed host are handled sooner by the
 * progress thread, which the doorbell wakes at once, than by the waiting
 * thread when its turn on a core comes (a reduction through the NIC on 4
 * PEs and 2 cores took 2.2 times as long).
 *
 * Receive dispatch: each packet is validated (xg_nic_wire_parse), then
 * either starts a message (a request: the target state machine; a
 * response: the initiator side) or continues the sender's current message
 * (DATA packets, tracked per peer).  Anything malformed or out of sequence
 * is dropped and counted; a broken message is aborted, never waited for.
 */
#include "nic/xg_nic_progress_int.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/xg_compiler.h"
#include "base/xg_log.h"
#include "boot/xg_boot.h"
#include "base/xg_time.h"
#include "base/xg_wait.h"
#include "nic/xg_nic_initiator_int.h"
#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_obj_int.h"
#include "nic/xg_nic_tgt_int.h"
#include "nic/xg_nic_tx_int.h"
#include "nic/xg_nic_wire_int.h"

/* Packets per poll: the poller holds an NI lock for a whole batch, so a
 * short batch bounds how long an application thread of the same process
 * waits for that lock (loopback traffic: both sides are one NI). */
#define RX_BATCH 16

/* How long the progress thread leaves the network to a waiting
 * application thread that polls it (xg_wait_net_claim) before it looks
 * whether that thread still does: at first, and at most (the period
 * doubles while the thread polls: each look costs the thread a turn on
 * its core).  The longest the progress thread may be late once the
 * thread stops waiting. */
#define NIC_DEFER_NS     100000
#define NIC_DEFER_MAX_NS 1000000

/* Set while a thread runs engine code as the NIC (the progress thread, or
 * a waiting thread in the poller role). */
static __thread int nic_tls_progress;

/* Set on the progress thread only (xg_nic_on_progress_thread). */
static __thread int nic_tls_is_thread;

int xg_nic_on_progress_thread(void)
{
    return nic_tls_is_thread;
}

/* Serializes starting the progress thread. */
static pthread_mutex_t progress_lock = PTHREAD_MUTEX_INITIALIZER;

/* (the progress thread sets nic_tls_progress for its whole life) */
int xg_nic_engine_thread(void)
{
    return nic_tls_progress;
}

/* Handler calls queued on @ni run now (the poller holds @ni). */
static void rx_hooks(xg_nic_t *nic, xg_nic_ni_t *ni)
{
    if (xg_unlikely(atomic_load_explicit(&ni->hooks_pending,
                                         memory_order_relaxed) != 0)) {
        xg_nic_hooks_drain(nic, ni);
    }
}

static void rx_lock_ni(xg_nic_t *nic, xg_nic_ni_t *ni)
{
    if (nic->rx_locked != ni) {
        if (nic->rx_locked != NULL) {
            pthread_mutex_unlock(&nic->rx_locked->lock);
        }
        pthread_mutex_lock(&ni->lock);
        nic->rx_locked = ni;
        /* calls an application thread queued: before this packet, which
         * may continue their messages */
        rx_hooks(nic, ni);
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
    uint8_t kind    = rx->kind;

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

static void rx_dispatch(xg_nic_t *nic, const void *buf, size_t len)
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
    case XG_WIRE_SWAP: xg_nic_tgt_rx_request(ni, peer, &hdr, data); break;
    case XG_WIRE_ACK: xg_nic_init_rx_ack(ni, &hdr); break;
    case XG_WIRE_REPLY: xg_nic_init_rx_reply(ni, peer, &hdr, data); break;
    case XG_WIRE_RNDV_GET: xg_nic_init_rx_rndv_get(ni, &hdr); break;
    case XG_WIRE_RNDV_DATA:
        xg_nic_tgt_rx_rndv_data(ni, peer, &hdr, data);
        break;
    default: break;
    }
}

void xg_nic_rx_packet(xg_nic_t *nic, const void *buf, size_t len)
{
    rx_dispatch(nic, buf, len);
    /* handler calls of this packet: while it is still in the ring */
    if (nic->rx_locked != NULL) {
        rx_hooks(nic, nic->rx_locked);
    }
}

static void nic_rx_func(void *arg, const void *pkt, size_t len)
{
    xg_nic_rx_packet(arg, pkt, len);
}

unsigned xg_nic_progress_once(xg_nic_t *nic)
{
    int was_progress = nic_tls_progress;
    unsigned i, n;

    /* the inbound queue has one consumer: whoever holds the poller role */
    if (!xg_spinlock_trylock(&nic->poll_lock)) {
        return 0;
    }
    nic_tls_progress = 1; /* engine code run here acts as the NIC */
    n = nic->xport.ops.rx_poll(nic->xport.ep, RX_BATCH, nic_rx_func, nic);
    xg_nic_rx_release(nic);
    n += xg_nic_tx_progress(nic);
    for (i = 0; i < XG_NIC_NUM_NI; i++) {
        /* calls queued by application threads (a held put delivered) */
        if (xg_unlikely(atomic_load_explicit(&nic->ni[i].hooks_pending,
                                             memory_order_relaxed) != 0)) {
            rx_lock_ni(nic, &nic->ni[i]);
            xg_nic_rx_release(nic);
            n++;
        }
    }
    nic_tls_progress = was_progress;
    xg_spinlock_unlock(&nic->poll_lock);
    return n;
}

/* The progress thread's last look before it sleeps (see rx_wait). */
static int nic_may_sleep(void *arg)
{
    xg_nic_t *nic = arg;

    unsigned i;

    for (i = 0; i < XG_NIC_NUM_NI; i++) {
        if (atomic_load_explicit(&nic->ni[i].hooks_pending,
                                 memory_order_seq_cst) != 0) {
            return 0; /* handler calls to run */
        }
    }
    return (atomic_load_explicit(&nic->stop, memory_order_seq_cst) == 0) &&
           (atomic_load_explicit(&nic->backlog, memory_order_seq_cst) == 0);
}

/* Asks the scheduler for short time slices (Linux 6.12 and later, EEVDF:
 * a waking task with a shorter slice than the running one preempts it):
 * a progress thread woken by a packet then runs at once even when the
 * process's application threads compute on every core, instead of when
 * their slice ends, milliseconds later.  No privilege is needed; older
 * kernels refuse the request and nothing changes. */
static void nic_short_slice(void)
{
    struct {
        uint32_t size, policy;
        uint64_t flags;
        int32_t nice;
        uint32_t priority;
        uint64_t runtime, deadline, period;
    } attr;

    memset(&attr, 0, sizeof(attr));
    attr.size    = sizeof(attr);
    attr.policy  = SCHED_OTHER;
    attr.nice    = getpriority(PRIO_PROCESS, 0); /* the process's own */
    attr.runtime = 100 * 1000; /* ns: the shortest slice allowed */
    (void)syscall(SYS_sched_setattr, 0, &attr, 0);
}

/* One thread at a time sleeps on the transport's doorbell (rx_wait). */
static int nic_bell_take(xg_nic_t *nic)
{
    int free_bell = 0;

    return atomic_compare_exchange_strong_explicit(&nic->bell_taken, &free_bell,
                                                   1, memory_order_acquire,
                                                   memory_order_relaxed);
}

static void nic_bell_give(xg_nic_t *nic)
{
    atomic_store_explicit(&nic->bell_taken, 0, memory_order_release);
}

/* 1 if an application thread polled the network since the last look, or
 * sleeps on its doorbell. */
static int nic_app_polls(xg_nic_t *nic)
{
    return nic->networked &&
           (xg_wait_net_claim() ||
            atomic_load_explicit(&nic->bell_taken, memory_order_relaxed));
}

/* xg_wait_net_sleep: a waiting application thread sleeps on the
 * doorbell, in the poller role, when nobody else does. */
static int nic_wait_sleep(unsigned long ns)
{
    xg_nic_t *nic = atomic_load_explicit(&xg_nic_global, memory_order_acquire);
    int slept     = 0;

    if ((nic == NULL) || !nic->networked ||
        !atomic_load_explicit(&nic->thread_running, memory_order_acquire) ||
        !nic_bell_take(nic)) {
        return 0;
    }
    if (xg_spinlock_trylock(&nic->poll_lock)) {
        nic->xport.ops.rx_wait(nic->xport.ep, ns, nic_may_sleep, nic);
        xg_spinlock_unlock(&nic->poll_lock);
        slept = 1;
    }
    nic_bell_give(nic);
    return slept;
}

static void *nic_progress_main(void *arg)
{
    xg_nic_t *nic         = arg;
    struct timespec defer = {0, 0};
    uint64_t idle_since   = 0, now;
    xg_wait_t wait;

    nic_tls_progress  = 1;
    nic_tls_is_thread = 1;
    nic_short_slice();
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
        if (nic_app_polls(nic)) {
            /* application threads wait and poll the network themselves:
             * leave it to them -- no turns on the cores, no contention for
             * the provider's lock -- until they stop */
            defer.tv_nsec = NIC_DEFER_NS;
            do {
                nanosleep(&defer, NULL);
                if (defer.tv_nsec < NIC_DEFER_MAX_NS) {
                    defer.tv_nsec *= 2;
                }
            } while (nic_app_polls(nic) &&
                     !atomic_load_explicit(&nic->stop, memory_order_acquire));
            idle_since = 0;
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
        /* idle: sleep until a sender rings (or a timeout, to re-check) --
         * unless a waiting application thread sleeps on the doorbell: it
         * is the poller then, and marks the network as polled */
        if (nic_bell_take(nic)) {
            nic->xport.ops.rx_wait(nic->xport.ep, 100 * 1000000ull,
                                   nic_may_sleep, nic);
            nic_bell_give(nic);
        }
        idle_since = 0;
        xg_wait_init(&wait);
    }
    return NULL;
}

xg_status_t xg_nic_start_progress(xg_nic_t *nic)
{
    xg_status_t status = XG_OK;

    pthread_mutex_lock(&progress_lock);
    if (!atomic_load_explicit(&nic->thread_running, memory_order_relaxed) &&
        !nic->manual_progress) {
        atomic_store_explicit(&nic->stop, 0, memory_order_relaxed);
        if (pthread_create(&nic->thread, NULL, nic_progress_main, nic) != 0) {
            xg_error("nic", "cannot start the progress thread (%m)");
            status = XG_ERR_NO_RESOURCE;
        } else {
            atomic_store_explicit(&nic->thread_running, 1,
                                  memory_order_release);
            xg_boot_helper_threads(1);
            if (nic->networked) {
                atomic_store_explicit(&xg_wait_net_sleep, nic_wait_sleep,
                                      memory_order_release);
            }
        }
    }
    pthread_mutex_unlock(&progress_lock);
    return status;
}

void xg_nic_stop_progress(xg_nic_t *nic)
{
    nic->manual_progress = 1;
    if (!atomic_load_explicit(&nic->thread_running, memory_order_relaxed)) {
        return;
    }
    atomic_store_explicit(&nic->stop, 1, memory_order_release);
    nic->xport.ops.rx_wake(nic->xport.ep);
    pthread_join(nic->thread, NULL);
    atomic_store_explicit(&nic->thread_running, 0, memory_order_release);
    xg_boot_helper_threads(-1);
}

void xg_nic_progress_close(xg_nic_t *nic)
{
    xg_spinlock_lock(&nic->poll_lock); /* a waiting thread may be polling */
    nic_tls_progress = 1;
    nic->xport.ops.rx_close(nic->xport.ep, nic_rx_func, nic);
    xg_nic_rx_release(nic);
    nic_tls_progress = 0;
    xg_spinlock_unlock(&nic->poll_lock);
}

unsigned xg_nic_poll(void)
{
    xg_nic_t *nic = atomic_load_explicit(&xg_nic_global, memory_order_acquire);

    return (nic != NULL) ? xg_nic_progress_once(nic) : 0;
}
