/*
 * Internals of the software NIC shared by the files of src/nic.
 *
 * Objects: one process-wide NIC (transport endpoint, progress thread,
 * per-peer send queues and receive streams) serving up to four NIs (the
 * matching/non-matching x logical/physical kinds of the one interface).
 * Each NI owns pools of its objects (EQ, CT, MD, ME/LE, target operations,
 * unexpected headers, triggered operations), its portal table and a buddy
 * store for held payloads, all guarded by the NI mutex.
 *
 * Locks, in the order they may be taken:
 *   ni->lock  ->  peer->lock  ->  nic->busy_lock
 *   ni->lock  ->  eq->lock
 * A peer lock is never held while waiting for anything; counters (CT
 * values, status registers) are atomics read without locks.
 *
 * Handles: type (3 bits) | NI index (2) | generation (7) | slot index (20).
 */
#ifndef XG_NIC_INT_H
#define XG_NIC_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "base/xg_compiler.h"
#include "base/xg_log.h"
#include "nic/xg_buddy.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_wire.h"
#include "xport/xg_xport_pkt.h"

#define XG_NIC_NUM_NI   4
#define XG_NIC_MAX_PT   256        /* portal indexes 0..255 */
#define XG_NIC_CHUNK    256        /* objects per pool chunk */

/* ------------------------------------------------------------------------
 * Handles and pools
 * --------------------------------------------------------------------- */

typedef enum xg_nic_obj_type {
    XG_NIC_OBJ_NI = 1,
    XG_NIC_OBJ_EQ,
    XG_NIC_OBJ_CT,
    XG_NIC_OBJ_MD,
    XG_NIC_OBJ_ME,
    XG_NIC_OBJ_LE,
    XG_NIC_OBJ_INTERNAL   /* target operations, headers, triggers */
} xg_nic_obj_type_t;

#define XG_NIC_H_TYPE_SHIFT 29
#define XG_NIC_H_NI_SHIFT   27
#define XG_NIC_H_GEN_SHIFT  20
#define XG_NIC_H_GEN_MASK   0x7fu
#define XG_NIC_H_INDEX_MASK 0xfffffu

static inline uint32_t xg_nic_handle_make(unsigned type, unsigned ni,
                                          unsigned gen, uint32_t index)
{
    return ((uint32_t)type << XG_NIC_H_TYPE_SHIFT) |
           ((uint32_t)ni << XG_NIC_H_NI_SHIFT) |
           ((uint32_t)(gen & XG_NIC_H_GEN_MASK) << XG_NIC_H_GEN_SHIFT) |
           (index & XG_NIC_H_INDEX_MASK);
}

static inline unsigned xg_nic_handle_type(uint32_t h)
{
    return h >> XG_NIC_H_TYPE_SHIFT;
}

static inline unsigned xg_nic_handle_ni(uint32_t h)
{
    return (h >> XG_NIC_H_NI_SHIFT) & 3u;
}

/* First member of every pooled object. */
typedef struct xg_nic_obj {
    _Atomic uint32_t handle;  /* 0 while free */
    uint32_t         index;
    uint32_t         next_free;  /* index + 1 of the next free slot */
    uint8_t          gen;
    uint8_t          live;       /* allocated (its handle may be retired) */
    uint8_t          pad[2];
} xg_nic_obj_t;

typedef struct xg_nic_pool {
    size_t               obj_size;
    uint32_t             max;        /* objects allowed at once */
    uint32_t             count;      /* in use */
    uint32_t             created;    /* slots ever initialized */
    uint32_t             free_head;  /* index + 1, 0: none */
    uint8_t              type;
    uint8_t              ni;
    uint32_t             nchunks;
    _Atomic(void *)     *chunks;
} xg_nic_pool_t;

xg_status_t xg_nic_pool_init(xg_nic_pool_t *pool, size_t obj_size,
                             uint32_t max, unsigned type, unsigned ni);
void  xg_nic_pool_fini(xg_nic_pool_t *pool);
/* A zeroed object with a fresh handle, or NULL at the limit. */
void *xg_nic_pool_alloc(xg_nic_pool_t *pool);
void  xg_nic_pool_free(xg_nic_pool_t *pool, void *obj);
/* The live object named by @handle, or NULL (no lock needed). */
void *xg_nic_pool_lookup(xg_nic_pool_t *pool, uint32_t handle);
/* Calls @fn on every allocated object, retired handles included
 * (teardown). */
void  xg_nic_pool_each(xg_nic_pool_t *pool, void (*fn)(void *obj, void *arg),
                       void *arg);

static inline uint32_t xg_nic_obj_handle(const void *obj)
{
    return atomic_load_explicit(&((const xg_nic_obj_t *)obj)->handle,
                                memory_order_relaxed);
}

/* ------------------------------------------------------------------------
 * Small spin lock that backs off (xg_wait), for the per-peer send queues.
 * --------------------------------------------------------------------- */

typedef struct xg_nic_spin {
    atomic_flag flag;
} xg_nic_spin_t;

