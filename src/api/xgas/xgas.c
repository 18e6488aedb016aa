/*
 * The native API of include/xgas.h, a binding over gas: argument checks,
 * then one gas operation on the global address (gas/xg_gas_gaddr.h).
 * Errors are returned and logged once, here, never fatal: the native API
 * leaves the policy to the caller, unlike OpenSHMEM which aborts.
 */
#include "base/xg_log.h"
#include "base/xg_op.h"
#include "gas/xg_gas.h"
#include "gas/xg_gas_gaddr.h"
#include "mem/xg_heap.h"
#include "runtime/xg_runtime.h"
#include "xgas.h"

XG_EXPORT xg_status_t xg_init(void)
{
    return xg_runtime_init(XG_RUNTIME_PGAS);
}

XG_EXPORT xg_status_t xg_fini(void)
{
    return xg_runtime_fini(XG_RUNTIME_PGAS);
}

XG_EXPORT int xg_rank(void)
{
    return xg_gas_gaddr_pe(xg_gaddr_local(NULL)); /* who owns local memory */
}

XG_EXPORT int xg_size(void)
{
    return xg_gas.npes;
}

XG_EXPORT xg_status_t xg_gaddr(const void *sym, int pe, xg_gaddr_t *gaddr_p)
{
    xg_status_t status = xg_gas_make(sym, pe, gaddr_p);

    if (status != XG_OK) {
        xg_error("gas", "xg_gaddr(%p, pe %d): %s", sym, pe,
                 xg_status_str(status));
    }
    return status;
}

XG_EXPORT void *xg_gaddr_ptr(xg_gaddr_t gaddr)
{
    xg_status_t status;

    return xg_gas_resolve(gaddr, 1, &status);
}

XG_EXPORT int xg_gaddr_pe(xg_gaddr_t gaddr)
{
    return xg_gas_gaddr_pe(gaddr);
}

/* Logs the failure @status of @routine on @len bytes at @gaddr, which had
 * to be aligned to @align; returns @status. */
XG_NOINLINE static xg_status_t native_failed(const char *routine,
                                             xg_gaddr_t gaddr, size_t len,
                                             size_t align, xg_status_t status)
{
    if (status == XG_ERR_MISALIGNED) {
        xg_error("gas",
                 "%s: global address (ns %llu, offset %#llx) is not "
                 "aligned to %zu bytes",
                 routine, (unsigned long long)gaddr.ns,
                 (unsigned long long)gaddr.off, align);
    } else {
        xg_error("gas",
                 "%s: global address (ns %llu, offset %#llx), %zu "
                 "bytes: %s",
                 routine, (unsigned long long)gaddr.ns,
                 (unsigned long long)gaddr.off, len, xg_status_str(status));
    }
    return status;
}

/* @status of @routine's operation on @len bytes at @gaddr (aligned to
 * @align), logged if it is a failure. */
static inline xg_status_t native_status(const char *routine, xg_gaddr_t gaddr,
                                        size_t len, size_t align,
                                        xg_status_t status)
{
    if (xg_unlikely(status != XG_OK)) {
        return native_failed(routine, gaddr, len, align, status);
    }
    return XG_OK;
}

/* Single-element transfers: one naturally aligned load or store. */
#define XG_API_SINGLE(bits)                                                   \
    XG_EXPORT xg_status_t xg_put##bits(xg_gaddr_t dst, uint##bits##_t value)  \
    {                                                                         \
        return native_status(                                                 \
            __func__, dst, sizeof(value), sizeof(value),                      \
            xg_gas_gaddr_put(dst, &value, sizeof(value), sizeof(value)));     \
    }                                                                         \
    XG_EXPORT xg_status_t xg_get##bits(xg_gaddr_t src,                        \
                                       uint##bits##_t *value_p)               \
    {                                                                         \
        return native_status(__func__, src, sizeof(*value_p),                 \
                             sizeof(*value_p),                                \
                             xg_gas_gaddr_get(value_p, src, sizeof(*value_p), \
                                              sizeof(*value_p)));             \
    }

XG_API_SINGLE(8)
XG_API_SINGLE(16)
XG_API_SINGLE(32)
XG_API_SINGLE(64)

XG_EXPORT xg_status_t xg_put(xg_gaddr_t dst, const void *src, size_t len)
{
    if (len == 0) {
        return XG_OK;
    }
    return native_status(__func__, dst, len, 1,
                         xg_gas_gaddr_put(dst, src, len, 1));
}

