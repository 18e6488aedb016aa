/*
 * The ofi component's packets: the contract of xport/xg_xport_pkt.h over
 * the RDM endpoint (see xg_ofi.h).
 *
 * Buffers: one pool of XGAS_OFI_TX_BUFFERS send and XGAS_OFI_RX_BUFFERS
 * receive buffers of XGAS_NIC_SLOT_SIZE bytes, registered once when the
 * provider wants local registrations.  tx_reserve() takes a free send
 * buffer (none left: the peer, or the network, is not keeping up --
 * XG_ERR_NO_RESOURCE, try later); tx_commit() hands it to fi_send, or,
 * when the provider has no room right now, to the pending queue that the
 * progress calls (rx_poll, tx_reserve) resend in order.  A send completion
 * returns the buffer to the free list.  Per-pair order: the provider keeps
 * a sender's messages in order (FI_ORDER_SAS), and a committed packet is
 * either sent at once -- only while nothing is pending -- or queued behind
 * everything pending.
 *
 * Receiving: every receive buffer is posted; rx_poll reads the receive
 * queue, checks each packet (xg_ofi_pkt_parse, then: its sender runs on
 * another node), hands the data to the callback and posts the buffer
 * again.  Anything else is dropped and counted (XGAS_STATS prints the
 * counts).
 *
 * Closing: rx_close() tells every PE of the other nodes (CLOSE); a peer
 * marks this PE closed -- its tx_reserve() says
 * XG_ERR_UNREACHABLE from then on -- and answers (CLOSE_ACK) behind
 * whatever it sent before, which rx_close hands to the callback until
 * every peer has answered (or a second has passed: a peer that stopped
 * polling).  Data that arrives later is dropped.  rx_open() counts the
 * opening, publishes the count through boot ("ofi.open.<n>") and tells
 * the peers (OPEN); a peer that still takes this PE for closed when it
 * sends looks for that record first, so the notice may come late -- the
 * boot fences of a PE's initialization order the record before any use.
 * CLOSE goes to the peers that never exchanged packets with this PE too:
 * their first send to it must fail at once (XG_ERR_UNREACHABLE, which the
 * NIC reports as PTL_NI_UNDELIVERABLE), not go to an endpoint that is
 * gone; OPEN only to those that did (the others find the boot record).
 *
 * Sleeping: rx_sleep_fd() arms the receive queue's wait descriptor
 * (fi_trywait) and returns it; rx_wait() polls it with the eventfd that
 * rx_wake() writes.  A provider without a wait descriptor is polled every
 * millisecond while the receiver sleeps.
 */
#include "xport/ofi/xg_ofi.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/fi_errno.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "base/xg_time.h"
#include "base/xg_wait.h"
#include "boot/xg_boot.h"

/* Boot records of the openings: "ofi.open.<n>" exists once a PE opened
 * its endpoint for the n-th time. */
#define OFI_KEY_OPEN "ofi.open."

/* Receive buffers handled per rx_poll call at most. */
#define OFI_RX_BATCH 16

static const char *const ofi_drop_names[XG_OFI_DROP_LAST] = {
    [XG_OFI_OK]           = "ok",
    [XG_OFI_DROP_SHORT]   = "short",
    [XG_OFI_DROP_FOREIGN] = "foreign job",
    [XG_OFI_DROP_SOURCE]  = "bad sender",
    [XG_OFI_DROP_KIND]    = "bad kind",
    [XG_OFI_DROP_CLOSED]  = "after close",
};

static xg_ofi_buf_t *ofi_buf(size_t i)
{
    return (xg_ofi_buf_t *)(xg_ofi.bufs + i * xg_ofi.buf_stride);
}

int xg_ofi_is_buf(const void *ctx)
{
    return ((const uint8_t *)ctx >= xg_ofi.bufs) &&
           ((const uint8_t *)ctx <
            xg_ofi.bufs + xg_ofi.nbufs * xg_ofi.buf_stride);
}

