/*
 * The check of what arrives from the network (xg_ofi_wire.h).
 */
#include "xport/ofi/xg_ofi_wire.h"

#include <string.h>

xg_ofi_drop_t xg_ofi_pkt_parse(const void *buf, size_t len, uint64_t job_key,
                               int rank, int npes, xg_ofi_hdr_t *hdr)
{
    if ((buf == NULL) || (len < sizeof(*hdr))) {
        return XG_OFI_DROP_SHORT;
    }
    memcpy(hdr, buf, sizeof(*hdr));
    if (hdr->job_key != job_key) {
        return XG_OFI_DROP_FOREIGN;
    }
    if ((hdr->src >= (uint32_t)npes) || (hdr->src == (uint32_t)rank)) {
        return XG_OFI_DROP_SOURCE;
    }
    switch (hdr->kind) {
    case XG_OFI_PKT_DATA: return XG_OFI_OK;
    case XG_OFI_PKT_CLOSE:
    case XG_OFI_PKT_CLOSE_ACK:
    case XG_OFI_PKT_OPEN:
        return (len == sizeof(*hdr)) ? XG_OFI_OK : XG_OFI_DROP_KIND;
    default: return XG_OFI_DROP_KIND;
    }
}
