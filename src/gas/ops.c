/*
 * The slow paths of the gas operations (xg_gas_ops.h): full translation
 * and the route decision, strided transfers, and contexts.
 */
#include "gas/xg_gas_ops.h"

#include <stdio.h>
#include <string.h>

#include "base/xg_wait.h"
#include "gas/copy_int.h"
#include "gas/xg_gas_nic.h"

void xg_gas_ctx_init(xg_gas_ctx_t *ctx, int is_private)
{
    ctx->pending     = 0;
    ctx->ops         = 0;
    ctx->nic_issued  = 0;
    ctx->nic_retired = 0;
    ctx->lock = is_private ? XG_GAS_CTX_LOCK_NONE : XG_GAS_CTX_LOCK_ATOMIC;
}

void xg_gas_ctx_fini(xg_gas_ctx_t *ctx)
{
    xg_gas_ctx_quiet(ctx);
}

static void ctx_describe(const xg_wait_what_t *what, char *buf, size_t len)
{
    const xg_gas_ctx_t *ctx = what->arg;

    snprintf(buf, len,
             "waiting for %llu outstanding operations of context "
             "%p to complete",
             (unsigned long long)xg_gas_ctx_pending(ctx), (void *)ctx);
}

/* Waits until the operations of @ctx that other routes complete one by
 * one are done; @routine names the caller in hang reports. */
static void ctx_wait_ops(xg_gas_ctx_t *ctx, const char *routine)
{
    xg_wait_what_t what = {
        .routine = routine, .peer = -1, .describe = ctx_describe, .arg = ctx};
    xg_wait_t wait;

    xg_wait_init(&wait);
    xg_wait_watch(&wait, &what);
    while (__atomic_load_n(&ctx->ops, __ATOMIC_ACQUIRE) != 0) {
        xg_gas_wait_backoff(&wait);
    }
}

