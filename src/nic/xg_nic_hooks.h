/*
 * Packet-handler hooks: how a matching entry carries a set of handlers that
 * the NIC runs on every packet of each message the entry matches (the sPIN
 * model, docs/nic.md "Packet handlers").  The sPIN engine plugs in here;
 * the NIC knows nothing of it.  With xg_nic.h, this is all that the layers
 * above see of the NIC.
 *
 * For a put that matches an entry with handlers:
 *   header      once, with the first packet, before any payload call
 *               (the CLAIM state: the message is matched and claimed);
 *   payload     once per packet that carries bytes, in stream order (the
 *               DATA state), before the packet's bytes would land;
 *   completion  once, after every payload call and every byte has landed,
 *               before the message's event, counter and acknowledgement
 *               (the COMPLETE state).
 * Calls for one message never overlap and come in that order.  Gets and
 * atomics matched by the entry are served as without handlers; a message
 * that breaks off (a lost packet, the NI closed) gets no completion call.
 *
 * Threads and locks: handlers run on the thread polling the NIC (the
 * progress thread, or an application thread waiting in the library) with
 * no NI lock held, so they may call Portals routines.  They must not wait
 * for the NIC (PtlCTWait, PtlEQWait...): the caller is the NIC.
 *
 * Return codes (the sPIN/PsPIN intent, as far as the NIC needs them):
 *   XG_NIC_HOOK_PROCEED   default processing: the packet's bytes land in
 *                         the entry as they would without handlers;
 *   XG_NIC_HOOK_CONSUMED  the handler took the bytes: from a header
 *                         handler none of the message's bytes land, from a
 *                         payload handler this packet's do not; the
 *                         message completes normally (its event reports
 *                         the matched length);
 *   XG_NIC_HOOK_ERROR     the message fails: no more bytes land and no
 *                         more payload calls are made; the completion
 *                         handler is told (args->fail), the target's event
 *                         and counter report PTL_NI_DROPPED, and so does
 *                         the acknowledgement to the initiator.
 * A completion handler's XG_NIC_HOOK_ERROR fails the message the same way;
 * its other codes mean success, except:
 *
 * Asynchronous sets (the sPIN engine: handlers run later, elsewhere):
 *   XG_NIC_HOOK_BUSY      from a header or payload handler: it cannot take
 *                         the packet now (its buffers are full).  The NIC
 *                         keeps the packet, pushes its own send queues and
 *                         calls again, backing off: the sender is held
 *                         back (its packets wait in the ring), nothing is
 *                         dropped.
 *   XG_NIC_HOOK_PENDING   from a completion handler: the message is not
 *                         done yet.  It stays open -- no event, counter or
 *                         acknowledgement -- until someone calls
 *                         xg_nic_hook_resume() with the message's ticket
 *                         (args->ticket), from any thread, even before the
 *                         completion handler has returned.
 * A set may keep per-message state: the header handler stores it in
 * *args->msg, every later call of the message sees it there, and when the
 * NIC frees a message whose header handler ran -- completed, broken off
 * (a lost packet, no completion call) or torn down with its NI -- it calls
 * the set's release function once, with the NI lock held (it must not call
 * the NIC).  The NIC counts the messages that claimed a set and are not
 * freed yet in its inflight field: after detaching a set, its owner may
 * free it once that count is 0.
 *
 * Shutdown: a provider whose own threads call the NIC (sends, resumes,
 * bytes written into an entry's region) registers with
 * xg_nic_on_shutdown().  The NIC calls it at the start of its teardown
 * -- the close behind PtlFini and the library's exit handler -- while
 * its progress still runs and before it frees anything; when the call
 * returns, none of the provider's threads may call the NIC again.  The
 * NIC still calls the hooks of messages already claimed afterwards
 * (their release above all) until its NIs are torn down.
 */
#ifndef XG_NIC_HOOKS_H
#define XG_NIC_HOOKS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "portals4.h"

/*
 * What identifies a message, and what its answers echo (here, not in the
 * NIC's private wire header, because handlers read it): set once by the
 * initiator, carried by every request and copied whole -- never field by
 * field -- into the target operation, the unexpected header, the
 * responses, the initiator's completions and the events built from them.
 */
typedef struct xg_nic_msg_id {
    uint32_t pt_index;
    uint32_t uid;
    uint32_t jid;
    uint32_t md; /* initiator's MD of the events / reply data */
    uint64_t match_bits;
    uint64_t hdr_data;
    uint64_t rlength;  /* bytes requested */
    uint64_t roffset;  /* offset requested (request) / used (response) */
    uint64_t user_ptr; /* initiator cookies, echoed by responses */
    uint64_t loffset;  /* where reply data goes in the MD */
    uint8_t ack_req;
    uint8_t atomic_op;
    uint8_t atomic_type;
    uint8_t pad[5];
} xg_nic_msg_id_t;

typedef enum xg_nic_hook_ret {
    XG_NIC_HOOK_PROCEED = 0,
    XG_NIC_HOOK_CONSUMED,
    XG_NIC_HOOK_ERROR,
    XG_NIC_HOOK_BUSY,
    XG_NIC_HOOK_PENDING
} xg_nic_hook_ret_t;

/* Names a message whose completion is pending (XG_NIC_HOOK_PENDING). */
typedef struct xg_nic_hook_ticket {
    uint32_t ni;          /* NI index */
    uint32_t incarnation; /* of the NI: a ticket does not outlive PtlNIFini */
    uint32_t handle;      /* of the target operation */
} xg_nic_hook_ticket_t;

