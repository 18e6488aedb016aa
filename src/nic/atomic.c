/*
 * Portals atomic operations, applied at the target through the typed-
 * operation table (base/xg_op.h).  The atomicity domain: an element of 1,
 * 2, 4 or 8 bytes aligned to its size is updated in place with CPU atomic
 * instructions (compare-and-swap loops for the operations and types that
 * have none), so it is atomic against every other Portals atomic and
 * against CPU atomics of any process on that word -- an OpenSHMEM atomic
 * of a same-node PE, say.  A wider element (long double, double complex,
 * long double complex), an unaligned one, or one that straddles two
 * vectors of an iovec entry is read, combined and written back with plain
 * loads and stores; the target applies operations under its NI lock, so
 * such an element is atomic against Portals operations on that NI only
 * (docs/portals.md).
 */
#include <string.h>

#include "base/xg_op.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_atomic_int.h"

/* The table's operation and type for each Portals one. */
static const xg_op_t atomic_ops[PTL_OP_LAST] = {
    [PTL_MIN] = XG_OP_MIN,           [PTL_MAX] = XG_OP_MAX,
    [PTL_SUM] = XG_OP_SUM,           [PTL_PROD] = XG_OP_PROD,
    [PTL_LOR] = XG_OP_LOR,           [PTL_LAND] = XG_OP_LAND,
    [PTL_BOR] = XG_OP_BOR,           [PTL_BAND] = XG_OP_BAND,
    [PTL_LXOR] = XG_OP_LXOR,         [PTL_BXOR] = XG_OP_BXOR,
    [PTL_SWAP] = XG_OP_SWAP,         [PTL_CSWAP] = XG_OP_CSWAP,
    [PTL_CSWAP_NE] = XG_OP_CSWAP_NE, [PTL_CSWAP_LE] = XG_OP_CSWAP_LE,
    [PTL_CSWAP_LT] = XG_OP_CSWAP_LT, [PTL_CSWAP_GE] = XG_OP_CSWAP_GE,
    [PTL_CSWAP_GT] = XG_OP_CSWAP_GT, [PTL_MSWAP] = XG_OP_MSWAP,
};

static const xg_op_type_t atomic_types[PTL_DATATYPE_LAST] = {
    [PTL_INT8_T]              = XG_TYPE_I8,
    [PTL_UINT8_T]             = XG_TYPE_U8,
    [PTL_INT16_T]             = XG_TYPE_I16,
    [PTL_UINT16_T]            = XG_TYPE_U16,
    [PTL_INT32_T]             = XG_TYPE_I32,
    [PTL_UINT32_T]            = XG_TYPE_U32,
    [PTL_FLOAT]               = XG_TYPE_FLOAT,
    [PTL_INT64_T]             = XG_TYPE_I64,
    [PTL_UINT64_T]            = XG_TYPE_U64,
    [PTL_DOUBLE]              = XG_TYPE_DOUBLE,
    [PTL_FLOAT_COMPLEX]       = XG_TYPE_CFLOAT,
    [PTL_DOUBLE_COMPLEX]      = XG_TYPE_CDOUBLE,
    [PTL_LONG_DOUBLE]         = XG_TYPE_LDOUBLE,
    [PTL_LONG_DOUBLE_COMPLEX] = XG_TYPE_CLDOUBLE,
};

size_t xg_nic_atomic_size(ptl_datatype_t type)
{
    return (type < PTL_DATATYPE_LAST) ? xg_op_type_size(atomic_types[type]) : 0;
}

int xg_nic_atomic_valid(ptl_op_t op, ptl_datatype_t type)
{
    return (op < PTL_OP_LAST) && (type < PTL_DATATYPE_LAST) &&
           xg_op_valid(atomic_ops[op], atomic_types[type]);
}

int xg_nic_atomic_of(int op, int type, ptl_op_t *op_p, ptl_datatype_t *type_p)
{
    int found = 0;
    unsigned i;

    /* the inverse of the two maps above: searched, so they stay the one
     * statement of the correspondence */
    for (i = 0; i < PTL_OP_LAST; i++) {
        if (atomic_ops[i] == (xg_op_t)op) {
            *op_p = (ptl_op_t)i;
            found |= 1;
            break;
        }
    }
    for (i = 0; i < PTL_DATATYPE_LAST; i++) {
        if (atomic_types[i] == (xg_op_type_t)type) {
            *type_p = (ptl_datatype_t)i;
            found |= 2;
            break;
        }
    }
    return found == 3;
}

/* The bytes of @region from @offset up to the end of its vector (the
 * region's end if contiguous): their address and count in *len_p. */
static uint8_t *atomic_piece(const xg_nic_region_t *region, uint64_t offset,
                             uint64_t *len_p)
{
    uint32_t i;

    if (region->iov == NULL) {
        *len_p = region->length - offset;
        return region->start + offset;
    }
    for (i = 0; i < region->niov; i++) {
        if (offset < region->iov[i].iov_len) {
            *len_p = region->iov[i].iov_len - offset;
            return (uint8_t *)region->iov[i].iov_base + offset;
        }
        offset -= region->iov[i].iov_len;
    }
    *len_p = 0;
    return NULL;
}

void xg_nic_atomic_apply(ptl_op_t op, ptl_datatype_t type,
                         const xg_nic_region_t *region, uint64_t offset,
                         const uint8_t *src, const uint8_t *operand,
                         uint8_t *fetch, uint64_t len)
{
    xg_op_t xop        = atomic_ops[op];
    xg_op_type_t xtype = atomic_types[type];
    size_t elem        = xg_op_type_size(xtype);
    uint8_t cur[sizeof(long double _Complex)];
    uint64_t done, piece = 0;
    uint8_t *at = NULL;

    for (done = 0; done < len; done += elem) {
        uint8_t *out = (fetch != NULL) ? fetch + done : NULL;

        if (piece < elem) {
            at = atomic_piece(region, offset + done, &piece);
        }
        if ((piece < elem) ||
            !xg_op_atomic(xop, xtype, at, src + done, operand, out)) {
            /* wide, unaligned or across two vectors: under the NI lock */
            xg_nic_region_read(region, offset + done, cur, elem);
            xg_op_apply(xop, xtype, cur, src + done, operand, out, 1);
            xg_nic_region_write(region, offset + done, cur, elem);
        }
        if (piece >= elem) {
            at += elem;
            piece -= elem;
        } else {
            piece = 0;
        }
    }
}
