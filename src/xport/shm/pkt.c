/*
 * The shm component's packets (contract in xport/xg_xport_pkt.h): each process
 * owns one inbound ring (xg_shm_ring.h) in a memfd and publishes its
 * descriptor through boot (xg_boot_endpoint_publish, next to its pid); a
 * sender maps a peer's ring the first time it sends to it, through
 * /proc/<pid>/fd/<fd>.  Publishing needs no fence, so opening the
 * transport is not collective: a peer that has not opened it yet is
 * "unreachable" (tx_reserve says so, and asks again next time).  No
 * launcher support is needed, it works the same in singleton mode, and
 * nothing has a name in any file system.  Sending to oneself (loopback)
 * pushes into one's own ring.
 *
 * The endpoint lives until the process exits; rx_close() closes its ring
 * (a finalized or exiting process), so senders are refused at once
 * instead of filling it, and rx_open() opens it again for a process that
 * initializes again.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "base/xg_time.h"
#include "base/xg_wait.h"
#include "boot/xg_boot.h"
#include "xport/shm/xg_shm.h"
#include "xport/shm/xg_shm_ring.h"

enum {
    PEER_UNKNOWN  = 0,
    PEER_ATTACHED = 1,
    PEER_FAILED   = -1
};

typedef struct shm_pkt_peer {
    xg_shm_ring_t ring;
    _Atomic int state;
    uint64_t full_since; /* ring found full since (ns), or 0 */
} shm_pkt_peer_t;

/* How long a peer's ring may stay full before we ask whether its owner
 * still lives (a process that died without closing its ring). */
#define SHM_PKT_FULL_CHECK_NS (200ull * 1000000ull)

struct xg_pkt_ep {
    xg_shm_ring_t own;
    int rank;
    int npes;
    shm_pkt_peer_t *peers;
    pthread_mutex_t attach_lock;
};

static pthread_mutex_t shm_pkt_open_lock = PTHREAD_MUTEX_INITIALIZER;
static xg_pkt_ep_t *shm_pkt_ep;

static size_t shm_pkt_mtu(const xg_pkt_ep_t *ep)
{
    return ep->own.max_packet;
}

/* Says why @peer's ring at @path could not be opened (errno is set).  A
 * process that is not dumpable -- prctl(PR_SET_DUMPABLE, 0), a setuid or
 * setgid program, changed credentials -- has its /proc/<pid> entries owned
 * by root and closed to its peers, which is said as such rather than as a
 * bare "permission denied". */
static void shm_pkt_report_unreachable(int peer, int pid, const char *path)
{
    int err = errno;
    char dir[32];
    struct stat st;

    /* /proc/<pid> keeps the real owner; its fd directory is root's when
     * the process is not dumpable */
    snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
    if (((err == EACCES) || (err == EPERM)) && (stat(dir, &st) == 0) &&
        (st.st_uid != geteuid())) {
        xg_error("shm",
                 "PE %d (pid %d) cannot be reached: its process is "
                 "not dumpable (it called prctl(PR_SET_DUMPABLE, 0), runs a "
                 "setuid or setgid program, or changed its credentials) or "
                 "runs as another user (uid %u), so %s, through which the "
                 "packet ring is mapped, is closed to this process: keep "
                 "every PE dumpable and of one user",
                 peer, pid, (unsigned)st.st_uid, path);
        return;
    }
    errno = err;
    xg_info("shm",
            "cannot open PE %d's packet ring %s (%m): the process "
            "has ended",
            peer, path);
}

/* Maps @peer's ring; called under attach_lock until it succeeds or fails
 * for good (PEER_UNKNOWN: the peer has published no ring yet). */
static int shm_pkt_attach(xg_pkt_ep_t *ep, int peer)
{
    shm_pkt_peer_t *p = &ep->peers[peer];
    char path[64];
    xg_status_t status;
    int32_t pub, pid;
    int fd;

    pub = xg_boot_endpoint_lookup(peer, &pid);
    if ((pub <= 0) || (pid <= 0)) {
        return PEER_UNKNOWN; /* not initialized (yet): ask again later */
    }
    snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)pid, (int)pub - 1);
    fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        shm_pkt_report_unreachable(peer, (int)pid, path);
        return PEER_FAILED;
    }
    status = xg_shm_ring_attach(&p->ring, fd);
    close(fd);
    if (status != XG_OK) {
        xg_error("shm",
                 "PE %d's packet ring is not usable (%s): every PE "
                 "must run the same libxgas with the same XGAS_NIC_* "
                 "settings",
                 peer, xg_status_str(status));
        return PEER_FAILED;
    }
    if (p->ring.max_packet < ep->own.max_packet) {
        xg_error("shm",
                 "PE %d's packet slots are smaller than ours: set "
                 "XGAS_NIC_SLOT_SIZE alike for every PE",
                 peer);
        xg_shm_ring_unmap(&p->ring);
        return PEER_FAILED;
    }
    return PEER_ATTACHED;
}