void xg_nic_spin_lock_slow(xg_nic_spin_t *lock);

static inline void xg_nic_spin_init(xg_nic_spin_t *lock)
{
    atomic_flag_clear(&lock->flag);
}

static inline void xg_nic_spin_lock(xg_nic_spin_t *lock)
{
    if (xg_unlikely(atomic_flag_test_and_set_explicit(
            &lock->flag, memory_order_acquire))) {
        xg_nic_spin_lock_slow(lock);
    }
}

static inline void xg_nic_spin_unlock(xg_nic_spin_t *lock)
{
    atomic_flag_clear_explicit(&lock->flag, memory_order_release);
}

/* ------------------------------------------------------------------------
 * Memory regions (MD, ME): contiguous or a ptl_iovec_t list
 * --------------------------------------------------------------------- */

typedef struct xg_nic_region {
    uint8_t            *start;   /* contiguous: the bytes */
    uint64_t            length;  /* total bytes */
    ptl_iovec_t        *iov;     /* our copy, or NULL */
    uint32_t            niov;
} xg_nic_region_t;

int   xg_nic_region_init(xg_nic_region_t *region, void *start,
                         ptl_size_t length, int iovec, int max_iovecs);
void  xg_nic_region_fini(xg_nic_region_t *region);
void  xg_nic_region_write(const xg_nic_region_t *region, uint64_t offset,
                          const void *src, uint64_t len);
void  xg_nic_region_read(const xg_nic_region_t *region, uint64_t offset,
                         void *dst, uint64_t len);
/* Address of byte @offset (the event's start), NULL past the end. */
void *xg_nic_region_addr(const xg_nic_region_t *region, uint64_t offset);

/* ------------------------------------------------------------------------
 * Event queues and counting events
 * --------------------------------------------------------------------- */

typedef struct xg_nic_eq {
    xg_nic_obj_t     obj;
    xg_nic_spin_t    lock;
    ptl_event_t     *ring;
    uint64_t         capacity;  /* slots: size + flow-control reserve */
    uint64_t         size;      /* events the user asked room for */
    uint64_t         head;      /* consumer */
    _Atomic uint64_t tail;      /* producers (under the NI lock) */
    uint32_t         fc_ptes;   /* flow-controlled PTs attached */
    uint8_t          dropped;   /* an event was overwritten */
} xg_nic_eq_t;

struct xg_nic_ni;
struct xg_nic_trig;

typedef struct xg_nic_ct {
    xg_nic_obj_t          obj;
    _Atomic uint64_t      success;
    _Atomic uint64_t      failure;
    struct xg_nic_trig  **heap;      /* pending triggers, min (threshold,seq) */
    uint32_t              nheap;
    uint32_t              heap_cap;
    uint8_t               queued;    /* on the NI's check list */
    uint8_t               internal;  /* embedded in a target op */
} xg_nic_ct_t;

/* ------------------------------------------------------------------------
 * Memory descriptors
 * --------------------------------------------------------------------- */

typedef struct xg_nic_md {
    xg_nic_obj_t     obj;
    xg_nic_region_t  region;
    unsigned         options;
    ptl_handle_eq_t  eq;        /* looked up at each use: a freed queue */
    ptl_handle_ct_t  ct;        /* or counter is then simply absent */
    uint32_t         pending;   /* operations that may still use it */
} xg_nic_md_t;

/* ------------------------------------------------------------------------
 * Matching structures
 * --------------------------------------------------------------------- */

/* Intrusive link of a chained hash table whose chains keep insertion order
 * (the order matching must respect). */
typedef struct xg_nic_hlink {
    struct xg_nic_hlink *next;
    struct xg_nic_hlink *prev;
    uint64_t             hash;
} xg_nic_hlink_t;

/* A bucket keeps both ends of its chain in one place: one cache line to
 * touch per insert, lookup or removal. */
typedef struct xg_nic_hbucket {
    xg_nic_hlink_t *head;
    xg_nic_hlink_t *tail;
} xg_nic_hbucket_t;

typedef struct xg_nic_htab {
    xg_nic_hbucket_t *b;
    uint32_t          mask;   /* buckets - 1 */
    uint32_t          count;
} xg_nic_htab_t;

void xg_nic_htab_init(xg_nic_htab_t *tab);
void xg_nic_htab_fini(xg_nic_htab_t *tab);
/* Appends @link (its hash set) at the tail of its chain; grows the table
 * at load 1/2 (chains keep their order: each new chain comes from one
 * old). */
void xg_nic_htab_append(xg_nic_htab_t *tab, xg_nic_hlink_t *link);
void xg_nic_htab_remove(xg_nic_htab_t *tab, xg_nic_hlink_t *link);
static inline xg_nic_hlink_t *xg_nic_htab_first(const xg_nic_htab_t *tab,
                                                uint64_t hash)
{
    return (tab->b == NULL) ? NULL : tab->b[hash & tab->mask].head;
}

uint64_t xg_nic_hash2(uint64_t a, uint64_t b);

