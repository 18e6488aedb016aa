/*
 * The sPIN engine's inner parts, shared by the files of spin/ (not by the
 * API layer, which sees xg_spin.h).
 *
 * Objects:
 *   - the engine (one per process): HPU threads in clusters, the packet
 *     buffer (fixed-size slots in NIC memory, a descriptor per slot), the
 *     message processing queues (MPQs: a fixed table of message states),
 *     a ready queue per cluster, the watchdog thread;
 *   - execution contexts (xg_spin_ctx_t): handlers, NIC memories, host
 *     window, thresholds, what the commands do (raw flow or Portals);
 *   - messages (xg_spin_msg_t, an MPQ): one per message being processed;
 *   - packets (xg_spin_pkt_t): a slot of the packet buffer and what runs
 *     on it.
 *
 * Ordering of one message (msg->refs counts the message's "open" state
 * plus every packet not done yet; whoever drops it to 0 ends the
 * message):
 *   - the message's home cluster is its id modulo the clusters that run
 *     (PsPIN's rule); its header and completion handlers run there;
 *   - the first packet runs the header handler, then its payload handler,
 *     on one HPU of the home cluster; packets that come meanwhile wait on
 *     the message's held list and are released when the header handler
 *     returns;
 *   - other packets go to the ready queue of the home cluster; idle HPUs
 *     of other clusters take work from it too;
 *   - the packet that ends the message (eom) keeps its slot after its
 *     payload handler; when refs reach 0 the completion handler runs on
 *     it: at once if the HPU that dropped the last reference is in the
 *     home cluster, otherwise on an HPU of the home cluster.
 */
#ifndef XG_SPIN_INT_H
#define XG_SPIN_INT_H

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "base/xg_compiler.h"
#include "base/xg_mpmc.h"
#include "base/xg_spinlock.h"
#include "nic/xg_nic_hooks.h"
#include "spin/handler.h"
#include "spin/spin_hw_conf.h"
#include "spin/xg_spin.h"
#include "xgas_spin.h"

#define XG_SPIN_NCLUSTERS NB_CLUSTERS /* as handlers see them */
#define XG_SPIN_MAX_HPUS  (NB_CLUSTERS * NB_CORES)

/* NIC memory beyond PsPIN's map (spin_hw_conf.h): the HPU stacks, and
 * the whole window the engine reserves. */
#define XG_SPIN_STACKS_START 0x20000000u
#define XG_SPIN_STACK_STRIDE 0x00800000u /* 8 MiB per HPU */
#define XG_SPIN_MAP_START    L1_CLUSTER_BASE
#define XG_SPIN_MAP_END \
    (XG_SPIN_STACKS_START + XG_SPIN_MAX_HPUS * XG_SPIN_STACK_STRIDE)
#define XG_SPIN_TASK_STRIDE 256u /* per-HPU task_t in L1 */
#define XG_SPIN_TAKE        4u   /* payloads an HPU takes at once */
#define XG_SPIN_STASH       16u  /* slots an HPU frees at once */
/* The MPQ table starts with XGAS_SPIN_MPQS entries and doubles when they
 * are all in use (chunk k holds XGAS_SPIN_MPQS << k entries, the last
 * one fewer), up to XG_SPIN_MPQ_MAX entries (or its first chunk, if
 * larger): a header must not wait for an MPQ while the packets that would
 * free one wait behind it in the NIC's ring. */
#define XG_SPIN_MPQ_MAX    16384u
#define XG_SPIN_MPQ_CHUNKS 16u /* 2^15 - 1 >= XG_SPIN_MPQ_MAX */

/* What an HPU runs on a packet. */
enum {
    XG_SPIN_RUN_PAYLOAD = 0, /* the payload handler */
    XG_SPIN_RUN_HEADER,      /* the header handler, then the payload's */
    XG_SPIN_RUN_COMPLETION   /* the completion handler (eom packet) */
};

/* msg->flags */
enum {
    XG_SPIN_MSG_HEADER_DONE = 1u << 0, /* payloads may run */
    XG_SPIN_MSG_FAILED      = 1u << 1, /* a handler faulted or a reset */
    XG_SPIN_MSG_OPEN_GONE   = 1u << 2  /* the "open" reference dropped */
};

/* msg->nic_sync (Portals): the engine's end and the NIC's completion
 * call meet; the second to come finishes the NIC's side. */
