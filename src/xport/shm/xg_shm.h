/*
 * The shm component (private to xport/): every PE of the node reaches the
 * others through shared memory.
 *   - The node region: one memory object holding every same-node PE's
 *     partition, mapped at the same virtual address in every PE (PVAS), so
 *         remote = local + (pe - me) * part_size.
 *     It is a memfd: it has no name in any file system, so nothing is left
 *     behind when the job dies, however it dies (node_map.c) -- or, in a
 *     PVAS node, the PEs' segments of the one address space they share
 *     (pvas_region.c).
 *   - Packets: one inbound ring per process (pkt.c, xg_shm_ring.h).
 */
#ifndef XG_SHM_H
#define XG_SHM_H

#include "xport/xg_xport.h"

extern const xg_xport_component_t xg_xport_shm;

/* Region ops (xg_xport_ops_t).  The memory object is the launcher's memfd
 * (handed through boot) or, for a singleton, one of its own. */
xg_status_t xg_shm_region_open(xg_xport_region_t *region, int nparts,
                               size_t part_size, uintptr_t base_hint);
void xg_shm_region_close(xg_xport_region_t *region);
xg_status_t xg_shm_region_alias(const xg_xport_region_t *region,
                                uint64_t offset, void *addr, size_t len);

/* The node region of a PVAS node (pvas_region.c): the PEs' segments in
 * one address space, made by xgasrun --pvas.  xg_shm_pvas() is 1 in a PE
 * of such a node; region_open and region_close then come here. */
int xg_shm_pvas(void);
xg_status_t xg_shm_pvas_open(xg_xport_region_t *region, int nparts,
                             size_t part_size, uintptr_t base);
void xg_shm_pvas_close(xg_xport_region_t *region);

/* XGAS_HUGE_PAGES (huge.c): advises [@addr, @addr + @len) of the node
 * region MADV_HUGEPAGE where the system's transparent huge page setting
 * for that memory (@anonymous: a PVAS room; else the memfd) takes the
 * advice; else the node's first PE says in one line that it uses 4 KiB
 * pages.  Never fails. */
void xg_shm_huge_advise(void *addr, size_t len, int anonymous);

/* Packet op (xg_xport_ops_t). */
xg_status_t xg_shm_pkt_open(xg_pkt_xport_t *xport);

#endif
