/*
 * The list of transport components, the choice per peer (xg_xport.h), and
 * the calls that go to every component: opening, RMA, progress.
 */
#include "xport/xg_xport.h"

#include <poll.h>
#include <stdio.h>
#include <time.h>

#include "base/xg_compiler.h"
#include "base/xg_log.h"
#include "base/xg_wait.h"
#include "boot/xg_boot.h"
#include "xport/shm/xg_shm.h"
#include "xport/xg_xport_mux.h"
#ifdef XGAS_HAVE_OFI
#include "xport/ofi/xg_ofi.h"
#endif

/* In order of preference: the first that offers what is asked wins. */
static const xg_xport_component_t *const xport_components[] = {
    &xg_xport_shm,
#ifdef XGAS_HAVE_OFI
    &xg_xport_ofi,
#endif
};

int xg_xport_in_provider(void)
{
#ifdef XGAS_HAVE_OFI
    return xg_ofi_in_provider != 0;
#else
    return 0;
#endif
}

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
        xg_error("xport",
                 "no transport component offers %s to PE %d: this "
                 "libxgas was built without one",
                 what, me.rank);
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
    xg_status_t status =
        xport_own(XG_XPORT_CAP_LOAD_STORE, "a load/store region", &xport);

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

void xg_pkt_sleep(struct pollfd *pfd, int nfd, uint64_t timeout_ns)
{
    struct timespec ts = {.tv_sec  = (time_t)(timeout_ns / 1000000000u),
                          .tv_nsec = (long)(timeout_ns % 1000000000u)};
    int i;

    if (ppoll(pfd, (nfds_t)nfd, &ts, NULL) <= 0) {
        return;
    }
    for (i = 1; i < nfd; i++) {
        if (pfd[i].revents != 0) {
            xg_wait_net_event();
            return;
        }
    }
}

xg_status_t xg_pkt_open(xg_pkt_xport_t *pkt)
{
    const xg_xport_component_t *xport;
    xg_boot_identity_t me;
    xg_status_t status = xport_own(XG_XPORT_CAP_PACKETS, "packets", &xport);

    if (status != XG_OK) {
        return status;
    }
    xg_boot_identity(&me);
    if (me.nnodes > 1) {
        /* each peer through the component that reaches it */
        return xg_xport_mux_open(pkt);
    }
    return xport->ops->pkt_open(pkt);
}

/* ---- RMA: one component offers it (the network) ------------------------ */

/* The component that does RMA for this build, or NULL. */
static const xg_xport_component_t *xport_rma(void)
{
    size_t i;

    for (i = 0; i < XG_ARRAY_SIZE(xport_components); i++) {
        if (xport_components[i]->caps & XG_XPORT_CAP_RMA) {
            return xport_components[i];
        }
    }
    return NULL;
}

xg_status_t xg_xport_rma_expose(void *base, size_t len)
{
    const xg_xport_component_t *xport = xport_rma();

    return (xport != NULL) ? xport->ops->rma_expose(base, len) : XG_OK;
}

void xg_xport_rma_unexpose(void)
{
    const xg_xport_component_t *xport = xport_rma();

    if (xport != NULL) {
        xport->ops->rma_unexpose();
    }
}

int xg_xport_rma_reaches(int peer, const void *local, size_t len)
{
    const xg_xport_component_t *xport = xport_rma();

    return (xport != NULL) && (xport->reach(peer) & XG_XPORT_CAP_RMA) &&
           xport->ops->rma_reaches(peer, local, len);
}

xg_status_t xg_xport_rma(int put, int peer, void *local, uint64_t off,
                         size_t len, xg_xport_rma_mode_t mode, int *counted_p)
{
    /* the caller asked rma_reaches: there is a component */
    return xport_rma()->ops->rma(put, peer, local, off, len, (int)mode,
                                 counted_p);
}

int xg_xport_rma_ordered(void)
{
    const xg_xport_component_t *xport = xport_rma();

    return (xport != NULL) && xport->ops->rma_ordered();
}

int xg_xport_rma_outstanding(void)
{
    const xg_xport_component_t *xport = xport_rma();

    return (xport != NULL) && xport->ops->rma_outstanding();
}

xg_status_t xg_xport_rma_complete(void)
{
    const xg_xport_component_t *xport = xport_rma();

    return (xport != NULL) ? xport->ops->rma_complete() : XG_OK;
}

int xg_xport_describe_net(char *name, size_t name_len, char *why,
                          size_t why_len)
{
#ifdef XGAS_HAVE_OFI
    char prov[160];
    int ret = xg_ofi_choose(prov, sizeof(prov), why, why_len);

    snprintf(name, name_len, "ofi: %s", prov);
    return ret;
#else
    snprintf(name, name_len, "none");
    snprintf(why, why_len,
             "this xgas was built without libfabric "
             "(libfabric-dev missing or XGAS_OFI=OFF): every PE of a job "
             "must run on one node");
    return -1;
#endif
}
