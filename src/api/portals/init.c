/*
 * Portals 4: initialization, network interfaces, addressing, bundles and
 * handles.
 */
#include <stdarg.h>
#include <stdio.h>

#include "api/portals/ptl_int.h"

int xg_ptl_bad_arg(const char *routine, const char *fmt, ...)
{
    char text[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    xg_warn("ptl", "%s: %s", routine, text);
    return PTL_ARG_INVALID;
}

XG_PTL_API int PtlInit(void)
{
    return (xg_runtime_init(XG_RUNTIME_NIC) == XG_OK) ? PTL_OK : PTL_FAIL;
}
XG_PPTL(PtlInit)

XG_PTL_API void PtlFini(void)
{
    (void)xg_runtime_fini(XG_RUNTIME_NIC);
}
XG_PPTL(PtlFini)

XG_PTL_API int PtlNIInit(ptl_interface_t iface, unsigned int options,
                         ptl_pid_t pid, const ptl_ni_limits_t *desired,
                         ptl_ni_limits_t *actual, ptl_handle_ni_t *ni_handle)
{
    unsigned match = options & (PTL_NI_MATCHING | PTL_NI_NO_MATCHING);
    unsigned addr  = options & (PTL_NI_LOGICAL | PTL_NI_PHYSICAL);

    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(ni_handle);
    if ((options & ~(unsigned)PTL_NI_INIT_OPTIONS_MASK) != 0) {
        return xg_ptl_bad_arg(__func__, "options %#x has unknown bits",
                              options);
    }
    if ((match != PTL_NI_MATCHING) && (match != PTL_NI_NO_MATCHING)) {
        return xg_ptl_bad_arg(__func__,
                              "options %#x must hold exactly one "
                              "of PTL_NI_MATCHING and PTL_NI_NO_MATCHING",
                              options);
    }
    if ((addr != PTL_NI_LOGICAL) && (addr != PTL_NI_PHYSICAL)) {
        return xg_ptl_bad_arg(__func__,
                              "options %#x must hold exactly one "
                              "of PTL_NI_LOGICAL and PTL_NI_PHYSICAL",
                              options);
    }
    return xg_nic_ni_init(__func__, iface, options, pid, desired, actual,
                          ni_handle);
}
XG_PPTL(PtlNIInit)

XG_PTL_API int PtlNIFini(ptl_handle_ni_t ni_handle)
{
    XG_PTL_CHECK_INIT();
    return xg_nic_ni_fini(__func__, ni_handle);
}
XG_PPTL(PtlNIFini)

XG_PTL_API int PtlNIHandle(ptl_handle_any_t handle, ptl_handle_ni_t *ni_handle)
{
    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(ni_handle);
    return xg_nic_ni_handle(__func__, handle, ni_handle);
}
XG_PPTL(PtlNIHandle)

XG_PTL_API int PtlNIStatus(ptl_handle_ni_t ni_handle,
                           ptl_sr_index_t status_register,
                           ptl_sr_value_t *status)
{
    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(status);
    if (status_register >= PTL_SR_LAST) {
        return xg_ptl_bad_arg(__func__,
                              "status register %u does not exist "
                              "(PTL_SR_DROP_COUNT, "
                              "PTL_SR_PERMISSION_VIOLATIONS, "
                              "PTL_SR_OPERATION_VIOLATIONS)",
                              status_register);
    }
    return xg_nic_ni_status(__func__, ni_handle, status_register, status);
}
XG_PPTL(PtlNIStatus)

XG_PTL_API int PtlSetMap(ptl_handle_ni_t ni_handle, ptl_size_t map_size,
                         const ptl_process_t *mapping)
{
    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(mapping);
    return xg_nic_set_map(__func__, ni_handle, map_size, mapping);
}
XG_PPTL(PtlSetMap)

XG_PTL_API int PtlGetMap(ptl_handle_ni_t ni_handle, ptl_size_t map_size,
                         ptl_process_t *mapping, ptl_size_t *actual_map_size)
{
    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(actual_map_size);
    if ((map_size != 0) && (mapping == NULL)) {
        return xg_ptl_bad_arg(__func__,
                              "mapping is NULL but map_size is "
                              "%llu",
                              (unsigned long long)map_size);
    }
    return xg_nic_get_map(__func__, ni_handle, map_size, mapping,
                          actual_map_size);
}
XG_PPTL(PtlGetMap)

XG_PTL_API int PtlGetId(ptl_handle_ni_t ni_handle, ptl_process_t *id)
{
    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(id);
    return xg_nic_get_id(__func__, ni_handle, 0, id);
}
XG_PPTL(PtlGetId)

XG_PTL_API int PtlGetPhysId(ptl_handle_ni_t ni_handle, ptl_process_t *id)
{
    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(id);
    return xg_nic_get_id(__func__, ni_handle, 1, id);
}
XG_PPTL(PtlGetPhysId)

XG_PTL_API int PtlGetUid(ptl_handle_ni_t ni_handle, ptl_uid_t *uid)
{
    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(uid);
    return xg_nic_get_uid(__func__, ni_handle, uid, NULL);
}
XG_PPTL(PtlGetUid)

XG_PTL_API int PtlGetJid(ptl_handle_ni_t ni_handle, ptl_jid_t *jid)
{
    XG_PTL_CHECK_INIT();
    XG_PTL_CHECK_PTR(jid);
    return xg_nic_get_uid(__func__, ni_handle, NULL, jid);
}
XG_PPTL(PtlGetJid)

XG_PTL_API int PtlStartBundle(ptl_handle_ni_t ni_handle)
{
    XG_PTL_CHECK_INIT();
    return xg_nic_bundle(__func__, ni_handle, 1);
}
XG_PPTL(PtlStartBundle)

XG_PTL_API int PtlEndBundle(ptl_handle_ni_t ni_handle)
{
    XG_PTL_CHECK_INIT();
    return xg_nic_bundle(__func__, ni_handle, 0);
}
XG_PPTL(PtlEndBundle)

XG_PTL_API int PtlHandleIsEqual(ptl_handle_any_t handle1,
                                ptl_handle_any_t handle2)
{
    return handle1 == handle2;
}
XG_PPTL(PtlHandleIsEqual)

XG_PTL_API void PtlAbort(void)
{
    xg_nic_abort();
}
XG_PPTL(PtlAbort)
