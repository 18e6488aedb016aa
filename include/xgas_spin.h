/**
 * @file xgas_spin.h
 * @brief sPIN on the xgas software NIC: execution contexts whose packet
 *        handlers run on the NIC's handler processing units (HPUs) for
 *        every packet of the messages a Portals entry matches.
 *
 * An execution context names a handler file (a shared object built from
 * PsPIN-compatible handler code, <xgas/spin/handler.h>) and its header,
 * payload and completion handlers, and owns NIC memory: handler memory
 * shared by its messages, a scratchpad in each cluster, optionally one
 * scratchpad per message.  Attached to a Portals ME or LE, it runs its
 * handlers on the packets of every put the entry matches; the bytes then
 * land in the entry only when the context asks for it
 * (XG_SPIN_CTX_DELIVER) -- otherwise only what the handlers write reaches
 * the host.  A handler that faults or runs past the watchdog, and a
 * message whose packets stop coming, are reported in the context's
 * descriptor and as an event (xg_spin_event_get); the message fails
 * (PTL_NI_DROPPED at target and initiator) and the NIC goes on.
 *
 * The engine starts with the first context and stops with the last.  See
 * docs/spin.md for the model, the settings (XGAS_SPIN_*) and what is and
 * is not isolated.
 */
#ifndef XGAS_SPIN_H
#define XGAS_SPIN_H

#include <stddef.h>
#include <stdint.h>

#include "portals4.h"
#include "xgas_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct xg_spin_ctx xg_spin_ctx_t;

/** Which handler: the kinds of xg_spin_event_t.handler. */
enum {
    XG_SPIN_HANDLER_NONE       = 0, /**< the message itself (stall) */
    XG_SPIN_HANDLER_HEADER     = 1,
    XG_SPIN_HANDLER_PAYLOAD    = 2,
    XG_SPIN_HANDLER_COMPLETION = 3
};

/** What went wrong (xg_spin_event_t.fault, xg_spin_ec_desc_t). */
typedef enum xg_spin_fault {
    XG_SPIN_FAULT_NONE = 0,
    XG_SPIN_FAULT_MEMORY,    /**< access to unmapped or protected memory
                                  (SIGSEGV; addr says where) */
    XG_SPIN_FAULT_BUS,       /**< SIGBUS */
    XG_SPIN_FAULT_ILLEGAL,   /**< illegal instruction (SIGILL) */
    XG_SPIN_FAULT_ARITH,     /**< arithmetic fault (SIGFPE) */
    XG_SPIN_FAULT_ABORT,     /**< the handler called abort() */
    XG_SPIN_FAULT_STACK,     /**< the handler overflowed its HPU stack */
    XG_SPIN_FAULT_WATCHDOG,  /**< ran past the context's watchdog */
    XG_SPIN_FAULT_DMA,       /**< a command outside the host window or
                                  the context's NIC memory */
    XG_SPIN_FAULT_COMMAND,   /**< a command the context cannot serve
                                  (e.g. a send with no send portal) */
    XG_SPIN_FAULT_TERMINATE, /**< TERMINATE or a failed ASSERT */
    XG_SPIN_FAULT_STALL,     /**< the message's packets stopped coming */
    XG_SPIN_FAULT_EXIT       /**< the handler called exit, _exit, _Exit,
                                  quick_exit or pthread_exit (addr: the
                                  status), or raise() of a signal that
                                  would end the process (signal) */
} xg_spin_fault_t;

/** @return a short description of @p fault ("memory access", ...). */
const char *xg_spin_fault_str(xg_spin_fault_t fault);

/**
 * The execution-context descriptor in host memory: the engine writes it,
 * the host reads it.  last_* describe the latest fault; they are written
 * before errors is incremented.
 */
typedef struct xg_spin_ec_desc {
    volatile uint64_t errors;       /**< faults and stalls so far */
    volatile uint32_t last_fault;   /**< xg_spin_fault_t */
    volatile uint32_t last_handler; /**< XG_SPIN_HANDLER_* */
    volatile uint64_t last_msg;     /**< message id (task_t.flow_id) */
    volatile uint64_t last_addr;    /**< faulting address, if any */
    volatile int32_t last_signal;   /**< the signal, or 0 */
    volatile uint32_t last_hpu;     /**< hpu_gid of the failed handler */
    volatile uint64_t messages;     /**< messages completed */
    volatile uint64_t dropped;      /**< late packets of reset messages,
                                         dropped (flows) */
} xg_spin_ec_desc_t;

/** A fault or stall, as xg_spin_event_get reports it. */
typedef struct xg_spin_event {
    xg_spin_ctx_t *ctx;
    xg_spin_fault_t fault;
    uint32_t handler; /**< XG_SPIN_HANDLER_* */
    uint64_t msg;     /**< message id (task_t.flow_id) */
    uint64_t addr;    /**< faulting address, if any */
    int signal;       /**< the signal, or 0 */
    uint32_t hpu;     /**< hpu_gid, or UINT32_MAX for a stall */
} xg_spin_event_t;

/** xg_spin_ctx_params_t.field_mask bits: which optional fields are set. */
enum {
    XG_SPIN_CTX_FIELD_HANDLERS       = 1u << 0, /**< the three names */
    XG_SPIN_CTX_FIELD_HANDLER_MEM    = 1u << 1, /**< size and image */
    XG_SPIN_CTX_FIELD_SCRATCHPAD     = 1u << 2,
    XG_SPIN_CTX_FIELD_MSG_SCRATCHPAD = 1u << 3,
    XG_SPIN_CTX_FIELD_HOST_MEM       = 1u << 4,
    XG_SPIN_CTX_FIELD_WATCHDOG       = 1u << 5,
    XG_SPIN_CTX_FIELD_STALL          = 1u << 6,
    XG_SPIN_CTX_FIELD_FLAGS          = 1u << 7,
    XG_SPIN_CTX_FIELD_SEND           = 1u << 8, /**< send portal */
    XG_SPIN_CTX_FIELD_DESC           = 1u << 9
};

