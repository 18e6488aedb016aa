/*
 * Operations on global addresses (xg_gaddr_t of include/xgas.h: namespace
 * and offset), the data path of the native API.  Each resolves the address
 * through the namespace table (xg_gas_resolve: namespace 0 is local
 * memory) and then does one copy, one register-width load or store, or
 * one CPU atomic of the typed-operation table; a namespace of a PE on the
 * NIC route (another node) goes through that route instead.
 *
 * Statuses, never messages: an operation that fails moves nothing and
 * returns the reason (those of xg_gas_resolve, and XG_ERR_MISALIGNED);
 * the binding reports it.
 */
#ifndef XG_GAS_GADDR_H
#define XG_GAS_GADDR_H

#include <stddef.h>

#include "base/xg_op.h"
#include "gas/xg_gas.h"

/* Ordering and completion of the operations below (xg_gas_fence and
 * xg_gas_quiet, and what the NIC route left outstanding). */
void xg_gas_gaddr_fence(void);
void xg_gas_gaddr_quiet(void);

/* The PE owning @gaddr (this PE for namespace 0), or -1: out of range, or
 * the runtime is not running. */
int xg_gas_gaddr_pe(xg_gaddr_t gaddr);

/*
 * Copies @len (> 0) bytes from local @src to @dst, or from @src to local
 * @dst.  @align (a power of two) is the alignment the resolved address
 * must have: the size of a single element (which then moves as one load
 * and one store, see xg_gas_copy), or 1 for a bulk copy.
 */
xg_status_t xg_gas_gaddr_put(xg_gaddr_t dst, const void *src, size_t len,
                             size_t align);
xg_status_t xg_gas_gaddr_get(void *dst, xg_gaddr_t src, size_t len,
                             size_t align);

/*
 * The atomic operation @op of the table (base/xg_op.h) on the element of
 * @type at @dst, which must be aligned to its size: @operand and @compare
 * as xg_op_atomic's src and operand, the prior value to @fetch (NULL: not
 * wanted).  XG_ERR_UNSUPPORTED for a type wider than a CPU atomic.
 */
xg_status_t xg_gas_gaddr_amo(xg_op_t op, xg_op_type_t type, xg_gaddr_t dst,
                             const void *operand, const void *compare,
                             void *fetch);

#endif
