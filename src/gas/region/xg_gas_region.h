/*
 * Regions: symmetric memory that a group of PEs allocates together for
 * one-sided access with ARMCI's semantics, after the design of ARMCI on
 * Blue Gene/Q (the paper on ARMCI over PAMI with an asynchronous progress
 * thread, a seed of xgas).  libarmci
 * (src/api/armci) is a thin binding over these; they are exported from
 * libxgas for it, as boot's routines are for libpmi (no installed header
 * declares them).
 *
 * A region is one symmetric block at the same offset of every member's
 * partition, placed by agreement (xg_gas_region_alloc), so members whose
 * heaps differ -- groups that allocated without each other -- still share
 * the offset.
 * After the data sits one cache line holding the region's accumulate lock
 * on each member.
 *
 * Operations name the remote side by the target PE's address of it --
 * xg_gas_region_base_of(region, pe) plus an offset: with the PVAS layout
 * every PE's partition sits at one address in every process, which is
 * what ARMCI_Malloc's array of bases holds -- and the PE; the remote range
 * must lie inside one region.
 * Per PE they take gas's route:
 *
 *   direct (same node)  put and get are one copy through the PVAS region;
 *                       an accumulate takes the target's region lock (a
 *                       CPU atomic on its word) around the element-wise
 *                       update; a read-modify-write is one CPU atomic.
 *   NIC                 each region is also registered with the NIC on
 *                       each member under a key of that member (a portal
 *                       index of gas's NI).  An initiator keeps other PEs'
 *                       keys in a cache of XGAS_REGION_CACHE entries that
 *                       evicts the least frequently used; with the key, a
 *                       put or get is a NIC operation on the region
 *                       (RDMA: the target's application thread takes no
 *                       part); on a miss the operation travels as an
 *                       active message that the target's NIC applies
 *                       itself, and its answer carries the key.
 *                       Accumulates: XGAS_ACC=target sends the data in
 *                       active messages applied at the target under its
 *                       region lock; source gets, adds and puts back under
 *                       the lock, taken through the NIC.  Read-modify-
 *                       writes are active messages served by the target's
 *                       NIC progress thread, or with XGAS_AM_THREAD=0 by
 *                       the target's application thread when it next calls
 *                       the library (xg_gas_am_serve, and every wait of
 *                       gas).
 *
 * Completion and location consistency.  Blocking operations return when
 * the local buffer may be reused (put, accumulate) or the data has arrived
 * (get); a put or accumulate through the NIC may still be in flight then.
 * Each region counts what it has in flight.  A get from a region first
 * completes that region's writes the NIC does not keep in order with it --
 * and only that region's (XGAS_CONSISTENCY=region; =process completes all
 * of this PE's): so a get after a put to the same location sees the put,
 * and reads of other regions are not fenced needlessly.  Fence and the
 * handles' waits complete the rest.
 *
 * Statuses: XG_ERR_NOT_SYMMETRIC (a remote address in no region),
 * XG_ERR_OUT_OF_BOUNDS (a range running past its region's end, or a
 * strided extent that overflows), XG_ERR_PE_RANGE, XG_ERR_INVALID_PARAM
 * (a length that is not whole elements of an accumulate's type, a NULL
 * array, more than XG_GAS_SHAPE_MAX_LEVELS levels), XG_ERR_MISALIGNED (a
 * read-modify-write word), XG_ERR_UNREACHABLE.  A failing call moves
 * nothing: every range is checked first.
 */
#ifndef XG_GAS_REGION_H
#define XG_GAS_REGION_H

#include <stddef.h>
#include <stdint.h>

#include "base/xg_compiler.h"
#include "base/xg_op.h"
#include "gas/xg_gas_ops.h"
#include "xgas_status.h"

/* Stride levels of a strided transfer (ARMCI_MAX_STRIDE_LEVEL). */
#define XG_GAS_SHAPE_MAX_LEVELS 8

typedef struct xg_gas_region xg_gas_region_t;

/* What a non-blocking operation left in flight: NULL (nothing), one
 * region, or XG_GAS_PENDING_MANY (several: a vector over regions). */
#define XG_GAS_PENDING_MANY ((xg_gas_region_t *)1)

/*
 * The group's agreement, supplied by the binding (ARMCI: an
 * MPI_Allreduce over the group's communicator): replaces each of the @n
 * values by its maximum over the members.  Every member calls it the same
 * number of times.
 */
typedef xg_status_t (*xg_gas_agree_fn_t)(uint64_t *values, size_t n, void *arg);

/*
 * Collective over the members (all call it, each with its own @size):
 * allocates the largest size asked, at one address on every member, and
 * registers it.  *@region_p is NULL when every member asked for 0 bytes.
 * XG_ERR_NO_MEMORY on every member when some member's heap has no room
 * (nothing is logged: the caller names its routine and the room,
 * xg_gas_heap_diagnose); XG_ERR_NOT_INITIALIZED before init.
 */
XG_EXPORT xg_status_t xg_gas_region_alloc(size_t size, xg_gas_agree_fn_t agree,
                                          void *arg,
                                          xg_gas_region_t **region_p);

/* Collective again: completes this PE's operations on the region and
 * frees it.  The caller synchronizes the members first (no member may
 * still use it). */
