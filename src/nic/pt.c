/*
 * Portal table entries: allocation (at a requested or any free index),
 * freeing (only when no entry, header or operation uses the index) and
 * enabling/disabling.  All under the NI lock.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xg_log.h"
#include "base/xg_wait.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_eq_int.h"
#include "nic/xg_nic_me_int.h"
#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_progress_int.h"
#include "nic/xg_nic_pt_int.h"
#include "nic/xg_nic_uh_int.h"

static xg_nic_pt_t *pt_get(xg_nic_ni_t *ni, ptl_pt_index_t index)
{
    return ((index <= (ptl_pt_index_t)ni->limits.max_pt_index) &&
            (ni->pt[index] != NULL) && ni->pt[index]->allocated)
               ? ni->pt[index]
               : NULL;
}

int xg_nic_pt_alloc(const char *fn, ptl_handle_ni_t ni_handle, unsigned options,
                    ptl_handle_eq_t eq_handle, ptl_pt_index_t req,
                    ptl_pt_index_t *pt_index)
{
    xg_nic_ni_t *ni = xg_nic_ni_lookup(ni_handle);
    ptl_pt_index_t index;
    xg_nic_pt_t *pt;
    int ret = PTL_OK;

    if (ni == NULL) {
        xg_warn("ptl", "%s: %#x is not an open NI handle", fn, ni_handle);
        return PTL_ARG_INVALID;
    }
    pthread_mutex_lock(&ni->lock);
    if ((eq_handle != PTL_EQ_NONE) && (xg_nic_eq_of(ni, eq_handle) == NULL)) {
        xg_warn("ptl", "%s: eq_handle %#x is not an event queue of this NI", fn,
                eq_handle);
        ret = PTL_ARG_INVALID;
        goto out_unlock;
    }
    if ((options & PTL_PT_FLOWCTRL) && (eq_handle == PTL_EQ_NONE)) {
        xg_info("ptl",
                "%s: flow control needs an event queue for "
                "PTL_EVENT_PT_DISABLED",
                fn);
        ret = PTL_PT_EQ_NEEDED;
        goto out_unlock;
    }
    if (req == PTL_PT_ANY) {
        for (index = 0; index <= (ptl_pt_index_t)ni->limits.max_pt_index;
             index++) {
            if (pt_get(ni, index) == NULL) {
                break;
            }
        }
        if (index > (ptl_pt_index_t)ni->limits.max_pt_index) {
            ret = PTL_PT_FULL;
            goto out_unlock;
        }
    } else if (req > (ptl_pt_index_t)ni->limits.max_pt_index) {
        xg_warn("ptl", "%s: portal index %u is larger than max_pt_index %d", fn,
                req, ni->limits.max_pt_index);
        ret = PTL_ARG_INVALID;
        goto out_unlock;
    } else if (pt_get(ni, req) != NULL) {
        ret = PTL_PT_IN_USE;
        goto out_unlock;
    } else {
        index = req;
    }
    pt = ni->pt[index];
    if (pt == NULL) {
        pt = calloc(1, sizeof(*pt));
        if (pt == NULL) {
            ret = PTL_NO_SPACE;
            goto out_unlock;
        }
        xg_nic_list_init(&pt->lists[0]);
        xg_nic_list_init(&pt->lists[1]);
        xg_htab_init(&pt->uh_exact);
        xg_htab_init(&pt->uh_mb);
        ni->pt[index] = pt;
    }
    pt->index     = index;
    pt->options   = options;
    pt->eq        = eq_handle;
    pt->enabled   = 1;
    pt->allocated = 1;
    *pt_index     = index;
out_unlock:
    pthread_mutex_unlock(&ni->lock);
    return ret;
}

/* The allocated portal index @index of NI @ni_handle, returned with the
 * NI locked; NULL (logged, nothing locked) when there is none. */
static xg_nic_pt_t *pt_lock(const char *fn, ptl_handle_ni_t ni_handle,
                            ptl_pt_index_t index, xg_nic_ni_t **ni_p)
{
    xg_nic_ni_t *ni = xg_nic_ni_lookup(ni_handle);
    xg_nic_pt_t *pt;

    if (ni == NULL) {
        xg_warn("ptl", "%s: %#x is not an open NI handle", fn, ni_handle);
        return NULL;
    }
    pthread_mutex_lock(&ni->lock);
    pt = pt_get(ni, index);
    if (pt == NULL) {
        pthread_mutex_unlock(&ni->lock);
        xg_warn("ptl", "%s: portal index %u is not allocated", fn, index);
        return NULL;
    }
    *ni_p = ni;
    return pt;
}

int xg_nic_pt_free(const char *fn, ptl_handle_ni_t ni_handle,
                   ptl_pt_index_t index)
{
    xg_nic_pt_t *pt;
    xg_nic_uh_t *uh;
    xg_nic_ni_t *ni;

    pt = pt_lock(fn, ni_handle, index, &ni);
    if (pt == NULL) {
        return PTL_ARG_INVALID;
    }
    if ((pt->lists[0].count != 0) || (pt->lists[1].count != 0) ||
        (pt->inflight != 0)) {
        pthread_mutex_unlock(&ni->lock);
        xg_info("ptl",
                "%s: portal index %u still has entries or messages "
                "in progress",
                fn, index);
        return PTL_IN_USE;
    }
    /* headers of unexpected messages go; held initiators are released */
    while ((uh = pt->uh_head) != NULL) {
        xg_nic_uh_remove(pt, uh);
        xg_nic_uh_destroy(ni, uh, 1);
    }
    pt->allocated = 0;
    pt->enabled   = 0;
    pthread_mutex_unlock(&ni->lock);
    return PTL_OK;
}

int xg_nic_pt_enable(const char *fn, ptl_handle_ni_t ni_handle,
                     ptl_pt_index_t index, int enable)
{
    xg_nic_pt_t *pt;
    xg_nic_ni_t *ni;
    xg_wait_t wait;

    pt = pt_lock(fn, ni_handle, index, &ni);
    if (pt == NULL) {
        return PTL_ARG_INVALID;
    }
    pt->enabled = (uint8_t)(enable != 0);
    if (!enable) {
        /* returns once messages already being processed are done */
        xg_wait_init(&wait);
        while (pt->inflight != 0) {
            pthread_mutex_unlock(&ni->lock);
            xg_wait_net_backoff(&wait, xg_nic_progress_once(ni->nic));
            pthread_mutex_lock(&ni->lock);
            if (pt_get(ni, index) != pt) {
                break;
            }
        }
    }
    pthread_mutex_unlock(&ni->lock);
    return PTL_OK;
}
