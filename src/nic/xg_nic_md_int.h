/*
 * Memory descriptors (md.c): a region with its event queue and counter,
 * and counts of the operations that may still use it.
 */
#ifndef XG_NIC_MD_INT_H
#define XG_NIC_MD_INT_H

#include <stdint.h>

#include "base/xg_pool.h"
#include "nic/xg_nic_fwd_int.h"
#include "nic/xg_nic_region_int.h"

struct xg_nic_md {
    xg_pool_obj_t obj;
    xg_nic_region_t region;
    unsigned options;
    ptl_handle_eq_t eq; /* looked up at each use: a freed queue */
    ptl_handle_ct_t ct; /* or counter is then simply absent */
    uint32_t pending;   /* operations in flight on it */
    uint32_t triggers;  /* triggered operations that will use it */
};

/* Drops one use of @md by an operation (see PtlMDRelease). */
void xg_nic_md_put(xg_nic_md_t *md);

#endif
