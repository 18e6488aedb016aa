/*
 * The NIC route of gas: operations on PEs whose namespace row says
 * XG_GAS_ROUTE_NIC -- the PEs of other nodes, and with XGAS_ROUTE=nic
 * every PE, this one included -- go through the software NIC
 * (nic/xg_nic.h), whose packets travel on the node's rings or, to other
 * nodes, on the network (xport/xg_xport.h).
 *
 * At init, when the job spans nodes or XGAS_ROUTE=nic, gas opens the
 * physical, non-matching NI of the NIC for itself and exposes this PE's
 * whole partition -- symmetric heap, globals' data window and the internal
 * area whose team slots the remote collective channel signals
 * (xg_gas_area_amo) -- through one persistent list entry on the NI's last
 * portal index, the same on every PE.  A remote address is its partition
 * offset there.  Initiator side: one MD over the whole address space (an
 * offset is an address) whose counting event counts the ACKs of puts and
 * the replies of gets and atomics.  Regions (gas/region/) keep their own
 * portal indexes, descriptors and counters on the same NI.
 *
 * A contiguous put or get whose local buffer the network can reach
 * (xg_xport_rma_reaches: a PE of another node) does not go through the
 * NIC: it is one RMA operation of the network, which the NIC's operations
 * never overtake (each is issued after the network's puts completed).
 * Atomics, strided transfers and everything else take the NIC.
 *
 * Completion: gas counts the operations it issued on the NIC; they are all
 * complete when the counter's successes and failures add up to that count
 * (read in that order: see route_nic.c), and completing them completes
 * the network's RMA too.  A blocking operation through the NIC is complete
 * -- remotely visible -- when it returns; a blocking put by the network's
 * RMA returns once its source buffer may be reused, and counts, like the
 * non-blocking operations, in its context's pending operations, which
 * quiet completes.  Fence (xg_gas_nic_fence): where the network keeps a
 * process's puts in order with what follows them, it waits for the NIC's
 * operations only (the NIC does not keep a large put, a rendezvous, in
 * order with later operations to the same PE) and leaves the network's
 * puts outstanding; elsewhere it completes everything, as quiet.
 */
#ifndef XG_GAS_NIC_H
#define XG_GAS_NIC_H

#include <stddef.h>
#include <stdint.h>

#include "gas/xg_gas_ops.h"
#include "portals4.h"

/* Whether this PE needs the NIC route: XGAS_ROUTE=nic, or a job over
 * several nodes.  The runtime asks before gas starts, and opens the NIC
 * first when it is wanted. */
int xg_gas_nic_wanted(void);
/* Opens the route on the NIC the runtime started and marks every PE's row
 * XG_GAS_ROUTE_NIC; called by xg_gas_init when XGAS_ROUTE says so. */
xg_status_t xg_gas_nic_open(void);
/* Completes what is outstanding; then, once every PE has (the caller's
 * barrier), xg_gas_nic_close takes the route down (the runtime closes the
 * NIC when nothing else uses it). */
void xg_gas_nic_drain(void);
void xg_gas_nic_close(void);

/* 1 if @pe (valid) is reached through the NIC. */
static inline int xg_gas_nic_reaches(int pe)
{
    return (atomic_load_explicit(&xg_gas.nic_route, memory_order_acquire) ==
            2) &&
           (xg_gas.table[pe + 1].route == XG_GAS_ROUTE_NIC);
}

/* @len bytes between local @local and symmetric @remote on @pe (a put if
 * @put), checked by the caller: by the network's RMA where it reaches,
 * else through the NIC.  @nbi: leaves the operation outstanding in @ctx;
 * else waits for it to complete (a put by the network's RMA: for its
 * source buffer, the rest counted in @ctx). */
xg_status_t xg_gas_nic_rma(xg_gas_ctx_t *ctx, int put, int nbi, void *local,
                           const void *remote, size_t len, int pe);

/* Stores @value into the 64-bit word at symmetric or internal-area
 * @remote on @pe with one write of the network's RMA, left outstanding in
 * @ctx, where that write takes effect after every earlier write and
 * packet of this PE to @pe (xg_xport_rma_ordered) and the network reaches
 * @pe; else XG_ERR_UNSUPPORTED and nothing is done. */
xg_status_t xg_gas_nic_write_ordered(xg_gas_ctx_t *ctx, void *remote,
                                     uint64_t value, int pe);

/* A strided transfer through the NIC (arguments checked, as in
 * xg_gas_iput): contiguous runs are one operation, other elements one
 * each, completed every 256 operations (NIC_STRIDED_BATCH: the NIC holds a
 * bounded number in flight); waits for them all. */
xg_status_t xg_gas_nic_strided(int put, void *dst, const void *src, size_t elem,
                               ptrdiff_t dst_stride, ptrdiff_t src_stride,
                               size_t count, int pe);

/* An atomic (checked: aligned, in bounds), waiting for its reply. */
xg_gas_amo_result_t xg_gas_nic_amo(xg_gas_amo_t op, void *dst, size_t size,
                                   uint64_t value, uint64_t cond, int pe);

