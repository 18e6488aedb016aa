/*
 * The native API of include/xgas.h: thin wrappers that resolve a global
 * address and perform one load, store, copy or CPU atomic (the atomics
 * through the typed-operation table, base/xg_op.h).  Errors are
 * returned (and logged once, here), never fatal: the native API leaves the
 * policy to the caller, unlike OpenSHMEM which aborts.
 */
#include <string.h>

#include "base/xg_log.h"
#include "base/xg_op.h"
#include "gas/xg_gas.h"
#include "gas/xg_runtime.h"
#include "xgas.h"

XG_EXPORT xg_status_t xg_init(void)
{
    return xg_runtime_init();
}

XG_EXPORT xg_status_t xg_fini(void)
{
    return xg_runtime_fini();
}

XG_EXPORT int xg_rank(void)
{
    return (xg_gas.npes == 0) ? -1 : xg_gas.me;
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
    if (gaddr.ns == XG_NS_LOCAL) {
        return xg_rank();
    }
    return (gaddr.ns <= (uint64_t)xg_gas.npes) ? (int)(gaddr.ns - 1) : -1;
}

/* Resolves @gaddr for @len bytes, logging a failure on behalf of @routine. */
static void *api_resolve(const char *routine, xg_gaddr_t gaddr, size_t len,
                         size_t align, xg_status_t *status_p)
{
    void *ptr = xg_gas_resolve(gaddr, len, status_p);

    if (xg_unlikely(ptr == NULL)) {
        xg_error("gas", "%s: global address (ns %llu, offset %#llx), %zu "
                 "bytes: %s", routine, (unsigned long long)gaddr.ns,
                 (unsigned long long)gaddr.off, len,
                 xg_status_str(*status_p));
        return NULL;
    }
    if (xg_unlikely(((uintptr_t)ptr & (align - 1)) != 0)) {
        xg_error("gas", "%s: global address (ns %llu, offset %#llx) is not "
                 "aligned to %zu bytes", routine,
                 (unsigned long long)gaddr.ns, (unsigned long long)gaddr.off,
                 align);
        *status_p = XG_ERR_MISALIGNED;
        return NULL;
    }
    return ptr;
}

/* Single-element transfers: one naturally aligned load or store. */
#define XG_API_SINGLE(bits)                                                  \
    XG_EXPORT xg_status_t xg_put##bits(xg_gaddr_t dst, uint##bits##_t value) \
    {                                                                        \
        xg_status_t status;                                                  \
        uint##bits##_t *ptr = api_resolve(__func__, dst, sizeof(value),      \
                                          sizeof(value), &status);           \
        if (ptr != NULL) {                                                   \
            *(volatile uint##bits##_t *)ptr = value;                         \
        }                                                                    \
        return status;                                                       \
    }                                                                        \
    XG_EXPORT xg_status_t xg_get##bits(xg_gaddr_t src,                       \
                                       uint##bits##_t *value_p)              \
    {                                                                        \
        xg_status_t status;                                                  \
        uint##bits##_t *ptr = api_resolve(__func__, src, sizeof(*value_p),   \
                                          sizeof(*value_p), &status);        \
        if (ptr != NULL) {                                                   \
            *value_p = *(volatile uint##bits##_t *)ptr;                      \
        }                                                                    \
        return status;                                                       \
    }

XG_API_SINGLE(8)
XG_API_SINGLE(16)
XG_API_SINGLE(32)
XG_API_SINGLE(64)

XG_EXPORT xg_status_t xg_put(xg_gaddr_t dst, const void *src, size_t len)
{
    xg_status_t status = XG_OK;
    void *ptr;

    if (len == 0) {
        return XG_OK;
    }
    ptr = api_resolve(__func__, dst, len, 1, &status);
    if (ptr != NULL) {
        xg_gas_copy(ptr, src, len);
    }
    return status;
}