static void ofi_count_drop(xg_ofi_drop_t why)
{
    atomic_fetch_add_explicit(&xg_ofi.dropped[why], 1, memory_order_relaxed);
}

/* Posts receive buffer @buf; a full receive queue keeps it for later. */
static void ofi_post(xg_ofi_buf_t *buf)
{
    ssize_t ret = fi_recv(xg_ofi.ep, buf->data, xg_ofi.buf_size,
                          xg_ofi.buf_desc, FI_ADDR_UNSPEC, buf);

    if (ret != 0) {
        if (ret != -FI_EAGAIN) {
            xg_warn("ofi", "fi_recv failed (%s); retrying",
                    fi_strerror((int)-ret));
        }
        buf->next        = xg_ofi.rx_repost;
        xg_ofi.rx_repost = buf;
    }
}

/* Counts an opening and publishes it (ofi_reopened reads it). */
static void ofi_count_open(void)
{
    char key[48];
    uint8_t mark = 1;

    xg_ofi.opened++;
    snprintf(key, sizeof(key), OFI_KEY_OPEN "%llu",
             (unsigned long long)xg_ofi.opened);
    if (xg_boot_kv_put(key, &mark, sizeof(mark)) == XG_OK) {
        xg_boot_kv_publish();
    }
}

xg_status_t xg_ofi_pkt_init(void)
{
    long ntx = xg_config.ofi_tx_buffers, nrx = xg_config.ofi_rx_buffers;
    size_t i;
    int ret;

    ofi_count_open(); /* the first: the endpoint takes packets at once */
    xg_ofi.buf_size = (size_t)xg_config.nic_slot_size;
    if (xg_ofi.buf_size > xg_ofi.info->ep_attr->max_msg_size) {
        xg_ofi.buf_size = xg_ofi.info->ep_attr->max_msg_size;
    }
    xg_ofi.buf_stride =
        xg_align_up(sizeof(xg_ofi_buf_t) + xg_ofi.buf_size, XG_CACHELINE);
    xg_ofi.nbufs = (size_t)(ntx + nrx);
    if (posix_memalign((void **)&xg_ofi.bufs, 4096,
                       xg_ofi.nbufs * xg_ofi.buf_stride) != 0) {
        xg_error("ofi", "no memory for %zu packet buffers of %zu bytes",
                 xg_ofi.nbufs, xg_ofi.buf_size);
        return XG_ERR_NO_MEMORY;
    }
    memset(xg_ofi.bufs, 0, xg_ofi.nbufs * xg_ofi.buf_stride);
    if (xg_ofi.info->domain_attr->mr_mode & FI_MR_LOCAL) {
        ret = fi_mr_reg(xg_ofi.domain, xg_ofi.bufs,
                        xg_ofi.nbufs * xg_ofi.buf_stride, FI_SEND | FI_RECV, 0,
                        0, 0, &xg_ofi.buf_mr, NULL);
        if (ret != 0) {
            xg_error("ofi", "cannot register the packet buffers (%s)",
                     fi_strerror(-ret));
            return XG_ERR_NO_RESOURCE;
        }
        xg_ofi.buf_desc = fi_mr_desc(xg_ofi.buf_mr);
    }
    for (i = 0; i < (size_t)ntx; i++) {
        ofi_buf(i)->next = xg_ofi.tx_free;
        xg_ofi.tx_free   = ofi_buf(i);
    }
    for (i = (size_t)ntx; i < xg_ofi.nbufs; i++) {
        ofi_post(ofi_buf(i));
    }
    return XG_OK;
}

static size_t ofi_pkt_mtu(const xg_pkt_ep_t *ep)
{
    (void)ep;
    return xg_ofi.buf_size - sizeof(xg_ofi_hdr_t);
}