/* What a handler sees.  Valid during the call only. */
typedef struct xg_nic_hook_args {
    const xg_nic_msg_id_t *id; /* the message (match bits, lengths) */
    ptl_process_t initiator;
    void *user_ptr; /* the entry's */
    void *mem;      /* handler memory of the set */
    size_t mem_size;
    void *start;                        /* where the message lands */
    ptl_size_t mlength;                 /* bytes matched (that may land) */
    const void *data;                   /* header, payload: this packet's */
    size_t len;                         /*   bytes, at this offset of the */
    uint64_t offset;                    /*   message */
    ptl_ni_fail_t fail;                 /* completion: PTL_NI_OK or why not */
    void **msg;                         /* per-message state of the set */
    xg_nic_hook_ticket_t ticket;        /* for xg_nic_hook_resume */
    const struct xg_nic_region *region; /* the entry's memory, and where */
    uint64_t moffset;                   /*   the message lands in it */
} xg_nic_hook_args_t;

typedef xg_nic_hook_ret_t (*xg_nic_hook_fn_t)(const xg_nic_hook_args_t *args);

typedef void (*xg_nic_hook_release_fn_t)(const xg_nic_hook_args_t *args);

/* A handler set: any handler may be NULL (default processing). */
typedef struct xg_nic_hooks {
    xg_nic_hook_fn_t header;
    xg_nic_hook_fn_t payload;
    xg_nic_hook_fn_t completion;
    void *mem;
    size_t mem_size;
    xg_nic_hook_release_fn_t release; /* or NULL */
    _Atomic uint32_t inflight;        /* kept by the NIC (see above) */
} xg_nic_hooks_t;

/*
 * Attaches @hooks (NULL: detaches) to the list entry @handle; messages
 * matched from then on run them.  @hooks must outlive the entry.  Attach
 * before initiators may send to the entry (messages already matched keep
 * what they had).  Returns PTL_OK, or PTL_ARG_INVALID for a handle that is
 * not a live entry (logged, naming @fn).
 */
int xg_nic_entry_set_hooks(const char *fn, ptl_handle_any_t handle,
                           xg_nic_hooks_t *hooks);

/*
 * Ends the pending completion of the message @ticket names (see
 * XG_NIC_HOOK_PENDING): @ret is the completion's result (XG_NIC_HOOK_ERROR
 * fails the message).  Any thread, no NIC lock held.  Returns PTL_OK, or
 * PTL_ARG_INVALID if the message is gone (its NI was closed) or is not
 * waiting for a resume.
 */
int xg_nic_hook_resume(const xg_nic_hook_ticket_t *ticket,
                       xg_nic_hook_ret_t ret);

/*
 * Registers @fn(@arg) to be called at the start of every NIC shutdown
 * (see above), for the life of the process; registering the same pair
 * again does nothing.  @fn runs on the thread that closes the NIC, with
 * no NIC lock held.  Returns PTL_OK, or PTL_NO_SPACE when the few slots
 * are taken (logged, naming @fn_name).
 */
typedef void (*xg_nic_shutdown_fn_t)(void *arg);
int xg_nic_on_shutdown(const char *fn_name, xg_nic_shutdown_fn_t fn, void *arg);

/* ---- what a provider may ask of the NIC ----------------------------------
 * A provider whose handlers build packets of their own, write a message's
 * bytes later from threads of its own and send (the sPIN engine) needs
 * these and nothing else of the NIC's insides.  Its own threads call them
 * only while registered with xg_nic_on_shutdown (see "Shutdown"). */

/* This process's rank among the NIC's processes; 0 before PtlNIInit. */
uint32_t xg_nic_hook_self_rank(void);

/* The initiator of the message of @args as its NI numbers processes: the
 * logical rank on a logical NI, the rank behind the physical id on a
 * physical one. */
uint32_t xg_nic_hook_source_rank(const xg_nic_hook_args_t *args);

/* The payload bytes of one packet; 0 before PtlNIInit. */
size_t xg_nic_hook_max_payload(void);

/* Writes @len bytes from @src at @offset of @region (args->region, with
 * args->moffset added to the message's offset), the way the NIC lands a
 * packet. */
void xg_nic_hook_region_write(const struct xg_nic_region *region,
                              uint64_t offset, const void *src, uint64_t len);

/* The NI of list entry @entry: its handle, its index (< 4) and its
 * incarnation (it changes when that index is closed and opened again).
 * Returns PTL_OK, or PTL_ARG_INVALID for a handle that is not an entry of
 * an open NI (logged, naming @fn). */
int xg_nic_hook_entry_ni(const char *fn, ptl_handle_any_t entry,
                         ptl_handle_ni_t *ni_p, uint32_t *index_p,
                         uint32_t *incarnation_p);

/* A put without acknowledgement from @md (bound on the NI of index
 * @ni_index): @length bytes at @local_offset to process @dest, numbered
 * as that NI numbers processes, on portal @pt with @match_bits and
 * @hdr_data.  Returns PTL_OK or why the NIC refused it. */
int xg_nic_hook_put(const char *fn, uint32_t ni_index, ptl_handle_md_t md,
                    ptl_size_t local_offset, ptl_size_t length, uint32_t dest,
                    ptl_pt_index_t pt, ptl_match_bits_t match_bits,
                    uint64_t hdr_data);

#endif
