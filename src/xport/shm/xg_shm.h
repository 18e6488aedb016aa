/*
 * The node region: one shared memory object holding every same-node PE's
 * partition, mapped at the same virtual address in every PE (PVAS).  PE i's
 * partition starts at base + i * part_size, so
 *     remote = local + (pe - me) * part_size.
 * The memory is a memfd: it has no name in any file system, so nothing is
 * left behind when the job dies, however it dies.
 */
#ifndef XG_SHM_H
#define XG_SHM_H

#include <stddef.h>
#include <stdint.h>

#include "xgas_status.h"

typedef struct xg_shm_region {
    uintptr_t base;      /* same in every PE */
    size_t    size;      /* npes * part_size */
    size_t    part_size;
    int       npes;
    int       fd;
} xg_shm_region_t;

/*
 * Collective over all PEs (uses the boot fence).  Maps @npes partitions of
 * @part_size bytes from @fd (the launcher's memfd; -1 for a singleton, which
 * creates its own), at the first address from @base_hint on that is free in
 * every PE.  On failure, logs what to change.
 */
xg_status_t xg_shm_region_open(xg_shm_region_t *region, int fd, int npes,
                               size_t part_size, uintptr_t base_hint);
void xg_shm_region_close(xg_shm_region_t *region);

static inline uintptr_t xg_shm_region_part(const xg_shm_region_t *region,
                                           int pe)
{
    return region->base + (uintptr_t)pe * region->part_size;
}

#endif
