/*
 * The node region of a PVAS node (docs/pvas.md): the PEs are copies of
 * the program in one address space, which xgasrun's root process
 * reserved; PE i's partition is its segment, at base + i * segment size,
 * and the runtime's room in it (XGAS_PVAS_ROOM_LO..HI) is what this file
 * makes accessible.  Nothing is shared by mapping: the memory is one
 * address space's, so an anonymous private mapping made by one PE is
 * there for all of them, and the page tables are the node's, not each
 * PE's.
 *
 * Invariants:
 *  - A PE maps only its own room, over the root's reservation of its own
 *    segment (MAP_FIXED is safe there and nowhere else); the fence after
 *    it orders every PE's mapping before any PE's first access to a
 *    peer's.
 *  - Closing makes the room inaccessible again (and frees its memory):
 *    the program keeps running after finalize with its globals in place,
 *    which live outside the room.
 */
#include "xport/shm/xg_shm.h"

#include <errno.h>
#include <sys/mman.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "boot/xg_boot.h"

int xg_shm_pvas(void)
{
    return xg_config.pvas_room_hi != 0;
}

/* This PE's room, [*lo_p, *lo_p + *len_p). */
static void pvas_room(const xg_xport_region_t *region, int local,
                      uintptr_t *lo_p, size_t *len_p)
{
    *lo_p = region->base + (uintptr_t)local * region->part_size +
            (uintptr_t)xg_config.pvas_room_lo;
    *len_p = (size_t)(xg_config.pvas_room_hi - xg_config.pvas_room_lo);
}

xg_status_t xg_shm_pvas_open(xg_xport_region_t *region, int nparts,
                             size_t part_size, uintptr_t base)
{
    xg_boot_identity_t me;
    uintptr_t lo;
    size_t len;
    void *map;

    /* @base is XGAS_SYMMETRIC_BASE, as mem passes it and xgasrun read it */
    if ((part_size != xg_config.pvas_segment_size) ||
        (xg_config.pvas_room_hi > part_size)) {
        xg_error("shm",
                 "a PVAS node region of %zu-byte partitions at %#lx "
                 "does not match the segments xgasrun made "
                 "(XGAS_PVAS_SEGMENT_SIZE=%llu): start every PE with the "
                 "same settings",
                 part_size, (unsigned long)base,
                 (unsigned long long)xg_config.pvas_segment_size);
        return XG_ERR_MISMATCH;
    }
    xg_boot_identity(&me);
    region->base      = base;
    region->size      = (size_t)nparts * part_size;
    region->part_size = part_size;
    region->nparts    = nparts;
    region->fd        = -1;
    pvas_room(region, me.local_rank, &lo, &len);
    map = mmap((void *)lo, len, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
    if (map != MAP_FAILED) {
        xg_shm_huge_advise(map, len, 1);
    }
    if (!xg_boot_fence_all(map != MAP_FAILED)) {
        if (map == MAP_FAILED) {
            xg_error("shm",
                     "cannot map the %zu-byte room of this PE's PVAS "
                     "segment at %#lx (%m): the node's address space hit "
                     "vm.max_map_count or `ulimit -v`; run fewer PEs",
                     len, (unsigned long)lo);
        }
        if (map != MAP_FAILED) {
            xg_shm_pvas_close(region);
        }
        region->size = 0;
        return XG_ERR_NO_MEMORY;
    }
    xg_debug("shm",
             "PVAS node region: %d segments of %zu bytes at %#lx, "
             "this PE's room %#lx+%zu",
             nparts, part_size, (unsigned long)base, (unsigned long)lo, len);
    return XG_OK;
}

void xg_shm_pvas_close(xg_xport_region_t *region)
{
    xg_boot_identity_t me;
    uintptr_t lo;
    size_t len;

    if (region->size == 0) {
        return;
    }
    xg_boot_identity(&me);
    pvas_room(region, me.local_rank, &lo, &len);
    /* back to the root's reservation: inaccessible, no memory */
    if (mmap((void *)lo, len, PROT_NONE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1,
             0) == MAP_FAILED) {
        xg_debug("shm", "cannot release this PE's PVAS room (%m)");
    }
    region->size = 0;
}
