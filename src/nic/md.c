/*
 * Memory descriptors: binding (a region with its event queue and counter)
 * and the counts of their use; PtlMDRelease, which waits, is blocking.c.  An MD counts the operations in flight on it (`pending`:
 * sent and not yet answered -- an acknowledgement, a reply, the local
 * send completion) and the triggered operations that will use it
 * (`triggers`).
 */
#include <string.h>

#include "base/xg_log.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_md_int.h"
#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_obj_int.h"
#include "nic/xg_nic_region_int.h"

void xg_nic_md_put(xg_nic_md_t *md)
{
    if (md->pending > 0) {
        md->pending--;
    }
}

int xg_nic_md_bind(const char *fn, ptl_handle_ni_t ni_handle,
                   const ptl_md_t *desc, ptl_handle_md_t *md_handle)
{
    xg_nic_ni_t *ni = xg_nic_ni_lookup(ni_handle);
    xg_nic_region_t region;
    xg_nic_md_t *md;
    int ret;

    if (ni == NULL) {
        xg_warn("ptl", "%s: %#x is not an open NI handle", fn, ni_handle);
        return PTL_ARG_INVALID;
    }
    pthread_mutex_lock(&ni->lock);
    if (((desc->eq_handle != PTL_EQ_NONE) &&
         (xg_nic_eq_of(ni, desc->eq_handle) == NULL)) ||
        ((desc->ct_handle != PTL_CT_NONE) &&
         (xg_nic_ct_of(ni, desc->ct_handle) == NULL))) {
        xg_warn("ptl",
                "%s: eq_handle %#x or ct_handle %#x is not an object "
                "of this NI",
                fn, desc->eq_handle, desc->ct_handle);
        ret = PTL_ARG_INVALID;
        goto out_unlock;
    }
    /* the arguments first, resources after */
    ret = xg_nic_region_init(&region, desc->start, desc->length,
                             (desc->options & PTL_IOVEC) != 0,
                             ni->limits.max_iovecs);
    if (ret != PTL_OK) {
        xg_warn("ptl",
                "%s: start %p / length %llu do not describe memory "
                "(a NULL start takes a length of 0, or PTL_SIZE_MAX for the "
                "whole address space; or a bad iovec list)",
                fn, desc->start, (unsigned long long)desc->length);
        goto out_unlock;
    }
    md = xg_pool_alloc(&ni->md_pool);
    if (md == NULL) {
        xg_nic_region_fini(&region);
        xg_info("ptl", "%s: max_mds (%d) descriptors are bound", fn,
                ni->limits.max_mds);
        ret = PTL_NO_SPACE;
        goto out_unlock;
    }
    md->region  = region;
    md->options = desc->options;
    md->eq      = desc->eq_handle;
    md->ct      = desc->ct_handle;
    *md_handle  = xg_pool_obj_handle(md);
out_unlock:
    pthread_mutex_unlock(&ni->lock);
    return ret;
}
