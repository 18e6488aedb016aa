/*
 * Portals 4: portal table entries and memory descriptors.
 */
#include "api/portals/ptl_int.h"

#define PT_OPTIONS PTL_PT_ALLOC_OPTIONS_MASK
#define MD_OPTIONS PTL_MD_OPTIONS_MASK

XG_PTL_API int PtlPTAlloc(ptl_handle_ni_t ni_handle, unsigned int options,
                          ptl_handle_eq_t eq_handle,
                          ptl_pt_index_t pt_index_req, ptl_pt_index_t *pt_index)
{
    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(pt_index);
    if ((options & ~(unsigned)PT_OPTIONS) != 0) {
        return xg_ptl_bad_arg(__func__,
                              "options %#x has bits other than "
                              "PTL_PT_ONLY_USE_ONCE, PTL_PT_FLOWCTRL, "
                              "PTL_PT_ONLY_TRUNCATE and "
                              "PTL_PT_MATCH_UNORDERED",
                              options);
    }
    return xg_nic_pt_alloc(__func__, ni_handle, options, eq_handle,
                           pt_index_req, pt_index);
}
XG_PPTL(PtlPTAlloc)

XG_PTL_API int PtlPTFree(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index)
{
    XG_PTL_CHECK_INIT();
    return xg_nic_pt_free(__func__, ni_handle, pt_index);
}
XG_PPTL(PtlPTFree)

XG_PTL_API int PtlPTDisable(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index)
{
    XG_PTL_CHECK_INIT();
    return xg_nic_pt_enable(__func__, ni_handle, pt_index, 0);
}
XG_PPTL(PtlPTDisable)

XG_PTL_API int PtlPTEnable(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index)
{
    XG_PTL_CHECK_INIT();
    return xg_nic_pt_enable(__func__, ni_handle, pt_index, 1);
}
XG_PPTL(PtlPTEnable)

XG_PTL_API int PtlMDBind(ptl_handle_ni_t ni_handle, const ptl_md_t *md,
                         ptl_handle_md_t *md_handle)
{
    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(md);
    XG_PTL_CHECK_PTR(md_handle);
    if ((md->options & ~(unsigned)MD_OPTIONS) != 0) {
        return xg_ptl_bad_arg(__func__,
                              "md->options %#x has unknown bits "
                              "(%#x)",
                              md->options, md->options & ~(unsigned)MD_OPTIONS);
    }
    return xg_nic_md_bind(__func__, ni_handle, md, md_handle);
}
XG_PPTL(PtlMDBind)

XG_PTL_API int PtlMDRelease(ptl_handle_md_t md_handle)
{
    XG_PTL_CHECK_INIT();
    return xg_nic_md_release(__func__, md_handle);
}
XG_PPTL(PtlMDRelease)
