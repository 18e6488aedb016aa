/**
 * @file xgas.h
 * @brief The native xgas API: a 128-bit global address space (xBGAS).
 *
 * A global address is a pair (namespace, offset).  Namespace 0 always means
 * local memory: the offset is an ordinary pointer of the calling process.
 * Namespace pe + 1 names the symmetric memory of PE @c pe; build such
 * addresses with xg_gaddr() from any symmetric address (heap object from
 * xg_malloc() or shmem_malloc(), or a global/static variable).
 *
 * Transfers of one register-width element (1, 2, 4 or 8 bytes, naturally
 * aligned) take the single-element path, a single load or store; anything
 * larger takes the bulk path, one memory copy.  Every routine returns an
 * ::xg_status_t; on error nothing was transferred and the library logs why.
 *
 * This header is usable together with shmem.h: both APIs share one runtime
 * and one symmetric heap.
 */
#ifndef XGAS_H
#define XGAS_H

#include <stddef.h>
#include <stdint.h>

#include "xgas_status.h"
#include "xgas_version.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A 128-bit global address. */
typedef struct xg_gaddr {
    uint64_t ns; /**< namespace: 0 = local, pe + 1 = PE pe's symmetric memory */
    uint64_t off; /**< offset inside the namespace (a pointer when ns == 0) */
} xg_gaddr_t;

#define XG_NS_LOCAL 0

/** Atomic operations of xg_atomic_fetch_op32/64(). */
typedef enum xg_amo_op {
    XG_AMO_ADD, /**< *addr += operand */
    XG_AMO_AND, /**< *addr &= operand */
    XG_AMO_OR,  /**< *addr |= operand */
    XG_AMO_XOR, /**< *addr ^= operand */
    XG_AMO_SWAP /**< *addr  = operand */
} xg_amo_op_t;

/**
 * @brief Joins the job (or starts a single-PE job without a launcher).
 * Collective. May be called more than once; each call needs an xg_fini().
 * @return XG_OK, or an error after logging the reason.
 */
xg_status_t xg_init(void);

/** @brief Leaves the job (collective; waits for every PE). */
xg_status_t xg_fini(void);

/** @return this PE's number, 0..xg_size()-1 (-1 before xg_init). */
int xg_rank(void);

/** @return the number of PEs in the job (0 before xg_init). */
int xg_size(void);

/** @brief A global address naming local memory (namespace 0). */
static inline xg_gaddr_t xg_gaddr_local(void *ptr)
{
    xg_gaddr_t gaddr = {XG_NS_LOCAL, (uint64_t)(uintptr_t)ptr};
    return gaddr;
}

/** @brief @p gaddr moved by @p delta bytes within its namespace. */
static inline xg_gaddr_t xg_gaddr_add(xg_gaddr_t gaddr, int64_t delta)
{
    gaddr.off += (uint64_t)delta;
    return gaddr;
}

/**
 * @brief The global address of symmetric object @p sym on PE @p pe.
 * @param [in]  sym      address of a symmetric object in this PE
 * @param [in]  pe       target PE
 * @param [out] gaddr_p  the global address
 * @return XG_OK, XG_ERR_PE_RANGE, XG_ERR_NOT_SYMMETRIC.
 */
xg_status_t xg_gaddr(const void *sym, int pe, xg_gaddr_t *gaddr_p);

/**
 * @brief A pointer through which this process reads and writes @p gaddr
 * with ordinary loads and stores, or NULL if it cannot (invalid address).
 */
void *xg_gaddr_ptr(xg_gaddr_t gaddr);

/** @return the PE owning @p gaddr (this PE for namespace 0), or -1. */
int xg_gaddr_pe(xg_gaddr_t gaddr);

/** @name Single-element transfers (one register-width load or store) */
/**@{*/
xg_status_t xg_put8(xg_gaddr_t dst, uint8_t value);
xg_status_t xg_put16(xg_gaddr_t dst, uint16_t value);
xg_status_t xg_put32(xg_gaddr_t dst, uint32_t value);
xg_status_t xg_put64(xg_gaddr_t dst, uint64_t value);
xg_status_t xg_get8(xg_gaddr_t src, uint8_t *value_p);
xg_status_t xg_get16(xg_gaddr_t src, uint16_t *value_p);
xg_status_t xg_get32(xg_gaddr_t src, uint32_t *value_p);
xg_status_t xg_get64(xg_gaddr_t src, uint64_t *value_p);
/**@}*/

/**
 * @brief Copies @p len bytes from local @p src to global @p dst.
 * Single-element path for one aligned element, bulk path otherwise.
 * The data is visible at the target after xg_quiet().
 */
xg_status_t xg_put(xg_gaddr_t dst, const void *src, size_t len);

/** @brief Copies @p len bytes from global @p src to local @p dst. */
xg_status_t xg_get(void *dst, xg_gaddr_t src, size_t len);

/**
 * @brief Atomic read-modify-write of a naturally aligned 32/64-bit word.
 * @param [out] old_p  the previous value (may be NULL)
 * @return XG_OK, XG_ERR_MISALIGNED, XG_ERR_INVALID_PARAM (bad @p op) or an
 *         addressing error.
 */
xg_status_t xg_atomic_fetch_op32(xg_gaddr_t dst, xg_amo_op_t op,
                                 uint32_t operand, uint32_t *old_p);
xg_status_t xg_atomic_fetch_op64(xg_gaddr_t dst, xg_amo_op_t op,
                                 uint64_t operand, uint64_t *old_p);

/** @brief Atomic compare-and-swap; *old_p receives the previous value. */
xg_status_t xg_atomic_cswap32(xg_gaddr_t dst, uint32_t expected,
                              uint32_t desired, uint32_t *old_p);
xg_status_t xg_atomic_cswap64(xg_gaddr_t dst, uint64_t expected,
                              uint64_t desired, uint64_t *old_p);

/** @brief Atomic load and store of an aligned 32/64-bit word. */
xg_status_t xg_atomic_load32(xg_gaddr_t src, uint32_t *value_p);
xg_status_t xg_atomic_load64(xg_gaddr_t src, uint64_t *value_p);
xg_status_t xg_atomic_store32(xg_gaddr_t dst, uint32_t value);
xg_status_t xg_atomic_store64(xg_gaddr_t dst, uint64_t value);

/** @brief Orders earlier puts to each PE before later ones. */
void xg_fence(void);

/** @brief Completes every earlier put, get and atomic of this PE. */
void xg_quiet(void);

/** @brief Waits until every PE has called it; completes this PE's puts. */
void xg_barrier(void);

/**
 * @brief Collective symmetric allocation (same call on every PE).
 * @return XG_OK, XG_ERR_NO_MEMORY when the heap (SHMEM_SYMMETRIC_SIZE) is
 *         exhausted, XG_ERR_INVALID_PARAM for size 0.
 */
xg_status_t xg_malloc(size_t size, void **ptr_p);

/** @brief Collective free of an xg_malloc() or shmem_malloc() object. */
xg_status_t xg_free(void *ptr);

#ifdef __cplusplus
}
#endif

#endif
