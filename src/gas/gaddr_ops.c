/*
 * Operations on global addresses (xg_gas_gaddr.h).
 */
#include "gas/xg_gas_gaddr.h"

#include "gas/xg_gas_nic.h"
#include "gas/xg_gas_ops.h"

/* The context of the native API's operations on PEs reached through the
 * NIC route: a small put to another node may still be on its way when it
 * returns (xg_gas_gaddr_quiet completes it). */
static xg_gas_ctx_t gaddr_ctx = XG_GAS_CTX_INIT_SHARED;

void xg_gas_gaddr_fence(void)
{
    xg_gas_ctx_fence(&gaddr_ctx);
}

void xg_gas_gaddr_quiet(void)
{
    xg_gas_ctx_quiet(&gaddr_ctx);
}

/* The PE of a namespace that is reached through the NIC (another node, or
 * XGAS_ROUTE=nic) and, in *sym_p, the symmetric address in this PE's view
 * that names the same object as partition offset @gaddr.off -- what the
 * NIC route takes; -1 if @gaddr is not on such a PE, or names no object
 * (the caller then reports the status it has). */
static int gaddr_remote(xg_gaddr_t gaddr, size_t len, size_t align,
                        void **sym_p, xg_status_t *status_p)
{
    int pe       = xg_gas_gaddr_pe(gaddr);
    uint64_t off = gaddr.off;

    if ((gaddr.ns == XG_NS_LOCAL) || (pe < 0) || !xg_gas_nic_reaches(pe)) {
        return -1;
    }
    if (off < xg_mem.heap_size) {
        *sym_p = (void *)(xg_gas.heap_lo + off);
    } else if ((off >= xg_gas.data_off) &&
               (off - xg_gas.data_off < xg_gas.data_size)) {
        *sym_p = (void *)(xg_gas.data_lo + (off - xg_gas.data_off));
    } else {
        *status_p = XG_ERR_OUT_OF_BOUNDS;
        return -1;
    }
    /* partitions are aligned far beyond any element: the offset's
     * alignment is the target address's */
    if ((off & (align - 1)) != 0) {
        *status_p = XG_ERR_MISALIGNED;
        return -1;
    }
    *status_p = xg_gas_diagnose(*sym_p, len, pe);
    return (*status_p == XG_OK) ? pe : -1;
}

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
    void *sym;
    int pe;

    if (ptr != NULL) {
        xg_gas_copy(ptr, src, len);
    } else if ((pe = gaddr_remote(dst, len, align, &sym, &status)) >= 0) {
        status = xg_gas_nic_rma(&gaddr_ctx, 1, 0, (void *)src, sym, len, pe);
    }
    return status;
}

xg_status_t xg_gas_gaddr_get(void *dst, xg_gaddr_t src, size_t len,
                             size_t align)
{
    xg_status_t status;
    const void *ptr = gaddr_resolve(src, len, align, &status);
    void *sym;
    int pe;

    if (ptr != NULL) {
        xg_gas_copy(dst, ptr, len);
    } else if ((pe = gaddr_remote(src, len, align, &sym, &status)) >= 0) {
        status = xg_gas_nic_rma(&gaddr_ctx, 0, 0, dst, sym, len, pe);
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
    void *sym;
    int pe;

    if (ptr != NULL) {
        if (!xg_op_atomic(op, type, ptr, operand, compare, fetch)) {
            status = XG_ERR_UNSUPPORTED;
        }
    } else if ((pe = gaddr_remote(dst, size, size, &sym, &status)) >= 0) {
        status = xg_gas_nic_amo_op(op, type, sym, operand, compare, fetch, pe);
    }
    return status;
}
