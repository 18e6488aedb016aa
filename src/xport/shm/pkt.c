/*
 * The shm packet transport (contract in xport/xg_xport_pkt.h): each process
 * owns one inbound ring (xg_shm_ring.h) in a memfd and publishes
 * (pid, descriptor) through the boot key/value exchange; a sender maps a
 * peer's ring the first time it sends to it, through /proc/<pid>/fd/<fd>.
 * No launcher support is needed, it works the same in singleton mode, and
 * nothing has a name in any file system.  Sending to oneself (loopback)
 * pushes into one's own ring.
 *
 * The endpoint lives until the process exits: peers may still send to it
 * after the library is finalized, and finalize/initialize cycles reuse it
 * without another exchange.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "boot/xg_boot.h"
#include "xport/shm/xg_shm_ring.h"
#include "xport/xg_xport_pkt.h"

#define SHM_PKT_KEY "xport.shm.ring"

enum { PEER_UNKNOWN = 0, PEER_ATTACHED = 1, PEER_FAILED = -1 };

/* What each process publishes about its ring. */
typedef struct shm_pkt_addr {
    int32_t  pid;
    int32_t  fd;
    uint32_t slots;
    uint32_t slot_size;
} shm_pkt_addr_t;

typedef struct shm_pkt_peer {
    xg_shm_ring_t  ring;
    shm_pkt_addr_t addr;
    _Atomic int    state;
} shm_pkt_peer_t;

struct xg_pkt_ep {
    xg_shm_ring_t    own;
    int              rank;
    int              npes;
    shm_pkt_peer_t  *peers;
    pthread_mutex_t  attach_lock;
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
        xg_error("shm", "PE %d (pid %d) cannot be reached: its process is "
                 "not dumpable (it called prctl(PR_SET_DUMPABLE, 0), runs a "
                 "setuid or setgid program, or changed its credentials) or "
                 "runs as another user (uid %u), so %s, through which the "
                 "packet ring is mapped, is closed to this process: keep "
                 "every PE dumpable and of one user", peer, pid,
                 (unsigned)st.st_uid, path);
        return;
    }
    errno = err;
    xg_error("shm", "cannot open PE %d's packet ring %s (%m): has the "
             "process ended?", peer, path);
}

/* Maps @peer's ring; called once per peer, under attach_lock. */
static int shm_pkt_attach(xg_pkt_ep_t *ep, int peer)
{
    shm_pkt_peer_t *p = &ep->peers[peer];
    char path[64];
    xg_status_t status;
    int fd;

    /* read when first needed, not for every PE at start-up (O(1) per
     * peer a PE talks to); boot stays joined for the life of the process */
    if (xg_boot_kv_get(peer, SHM_PKT_KEY, &p->addr, sizeof(p->addr)) !=
        XG_OK) {
        p->addr.pid = 0;
    }
    if (p->addr.pid <= 0) {
        xg_error("shm", "PE %d published no packet ring: did it call "
                 "PtlInit?", peer);
        return PEER_FAILED;
    }
    snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)p->addr.pid,
             (int)p->addr.fd);
    fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        shm_pkt_report_unreachable(peer, (int)p->addr.pid, path);
        return PEER_FAILED;
    }
    status = xg_shm_ring_attach(&p->ring, fd);
    close(fd);
    if (status != XG_OK) {
        xg_error("shm", "PE %d's packet ring is not usable (%s): every PE "
                 "must run the same libxgas with the same XGAS_NIC_* "
                 "settings", peer, xg_status_str(status));
        return PEER_FAILED;
    }
    if (p->ring.max_packet < ep->own.max_packet) {
        xg_error("shm", "PE %d's packet slots are smaller than ours: set "
                 "XGAS_NIC_SLOT_SIZE alike for every PE", peer);
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
    if (pos == UINT64_MAX) {
        return XG_ERR_NO_RESOURCE;
    }
    *buf_p   = xg_shm_ring_slot(ring, pos)->data;
    *token_p = (void *)(uintptr_t)pos;
    return XG_OK;
}

