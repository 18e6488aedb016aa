/*
 * Portals 4: list entries (non-matching NIs) and match list entries
 * (matching NIs).  Both become one engine entry description.
 */
#include "api/portals/ptl_int.h"

#define LE_OPTIONS PTL_LE_APPEND_OPTIONS_MASK
#define ME_OPTIONS PTL_ME_APPEND_OPTIONS_MASK

static int me_check(const char *fn, unsigned options, unsigned allowed,
                    int list)
{
    if ((options & ~allowed) != 0) {
        return xg_ptl_bad_arg(fn,
                              "options %#x has bits this entry kind does "
                              "not take (%#x)",
                              options, options & ~allowed);
    }
    if ((list != PTL_PRIORITY_LIST) && (list != PTL_OVERFLOW_LIST)) {
        return xg_ptl_bad_arg(fn,
                              "ptl_list %d is neither "
                              "PTL_PRIORITY_LIST nor PTL_OVERFLOW_LIST",
                              list);
    }
    return PTL_OK;
}

static void le_desc(xg_nic_entry_desc_t *desc, const ptl_le_t *le)
{
    desc->is_le         = 1;
    desc->start         = le->start;
    desc->length        = le->length;
    desc->ct_handle     = le->ct_handle;
    desc->uid           = le->uid;
    desc->jid           = le->jid;
    desc->options       = le->options;
    desc->match_id.rank = PTL_RANK_ANY;
    desc->match_bits    = 0;
    desc->ignore_bits   = 0;
    desc->min_free      = 0;
}

static void me_desc(xg_nic_entry_desc_t *desc, const ptl_me_t *me)
{
    desc->is_le       = 0;
    desc->start       = me->start;
    desc->length      = me->length;
    desc->ct_handle   = me->ct_handle;
    desc->uid         = me->uid;
    desc->jid         = me->jid;
    desc->options     = me->options;
    desc->match_id    = me->match_id;
    desc->match_bits  = me->match_bits;
    desc->ignore_bits = me->ignore_bits;
    desc->min_free    = me->min_free;
}

/* Append and search for both entry kinds, once @desc describes the entry
 * (@allowed: the options that kind takes). */
static int entry_append(const char *fn, ptl_handle_ni_t ni_handle,
                        ptl_pt_index_t pt_index,
                        const xg_nic_entry_desc_t *desc, unsigned allowed,
                        ptl_list_t ptl_list, void *user_ptr,
                        ptl_handle_me_t *handle, ptl_handle_ct_t trig_ct,
                        ptl_size_t threshold)
{
    int ret = me_check(fn, desc->options, allowed, (int)ptl_list);

    if (ret != PTL_OK) {
        return ret;
    }
    return xg_nic_entry_append(fn, ni_handle, pt_index, desc, ptl_list,
                               user_ptr, handle, trig_ct, threshold);
}

static int entry_search(const char *fn, ptl_handle_ni_t ni_handle,
                        ptl_pt_index_t pt_index,
                        const xg_nic_entry_desc_t *desc, unsigned allowed,
                        ptl_search_op_t ptl_search_op, void *user_ptr)
{
    int ret = me_check(fn, desc->options, allowed, PTL_PRIORITY_LIST);

    if (ret != PTL_OK) {
        return ret;
    }
    if ((ptl_search_op != PTL_SEARCH_ONLY) &&
        (ptl_search_op != PTL_SEARCH_DELETE)) {
        return xg_ptl_bad_arg(fn,
                              "ptl_search_op %d is neither "
                              "PTL_SEARCH_ONLY nor PTL_SEARCH_DELETE",
                              (int)ptl_search_op);
    }
    return xg_nic_entry_search(fn, ni_handle, pt_index, desc, ptl_search_op,
                               user_ptr);
}

