/*
 * Memory regions of MDs and list entries: contiguous, or a ptl_iovec_t
 * list (region.c).
 */
#ifndef XG_NIC_REGION_H
#define XG_NIC_REGION_H

#include <stdint.h>

#include "nic/xg_nic_fwd.h"
#include "portals4.h"

struct xg_nic_region {
    uint8_t            *start;   /* contiguous: the bytes */
    uint64_t            length;  /* total bytes */
    ptl_iovec_t        *iov;     /* our copy, or NULL */
    uint32_t            niov;
};

int   xg_nic_region_init(xg_nic_region_t *region, void *start,
                         ptl_size_t length, int iovec, int max_iovecs);
void  xg_nic_region_fini(xg_nic_region_t *region);
void  xg_nic_region_write(const xg_nic_region_t *region, uint64_t offset,
                          const void *src, uint64_t len);
void  xg_nic_region_read(const xg_nic_region_t *region, uint64_t offset,
                         void *dst, uint64_t len);
/* Address of byte @offset (the event's start), NULL past the end. */
void *xg_nic_region_addr(const xg_nic_region_t *region, uint64_t offset);

#endif
