/*
 * The ofi component (private to xport/): the PEs of other nodes, through
 * one libfabric reliable-datagram endpoint (FI_EP_RDM) per process.
 *
 *   - Provider: XGAS_OFI_PROVIDER, or the first of a preference list that
 *     fi_getinfo offers with what xgas needs (messages in order per peer,
 *     FI_ORDER_SAS; RMA read and write; thread safety); its domain (for
 *     tcp: the network interface) XGAS_OFI_DOMAIN, or the first one that
 *     is not loopback (ofi.c).
 *   - Packets (pkt.c): the contract of xport/xg_xport_pkt.h over fi_send
 *     and posted receive buffers; each packet carries the job key and the
 *     sender, and a receiver drops and counts anything else.
 *   - RMA (rma.c): this PE's partition registered once (key and address
 *     through boot), off-node put and get by fi_write and fi_read into the
 *     peer's registration, counted for quiet; the target's CPU runs no
 *     code of ours (a provider with manual progress moves the bytes when
 *     the target's progress thread or waiting thread polls).
 *
 * It is opened only in a job over several nodes (collective: every PE
 * publishes its endpoint address, then a boot fence); a peer's address
 * and registration are read from boot the first time they are needed.
 */
#ifndef XG_OFI_H
#define XG_OFI_H

/* first: renames libfabric's exported functions (loaded on first use) */
#include "xport/ofi/xg_ofi_dl.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>

#include "base/xg_spinlock.h"
#include "xport/ofi/xg_ofi_wire.h"
#include "xport/xg_xport.h"

extern const xg_xport_component_t xg_xport_ofi;

/* ---- the component ------------------------------------------------------ */

/* A buffer of the packet pool: sent from or received into. */
typedef struct xg_ofi_buf {
    struct xg_ofi_buf *next; /* free list or pending queue */
    uint32_t len;            /* bytes of data[] in use */
    int32_t peer;            /* tx: the destination */
    uint32_t rma;            /* tx: 1 if it holds an RMA write's bytes
                                * (rma.c), not a packet */
    uint8_t data[] XG_CACHE_ALIGNED;
} xg_ofi_buf_t;

/* xg_ofi_peer_t.state */
enum {
    XG_OFI_PEER_UNKNOWN = 0, /* address not read yet (xg_ofi_addr) */
    XG_OFI_PEER_OPEN    = 1, /* reachable */
    XG_OFI_PEER_CLOSED  = 2  /* it stopped receiving (its CLOSE) */
};

/* What this process knows about another one. */
typedef struct xg_ofi_peer {
    _Atomic int state;     /* OFI_PEER_* (pkt.c): address, closed... */
    fi_addr_t addr;        /* in the address vector, once resolved */
    uint64_t opened;       /* the peer's openings when it closed */
    _Atomic int awaited;   /* our CLOSE is not acknowledged yet */
    _Atomic int rma_state; /* the registration below: 0 unknown, 1 read,
                               -1 unusable */
    uint64_t rma_base;     /* address of offset 0 for fi_write/fi_read */
    uint64_t rma_key;
    uint64_t rma_len;      /* bytes registered */
    _Atomic int rma_dirty; /* written since the last flush */
} xg_ofi_peer_t;

