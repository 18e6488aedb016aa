/*
 * List entries: append, unlink, search, and their lifetime.
 *
 * An entry lives while it is linked, while target operations use it
 * (`inflight`) and, for overflow entries, while unexpected headers point
 * into its memory (`uh_refs`).  Unlinking -- by PtlMEUnlink, or
 * automatically on use-once and min_free -- takes it off its list at once;
 * the slot is freed when the last use ends, and an automatically unlinked
 * overflow entry then reports PTL_EVENT_AUTO_FREE (the application may
 * reuse its buffer).
 *
 * Appending to the priority list first searches the unexpected headers
 * (oldest first, through the hash when the entry has no ignore bits): each
 * match produces an overflow event -- or, for a held rendezvous message,
 * the delivery of the whole message into the new entry -- and a use-once
 * entry stops at the first match without being linked.
 */
#include <string.h>

#include "base/xg_log.h"
#include "base/xg_pool.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_ct_int.h"
#include "nic/xg_nic_eq_int.h"
#include "nic/xg_nic_me_int.h"
#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_obj_int.h"
#include "nic/xg_nic_pt_int.h"
#include "nic/xg_nic_region_int.h"
#include "nic/xg_nic_uh_int.h"

static void me_post(xg_nic_ni_t *ni, const xg_nic_me_t *me,
                    ptl_event_kind_t type)
{
    xg_nic_eq_t *eq = xg_nic_eq_of(ni, me->pt->eq);
    ptl_event_t ev;

    if (eq == NULL) {
        return;
    }
    memset(&ev, 0, sizeof(ev));
    ev.type         = type;
    ev.user_ptr     = me->user_ptr;
    ev.pt_index     = me->pt->index;
    ev.ptl_list     = (ptl_list_t)me->list;
    ev.ni_fail_type = PTL_NI_OK;
    ev.start        = xg_nic_region_addr(&me->region, 0);
    ev.match_bits   = me->match_bits;
    xg_nic_eq_post(eq, &ev);
}

void xg_nic_me_destroy(xg_nic_ni_t *ni, xg_nic_me_t *me)
{
    xg_nic_region_fini(&me->region);
    xg_pool_free(&ni->me_pool, me);
    ni->entries--;
}

void xg_nic_me_auto_unlink(xg_nic_ni_t *ni, xg_nic_me_t *me)
{
    xg_nic_list_remove(&me->pt->lists[me->list], me);
    /* the application's handle is no longer valid */
    atomic_store_explicit(&me->obj.handle, 0, memory_order_release);
    if (!me->auto_unlinked && !(me->options & PTL_ME_EVENT_UNLINK_DISABLE)) {
        me_post(ni, me, PTL_EVENT_AUTO_UNLINK);
    }
    me->auto_unlinked = 1;
}

void xg_nic_me_release(xg_nic_ni_t *ni, xg_nic_me_t *me)
{
    if ((me->inflight > 0) || (me->uh_refs > 0) || me->linked ||
        me->trig_pending || (!me->zombie && !me->auto_unlinked)) {
        return;
    }
    if (me->auto_unlinked && (me->list == PTL_OVERFLOW_LIST) &&
        !(me->options & PTL_ME_EVENT_UNLINK_DISABLE)) {
        /* no event will mention this buffer again */
        me_post(ni, me, PTL_EVENT_AUTO_FREE);
    }
    xg_nic_me_destroy(ni, me);
}

/* Looks up (NI, portal) for an append or search; NULL after logging. */
static xg_nic_pt_t *me_pt(const char *fn, xg_nic_ni_t *ni,
                          ptl_pt_index_t pt_index,
                          const xg_nic_entry_desc_t *desc)
{
    xg_nic_pt_t *pt;

    if (desc->is_le == ni->matching) {
        xg_warn("ptl", "%s: %s are for %s NIs; this NI is %s", fn,
                desc->is_le ? "list entries (LE)" : "match list entries (ME)",
                desc->is_le ? "non-matching" : "matching",
                ni->matching ? "matching" : "non-matching");
        return NULL;
    }
    pt = (pt_index < XG_NIC_MAX_PT) ? ni->pt[pt_index] : NULL;
    if ((pt == NULL) || !pt->allocated) {
        xg_warn("ptl", "%s: portal index %u is not allocated (PtlPTAlloc)", fn,
                pt_index);
        return NULL;
    }
    if ((desc->ct_handle != PTL_CT_NONE) &&
        (xg_nic_ct_of(ni, desc->ct_handle) == NULL)) {
        xg_warn("ptl",
                "%s: ct_handle %#x is not a counting event of this "
                "NI",
                fn, desc->ct_handle);
        return NULL;
    }
    return pt;
}