enum {
    XG_SPIN_NIC_ENGINE_DONE = 1u << 0,
    XG_SPIN_NIC_COMPLETING  = 1u << 1
};

typedef struct xg_spin_pkt xg_spin_pkt_t;
typedef struct xg_spin_msg xg_spin_msg_t;
typedef struct xg_spin_hpu xg_spin_hpu_t;
typedef struct xg_spin_obj xg_spin_obj_t;

struct xg_spin_pkt {
    xg_spin_msg_t *msg;
    xg_spin_pkt_t *next; /* on its message's held list */
    uint8_t *data;       /* its slot in the packet buffer */
    uint32_t len;
    uint8_t run; /* XG_SPIN_RUN_* */
    uint8_t eom;
    uint64_t offset;    /* Portals: message offset of the payload */
    uint64_t user_ptr;  /* raw flows: for the feedback */
    uint64_t t_arrival; /* raw flows: ns since the engine started */
};

struct xg_spin_msg {
    xg_spin_ctx_t *ctx;
    uint32_t index;         /* in the MPQ table */
    uint32_t home;          /* home cluster */
    uint32_t id;            /* task_t.flow_id */
    _Atomic uint32_t refs;  /* open + packets not done */
    _Atomic uint32_t life;  /* holders of the table entry */
    _Atomic uint32_t flags; /* XG_SPIN_MSG_* */
    xg_spinlock_t lock;     /* the held list against HEADER_DONE */
    xg_spin_pkt_t *held, *held_tail;
    xg_spin_pkt_t *eom_pkt;
    uint8_t header_sent;      /* injector: the first packet is out */
    _Atomic uint64_t last_ns; /* arrival of its latest packet */
    void *pad;                /* per-message scratchpad, or NULL */
    /* Portals messages */
    uint64_t rlength; /* bytes the initiator sends */
    uint64_t mlength; /* bytes matched (that may land) */
    uint64_t match_bits, hdr_data;
    uint32_t source; /* initiator rank */
    uint32_t ni;     /* NI index, for sends */
    const struct xg_nic_region *region;
    uint64_t moffset;
    xg_nic_hook_ticket_t ticket;
    _Atomic uint32_t nic_sync; /* XG_SPIN_NIC_* */
};

/* A loaded handler file. */
struct xg_spin_obj {
    xg_spin_obj_t *next;
    char *path;
    void *dl; /* dlopen handle */
};

/* Messages of flows (raw, or a native context's own) that have not seen
 * their eom packet yet, by (context, msgid); one injecting thread. */
typedef struct xg_spin_flows {
    struct xg_spin_flow_msg *open;
    unsigned nopen, cap;
    uint64_t waits; /* back-pressure waits */
    uint64_t msgs;  /* messages started */
} xg_spin_flows_t;

struct xg_spin_ctx {
    xg_spin_ctx_t *next; /* engine's list */
    int raw;             /* a raw flow (pspinsim_*) or Portals */
    xg_spin_obj_t *obj;
    handler_fn hh, ph, th;
    /* NIC memory (owned unless raw: the driver manages its map) */
    uint8_t *hmem;
    size_t hmem_size;
    uint8_t *scratch[XG_SPIN_NCLUSTERS];
    size_t scratch_size[XG_SPIN_NCLUSTERS];
    uint8_t *pads[XG_SPIN_NCLUSTERS];             /* per-message scratchpads:
                                     MPQ i of the first chunk has the
                                     i-th of its home's */
    _Atomic(uint8_t *) xpads[XG_SPIN_MPQ_CHUNKS]; /* of later chunks (in
                                     process memory, made on first use) */
    size_t pad_size;
    /* the host window */
    uint64_t host_base;
    uint64_t host_size;
    uint64_t watchdog_ns;
    uint64_t stall_ns;
    unsigned flags; /* XG_SPIN_CTX_* */
    xg_spin_ec_desc_t *desc;
    xg_spin_ec_desc_t own_desc;
    xg_spinlock_t desc_lock; /* writers of a fault */
    _Atomic uint32_t active; /* messages in the engine */
    /* Portals */
    ptl_pt_index_t send_pt;
    ptl_match_bits_t send_bits;
    int can_send;
    xg_nic_hooks_t hooks;
    ptl_handle_me_t *entries; /* attached to */
    unsigned nentries, entries_cap;
    /* raw flows */
    spin_ec_t ec;          /* as the driver describes it */
    xg_spin_flows_t flows; /* a native context's own flow */
    int send_ni;           /* NI of its first entry, for sends of
                                     its flow's handlers (-1: none) */
};