/* Hands @buf to the provider (tx_lock held); 0, or -FI_EAGAIN: no room
 * now.  A send that fails for good is reported like its completion. */
static int ofi_send(xg_ofi_buf_t *buf)
{
    fi_addr_t addr = xg_ofi.peers[buf->peer].addr;
    ssize_t ret;

    /* counted first: its completion may be read at once */
    atomic_fetch_add_explicit(&xg_ofi.tx_inflight, 1, memory_order_release);
    ret = fi_send(xg_ofi.ep, buf->data, buf->len, xg_ofi.buf_desc, addr, buf);
    if (ret != 0) {
        atomic_fetch_sub_explicit(&xg_ofi.tx_inflight, 1, memory_order_relaxed);
    }
    if (ret == -FI_EAGAIN) {
        return (int)ret;
    }
    if (ret != 0) {
        xg_ofi_pkt_sent(buf, (int)-ret);
    }
    return 0;
}

/* Resends what is pending, in order, while the provider takes it. */
static void ofi_send_pending(void)
{
    xg_ofi_buf_t *buf;

    pthread_mutex_lock(&xg_ofi.tx_lock);
    while ((buf = xg_ofi.tx_pending) != NULL) {
        xg_ofi.tx_pending = buf->next;
        if (ofi_send(buf) != 0) {
            xg_ofi.tx_pending = buf; /* still no room: stays first */
            break;
        }
    }
    if (xg_ofi.tx_pending == NULL) {
        xg_ofi.tx_pending_tail = NULL;
    }
    pthread_mutex_unlock(&xg_ofi.tx_lock);
}

/* Queues @buf for the provider (tx_lock held): sent now if nothing is
 * pending and there is room, else behind what is pending. */
static void ofi_queue(xg_ofi_buf_t *buf)
{
    if ((xg_ofi.tx_pending == NULL) && (ofi_send(buf) == 0)) {
        return;
    }
    buf->next = NULL;
    if (xg_ofi.tx_pending_tail != NULL) {
        xg_ofi.tx_pending_tail->next = buf;
    } else {
        xg_ofi.tx_pending = buf;
    }
    xg_ofi.tx_pending_tail = buf;
}

void xg_ofi_pkt_sent(xg_ofi_buf_t *buf, int err)
{
    int peer = buf->peer;

    if ((err != 0) && (err != FI_ECANCELED)) {
        xg_ofi_peer_failed(peer, buf->rma ? "an RMA write" : "a packet", err);
    }
    pthread_mutex_lock(&xg_ofi.tx_lock);
    buf->rma       = 0;
    buf->next      = xg_ofi.tx_free;
    xg_ofi.tx_free = buf;
    pthread_mutex_unlock(&xg_ofi.tx_lock);
}

xg_ofi_buf_t *xg_ofi_tx_take(void)
{
    xg_ofi_buf_t *buf;

    pthread_mutex_lock(&xg_ofi.tx_lock);
    buf = xg_ofi.tx_free;
    if (buf != NULL) {
        xg_ofi.tx_free = buf->next;
    }
    pthread_mutex_unlock(&xg_ofi.tx_lock);
    return buf;
}

/* A buffer for a packet of @kind to @peer (its address resolved), with
 * the header filled; NULL: none free. */
static xg_ofi_buf_t *ofi_start(int peer, uint16_t kind)
{
    xg_ofi_buf_t *buf = xg_ofi_tx_take();
    xg_ofi_hdr_t hdr  = {.job_key = xg_ofi.job_key,
                         .src     = (uint32_t)xg_ofi.rank,
                         .kind    = kind,
                         .opened  = xg_ofi.opened};

    if (buf == NULL) {
        /* sends that completed free their buffers */
        xg_ofi_progress();
        ofi_send_pending();
        buf = xg_ofi_tx_take();
    }
    if (buf != NULL) {
        memcpy(buf->data, &hdr, sizeof(hdr));
        buf->peer = peer;
        buf->len  = sizeof(hdr);
    }
    return buf;
}