static void me_fill(xg_nic_ni_t *ni, xg_nic_me_t *me, xg_nic_pt_t *pt,
                    const xg_nic_entry_desc_t *desc, ptl_list_t list,
                    void *user_ptr)
{
    me->pt          = pt;
    me->list        = (uint8_t)list;
    me->is_le       = (uint8_t)desc->is_le;
    me->options     = desc->options;
    me->ct          = desc->ct_handle;
    me->uid         = desc->uid;
    me->jid         = desc->jid;
    me->match_id    = desc->match_id;
    me->match_bits  = desc->is_le ? 0 : desc->match_bits;
    me->ignore_bits = desc->is_le ? 0 : desc->ignore_bits;
    me->min_free    = desc->min_free;
    me->user_ptr    = user_ptr;
    me->seq         = ni->seq++;
    xg_nic_me_classify(ni, me);
}

/* Creates an entry (not linked yet) after checking the arguments. */
static int me_create(const char *fn, xg_nic_ni_t *ni, ptl_pt_index_t pt_index,
                     const xg_nic_entry_desc_t *desc, ptl_list_t list,
                     void *user_ptr, xg_nic_me_t **me_p)
{
    xg_nic_region_t region;
    xg_nic_pt_t *pt;
    xg_nic_me_t *me;
    int ret;

    pt = me_pt(fn, ni, pt_index, desc);
    if (pt == NULL) {
        return PTL_ARG_INVALID;
    }
    if (pt->lists[list].count >= (uint32_t)ni->limits.max_list_size) {
        xg_info("ptl",
                "%s: portal %u already holds max_list_size (%d) "
                "entries",
                fn, pt_index, ni->limits.max_list_size);
        return PTL_LIST_TOO_LONG;
    }
    if (list == PTL_PRIORITY_LIST) {
        /* the header search's bucket, while we set the entry up */
        xg_nic_uh_prefetch(ni, pt, desc);
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
        return ret;
    }
    me = xg_pool_alloc(&ni->me_pool);
    if (me == NULL) {
        xg_nic_region_fini(&region);
        xg_info("ptl", "%s: max_entries (%d) entries are allocated", fn,
                ni->limits.max_entries);
        return PTL_NO_SPACE;
    }
    ni->entries++;
    me->region = region;
    me_fill(ni, me, pt, desc, list, user_ptr);
    *me_p = me;
    return PTL_OK;
}

/* Appends a created entry: a priority entry first takes the unexpected
 * headers it matches (and may be used up by them, never being linked). */
static void me_link(xg_nic_ni_t *ni, xg_nic_me_t *me)
{
    xg_nic_pt_t *pt = me->pt;
    xg_nic_uh_t *uh, *next;
    int consumed = 0;

    /* a use held while we search, so a delivery that completes at once
     * cannot free the entry under us */
    me->inflight++;
    if (me->list == PTL_PRIORITY_LIST) {
        uh = xg_nic_uh_find(ni, pt, me, NULL);
        while (uh != NULL) {
            next = xg_nic_uh_next(ni, me, uh);
            xg_nic_tgt_take_header(ni, uh, me, 0, me->user_ptr);
            consumed = 1;
            if ((me->options & PTL_ME_USE_ONCE) || me->consumed ||
                (next == NULL)) {
                break;
            }
            uh = xg_nic_uh_find(ni, pt, me, next);
        }
    }
    me->inflight--;
    if (consumed && ((me->options & PTL_ME_USE_ONCE) || me->consumed)) {
        /* used up before being linked: it never is.  A delivery still in
         * progress posts AUTO_UNLINK when it completes. */
        if (!me->auto_unlinked && (me->inflight == 0)) {
            xg_nic_me_auto_unlink(ni, me);
        }
        xg_nic_me_release(ni, me);
        return;
    }
    xg_nic_list_insert(ni, &pt->lists[me->list], me);
    if (!(me->options & PTL_ME_EVENT_LINK_DISABLE)) {
        me_post(ni, me, PTL_EVENT_LINK);
    }
}