/* Where an entry is indexed. */
enum {
    XG_NIC_IDX_WILD = 0,  /* ordered list: ignore bits or partial wildcard */
    XG_NIC_IDX_EXACT,     /* hash on (source, match bits) */
    XG_NIC_IDX_ANYSRC     /* hash on match bits, any source */
};

typedef struct xg_nic_pt xg_nic_pt_t;

typedef struct xg_nic_me {
    xg_nic_obj_t      obj;
    xg_nic_hlink_t    link;      /* chain or wild list */
    uint64_t          seq;       /* append order */
    xg_nic_pt_t      *pt;
    uint8_t           list;      /* ptl_list_t */
    uint8_t           idx;       /* XG_NIC_IDX_* */
    uint8_t           linked;    /* on its list */
    uint8_t           is_le;
    uint8_t           zombie;    /* unlinked, freed when refs drop */
    uint8_t           auto_unlinked;
    uint8_t           consumed;  /* used up while being appended */
    uint8_t           trig_pending; /* PtlTriggeredMEAppend not fired yet */
    unsigned          options;
    xg_nic_region_t   region;
    ptl_handle_ct_t   ct;
    ptl_uid_t         uid;
    ptl_jid_t         jid;
    ptl_process_t     match_id;
    uint64_t          src_key;   /* exact source, if idx == EXACT */
    ptl_match_bits_t  match_bits;
    ptl_match_bits_t  ignore_bits;
    ptl_size_t        min_free;
    ptl_size_t        local_offset;
    void             *user_ptr;
    uint32_t          inflight;  /* target operations using it */
    uint32_t          uh_refs;   /* unexpected headers pointing into it */
} xg_nic_me_t;

/* One list (priority or overflow) of a portal index. */
typedef struct xg_nic_list {
    xg_nic_htab_t   exact;
    xg_nic_htab_t   anysrc;
    xg_nic_hlink_t *wild_head;
    xg_nic_hlink_t *wild_tail;
    uint32_t        count;
} xg_nic_list_t;

struct xg_nic_tgt;

/* The header of an unexpected message (delivered to an overflow entry, or
 * held by the NIC), kept until a priority append or a search takes it. */
typedef struct xg_nic_uh {
    /* first cache line: what a hash-chain walk reads */
    xg_nic_obj_t      obj;
    xg_nic_hlink_t    hx;        /* exact index: (source, match bits) */
    xg_nic_hlink_t    hm;        /* any-source index: match bits */
    /* second: what matching and its event read */
    struct xg_nic_uh *next;      /* arrival order */
    struct xg_nic_uh *prev;
    ptl_match_bits_t  match_bits;
    uint64_t          src_key;
    ptl_size_t        rlength;
    ptl_size_t        roffset;   /* offset requested */
    ptl_process_t     initiator;
    uint8_t           kind;      /* xg_nic_wire_type_t of the request */
    uint8_t           held;      /* rendezvous payload still at initiator */
    uint8_t           hashed;    /* 1: in hx, 2: in hm (bits) */
    uint8_t           atomic_op;
    uint8_t           atomic_type;
    uint8_t           ack_req;
    /* the rest of the event */
    ptl_hdr_data_t    hdr_data;
    ptl_size_t        mlength;   /* bytes in the overflow entry */
    void             *start;     /* data in the overflow entry */
    xg_nic_me_t      *me;        /* the overflow entry */
    ptl_uid_t         uid;
    ptl_jid_t         jid;
    uint32_t          src_rank;
    ptl_pt_index_t    pt_index;
    /* held rendezvous messages */
    uint8_t          *held_data;   /* buddy block with the eager bytes */
    ptl_size_t        held_len;
    uint64_t          user_ptr;
    uint64_t          loffset;
    uint32_t          md;
    /* the message whose data is still landing in the overflow entry (the
     * header is listed from the moment it matched) */
    struct xg_nic_tgt *pending;
} xg_nic_uh_t;

struct xg_nic_pt {
    ptl_pt_index_t   index;
    uint8_t          allocated;
    uint8_t          enabled;
    unsigned         options;
    ptl_handle_eq_t  eq;
    xg_nic_list_t    lists[2];   /* PTL_PRIORITY_LIST, PTL_OVERFLOW_LIST */
    xg_nic_uh_t     *uh_head;
    xg_nic_uh_t     *uh_tail;
    xg_nic_htab_t    uh_exact;
    xg_nic_htab_t    uh_mb;      /* built at the first any-source search */
    uint8_t          uh_mb_on;
    uint32_t         uh_count;
    uint32_t         inflight;   /* target operations in progress */
};

/* ------------------------------------------------------------------------
 * Target operations (the state machine's context, target.c)
 * --------------------------------------------------------------------- */