/* An atomic whose result nobody wants (checked): add, and, or and xor are
 * issued and left outstanding in @ctx, complete at its quiet and ordered
 * by its fence like puts; a set waits as xg_gas_nic_amo does (Portals has
 * no swap without a result). */
xg_status_t xg_gas_nic_amo_nbi(xg_gas_ctx_t *ctx, xg_gas_amo_t op, void *dst,
                               size_t size, uint64_t value, int pe);

/* An operation of the typed-operation table on one element of at most 8
 * bytes (checked: valid pair, aligned, in bounds), with @operand (compare
 * value or mask; NULL: zero, as xg_op_atomic takes it); @fetch (NULL: not
 * wanted) gets the prior value.  XG_ERR_UNSUPPORTED for an accumulate
 * with scale, which Portals has no operation for. */
xg_status_t xg_gas_nic_amo_op(xg_op_t op, xg_op_type_t type, void *dst,
                              const void *src, const void *operand, void *fetch,
                              int pe);

/* The partition offset of symmetric @remote (heap, globals, or gas's own
 * words in the internal area): its address at the route's portal index. */
uint64_t xg_gas_nic_offset(const void *remote);

/* Puts @len bytes at @buf (copied at issue) to offset 0 of portal index
 * @pt of @pe, counted as one operation of the route, which its completion
 * (xg_gas_nic_complete) waits for. */
xg_status_t xg_gas_nic_send_copy(ptl_pt_index_t pt, const void *buf, size_t len,
                                 int pe);

/*
 * Batched atomics (amo_batch.c): non-fetching add, and, or and xor of the
 * API to PEs of other nodes, and its puts of at most 8 bytes, wait in the
 * process, up to XGAS_AMO_BATCH for one PE, and travel as one message
 * that the target's NIC applies (atomics with CPU atomics).
 * xg_gas_amo_batch_add and xg_gas_put_batch_add take one, counted in @ctx
 * as a NIC operation (1; *@status_p the status of what they sent
 * meanwhile), or decline it (0: batching is off, @op is not one of the
 * four, @len is above 8).  xg_gas_amo_batch_flush sends the open batches
 * to @pe (-1: to every PE, and the next word put goes alone, as a
 * write of the network's RMA): fence and quiet call it, as does every other
 * operation of the route to that PE, and gas's waits while
 * xg_gas_amo_batched is not 0 (xg_gas_poll_remote).  An operation that
 * may overtake the NIC's messages (the network's RMA) asks
 * xg_gas_amo_batch_unfinished instead: it sends the open batch to @pe and
 * returns 1 if a batch that may be for @pe was sent, by anyone, and is not
 * known complete -- then the caller completes the NIC's operations first.
 * A completion of them marks what it covered: xg_gas_amo_batch_sends read
 * before the wait, passed to xg_gas_amo_batch_completed after it.  Opened
 * and closed with the route's active messages (life.c).
 */
extern _Atomic uint32_t xg_gas_amo_batched;
xg_status_t xg_gas_amo_batch_open(void);
void xg_gas_amo_batch_close(void);
int xg_gas_amo_batch_add(xg_gas_ctx_t *ctx, xg_gas_amo_t op, void *dst,
                         size_t size, uint64_t value, int pe,
                         xg_status_t *status_p);
int xg_gas_put_batch_add(xg_gas_ctx_t *ctx, void *dst, const void *src,
                         size_t len, int pe, xg_status_t *status_p);
void xg_gas_amo_batch_flush(int pe);
int xg_gas_amo_batch_unfinished(int pe);
uint64_t xg_gas_amo_batch_sends(void);
void xg_gas_amo_batch_completed(uint64_t sends);

/* gas's NI and its limits, for regions and active messages
 * (region/region_nic.c, region/am.c), which keep their own portal indexes,
 * descriptors and counters on it.  The route's own portal index is the
 * NI's last; active messages take the two below it, batched atomics the
 * one below those, regions' keys the free ones below. */
int xg_gas_nic_is_open(void);
ptl_handle_ni_t xg_gas_nic_ni(void);
const ptl_ni_limits_t *xg_gas_nic_limits(void);

/* Waits until, at one moment, every operation counted in *@issued
 * (counted before it is issued) is complete on counter @ct -- the
 * completion of xg_gas_nic_complete, for any counter (regions keep their
 * own); *@upto_p (may be NULL) gets the issue count it waited for.
 * XG_ERR_UNREACHABLE, logged naming @what ("operations through the NIC"),
 * if one failed since *@failed_seen or the NIC stopped. */
xg_status_t xg_gas_nic_wait_ct(ptl_handle_ct_t ct, uint64_t *issued,
                               uint64_t *failed_seen, const char *what,
                               uint64_t *upto_p);

/* Waits until every operation issued through the NIC is complete; a
 * context's quiet calls it.  XG_ERR_UNREACHABLE if one failed since the
 * last call. */
xg_status_t xg_gas_nic_complete(void);

/* A fence's part of the NIC route: when the network keeps a process's
 * puts, and what follows them, in order (xg_xport_rma_ordered), waits for
 * the operations through the NIC only and returns 1 -- the network's puts
 * may stay outstanding until a quiet.  Otherwise returns 0 at once: the
 * caller completes everything. */
int xg_gas_nic_fence(void);

#endif
