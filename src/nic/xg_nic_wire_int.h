/*
 * The NIC's wire format: one fixed header per packet, followed by payload.
 * Requests (put, get, atomics) carry the Portals header; responses (ack,
 * reply) echo the initiator's cookies (MD handle, offset, user pointer), so
 * an initiator keeps no per-operation state for them.  A message larger than
 * one packet continues in DATA packets, which the sender emits back to back
 * on its stream to the receiver (the transport keeps a sender's packets in
 * order), so a receiver tracks at most one incomplete message per sender.
 *
 * Every packet comes from another process: xg_nic_wire_parse() checks all
 * that can be checked without engine state; the state machine checks the
 * rest.  Neither trusts a length, an offset or an index.
 */
#ifndef XG_NIC_WIRE_INT_H
#define XG_NIC_WIRE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "nic/xg_nic_hooks.h" /* xg_nic_msg_id_t */

#define XG_NIC_WIRE_MAGIC   0x4e584758u /* "XGXN" */
#define XG_NIC_WIRE_VERSION 2u

typedef enum xg_nic_wire_type {
    XG_WIRE_PUT = 1,   /* request: header (+ first payload bytes) */
    XG_WIRE_GET,       /* request */
    XG_WIRE_ATOMIC,    /* request with operands */
    XG_WIRE_FETCH,     /* request with operands, wants a reply */
    XG_WIRE_SWAP,      /* request with operands and operand[], reply */
    XG_WIRE_ACK,       /* response to put/atomic (or its failure) */
    XG_WIRE_REPLY,     /* response to get/fetch/swap (+ first data bytes) */
    XG_WIRE_DATA,      /* continuation of the sender's current message */
    XG_WIRE_RNDV_GET,  /* target asks for rendezvous payload bytes */
    XG_WIRE_RNDV_DATA, /* initiator answers with them (+ first bytes) */
    XG_WIRE_TYPE_LAST
} xg_nic_wire_type_t;

enum {
    XG_WIRE_F_RNDV  = 1u << 0, /* PUT: the payload follows by rendezvous;
                                  ACK: ... and was never pulled */
    XG_WIRE_F_FINAL = 1u << 1, /* RNDV_GET: the initiator is done after it */
    XG_WIRE_F_HELD  = 1u << 2, /* ACK/RNDV_GET: held as unexpected first */
    XG_WIRE_F_QUIET = 1u << 3  /* ACK: the entry disabled acknowledgements:
                                  only release the MD, report nothing */
};

typedef struct xg_nic_wire {
    uint32_t magic;
    uint8_t version;
    uint8_t type;      /* xg_nic_wire_type_t */
    uint8_t ni;        /* NI index at the receiver, 0..3 */
    uint8_t flags;     /* XG_WIRE_F_* */
    uint32_t src_rank; /* sending process */
    uint32_t payload;  /* bytes after the header in this packet */
    uint64_t offset;   /* position of the payload in the message */

    xg_nic_msg_id_t id;
    uint8_t fail; /* responses: ptl_ni_fail_t */
    uint8_t pad[3];
    uint32_t list;       /* responses: ptl_list_t of the entry */
    uint64_t mlength;    /* responses: bytes manipulated;
                                   RNDV_GET: count */
    uint64_t tgt_cookie; /* rendezvous: the target's operation */
    uint8_t operand[32]; /* swap operand */
} xg_nic_wire_t;

/* Why a packet was rejected (counted per reason). */
typedef enum xg_nic_wire_err {
    XG_WIRE_OK = 0,
    XG_WIRE_ERR_SHORT,  /* shorter than a header */
    XG_WIRE_ERR_MAGIC,  /* wrong magic or version */
    XG_WIRE_ERR_TYPE,   /* unknown type */
    XG_WIRE_ERR_LENGTH, /* payload field disagrees with packet length */
    XG_WIRE_ERR_FIELD,  /* a field out of range */
    XG_WIRE_ERR_LAST
} xg_nic_wire_err_t;

/*
 * Copies the header of the @len-byte packet @buf into @hdr and validates
 * it: magic, version, type, NI index, payload length, offsets that do not
 * overflow and stay within rlength, enum fields in range.  Cost: O(1).
 */
xg_nic_wire_err_t xg_nic_wire_parse(const void *buf, size_t len,
                                    xg_nic_wire_t *hdr);

/* Fills the fixed fields of a header. */
void xg_nic_wire_init(xg_nic_wire_t *hdr, xg_nic_wire_type_t type, unsigned ni,
                      uint32_t src_rank);

const char *xg_nic_wire_type_name(unsigned type);

/* A request a target answers (put, get and the atomics). */
static inline int xg_nic_wire_is_request(unsigned type)
{
    return (type >= XG_WIRE_PUT) && (type <= XG_WIRE_SWAP);
}

#endif
