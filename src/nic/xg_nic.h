/*
 * The software NIC: the Portals 4 engine.  This header and xg_nic_hooks.h
 * are what the layers above call (the Portals binding src/api/portals,
 * gas's NIC route, regions and active messages, the runtime, sPIN); the
 * NIC's other headers are private (*_int.h).  A routine here that
 * implements a Portals routine returns its Portals return code (the codes
 * carry meaning beyond success and failure, e.g. PTL_EQ_DROPPED, so the
 * engine speaks them directly rather than xg_status_t; xg_nic_status maps
 * them for the other clients).
 *
 * Argument checks that need no object (NULL pointers, option masks, enum
 * ranges) are the API layer's; the engine checks what needs its objects
 * (handles, bounds) and logs, naming the routine @fn, what was wrong.
 *
 * Threads: every routine may be called from any thread.  Object state is
 * guarded by one mutex per NI, which the progress thread takes once per
 * batch of packets (and drops around packet-handler calls, see
 * xg_nic_hooks.h); counters and event queues are read without it.
 */
#ifndef XG_NIC_H
#define XG_NIC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "portals4.h"
#include "xgas_status.h"

/* Operation kinds of xg_nic_op_t. */
typedef enum xg_nic_op_kind {
    XG_NIC_OP_PUT = 0,
    XG_NIC_OP_GET,
    XG_NIC_OP_ATOMIC,
    XG_NIC_OP_FETCH,
    XG_NIC_OP_SWAP,
    XG_NIC_OP_CT_INC,
    XG_NIC_OP_CT_SET
} xg_nic_op_kind_t;

/*
 * One data-movement (or counter) operation, as the API routines describe
 * it.  Unused fields are ignored.  trig_ct == PTL_CT_NONE: issue now;
 * otherwise issue when trig_ct reaches threshold.
 */
typedef struct xg_nic_op {
    xg_nic_op_kind_t kind;
    ptl_ack_req_t ack_req;
    ptl_op_t atomic_op;
    ptl_datatype_t atomic_type;
    ptl_handle_md_t md; /* put: data; get: destination;
                                   fetch/swap: the get MD */
    ptl_size_t local_offset;
    ptl_handle_md_t put_md; /* fetch/swap: the put MD */
    ptl_size_t put_offset;
    ptl_size_t length;
    ptl_process_t target;
    ptl_pt_index_t pt_index;
    ptl_match_bits_t match_bits;
    ptl_size_t remote_offset;
    void *user_ptr;
    ptl_hdr_data_t hdr_data;
    uint8_t operand[32];
    ptl_handle_ct_t ct; /* CT_INC/CT_SET: the counter changed */
    ptl_ct_event_t ct_value;
    ptl_handle_ct_t trig_ct;
    ptl_size_t threshold;
} xg_nic_op_t;

/*
 * The one way to build an operation: xg_nic_op_init starts one of @kind
 * on @length bytes at @local_offset of @md (fetch/swap: the get MD) with
 * every other field empty -- no put MD, counter or trigger (PTL_CT_NONE,
 * issued at once), no acknowledgement asked, match bits, header data,
 * user pointer and operands 0 -- and xg_nic_op_target names where it
 * goes.  The caller then sets what its kind adds (ack_req, the atomic's
 * operation, type and operand, the put MD, a trigger) and passes it to
 * xg_nic_issue, whose code xg_nic_status maps.
 */
static inline void xg_nic_op_init(xg_nic_op_t *op, xg_nic_op_kind_t kind,
                                  ptl_handle_md_t md, ptl_size_t local_offset,
                                  ptl_size_t length)
{
    memset(op, 0, sizeof(*op));
    op->kind         = kind;
    op->md           = md;
    op->local_offset = local_offset;
    op->length       = length;
    op->put_md       = PTL_INVALID_HANDLE;
    op->ct           = PTL_CT_NONE;
    op->trig_ct      = PTL_CT_NONE;
}

static inline void xg_nic_op_target(xg_nic_op_t *op, ptl_process_t target,
                                    ptl_pt_index_t pt_index,
                                    ptl_size_t remote_offset)
{
    op->target        = target;
    op->pt_index      = pt_index;
    op->remote_offset = remote_offset;
}