void xg_gas_ctx_complete(xg_gas_ctx_t *ctx)
{
    uint64_t target  = __atomic_load_n(&ctx->nic_issued, __ATOMIC_ACQUIRE);
    uint64_t retired = __atomic_load_n(&ctx->nic_retired, __ATOMIC_ACQUIRE);

    if (retired < target) {
        /* every operation issued through the NIC before this call -- the
         * first @target of the context's among them -- completes here
         * (batched ones counted in @target were added before it was read:
         * the completion sends them first) */
        (void)xg_gas_nic_complete(); /* a failure is logged there */
        while ((retired < target) && !__atomic_compare_exchange_n(
                                         &ctx->nic_retired, &retired, target, 0,
                                         __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        }
        if (retired < target) {
            __atomic_sub_fetch(&ctx->pending, target - retired,
                               __ATOMIC_RELEASE);
        }
    }
    ctx_wait_ops(ctx, "quiet");
    xg_gas_quiet();
}

void xg_gas_ctx_order(xg_gas_ctx_t *ctx)
{
    xg_gas_amo_batch_flush(-1);
    if (!xg_gas_nic_fence()) {
        xg_gas_ctx_complete(ctx);
        return;
    }
    ctx_wait_ops(ctx, "fence");
    xg_gas_fence();
}

/* Where (@addr, @len, @pe) is reached: */
typedef enum ops_route {
    OPS_NONE,   /* nowhere: *status_p says why, or length 0 (XG_OK) */
    OPS_DIRECT, /* at *ptr_p */
    OPS_NIC     /* through the NIC */
} ops_route_t;

static ops_route_t ops_target(const void *addr, size_t len, int pe,
                              void **ptr_p, xg_status_t *status_p)
{
    if (len == 0) {
        *status_p = (xg_gas.npes == 0) ? XG_ERR_NOT_INITIALIZED : XG_OK;
        return OPS_NONE;
    }
    *ptr_p = xg_gas_translate(addr, len, pe);
    if (*ptr_p != NULL) {
        *status_p = XG_OK;
        return OPS_DIRECT;
    }
    *status_p = xg_gas_diagnose(addr, len, pe);
    if (*status_p != XG_OK) {
        return OPS_NONE;
    }
    if (xg_gas_nic_reaches(pe)) {
        return OPS_NIC;
    }
    *status_p = XG_ERR_INTERNAL; /* translate and diagnose disagree */
    return OPS_NONE;
}

/* A put (@put) or get of @len bytes between local @local and symmetric
 * @remote on @pe: the direct route, else the NIC's (a put of a word or
 * less in the batch to @pe if @batch). */
static xg_status_t ops_rma(xg_gas_ctx_t *ctx, int put, int nbi, int batch,
                           void *local, const void *remote, size_t len, int pe)
{
    xg_status_t status;
    void *ptr = NULL;

    switch (ops_target(remote, len, pe, &ptr, &status)) {
    case OPS_DIRECT:
        if (put) {
            xg_gas_copy(ptr, local, len);
        } else {
            xg_gas_copy(local, ptr, len);
        }
        break;
    case OPS_NIC:
        if (!put || !batch ||
            !xg_gas_put_batch_add(ctx, (void *)remote, local, len, pe,
                                  &status)) {
            status = xg_gas_nic_rma(ctx, put, nbi, local, remote, len, pe);
        }
        break;
    case OPS_NONE: break;
    }
    return status;
}

xg_status_t xg_gas_put_slow(xg_gas_ctx_t *ctx, void *dst, const void *src,
                            size_t len, int pe)
{
    return ops_rma(ctx, 1, 0, 1, (void *)src, dst, len, pe);
}

xg_status_t xg_gas_put_unbatched(xg_gas_ctx_t *ctx, void *dst, const void *src,
                                 size_t len, int pe)
{
    return ops_rma(ctx, 1, 0, 0, (void *)src, dst, len, pe);
}

xg_status_t xg_gas_get_slow(xg_gas_ctx_t *ctx, void *dst, const void *src,
                            size_t len, int pe)
{
    return ops_rma(ctx, 0, 0, 0, dst, src, len, pe);
}

xg_status_t xg_gas_put_nbi_slow(xg_gas_ctx_t *ctx, void *dst, const void *src,
                                size_t len, int pe)
{
    return ops_rma(ctx, 1, 1, 1, (void *)src, dst, len, pe);
}

xg_status_t xg_gas_get_nbi_slow(xg_gas_ctx_t *ctx, void *dst, const void *src,
                                size_t len, int pe)
{
    return ops_rma(ctx, 0, 1, 0, dst, src, len, pe);
}

xg_gas_amo_result_t xg_gas_amo_slow(xg_gas_ctx_t *ctx, xg_gas_amo_t op,
                                    void *dst, size_t size, uint64_t value,
                                    uint64_t cond, int pe)
{
    xg_gas_amo_result_t result = {0, XG_ERR_MISALIGNED};
    void *ptr;

    (void)ctx;
    if (((uintptr_t)dst & (size - 1)) != 0) {
        return result;
    }
    switch (ops_target(dst, size, pe, &ptr, &result.status)) {
    case OPS_DIRECT:
        result.old = xg_gas_amo_apply(op, ptr, size, value, cond);
        break;
    case OPS_NIC:
        result = xg_gas_nic_amo(op, dst, size, value, cond, pe);
        break;
    case OPS_NONE: break;
    }
    return result;
}

xg_status_t xg_gas_amo_nbi_slow(xg_gas_ctx_t *ctx, xg_gas_amo_t op, void *dst,
                                size_t size, uint64_t value, int pe)
{
    xg_status_t status = XG_ERR_MISALIGNED;
    void *ptr;

    if (((uintptr_t)dst & (size - 1)) != 0) {
        return status;
    }
    switch (ops_target(dst, size, pe, &ptr, &status)) {
    case OPS_DIRECT: (void)xg_gas_amo_apply(op, ptr, size, value, 0); break;
    case OPS_NIC:
        if (!xg_gas_amo_batch_add(ctx, op, dst, size, value, pe, &status)) {
            status = xg_gas_nic_amo_nbi(ctx, op, dst, size, value, pe);
        }
        break;
    case OPS_NONE: break;
    }
    return status;
}

/* Where this PE reaches the counterpart of its internal-area @addr on
 * @pe, or NULL when @pe is reached through the NIC. */
static void *ops_area(const void *addr, int pe)
{
    const xg_ns_entry_t *entry = &xg_gas.table[pe + 1];

    if (entry->route != XG_GAS_ROUTE_DIRECT) {
        return NULL;
    }
    return (void *)(entry->base + ((uintptr_t)addr - xg_gas.heap_lo));
}

xg_gas_amo_result_t xg_gas_area_amo(xg_gas_amo_t op, void *word, uint64_t value,
                                    int pe)
{
    xg_gas_amo_result_t result = {0, XG_OK};
    void *ptr                  = ops_area(word, pe);

    if (ptr == NULL) {
        return xg_gas_nic_amo(op, word, sizeof(uint64_t), value, 0, pe);
    }
    result.old = xg_gas_amo_apply(op, ptr, sizeof(uint64_t), value, 0);
    return result;
}

xg_status_t xg_gas_area_amo_nbi(xg_gas_ctx_t *ctx, xg_gas_amo_t op, void *word,
                                uint64_t value, int pe)
{
    void *ptr = ops_area(word, pe);

    if (ptr == NULL) {
        return xg_gas_nic_amo_nbi(ctx, op, word, sizeof(uint64_t), value, pe);
    }
    (void)xg_gas_amo_apply(op, ptr, sizeof(uint64_t), value, 0);
    return XG_OK;
}

xg_status_t xg_gas_area_write_ordered(xg_gas_ctx_t *ctx, void *word,
                                      uint64_t value, int pe)
{
    if (ops_area(word, pe) != NULL) {
        return XG_ERR_UNSUPPORTED; /* reached by load/store: an atomic */
    }
    return xg_gas_nic_write_ordered(ctx, word, value, pe);
}

xg_status_t xg_gas_area_get(void *dst, const void *src, size_t len, int pe)
{
    const void *ptr = ops_area(src, pe);

    if (ptr == NULL) {
        /* blocking: no context counts it */
        return xg_gas_nic_rma(NULL, 0, 0, dst, src, len, pe);
    }
    memcpy(dst, ptr, len);
    return XG_OK;
}

xg_status_t xg_gas_area_put(xg_gas_ctx_t *ctx, void *dst, const void *src,
                            size_t len, int pe)
{
    void *ptr = ops_area(dst, pe);

    if (ptr == NULL) {
        return xg_gas_nic_rma(ctx, 1, 0, (void *)src, dst, len, pe);
    }
    memcpy(ptr, src, len);
    return XG_OK;
}

xg_status_t xg_gas_area_get_nbi(xg_gas_ctx_t *ctx, void *dst, const void *src,
                                size_t len, int pe)
{
    const void *ptr = ops_area(src, pe);

    if (ptr == NULL) {
        return xg_gas_nic_rma(ctx, 0, 1, dst, src, len, pe);
    }
    memcpy(dst, ptr, len);
    return XG_OK;
}

/*
 * The remote side's extent ((count - 1) * stride + elem bytes) is
 * translated once, so the loop only copies (xg_gas_copy_strided: elements
 * of a common small size with a fixed-size move, others with memcpy).
 */
static xg_status_t ops_strided(int put, void *dst, const void *src, size_t elem,
                               ptrdiff_t dst_stride, ptrdiff_t src_stride,
                               size_t count, int pe)
{
    ptrdiff_t stride = put ? dst_stride : src_stride;
    size_t extent;
    xg_status_t status;
    ops_route_t route;
    void *remote = NULL;
    char *to;
    const char *from;

    if ((count == 0) || (elem == 0)) {
        return (xg_gas.npes == 0) ? XG_ERR_NOT_INITIALIZED : XG_OK;
    }
    if ((dst_stride < 1) || (src_stride < 1)) {
        return XG_ERR_INVALID_PARAM;
    }
    if (__builtin_mul_overflow(count - 1, (size_t)stride, &extent) ||
        __builtin_add_overflow(extent, elem, &extent)) {
        return XG_ERR_OUT_OF_BOUNDS;
    }
    route = ops_target(put ? dst : src, extent, pe, &remote, &status);
    if (route == OPS_NIC) {
        return xg_gas_nic_strided(put, dst, src, elem, dst_stride, src_stride,
                                  count, pe);
    }
    if (status != XG_OK) {
        return status;
    }
    to   = put ? remote : dst;
    from = put ? src : remote;
    xg_gas_copy_strided(to, dst_stride, from, src_stride, elem, count);
    return XG_OK;
}

xg_status_t xg_gas_iput(xg_gas_ctx_t *ctx, void *dst, const void *src,
                        size_t elem, ptrdiff_t dst_stride, ptrdiff_t src_stride,
                        size_t count, int pe)
{
    (void)ctx;
    return ops_strided(1, dst, src, elem, dst_stride, src_stride, count, pe);
}

xg_status_t xg_gas_iget(xg_gas_ctx_t *ctx, void *dst, const void *src,
                        size_t elem, ptrdiff_t dst_stride, ptrdiff_t src_stride,
                        size_t count, int pe)
{
    (void)ctx;
    return ops_strided(0, dst, src, elem, dst_stride, src_stride, count, pe);
}
