/*
 * The check of a message of batched atomics (xg_gas_amo_wire.h).
 */
#include "gas/xg_gas_amo_wire.h"

size_t xg_gas_amo_msg_check(const void *data, size_t len, uint64_t part_size)
{
    const xg_gas_amo_rec_t *rec = data;
    size_t n                    = len / sizeof(*rec), i;

    if ((len == 0) || (len % sizeof(*rec) != 0) || (n > XG_GAS_AMO_REC_MAX) ||
        (((uintptr_t)data % sizeof(uint64_t)) != 0)) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        unsigned op  = xg_gas_amo_rec_op(&rec[i]);
        uint64_t off = xg_gas_amo_rec_offset(&rec[i]);
        size_t size  = xg_gas_amo_rec_size(&rec[i]);
        int word32   = (rec[i].where & XG_GAS_AMO_REC_WORD32) != 0;

        if (op == XG_GAS_AMO_REC_PUT) {
            if (word32) {
                return 0;
            }
        } else if ((op > XG_GAS_AMO_REC_PUT) ||
                   ((rec[i].where >> XG_GAS_AMO_REC_LEN_SHIFT) != 0) ||
                   (off % size != 0) ||
                   (word32 && (rec[i].value > UINT32_MAX))) {
            return 0;
        }
        if ((size > part_size) || (off > part_size - size)) {
            return 0;
        }
    }
    return n;
}