struct xg_spin_hpu {
    pthread_t thread; /* its creator's */
    pthread_t self;   /* set by itself, for the watchdog */
    uint32_t cluster, core, gid;
    task_t *task; /* in its cluster's L1 runtime area */
    handler_args_t args;
    sigjmp_buf jb;
    volatile sig_atomic_t in_handler; /* a handler runs (not the engine) */
    volatile sig_atomic_t in_runtime; /* inside a command call */
    _Atomic uint32_t seq;             /* +1 at each handler start and end */
    _Atomic uint32_t in_nic;          /* inside a call of the NIC (portals.c) */
    _Atomic uint32_t kill_seq;        /* the watchdog wants the handler of
                                     this seq stopped (0: none) */
    _Atomic int kill_force;           /* ... wherever it is */
    _Atomic int wd_queued;            /* a watchdog signal is on its way: one
                                     at a time, for queued real-time
                                     signals nest (SA_NODEFER) */
    volatile sig_atomic_t kill_pending; /* signalled inside a command */
    xg_spin_pkt_t *pkt;                 /* what runs */
    xg_spin_msg_t *msg;
    int run;
    /* the fault that ended the handler */
    int fault;       /* xg_spin_fault_t */
    int fault_quiet; /* the NIC's shutdown caused it: the
                                     message fails, unreported */
    int fault_sig;
    uint64_t fault_addr;
    uint32_t cmds;  /* command handles issued */
    uint8_t *stack; /* lowest usable byte */
    size_t stack_size;
    void *altstack;
    clockid_t cpu_clock;
    /* the watchdog's view */
    uint32_t wd_seq;
    uint64_t wd_cpu, wd_wall;
    unsigned wd_signals;
    _Atomic uint64_t wd_limit; /* the running handler's watchdog */
    uint64_t packets;          /* handled (statistics) */
    /* references of one message this HPU has yet to drop (its packets
     * done one after the other): one atomic for the lot */
    xg_spin_msg_t *put_msg;
    uint32_t put_n;
    /* payloads taken from a ready queue in one claim, to run */
    xg_spin_pkt_t *batch[XG_SPIN_TAKE];
    unsigned batch_at, batch_n;
    /* slots this HPU freed, given back together (stash_max of them) */
    uintptr_t stash[XG_SPIN_STASH];
    unsigned stash_n;
} XG_CACHE_ALIGNED;

typedef struct xg_spin_engine {
    pthread_mutex_t lock; /* life cycle, contexts, NIC memory */
    int refs;
    unsigned nclusters, cluster_hpus, nhpus;
    xg_spin_hpu_t *hpus;
    /* packet buffer */
    uint8_t *pktbuf;
    uint32_t slot_size, nslots;
    unsigned stash_max; /* <= XG_SPIN_STASH; 0: none */
    xg_spin_pkt_t *pkts;
    xg_mpmc_t free_slots;
    /* message processing queues: chunks made as needed (see
     * XG_SPIN_MPQ_MAX and xg_spin_msg_at) */
    xg_spin_msg_t *msgs[XG_SPIN_MPQ_CHUNKS];
    uint32_t nmsgs;    /* of the first chunk (XGAS_SPIN_MPQS) */
    uint32_t max_msgs; /* the table's largest size */
    _Atomic uint32_t nchunks;
    _Atomic uint32_t nmsgs_all; /* MPQs in the table's chunks */
    pthread_mutex_t grow_lock;
    xg_mpmc_t free_msgs;
    _Atomic uint32_t next_msg_id;
    /* work: payloads (any cluster may take them), and header and
     * completion handlers (only the home cluster's HPUs) */
    xg_mpmc_t ready[XG_SPIN_NCLUSTERS];
    xg_mpmc_t home_only[XG_SPIN_NCLUSTERS];
    _Atomic uint32_t work_seq XG_CACHE_ALIGNED;
    _Atomic uint32_t sleepers;
    _Atomic int stop;
    /* the NIC shut down (portals.c): the engine calls it no more */
    _Atomic int nic_closed;
    _Atomic uint32_t nic_users; /* threads not HPUs inside a NIC call */
    uint64_t idle_ns;
    uint64_t t0;                /* xg_time_ns at start */
    _Atomic uint64_t coarse_ns; /* xg_spin_now, as of the last tick */
    /* watchdog */
    pthread_t wd_thread;
    pthread_mutex_t wd_lock;
    pthread_cond_t wd_cond;
    uint64_t wd_default_ns, stall_default_ns;
    _Atomic uint64_t wd_min_ns; /* the shortest threshold of a context */
    /* contexts and handler files */
    xg_spin_ctx_t *ctxs;
    xg_spin_obj_t *objs;
    /* NIC memory allocation: bump pointers (freed space is reused when
     * every context is gone) */
    uint32_t l1_used[XG_SPIN_NCLUSTERS];
    uint32_t l2_used;
    /* events */
    pthread_mutex_t ev_lock;
    xg_spin_event_t *ev;
    uint32_t ev_head, ev_n, ev_cap;
    int ev_dropping; /* warned that events are dropped */
} xg_spin_engine_t;

