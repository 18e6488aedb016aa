/*
 * Packet header validation (see xg_nic_wire_int.h).  Pure functions of the
 * bytes: the fuzz target calls xg_nic_wire_parse() on arbitrary input.
 */
#include "nic/xg_nic_wire_int.h"

#include <string.h>

#include "portals4.h"

static const char *const wire_type_names[XG_WIRE_TYPE_LAST] = {
    [0]                 = "none",
    [XG_WIRE_PUT]       = "put",
    [XG_WIRE_GET]       = "get",
    [XG_WIRE_ATOMIC]    = "atomic",
    [XG_WIRE_FETCH]     = "fetch",
    [XG_WIRE_SWAP]      = "swap",
    [XG_WIRE_ACK]       = "ack",
    [XG_WIRE_REPLY]     = "reply",
    [XG_WIRE_DATA]      = "data",
    [XG_WIRE_RNDV_GET]  = "rndv-get",
    [XG_WIRE_RNDV_DATA] = "rndv-data",
};

const char *xg_nic_wire_type_name(unsigned type)
{
    return (type < XG_WIRE_TYPE_LAST) ? wire_type_names[type] : "?";
}

void xg_nic_wire_init(xg_nic_wire_t *hdr, xg_nic_wire_type_t type, unsigned ni,
                      uint32_t src_rank)
{
    memset(hdr, 0, sizeof(*hdr));
    hdr->magic    = XG_NIC_WIRE_MAGIC;
    hdr->version  = XG_NIC_WIRE_VERSION;
    hdr->type     = (uint8_t)type;
    hdr->ni       = (uint8_t)ni;
    hdr->src_rank = src_rank;
}

/* a + b without wrapping, and within @limit */
static int wire_fits(uint64_t a, uint64_t b, uint64_t limit)
{
    return (a <= limit) && (b <= limit - a);
}

static int wire_atomic_fields_ok(const xg_nic_wire_t *hdr)
{
    return (hdr->id.atomic_op < PTL_OP_LAST) &&
           (hdr->id.atomic_type < PTL_DATATYPE_LAST);
}

xg_nic_wire_err_t xg_nic_wire_parse(const void *buf, size_t len,
                                    xg_nic_wire_t *hdr)
{
    if ((buf == NULL) || (len < sizeof(*hdr))) {
        return XG_WIRE_ERR_SHORT;
    }
    memcpy(hdr, buf, sizeof(*hdr));
    if ((hdr->magic != XG_NIC_WIRE_MAGIC) ||
        (hdr->version != XG_NIC_WIRE_VERSION)) {
        return XG_WIRE_ERR_MAGIC;
    }
    if ((hdr->type == 0) || (hdr->type >= XG_WIRE_TYPE_LAST)) {
        return XG_WIRE_ERR_TYPE;
    }
    if ((uint64_t)hdr->payload != (uint64_t)(len - sizeof(*hdr))) {
        return XG_WIRE_ERR_LENGTH;
    }
    if ((hdr->ni > 3) || (hdr->id.ack_req > PTL_OC_ACK_REQ) ||
        (hdr->fail > PTL_NI_SEGV) || (hdr->list > PTL_OVERFLOW_LIST) ||
        !wire_fits(hdr->offset, hdr->payload, UINT64_MAX)) {
        return XG_WIRE_ERR_FIELD;
    }
    switch ((xg_nic_wire_type_t)hdr->type) {
    case XG_WIRE_PUT:
        /* the first packet of the message: its payload starts at 0 and
         * the message is rlength bytes */
        if ((hdr->offset != 0) || (hdr->payload > hdr->id.rlength) ||
            ((hdr->flags & ~(unsigned)XG_WIRE_F_RNDV) != 0)) {
            return XG_WIRE_ERR_FIELD;
        }
        break;
    case XG_WIRE_GET:
        if ((hdr->payload != 0) || (hdr->flags != 0)) {
            return XG_WIRE_ERR_FIELD;
        }
        break;
    case XG_WIRE_ATOMIC:
    case XG_WIRE_FETCH:
    case XG_WIRE_SWAP:
        /* operands travel whole in the first packet */
        if ((hdr->offset != 0) || (hdr->payload != hdr->id.rlength) ||
            (hdr->flags != 0) || !wire_atomic_fields_ok(hdr)) {
            return XG_WIRE_ERR_FIELD;
        }
        break;
    case XG_WIRE_ACK:
        if ((hdr->payload != 0) || (hdr->mlength > hdr->id.rlength) ||
            ((hdr->flags & ~(unsigned)(XG_WIRE_F_HELD | XG_WIRE_F_RNDV |
                                       XG_WIRE_F_QUIET)) != 0)) {
            return XG_WIRE_ERR_FIELD;
        }
        break;
    case XG_WIRE_REPLY:
        if ((hdr->offset != 0) || (hdr->payload > hdr->mlength) ||
            (hdr->mlength > hdr->id.rlength) || (hdr->flags != 0)) {
            return XG_WIRE_ERR_FIELD;
        }
        break;
    case XG_WIRE_DATA: break;
    case XG_WIRE_RNDV_GET:
        /* asks for mlength bytes from offset of an rlength-byte message */
        if ((hdr->payload != 0) ||
            !wire_fits(hdr->offset, hdr->mlength, hdr->id.rlength) ||
            ((hdr->flags & ~(unsigned)(XG_WIRE_F_FINAL | XG_WIRE_F_HELD)) !=
             0)) {
            return XG_WIRE_ERR_FIELD;
        }
        break;
    case XG_WIRE_RNDV_DATA:
        if ((hdr->payload > hdr->mlength) || (hdr->flags != 0) ||
            !wire_fits(hdr->offset, hdr->mlength, UINT64_MAX)) {
            return XG_WIRE_ERR_FIELD;
        }
        break;
    case XG_WIRE_TYPE_LAST: return XG_WIRE_ERR_TYPE;
    }
    return XG_WIRE_OK;
}
