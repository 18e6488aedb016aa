/*
 * The process's NIC and its NIs.
 *
 * One process-wide NIC (transport endpoint, progress thread, per-peer send
 * queues and receive streams, nic.c) serves up to four NIs (the
 * matching/non-matching x logical/physical kinds of the one interface,
 * ni.c).  Each NI owns pools of its objects (EQ, CT, MD, ME/LE, target
 * operations, unexpected headers, triggered operations), its portal table
 * and a buddy store for held payloads, all guarded by the NI mutex.
 *
 * Locks, in the order they may be taken:
 *   ni->lock  ->  peer->lock  ->  nic->busy_lock
 *   ni->lock  ->  eq->lock
 * A peer lock is never held while waiting for anything; counters (CT
 * values, status registers) are atomics read without locks.
 */
#ifndef XG_NIC_NI_INT_H
#define XG_NIC_NI_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "base/xg_buddy.h"
#include "base/xg_pool.h"
#include "base/xg_spinlock.h"
#include "nic/xg_nic_fwd_int.h"
#include "nic/xg_nic_obj_int.h"
#include "nic/xg_nic_wire_int.h"
#include "portals4.h"
#include "xport/xg_xport_pkt.h"

/* Receive stream from one peer: the message its next DATA packets extend. */
typedef enum {
    XG_RX_IDLE = 0,
    XG_RX_DISCARD, /* drop the rest of a message */
    XG_RX_TGT,     /* payload of a target operation (put, rendezvous) */
    XG_RX_REPLY    /* reply data into an MD */
} xg_nic_rx_kind_t;

struct xg_nic_rx {
    uint8_t kind;
    uint8_t ni;
    uint8_t fail;
    uint8_t list;         /* reply: ptl_list_t of the target entry */
    uint32_t incarnation; /* of the NI the stream belongs to */
    uint64_t next;        /* expected offset of the next packet */
    uint64_t end;         /* offset where the message ends */
    xg_nic_tgt_t *tgt;
    /* reply */
    uint64_t mlength;
    xg_nic_msg_id_t id;
    uint32_t src_rank;
};

struct xg_nic_peer {
    xg_spinlock_t lock;
    xg_nic_txq_t *head; /* backlog, in order */
    xg_nic_txq_t *tail;
    uint8_t busy; /* on nic->busy */
    uint8_t wake_pending;
    xg_nic_rx_t rx; /* progress thread only */
};

struct xg_nic_ni {
    pthread_mutex_t lock;
    _Atomic int open;     /* references from PtlNIInit */
    uint32_t incarnation; /* bumped at each first PtlNIInit */
    unsigned index;       /* 0..3 */
    unsigned options;
    int matching;
    int logical;
    xg_nic_t *nic;
    ptl_ni_limits_t limits;
    xg_pool_t eq_pool;
    xg_pool_t ct_pool;
    xg_pool_t md_pool;
    xg_pool_t me_pool;
    xg_pool_t tgt_pool;
    xg_pool_t uh_pool;
    xg_pool_t trig_pool;
    xg_nic_pt_t *pt[XG_NIC_MAX_PT];
    uint64_t seq;     /* next append / trigger sequence */
    uint32_t entries; /* MEs/LEs allocated */
    /* logical map: rank -> pid, and pid -> rank */
    ptl_process_t *map;
    uint32_t map_size;
    uint32_t *pid_rank; /* npes entries, UINT32_MAX if none */
    ptl_rank_t my_rank;
    /* status registers */
    _Atomic int64_t sr[PTL_SR_LAST];
    int bundle; /* PtlStartBundle depth */
    /* triggered operations waiting for a check */
    xg_nic_ct_t **ct_work;
    uint32_t ct_work_n;
    uint32_t ct_work_cap;
    int ct_running;
    xg_buddy_t held; /* unexpected payload store */
    int held_ready;
    uint64_t held_bytes; /* payload bytes held now */
    /* target operations with handler calls to run (hooks.c): FIFO of
     * (operation, its handle when queued) */
    struct xg_nic_hook_ref *hookq;
    uint32_t hookq_head;
    uint32_t hookq_n;
    uint32_t hookq_cap;
    _Atomic uint32_t hooks_pending; /* queued calls, read without lock */
};

