/*
 * Sending (tx.c): messages cut into packets, pushed straight into the
 * transport or queued per peer when its ring is full.
 */
#ifndef XG_NIC_TX_INT_H
#define XG_NIC_TX_INT_H

#include <stdint.h>

#include "nic/xg_nic_fwd_int.h"
#include "nic/xg_nic_wire_int.h"
#include "portals4.h"
#include "xgas_status.h"

typedef enum xg_nic_txdone_kind {
    XG_TXDONE_NONE = 0,
    XG_TXDONE_SEND, /* initiator: post SEND (put/atomic data out) */
    XG_TXDONE_TGT,  /* target: reply data read, complete the op */
    XG_TXDONE_RNDV  /* initiator: rendezvous payload out: SEND */
} xg_nic_txdone_kind_t;

/* What to do when a message has left (all its packets are queued in the
 * transport). */
struct xg_nic_txdone {
    uint8_t kind;
    uint8_t ni;
    uint8_t expect_response;
    xg_nic_msg_id_t id; /* SEND: the message (md: its data) */
    ptl_process_t target;
    xg_nic_tgt_t *tgt;
};

/* A message to send: header of its first packet and where its payload is.
 * Continuation packets are XG_WIRE_DATA. */
struct xg_nic_txmsg {
    xg_nic_wire_t hdr;
    const xg_nic_region_t *src; /* payload source, or NULL */
    const uint8_t *inline_data; /* or this (copied if queued) */
    uint64_t inline_base;       /* message offset of inline_data */
    uint64_t src_off;
    uint64_t len;  /* payload bytes */
    uint64_t sent; /* payload bytes pushed */
    uint8_t first_done;
    uint8_t copy; /* queue a private copy (volatile) */
    uint8_t defer_wake;
    uint8_t failed; /* queued: the peer refused it */
    int32_t peer;   /* queued: its destination */
    xg_nic_txdone_t done;
};

struct xg_nic_txq {
    xg_nic_txq_t *next;
    xg_nic_txmsg_t msg;
    uint8_t *owned; /* private payload copy */
};

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

#endif
