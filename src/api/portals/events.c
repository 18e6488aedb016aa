/*
 * Portals 4: counting events and event queues.
 */
#include "api/portals/ptl_int.h"

XG_PTL_API int PtlCTAlloc(ptl_handle_ni_t ni_handle, ptl_handle_ct_t *ct_handle)
{
    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(ct_handle);
    return xg_nic_ct_alloc(__func__, ni_handle, ct_handle);
}
XG_PPTL(PtlCTAlloc)

XG_PTL_API int PtlCTFree(ptl_handle_ct_t ct_handle)
{
    XG_PTL_CHECK_INIT();
    return xg_nic_ct_free(__func__, ct_handle);
}
XG_PPTL(PtlCTFree)

XG_PTL_API int PtlCTCancelTriggered(ptl_handle_ct_t ct_handle)
{
    XG_PTL_CHECK_INIT();
    return xg_nic_ct_cancel(__func__, ct_handle);
}
XG_PPTL(PtlCTCancelTriggered)

XG_PTL_API int PtlCTGet(ptl_handle_ct_t ct_handle, ptl_ct_event_t *event)
{
    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(event);
    return xg_nic_ct_get(__func__, ct_handle, event);
}
XG_PPTL(PtlCTGet)

XG_PTL_API int PtlCTWait(ptl_handle_ct_t ct_handle, ptl_size_t test,
                         ptl_ct_event_t *event)
{
    ptl_ct_event_t ignored;

    XG_PTL_CHECK_INIT();
    return xg_nic_ct_poll(__func__, &ct_handle, &test, 1, XG_NIC_FOREVER,
                          (event != NULL) ? event : &ignored, NULL);
}
XG_PPTL(PtlCTWait)

XG_PTL_API int PtlCTPoll(const ptl_handle_ct_t *ct_handles,
                         const ptl_size_t *tests, unsigned int size,
                         ptl_time_t timeout, ptl_ct_event_t *event,
                         unsigned int *which)
{
    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(ct_handles);
    XG_PTL_CHECK_PTR(tests);
    XG_PTL_CHECK_PTR(event);
    if (size == 0) {
        return xg_ptl_bad_arg(__func__, "size must be at least 1");
    }
    return xg_nic_ct_poll(__func__, ct_handles, tests, size,
                          xg_ptl_timeout(timeout), event, which);
}
XG_PPTL(PtlCTPoll)

XG_PTL_API int PtlCTSet(ptl_handle_ct_t ct_handle, ptl_ct_event_t new_ct)
{
    XG_PTL_CHECK_INIT();
    return xg_nic_ct_update(__func__, ct_handle, new_ct, 1);
}
XG_PPTL(PtlCTSet)

XG_PTL_API int PtlCTInc(ptl_handle_ct_t ct_handle, ptl_ct_event_t increment)
{
    XG_PTL_CHECK_INIT();
    if ((increment.success != 0) && (increment.failure != 0)) {
        return xg_ptl_bad_arg(__func__,
                              "increment sets both success (%llu) "
                              "and failure (%llu): only one may be non-zero",
                              (unsigned long long)increment.success,
                              (unsigned long long)increment.failure);
    }
    return xg_nic_ct_update(__func__, ct_handle, increment, 0);
}
XG_PPTL(PtlCTInc)

XG_PTL_API int PtlEQAlloc(ptl_handle_ni_t ni_handle, ptl_size_t count,
                          ptl_handle_eq_t *eq_handle)
{
    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(eq_handle);
    return xg_nic_eq_alloc(__func__, ni_handle, count, eq_handle);
}
XG_PPTL(PtlEQAlloc)

XG_PTL_API int PtlEQFree(ptl_handle_eq_t eq_handle)
{
    XG_PTL_CHECK_INIT();
    return xg_nic_eq_free(__func__, eq_handle);
}
XG_PPTL(PtlEQFree)

XG_PTL_API int PtlEQGet(ptl_handle_eq_t eq_handle, ptl_event_t *event)
{
    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(event);
    return xg_nic_eq_get(__func__, eq_handle, event);
}
XG_PPTL(PtlEQGet)

XG_PTL_API int PtlEQWait(ptl_handle_eq_t eq_handle, ptl_event_t *event)
{
    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(event);
    return xg_nic_eq_poll(__func__, &eq_handle, 1, XG_NIC_FOREVER, event, NULL);
}
XG_PPTL(PtlEQWait)

XG_PTL_API int PtlEQPoll(const ptl_handle_eq_t *eq_handles, unsigned int size,
                         ptl_time_t timeout, ptl_event_t *event,
                         unsigned int *which)
{
    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(eq_handles);
    XG_PTL_CHECK_PTR(event);
    if (size == 0) {
        return xg_ptl_bad_arg(__func__, "size must be at least 1");
    }
    return xg_nic_eq_poll(__func__, eq_handles, size, xg_ptl_timeout(timeout),
                          event, which);
}
XG_PPTL(PtlEQPoll)