typedef enum xg_nic_tgt_state {
    XG_TGT_START = 0,    /* validate NI and portal index */
    XG_TGT_MATCH,        /* priority list, then overflow list */
    XG_TGT_CHECK,        /* permissions, operation, resources */
    XG_TGT_CLAIM,        /* offsets, lengths, use-once, header */
    XG_TGT_DATA,         /* payload of a put lands */
    XG_TGT_WAIT_DATA,    /* wait state: more DATA packets */
    XG_TGT_PULL,         /* rendezvous: ask the initiator */
    XG_TGT_WAIT_PULL,    /* wait state: RNDV_DATA packets */
    XG_TGT_HOLD,         /* unexpected rendezvous: keep the header */
    XG_TGT_ATOMIC,       /* apply an atomic */
    XG_TGT_REPLY,        /* get/fetch: send data back */
    XG_TGT_WAIT_REPLY,   /* wait state: reply queued for sending */
    XG_TGT_COMPLETE,     /* events, counters, unlink */
    XG_TGT_ACK,          /* acknowledgement */
    XG_TGT_DROP,         /* failure: count, tell the initiator */
    XG_TGT_DONE,
    XG_TGT_WAIT,         /* returned by wait states to the progress loop */
    XG_TGT_STATE_LAST
} xg_nic_tgt_state_t;

typedef struct xg_nic_tgt {
    xg_nic_obj_t       obj;
    xg_nic_tgt_state_t state;
    uint8_t            kind;       /* request wire type */
    uint8_t            list;       /* list of the entry */
    uint8_t            rndv;       /* payload comes by rendezvous */
    uint8_t            from_held;  /* delivering a held header */
    uint8_t            fail;       /* ptl_ni_fail_t when dropping */
    uint8_t            pooled;     /* lives in the pool (not on stack) */
    uint8_t            ack_req;
    uint8_t            atomic_op;
    uint8_t            atomic_type;
    uint8_t            drop_reason; /* status register to count */
    uint8_t            unlink_after;/* entry consumed: AUTO_UNLINK at end */
    uint8_t            ack_disabled;/* entry has PTL_ME_ACK_DISABLE */
    uint8_t            held_ack_later; /* held: acknowledged on delivery */
    uint8_t            pull_sent;   /* RNDV_GET is out */
    uint8_t            reply_done;  /* reply data has left */
    uint8_t            running;     /* inside tgt_run */
    uint8_t            resumed;     /* resumed while running */
    uint8_t            aborted;
    struct xg_nic_ni  *ni;
    xg_nic_pt_t       *pt;
    xg_nic_me_t       *me;
    xg_nic_uh_t       *uh;         /* header recorded for an overflow */
    uint32_t           src_rank;
    ptl_process_t      initiator;
    uint64_t           src_key;
    ptl_uid_t          uid;
    ptl_jid_t          jid;
    ptl_pt_index_t     pt_index;
    ptl_match_bits_t   match_bits;
    ptl_hdr_data_t     hdr_data;
    ptl_size_t         rlength;
    ptl_size_t         roffset;    /* requested */
    ptl_size_t         moffset;    /* used in the entry */
    ptl_size_t         mlength;
    ptl_size_t         landed;     /* stream bytes processed so far */
    ptl_size_t         expect;     /* stream bytes to come in all */
    ptl_size_t         eager;      /* bytes that came with the header */
    uint64_t           user_ptr;   /* initiator cookies */
    uint64_t           loffset;
    uint32_t           md;
    uint8_t            operand[32];
    const uint8_t     *payload;    /* this packet's data (transient) */
    uint32_t           payload_len;
    uint8_t           *held_data;  /* buddy block to copy from */
    ptl_size_t         held_len;
    xg_nic_ct_t        pull_ct;    /* triggered rendezvous counter */
    /* A priority append (or a search-delete) took this message's header
     * while its data was still landing in the overflow entry: the
     * overflow event and count are owed to it at completion. */
    uint8_t            claimed;
    uint8_t            claim_events;  /* post the *_OVERFLOW event */
    uint8_t            claim_unlink;  /* the entry is used up: AUTO_UNLINK */
    unsigned           claim_options; /* the claiming entry's options */
    ptl_handle_ct_t    claim_ct;
    void              *claim_user_ptr;
    xg_nic_me_t       *claim_me;      /* NULL for a search */
} xg_nic_tgt_t;

const char *xg_nic_tgt_state_name(xg_nic_tgt_state_t state);

/* ------------------------------------------------------------------------
 * Triggered operations
 * --------------------------------------------------------------------- */

typedef enum {
    XG_TRIG_OP = 0,     /* an API operation */
    XG_TRIG_PULL,       /* rendezvous pull of a target operation */
    XG_TRIG_ME_APPEND,  /* PtlTriggeredMEAppend: link trig->me */
    XG_TRIG_ME_UNLINK   /* PtlTriggeredMEUnlink: unlink trig->me_handle */
} xg_nic_trig_kind_t;

typedef struct xg_nic_trig {
    xg_nic_obj_t        obj;
    uint8_t             kind;
    uint64_t            threshold;
    uint64_t            seq;
    xg_nic_ct_t        *ct;
    xg_nic_op_t         op;
    xg_nic_tgt_t       *tgt;
    xg_nic_me_t        *me;         /* XG_TRIG_ME_APPEND */
    ptl_handle_me_t     me_handle;  /* XG_TRIG_ME_UNLINK */
} xg_nic_trig_t;

