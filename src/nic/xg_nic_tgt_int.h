/*
 * Target operations: the context of the target state machine
 * (target.c), one per incoming request.
 */
#ifndef XG_NIC_TGT_INT_H
#define XG_NIC_TGT_INT_H

#include <stdint.h>
#include <string.h>

#include "base/xg_pool.h"
#include "nic/xg_nic_ct_int.h"
#include "nic/xg_nic_fwd_int.h"
#include "nic/xg_nic_wire_int.h"
#include "portals4.h"

typedef enum xg_nic_tgt_state {
    XG_TGT_START = 0,  /* validate NI and portal index */
    XG_TGT_MATCH,      /* priority list, then overflow list */
    XG_TGT_CHECK,      /* permissions, operation, resources */
    XG_TGT_CLAIM,      /* offsets, lengths, use-once, header */
    XG_TGT_DATA,       /* payload of a put lands */
    XG_TGT_WAIT_DATA,  /* wait state: more DATA packets */
    XG_TGT_PULL,       /* rendezvous: ask the initiator */
    XG_TGT_WAIT_PULL,  /* wait state: RNDV_DATA packets */
    XG_TGT_HOLD,       /* unexpected rendezvous: keep the header */
    XG_TGT_ATOMIC,     /* apply an atomic */
    XG_TGT_REPLY,      /* get/fetch: send data back */
    XG_TGT_WAIT_REPLY, /* wait state: reply queued for sending */
    XG_TGT_COMPLETE,   /* events, counters, unlink */
    XG_TGT_ACK,        /* acknowledgement */
    XG_TGT_DROP,       /* failure: count, tell the initiator */
    XG_TGT_DONE,
    XG_TGT_WAIT, /* returned by wait states to the progress loop */
    XG_TGT_STATE_LAST
} xg_nic_tgt_state_t;

/* The state machine's own loop (xg_nic_tgt_run). */
typedef struct xg_nic_tgt_run {
    uint8_t running; /* inside xg_nic_tgt_run */
    uint8_t resumed; /* resumed while running */
    uint8_t aborted; /* xg_nic_tgt_abort ran inside a state */
} xg_nic_tgt_run_t;

/* The rendezvous protocol of a put (XG_WIRE_F_RNDV). */
typedef struct xg_nic_tgt_rndv {
    uint8_t on;        /* the payload comes by rendezvous */
    uint8_t pull_sent; /* RNDV_GET is out */
    uint8_t ack_later; /* held: acknowledged on delivery */
} xg_nic_tgt_rndv_t;

/* How the message ends: what the entry asks of it, or why it fails. */
typedef struct xg_nic_tgt_end {
    uint8_t fail;         /* ptl_ni_fail_t when dropping */
    uint8_t drop_reason;  /* status register to count */
    uint8_t unlink_after; /* entry consumed: AUTO_UNLINK at end */
    uint8_t ack_disabled; /* entry has PTL_ME_ACK_DISABLE */
    uint8_t reply_done;   /* reply data has left */
} xg_nic_tgt_end_t;

/* A priority append (or a search-delete) took this message's header while
 * its data was still landing in the overflow entry: the overflow event and
 * count are owed to it at completion (unexpected.c). */
typedef struct xg_nic_tgt_claim {
    uint8_t on;
    uint8_t events;   /* post the *_OVERFLOW event */
    uint8_t unlink;   /* the entry is used up: AUTO_UNLINK */
    unsigned options; /* the claiming entry's options */
    ptl_handle_ct_t ct;
    void *user_ptr;
    xg_nic_me_t *me; /* NULL for a search */
} xg_nic_tgt_claim_t;

/* Packet handlers of the entry (puts only, hooks.c): calls queued on the
 * NI and run by the poller without the NI lock; bytes of a packet land
 * once its payload call returned. */
typedef struct xg_nic_tgt_hook {
    struct xg_nic_hooks *set;
    uint8_t calls; /* XG_NIC_HOOK_CALL_* queued */
    uint8_t completed;
    uint8_t consume;     /* the header handler took it all */
    uint8_t fail;        /* a handler failed the message */
    uint8_t started;     /* the header handler ran */
    uint8_t pending;     /* waits for xg_nic_hook_resume */
    uint8_t busy;        /* a call runs (without the lock) */
    void *msg;           /* the set's per-message state */
    const uint8_t *data; /* the queued payload call's packet */
    uint64_t off;
    uint64_t len;
} xg_nic_tgt_hook_t;

/* One per incoming request: what its header said and where it matched,
 * then the groups above, each read by the states it concerns. */