/* Closed @peer has opened again since, by its boot record (its OPEN may
 * not have arrived yet): then it is open again. */
static int ofi_reopened(int peer)
{
    xg_ofi_peer_t *p = &xg_ofi.peers[peer];
    char key[48];
    uint8_t mark;

    snprintf(key, sizeof(key), OFI_KEY_OPEN "%llu",
             (unsigned long long)p->opened + 1);
    if (xg_boot_kv_get(peer, key, &mark, sizeof(mark)) != XG_OK) {
        return 0;
    }
    atomic_store_explicit(&p->state, XG_OFI_PEER_OPEN, memory_order_release);
    return 1;
}

static xg_status_t ofi_pkt_tx_reserve(xg_pkt_ep_t *ep, int peer, size_t len,
                                      void **buf_p, void **token_p)
{
    xg_ofi_buf_t *buf;

    (void)ep;
    if (xg_unlikely((peer < 0) || (peer >= xg_ofi.npes))) {
        return XG_ERR_PE_RANGE;
    }
    if (xg_unlikely(xg_boot_same_node(peer) ||
                    (xg_ofi_addr(peer) == FI_ADDR_NOTAVAIL))) {
        return XG_ERR_UNREACHABLE;
    }
    if (xg_unlikely(len > ofi_pkt_mtu(NULL))) {
        return XG_ERR_INVALID_PARAM;
    }
    if (xg_unlikely(atomic_load_explicit(&xg_ofi.peers[peer].state,
                                         memory_order_acquire) ==
                    XG_OFI_PEER_CLOSED) &&
        !ofi_reopened(peer)) {
        return XG_ERR_UNREACHABLE;
    }
    buf = ofi_start(peer, XG_OFI_PKT_DATA);
    if (buf == NULL) {
        return XG_ERR_NO_RESOURCE;
    }
    atomic_store_explicit(&xg_ofi.talked[peer], 1, memory_order_relaxed);
    *buf_p   = buf->data + sizeof(xg_ofi_hdr_t);
    *token_p = buf;
    return XG_OK;
}

static void ofi_pkt_tx_commit(xg_pkt_ep_t *ep, int peer, void *token,
                              size_t len, int defer_wake)
{
    xg_ofi_buf_t *buf = token;

    (void)ep;
    (void)peer;
    (void)defer_wake; /* the receiver's provider wakes it */
    buf->len = (uint32_t)(sizeof(xg_ofi_hdr_t) + len);
    pthread_mutex_lock(&xg_ofi.tx_lock);
    ofi_queue(buf);
    pthread_mutex_unlock(&xg_ofi.tx_lock);
}

static void ofi_pkt_tx_flush(xg_pkt_ep_t *ep, int peer)
{
    (void)ep;
    (void)peer;
    ofi_send_pending();
}

/* A control packet of @kind to @peer, sent whatever it takes: closing and
 * opening are not on the data path. */
static void ofi_send_control(int peer, uint16_t kind)
{
    xg_ofi_buf_t *buf;
    xg_wait_t wait;

    xg_wait_init(&wait);
    while ((buf = ofi_start(peer, kind)) == NULL) {
        xg_wait_backoff(&wait);
    }
    pthread_mutex_lock(&xg_ofi.tx_lock);
    ofi_queue(buf);
    pthread_mutex_unlock(&xg_ofi.tx_lock);
}