struct xg_nic {
    xg_pkt_xport_t xport;
    size_t mtu;         /* packet bytes */
    size_t max_payload; /* payload bytes in one packet */
    int rank;
    int npes;
    ptl_uid_t uid;
    ptl_jid_t jid;
    xg_nic_ni_t ni[XG_NIC_NUM_NI];
    xg_nic_peer_t *peers;
    /* configuration */
    uint64_t eager_limit;
    uint64_t rndv_eager;
    int rndv_triggered;
    int hashing;
    uint64_t held_size;
    uint64_t spin_ns;
    /* peers with a backlog */
    xg_spinlock_t busy_lock;
    uint32_t *busy;
    uint32_t nbusy;
    _Atomic uint64_t backlog; /* queued messages, all peers */
    xg_nic_txq_t *txq_free;   /* recycled descriptors (busy_lock) */
    /* progress thread */
    pthread_t thread;
    _Atomic int thread_running;
    int manual_progress; /* thread stopped for good */
    _Atomic int stop;
    pthread_t thread_id;     /* for "am I the progress thread" */
    xg_nic_ni_t *rx_locked;  /* NI the poller holds */
    xg_spinlock_t poll_lock; /* one poller at a time (progress.c) */
    int networked;           /* a job over several nodes: the
                                      * progress thread leaves the network
                                      * to waiting threads (progress.c) */
    _Atomic int bell_taken;  /* a thread sleeps on the transport's
                                      * doorbell (progress.c) */
    /* counters */
    _Atomic uint64_t rx_packets;
    _Atomic uint64_t malformed[XG_WIRE_ERR_LAST];
    _Atomic uint64_t rx_dropped; /* well-formed but unusable */
    /* PtlAbort (4.3): set for good; waits and polls count themselves */
    _Atomic uint32_t aborted;
    _Atomic uint32_t waiters;
};

extern xg_nic_t *_Atomic xg_nic_global;

static inline int xg_nic_ni_is_open(const xg_nic_ni_t *ni)
{
    return atomic_load_explicit(&ni->open, memory_order_acquire) > 0;
}

/* The live EQ / CT of a handle stored in an object, or NULL (none, or
 * freed since: the event or count is then dropped, as for PTL_*_NONE). */
static inline xg_nic_eq_t *xg_nic_eq_of(xg_nic_ni_t *ni, ptl_handle_eq_t h)
{
    return (h == PTL_EQ_NONE) ? NULL : xg_pool_lookup(&ni->eq_pool, h);
}

static inline xg_nic_ct_t *xg_nic_ct_of(xg_nic_ni_t *ni, ptl_handle_ct_t h)
{
    return (h == PTL_CT_NONE) ? NULL : xg_pool_lookup(&ni->ct_pool, h);
}

xg_nic_ni_t *xg_nic_ni_lookup(uint32_t handle);
void xg_nic_ni_teardown(xg_nic_ni_t *ni);
/* The valid physical ids in words, for messages (id.c). */
const char *xg_nic_phys_range(void);
/* Peer (transport rank) for @target on @ni, or -1. */
int xg_nic_target_peer(const xg_nic_ni_t *ni, ptl_process_t target);
/* The initiator id and matching key of a packet from @src_rank. */
void xg_nic_source_id(const xg_nic_ni_t *ni, uint32_t src_rank,
                      ptl_process_t *id, uint64_t *key);
ptl_process_t xg_nic_peer_id(const xg_nic_ni_t *ni, uint32_t rank);
void xg_nic_sr_inc(xg_nic_ni_t *ni, ptl_sr_index_t reg);
uint8_t *xg_nic_held_alloc(xg_nic_ni_t *ni, size_t len);
void xg_nic_held_free(xg_nic_ni_t *ni, uint8_t *block, size_t len);

#endif