XG_EXPORT xg_status_t xg_gas_region_free(xg_gas_region_t *region);

/* The region holding @addr (this PE's address), or NULL. */
xg_gas_region_t *xg_gas_region_find(const void *addr);
/* This PE's address of the region, and PE @pe's (valid PE). */
XG_EXPORT void *xg_gas_region_base(const xg_gas_region_t *region);
XG_EXPORT void *xg_gas_region_base_of(const xg_gas_region_t *region, int pe);
XG_EXPORT size_t xg_gas_region_size(const xg_gas_region_t *region);
/* The region's name, the same on every member (its partition offset). */
XG_EXPORT uint64_t xg_gas_region_id(const xg_gas_region_t *region);

/* 1 when PE @pe's regions are reached by loads and stores (the direct
 * route: the same node); 0 through the NIC. */
XG_EXPORT int xg_gas_region_direct(int pe);

/* Writes where @addr, PE @pe's address, lies relative to the regions as
 * PE @pe has them (for messages). */
XG_EXPORT void xg_gas_region_describe(const void *addr, int pe, char *buf,
                                      size_t len);

/* ---- transfers ---------------------------------------------------------- */

typedef enum xg_gas_xfer {
    XG_GAS_XFER_PUT, /* local src -> remote dst */
    XG_GAS_XFER_GET, /* remote src -> local dst */
    XG_GAS_XFER_ACC  /* remote dst += scale * local src, element-wise */
} xg_gas_xfer_t;

/* An accumulate's element type (integers, float, double and their
 * complex forms) and scale: one element of the type. */
typedef struct xg_gas_acc {
    xg_op_type_t type;
    _Alignas(16) uint8_t scale[16]; /* aligned for any element type */
} xg_gas_acc_t;

/*
 * A strided shape (ARMCI's): rows of count[0] bytes; level i (0-based)
 * repeats the shape below it count[i + 1] times, dst_stride[i] and
 * src_stride[i] bytes apart.  levels 0 is one contiguous row.
 */
typedef struct xg_gas_shape {
    int levels;
    size_t count[XG_GAS_SHAPE_MAX_LEVELS + 1];
    size_t dst_stride[XG_GAS_SHAPE_MAX_LEVELS];
    size_t src_stride[XG_GAS_SHAPE_MAX_LEVELS];
} xg_gas_shape_t;

/*
 * One transfer of @kind between PE @pe and this PE; @acc for
 * XG_GAS_XFER_ACC (NULL otherwise).  @pending_p NULL: blocking.
 * Otherwise the operation may stay in flight, and *@pending_p says where
 * (xg_gas_region_complete completes it); the local buffer must then stay
 * untouched until it completes.
 */
XG_EXPORT xg_status_t xg_gas_region_xfer(xg_gas_xfer_t kind,
                                         const xg_gas_acc_t *acc, void *dst,
                                         const void *src, size_t len, int pe,
                                         xg_gas_region_t **pending_p);
XG_EXPORT xg_status_t xg_gas_region_xfer_strided(
    xg_gas_xfer_t kind, const xg_gas_acc_t *acc, void *dst, const void *src,
    const xg_gas_shape_t *shape, int pe, xg_gas_region_t **pending_p);
/* @count segments of @len bytes: segment i moves between @dst[i] and
 * @src[i] (armci_giov_t); segments may lie in different regions. */
XG_EXPORT xg_status_t
xg_gas_region_xfer_vector(xg_gas_xfer_t kind, const xg_gas_acc_t *acc,
                          void *const *dst, const void *const *src, size_t len,
                          size_t count, int pe, xg_gas_region_t **pending_p);

/* Remote bytes a strided shape spans on the side @kind names remote
 * (dst for put and accumulate, src for get), or 0 with
 * XG_ERR_OUT_OF_BOUNDS in *@status_p when that overflows. */
XG_EXPORT size_t xg_gas_shape_extent(xg_gas_xfer_t kind,
                                     const xg_gas_shape_t *shape,
                                     xg_status_t *status_p);

/*
 * Read-modify-write of the @size-byte word (4 or 8) at @dst on @pe,
 * inside a region: XG_GAS_AMO_ADD (fetch-and-add) or XG_GAS_AMO_SWAP.
 * Returns the old value; complete when it returns.
 */
XG_EXPORT xg_gas_amo_result_t xg_gas_region_rmw(xg_gas_amo_t op, void *dst,
                                                size_t size, uint64_t value,
                                                int pe);

/* ---- completion --------------------------------------------------------- */

/* Completes every operation in flight on @region (XG_GAS_PENDING_MANY or
 * NULL: on every region). */
XG_EXPORT xg_status_t xg_gas_region_complete(xg_gas_region_t *region);

/* 1 when nothing is in flight on @region (as for complete). */
XG_EXPORT int xg_gas_region_test(xg_gas_region_t *region);

/* Every write of this PE to PE @pe (-1: to any PE) is complete at the
 * target. */
XG_EXPORT xg_status_t xg_gas_region_fence(int pe);

/* Serves the read-modify-writes other PEs sent this PE that wait for its
 * application thread (XGAS_AM_THREAD=0); cheap when there are none. */
XG_EXPORT void xg_gas_am_serve(void);

#endif
