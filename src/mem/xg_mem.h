/*
 * Symmetric memory of this PE and its view of every same-node PE.
 *
 * Each PE owns one partition of the node region, the load/store region of
 * the transport (xport/xg_xport.h), indexed by node-local rank:
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
#include "xport/xg_xport.h"

/* Bytes the heap has beyond SHMEM_SYMMETRIC_SIZE (rounded up to 64 KiB):
 * room for the bytes xgas keeps at its start (XG_GAS_HEAP_RESERVED) and
 * for alignment gaps, so that the whole SHMEM_SYMMETRIC_SIZE is the
 * program's. */
#define XG_MEM_HEAP_EXTRA (1u << 16)

/* Partitions start at multiples of this at least; with a heap larger
 * than it, at multiples of the largest power of two not above the heap
 * size (part_align), the largest alignment shmem_align can then give (the
 * same offset is aligned on every PE). */
#define XG_MEM_PART_ALIGN (2u << 20)

/* Top of the user address space the node region must end below (x86-64
 * and arm64 with 4-level page tables: 128 TiB). */
#define XG_MEM_VA_LIMIT (1ULL << 47)

typedef struct xg_mem {
    xg_xport_region_t region;
    int me;         /* rank in the job */
    int npes;       /* PEs of the job */
    int local_me;   /* rank among the PEs of this node */
    int local_npes; /* PEs of this node: partitions */
    uint64_t part_size;
    uint64_t part_align; /* partitions start at multiples of it */
    uint64_t heap_size;
    uint64_t symmetric_size; /* the program's heap bytes (below) */
    uint64_t node_memory;    /* sized from it: this node's bytes */
    uint64_t data_off;       /* == heap_size */
    uint64_t data_size;      /* bytes of the data window in use */
    uint64_t internal_off;
    uint64_t internal_size; /* what the layer above asked for */
    uintptr_t data_lo;      /* where this PE's globals live (native) */
    uintptr_t my_part;      /* this PE's partition in the region */
    xg_heap_t heap;
} xg_mem_t;

extern xg_mem_t xg_mem;

/*
 * How large the heap is.  SHMEM_SYMMETRIC_SIZE when the user sets it, else
 * its default (256 MiB) -- unless a library asked, before init, for a heap
 * sized from the node's memory (libarmci does, through the runtime): then
 * each PE may allocate its share of the node, the node's physical memory
 * (or its cgroup v2 limit, if lower) divided by the node's PEs, rounded
 * down to 64 MiB, never less than the default, and limited to what the
 * node region's address room (and `ulimit -v`) allows.  The PEs of a job
 * agree on the smallest share of any node.  The node region is a sparse
 * memory object: a page costs memory only once touched, so a large heap
 * costs address space and no memory until used.  node_memory is the
 * node's bytes when sized so, 0 otherwise.
 */
void xg_mem_size_from_node(int on);

/* Collective: lays out, maps the node region, moves the globals into the
 * data window and opens the heap.  @internal_size: the bytes of the
 * internal area at the top of each partition, which the layer above lays
 * out (gas's team slots, gas/coll/xg_internal_area.h).  Requires
 * xg_boot_init. */
xg_status_t xg_mem_init(uint64_t internal_size);
void xg_mem_fini(void);

/* Partition of node-local PE @local (its rank among the PEs of this
 * node, xg_boot_local_of). */
static inline uintptr_t xg_mem_part(int local)
{
    return xg_xport_region_part(&xg_mem.region, local);
}

#endif
