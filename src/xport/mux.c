/*
 * The packet transport of a job over several nodes (xg_xport_mux.h).
 *
 * Sending: every peer's packets go through the component that reaches it
 * (xg_xport_select with packets and per-pair order), chosen once at open;
 * each component keeps its own per-pair order, and a pair uses one
 * component, so the contract's order holds.
 *
 * Receiving: rx_poll polls the components in turn, the first one changing
 * every call so that neither starves the other.  rx_wait sleeps on all of
 * them at once: it announces the sleep, asks each component for the
 * descriptor it can be woken through (rx_sleep_fd; -1: a packet is
 * already there), asks may_sleep(), and polls the descriptors together
 * with its own eventfd, which rx_wake writes -- no thread of its own, and
 * no CPU while idle.
 */
#include "xport/xg_xport_mux.h"

#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "base/xg_log.h"
#include "base/xg_wait.h"
#include "boot/xg_boot.h"
#include "xport/xg_xport.h"

#define MUX_MAX 4 /* components at most */

typedef struct mux {
    xg_pkt_xport_t sub[MUX_MAX];
    int nsub;
    uint8_t *via; /* per peer: its component in sub[] */
    size_t mtu;   /* the smallest */
    int wake_fd;  /* eventfd for rx_wake */
    _Atomic int sleeping;
    unsigned turn; /* the component rx_poll starts with */
} mux_t;

static pthread_mutex_t mux_open_lock = PTHREAD_MUTEX_INITIALIZER;
static mux_t *mux_global;

static inline mux_t *mux_of(xg_pkt_ep_t *ep)
{
    return (mux_t *)ep;
}

static inline xg_pkt_xport_t *mux_via(mux_t *m, int peer)
{
    return &m->sub[m->via[peer]];
}

static size_t mux_mtu(const xg_pkt_ep_t *ep)
{
    return ((const mux_t *)ep)->mtu;
}

static xg_status_t mux_tx_reserve(xg_pkt_ep_t *ep, int peer, size_t len,
                                  void **buf_p, void **token_p)
{
    mux_t *m = mux_of(ep);
    xg_pkt_xport_t *s;

    if (xg_unlikely((peer < 0) || (peer >= m->sub[0].npes))) {
        return XG_ERR_PE_RANGE;
    }
    if (xg_unlikely(len > m->mtu)) {
        return XG_ERR_INVALID_PARAM; /* one mtu for every peer */
    }
    s = mux_via(m, peer);
    return s->ops.tx_reserve(s->ep, peer, len, buf_p, token_p);
}

static void mux_tx_commit(xg_pkt_ep_t *ep, int peer, void *token, size_t len,
                          int defer_wake)
{
    xg_pkt_xport_t *s = mux_via(mux_of(ep), peer);

    s->ops.tx_commit(s->ep, peer, token, len, defer_wake);
}

static void mux_tx_flush(xg_pkt_ep_t *ep, int peer)
{
    xg_pkt_xport_t *s = mux_via(mux_of(ep), peer);

    s->ops.tx_flush(s->ep, peer);
}

static unsigned mux_rx_poll(xg_pkt_ep_t *ep, unsigned max, xg_pkt_rx_func_t fn,
                            void *arg)
{
    mux_t *m   = mux_of(ep);
    unsigned n = 0, i, first = m->turn++ % (unsigned)m->nsub;
    xg_pkt_xport_t *s;

    for (i = 0; (i < (unsigned)m->nsub) && (n < max); i++) {
        s = &m->sub[(first + i) % (unsigned)m->nsub];
        n += s->ops.rx_poll(s->ep, max - n, fn, arg);
    }
    return n;
}

static void mux_rx_wait(xg_pkt_ep_t *ep, uint64_t timeout_ns,
                        int (*may_sleep)(void *), void *arg)
{
    mux_t *m = mux_of(ep);
    struct pollfd pfd[MUX_MAX + 1];
    int i, fd, nfd = 1, ready = 1;
    uint64_t drain;

    atomic_store_explicit(&m->sleeping, 1, memory_order_seq_cst);
    pfd[0].fd     = m->wake_fd;
    pfd[0].events = POLLIN;
    for (i = 0; i < m->nsub; i++) {
        fd = m->sub[i].ops.rx_sleep_fd(m->sub[i].ep);
        if (fd == -1) {
            ready = 0; /* a packet is there: no sleep */
        } else if (fd == XG_PKT_SLEEP_POLL) {
            if (timeout_ns > 1000000u) {
                timeout_ns = 1000000u; /* poll it every millisecond */
            }
        } else {
            pfd[nfd].fd     = fd;
            pfd[nfd].events = POLLIN;
            nfd++;
        }
    }
    if (ready && ((may_sleep == NULL) || may_sleep(arg))) {
        xg_pkt_sleep(pfd, nfd, timeout_ns);
    }
    for (i = 0; i < m->nsub; i++) {
        m->sub[i].ops.rx_sleep_end(m->sub[i].ep);
    }
    atomic_store_explicit(&m->sleeping, 0, memory_order_relaxed);
    while (read(m->wake_fd, &drain, sizeof(drain)) > 0) {
    }
}