static xg_shm_ring_t *shm_pkt_ring(xg_pkt_ep_t *ep, int peer)
{
    shm_pkt_peer_t *p;
    int state;

    if (peer == ep->rank) {
        return &ep->own;
    }
    p = &ep->peers[peer];
    /* acquire: the mapping is complete before we use it */
    state = atomic_load_explicit(&p->state, memory_order_acquire);
    if (xg_unlikely(state == PEER_UNKNOWN)) {
        pthread_mutex_lock(&ep->attach_lock);
        state = atomic_load_explicit(&p->state, memory_order_relaxed);
        if (state == PEER_UNKNOWN) {
            state = shm_pkt_attach(ep, peer);
            atomic_store_explicit(&p->state, state, memory_order_release);
        }
        pthread_mutex_unlock(&ep->attach_lock);
    }
    return (state == PEER_ATTACHED) ? &p->ring : NULL;
}

/* @peer's ring is full.  If it stays full long, its owner may have died
 * without closing it (killed, _exit): then close it for every sender. */
static xg_status_t shm_pkt_full(xg_pkt_ep_t *ep, int peer, xg_shm_ring_t *ring)
{
    shm_pkt_peer_t *p;
    uint64_t now;

    if (peer == ep->rank) {
        return XG_ERR_NO_RESOURCE;
    }
    p   = &ep->peers[peer];
    now = xg_time_ns();
    if (p->full_since == 0) {
        p->full_since = now;
        return XG_ERR_NO_RESOURCE;
    }
    if (now - p->full_since < SHM_PKT_FULL_CHECK_NS) {
        return XG_ERR_NO_RESOURCE;
    }
    p->full_since = now; /* ask again later if it lives */
    if ((kill((pid_t)ring->hdr->owner_pid, 0) != 0) && (errno == ESRCH)) {
        xg_info("shm",
                "PE %d (pid %u) has ended with its packet ring "
                "open: closing it",
                peer, ring->hdr->owner_pid);
        (void)xg_shm_ring_close(ring);
        return XG_ERR_UNREACHABLE;
    }
    return XG_ERR_NO_RESOURCE;
}

static xg_status_t shm_pkt_tx_reserve(xg_pkt_ep_t *ep, int peer, size_t len,
                                      void **buf_p, void **token_p)
{
    xg_shm_ring_t *ring;
    uint64_t pos;

    if (xg_unlikely((peer < 0) || (peer >= ep->npes))) {
        return XG_ERR_PE_RANGE;
    }
    ring = shm_pkt_ring(ep, peer);
    if (xg_unlikely(ring == NULL)) {
        return XG_ERR_UNREACHABLE;
    }
    if (xg_unlikely(len > ring->max_packet)) {
        return XG_ERR_INVALID_PARAM;
    }
    pos = xg_shm_ring_claim(ring, len);
    if (xg_unlikely(pos >= XG_SHM_RING_CLOSED_POS)) {
        /* full: try later; closed: the peer finalized or exited */
        if (pos == XG_SHM_RING_CLOSED_POS) {
            return XG_ERR_UNREACHABLE;
        }
        return shm_pkt_full(ep, peer, ring);
    }
    if (peer != ep->rank) {
        ep->peers[peer].full_since = 0; /* (callers serialize per peer) */
    }
    *buf_p   = xg_shm_ring_slot(ring, pos)->data;
    *token_p = (void *)(uintptr_t)pos;
    return XG_OK;
}

static void shm_pkt_tx_commit(xg_pkt_ep_t *ep, int peer, void *token,
                              size_t len, int defer_wake)
{
    xg_shm_ring_t *ring = (peer == ep->rank) ? &ep->own : &ep->peers[peer].ring;

    xg_shm_ring_publish(ring, (uint64_t)(uintptr_t)token, (uint32_t)len,
                        defer_wake);
}

static void shm_pkt_tx_flush(xg_pkt_ep_t *ep, int peer)
{
    xg_shm_ring_t *ring = shm_pkt_ring(ep, peer);

    if (ring != NULL) {
        xg_shm_ring_ring_bell(ring);
    }
}

static unsigned shm_pkt_rx_poll(xg_pkt_ep_t *ep, unsigned max,
                                xg_pkt_rx_func_t fn, void *arg)
{
    const xg_shm_slot_t *slot;
    uint32_t len;
    unsigned n;

    for (n = 0; n < max; n++) {
        slot = xg_shm_ring_peek(&ep->own, &len);
        if (slot == NULL) {
            break;
        }
        fn(arg, slot->data, len); /* len 0: malformed, the NIC counts it */
        xg_shm_ring_pop(&ep->own);
    }
    return n;
}

static void shm_pkt_rx_wait(xg_pkt_ep_t *ep, uint64_t timeout_ns,
                            int (*may_sleep)(void *), void *arg)
{
    xg_shm_ring_wait(&ep->own, timeout_ns, may_sleep, arg);
}

static void shm_pkt_rx_wake(xg_pkt_ep_t *ep)
{
    xg_shm_ring_wake(&ep->own);
}

