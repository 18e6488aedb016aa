/*
 * The shm component: the PEs of this node, through shared memory.
 */
#include "xport/shm/xg_shm.h"

#include "boot/xg_boot.h"

static xg_status_t shm_open(void)
{
    return xg_boot_init();
}

/* shm reaches the PEs of this node (a virtual node under xgasrun:
 * however near, other nodes are another component's), and offers them
 * everything it has. */
static unsigned shm_reach(int peer)
{
    xg_boot_identity_t job;

    xg_boot_identity(&job);
    return ((peer >= 0) && (peer < job.npes) && xg_boot_same_node(peer))
               ? xg_xport_shm.caps
               : 0u;
}

static const xg_xport_ops_t shm_ops = {
    .region_open  = xg_shm_region_open,
    .region_close = xg_shm_region_close,
    .region_alias = xg_shm_region_alias,
    .pkt_open     = xg_shm_pkt_open,
};

const xg_xport_component_t xg_xport_shm = {
    .name = "shm",
    .caps = XG_XPORT_CAP_LOAD_STORE | XG_XPORT_CAP_ATOMIC_CPU |
            XG_XPORT_CAP_PACKETS | XG_XPORT_CAP_ORDERED,
    .open  = shm_open,
    .reach = shm_reach,
    .ops   = &shm_ops,
};
