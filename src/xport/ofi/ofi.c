/*
 * The ofi component: choosing the provider, opening the fabric, domain,
 * completion queues, address vector and endpoint, and the peers'
 * addresses (see xg_ofi.h).
 */
#include "xport/ofi/xg_ofi.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rdma/fi_cm.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "boot/xg_boot.h"

#define OFI_VERSION  FI_VERSION(1, 5)
#define OFI_KEY_ADDR "ofi.addr"

xg_ofi_t xg_ofi = {.rx_fd = -1, .wake_fd = -1};
__thread int xg_ofi_in_provider;

static pthread_mutex_t ofi_open_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Crashes must look like crashes.  Debian's libfabric pulls in
 * libinfinipath (through its psm provider), whose load-time constructor
 * installs handlers for these signals that print a backtrace and call
 * exit(1): a PE that segfaults or aborts would then be reported as
 * "exited with status 1", and exit() would run the exit handlers on
 * whatever thread faulted (the NIC's progress thread included).  Open MPI
 * sets IPATH_NO_BACKTRACE=1 against it, and so does xgasrun; for every
 * other start (a singleton, srun, a launcher that does not) this
 * constructor puts the default action back -- only where the handler is
 * libinfinipath's own, so that the program's, a sanitizer's or a
 * preloaded library's handlers stay.  libxgas loads libfabric on first
 * use (ofi_dl.c), which runs libinfinipath's constructor then: the loader
 * calls this right after; as a constructor it also covers a program that
 * links libfabric itself (its dependencies' constructors run first).
 */
static const int ofi_crash_signals[] = {SIGSEGV, SIGBUS, SIGILL,
                                        SIGABRT, SIGINT, SIGTERM};

/* 1 if @handler is code of libinfinipath (any version). */
static int ofi_infinipath_handler(void *handler)
{
    Dl_info where;
    const char *base;

    if ((dladdr(handler, &where) == 0) || (where.dli_fname == NULL)) {
        return 0;
    }
    base = strrchr(where.dli_fname, '/');
    base = (base != NULL) ? base + 1 : where.dli_fname;
    return strncmp(base, "libinfinipath.so", 16) == 0;
}

__attribute__((constructor)) void xg_ofi_restore_crash_signals(void)
{
    struct sigaction action;
    void *handler;
    size_t i;

    for (i = 0; i < XG_ARRAY_SIZE(ofi_crash_signals); i++) {
        if (sigaction(ofi_crash_signals[i], NULL, &action) != 0) {
            continue;
        }
        handler = (action.sa_flags & SA_SIGINFO) ? (void *)action.sa_sigaction
                                                 : (void *)action.sa_handler;
        if ((handler == (void *)SIG_DFL) || (handler == (void *)SIG_IGN) ||
            !ofi_infinipath_handler(handler)) {
            continue;
        }
        memset(&action, 0, sizeof(action));
        action.sa_handler = SIG_DFL;
        sigemptyset(&action.sa_mask);
        sigaction(ofi_crash_signals[i], &action, NULL);
    }
}

/* Providers in order of preference when XGAS_OFI_PROVIDER is not set:
 * hardware first, then the sockets-based ones, the reliable-over-UDP one
 * last.  Not listed, so never chosen by default: shm (one host only) and
 * the utility and hook providers, which wrap the others. */
static const char *const ofi_preference[] = {
    "cxi",         "verbs;ofi_rxm", "psm3", "opx",     "efa",         "psm2",
    "tcp;ofi_rxm", "tcp",           "net",  "sockets", "udp;ofi_rxd",
};

/* What xgas asks of a provider. */
static struct fi_info *ofi_hints(void)
{
    struct fi_info *hints = fi_allocinfo();

    if (hints == NULL) {
        return NULL;
    }
    hints->ep_attr->type = FI_EP_RDM;
    hints->caps =
        FI_MSG | FI_RMA | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE;
    /* the packet contract: a sender's packets arrive in order */
    hints->tx_attr->msg_order     = FI_ORDER_SAS;
    hints->rx_attr->msg_order     = FI_ORDER_SAS;
    hints->domain_attr->threading = FI_THREAD_SAFE;
    /* the registration modes xgas handles (xg_ofi.h) */
    hints->domain_attr->mr_mode =
        FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY;
    hints->mode = 0;
    return hints;
}

/* Preference of @info's provider (lower is better); -1 if never by
 * default. */
static int ofi_rank(const struct fi_info *info)
{
    size_t i;

    for (i = 0; i < XG_ARRAY_SIZE(ofi_preference); i++) {
        if (strcmp(info->fabric_attr->prov_name, ofi_preference[i]) == 0) {
            return (int)i;
        }
    }
    return -1;
}

/* 1 if @info's source address is a loopback one (127/8, ::1): no other
 * host reaches it. */
static int ofi_loopback(const struct fi_info *info)
{
    const struct sockaddr_in *in   = info->src_addr;
    const struct sockaddr_in6 *in6 = info->src_addr;

    if ((in == NULL) || (info->src_addrlen < sizeof(*in))) {
        return 0;
    }
    if (in->sin_family == AF_INET) {
        return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
    }
    return (in6->sin6_family == AF_INET6) &&
           (info->src_addrlen >= sizeof(*in6)) &&
           IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
}

/* The provider @info names, as XGAS_OFI_PROVIDER spells it. */
static int ofi_is_provider(const struct fi_info *info, const char *name)
{
    const char *prov = info->fabric_attr->prov_name;
    size_t len       = strlen(name);

    /* "tcp" also names "tcp;ofi_rxm": the core provider under a utility */
    return (strcmp(prov, name) == 0) ||
           ((strncmp(prov, name, len) == 0) && (prov[len] == ';'));
}

/*
 * The usable provider of the list fi_getinfo gave: XGAS_OFI_PROVIDER's,
 * or the most preferred; on it, XGAS_OFI_DOMAIN's domain, or the first
 * that is not loopback (the first at all if each is).  NULL with the
 * reason in @why if there is none.
 */
static struct fi_info *ofi_pick(struct fi_info *list, char *why, size_t why_len)
{
    const char *want   = xg_config.ofi_provider;
    const char *domain = xg_config.ofi_domain;
    struct fi_info *info, *best = NULL;
    int best_rank = 0, rank;

    for (info = list; info != NULL; info = info->next) {
        if ((domain != NULL) && (domain[0] != '\0') &&
            (strcmp(info->domain_attr->name, domain) != 0)) {
            continue;
        }
        if ((want != NULL) && (want[0] != '\0')) {
            rank = ofi_is_provider(info, want) ? 0 : -1;
        } else {
            rank = ofi_rank(info);
        }
        if (rank < 0) {
            continue;
        }
        /* a loopback domain ranks after every other of its provider */
        rank = 2 * rank + ofi_loopback(info);
        if ((best == NULL) || (rank < best_rank)) {
            best      = info;
            best_rank = rank;
        }
    }
    if (best == NULL) {
        snprintf(
            why, why_len,
            "no provider offers reliable datagrams with "
            "ordered messages and RMA%s%s%s%s%s",
            ((want != NULL) && (want[0] != '\0')) ? " as XGAS_OFI_PROVIDER="
                                                  : "",
            ((want != NULL) && (want[0] != '\0')) ? want : "",
            ((domain != NULL) && (domain[0] != '\0')) ? " on XGAS_OFI_DOMAIN="
                                                      : "",
            ((domain != NULL) && (domain[0] != '\0')) ? domain : "",
            " (fi_info lists what is installed)");
        return NULL;
    }
    if ((want != NULL) && (want[0] != '\0')) {
        snprintf(why, why_len, "XGAS_OFI_PROVIDER=%s", want);
    } else {
        snprintf(why, why_len,
                 "the first available of: cxi, verbs, psm3, "
                 "opx, efa, psm2, tcp, net, sockets, udp");
    }
    if ((domain != NULL) && (domain[0] != '\0')) {
        snprintf(why + strlen(why), why_len - strlen(why),
                 "; XGAS_OFI_DOMAIN=%s", domain);
    } else if (ofi_loopback(best)) {
        snprintf(why + strlen(why), why_len - strlen(why),
                 "; only a loopback domain: one host");
    }
    return best;
}

/* fi_getinfo with the hints, and the pick; a copy of the pick for the
 * caller (fi_freeinfo), or NULL with the reason in @why. */
static struct fi_info *ofi_choose_info(char *why, size_t why_len)
{
    struct fi_info *hints, *list = NULL, *pick, *copy = NULL;
    int ret;

    /* libfabric is loaded here, the first time a job needs it */
    if (xg_ofi_dl_load(why, why_len) != XG_OK) {
        return NULL;
    }
    hints = ofi_hints();
    if (hints == NULL) {
        snprintf(why, why_len, "no memory for fi_getinfo hints");
        return NULL;
    }
    ret = fi_getinfo(OFI_VERSION, NULL, NULL, 0, hints, &list);
    fi_freeinfo(hints);
    if (ret != 0) {
        snprintf(why, why_len,
                 "fi_getinfo found no provider with "
                 "reliable datagrams, ordered messages and RMA (%s)",
                 fi_strerror(-ret));
        return NULL;
    }
    pick = ofi_pick(list, why, why_len);
    if (pick != NULL) {
        copy = fi_dupinfo(pick);
        if (copy == NULL) {
            snprintf(why, why_len, "no memory for the provider's info");
        }
    }
    fi_freeinfo(list);
    return copy;
}

int xg_ofi_choose(char *name, size_t name_len, char *why, size_t why_len)
{
    struct fi_info *info = ofi_choose_info(why, why_len);

    if (info == NULL) {
        snprintf(name, name_len, "none");
        return -1;
    }
    snprintf(name, name_len, "%s on %s", info->fabric_attr->prov_name,
             info->domain_attr->name);
    fi_freeinfo(info);
    return 0;
}

/* Logs a libfabric call that failed while opening. */
static xg_status_t ofi_failed(const char *what, int ret)
{
    xg_error("ofi",
             "%s failed on provider %s (%s): the PEs of other nodes "
             "cannot be reached -- choose another provider with "
             "XGAS_OFI_PROVIDER (fi_info lists them)",
             what,
             (xg_ofi.info != NULL) ? xg_ofi.info->fabric_attr->prov_name : "?",
             fi_strerror(-ret));
    return XG_ERR_UNREACHABLE;
}

/* The receive queue with a descriptor to sleep on if the provider has
 * one; else without (the receiver then polls it, see pkt.c). */
/* 1 if the chosen provider keeps every order of @order, both ways */
static int ofi_orders(uint64_t order)
{
    return ((xg_ofi.info->tx_attr->msg_order & order) == order) &&
           ((xg_ofi.info->rx_attr->msg_order & order) == order);
}

static int ofi_open_rx_cq(struct fi_cq_attr *attr)
{
    int ret;

    attr->wait_obj = FI_WAIT_FD;
    ret            = fi_cq_open(xg_ofi.domain, attr, &xg_ofi.rx_cq, NULL);
    if ((ret == 0) &&
        (fi_control(&xg_ofi.rx_cq->fid, FI_GETWAIT, &xg_ofi.rx_fd) == 0)) {
        return 0;
    }
    if (ret == 0) {
        fi_close(&xg_ofi.rx_cq->fid);
    }
    xg_ofi.rx_fd = -1;
    xg_info("ofi",
            "provider %s has no wait descriptor: the receiver "
            "polls its queue while asleep every millisecond",
            xg_ofi.info->fabric_attr->prov_name);
    attr->wait_obj = FI_WAIT_NONE;
    return fi_cq_open(xg_ofi.domain, attr, &xg_ofi.rx_cq, NULL);
}

static xg_status_t ofi_open_endpoint(void)
{
    struct fi_cq_attr cq_attr;
    struct fi_av_attr av_attr;
    int ret;

    ret = fi_fabric(xg_ofi.info->fabric_attr, &xg_ofi.fabric, NULL);
    if (ret != 0) {
        return ofi_failed("fi_fabric", ret);
    }
    ret = fi_domain(xg_ofi.fabric, xg_ofi.info, &xg_ofi.domain, NULL);
    if (ret != 0) {
        return ofi_failed("fi_domain", ret);
    }
    memset(&cq_attr, 0, sizeof(cq_attr));
    cq_attr.format   = FI_CQ_FORMAT_CONTEXT;
    cq_attr.size     = 0; /* the provider's default */
    cq_attr.wait_obj = FI_WAIT_NONE;
    ret              = fi_cq_open(xg_ofi.domain, &cq_attr, &xg_ofi.tx_cq, NULL);
    if (ret == 0) {
        cq_attr.format = FI_CQ_FORMAT_MSG; /* receives: their length */
        ret            = ofi_open_rx_cq(&cq_attr);
    }
    if (ret != 0) {
        return ofi_failed("fi_cq_open", ret);
    }
    memset(&av_attr, 0, sizeof(av_attr));
    av_attr.type = FI_AV_TABLE;
    ret          = fi_av_open(xg_ofi.domain, &av_attr, &xg_ofi.av, NULL);
    if (ret != 0) {
        return ofi_failed("fi_av_open", ret);
    }
    /* reads after writes in order, where the provider offers it: a read
     * is then how a write is known visible (rma.c); writes, and sends,
     * after writes in order too: a fence then completes nothing */
    xg_ofi.raw_order = ofi_orders(FI_ORDER_RAW);
    xg_ofi.waw_order =
        xg_ofi.raw_order && ofi_orders(FI_ORDER_WAW | FI_ORDER_SAW);
    if (xg_ofi.raw_order) {
        xg_ofi.info->tx_attr->msg_order |= FI_ORDER_RAW | FI_ORDER_SAS;
        xg_ofi.info->rx_attr->msg_order |= FI_ORDER_RAW | FI_ORDER_SAS;
    }
    if (xg_ofi.waw_order) {
        xg_ofi.info->tx_attr->msg_order |= FI_ORDER_WAW | FI_ORDER_SAW;
        xg_ofi.info->rx_attr->msg_order |= FI_ORDER_WAW | FI_ORDER_SAW;
    }
    ret = fi_endpoint(xg_ofi.domain, xg_ofi.info, &xg_ofi.ep, NULL);
    if (ret == 0) {
        ret = fi_ep_bind(xg_ofi.ep, &xg_ofi.av->fid, 0);
    }
    if (ret == 0) {
        ret = fi_ep_bind(xg_ofi.ep, &xg_ofi.tx_cq->fid, FI_TRANSMIT);
    }
    if (ret == 0) {
        ret = fi_ep_bind(xg_ofi.ep, &xg_ofi.rx_cq->fid, FI_RECV);
    }
    if (ret == 0) {
        ret = fi_enable(xg_ofi.ep);
    }
    if (ret != 0) {
        return ofi_failed("opening the endpoint", ret);
    }
    xg_ofi.wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (xg_ofi.wake_fd < 0) {
        xg_error("ofi", "eventfd failed (%m)");
        return XG_ERR_IO;
    }
    return XG_OK;
}

/* Publishes this endpoint's address for the other PEs. */
static xg_status_t ofi_publish_addr(void)
{
    uint8_t addr[256];
    size_t len = sizeof(addr);
    int ret    = fi_getname(&xg_ofi.ep->fid, addr, &len);

    if (ret != 0) {
        return ofi_failed("fi_getname", ret);
    }
    return xg_boot_kv_put(OFI_KEY_ADDR, addr, len);
}

fi_addr_t xg_ofi_addr(int peer)
{
    xg_ofi_peer_t *p = &xg_ofi.peers[peer];
    uint8_t addr[256];
    size_t len        = 0;
    fi_addr_t fi_addr = FI_ADDR_NOTAVAIL;
    xg_status_t status;
    int ret;

    /* acquire: the address is stored before the flag */
    if (xg_likely(atomic_load_explicit(&p->state, memory_order_acquire) != 0)) {
        return p->addr;
    }
    pthread_mutex_lock(&xg_ofi.resolve_lock);
    if (atomic_load_explicit(&p->state, memory_order_relaxed) == 0) {
        status = xg_boot_kv_read(peer, OFI_KEY_ADDR, addr, sizeof(addr), &len);
        ret    = (status == XG_OK)
                     ? fi_av_insert(xg_ofi.av, addr, 1, &fi_addr, 0, NULL)
                     : 0;
        if ((status != XG_OK) || (ret != 1)) {
            xg_error("ofi",
                     "cannot find the network address of PE %d on "
                     "node %d (%s): it did not publish one",
                     peer, xg_boot_node_of(peer),
                     (status != XG_OK) ? xg_status_str(status)
                                       : fi_strerror(-ret));
            fi_addr = FI_ADDR_NOTAVAIL;
        }
        p->addr = fi_addr;
        atomic_store_explicit(&p->state, 1, memory_order_release);
    }
    pthread_mutex_unlock(&xg_ofi.resolve_lock);
    return p->addr;
}

/* xg_ofi_progress; @stalled: read the queue even if nothing of ours can
 * complete. */
static unsigned ofi_progress(int stalled)
{
    struct fi_cq_entry entries[16];
    struct fi_cq_err_entry err;
    unsigned handled = 0;
    ssize_t n, i;

    /* nothing can complete: spare the provider's poll (a system call
     * for the sockets-based ones) */
    if ((!stalled && (atomic_load_explicit(&xg_ofi.tx_inflight,
                                           memory_order_acquire) == 0)) ||
        !xg_spinlock_trylock(&xg_ofi.cq_lock)) {
        return 0;
    }
    xg_ofi_in_provider++;
    for (;;) {
        n = fi_cq_read(xg_ofi.tx_cq, entries, XG_ARRAY_SIZE(entries));
        if (n == -FI_EAVAIL) {
            memset(&err, 0, sizeof(err));
            if (fi_cq_readerr(xg_ofi.tx_cq, &err, 0) != 1) {
                break;
            }
            atomic_fetch_sub_explicit(&xg_ofi.tx_inflight, 1,
                                      memory_order_relaxed);
            if (xg_ofi_is_buf(err.op_context)) {
                xg_ofi_pkt_sent(err.op_context, err.err);
            } else {
                xg_ofi_rma_done(err.op_context, err.err);
            }
            handled++;
            continue;
        }
        if (n <= 0) {
            break;
        }
        atomic_fetch_sub_explicit(&xg_ofi.tx_inflight, (uint64_t)n,
                                  memory_order_relaxed);
        for (i = 0; i < n; i++) {
            if (xg_ofi_is_buf(entries[i].op_context)) {
                xg_ofi_pkt_sent(entries[i].op_context, 0);
            } else {
                xg_ofi_rma_done(entries[i].op_context, 0);
            }
        }
        handled += (unsigned)n;
    }
    xg_ofi_in_provider--;
    xg_spinlock_unlock(&xg_ofi.cq_lock);
    return handled;
}

unsigned xg_ofi_progress(void)
{
    return ofi_progress(0);
}

unsigned xg_ofi_progress_stalled(void)
{
    return ofi_progress(1);
}

void xg_ofi_peer_failed(int peer, const char *what, int err)
{
    /* shmem_global_exit: the peer is gone because the job is ending */
    xg_boot_follow_exit();
    if (atomic_load_explicit(&xg_ofi.peers[peer].state, memory_order_acquire) ==
        XG_OFI_PEER_CLOSED) {
        /* its endpoint went with it: the caller reports the operation */
        xg_info("ofi",
                "%s to PE %d on node %d failed (%s): that PE has "
                "finalized",
                what, peer, xg_boot_node_of(peer), fi_strerror(err));
        return;
    }
    xg_error("ofi",
             "%s to PE %d on node %d failed (%s): the process or "
             "its node died, or the network between the nodes failed; "
             "ending the job",
             what, peer, xg_boot_node_of(peer), fi_strerror(err));
    xg_boot_abort_after(peer, 1);
}

xg_status_t xg_ofi_open(void)
{
    xg_boot_identity_t job;
    xg_status_t status = XG_OK;

    pthread_mutex_lock(&ofi_open_lock);
    if (xg_ofi.open) {
        pthread_mutex_unlock(&ofi_open_lock);
        return XG_OK;
    }
    xg_boot_identity(&job);
    if (job.nnodes == 1) {
        pthread_mutex_unlock(&ofi_open_lock);
        return XG_OK; /* nothing to reach */
    }
    xg_ofi.rank    = job.rank;
    xg_ofi.npes    = job.npes;
    xg_ofi.job_key = job.job_key;
    xg_ofi.info    = ofi_choose_info(xg_ofi.why, sizeof(xg_ofi.why));
    if (xg_ofi.info == NULL) {
        xg_error("ofi",
                 "this job spans %d nodes, but %s: PEs on other "
                 "nodes cannot be reached",
                 job.nnodes, xg_ofi.why);
        status = XG_ERR_UNREACHABLE;
    }
    xg_ofi.peers  = calloc((size_t)job.npes, sizeof(*xg_ofi.peers));
    xg_ofi.talked = calloc((size_t)job.npes, 1);
    if ((status == XG_OK) &&
        ((xg_ofi.peers == NULL) || (xg_ofi.talked == NULL))) {
        status = XG_ERR_NO_MEMORY;
    }
    pthread_mutex_init(&xg_ofi.resolve_lock, NULL);
    pthread_mutex_init(&xg_ofi.tx_lock, NULL);
    xg_spinlock_init(&xg_ofi.cq_lock);
    if (status == XG_OK) {
        status = ofi_open_endpoint();
    }
    if (status == XG_OK) {
        status = xg_ofi_pkt_init();
    }
    if (status == XG_OK) {
        status = ofi_publish_addr();
    }
    /* every PE reaches the fence (a failed one too, so nobody waits for
     * it): afterwards every address is readable */
    if (!xg_boot_fence_all(status == XG_OK) && (status == XG_OK)) {
        xg_error("ofi", "another PE could not open its network endpoint "
                        "(see its message)");
        status = XG_ERR_UNREACHABLE;
    }
    if (status == XG_OK) {
        xg_info("ofi", "provider %s on %s (%s)",
                xg_ofi.info->fabric_attr->prov_name,
                xg_ofi.info->domain_attr->name, xg_ofi.why);
        xg_ofi.open = 1;
    }
    pthread_mutex_unlock(&ofi_open_lock);
    return status;
}

/* ofi reaches the PEs of other nodes, once opened. */
static unsigned ofi_reach(int peer)
{
    if (!xg_ofi.open || (peer < 0) || (peer >= xg_ofi.npes) ||
        xg_boot_same_node(peer)) {
        return 0;
    }
    return xg_xport_ofi.caps;
}

static const xg_xport_ops_t ofi_ops = {
    .pkt_open        = xg_ofi_pkt_open,
    .rma_expose      = xg_ofi_rma_expose,
    .rma_unexpose    = xg_ofi_rma_unexpose,
    .rma_reaches     = xg_ofi_rma_reaches,
    .rma             = xg_ofi_rma,
    .rma_outstanding = xg_ofi_rma_outstanding,
    .rma_complete    = xg_ofi_rma_complete,
    .rma_ordered     = xg_ofi_rma_ordered,
};

const xg_xport_component_t xg_xport_ofi = {
    .name  = "ofi",
    .caps  = XG_XPORT_CAP_PACKETS | XG_XPORT_CAP_RMA | XG_XPORT_CAP_ORDERED,
    .open  = xg_ofi_open,
    .reach = ofi_reach,
    .ops   = &ofi_ops,
};