/* Handles received buffer @buf of @len bytes: data to @fn unless closed. */
static void ofi_received(xg_ofi_buf_t *buf, size_t len, xg_pkt_rx_func_t fn,
                         void *arg)
{
    xg_ofi_peer_t *p;
    xg_ofi_hdr_t hdr;
    xg_ofi_drop_t why = xg_ofi_pkt_parse(buf->data, len, xg_ofi.job_key,
                                         xg_ofi.rank, xg_ofi.npes, &hdr);

    if ((why == XG_OFI_OK) && xg_boot_same_node((int)hdr.src)) {
        why = XG_OFI_DROP_SOURCE; /* a node's PEs talk through shm */
    }
    if (why != XG_OFI_OK) {
        ofi_count_drop(why);
        return;
    }
    p = &xg_ofi.peers[hdr.src];
    switch (hdr.kind) {
    case XG_OFI_PKT_DATA:
        atomic_store_explicit(&xg_ofi.talked[hdr.src], 1, memory_order_relaxed);
        if (atomic_load_explicit(&xg_ofi.rx_closed, memory_order_relaxed)) {
            ofi_count_drop(XG_OFI_DROP_CLOSED);
            return;
        }
        fn(arg, buf->data + sizeof(hdr), len - sizeof(hdr));
        break;
    case XG_OFI_PKT_CLOSE:
        /* nothing more to it from here: after what went before */
        if (xg_ofi_addr((int)hdr.src) != FI_ADDR_NOTAVAIL) {
            p->opened = hdr.opened;
            atomic_store_explicit(&p->state, XG_OFI_PEER_CLOSED,
                                  memory_order_release);
            ofi_send_control((int)hdr.src, XG_OFI_PKT_CLOSE_ACK);
        }
        /* a peer that closes sends nothing more either */
        atomic_store_explicit(&p->awaited, 0, memory_order_release);
        break;
    case XG_OFI_PKT_CLOSE_ACK:
        atomic_store_explicit(&p->awaited, 0, memory_order_release);
        break;
    default: /* XG_OFI_PKT_OPEN */
        if (xg_ofi_addr((int)hdr.src) != FI_ADDR_NOTAVAIL) {
            atomic_store_explicit(&p->state, XG_OFI_PEER_OPEN,
                                  memory_order_release);
        }
        break;
    }
}

static unsigned ofi_pkt_rx_poll(xg_pkt_ep_t *ep, unsigned max,
                                xg_pkt_rx_func_t fn, void *arg)
{
    struct fi_cq_msg_entry entries[OFI_RX_BATCH];
    struct fi_cq_err_entry err;
    xg_ofi_buf_t *buf;
    unsigned handled = 0;
    ssize_t n, i;

    (void)ep;
    xg_ofi_progress();
    ofi_send_pending();
    while ((buf = xg_ofi.rx_repost) != NULL) {
        xg_ofi.rx_repost = buf->next;
        ofi_post(buf);
        if (xg_ofi.rx_repost == buf) {
            break; /* still no room */
        }
    }
    while (handled < max) {
        xg_ofi_in_provider++;
        n = fi_cq_read(xg_ofi.rx_cq, entries,
                       (max - handled < OFI_RX_BATCH) ? max - handled
                                                      : OFI_RX_BATCH);
        xg_ofi_in_provider--;
        if (n == -FI_EAVAIL) {
            memset(&err, 0, sizeof(err));
            if (fi_cq_readerr(xg_ofi.rx_cq, &err, 0) == 1) {
                if (err.err != FI_ECANCELED) {
                    xg_warn("ofi", "a receive failed (%s)",
                            fi_strerror(err.err));
                }
                if (xg_ofi_is_buf(err.op_context)) {
                    ofi_post(err.op_context);
                }
            }
            continue;
        }
        if (n <= 0) {
            break;
        }
        for (i = 0; i < n; i++) {
            buf = entries[i].op_context;
            ofi_received(buf, entries[i].len, fn, arg);
            ofi_post(buf);
        }
        handled += (unsigned)n;
    }
    return handled;
}

