/*
 * The check of a message of batched atomics (xg_gas_amo_wire.h).
 */
#include "gas/xg_gas_amo_wire.h"

/* the operations the records may carry: xg_gas_amo_t's first four */
#define AMO_WIRE_LAST_OP 3u

size_t xg_gas_amo_msg_check(const void *data, size_t len, uint64_t part_size)
{
    const xg_gas_amo_rec_t *rec = data;
    size_t n                    = len / sizeof(*rec), i;
    const uint64_t known        = XG_GAS_AMO_REC_OFFSET_MASK |
                           (UINT64_C(0xf) << XG_GAS_AMO_REC_OP_SHIFT) |
                           XG_GAS_AMO_REC_WORD32;

    if ((len == 0) || (len % sizeof(*rec) != 0) || (n > XG_GAS_AMO_REC_MAX) ||
        (((uintptr_t)data % sizeof(uint64_t)) != 0)) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        uint64_t off = xg_gas_amo_rec_offset(&rec[i]);
        size_t size  = xg_gas_amo_rec_size(&rec[i]);

        if (((rec[i].where & ~known) != 0) ||
            (xg_gas_amo_rec_op(&rec[i]) > AMO_WIRE_LAST_OP) ||
            (off % size != 0) || (size > part_size) ||
            (off > part_size - size) ||
            ((size == 4) && (rec[i].value > UINT32_MAX))) {
            return 0;
        }
    }
    return n;
}
