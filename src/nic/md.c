/*
 * Memory descriptors: binding (a region with its event queue and counter)
 * and releasing.  An MD counts the operations in flight on it (`pending`:
 * sent and not yet answered -- an acknowledgement, a reply, the local
 * send completion) and the triggered operations that will use it
 * (`triggers`).
 *
 * PtlMDRelease answers PTL_IN_USE while either is non-zero (Portals 4.1,
 * 3.10.3), but it first waits for the operations in flight: their answers
 * are packets already on their way, which this thread processes itself
 * (xg_nic_progress_once, as PtlCTWait does) until the last one lands or
 * MD_RELEASE_WAIT_NS pass.  Without the wait a program that releases an
 * MD right after a barrier that follows its acknowledged put finds it in
 * use whenever the acknowledgement has not been handled yet (the
 * reference suite's test_eq_overflow-001, 7 of 8 runs), although nothing
 * but this process's own progress stands between it and PTL_OK.  The
 * bound keeps the call from hanging on an answer that never comes (a peer
 * gone across nodes); triggered operations wait for a counter only the
 * application moves, so they are never waited for.  The progress thread
 * itself (a handler running there) does not wait: it is what would
 * deliver the answers.
 */
#include <string.h>

#include "base/xg_log.h"
#include "base/xg_time.h"
#include "base/xg_wait.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_md_int.h"
#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_obj_int.h"
#include "nic/xg_nic_progress_int.h"
#include "nic/xg_nic_region_int.h"

/* How long PtlMDRelease waits for the answers to operations in flight. */
#define MD_RELEASE_WAIT_NS 2000000000ull /* 2 s */

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
        xg_warn("ptl", "%s: eq_handle %#x or ct_handle %#x is not an object "
                "of this NI", fn, desc->eq_handle, desc->ct_handle);
        ret = PTL_ARG_INVALID;
        goto out_unlock;
    }
    /* the arguments first, resources after */
    ret = xg_nic_region_init(&region, desc->start, desc->length,
                             (desc->options & PTL_IOVEC) != 0,
                             ni->limits.max_iovecs);
    if (ret != PTL_OK) {
        xg_warn("ptl", "%s: start %p / length %llu do not describe memory "
                "(a NULL start takes a length of 0, or PTL_SIZE_MAX for the "
                "whole address space; or a bad iovec list)", fn,
                desc->start, (unsigned long long)desc->length);
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

/* @md_handle's MD with @ni locked (@ni is NULL if the handle names no NI),
 * or NULL unlocked. */
static xg_nic_md_t *md_lock(xg_nic_ni_t *ni, ptl_handle_md_t md_handle)
{
    xg_nic_md_t *md;

    if (ni == NULL) {
        return NULL;
    }
    pthread_mutex_lock(&ni->lock);
    md = xg_pool_lookup(&ni->md_pool, md_handle);
    if (md == NULL) {
        pthread_mutex_unlock(&ni->lock);
    }
    return md;
}

/* Processes packets until @md_handle's operations in flight are answered
 * or the bound passes: its MD, @ni locked, or NULL (released meanwhile by
 * another thread). */
static xg_nic_md_t *md_drain(xg_nic_ni_t *ni, ptl_handle_md_t md_handle,
                             xg_nic_md_t *md)
{
    uint64_t deadline = xg_time_ns() + MD_RELEASE_WAIT_NS;
    xg_wait_t wait;

    if (xg_nic_engine_thread() ||
        (xg_nic_wait_enter(ni->nic) != PTL_OK)) {
        return md; /* the poller itself, or aborted */
    }
    xg_wait_init(&wait);
    while ((md != NULL) && (md->pending != 0) &&
           (xg_time_ns() < deadline) && xg_nic_ni_is_open(ni) &&
           !xg_nic_aborted(ni->nic)) {
        pthread_mutex_unlock(&ni->lock);
        xg_wait_net_backoff(&wait, xg_nic_progress_once(ni->nic));
        md = md_lock(ni, md_handle);
    }
    xg_nic_wait_leave(ni->nic);
    return md;
}

int xg_nic_md_release(const char *fn, ptl_handle_md_t md_handle)
{
    xg_nic_ni_t *ni = xg_nic_ni_lookup(xg_nic_handle_make(
        XG_NIC_OBJ_NI, xg_nic_handle_ni(md_handle), 0, 0));
    xg_nic_md_t *md = md_lock(ni, md_handle);
    int ret = PTL_OK;

    if ((md != NULL) && (md->pending != 0)) {
        md = md_drain(ni, md_handle, md);
    }
    if (md == NULL) {
        xg_warn("ptl", "%s: %#x is not a bound memory descriptor", fn,
                md_handle);
        return PTL_ARG_INVALID;
    }
    if ((md->pending != 0) || (md->triggers != 0)) {
        xg_info("ptl", "%s: MD %#x is in use: %u operations in flight "
                "(unanswered after %llu ms), %u triggered operations "
                "pending (cancel them with PtlCTCancelTriggered or "
                "PtlCTFree)", fn, md_handle, md->pending,
                MD_RELEASE_WAIT_NS / 1000000ull, md->triggers);
        ret = PTL_IN_USE;
        goto out_unlock;
    }
    xg_nic_region_fini(&md->region);
    xg_pool_free(&ni->md_pool, md);
out_unlock:
    pthread_mutex_unlock(&ni->lock);
    return ret;
}
