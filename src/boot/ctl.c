/*
 * Layout helpers for the job control area, shared by libxgas and xgasrun.
 */
#include "boot/xg_ctl.h"

#include <string.h>

size_t xg_ctl_size(uint32_t npes)
{
    size_t size = sizeof(xg_ctl_t) + (size_t)npes * sizeof(xg_ctl_pe_t) +
                  (size_t)npes * XG_CTL_KV_BYTES_PER_PE;

    return xg_align_up(size, 4096);
}

void xg_ctl_format(xg_ctl_t *ctl, uint32_t npes)
{
    ctl->magic           = XG_CTL_MAGIC;
    ctl->version         = XG_CTL_VERSION;
    ctl->npes            = npes;
    ctl->kv_bytes_per_pe = XG_CTL_KV_BYTES_PER_PE;
}

int xg_ctl_check(const xg_ctl_t *ctl, size_t mapped_size, uint32_t npes)
{
    if ((mapped_size < sizeof(*ctl)) || (ctl->magic != XG_CTL_MAGIC) ||
        (ctl->version != XG_CTL_VERSION) || (ctl->npes != npes) ||
        (ctl->kv_bytes_per_pe != XG_CTL_KV_BYTES_PER_PE) ||
        (mapped_size < xg_ctl_size(npes))) {
        return -1;
    }
    return 0;
}