static void mux_rx_wake(xg_pkt_ep_t *ep)
{
    mux_t *m     = mux_of(ep);
    uint64_t one = 1;

    /* seq_cst: pairs with the sleeper's announcement before may_sleep */
    if (atomic_load_explicit(&m->sleeping, memory_order_seq_cst)) {
        (void)!write(m->wake_fd, &one, sizeof(one));
    }
}

static void mux_rx_close(xg_pkt_ep_t *ep, xg_pkt_rx_func_t fn, void *arg)
{
    mux_t *m = mux_of(ep);
    int i;

    for (i = 0; i < m->nsub; i++) {
        m->sub[i].ops.rx_close(m->sub[i].ep, fn, arg);
    }
}

static void mux_rx_open(xg_pkt_ep_t *ep)
{
    mux_t *m = mux_of(ep);
    int i;

    for (i = 0; i < m->nsub; i++) {
        m->sub[i].ops.rx_open(m->sub[i].ep);
    }
}

static const xg_pkt_ops_t mux_ops = {
    .mtu        = mux_mtu,
    .tx_reserve = mux_tx_reserve,
    .tx_commit  = mux_tx_commit,
    .tx_flush   = mux_tx_flush,
    .rx_poll    = mux_rx_poll,
    .rx_wait    = mux_rx_wait,
    .rx_wake    = mux_rx_wake,
    .rx_close   = mux_rx_close,
    .rx_open    = mux_rx_open,
};

/* The component of every peer, and their endpoints opened. */
static xg_status_t mux_create(mux_t **m_p)
{
    const unsigned caps = XG_XPORT_CAP_PACKETS | XG_XPORT_CAP_ORDERED;
    const xg_xport_component_t *used[MUX_MAX], *xport;
    xg_boot_identity_t job;
    xg_status_t status = XG_OK;
    mux_t *m           = calloc(1, sizeof(*m));
    size_t mtu;
    int peer, i;

    xg_boot_identity(&job);
    if ((m == NULL) || ((m->via = malloc((size_t)job.npes)) == NULL)) {
        free(m);
        return XG_ERR_NO_MEMORY;
    }
    for (peer = 0; (status == XG_OK) && (peer < job.npes); peer++) {
        xport = xg_xport_select(peer, caps);
        if (xport == NULL) {
            xg_error("xport",
                     "PE %d on node %d cannot be reached: this "
                     "xgas was built without libfabric, so no transport "
                     "reaches another node -- install libfabric-dev and "
                     "rebuild, or run every PE on one node",
                     peer, xg_boot_node_of(peer));
            status = XG_ERR_UNREACHABLE;
            break;
        }
        for (i = 0; (i < m->nsub) && (used[i] != xport); i++) {
        }
        if (i == m->nsub) {
            used[m->nsub++] = xport;
            status          = xport->ops->pkt_open(&m->sub[i]);
            if ((status == XG_OK) && (m->sub[i].ops.rx_sleep_fd == NULL)) {
                xg_error("xport", "component %s cannot sleep beside others",
                         xport->name);
                status = XG_ERR_INTERNAL;
            }
        }
        m->via[peer] = (uint8_t)i;
    }
    m->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if ((status == XG_OK) && (m->wake_fd < 0)) {
        xg_error("xport", "eventfd failed (%m)");
        status = XG_ERR_IO;
    }
    if (status != XG_OK) {
        if (m->wake_fd >= 0) {
            close(m->wake_fd);
        }
        free(m->via);
        free(m);
        return status;
    }
    m->mtu = m->sub[0].ops.mtu(m->sub[0].ep);
    for (i = 1; i < m->nsub; i++) {
        mtu    = m->sub[i].ops.mtu(m->sub[i].ep);
        m->mtu = (mtu < m->mtu) ? mtu : m->mtu;
    }
    *m_p = m;
    return XG_OK;
}

xg_status_t xg_xport_mux_open(xg_pkt_xport_t *xport)
{
    xg_status_t status = XG_OK;

    pthread_mutex_lock(&mux_open_lock);
    if (mux_global == NULL) {
        status = mux_create(&mux_global);
    }
    pthread_mutex_unlock(&mux_open_lock);
    if (status != XG_OK) {
        return status;
    }
    xport->name = "shm+network";
    xport->ops  = mux_ops;
    xport->ep   = (xg_pkt_ep_t *)mux_global;
    xport->rank = mux_global->sub[0].rank;
    xport->npes = mux_global->sub[0].npes;
    return XG_OK;
}
