/*
 * Atomic operations of the typed-operation table (base/xg_op.h) on one
 * element of symmetric memory, for the operations xg_gas_amo has no case
 * for (min, max, the logical ones...).  Out of line: not a fast path.
 */
#include "gas/xg_gas_nic.h"
#include "gas/xg_gas_ops.h"

xg_status_t xg_gas_amo_op(xg_gas_ctx_t *ctx, xg_op_t op, xg_op_type_t type,
                          void *dst, const void *src, void *fetch, int pe)
{
    size_t size = xg_op_type_size(type);
    xg_status_t status;
    void *ptr;

    (void)ctx; /* both routes complete before returning */
    if (!xg_op_valid(op, type)) {
        return XG_ERR_INVALID_PARAM;
    }
    if (((uintptr_t)dst & (size - 1)) != 0) {
        return XG_ERR_MISALIGNED;
    }
    ptr = xg_gas_translate(dst, size, pe);
    if (ptr == NULL) {
        status = xg_gas_diagnose(dst, size, pe);
        if (status != XG_OK) {
            return status;
        }
        return xg_gas_nic_reaches(pe)
                   ? xg_gas_nic_amo_op(op, type, dst, src, NULL, fetch, pe)
                   : XG_ERR_INTERNAL; /* translate and diagnose disagree */
    }
    if (!xg_op_atomic(op, type, ptr, src, NULL, fetch)) {
        return XG_ERR_UNSUPPORTED; /* wider than a CPU atomic */
    }
    return XG_OK;
}