XG_PTL_API int PtlLEAppend(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index,
                           const ptl_le_t *le, ptl_list_t ptl_list,
                           void *user_ptr, ptl_handle_le_t *le_handle)
{
    xg_nic_entry_desc_t desc;

    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(le);
    XG_PTL_CHECK_PTR(le_handle);
    le_desc(&desc, le);
    return entry_append(__func__, ni_handle, pt_index, &desc, LE_OPTIONS,
                        ptl_list, user_ptr, le_handle, PTL_CT_NONE, 0);
}
XG_PPTL(PtlLEAppend)

XG_PTL_API int PtlLEUnlink(ptl_handle_le_t le_handle)
{
    XG_PTL_CHECK_INIT();
    return xg_nic_entry_unlink(__func__, le_handle, 1, PTL_CT_NONE, 0);
}
XG_PPTL(PtlLEUnlink)

XG_PTL_API int PtlLESearch(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index,
                           const ptl_le_t *le, ptl_search_op_t ptl_search_op,
                           void *user_ptr)
{
    xg_nic_entry_desc_t desc;

    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(le);
    le_desc(&desc, le);
    return entry_search(__func__, ni_handle, pt_index, &desc, LE_OPTIONS,
                        ptl_search_op, user_ptr);
}
XG_PPTL(PtlLESearch)

XG_PTL_API int PtlMEAppend(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index,
                           const ptl_me_t *me, ptl_list_t ptl_list,
                           void *user_ptr, ptl_handle_me_t *me_handle)
{
    xg_nic_entry_desc_t desc;

    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(me);
    XG_PTL_CHECK_PTR(me_handle);
    me_desc(&desc, me);
    return entry_append(__func__, ni_handle, pt_index, &desc, ME_OPTIONS,
                        ptl_list, user_ptr, me_handle, PTL_CT_NONE, 0);
}
XG_PPTL(PtlMEAppend)

XG_PTL_API int PtlMEUnlink(ptl_handle_me_t me_handle)
{
    XG_PTL_CHECK_INIT();
    return xg_nic_entry_unlink(__func__, me_handle, 0, PTL_CT_NONE, 0);
}
XG_PPTL(PtlMEUnlink)

XG_PTL_API int PtlMESearch(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index,
                           const ptl_me_t *me, ptl_search_op_t ptl_search_op,
                           void *user_ptr)
{
    xg_nic_entry_desc_t desc;

    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(me);
    me_desc(&desc, me);
    return entry_search(__func__, ni_handle, pt_index, &desc, ME_OPTIONS,
                        ptl_search_op, user_ptr);
}
XG_PPTL(PtlMESearch)

XG_PTL_API int PtlTriggeredMEAppend(ptl_handle_ni_t ni_handle,
                                    ptl_pt_index_t pt_index, const ptl_me_t *me,
                                    ptl_list_t ptl_list, void *user_ptr,
                                    ptl_handle_me_t *me_handle,
                                    ptl_handle_ct_t trig_ct_handle,
                                    ptl_size_t threshold)
{
    xg_nic_entry_desc_t desc;

    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(me);
    XG_PTL_CHECK_PTR(me_handle);
    if (trig_ct_handle == PTL_CT_NONE) {
        return xg_ptl_bad_arg(__func__,
                              "trig_ct_handle is PTL_CT_NONE: "
                              "pass a counting event (or use PtlMEAppend)");
    }
    me_desc(&desc, me);
    return entry_append(__func__, ni_handle, pt_index, &desc, ME_OPTIONS,
                        ptl_list, user_ptr, me_handle, trig_ct_handle,
                        threshold);
}
XG_PPTL(PtlTriggeredMEAppend)

XG_PTL_API int PtlTriggeredMEUnlink(ptl_handle_me_t me_handle,
                                    ptl_handle_ct_t trig_ct_handle,
                                    ptl_size_t threshold)
{
    XG_PTL_CHECK_INIT();
    if (trig_ct_handle == PTL_CT_NONE) {
        return xg_ptl_bad_arg(__func__,
                              "trig_ct_handle is PTL_CT_NONE: "
                              "pass a counting event (or use PtlMEUnlink)");
    }
    return xg_nic_entry_unlink(__func__, me_handle, 0, trig_ct_handle,
                               threshold);
}
XG_PPTL(PtlTriggeredMEUnlink)