/* A list entry as appended or searched (LE or ME). */
typedef struct xg_nic_entry_desc {
    int is_le;
    void *start;
    ptl_size_t length;
    ptl_handle_ct_t ct_handle;
    ptl_uid_t uid;
    ptl_jid_t jid;
    unsigned int options;
    ptl_process_t match_id;
    ptl_match_bits_t match_bits;
    ptl_match_bits_t ignore_bits;
    ptl_size_t min_free;
} xg_nic_entry_desc_t;

/* Library.  The runtime (runtime/xg_runtime.h) opens the NIC once for all
 * its users, after boot and xport, and closes it when the last leaves:
 * open returns a status (not a Portals code: no Portals routine calls it)
 * and logs a bad setting; close tears down every NI still open.
 * xg_nic_exit, at process exit, only stops receiving, so that senders are
 * refused instead of filling a queue nobody reads.  Never on a thread of
 * the engine (xg_nic_engine_thread): joining the progress thread or taking
 * the poll lock would wait for itself. */
xg_status_t xg_nic_open(void);
void xg_nic_close(void);
void xg_nic_exit(void);
int xg_nic_is_initialized(void);
/* PtlAbort: ends the waits and polls in progress (PTL_ABORTED) and every
 * later one, until the last PtlFini; returns once none is in progress. */
void xg_nic_abort(void);

/* Network interfaces */
int xg_nic_ni_init(const char *fn, ptl_interface_t iface, unsigned options,
                   ptl_pid_t pid, const ptl_ni_limits_t *desired,
                   ptl_ni_limits_t *actual, ptl_handle_ni_t *ni_handle);
int xg_nic_ni_fini(const char *fn, ptl_handle_ni_t ni_handle);
int xg_nic_ni_handle(const char *fn, ptl_handle_any_t handle,
                     ptl_handle_ni_t *ni_handle);
int xg_nic_ni_status(const char *fn, ptl_handle_ni_t ni_handle,
                     ptl_sr_index_t reg, ptl_sr_value_t *value);
int xg_nic_set_map(const char *fn, ptl_handle_ni_t ni_handle, ptl_size_t size,
                   const ptl_process_t *map);
int xg_nic_get_map(const char *fn, ptl_handle_ni_t ni_handle, ptl_size_t size,
                   ptl_process_t *map, ptl_size_t *actual);
int xg_nic_get_id(const char *fn, ptl_handle_ni_t ni_handle, int physical,
                  ptl_process_t *id);
int xg_nic_get_uid(const char *fn, ptl_handle_ni_t ni_handle, ptl_uid_t *uid,
                   ptl_jid_t *jid);
int xg_nic_bundle(const char *fn, ptl_handle_ni_t ni_handle, int start);

/* Portal table */
int xg_nic_pt_alloc(const char *fn, ptl_handle_ni_t ni_handle, unsigned options,
                    ptl_handle_eq_t eq_handle, ptl_pt_index_t req,
                    ptl_pt_index_t *pt_index);
int xg_nic_pt_free(const char *fn, ptl_handle_ni_t ni_handle,
                   ptl_pt_index_t pt_index);
int xg_nic_pt_enable(const char *fn, ptl_handle_ni_t ni_handle,
                     ptl_pt_index_t pt_index, int enable);

/* Memory descriptors */
int xg_nic_md_bind(const char *fn, ptl_handle_ni_t ni_handle,
                   const ptl_md_t *md, ptl_handle_md_t *md_handle);
int xg_nic_md_release(const char *fn, ptl_handle_md_t md_handle);

/* List entries.  @trig_ct other than PTL_CT_NONE: the append (the entry
 * is created now) or the unlink happens when it reaches @threshold. */
int xg_nic_entry_append(const char *fn, ptl_handle_ni_t ni_handle,
                        ptl_pt_index_t pt_index,
                        const xg_nic_entry_desc_t *desc, ptl_list_t list,
                        void *user_ptr, ptl_handle_any_t *handle,
                        ptl_handle_ct_t trig_ct, ptl_size_t threshold);
int xg_nic_entry_unlink(const char *fn, ptl_handle_any_t handle, int is_le,
                        ptl_handle_ct_t trig_ct, ptl_size_t threshold);