/* ------------------------------------------------------------------------
 * Sending: per-peer queues (tx.c)
 * --------------------------------------------------------------------- */

typedef enum xg_nic_txdone_kind {
    XG_TXDONE_NONE = 0,
    XG_TXDONE_SEND,      /* initiator: post SEND (put/atomic data out) */
    XG_TXDONE_TGT,       /* target: reply data read, complete the op */
    XG_TXDONE_RNDV       /* initiator: rendezvous payload out: SEND */
} xg_nic_txdone_kind_t;

/* What to do when a message has left (all its packets are queued in the
 * transport). */
typedef struct xg_nic_txdone {
    uint8_t          kind;
    uint8_t          ni;
    uint8_t          ack_req;    /* SEND: response still expected? */
    uint8_t          expect_response;
    uint32_t         md;
    void            *user_ptr;
    ptl_size_t       length;
    ptl_size_t       roffset;
    ptl_process_t    target;
    ptl_pt_index_t   pt_index;
    ptl_match_bits_t match_bits;
    ptl_hdr_data_t   hdr_data;
    xg_nic_tgt_t    *tgt;
} xg_nic_txdone_t;

/* A message to send: header of its first packet and where its payload is.
 * Continuation packets are XG_WIRE_DATA. */
typedef struct xg_nic_txmsg {
    xg_nic_wire_t          hdr;
    const xg_nic_region_t *src;      /* payload source, or NULL */
    const uint8_t         *inline_data; /* or this (copied if queued) */
    uint64_t               inline_base; /* message offset of inline_data */
    uint64_t               src_off;
    uint64_t               len;      /* payload bytes */
    uint64_t               sent;     /* payload bytes pushed */
    uint8_t                first_done;
    uint8_t                copy;     /* queue a private copy (volatile) */
    uint8_t                defer_wake;
    uint8_t                failed;   /* queued: the peer refused it */
    int32_t                peer;     /* queued: its destination */
    xg_nic_txdone_t        done;
} xg_nic_txmsg_t;

typedef struct xg_nic_txq {
    struct xg_nic_txq *next;
    xg_nic_txmsg_t     msg;
    uint8_t           *owned;   /* private payload copy */
} xg_nic_txq_t;

/* Receive stream from one peer: the message its next DATA packets extend. */
typedef enum {
    XG_RX_IDLE = 0,
    XG_RX_DISCARD,   /* drop the rest of a message */
    XG_RX_TGT,       /* payload of a target operation (put, rendezvous) */
    XG_RX_REPLY      /* reply data into an MD */
} xg_nic_rx_kind_t;

typedef struct xg_nic_rx {
    uint8_t          kind;
    uint8_t          ni;
    uint8_t          fail;
    uint8_t          list;      /* reply: ptl_list_t of the target entry */
    uint32_t         incarnation; /* of the NI the stream belongs to */
    uint64_t         next;      /* expected offset of the next packet */
    uint64_t         end;       /* offset where the message ends */
    xg_nic_tgt_t    *tgt;
    /* reply */
    uint32_t         md;
    uint64_t         loffset;
    uint64_t         rlength;
    uint64_t         mlength;
    uint64_t         roffset;
    uint64_t         user_ptr;
    uint32_t         src_rank;
} xg_nic_rx_t;

typedef struct xg_nic_peer {
    xg_nic_spin_t  lock;
    xg_nic_txq_t  *head;        /* backlog, in order */
    xg_nic_txq_t  *tail;
    uint8_t        busy;        /* on nic->busy */
    uint8_t        wake_pending;
    xg_nic_rx_t    rx;          /* progress thread only */
} xg_nic_peer_t;

/* ------------------------------------------------------------------------
 * NI and NIC
 * --------------------------------------------------------------------- */

typedef struct xg_nic_ni {
    pthread_mutex_t     lock;
    int                 open;       /* references from PtlNIInit */
    uint32_t            incarnation;/* bumped at each first PtlNIInit */
    unsigned            index;      /* 0..3 */
    unsigned            options;
    int                 matching;
    int                 logical;
    struct xg_nic      *nic;
    ptl_ni_limits_t     limits;
    xg_nic_pool_t       eq_pool;
    xg_nic_pool_t       ct_pool;
    xg_nic_pool_t       md_pool;
    xg_nic_pool_t       me_pool;
    xg_nic_pool_t       tgt_pool;
    xg_nic_pool_t       uh_pool;
    xg_nic_pool_t       trig_pool;
    xg_nic_pt_t        *pt[XG_NIC_MAX_PT];
    uint64_t            seq;        /* next append / trigger sequence */
    uint32_t            entries;    /* MEs/LEs allocated */
    /* logical map: rank -> pid, and pid -> rank */
    ptl_process_t      *map;
    uint32_t            map_size;
    uint32_t           *pid_rank;   /* npes entries, UINT32_MAX if none */
    ptl_rank_t          my_rank;
    /* status registers */
    _Atomic int64_t     sr[PTL_SR_LAST];
    int                 bundle;     /* PtlStartBundle depth */
    /* triggered operations waiting for a check */
    xg_nic_ct_t       **ct_work;
    uint32_t            ct_work_n;
    uint32_t            ct_work_cap;
    int                 ct_running;
    xg_buddy_t          held;       /* unexpected payload store */
    int                 held_ready;
    uint64_t            held_bytes; /* payload bytes held now */
} xg_nic_ni_t;

