/*
 * Fuzzes the check of what the network delivers to the ofi component
 * (src/xport/ofi/wire.c): any bytes from any host, claiming any job and
 * sender.  The first 16 bytes of an input choose the receiver (job key,
 * rank, job size), the rest is the packet.  A packet the check accepts
 * must carry the receiver's key, a sender of the job other than the
 * receiver, a known kind, and no payload if it is a control packet; one it
 * refuses must be refused for a reason that holds.  Its DATA payload then
 * goes to the software NIC, whose parser fuzz_nic_pkt fuzzes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xport/ofi/xg_ofi_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    xg_ofi_hdr_t hdr;
    xg_ofi_drop_t why;
    uint64_t key;
    uint32_t rank, npes;
    uint8_t *pkt;

    if (size < 16) {
        return 0;
    }
    memcpy(&key, data, 8);
    memcpy(&rank, data + 8, 4);
    memcpy(&npes, data + 12, 4);
    npes = npes % 4097 + 1; /* a job of 1..4097 PEs */
    rank %= npes;
    data += 16;
    size -= 16;
    pkt = malloc(size + 1); /* exact size, so ASan sees any overrun */
    memcpy(pkt, data, size);
    why = xg_ofi_pkt_parse(pkt, size, key, (int)rank, (int)npes, &hdr);
    switch (why) {
    case XG_OFI_OK:
        if ((hdr.job_key != key) || (hdr.src >= npes) || (hdr.src == rank) ||
            ((hdr.kind != XG_OFI_PKT_DATA) && (size != sizeof(hdr))) ||
            (hdr.kind < XG_OFI_PKT_DATA) || (hdr.kind > XG_OFI_PKT_OPEN)) {
            abort();
        }
        break;
    case XG_OFI_DROP_SHORT:
        if (size >= sizeof(hdr)) {
            abort();
        }
        break;
    case XG_OFI_DROP_FOREIGN:
        if (hdr.job_key == key) {
            abort();
        }
        break;
    case XG_OFI_DROP_SOURCE:
        if ((hdr.src < npes) && (hdr.src != rank)) {
            abort();
        }
        break;
    case XG_OFI_DROP_KIND: break;
    default: abort(); /* never returned by the check */
    }
    free(pkt);
    return 0;
}
