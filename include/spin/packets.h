/*
 * packets.h -- the IP-like and UDP-like headers sPIN handlers parse
 * (xgas, source-compatible with PsPIN's header of the same name).
 *
 * Packets of raw flows (the pspinsim_* driver interface) are whatever the
 * driver injects.  Packets of messages matched by a Portals entry are
 * presented with a pkt_hdr_t in front of their payload (docs/spin.md,
 * "What a handler sees"), so GET_IP_UDP_PLD finds the payload in both.
 */
#ifndef XGAS_SPIN_PACKETS_H
#define XGAS_SPIN_PACKETS_H

#include <stdint.h>

typedef struct ip_hdr {
    uint8_t version : 4;
    uint8_t ihl : 4; /* header length in 32-bit words */
    uint8_t tos;
    uint16_t length; /* whole packet, headers included */
    uint16_t identification;
    uint16_t offset;
    uint8_t ttl;
    uint8_t protocol;
    uint16_t checksum;
    uint32_t source_id; /* Portals: the initiator's rank */
    uint32_t dest_id;   /* Portals: this PE's rank */
} __attribute__((__packed__)) ip_hdr_t;

typedef struct udp_hdr {
    uint16_t src_port;
    uint16_t dst_port;
    uint16_t length; /* UDP header and payload */
    uint16_t checksum;
} __attribute__((__packed__)) udp_hdr_t;

typedef struct pkt_hdr {
    ip_hdr_t ip_hdr;
    udp_hdr_t udp_hdr;
} __attribute__((__packed__)) pkt_hdr_t;

#endif