/* The trigger counter of a triggered list routine, or NULL after logging. */
static xg_nic_ct_t *me_trig_ct(const char *fn, xg_nic_ni_t *ni,
                               ptl_handle_ct_t trig_ct)
{
    xg_nic_ct_t *ct = (xg_nic_handle_ni(trig_ct) == ni->index)
                          ? xg_nic_ct_of(ni, trig_ct)
                          : NULL;

    if (ct == NULL) {
        xg_warn("ptl",
                "%s: trigger counter %#x is not a counting event of "
                "the entry's NI",
                fn, trig_ct);
    }
    return ct;
}

int xg_nic_entry_append(const char *fn, ptl_handle_ni_t ni_handle,
                        ptl_pt_index_t pt_index,
                        const xg_nic_entry_desc_t *desc, ptl_list_t list,
                        void *user_ptr, ptl_handle_any_t *handle,
                        ptl_handle_ct_t trig_ct, ptl_size_t threshold)
{
    xg_nic_ni_t *ni     = xg_nic_ni_lookup(ni_handle);
    xg_nic_trig_t *trig = NULL;
    xg_nic_ct_t *ct     = NULL;
    xg_nic_me_t *me;
    int ret;

    if (ni == NULL) {
        xg_warn("ptl", "%s: %#x is not an open NI handle", fn, ni_handle);
        return PTL_ARG_INVALID;
    }
    pthread_mutex_lock(&ni->lock);
    if (trig_ct != PTL_CT_NONE) {
        ct = me_trig_ct(fn, ni, trig_ct);
        if (ct == NULL) {
            ret = PTL_ARG_INVALID;
            goto out_unlock;
        }
        trig = xg_nic_trig_new(ni, fn);
        if (trig == NULL) {
            ret = PTL_NO_SPACE;
            goto out_unlock;
        }
    }
    ret = me_create(fn, ni, pt_index, desc, list, user_ptr, &me);
    if (ret != PTL_OK) {
        if (trig != NULL) {
            xg_pool_free(&ni->trig_pool, trig);
        }
        goto out_unlock;
    }
    *handle = xg_pool_obj_handle(me);
    if (trig == NULL) {
        me_link(ni, me);
        goto out_unlock;
    }
    /* triggered: the entry waits, unlinked, for its counter */
    me->trig_pending = 1;
    trig->kind       = XG_TRIG_ME_APPEND;
    trig->me         = me;
    trig->threshold  = threshold;
    ret              = xg_nic_trig_add(ni, ct, trig); /* may fire at once */
out_unlock:
    pthread_mutex_unlock(&ni->lock);
    return ret;
}

/* Unlinks a live entry; PTL_IN_USE while operations use it. */
static int me_unlink(xg_nic_ni_t *ni, xg_nic_me_t *me)
{
    if (me->inflight > 0) {
        return PTL_IN_USE; /* an operation still uses it: retry */
    }
    if (me->linked) {
        xg_nic_list_remove(&me->pt->lists[me->list], me);
    }
    me->zombie = 1;
    /* the handle dies now; the slot waits for headers pointing into it
     * (or for the trigger of a triggered append, which then frees it) */
    atomic_store_explicit(&me->obj.handle, 0, memory_order_release);
    xg_nic_me_release(ni, me);
    return PTL_OK;
}

int xg_nic_entry_unlink(const char *fn, ptl_handle_any_t handle, int is_le,
                        ptl_handle_ct_t trig_ct, ptl_size_t threshold)
{
    xg_nic_ni_t *ni = xg_nic_ni_lookup(
        xg_nic_handle_make(XG_NIC_OBJ_NI, xg_nic_handle_ni(handle), 0, 0));
    xg_nic_me_t *me = NULL;
    xg_nic_trig_t *trig;
    xg_nic_ct_t *ct;
    int ret;

    if (ni != NULL) {
        pthread_mutex_lock(&ni->lock);
        me = xg_pool_lookup(&ni->me_pool, handle);
    }
    if ((me == NULL) || (me->is_le != is_le)) {
        if (ni != NULL) {
            pthread_mutex_unlock(&ni->lock);
        }
        xg_warn("ptl", "%s: %#x is not a linked %s (unlinked already?)", fn,
                handle, is_le ? "list entry" : "match list entry");
        return PTL_ARG_INVALID;
    }
    if (trig_ct == PTL_CT_NONE) {
        ret = me_unlink(ni, me);
        goto out_unlock;
    }
    ct = me_trig_ct(fn, ni, trig_ct);
    if (ct == NULL) {
        ret = PTL_ARG_INVALID;
        goto out_unlock;
    }
    trig = xg_nic_trig_new(ni, fn);
    if (trig == NULL) {
        ret = PTL_NO_SPACE;
        goto out_unlock;
    }
    trig->kind      = XG_TRIG_ME_UNLINK;
    trig->me_handle = handle;
    trig->threshold = threshold;
    ret             = xg_nic_trig_add(ni, ct, trig);
out_unlock:
    pthread_mutex_unlock(&ni->lock);
    return ret;
}