static int ofi_pkt_rx_sleep_fd(xg_pkt_ep_t *ep)
{
    struct fid *cq = &xg_ofi.rx_cq->fid;

    (void)ep;
    if (xg_ofi.rx_fd < 0) {
        return XG_PKT_SLEEP_POLL; /* no descriptor: poll the queue */
    }
    /* 0: nothing is there, and the descriptor will say when something
     * arrives */
    return (fi_trywait(xg_ofi.fabric, &cq, 1) == 0) ? xg_ofi.rx_fd : -1;
}

static void ofi_pkt_rx_sleep_end(xg_pkt_ep_t *ep)
{
    (void)ep;
}

static void ofi_pkt_rx_wait(xg_pkt_ep_t *ep, uint64_t timeout_ns,
                            int (*may_sleep)(void *), void *arg)
{
    struct pollfd pfd[2];
    uint64_t drain;
    int fd;

    atomic_store_explicit(&xg_ofi.rx_sleeping, 1, memory_order_seq_cst);
    fd = ofi_pkt_rx_sleep_fd(ep);
    if ((fd != -1) && ((may_sleep == NULL) || may_sleep(arg))) {
        pfd[0].fd     = xg_ofi.wake_fd;
        pfd[0].events = POLLIN;
        pfd[1].fd     = fd;
        pfd[1].events = POLLIN;
        if ((fd == XG_PKT_SLEEP_POLL) && (timeout_ns > 1000000u)) {
            timeout_ns = 1000000u; /* poll the queue every millisecond */
        }
        xg_pkt_sleep(pfd, (fd >= 0) ? 2 : 1, timeout_ns);
    }
    atomic_store_explicit(&xg_ofi.rx_sleeping, 0, memory_order_relaxed);
    while (read(xg_ofi.wake_fd, &drain, sizeof(drain)) > 0) {
    }
}

static void ofi_pkt_rx_wake(xg_pkt_ep_t *ep)
{
    uint64_t one = 1;

    (void)ep;
    if (atomic_load_explicit(&xg_ofi.rx_sleeping, memory_order_seq_cst)) {
        (void)!write(xg_ofi.wake_fd, &one, sizeof(one));
    }
}

/* Tells the peers that this PE receives (@kind OPEN: those it exchanged
 * packets with) or not (CLOSE: every PE of another node, also those it
 * never exchanged packets with, which would otherwise take it for open
 * and send into an endpoint that is gone -- a send the provider may
 * retry for ever instead of failing) -- a closed peer too: it drops data,
 * not these. */
static void ofi_tell_peers(uint16_t kind)
{
    int peer;

    for (peer = 0; peer < xg_ofi.npes; peer++) {
        if (((kind == XG_OFI_PKT_CLOSE)
                 ? ((peer != xg_ofi.rank) && !xg_boot_same_node(peer))
                 : atomic_load_explicit(&xg_ofi.talked[peer],
                                        memory_order_relaxed)) &&
            (xg_ofi_addr(peer) != FI_ADDR_NOTAVAIL)) {
            /* a peer that closed before sends nothing more: no answer
             * to wait for (it reads our CLOSE when it opens again) */
            if ((kind == XG_OFI_PKT_CLOSE) &&
                (atomic_load_explicit(&xg_ofi.peers[peer].state,
                                      memory_order_acquire) !=
                 XG_OFI_PEER_CLOSED)) {
                atomic_store_explicit(&xg_ofi.peers[peer].awaited, 1,
                                      memory_order_relaxed);
            }
            ofi_send_control(peer, kind);
        }
    }
    ofi_send_pending();
}

/* Some peer has not acknowledged our CLOSE yet. */
static int ofi_awaiting(void)
{
    int peer;

    for (peer = 0; peer < xg_ofi.npes; peer++) {
        if (atomic_load_explicit(&xg_ofi.peers[peer].awaited,
                                 memory_order_acquire)) {
            return 1;
        }
    }
    return 0;
}