XG_EXPORT xg_status_t xg_get(void *dst, xg_gaddr_t src, size_t len)
{
    xg_status_t status = XG_OK;
    void *ptr;

    if (len == 0) {
        return XG_OK;
    }
    ptr = api_resolve(__func__, src, len, 1, &status);
    if (ptr != NULL) {
        xg_gas_copy(dst, ptr, len);
    }
    return status;
}

/* The table's operation for each xg_amo_op_t. */
static const xg_op_t api_amo_ops[] = {
    [XG_AMO_ADD] = XG_OP_SUM, [XG_AMO_AND] = XG_OP_BAND,
    [XG_AMO_OR] = XG_OP_BOR,  [XG_AMO_XOR] = XG_OP_BXOR,
    [XG_AMO_SWAP] = XG_OP_SWAP,
};

/* One atomic operation of the table on a word of @size bytes at @dst;
 * @routine names the caller in messages. */
static xg_status_t api_atomic(const char *routine, xg_gaddr_t dst,
                              size_t size, xg_op_t op, const void *operand,
                              const void *compare, void *old_p)
{
    xg_status_t status;
    void *ptr = api_resolve(routine, dst, size, size, &status);

    if (ptr != NULL) {
        xg_op_atomic(op, (size == 4) ? XG_TYPE_U32 : XG_TYPE_U64, ptr,
                     operand, compare, old_p);
    }
    return status;
}

#define XG_API_ATOMICS(bits)                                                 \
    XG_EXPORT xg_status_t xg_atomic_fetch_op##bits(                          \
        xg_gaddr_t dst, xg_amo_op_t op, uint##bits##_t operand,              \
        uint##bits##_t *old_p)                                               \
    {                                                                        \
        if ((unsigned)op > XG_AMO_SWAP) {                                    \
            xg_error("gas", "%s: unknown operation %d", __func__, (int)op);  \
            return XG_ERR_INVALID_PARAM;                                     \
        }                                                                    \
        return api_atomic(__func__, dst, sizeof(operand), api_amo_ops[op],   \
                          &operand, NULL, old_p);                            \
    }                                                                        \
    XG_EXPORT xg_status_t xg_atomic_cswap##bits(                             \
        xg_gaddr_t dst, uint##bits##_t expected, uint##bits##_t desired,     \
        uint##bits##_t *old_p)                                               \
    {                                                                        \
        return api_atomic(__func__, dst, sizeof(desired), XG_OP_CSWAP,       \
                          &desired, &expected, old_p);                       \
    }                                                                        \
    XG_EXPORT xg_status_t xg_atomic_load##bits(xg_gaddr_t src,               \
                                               uint##bits##_t *value_p)      \
    {                                                                        \
        return api_atomic(__func__, src, sizeof(*value_p), XG_OP_FETCH,      \
                          NULL, NULL, value_p);                              \
    }                                                                        \
    XG_EXPORT xg_status_t xg_atomic_store##bits(xg_gaddr_t dst,              \
                                                uint##bits##_t value)        \
    {                                                                        \
        return api_atomic(__func__, dst, sizeof(value), XG_OP_SWAP, &value,  \
                          NULL, NULL);                                       \
    }

XG_API_ATOMICS(32)
XG_API_ATOMICS(64)

XG_EXPORT void xg_fence(void)
{
    xg_gas_fence();
}

XG_EXPORT void xg_quiet(void)
{
    xg_gas_quiet();
}

XG_EXPORT void xg_barrier(void)
{
    xg_gas_quiet();
    xg_gas_barrier();
}

XG_EXPORT xg_status_t xg_malloc(size_t size, void **ptr_p)
{
    xg_status_t status = xg_gas_alloc(size, XG_HEAP_MIN_ALIGN, ptr_p);

    if (status == XG_ERR_NO_MEMORY) {
        xg_error("gas", "xg_malloc(%zu): the symmetric heap is exhausted "
                 "(largest free block %llu bytes); raise "
                 "SHMEM_SYMMETRIC_SIZE", size,
                 (unsigned long long)xg_heap_largest_free(&xg_mem.heap));
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