static void shm_pkt_rx_close(xg_pkt_ep_t *ep, xg_pkt_rx_func_t fn, void *arg)
{
    uint64_t end      = xg_shm_ring_close(&ep->own);
    uint64_t deadline = 0;
    xg_wait_t wait;

    /* what was claimed before the close is handled; a producer that
     * claimed a slot publishes it at once -- unless it died in between,
     * so the wait is bounded */
    xg_wait_init(&wait);
    while (!xg_shm_ring_drained(&ep->own, end)) {
        if (shm_pkt_rx_poll(ep, 64, fn, arg) > 0) {
            xg_wait_init(&wait);
            continue;
        }
        if (deadline == 0) {
            deadline = xg_time_ns() + 1000000000ull;
        } else if (xg_time_ns() > deadline) {
            xg_warn("shm", "closing the packet ring: a sender reserved a "
                           "slot and never filled it (it died?); dropped");
            break;
        }
        xg_wait_backoff(&wait);
    }
}

static void shm_pkt_rx_open(xg_pkt_ep_t *ep)
{
    xg_shm_ring_reopen(&ep->own);
}

static int shm_pkt_rx_sleep_fd(xg_pkt_ep_t *ep)
{
    xg_assert(ep->own.bell[0] >= 0); /* created for a job over nodes */
    return xg_shm_ring_sleep_fd(&ep->own);
}

static void shm_pkt_rx_sleep_end(xg_pkt_ep_t *ep)
{
    xg_shm_ring_sleep_end(&ep->own);
}

static const xg_pkt_ops_t shm_pkt_ops = {
    .mtu          = shm_pkt_mtu,
    .tx_reserve   = shm_pkt_tx_reserve,
    .tx_commit    = shm_pkt_tx_commit,
    .tx_flush     = shm_pkt_tx_flush,
    .rx_poll      = shm_pkt_rx_poll,
    .rx_wait      = shm_pkt_rx_wait,
    .rx_wake      = shm_pkt_rx_wake,
    .rx_close     = shm_pkt_rx_close,
    .rx_open      = shm_pkt_rx_open,
    .rx_sleep_fd  = shm_pkt_rx_sleep_fd,
    .rx_sleep_end = shm_pkt_rx_sleep_end,
};

/* Creates the endpoint and publishes it (not collective). */
static xg_status_t shm_pkt_create(xg_pkt_ep_t **ep_p)
{
    xg_boot_identity_t job;
    xg_pkt_ep_t *ep;
    xg_status_t status;
    long slots         = xg_config.nic_ring_slots;
    uint64_t slot_size = xg_config.nic_slot_size;
    int pe;

    if ((slots < 2) || (slots > (1L << 20)) || (slot_size < 512) ||
        (slot_size > (1u << 24))) {
        xg_error("shm",
                 "XGAS_NIC_RING_SLOTS=%ld or XGAS_NIC_SLOT_SIZE=%llu "
                 "is out of range (2..1048576 slots of 512 B..16 MiB)",
                 slots, (unsigned long long)slot_size);
        return XG_ERR_INVALID_PARAM;
    }
    ep = calloc(1, sizeof(*ep));
    if (ep == NULL) {
        return XG_ERR_NO_MEMORY;
    }
    xg_boot_identity(&job);
    ep->rank  = job.rank;
    ep->npes  = job.npes;
    ep->peers = calloc((size_t)ep->npes, sizeof(*ep->peers));
    pthread_mutex_init(&ep->attach_lock, NULL);
    if (ep->peers == NULL) {
        free(ep);
        return XG_ERR_NO_MEMORY;
    }
    /* a job over several nodes sleeps on the network too: a bell pipe */
    status = xg_shm_ring_create(&ep->own, (uint32_t)slots, (uint32_t)slot_size,
                                job.nnodes > 1);
    if (status != XG_OK) {
        free(ep->peers);
        free(ep);
        return status;
    }
    if (prctl(PR_GET_DUMPABLE) == 0) {
        xg_warn("shm",
                "this process is not dumpable (prctl "
                "PR_SET_DUMPABLE 0, or a setuid or setgid program): other "
                "PEs cannot open its packet ring through /proc/%d/fd unless "
                "they are privileged, so their messages to it will fail",
                (int)getpid());
    }
    for (pe = 0; pe < ep->npes; pe++) {
        ep->peers[pe].ring.fd = -1;
        atomic_init(&ep->peers[pe].state, PEER_UNKNOWN);
    }
    /* the ring is complete: peers may find it */
    xg_boot_endpoint_publish(ep->own.fd + 1);
    *ep_p = ep;
    return XG_OK;
}

xg_status_t xg_shm_pkt_open(xg_pkt_xport_t *xport)
{
    xg_status_t status = XG_OK;

    pthread_mutex_lock(&shm_pkt_open_lock);
    if (shm_pkt_ep == NULL) {
        status = shm_pkt_create(&shm_pkt_ep);
    }
    pthread_mutex_unlock(&shm_pkt_open_lock);
    if (status != XG_OK) {
        return status;
    }
    xport->name = "shm";
    xport->ops  = shm_pkt_ops;
    xport->ep   = shm_pkt_ep;
    xport->rank = shm_pkt_ep->rank;
    xport->npes = shm_pkt_ep->npes;
    return XG_OK;
}