struct xg_nic_tgt {
    xg_pool_obj_t obj;
    xg_nic_tgt_state_t state;
    uint8_t kind; /* request wire type */
    uint8_t list; /* list of the entry */
    xg_nic_tgt_run_t run;
    xg_nic_tgt_rndv_t rndv;
    xg_nic_tgt_end_t end;
    xg_nic_ni_t *ni;
    xg_nic_pt_t *pt;
    xg_nic_me_t *me;
    xg_nic_uh_t *uh; /* header recorded for an overflow */
    uint32_t src_rank;
    xg_nic_msg_id_t id; /* the message (from its header) */
    ptl_process_t initiator;
    uint64_t src_key;
    ptl_size_t moffset; /* used in the entry */
    ptl_size_t mlength;
    ptl_size_t landed; /* stream bytes processed so far */
    ptl_size_t expect; /* stream bytes to come in all */
    ptl_size_t eager;  /* bytes that came with the header */
    uint8_t operand[32];
    const uint8_t *payload; /* this packet's data (transient) */
    uint32_t payload_len;
    uint8_t *held_data; /* buddy block to copy from */
    ptl_size_t held_len;
    xg_nic_ct_t pull_ct; /* triggered rendezvous counter */
    xg_nic_tgt_claim_t claim;
    xg_nic_tgt_hook_t hook;
};

/* Starts target event @ev of @type with what message @id says (the rest
 * -- start, lengths matched, list, user pointer -- is the caller's). */
static inline void xg_nic_tgt_event_init(ptl_event_t *ev, ptl_event_kind_t type,
                                         const xg_nic_msg_id_t *id,
                                         ptl_process_t initiator)
{
    memset(ev, 0, sizeof(*ev));
    ev->type             = type;
    ev->initiator        = initiator;
    ev->pt_index         = id->pt_index;
    ev->uid              = id->uid;
    ev->jid              = id->jid;
    ev->match_bits       = id->match_bits;
    ev->hdr_data         = id->hdr_data;
    ev->rlength          = id->rlength;
    ev->remote_offset    = id->roffset;
    ev->atomic_operation = id->atomic_op;
    ev->atomic_type      = id->atomic_type;
}

const char *xg_nic_tgt_state_name(xg_nic_tgt_state_t state);

/* A request for an NI that is not open (finalized, or not yet initialized
 * after a PtlFini): answered with PTL_NI_UNDELIVERABLE, its payload
 * skipped, nothing counted on the closed NI. */
void xg_nic_tgt_refuse(xg_nic_ni_t *ni, const xg_nic_wire_t *hdr);
void xg_nic_tgt_rx_request(xg_nic_ni_t *ni, xg_nic_peer_t *peer,
                           const xg_nic_wire_t *hdr, const uint8_t *data);
void xg_nic_tgt_rx_data(xg_nic_ni_t *ni, xg_nic_rx_t *rx, const uint8_t *data,
                        uint32_t len);
void xg_nic_tgt_rx_rndv_data(xg_nic_ni_t *ni, xg_nic_peer_t *peer,
                             const xg_nic_wire_t *hdr, const uint8_t *data);
void xg_nic_tgt_abort(xg_nic_ni_t *ni, xg_nic_tgt_t *tgt);
void xg_nic_tgt_resume(xg_nic_ni_t *ni, xg_nic_tgt_t *tgt);
void xg_nic_tgt_pull(xg_nic_ni_t *ni, xg_nic_tgt_t *tgt);
/* Writes stream bytes [off, off + len) of the message, the part that
 * falls inside the matched length, into the entry (no accounting). */
void xg_nic_tgt_write(xg_nic_tgt_t *tgt, uint64_t off, const uint8_t *data,
                      uint64_t len);
/* hooks.c: message @tgt claimed an entry with handlers @hooks (or NULL):
 * its header call is queued. */
void xg_nic_hook_claim(xg_nic_tgt_t *tgt, struct xg_nic_hooks *hooks);
/* @tgt is being freed (done, aborted, or its NI torn down): the set's
 * release call and in-flight count (NI lock held). */
void xg_nic_hook_free(xg_nic_ni_t *ni, xg_nic_tgt_t *tgt);
/* A packet of hooked message @tgt is in (@data stays valid
 * until the poller has run the queue); the bytes land after the calls. */
void xg_nic_hook_packet(xg_nic_tgt_t *tgt, uint64_t off, const uint8_t *data,
                        uint64_t len);
/* 1 if hooked message @tgt may complete; 0: a call is queued or pending,
 * which resumes it. */
int xg_nic_hook_complete(xg_nic_tgt_t *tgt);
/* Runs @tgt from its state until it finishes (and is freed) or waits. */
void xg_nic_tgt_run(xg_nic_ni_t *ni, xg_nic_tgt_t *tgt);
/* Copies stream bytes [off, off + len) of the message, the part that falls
 * inside the matched length, into the entry. */
void xg_nic_tgt_land(xg_nic_tgt_t *tgt, uint64_t off, const uint8_t *data,
                     uint64_t len);
/* Sends the response of a put or atomic (ack or failure notice). */
void xg_nic_tgt_send_ack(xg_nic_ni_t *ni, const xg_nic_tgt_t *tgt,
                         ptl_ni_fail_t fail, unsigned flags);
/* The comm event kind of a request of wire type @kind. */
ptl_event_kind_t xg_nic_tgt_event_kind(uint8_t kind, int overflow);
/* Posts @ev on the event queue of @pt, if it has one. */
void xg_nic_tgt_post(xg_nic_ni_t *ni, xg_nic_pt_t *pt, const ptl_event_t *ev);
/* Counts on @me's counter when @option is set (1, or @bytes). */
void xg_nic_tgt_count(xg_nic_ni_t *ni, const xg_nic_me_t *me, unsigned option,
                      uint64_t bytes);

#endif