extern xg_spin_engine_t xg_spin_engine;

/* Chunk k of the MPQ table holds MPQs [nmsgs * (2^k - 1),
 * nmsgs * (2^(k+1) - 1)): the chunk of MPQ @i, and its entry there. */
static inline uint32_t xg_spin_msg_chunk(const xg_spin_engine_t *e, uint32_t i,
                                         uint32_t *entry)
{
    uint32_t k;

    if (xg_likely(i < e->nmsgs)) {
        *entry = i; /* the first chunk (no division) */
        return 0;
    }
    k      = 31u - (uint32_t)__builtin_clz(i / e->nmsgs + 1);
    *entry = i - e->nmsgs * ((1u << k) - 1u);
    return k;
}

/* MPQ @i of the table (its chunk exists). */
static inline xg_spin_msg_t *xg_spin_msg_at(const xg_spin_engine_t *e,
                                            uint32_t i)
{
    uint32_t entry, k = xg_spin_msg_chunk(e, i, &entry);

    return &e->msgs[k][entry];
}
extern __thread xg_spin_hpu_t *xg_spin_tls_hpu
    __attribute__((tls_model("initial-exec")));

/* ---- mem.c: the NIC memory window ---- */
xg_status_t xg_spin_mem_map(void);
void xg_spin_mem_unmap(void);
/* NIC memory for a context (engine lock held); NULL when full. */
uint8_t *xg_spin_mem_l1_alloc(unsigned cluster, size_t size);
uint8_t *xg_spin_mem_l2_alloc(size_t size);
void xg_spin_mem_reset(void);
/* 1 if [addr, addr + len) is inside NIC memory the host may read and
 * write (L1s, L2 handler memory). */
int xg_spin_mem_host_ok(uint64_t addr, uint64_t len);
/* 1 if [addr, addr + len) is memory the handler running on @hpu may
 * touch with a command (its context's memories, its packet, its stack
 * and task). */
int xg_spin_mem_handler_ok(const xg_spin_hpu_t *hpu, uint64_t addr,
                           uint64_t len);
/* HPU stacks and task descriptors. */
uint8_t *xg_spin_mem_stack(unsigned gid, size_t size);
task_t *xg_spin_mem_task(unsigned cluster, unsigned core);

/* ---- engine.c ---- */
xg_status_t xg_spin_engine_get(void);
void xg_spin_engine_put(void);
/* A new message of @ctx with id @id (UINT32_MAX: the engine numbers it),
 * or NULL: no MPQ free (the table is as large as it may grow, or there
 * is no memory to grow it) or no memory for a per-message scratchpad. */
xg_spin_msg_t *xg_spin_msg_open(xg_spin_ctx_t *ctx, uint32_t id);
/* A free packet slot (NULL: the buffer is full). */
xg_spin_pkt_t *xg_spin_pkt_alloc(void);
/* Queues @pkt (data in its slot, len, offset, eom set) for @msg; 0 if
 * @msg takes no more packets (closed or reset: @pkt is still the
 * caller's). */
int xg_spin_pkt_inject(xg_spin_msg_t *msg, xg_spin_pkt_t *pkt);
/* Gives back a slot that was never injected. */
void xg_spin_pkt_drop(xg_spin_pkt_t *pkt);
/* The injector is done with @msg: no packet will follow (the "open"
 * reference, if @pkt with eom did not drop it). */
