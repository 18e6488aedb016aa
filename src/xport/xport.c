/*
 * The list of transport components and the choice per peer (xg_xport.h).
 */
#include "xport/xg_xport.h"

#include "base/xg_compiler.h"
#include "base/xg_log.h"
#include "boot/xg_boot.h"
#include "xport/shm/xg_shm.h"

/* In order of preference: the first that offers what is asked wins. */
static const xg_xport_component_t *const xport_components[] = {
    &xg_xport_shm,
};

const xg_xport_component_t *const *xg_xport_components(size_t *count_p)
{
    *count_p = XG_ARRAY_SIZE(xport_components);
    return xport_components;
}

const xg_xport_component_t *xg_xport_select(int peer, unsigned caps)
{
    size_t i;

    for (i = 0; i < XG_ARRAY_SIZE(xport_components); i++) {
        const xg_xport_component_t *xport = xport_components[i];

        if (((xport->caps & caps) == caps) &&
            ((xport->reach(peer) & caps) == caps)) {
            return xport;
        }
    }
    return NULL;
}

/* The component this PE uses for @caps towards itself, opened. */
static xg_status_t xport_own(unsigned caps, const char *what,
                             const xg_xport_component_t **xport_p)
{
    xg_boot_identity_t me;
    xg_status_t status = xg_boot_init();

    if (status != XG_OK) {
        return status;
    }
    xg_boot_identity(&me);
    *xport_p = xg_xport_select(me.rank, caps);
    if (*xport_p == NULL) {
        xg_error("xport", "no transport component offers %s to PE %d: this "
                 "libxgas was built without one", what, me.rank);
        return XG_ERR_UNREACHABLE;
    }
    return (*xport_p)->open();
}

xg_status_t xg_xport_open(void)
{
    xg_status_t status = XG_OK;
    size_t i;

    for (i = 0; (status == XG_OK) && (i < XG_ARRAY_SIZE(xport_components));
         i++) {
        status = xport_components[i]->open();
    }
    return status;
}

xg_status_t xg_xport_region_open(xg_xport_region_t *region, int nparts,
                                 size_t part_size, uintptr_t base_hint)
{
    const xg_xport_component_t *xport;
    xg_status_t status = xport_own(XG_XPORT_CAP_LOAD_STORE,
                                   "a load/store region", &xport);

    if (status != XG_OK) {
        return status;
    }
    status = xport->ops->region_open(region, nparts, part_size, base_hint);
    if (status == XG_OK) {
        region->xport = xport;
    }
    return status;
}

void xg_xport_region_close(xg_xport_region_t *region)
{
    if (region->xport != NULL) {
        region->xport->ops->region_close(region);
    }
}

xg_status_t xg_xport_region_alias(const xg_xport_region_t *region,
                                  uint64_t offset, void *addr, size_t len)
{
    return region->xport->ops->region_alias(region, offset, addr, len);
}

xg_status_t xg_pkt_open(xg_pkt_xport_t *pkt)
{
    const xg_xport_component_t *xport;
    xg_status_t status = xport_own(XG_XPORT_CAP_PACKETS, "packets", &xport);

    if (status != XG_OK) {
        return status;
    }
    return xport->ops->pkt_open(pkt);
}
