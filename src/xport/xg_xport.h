/*
 * Transports: the closed list of components that move bytes between
 * processes (xport.c), each declaring what it offers a peer it reaches.
 * The layers above choose a component per peer by the capabilities they
 * need (xg_xport_select): shm reaches the PEs of this node, ofi
 * (libfabric, where it is built) the PEs of other nodes.
 *
 * A component offers one or more of
 *   - a load/store region (CAP_LOAD_STORE): every same-node PE's partition
 *     mapped at one address in every PE (PVAS), so a put is a memcpy and
 *     gas/ needs no transport call on its fast path -- mem/ opens it;
 *   - CPU-coherent atomics on that region (CAP_ATOMIC_CPU);
 *   - packets (CAP_PACKETS): ordered datagrams for the software NIC, see
 *     xg_xport_pkt.h;
 *   - zero-copy RMA by the transport itself (CAP_RMA);
 *   - delivery in issue order per (sender, receiver) pair (CAP_ORDERED).
 * Every component passes the conformance suite in tests/unit/xport/.
 */
#ifndef XG_XPORT_H
#define XG_XPORT_H

#include <stddef.h>
#include <stdint.h>

#include "xgas_status.h"
#include "xport/xg_xport_pkt.h"

/* What a component offers for a peer (capability bits). */
enum {
    XG_XPORT_CAP_LOAD_STORE = 1u << 0, /* direct CPU access to the peer */
    XG_XPORT_CAP_ATOMIC_CPU = 1u << 1, /* CPU atomics are coherent with it */
    XG_XPORT_CAP_PACKETS    = 1u << 2, /* datagrams (xg_xport_pkt.h) */
    XG_XPORT_CAP_RMA        = 1u << 3, /* zero-copy put/get by the transport */
    XG_XPORT_CAP_ORDERED    = 1u << 4  /* in issue order per peer */
};

struct xg_xport_component;

/*
 * The load/store region of this node: one partition per node-local PE,
 * partition i at base + i * part_size, at the same address in every PE.
 */
typedef struct xg_xport_region {
    uintptr_t base; /* same in every PE */
    size_t size;    /* nparts * part_size */
    size_t part_size;
    int nparts; /* the PEs of this node */
    int fd;     /* the memory object behind it (component's) */
    const struct xg_xport_component *xport; /* that opened it */
} xg_xport_region_t;

typedef struct xg_xport_ops {
    /* CAP_LOAD_STORE.  Collective over the PEs of the node: maps @nparts
     * partitions of @part_size bytes at the first address from @base_hint
     * on that is free in every PE; on failure, logs what to change. */
    xg_status_t (*region_open)(xg_xport_region_t *region, int nparts,
                               size_t part_size, uintptr_t base_hint);
    void (*region_close)(xg_xport_region_t *region);
    /* Maps @len bytes of the region from @offset also at @addr (replacing
     * what is mapped there): the same memory seen at two addresses. */
    xg_status_t (*region_alias)(const xg_xport_region_t *region,
                                uint64_t offset, void *addr, size_t len);
    /* CAP_PACKETS: opens this process's endpoint (xg_xport_pkt.h). */
    xg_status_t (*pkt_open)(xg_pkt_xport_t *xport);
    /* CAP_RMA: see xg_xport_rma_expose and the functions after it */
    xg_status_t (*rma_expose)(void *base, size_t len);
    void (*rma_unexpose)(void);
    int (*rma_reaches)(int peer, const void *local, size_t len);
    xg_status_t (*rma)(int put, int peer, void *local, uint64_t off, size_t len,
                       int mode, int *counted_p);
    int (*rma_outstanding)(void);
    xg_status_t (*rma_complete)(void);
    int (*rma_ordered)(void);
} xg_xport_ops_t;

typedef struct xg_xport_component {
    const char *name;
    unsigned caps; /* every capability it may offer */
    /* Makes the component usable in this process (boot must be joined);
     * once per process, later calls return at once. */
    xg_status_t (*open)(void);
    /* The capabilities it offers for @peer (a rank of the job): a subset
     * of caps, 0 if it cannot reach the peer. */
    unsigned (*reach)(int peer);
    const xg_xport_ops_t *ops;
} xg_xport_component_t;

