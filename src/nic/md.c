/*
 * Memory descriptors: binding (a region with its event queue and counter)
 * and releasing, which waits for no operation: an MD counts the
 * operations that may still use it and PtlMDRelease answers PTL_IN_USE
 * until they are done.
 */
#include <string.h>

#include "base/xg_log.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_md.h"
#include "nic/xg_nic_ni.h"
#include "nic/xg_nic_obj.h"
#include "nic/xg_nic_region.h"

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
        pthread_mutex_unlock(&ni->lock);
        xg_warn("ptl", "%s: eq_handle %#x or ct_handle %#x is not an object "
                "of this NI", fn, desc->eq_handle, desc->ct_handle);
        return PTL_ARG_INVALID;
    }
    /* the arguments first, resources after */
    ret = xg_nic_region_init(&region, desc->start, desc->length,
                             (desc->options & PTL_IOVEC) != 0,
                             ni->limits.max_iovecs);
    if (ret != PTL_OK) {
        pthread_mutex_unlock(&ni->lock);
        xg_warn("ptl", "%s: start %p / length %llu do not describe memory "
                "(a NULL start takes a length of 0, or PTL_SIZE_MAX for the "
                "whole address space; or a bad iovec list)", fn,
                desc->start, (unsigned long long)desc->length);
        return ret;
    }
    md = xg_pool_alloc(&ni->md_pool);
    if (md == NULL) {
        xg_nic_region_fini(&region);
        pthread_mutex_unlock(&ni->lock);
        xg_info("ptl", "%s: max_mds (%d) descriptors are bound", fn,
                ni->limits.max_mds);
        return PTL_NO_SPACE;
    }
    md->region  = region;
    md->options = desc->options;
    md->eq      = desc->eq_handle;
    md->ct      = desc->ct_handle;
    *md_handle  = xg_pool_obj_handle(md);
    pthread_mutex_unlock(&ni->lock);
    return PTL_OK;
}

int xg_nic_md_release(const char *fn, ptl_handle_md_t md_handle)
{
    xg_nic_ni_t *ni = xg_nic_ni_lookup(xg_nic_handle_make(
        XG_NIC_OBJ_NI, xg_nic_handle_ni(md_handle), 0, 0));
    xg_nic_md_t *md = NULL;

    if (ni != NULL) {
        pthread_mutex_lock(&ni->lock);
        md = xg_pool_lookup(&ni->md_pool, md_handle);
    }
    if (md == NULL) {
        if (ni != NULL) {
            pthread_mutex_unlock(&ni->lock);
        }
        xg_warn("ptl", "%s: %#x is not a bound memory descriptor", fn,
                md_handle);
        return PTL_ARG_INVALID;
    }
    if (md->pending != 0) {
        pthread_mutex_unlock(&ni->lock);
        return PTL_IN_USE; /* operations or triggers still use it */
    }
    xg_nic_region_fini(&md->region);
    xg_pool_free(&ni->md_pool, md);
    pthread_mutex_unlock(&ni->lock);
    return PTL_OK;
}