typedef struct xg_ofi {
    int open; /* 1 once opened (several nodes) */
    int rank;
    int npes;
    uint64_t job_key;
    struct fi_info *info; /* the provider chosen */
    char why[512];        /* ... and why */
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_av *av;
    struct fid_ep *ep;
    struct fid_cq *tx_cq;         /* sends and RMA: any thread reads */
    struct fid_cq *rx_cq;         /* receives: the packet poller */
    int rx_fd;                    /* rx_cq's wait descriptor, or -1 */
    int wake_fd;                  /* eventfd: rx_wake, own process */
    xg_ofi_peer_t *peers;         /* npes */
    pthread_mutex_t resolve_lock; /* reading peers' records */
    xg_spinlock_t cq_lock;        /* one reader of tx_cq at a time */
    _Atomic uint64_t tx_inflight; /* operations whose completion tx_cq
                                       * will hold */

    /* packets (pkt.c) */
    size_t buf_size;   /* bytes of data[] per buffer */
    size_t buf_stride; /* bytes between buffers */
    uint8_t *bufs;     /* every buffer, one allocation */
    size_t nbufs;
    struct fid_mr *buf_mr; /* where the provider wants it */
    void *buf_desc;
    pthread_mutex_t tx_lock; /* free list and pending queue */
    xg_ofi_buf_t *tx_free;
    xg_ofi_buf_t *tx_pending; /* committed, not yet accepted */
    xg_ofi_buf_t *tx_pending_tail;
    xg_ofi_buf_t *rx_repost; /* not re-posted yet (poller's) */
    _Atomic int rx_closed;
    uint64_t opened; /* rx_open calls, this one counted */
    _Atomic int rx_sleeping;
    _Atomic uint8_t *talked; /* npes: peers to tell of a close */
    _Atomic uint64_t dropped[XG_OFI_DROP_LAST];

    /* RMA (rma.c) */
    struct fid_mr *part_mr; /* this PE's partition */
    void *part_desc;
    uintptr_t part_lo, part_hi;
    _Atomic uint64_t rma_issued; /* operations counted for quiet */
    _Atomic uint64_t rma_done;
    _Atomic uint64_t rma_failed;
    uint64_t rma_failed_seen;
    _Atomic uint64_t rma_dirty; /* peers marked rma_dirty */
    int raw_order;              /* the provider keeps reads after
                                       * writes (FI_ORDER_RAW) */
    int waw_order;              /* ... and writes and sends after
                                       * writes (FI_ORDER_WAW, SAW) */
} xg_ofi_t;

extern xg_ofi_t xg_ofi;

/* Non-zero while this thread runs provider code that may touch the
 * application's memory or hold the provider's locks (completion reads,
 * RMA issue): a fault there whose signal handler calls exit() must not
 * make the exit handlers call the provider again (xg_xport_in_provider). */
extern __thread int xg_ofi_in_provider;

/* Puts back the default action of crash signals whose handler is
 * libinfinipath's (ofi.c): after libfabric is loaded. */
void xg_ofi_restore_crash_signals(void);

/* Opens the component (ofi.c; collective in a job over several nodes). */
xg_status_t xg_ofi_open(void);

/* Chooses the provider as xg_ofi_open would, without opening anything:
 * its description (provider on domain) in @name, the reason in @why; -1
 * if there is none usable (@why says why). */
int xg_ofi_choose(char *name, size_t name_len, char *why, size_t why_len);

/* The address of @peer in the address vector, read from boot and inserted
 * the first time (thread-safe); FI_ADDR_NOTAVAIL if it cannot be. */
fi_addr_t xg_ofi_addr(int peer);

/* Reads completions of sends and RMA (any thread; returns at once if
 * another thread is reading): frees sent buffers, counts RMA, reports
 * failures.  Returns how many it handled. */
unsigned xg_ofi_progress(void);
/* The same when the provider refused an operation for now (-FI_EAGAIN):
 * the queue is read even if none of our operations is in flight -- a
 * provider with manual progress makes room, or finishes connecting to a
 * peer, only while it is polled. */
unsigned xg_ofi_progress_stalled(void);

/* Says that @peer cannot be reached (a failed send or RMA): ends the job
 * unless the peer had closed its endpoint (finalized: then the operation
 * only fails). */
void xg_ofi_peer_failed(int peer, const char *what, int err);

/* Packets (pkt.c) */
xg_status_t xg_ofi_pkt_init(void);
xg_status_t xg_ofi_pkt_open(xg_pkt_xport_t *xport);
/* A send completion for buffer @buf (successful or not): frees it. */
void xg_ofi_pkt_sent(xg_ofi_buf_t *buf, int err);
/* A free send buffer (registered: xg_ofi.buf_desc), or NULL. */
xg_ofi_buf_t *xg_ofi_tx_take(void);
/* 1 if @ctx is one of the packet buffers */
int xg_ofi_is_buf(const void *ctx);

/* RMA (rma.c): the ops of xg_xport.h's xg_xport_rma_*, and a
 * completion of an RMA operation (context @ctx) */
xg_status_t xg_ofi_rma_expose(void *base, size_t len);
void xg_ofi_rma_unexpose(void);
int xg_ofi_rma_reaches(int peer, const void *local, size_t len);
xg_status_t xg_ofi_rma(int put, int peer, void *local, uint64_t off, size_t len,
                       int mode, int *counted_p);
int xg_ofi_rma_outstanding(void);
xg_status_t xg_ofi_rma_complete(void);
int xg_ofi_rma_ordered(void);
void xg_ofi_rma_done(void *ctx, int err);

#endif
