/*
 * What the ofi component sends over the network in front of every packet
 * (private to xport/ofi), and its check -- a pure function of the bytes,
 * apart from the rest of the component so that the fuzz target
 * (tests/fuzz/fuzz_ofi_pkt.c) runs it alone.
 */
#ifndef XG_OFI_WIRE_H
#define XG_OFI_WIRE_H

#include <stddef.h>
#include <stdint.h>

enum {
    XG_OFI_PKT_DATA      = 1, /* a packet of the contract */
    XG_OFI_PKT_CLOSE     = 2, /* the sender stops receiving (rx_close) */
    XG_OFI_PKT_CLOSE_ACK = 3, /* ... heard: nothing more will follow */
    XG_OFI_PKT_OPEN      = 4  /* the sender receives again (rx_open) */
};

/* What the network carries in front of every packet. */
typedef struct xg_ofi_hdr {
    uint64_t job_key; /* the job's (xg_boot.job_key): else foreign */
    uint32_t src;     /* the sending rank */
    uint16_t kind;    /* XG_OFI_PKT_* */
    uint16_t pad;
    uint64_t opened; /* CLOSE, OPEN: how often the sender has opened */
} xg_ofi_hdr_t;

/* Why a received packet was dropped (counted per reason). */
typedef enum xg_ofi_drop {
    XG_OFI_OK = 0,
    XG_OFI_DROP_SHORT,   /* shorter than the header */
    XG_OFI_DROP_FOREIGN, /* another job's key */
    XG_OFI_DROP_SOURCE,  /* no rank of the job on another node */
    XG_OFI_DROP_KIND,    /* unknown kind, or control with a payload */
    XG_OFI_DROP_CLOSED,  /* data after this endpoint closed */
    XG_OFI_DROP_LAST
} xg_ofi_drop_t;

/*
 * Checks the @len-byte packet @buf received by PE @rank of a job of @npes
 * with key @job_key, copying its header into @hdr: the key, a sender that
 * is a rank of the job other than @rank, a known kind, no payload on
 * control packets.  A pure function of the bytes (the fuzz target calls
 * it); the node check needs boot and is the receiver's.
 */
xg_ofi_drop_t xg_ofi_pkt_parse(const void *buf, size_t len, uint64_t job_key,
                               int rank, int npes, xg_ofi_hdr_t *hdr);

#endif