int xg_nic_entry_search(const char *fn, ptl_handle_ni_t ni_handle,
                        ptl_pt_index_t pt_index,
                        const xg_nic_entry_desc_t *desc, ptl_search_op_t op,
                        void *user_ptr);

/* Counting events */
int xg_nic_ct_alloc(const char *fn, ptl_handle_ni_t ni_handle,
                    ptl_handle_ct_t *ct_handle);
int xg_nic_ct_free(const char *fn, ptl_handle_ct_t ct_handle);
int xg_nic_ct_cancel(const char *fn, ptl_handle_ct_t ct_handle);
int xg_nic_ct_get(const char *fn, ptl_handle_ct_t ct_handle,
                  ptl_ct_event_t *event);
int xg_nic_ct_poll(const char *fn, const ptl_handle_ct_t *cts,
                   const ptl_size_t *tests, unsigned size, uint64_t timeout_ms,
                   ptl_ct_event_t *event, unsigned *which);
int xg_nic_ct_update(const char *fn, ptl_handle_ct_t ct_handle,
                     ptl_ct_event_t value, int set);

/* Event queues */
int xg_nic_eq_alloc(const char *fn, ptl_handle_ni_t ni_handle, ptl_size_t count,
                    ptl_handle_eq_t *eq_handle);
int xg_nic_eq_free(const char *fn, ptl_handle_eq_t eq_handle);
int xg_nic_eq_get(const char *fn, ptl_handle_eq_t eq, ptl_event_t *event);
int xg_nic_eq_poll(const char *fn, const ptl_handle_eq_t *eqs, unsigned size,
                   uint64_t timeout_ms, ptl_event_t *event, unsigned *which);

/* Data movement (and triggered counter operations) */
int xg_nic_issue(const char *fn, const xg_nic_op_t *op);

/* The status a client of the NIC reports for the Portals return code
 * @ptl_rc of a call: PTL_NO_SPACE is a resource that may free up,
 * PTL_ARG_INVALID a bad argument, any other failure an unreachable
 * target. */
xg_status_t xg_nic_status(int ptl_rc);
int xg_nic_atomic_sync(void);

/* 1 if atomic @op is defined for @type; the byte size of @type (0: none) */
int xg_nic_atomic_valid(ptl_op_t op, ptl_datatype_t type);
size_t xg_nic_atomic_size(ptl_datatype_t type);
/* The Portals operation and datatype that the NIC applies as table
 * operation @op (an xg_op_t) on @type (an xg_op_type_t), for an initiator
 * that speaks the table's names; 0 if Portals has none (an accumulate
 * with scale, a fetch). */
int xg_nic_atomic_of(int op, int type, ptl_op_t *op_p, ptl_datatype_t *type_p);

/* 1 on the NIC's asynchronous progress thread, 0 on every other thread --
 * an application thread polling the NIC while it waits included.  Packet
 * handlers ask it to tell a call the application is waiting in from one
 * the progress thread makes on its own (gas's active messages). */
int xg_nic_on_progress_thread(void);

/* 1 on a thread that runs the NIC's engine now: the progress thread, or an
 * application thread in the poller role (it holds the poll lock, maybe
 * interrupted there by a signal whose handler calls exit).  Such a thread
 * must not wait for the NIC to progress or to stop (it is that progress):
 * the engine's own waits ask it, and so does the exit handler, which then
 * leaves the NIC as it is, to the kernel.  Unlike xg_nic_on_progress_thread
 * it does not tell the progress thread from a polling one. */
int xg_nic_engine_thread(void);

/* Runs the NIC's progress once from a thread that waits for something
 * else (a gas wait): handles what the transport has received, sends what
 * is queued.  Returns at once if another thread is polling.  Returns how
 * many packets it handled. */
unsigned xg_nic_poll(void);

/* Physical ids (id.c): nid = the node's index in the job, pid = the rank
 * among the PEs of the node.  The rank a physical id names, or -1; the
 * physical id of a rank (what a physical NI's operation targets; one no
 * process has for a rank out of range). */
int xg_nic_phys_rank(ptl_process_t phys);
ptl_process_t xg_nic_phys_id(int rank);

/* Timeout meaning "forever" for the poll routines. */
#define XG_NIC_FOREVER UINT64_MAX

#endif
