/*
 * The initiator side (initiator.c): issuing operations and handling the
 * responses (acknowledgements, replies, rendezvous requests).
 */
#ifndef XG_NIC_INITIATOR_INT_H
#define XG_NIC_INITIATOR_INT_H

#include <stdint.h>

#include "nic/xg_nic.h"
#include "nic/xg_nic_fwd_int.h"
#include "nic/xg_nic_wire_int.h"

int xg_nic_issue_locked(xg_nic_ni_t *ni, const xg_nic_op_t *op, const char *fn);
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

#endif
