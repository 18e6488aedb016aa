/*
 * The packet transport contract: what the software NIC (src/nic) needs from
 * the layer that moves bytes.  A packet transport delivers datagrams of at
 * most mtu() bytes from this process to any process of the job, in order
 * per (sender, receiver) pair, and hands received packets to a callback.
 * It does not know what the bytes mean.
 *
 * The NIC never sees how packets travel.  shm/ implements the contract
 * with one inbound ring per process in shared memory (loopback is the same
 * ring seen from its owner); a libfabric transport would implement the
 * same operations over a fabric endpoint.
 *
 * Contract:
 *  - tx_reserve() never blocks: when the peer's queue is full it returns
 *    XG_ERR_NO_RESOURCE and the caller retries later (the NIC keeps a
 *    backlog).  When the peer has no open endpoint -- it has not opened
 *    the transport yet, has closed it (rx_close: finalized) or has ended --
 *    it returns XG_ERR_UNREACHABLE: the packet cannot be delivered (ask
 *    again later if the peer may still open it).  Reserved room must be
 *    committed promptly; packets a sender commits reach the receiver in
 *    commit order.
 *  - rx_close() makes every later tx_reserve() to this endpoint fail with
 *    XG_ERR_UNREACHABLE and hands the packets committed before it to the
 *    callback, so a process that stops receiving leaves no sender waiting
 *    on a full queue; rx_open() accepts packets again.
 *  - A committed packet wakes a sleeping receiver unless the caller asked
 *    to defer the wake-up; tx_flush() then delivers the deferred wake-ups.
 *  - rx_poll() runs the callback on each received packet in place; the
 *    bytes are valid only during the call.  Only one thread polls.
 *  - rx_wait() blocks the polling thread until a packet may have arrived,
 *    rx_wake() is called, or the timeout passes; it may return early.
 *    Once it is committed to sleeping it asks may_sleep() (the caller's
 *    last look at its own work queues): whatever a thread posts before
 *    calling rx_wake() is then seen either by that look or by the wake.
 *    rx_wake() costs a system call only when the receiver sleeps.
 *  - A transport whose receiver can sleep beside others' (the shm rings
 *    and the network of a job over several nodes, which xg_pkt_open joins
 *    into one transport) also offers rx_sleep_fd(): the receiver announces
 *    its sleep and gets a descriptor to poll for input, or -1 when a
 *    packet is already there; rx_sleep_end() after the poll.
 *  - Packets come from other processes: the receiver validates them.
 */
#ifndef XG_XPORT_PKT_H
#define XG_XPORT_PKT_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#include "xgas_status.h"

typedef struct xg_pkt_ep xg_pkt_ep_t; /* a transport's endpoint (opaque) */

typedef void (*xg_pkt_rx_func_t)(void *arg, const void *pkt, size_t len);

/* rx_sleep_fd(): the transport has no descriptor to sleep on */
#define XG_PKT_SLEEP_POLL (-2)

/* rx_wait's sleep: poll() on @pfd for at most @timeout_ns (to the
 * microsecond), where pfd[0] is the transport's own wake-up descriptor
 * and the others are input descriptors; input that ends the sleep counts
 * as a network event (xg_wait_net_event: it may be an RMA the provider
 * served, which no packet shows). */
void xg_pkt_sleep(struct pollfd *pfd, int nfd, uint64_t timeout_ns);

typedef struct xg_pkt_ops {
    /* largest packet in bytes */
    size_t (*mtu)(const xg_pkt_ep_t *ep);
    /* room for @len bytes to @peer: *buf_p to write, *token_p to commit */
    xg_status_t (*tx_reserve)(xg_pkt_ep_t *ep, int peer, size_t len,
                              void **buf_p, void **token_p);
    /* publishes the packet; @defer_wake: leave a sleeping receiver asleep
     * until tx_flush(peer) */
    void (*tx_commit)(xg_pkt_ep_t *ep, int peer, void *token, size_t len,
                      int defer_wake);
    void (*tx_flush)(xg_pkt_ep_t *ep, int peer);
    /* handles up to @max packets; returns how many */
    unsigned (*rx_poll)(xg_pkt_ep_t *ep, unsigned max, xg_pkt_rx_func_t fn,
                        void *arg);
    void (*rx_wait)(xg_pkt_ep_t *ep, uint64_t timeout_ns,
                    int (*may_sleep)(void *arg), void *arg);
    void (*rx_wake)(xg_pkt_ep_t *ep);
    /* stop receiving: refuse later packets, hand the earlier ones to @fn
     * (the caller holds the polling role) */
    void (*rx_close)(xg_pkt_ep_t *ep, xg_pkt_rx_func_t fn, void *arg);
    /* receive again after rx_close() */
    void (*rx_open)(xg_pkt_ep_t *ep);
    /* optional (NULL: none): sleeping beside other transports: a
     * descriptor, -1 (a packet is there) or XG_PKT_SLEEP_POLL (no
     * descriptor: poll again within a millisecond) */
    int (*rx_sleep_fd)(xg_pkt_ep_t *ep);
    void (*rx_sleep_end)(xg_pkt_ep_t *ep);
} xg_pkt_ops_t;

/* An open transport: the ops table copied by value, and the endpoint. */
typedef struct xg_pkt_xport {
    const char *name;
    xg_pkt_ops_t ops;
    xg_pkt_ep_t *ep;
    int rank; /* this process in the job */
    int npes;
} xg_pkt_xport_t;

/*
 * Opens the packet transport of this process (not collective: peers find
 * the endpoint once it is published; until then they are unreachable).
 * Later calls in the same process return the same endpoint, which stays
 * mapped until exit (rx_close/rx_open stop and resume receiving).  In a
 * job over several nodes it carries packets to each peer through the
 * component that reaches it (shm on the node, the network off it).
 */
xg_status_t xg_pkt_open(xg_pkt_xport_t *xport);

#endif