XG_EXPORT xg_status_t xg_get(void *dst, xg_gaddr_t src, size_t len)
{
    if (len == 0) {
        return XG_OK;
    }
    return native_status(__func__, src, len, 1,
                         xg_gas_gaddr_get(dst, src, len, 1));
}

/* The table's operation for each xg_amo_op_t. */
static const xg_op_t native_amo_ops[] = {
    [XG_AMO_ADD] = XG_OP_SUM,   [XG_AMO_AND] = XG_OP_BAND,
    [XG_AMO_OR] = XG_OP_BOR,    [XG_AMO_XOR] = XG_OP_BXOR,
    [XG_AMO_SWAP] = XG_OP_SWAP,
};

/* One atomic operation of the table on a word of @size bytes at @dst;
 * @routine names the caller in messages. */
static xg_status_t native_atomic(const char *routine, xg_gaddr_t dst,
                                 size_t size, xg_op_t op, const void *operand,
                                 const void *compare, void *old_p)
{
    return native_status(
        routine, dst, size, size,
        xg_gas_gaddr_amo(op, (size == 4) ? XG_TYPE_U32 : XG_TYPE_U64, dst,
                         operand, compare, old_p));
}

#define XG_API_ATOMICS(bits)                                                   \
    XG_EXPORT xg_status_t xg_atomic_fetch_op##bits(                            \
        xg_gaddr_t dst, xg_amo_op_t op, uint##bits##_t operand,                \
        uint##bits##_t *old_p)                                                 \
    {                                                                          \
        if ((unsigned)op > XG_AMO_SWAP) {                                      \
            xg_error("gas", "%s: unknown operation %d", __func__, (int)op);    \
            return XG_ERR_INVALID_PARAM;                                       \
        }                                                                      \
        return native_atomic(__func__, dst, sizeof(operand),                   \
                             native_amo_ops[op], &operand, NULL, old_p);       \
    }                                                                          \
    XG_EXPORT xg_status_t xg_atomic_cswap##bits(                               \
        xg_gaddr_t dst, uint##bits##_t expected, uint##bits##_t desired,       \
        uint##bits##_t *old_p)                                                 \
    {                                                                          \
        return native_atomic(__func__, dst, sizeof(desired), XG_OP_CSWAP,      \
                             &desired, &expected, old_p);                      \
    }                                                                          \
    XG_EXPORT xg_status_t xg_atomic_load##bits(xg_gaddr_t src,                 \
                                               uint##bits##_t *value_p)        \
    {                                                                          \
        return native_atomic(__func__, src, sizeof(*value_p), XG_OP_FETCH,     \
                             NULL, NULL, value_p);                             \
    }                                                                          \
    XG_EXPORT xg_status_t xg_atomic_store##bits(xg_gaddr_t dst,                \
                                                uint##bits##_t value)          \
    {                                                                          \
        return native_atomic(__func__, dst, sizeof(value), XG_OP_SWAP, &value, \
                             NULL, NULL);                                      \
    }

XG_API_ATOMICS(32)
XG_API_ATOMICS(64)

XG_EXPORT void xg_fence(void)
{
    xg_gas_gaddr_fence();
}

XG_EXPORT void xg_quiet(void)
{
    xg_gas_gaddr_quiet();
}

XG_EXPORT void xg_barrier(void)
{
    xg_gas_gaddr_quiet();
    xg_gas_barrier();
}

XG_EXPORT xg_status_t xg_malloc(size_t size, void **ptr_p)
{
    xg_status_t status = xg_gas_alloc(size, XG_HEAP_MIN_ALIGN, ptr_p);
    xg_gas_heap_diag_t heap;

    if (status == XG_ERR_NO_MEMORY) {
        xg_gas_heap_diagnose(size, &heap);
        xg_error("gas",
                 "xg_malloc(%zu): the symmetric heap is exhausted "
                 "(largest free block %llu bytes); raise "
                 "SHMEM_SYMMETRIC_SIZE",
                 size, (unsigned long long)heap.largest_free);
    }
    xg_gas_barrier();
    return status;
}

XG_EXPORT xg_status_t xg_free(void *ptr)
{
    xg_status_t status;

    xg_gas_barrier();
    status = xg_gas_free(ptr);
    if (status != XG_OK) {
        xg_error("gas", "xg_free(%p): not an object of the symmetric heap",
                 ptr);
    }
    return status;
}
