/*
 * Portal table entries (pt.c): two lists and the unexpected headers.
 */
#ifndef XG_NIC_PT_INT_H
#define XG_NIC_PT_INT_H

#include <stdint.h>

#include "base/xg_hash.h"
#include "nic/xg_nic_fwd_int.h"
#include "nic/xg_nic_me_int.h"
#include "portals4.h"

struct xg_nic_pt {
    ptl_pt_index_t index;
    uint8_t allocated;
    uint8_t enabled;
    unsigned options;
    ptl_handle_eq_t eq;
    xg_nic_list_t lists[2]; /* PTL_PRIORITY_LIST, PTL_OVERFLOW_LIST */
    xg_nic_uh_t *uh_head;
    xg_nic_uh_t *uh_tail;
    xg_htab_t uh_exact;
    xg_htab_t uh_mb; /* built at the first any-source search */
    uint8_t uh_mb_on;
    uint32_t uh_count;
    uint32_t inflight; /* target operations in progress */
};

#endif