/* Opens every component for this process (boot must be joined): the
 * runtime's step between boot and the layers that use transports.  Once
 * per process; later calls return at once. */
xg_status_t xg_xport_open(void);

/* The components, in order of preference; *count_p of them. */
const xg_xport_component_t *const *xg_xport_components(size_t *count_p);

/* The first component that offers every capability of @caps for @peer,
 * or NULL. */
const xg_xport_component_t *xg_xport_select(int peer, unsigned caps);

/* Opens the load/store region through the component every PE of this
 * node selects for CAP_LOAD_STORE (see region_open). */
xg_status_t xg_xport_region_open(xg_xport_region_t *region, int nparts,
                                 size_t part_size, uintptr_t base_hint);
void xg_xport_region_close(xg_xport_region_t *region);
xg_status_t xg_xport_region_alias(const xg_xport_region_t *region,
                                  uint64_t offset, void *addr, size_t len);

/*
 * Zero-copy RMA to the PEs of other nodes (CAP_RMA).
 *
 * xg_xport_rma_expose registers this PE's partition [@base, @base +
 * @len) with every component that offers RMA and publishes what peers
 * need through boot (readable by them after the next boot fence);
 * xg_xport_rma_unexpose completes what is outstanding and undoes it.
 * xg_xport_rma_reaches: 1 if @peer can be reached by RMA from @len bytes
 * at local @local.  xg_xport_rma moves @len bytes between local @local
 * and offset @off of @peer's partition (a put if @put), returning as
 * @mode says; *@counted_p is 1 when xg_xport_rma_complete still has work
 * for the operation (its completion, or a put's visibility at the
 * target).  xg_xport_rma_complete returns once every such operation of
 * the process is complete and every put visible (XG_ERR_UNREACHABLE if
 * one failed since the last call); xg_xport_rma_outstanding says whether
 * it has work.  A get sees what this process put before it.  The
 * target's software runs nothing for it.
 */
typedef enum xg_xport_rma_mode {
    XG_XPORT_RMA_WAIT,  /* complete (a put: visible at the target) */
    XG_XPORT_RMA_LOCAL, /* the local buffer is free again (a small put is
                         * copied out at once and counted) */
    XG_XPORT_RMA_COUNT  /* at once, counted: the local buffer stays in use
                         * until xg_xport_rma_complete */
} xg_xport_rma_mode_t;

xg_status_t xg_xport_rma_expose(void *base, size_t len);
void xg_xport_rma_unexpose(void);
int xg_xport_rma_reaches(int peer, const void *local, size_t len);
xg_status_t xg_xport_rma(int put, int peer, void *local, uint64_t off,
                         size_t len, xg_xport_rma_mode_t mode, int *counted_p);
int xg_xport_rma_outstanding(void);
xg_status_t xg_xport_rma_complete(void);

/* 1 if the puts of this process to one peer, and the reads and packets
 * that follow them, take effect at the peer in the order they were
 * issued, complete or not: ordering them (shmem_fence) then needs no
 * completion. */
int xg_xport_rma_ordered(void);

/* 1 while this thread is inside a network provider's code (it may hold the
 * provider's locks): the exit handlers ask it, since exit() called from a
 * signal handler of a fault there must not call the provider again. */
int xg_xport_in_provider(void);

/* The network component this process would use for the PEs of other
 * nodes, without opening it: "<component>: <provider> on <domain>" in
 * @name and how it was chosen in @why; -1 if there is none (@why says
 * why).  For xgas-info. */
int xg_xport_describe_net(char *name, size_t name_len, char *why,
                          size_t why_len);

/* Partition of node-local PE @local. */
static inline uintptr_t xg_xport_region_part(const xg_xport_region_t *region,
                                             int local)
{
    return region->base + (uintptr_t)local * region->part_size;
}

#endif