static void shm_pkt_tx_commit(xg_pkt_ep_t *ep, int peer, void *token,
                              size_t len, int defer_wake)
{
    xg_shm_ring_t *ring = (peer == ep->rank) ? &ep->own
                                             : &ep->peers[peer].ring;

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

static const xg_pkt_ops_t shm_pkt_ops = {
    .mtu        = shm_pkt_mtu,
    .tx_reserve = shm_pkt_tx_reserve,
    .tx_commit  = shm_pkt_tx_commit,
    .tx_flush   = shm_pkt_tx_flush,
    .rx_poll    = shm_pkt_rx_poll,
    .rx_wait    = shm_pkt_rx_wait,
    .rx_wake    = shm_pkt_rx_wake,
};

/* Creates the endpoint and exchanges addresses (collective). */
static xg_status_t shm_pkt_create(xg_pkt_ep_t **ep_p)
{
    shm_pkt_addr_t addr;
    xg_pkt_ep_t *ep;
    xg_status_t status;
    long slots = xg_config.nic_ring_slots;
    uint64_t slot_size = xg_config.nic_slot_size;
    int pe;

    if ((slots < 2) || (slots > (1L << 20)) || (slot_size < 512) ||
        (slot_size > (1u << 24))) {
        xg_error("shm", "XGAS_NIC_RING_SLOTS=%ld or XGAS_NIC_SLOT_SIZE=%llu "
                 "is out of range (2..1048576 slots of 512 B..16 MiB)",
                 slots, (unsigned long long)slot_size);
        return XG_ERR_INVALID_PARAM;
    }
    ep = calloc(1, sizeof(*ep));
    if (ep == NULL) {
        return XG_ERR_NO_MEMORY;
    }
    ep->rank  = xg_boot.rank;
    ep->npes  = xg_boot.npes;
    ep->peers = calloc((size_t)ep->npes, sizeof(*ep->peers));
    pthread_mutex_init(&ep->attach_lock, NULL);
    if (ep->peers == NULL) {
        free(ep);
        return XG_ERR_NO_MEMORY;
    }
    status = xg_shm_ring_create(&ep->own, (uint32_t)slots,
                                (uint32_t)slot_size);
    if (status != XG_OK) {
        free(ep->peers);
        free(ep);
        return status;
    }
    if (prctl(PR_GET_DUMPABLE) == 0) {
        xg_warn("shm", "this process is not dumpable (prctl "
                "PR_SET_DUMPABLE 0, or a setuid or setgid program): other "
                "PEs cannot open its packet ring through /proc/%d/fd unless "
                "they are privileged, so their messages to it will fail",
                (int)getpid());
    }
    addr.pid       = (int32_t)getpid();
    addr.fd        = ep->own.fd;
    addr.slots     = ep->own.hdr->slots;
    addr.slot_size = ep->own.hdr->slot_size;
    status = xg_boot_kv_put(SHM_PKT_KEY, &addr, sizeof(addr));
    if (status == XG_OK) {
        status = xg_boot_fence();
    }
    if (status != XG_OK) {
        xg_error("shm", "cannot publish the packet ring address (%s)",
                 xg_status_str(status));
        return status; /* the ring stays mapped: harmless, exit frees it */
    }
    /* peers' addresses are read when first needed (shm_pkt_attach) */
    for (pe = 0; pe < ep->npes; pe++) {
        ep->peers[pe].ring.fd = -1;
        atomic_init(&ep->peers[pe].state, PEER_UNKNOWN);
    }
    *ep_p = ep;
    return XG_OK;
}

xg_status_t xg_pkt_open(xg_pkt_xport_t *xport)
{
    xg_status_t status = XG_OK;

    pthread_mutex_lock(&shm_pkt_open_lock);
    if (shm_pkt_ep == NULL) {
        status = xg_boot_init();
        if (status == XG_OK) {
            status = shm_pkt_create(&shm_pkt_ep);
        }
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
