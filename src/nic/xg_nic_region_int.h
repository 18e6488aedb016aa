/*
 * Memory regions of MDs and list entries: contiguous, or a ptl_iovec_t
 * list (region.c).
 */
#ifndef XG_NIC_REGION_INT_H
#define XG_NIC_REGION_INT_H

#include <stdint.h>

#include "nic/xg_nic_fwd_int.h"
#include "portals4.h"

struct xg_nic_region {
    uint8_t *start;   /* contiguous: the bytes */
    uint64_t length;  /* total bytes */
    ptl_iovec_t *iov; /* our copy, or NULL */
    uint32_t niov;
};

int xg_nic_region_init(xg_nic_region_t *region, void *start, ptl_size_t length,
                       int iovec, int max_iovecs);
void xg_nic_region_fini(xg_nic_region_t *region);
void xg_nic_region_write(const xg_nic_region_t *region, uint64_t offset,
                         const void *src, uint64_t len);
void xg_nic_region_read(const xg_nic_region_t *region, uint64_t offset,
                        void *dst, uint64_t len);
/* Nonzero if [offset, offset + len) of a region of bounded length (not
 * the whole address space) lies in mapped memory: the initiator's check
 * that a put's source was not unmapped after PtlMDBind (one msync per
 * segment; 1 for whole-address-space regions, which are not checked). */
int xg_nic_region_mapped(const xg_nic_region_t *region, uint64_t offset,
                         uint64_t len);
/* Address of byte @offset (the event's start), NULL past the end. */
void *xg_nic_region_addr(const xg_nic_region_t *region, uint64_t offset);

#endif
