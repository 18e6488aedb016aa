/*
 * Portals atomic operations on every datatype (atomic.c).
 */
#ifndef XG_NIC_ATOMIC_H
#define XG_NIC_ATOMIC_H

#include <stddef.h>
#include <stdint.h>

#include "portals4.h"

/* Applies @op to @count elements: target[i] = f(target[i], src[i]) (with
 * @operand for the swaps); the prior values go to @fetch (may be NULL). */
void   xg_nic_atomic_apply(ptl_op_t op, ptl_datatype_t type, uint8_t *target,
                           const uint8_t *src, const uint8_t *operand,
                           uint8_t *fetch, size_t count);

#endif
