/*
 * Fuzzes the check of a message of batched atomics
 * (src/gas/amo_wire.c): the target applies a message's records to its
 * partition only when the check accepts the whole message.  The first 8
 * bytes of an input choose the partition size, the rest is the message.
 * An accepted message must hold a whole number of records, each an
 * operation of the four, on a word of its size inside the partition and
 * aligned to it -- the target then applies it to a partition of that size
 * here, so ASan sees any write outside it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gas/xg_gas_amo_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    xg_gas_amo_rec_t *msg;
    uint64_t part;
    uint8_t *mem;
    size_t n, i;

    if (size < 8) {
        return 0;
    }
    memcpy(&part, data, 8);
    part = part % 4096 + 1; /* a partition of 1..4096 bytes */
    data += 8;
    size -= 8;
    msg = malloc(size + sizeof(uint64_t)); /* aligned as the NIC delivers */
    memcpy(msg, data, size);
    n = xg_gas_amo_msg_check(msg, size, part);
    if (n != 0) {
        if ((n * sizeof(*msg) != size) || (n > XG_GAS_AMO_REC_MAX)) {
            abort();
        }
        mem = malloc(part); /* exact size: ASan sees an overrun */
        for (i = 0; i < n; i++) {
            uint64_t off = xg_gas_amo_rec_offset(&msg[i]);
            size_t len   = xg_gas_amo_rec_size(&msg[i]);
            unsigned op  = xg_gas_amo_rec_op(&msg[i]);

            if ((op > XG_GAS_AMO_REC_PUT) || (len == 0) || (len > 8) ||
                ((op != XG_GAS_AMO_REC_PUT) && (off % len != 0)) ||
                (off + len > part)) {
                abort();
            }
            memcpy(mem + off, &msg[i].value, len);
        }
        free(mem);
    }
    free(msg);
    return 0;
}