void xg_spin_msg_close(xg_spin_msg_t *msg);
/* Marks @msg failed; 1 if this call did it. */
int xg_spin_msg_fail(xg_spin_msg_t *msg);
void xg_spin_msg_unref(xg_spin_msg_t *msg);
/* Lets HPUs that sleep know there is work. */
void xg_spin_wake(void);
uint64_t xg_spin_now(void);

/* ---- fault.c ---- */
xg_status_t xg_spin_fault_start(void);
void xg_spin_fault_stop(void);
int xg_spin_hpu_signals_init(xg_spin_hpu_t *hpu);
void xg_spin_hpu_signals_fini(xg_spin_hpu_t *hpu);
/* 1 if the watchdog asked to stop the handler running on @hpu (a
 * request for an earlier handler of the HPU does not count). */
static inline int xg_spin_kill_asked(xg_spin_hpu_t *hpu)
{
    uint32_t k = atomic_load_explicit(&hpu->kill_seq, memory_order_relaxed);

    return (k != 0) &&
           (k == atomic_load_explicit(&hpu->seq, memory_order_relaxed));
}

/* The engine's stand-in for routine @name of the C library that would
 * end the process or the thread (exit, raise, ...), or NULL. */
void *xg_spin_rt_replacement(const char *name);
/* The signal the watchdog stops handlers with. */
int xg_spin_fault_signal(void);
/* Ends the handler running on @hpu with @fault (from a command). */
XG_NORETURN void xg_spin_fault_raise(xg_spin_hpu_t *hpu, int fault,
                                     uint64_t addr);
/* Writes a fault of @ctx to its descriptor and the event queue. */
void xg_spin_fault_report(xg_spin_ctx_t *ctx, const xg_spin_event_t *ev);

/* ---- ctx.c ---- */
void xg_spin_ctx_free(xg_spin_ctx_t *ctx);
void xg_spin_ctx_thresholds(xg_spin_ctx_t *ctx);

/* ---- handlers.c ---- */
/* Loads @path once (engine lock held); NULL with a message. */
xg_spin_obj_t *xg_spin_obj_load(const char *fn, const char *path);
handler_fn xg_spin_obj_sym(xg_spin_obj_t *obj, const char *name,
                           size_t *size_p);
void xg_spin_obj_unload_all(void);
/* Program-memory names of handlers (the driver interface). */
uint32_t xg_spin_prog_addr(handler_fn fn);
handler_fn xg_spin_prog_fn(uint32_t addr);
/* 1 if @pc lies in the code of a loaded handler file. */
int xg_spin_obj_has_pc(uintptr_t pc);

/* ---- portals.c ---- */
/* The Portals end of message @msg once the engine is done with it. */
void xg_spin_portals_done(xg_spin_msg_t *msg);
/* The hook set of a new context. */
void xg_spin_portals_hooks(xg_spin_ctx_t *ctx);
/* DELIVER contexts: @pkt's payload lands in the entry. */
void xg_spin_portals_land(xg_spin_msg_t *msg, const xg_spin_pkt_t *pkt);
/* Registers the engine's shutdown listener with the NIC (once). */
xg_status_t xg_spin_portals_listen(void);
/* A send of a Portals context's handler: 0 or a fault. */
int xg_spin_portals_send(xg_spin_hpu_t *hpu, uint32_t dest, const void *data,
                         uint32_t len);

/* ---- flow.c: raw flows (the pspinsim_* driver interface) ---- */
/* Injects packet @data of message @msgid of @ctx (waits for room);
 * SPIN_SUCCESS or SPIN_ERR (logged). */
int xg_spin_flow_inject(const char *fn, xg_spin_flows_t *f, xg_spin_ctx_t *ctx,
                        uint32_t msgid, const uint8_t *data, size_t len,
                        int eom, uint64_t user_ptr);
/* Ends the messages of @f that saw no eom. */
void xg_spin_flow_close_all(xg_spin_flows_t *f);
void xg_spin_flow_pkt_done(xg_spin_pkt_t *pkt);
int xg_spin_flow_send(xg_spin_hpu_t *hpu, const void *data, uint32_t len);
int xg_spin_flow_to_host(xg_spin_hpu_t *hpu, uint64_t host_addr,
                         const void *src, uint32_t len);
int xg_spin_flow_from_host(xg_spin_hpu_t *hpu, uint64_t host_addr, void *dst,
                           uint32_t len);
void xg_spin_flow_fault(const xg_spin_event_t *ev);

#endif
