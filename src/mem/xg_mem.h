/*
 * Symmetric memory of this PE and its view of every same-node PE.
 *
 * Each PE owns one partition of the node region (see xport/shm):
 *
 *   partition offset 0            heap_size         internal_off    part_size
 *   |  symmetric heap            | data window     | internal area |
 *
 *   - the symmetric heap serves shmem_malloc and friends;
 *   - the data window holds the PE's global and static variables: at init
 *     the executable's writable data (.data, .bss) is moved into it and
 *     mapped back at its original address, so the program keeps using its
 *     globals as before while other PEs reach them through the window;
 *   - the internal area (the PVAS "export area") holds runtime state other
 *     PEs update directly: barrier counters, collective scratch.
 *
 * Every PE computes the same layout (same executable, same settings; this is
 * checked at init) so a heap address translates with the PVAS formula and a
 * global by its offset from the start of the data window.
 */
#ifndef XG_MEM_H
#define XG_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "mem/xg_heap.h"
#include "xgas_status.h"
#include "xport/shm/xg_shm.h"

#define XG_MEM_INTERNAL_SIZE (1u << 20)

/* Partitions start at multiples of this: the largest alignment shmem_align
 * can give (the same offset is then aligned on every PE). */
#define XG_MEM_PART_ALIGN (2u << 20)

typedef struct xg_mem {
    xg_shm_region_t region;
    int             me;
    int             npes;
    uint64_t        part_size;
    uint64_t        heap_size;
    uint64_t        data_off;      /* == heap_size */
    uint64_t        data_size;     /* bytes of the data window in use */
    uint64_t        internal_off;
    uintptr_t       data_lo;       /* where this PE's globals live (native) */
    uintptr_t       my_part;       /* this PE's partition in the region */
    xg_heap_t       heap;
} xg_mem_t;

extern xg_mem_t xg_mem;

/* Collective: lays out, maps the node region, moves the globals into the
 * data window and opens the heap.  Requires xg_boot_init. */
xg_status_t xg_mem_init(void);
void xg_mem_fini(void);

static inline uintptr_t xg_mem_part(int pe)
{
    return xg_shm_region_part(&xg_mem.region, pe);
}

/* PE @pe's internal area, as seen from this PE. */
static inline void *xg_mem_internal(int pe)
{
    return (void *)(xg_mem_part(pe) + xg_mem.internal_off);
}

#endif