/** xg_spin_ctx_params_t.flags */
enum {
    /** after a packet's payload handler, its payload (as the handler left
     *  it) lands in the entry at the packet's offset, as without
     *  handlers; without this flag the handlers consume the message */
    XG_SPIN_CTX_DELIVER = 1u << 0
};

/** What xg_spin_ctx_create needs; fields not in field_mask are ignored. */
typedef struct xg_spin_ctx_params {
    uint64_t field_mask;
    /** the handler file: a shared object (required) */
    const char *handler_file;
    /** handler symbols; NULL: none.  Without FIELD_HANDLERS: the three
     *  init_handlers returns */
    const char *header_handler;
    const char *payload_handler;
    const char *completion_handler;
    /** bytes of L2 handler memory (shared by the context's messages) and
     *  its initial image (copied to its start; may be NULL) */
    size_t handler_mem_size;
    const void *handler_mem_image;
    size_t handler_mem_image_size;
    /** bytes of scratchpad in each cluster (task_t.scratchpad[c]) */
    size_t scratchpad_size;
    /** bytes of scratchpad per message, zeroed when the message starts
     *  (task_t.xg_msg_scratchpad) */
    size_t msg_scratchpad_size;
    /** the host window: handlers may DMA and write here only */
    void *host_mem;
    size_t host_mem_size;
    /** a handler running longer is stopped (0: XGAS_SPIN_WATCHDOG_US) */
    uint64_t watchdog_ns;
    /** a message whose next packet takes longer is reset
     *  (0: XGAS_SPIN_STALL_MS) */
    uint64_t stall_ns;
    unsigned flags; /**< XG_SPIN_CTX_* */
    /** where spin_send_packet and spin_rdma_put send: this portal index
     *  and match bits at the destination PE */
    ptl_pt_index_t send_pt_index;
    ptl_match_bits_t send_match_bits;
    /** the descriptor to keep up to date; NULL: the context's own
     *  (xg_spin_ctx_desc) */
    xg_spin_ec_desc_t *desc;
} xg_spin_ctx_params_t;

/**
 * Creates an execution context: loads the handler file, allocates its NIC
 * memory, starts the engine if it is not running.
 * @return XG_OK; XG_ERR_INVALID_PARAM (a missing file or handler, a bad
 *         size; logged with the reason); XG_ERR_NO_MEMORY (NIC memory is
 *         full); XG_ERR_ADDRESS_IN_USE (the NIC memory window is taken in
 *         this process, see docs/spin.md).
 */
xg_status_t xg_spin_ctx_create(const xg_spin_ctx_params_t *params,
                               xg_spin_ctx_t **ctx_p);

/**
 * Detaches @p ctx from every entry, waits until none of its messages is
 * in flight (a stalled one is reset by then), frees it.
 */
xg_status_t xg_spin_ctx_destroy(xg_spin_ctx_t *ctx);

/**
 * Runs @p ctx's handlers on the puts that list entry @p entry (an ME or
 * an LE of an initialized NI) matches from now on.  Attach before
 * initiators send to the entry.  An entry has at most one context.
 * @return XG_OK; XG_ERR_INVALID_PARAM if @p entry is not a live entry.
 */
xg_status_t xg_spin_ctx_attach(xg_spin_ctx_t *ctx, ptl_handle_me_t entry);

/** Stops running @p ctx on @p entry's later messages. */
xg_status_t xg_spin_ctx_detach(xg_spin_ctx_t *ctx, ptl_handle_me_t entry);

/**
 * Feeds packet @p pkt (@p len bytes) of message @p msgid to @p ctx
 * directly, as if a matching entry had received it: a flow of the
 * context's own, to test handlers or measure the engine without a
 * network.  @p eom ends the message.  task_t.xg_msg_offset of a packet is
 * the UDP payload bytes (ip_hdr.length - 28) of its message's earlier
 * packets.  Waits while the engine's packet buffer is full.  One thread at
 * a time per context.  Sends of such messages' handlers go out on the NI
 * of the context's first attached entry (none: a fault).
 * @return XG_OK; XG_ERR_INVALID_PARAM (a packet larger than
 *         XGAS_SPIN_PKT_SIZE).
 */
xg_status_t xg_spin_ctx_inject(xg_spin_ctx_t *ctx, uint32_t msgid,
                               const void *pkt, size_t len, int eom);

/** Waits until no message of @p ctx is being processed (every message
 *  fed with xg_spin_ctx_inject must have ended with eom). */
xg_status_t xg_spin_ctx_quiet(xg_spin_ctx_t *ctx);

/** The context's handler memory (NIC memory the host may read and write). */
void *xg_spin_ctx_handler_mem(xg_spin_ctx_t *ctx, size_t *size_p);

/** The context's scratchpad in @p cluster (< 4), or NULL. */
void *xg_spin_ctx_scratchpad(xg_spin_ctx_t *ctx, unsigned cluster,
                             size_t *size_p);

/** The context's descriptor (the caller's, if it gave one). */
const xg_spin_ec_desc_t *xg_spin_ctx_desc(const xg_spin_ctx_t *ctx);

/**
 * Takes the oldest fault or stall event of any context.
 * @return XG_OK with @p ev filled; XG_INPROGRESS if there is none.
 */
xg_status_t xg_spin_event_get(xg_spin_event_t *ev);

#ifdef __cplusplus
}
#endif

#endif