typedef struct xg_nic {
    xg_pkt_xport_t      xport;
    size_t              mtu;        /* packet bytes */
    size_t              max_payload;/* payload bytes in one packet */
    int                 rank;
    int                 npes;
    ptl_uid_t           uid;
    ptl_jid_t           jid;
    xg_nic_ni_t         ni[XG_NIC_NUM_NI];
    xg_nic_peer_t      *peers;
    /* configuration */
    uint64_t            eager_limit;
    uint64_t            rndv_eager;
    int                 rndv_triggered;
    int                 hashing;
    uint64_t            held_size;
    uint64_t            spin_ns;
    /* peers with a backlog */
    xg_nic_spin_t       busy_lock;
    uint32_t           *busy;
    uint32_t            nbusy;
    _Atomic uint64_t    backlog;     /* queued messages, all peers */
    xg_nic_txq_t       *txq_free;    /* recycled descriptors (busy_lock) */
    /* progress thread */
    pthread_t           thread;
    int                 thread_running;
    int                 manual_progress; /* thread stopped for good */
    _Atomic int         stop;
    pthread_t           thread_id;   /* for "am I the progress thread" */
    xg_nic_ni_t        *rx_locked;   /* NI the poller holds */
    xg_nic_spin_t       poll_lock;   /* one poller at a time (see nic.c) */
    /* counters */
    _Atomic uint64_t    rx_packets;
    _Atomic uint64_t    malformed[XG_WIRE_ERR_LAST];
    _Atomic uint64_t    rx_dropped;  /* well-formed but unusable */
    /* PtlAbort (4.3): set for good; waits and polls count themselves */
    _Atomic uint32_t    aborted;
    _Atomic uint32_t    waiters;
} xg_nic_t;

extern xg_nic_t *xg_nic_global;

static inline int xg_nic_ni_is_open(const xg_nic_ni_t *ni)
{
    return __atomic_load_n(&ni->open, __ATOMIC_ACQUIRE) > 0;
}

/* The live EQ / CT of a handle stored in an object, or NULL (none, or
 * freed since: the event or count is then dropped, as for PTL_*_NONE). */
static inline xg_nic_eq_t *xg_nic_eq_of(xg_nic_ni_t *ni, ptl_handle_eq_t h)
{
    return (h == PTL_EQ_NONE) ? NULL : xg_nic_pool_lookup(&ni->eq_pool, h);
}

static inline xg_nic_ct_t *xg_nic_ct_of(xg_nic_ni_t *ni, ptl_handle_ct_t h)
{
    return (h == PTL_CT_NONE) ? NULL : xg_nic_pool_lookup(&ni->ct_pool, h);
}

/* ------------------------------------------------------------------------
 * Cross-file engine functions (all with the NI lock held unless noted)
 * --------------------------------------------------------------------- */

/* nic.c */
int  xg_nic_in_progress_thread(const xg_nic_t *nic);
/* Starts the progress thread if it is not running (first NI). */
xg_status_t xg_nic_start_progress(xg_nic_t *nic);
/* Stops it (PtlFini; tests and the fuzzer then drive progress by hand
 * with xg_nic_progress_once, and a later PtlNIInit does not restart it
 * while the NIC lives on). */
void xg_nic_stop_progress(xg_nic_t *nic);
/* Receives one packet (progress thread, or a test driving it); takes and
 * keeps NI locks in nic->rx_locked until xg_nic_rx_release(). */
void xg_nic_rx_packet(xg_nic_t *nic, const void *buf, size_t len);
void xg_nic_rx_release(xg_nic_t *nic);
/* Runs one progress iteration if no other thread is polling: returns the
 * work done, 0 if another thread holds the poller role.  Wait loops call
 * it, so a waiting thread serves the NIC itself instead of waiting for
 * the progress thread to wake up. */
unsigned xg_nic_progress_once(xg_nic_t *nic);
void xg_nic_count_malformed(xg_nic_t *nic, xg_nic_wire_err_t why);
/* A wait or poll routine starts (PTL_OK) -- or, after PtlAbort, must not
 * (PTL_ABORTED, nothing to undo).  Every PTL_OK is paired with
 * xg_nic_wait_leave(). */
int  xg_nic_wait_enter(xg_nic_t *nic);
void xg_nic_wait_leave(xg_nic_t *nic);
static inline int xg_nic_aborted(xg_nic_t *nic)
{
    return atomic_load_explicit(&nic->aborted, memory_order_acquire) != 0;
}

