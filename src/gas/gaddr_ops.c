/*
 * Operations on global addresses (xg_gas_gaddr.h).
 */
#include "gas/xg_gas_gaddr.h"

/* The pointer for @len bytes at @gaddr if it is aligned to @align; else
 * NULL with the reason in *@status_p. */
static void *gaddr_resolve(xg_gaddr_t gaddr, size_t len, size_t align,
                           xg_status_t *status_p)
{
    void *ptr = xg_gas_resolve(gaddr, len, status_p);

    if ((ptr != NULL) && xg_unlikely(((uintptr_t)ptr & (align - 1)) != 0)) {
        *status_p = XG_ERR_MISALIGNED;
        return NULL;
    }
    return ptr;
}

int xg_gas_gaddr_pe(xg_gaddr_t gaddr)
{
    if (gaddr.ns == XG_NS_LOCAL) {
        return (xg_gas.npes == 0) ? -1 : xg_gas.me;
    }
    return (gaddr.ns <= (uint64_t)xg_gas.npes) ? (int)(gaddr.ns - 1) : -1;
}

xg_status_t xg_gas_gaddr_put(xg_gaddr_t dst, const void *src, size_t len,
                             size_t align)
{
    xg_status_t status;
    void *ptr = gaddr_resolve(dst, len, align, &status);

    if (ptr != NULL) {
        xg_gas_copy(ptr, src, len);
    }
    return status;
}

xg_status_t xg_gas_gaddr_get(void *dst, xg_gaddr_t src, size_t len,
                             size_t align)
{
    xg_status_t status;
    const void *ptr = gaddr_resolve(src, len, align, &status);

    if (ptr != NULL) {
        xg_gas_copy(dst, ptr, len);
    }
    return status;
}

xg_status_t xg_gas_gaddr_amo(xg_op_t op, xg_op_type_t type, xg_gaddr_t dst,
                             const void *operand, const void *compare,
                             void *fetch)
{
    size_t size = xg_op_type_size(type);
    xg_status_t status;
    void *ptr = gaddr_resolve(dst, size, size, &status);

    if ((ptr != NULL) &&
        !xg_op_atomic(op, type, ptr, operand, compare, fetch)) {
        status = XG_ERR_UNSUPPORTED;
    }
    return status;
}