static void ofi_print_stats(void)
{
    char text[256] = "";
    size_t len     = 0;
    uint64_t n;
    int i;

    for (i = XG_OFI_DROP_SHORT; i < XG_OFI_DROP_LAST; i++) {
        n = atomic_load_explicit(&xg_ofi.dropped[i], memory_order_relaxed);
        if ((n != 0) && (len < sizeof(text))) {
            len += (size_t)snprintf(text + len, sizeof(text) - len, " %s %llu",
                                    ofi_drop_names[i], (unsigned long long)n);
        }
    }
    fprintf(stderr, "xgas[pe %d] ofi: packets dropped:%s\n", xg_ofi.rank,
            (len == 0) ? " none" : text);
}

/* Every send buffer is back: what was committed has left. */
static int ofi_all_sent(void)
{
    xg_ofi_buf_t *buf;
    size_t n = 0;

    pthread_mutex_lock(&xg_ofi.tx_lock);
    for (buf = xg_ofi.tx_free; buf != NULL; buf = buf->next) {
        n++;
    }
    pthread_mutex_unlock(&xg_ofi.tx_lock);
    return n == (size_t)xg_config.ofi_tx_buffers;
}

static void ofi_pkt_rx_close(xg_pkt_ep_t *ep, xg_pkt_rx_func_t fn, void *arg)
{
    uint64_t deadline = xg_time_ns() + 1000000000ull;
    xg_wait_t wait;

    ofi_tell_peers(XG_OFI_PKT_CLOSE);
    /* what the peers sent before they heard of it goes to @fn */
    xg_wait_init(&wait);
    while (ofi_awaiting() && (xg_time_ns() < deadline)) {
        if (ofi_pkt_rx_poll(ep, OFI_RX_BATCH, fn, arg) == 0) {
            xg_wait_backoff(&wait);
        }
    }
    if (ofi_awaiting()) {
        xg_info("ofi", "closing: a peer did not answer within a second "
                       "(it stopped polling); what it still sends is dropped");
    }
    atomic_store_explicit(&xg_ofi.rx_closed, 1, memory_order_release);
    /* the answers to the peers' CLOSE leave before this process may
     * exit -- unless a peer stopped taking them (it died): bounded */
    xg_wait_init(&wait);
    while (!ofi_all_sent() && (xg_time_ns() < deadline)) {
        xg_ofi_progress();
        ofi_send_pending();
        xg_wait_backoff(&wait);
    }
    if (xg_config.stats) {
        ofi_print_stats();
    }
}

static void ofi_pkt_rx_open(xg_pkt_ep_t *ep)
{
    (void)ep;
    if (atomic_exchange_explicit(&xg_ofi.rx_closed, 0, memory_order_acq_rel)) {
        ofi_count_open();
        ofi_tell_peers(XG_OFI_PKT_OPEN);
    }
}

static const xg_pkt_ops_t ofi_pkt_ops = {
    .mtu          = ofi_pkt_mtu,
    .tx_reserve   = ofi_pkt_tx_reserve,
    .tx_commit    = ofi_pkt_tx_commit,
    .tx_flush     = ofi_pkt_tx_flush,
    .rx_poll      = ofi_pkt_rx_poll,
    .rx_wait      = ofi_pkt_rx_wait,
    .rx_wake      = ofi_pkt_rx_wake,
    .rx_close     = ofi_pkt_rx_close,
    .rx_open      = ofi_pkt_rx_open,
    .rx_sleep_fd  = ofi_pkt_rx_sleep_fd,
    .rx_sleep_end = ofi_pkt_rx_sleep_end,
};

xg_status_t xg_ofi_pkt_open(xg_pkt_xport_t *xport)
{
    if (!xg_ofi.open) {
        return XG_ERR_UNREACHABLE;
    }
    xport->name = "ofi";
    xport->ops  = ofi_pkt_ops;
    xport->ep   = NULL; /* one endpoint per process: xg_ofi */
    xport->rank = xg_ofi.rank;
    xport->npes = xg_ofi.npes;
    return XG_OK;
}