/* ni.c */
xg_nic_ni_t *xg_nic_ni_lookup(uint32_t handle);
void xg_nic_ni_teardown(xg_nic_ni_t *ni);
/* Peer (transport rank) for @target on @ni, or -1. */
int  xg_nic_target_peer(const xg_nic_ni_t *ni, ptl_process_t target);
/* The initiator id and matching key of a packet from @src_rank. */
void xg_nic_source_id(const xg_nic_ni_t *ni, uint32_t src_rank,
                      ptl_process_t *id, uint64_t *key);
ptl_process_t xg_nic_peer_id(const xg_nic_ni_t *ni, uint32_t rank);
void xg_nic_sr_inc(xg_nic_ni_t *ni, ptl_sr_index_t reg);
uint8_t *xg_nic_held_alloc(xg_nic_ni_t *ni, size_t len);
void xg_nic_held_free(xg_nic_ni_t *ni, uint8_t *block, size_t len);

/* eq.c */
/* Posts @ev; a full queue drops its oldest event (reported later). */
void xg_nic_eq_post(xg_nic_eq_t *eq, const ptl_event_t *ev);
/* Free slots for flow-controlled posting (the reserve not counted). */
uint64_t xg_nic_eq_room(xg_nic_eq_t *eq);
void xg_nic_eq_destroy(xg_nic_ni_t *ni, xg_nic_eq_t *eq);

/* ct.c */
void xg_nic_ct_add(xg_nic_ni_t *ni, xg_nic_ct_t *ct, uint64_t success,
                   uint64_t failure);
void xg_nic_ct_store(xg_nic_ni_t *ni, xg_nic_ct_t *ct, uint64_t success,
                     uint64_t failure);
/* Registers a trigger; fires now if the threshold is already reached. */
int  xg_nic_trig_add(xg_nic_ni_t *ni, xg_nic_ct_t *ct, xg_nic_trig_t *trig);
void xg_nic_ct_cancel_all(xg_nic_ni_t *ni, xg_nic_ct_t *ct);
void xg_nic_ct_destroy(xg_nic_ni_t *ni, xg_nic_ct_t *ct);
void xg_nic_ct_init_internal(xg_nic_ct_t *ct);

/* tx.c */
/* Sends @msg to @peer: XG_OK when every packet is in the transport (the
 * caller completes), XG_INPROGRESS when queued (done runs later from the
 * progress thread), an error when the peer is unreachable. */
xg_status_t xg_nic_tx(xg_nic_ni_t *ni, int peer, xg_nic_txmsg_t *msg);
/* Progress: pushes backlogs; runs completions (takes NI locks itself).
 * Returns messages completed. */
unsigned xg_nic_tx_progress(xg_nic_t *nic);
/* Waits (no lock held) while the backlog is over its bound. */
void xg_nic_tx_throttle(xg_nic_t *nic);
/* Drops every queued message of @ni (teardown). */
void xg_nic_tx_cancel_ni(xg_nic_t *nic, unsigned ni);
void xg_nic_tx_flush_wakes(xg_nic_t *nic);
void xg_nic_txdone_run(xg_nic_ni_t *ni, const xg_nic_txdone_t *done);

/* initiator.c */
int  xg_nic_issue_locked(xg_nic_ni_t *ni, const xg_nic_op_t *op,
                         const char *fn);
/* @peer has no open endpoint: fail request @req as a refusing target
 * would (ACK or REPLY with PTL_NI_UNDELIVERABLE); the SEND of a request
 * carrying data is the caller's. */
void xg_nic_init_unreachable(xg_nic_ni_t *ni, const xg_nic_wire_t *req,
                             int peer);
void xg_nic_init_rx_ack(xg_nic_ni_t *ni, const xg_nic_wire_t *hdr);
void xg_nic_init_rx_reply(xg_nic_ni_t *ni, xg_nic_peer_t *peer,
                          const xg_nic_wire_t *hdr, const uint8_t *data);
void xg_nic_init_rx_reply_data(xg_nic_ni_t *ni, xg_nic_rx_t *rx,
                               const uint8_t *data, uint32_t len);
/* A reply stream broke off: the get completes with a failure. */
void xg_nic_init_rx_reply_fail(xg_nic_ni_t *ni, xg_nic_rx_t *rx);
void xg_nic_init_rx_rndv_get(xg_nic_ni_t *ni, const xg_nic_wire_t *hdr);
void xg_nic_send_event(xg_nic_ni_t *ni, const xg_nic_txdone_t *done,
                       ptl_ni_fail_t fail);
void xg_nic_md_put(xg_nic_md_t *md);

/* target.c */
/* A request for an NI that is not open (finalized, or not yet initialized
 * after a PtlFini): answered with PTL_NI_UNDELIVERABLE, its payload
 * skipped, nothing counted on the closed NI. */
