/*
 * Portals atomic operations on every datatype (atomic.c).
 */
#ifndef XG_NIC_ATOMIC_INT_H
#define XG_NIC_ATOMIC_INT_H

#include <stddef.h>
#include <stdint.h>

#include "nic/xg_nic_region_int.h"
#include "portals4.h"

/* Applies @op to the elements of [offset, offset + len) of @region in
 * place: target[i] = f(target[i], src[i]) (with @operand for the swaps);
 * the prior values go to @fetch (may be NULL).  Aligned elements of up to
 * 8 bytes with CPU atomics, the others under the caller's NI lock. */
void xg_nic_atomic_apply(ptl_op_t op, ptl_datatype_t type,
                         const xg_nic_region_t *region, uint64_t offset,
                         const uint8_t *src, const uint8_t *operand,
                         uint8_t *fetch, uint64_t len);

#endif
