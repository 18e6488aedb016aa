/*
 * Memory regions of MDs and list entries: one contiguous range, or a
 * scatter/gather list (PTL_IOVEC) treated as one virtually contiguous
 * region.  The list is copied at bind/append time, so the application may
 * reuse its array.  Finding an offset in a list walks it (O(elements)).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "nic/xg_nic_region_int.h"

int xg_nic_region_init(xg_nic_region_t *region, void *start, ptl_size_t length,
                       int iovec, int max_iovecs)
{
    const ptl_iovec_t *src = start;
    uint64_t total         = 0;
    uint32_t i;

    memset(region, 0, sizeof(*region));
    if (!iovec) {
        /* start NULL is address 0: with length PTL_SIZE_MAX the region is
         * the whole address space and an offset is an address (the usual
         * initiator MD of GASNet, Sandia OpenSHMEM and UCX); any other
         * length from NULL is a missing buffer */
        if ((start == NULL) && (length != 0) && (length != PTL_SIZE_MAX)) {
            return PTL_ARG_INVALID;
        }
        region->start  = start;
        region->length = length;
        return PTL_OK;
    }
    if (((start == NULL) && (length != 0)) ||
        (length > (ptl_size_t)max_iovecs)) {
        return PTL_ARG_INVALID;
    }
    if (length != 0) {
        region->iov = malloc((size_t)length * sizeof(*region->iov));
        if (region->iov == NULL) {
            return PTL_NO_SPACE;
        }
        memcpy(region->iov, src, (size_t)length * sizeof(*region->iov));
    }
    for (i = 0; i < length; i++) {
        if (((region->iov[i].iov_base == NULL) &&
             (region->iov[i].iov_len != 0)) ||
            (region->iov[i].iov_len > UINT64_MAX - total)) {
            free(region->iov);
            region->iov = NULL;
            return PTL_ARG_INVALID;
        }
        total += region->iov[i].iov_len;
    }
    region->niov   = (uint32_t)length;
    region->length = total;
    return PTL_OK;
}

void xg_nic_region_fini(xg_nic_region_t *region)
{
    free(region->iov);
    region->iov = NULL;
}

/* Calls @piece on each contiguous piece of [offset, offset + len) of the
 * region, in order, with the piece's address, length and how far into the
 * range it starts; stops at the first piece @piece answers 0 for.  Answers
 * 0 if a piece did, else 1. */
static int region_each(const xg_nic_region_t *region, uint64_t offset,
                       uint64_t len,
                       int (*piece)(uint8_t *at, uint64_t len, uint64_t done,
                                    void *arg),
                       void *arg)
{
    uint64_t chunk;
    uint64_t done = 0;
    uint32_t i;

    if (region->iov == NULL) {
        return piece((uint8_t *)((uintptr_t)region->start + offset), len, 0,
                     arg);
    }
    for (i = 0; (i < region->niov) && (done < len); i++) {
        if (offset >= region->iov[i].iov_len) {
            offset -= region->iov[i].iov_len;
            continue;
        }
        chunk = region->iov[i].iov_len - offset;
        if (chunk > len - done) {
            chunk = len - done;
        }
        if (!piece((uint8_t *)region->iov[i].iov_base + offset, chunk, done,
                   arg)) {
            return 0;
        }
        done += chunk;
        offset = 0;
    }
    return 1;
}

static int piece_write(uint8_t *at, uint64_t len, uint64_t done, void *src)
{
    memcpy(at, (const uint8_t *)src + done, len);
    return 1;
}

static int piece_read(uint8_t *at, uint64_t len, uint64_t done, void *dst)
{
    memcpy((uint8_t *)dst + done, at, len);
    return 1;
}

/* Nonzero if the piece is mapped: msync of its pages fails with ENOMEM
 * where some page is not (it reads and writes nothing). */
static int piece_mapped(uint8_t *at, uint64_t len, uint64_t done, void *arg)
{
    uintptr_t page  = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t first = (uintptr_t)at & ~(page - 1);
    uintptr_t end   = (uintptr_t)at + len;

    (void)done;
    (void)arg;
    return (msync((void *)first, end - first, MS_ASYNC) == 0) ||
           (errno != ENOMEM);
}

int xg_nic_region_mapped(const xg_nic_region_t *region, uint64_t offset,
                         uint64_t len)
{
    if ((len == 0) || (region->length == PTL_SIZE_MAX)) {
        return 1;
    }
    return region_each(region, offset, len, piece_mapped, NULL);
}

void xg_nic_region_write(const xg_nic_region_t *region, uint64_t offset,
                         const void *src, uint64_t len)
{
    if (len != 0) {
        (void)region_each(region, offset, len, piece_write,
                          (void *)(uintptr_t)src);
    }
}

void xg_nic_region_read(const xg_nic_region_t *region, uint64_t offset,
                        void *dst, uint64_t len)
{
    if (len != 0) {
        (void)region_each(region, offset, len, piece_read, dst);
    }
}

void *xg_nic_region_addr(const xg_nic_region_t *region, uint64_t offset)
{
    uint32_t i;

    if (region->iov == NULL) {
        if ((region->start == NULL) && (region->length == 0)) {
            return NULL; /* no memory */
        }
        return (uint8_t *)((uintptr_t)region->start + offset);
    }
    for (i = 0; i < region->niov; i++) {
        if (offset < region->iov[i].iov_len) {
            return (uint8_t *)region->iov[i].iov_base + offset;
        }
        offset -= region->iov[i].iov_len;
    }
    return NULL;
}