void xg_nic_tgt_refuse(xg_nic_ni_t *ni, const xg_nic_wire_t *hdr);
void xg_nic_tgt_rx_request(xg_nic_ni_t *ni, xg_nic_peer_t *peer,
                           const xg_nic_wire_t *hdr, const uint8_t *data);
void xg_nic_tgt_rx_data(xg_nic_ni_t *ni, xg_nic_rx_t *rx,
                        const uint8_t *data, uint32_t len);
void xg_nic_tgt_rx_rndv_data(xg_nic_ni_t *ni, xg_nic_peer_t *peer,
                             const xg_nic_wire_t *hdr, const uint8_t *data);
void xg_nic_tgt_abort(xg_nic_ni_t *ni, xg_nic_tgt_t *tgt);
void xg_nic_tgt_resume(xg_nic_ni_t *ni, xg_nic_tgt_t *tgt);
void xg_nic_tgt_pull(xg_nic_ni_t *ni, xg_nic_tgt_t *tgt);
/* A priority append or search met header @uh: deliver or report it. */
void xg_nic_tgt_take_header(xg_nic_ni_t *ni, xg_nic_uh_t *uh,
                            xg_nic_me_t *me, int search, void *user_ptr);
void xg_nic_uh_destroy(xg_nic_ni_t *ni, xg_nic_uh_t *uh, int tell_initiator);

/* match.c */
void xg_nic_list_init(xg_nic_list_t *list);
void xg_nic_list_fini(xg_nic_list_t *list);
void xg_nic_list_insert(xg_nic_ni_t *ni, xg_nic_list_t *list,
                        xg_nic_me_t *me);
void xg_nic_list_remove(xg_nic_list_t *list, xg_nic_me_t *me);
/* Entry matching an incoming (key, bits, length, offset), first in append
 * order, or NULL.  Cost: O(1) for hashed entries plus the wildcard list
 * up to the best hashed candidate. */
xg_nic_me_t *xg_nic_list_match(xg_nic_ni_t *ni, xg_nic_list_t *list,
                               uint64_t src_key, ptl_match_bits_t bits,
                               ptl_size_t rlength, ptl_size_t roffset);
void xg_nic_uh_insert(xg_nic_ni_t *ni, xg_nic_pt_t *pt, xg_nic_uh_t *uh);
void xg_nic_uh_remove(xg_nic_pt_t *pt, xg_nic_uh_t *uh);
/* Starts loading the unexpected-header bucket an append of @desc will
 * search (a hint; nothing is read that matters). */
void xg_nic_uh_prefetch(const xg_nic_ni_t *ni, const xg_nic_pt_t *pt,
                        const xg_nic_entry_desc_t *desc);

/* First unexpected header (arrival order) matching @me, scanning from
 * @from (NULL: the oldest). */
xg_nic_uh_t *xg_nic_uh_find(xg_nic_ni_t *ni, xg_nic_pt_t *pt,
                            const xg_nic_me_t *me, xg_nic_uh_t *from);
/* The header after @uh in the index xg_nic_uh_find uses for @me. */
xg_nic_uh_t *xg_nic_uh_next(xg_nic_ni_t *ni, const xg_nic_me_t *me,
                            xg_nic_uh_t *uh);
int  xg_nic_me_matches_id(const xg_nic_ni_t *ni, const xg_nic_me_t *me,
                          const ptl_process_t *initiator);
void xg_nic_me_classify(xg_nic_ni_t *ni, xg_nic_me_t *me);

/* me.c */
/* Drops one use of @me (in-flight op or header); frees it when unlinked
 * and unused, posting AUTO_FREE for auto-unlinked overflow entries. */
void xg_nic_me_release(xg_nic_ni_t *ni, xg_nic_me_t *me);
/* Automatic unlink (use-once, min_free): AUTO_UNLINK event. */
void xg_nic_me_auto_unlink(xg_nic_ni_t *ni, xg_nic_me_t *me);
void xg_nic_me_destroy(xg_nic_ni_t *ni, xg_nic_me_t *me);
/* A PtlTriggeredMEAppend/Unlink trigger fires, or is dropped without
 * firing (counter freed or cancelled: a pending entry is then freed). */
void xg_nic_me_trig_fire(xg_nic_ni_t *ni, xg_nic_trig_t *trig);
void xg_nic_me_trig_drop(xg_nic_ni_t *ni, xg_nic_trig_t *trig);

/* atomic.c (validity and sizes are in xg_nic.h) */
/* Applies @op to the elements of [offset, offset + len) of @region in
 * place: target[i] = f(target[i], src[i]) (with @operand for the swaps);
 * the prior values go to @fetch (may be NULL).  Aligned elements of up to
 * 8 bytes with CPU atomics, the others under the caller's NI lock. */
void xg_nic_atomic_apply(ptl_op_t op, ptl_datatype_t type,
                         const xg_nic_region_t *region, uint64_t offset,
                         const uint8_t *src, const uint8_t *operand,
                         uint8_t *fetch, uint64_t len);

#endif