void xg_nic_me_trig_fire(xg_nic_ni_t *ni, xg_nic_trig_t *trig)
{
    xg_nic_me_t *me;

    if (trig->kind == XG_TRIG_ME_APPEND) {
        me               = trig->me;
        me->trig_pending = 0;
        if (me->zombie) {
            xg_nic_me_release(ni, me); /* unlinked before it was appended */
        } else {
            me_link(ni, me);
        }
        return;
    }
    me = xg_pool_lookup(&ni->me_pool, trig->me_handle);
    if ((me != NULL) && (me_unlink(ni, me) != PTL_OK)) {
        xg_info("ptl",
                "PtlTriggeredMEUnlink: entry %#x is in use when its "
                "trigger fires: it stays linked",
                trig->me_handle);
    }
}

void xg_nic_me_trig_drop(xg_nic_ni_t *ni, xg_nic_trig_t *trig)
{
    xg_nic_me_t *me = trig->me;

    if ((trig->kind != XG_TRIG_ME_APPEND) || !xg_nic_ni_is_open(ni)) {
        return; /* (NI teardown frees every entry itself) */
    }
    /* never to be appended: the entry goes, its handle dies */
    me->trig_pending = 0;
    me->zombie       = 1;
    atomic_store_explicit(&me->obj.handle, 0, memory_order_release);
    xg_nic_me_release(ni, me);
}

int xg_nic_entry_search(const char *fn, ptl_handle_ni_t ni_handle,
                        ptl_pt_index_t pt_index,
                        const xg_nic_entry_desc_t *desc, ptl_search_op_t op,
                        void *user_ptr)
{
    xg_nic_ni_t *ni = xg_nic_ni_lookup(ni_handle);
    xg_nic_pt_t *pt;
    xg_nic_me_t me;
    xg_nic_uh_t *uh, *next;
    xg_nic_eq_t *eq;
    ptl_event_t ev;
    int found = 0;

    if (ni == NULL) {
        xg_warn("ptl", "%s: %#x is not an open NI handle", fn, ni_handle);
        return PTL_ARG_INVALID;
    }
    pthread_mutex_lock(&ni->lock);
    pt = me_pt(fn, ni, pt_index, desc);
    if (pt == NULL) {
        pthread_mutex_unlock(&ni->lock);
        return PTL_ARG_INVALID;
    }
    /* a transient entry, never linked, with the search's fields */
    memset(&me, 0, sizeof(me));
    me_fill(ni, &me, pt, desc, PTL_PRIORITY_LIST, user_ptr);
    ni->seq--; /* it takes no place in the append order */
    uh = xg_nic_uh_find(ni, pt, &me, NULL);
    while (uh != NULL) {
        next = xg_nic_uh_next(ni, &me, uh);
        xg_nic_tgt_take_header(ni, uh, &me, (op == PTL_SEARCH_ONLY) ? 1 : 2,
                               user_ptr);
        found = 1;
        /* (find() with no starting point would begin again at the head) */
        if ((me.options & PTL_ME_USE_ONCE) || (next == NULL)) {
            break;
        }
        uh = xg_nic_uh_find(ni, pt, &me, next);
    }
    /* counting search (4.3): one failure marks the end of the search,
     * except for a use-once entry that found what it looked for */
    if ((me.options & PTL_ME_EVENT_CT_OVERFLOW) &&
        (!found || !(me.options & PTL_ME_USE_ONCE))) {
        xg_nic_ct_t *ct = xg_nic_ct_of(ni, me.ct);

        if (ct != NULL) {
            xg_nic_ct_add(ni, ct, 0, 1);
        }
    }
    eq = xg_nic_eq_of(ni, pt->eq);
    if (!found && (eq != NULL)) {
        memset(&ev, 0, sizeof(ev));
        ev.type         = PTL_EVENT_SEARCH;
        ev.user_ptr     = user_ptr;
        ev.pt_index     = pt_index;
        ev.ni_fail_type = PTL_NI_NO_MATCH;
        xg_nic_eq_post(eq, &ev);
    }
    pthread_mutex_unlock(&ni->lock);
    return PTL_OK;
}
