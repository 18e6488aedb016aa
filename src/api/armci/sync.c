/*
 * ARMCI completion and synchronization: fences, the barrier, and the
 * waits and tests of non-blocking handles.
 */
#include <string.h>

#include "api/armci/armci_int.h"

void xg_armci_all_fence(const char *routine)
{
    xg_status_t status = xg_gas_region_fence(-1);

    if (status != XG_OK) {
        xg_armci_fail(routine,
                      "completing this process's operations failed "
                      "(%s): the messages above say why",
                      xg_status_str(status));
    }
    /* and this process's stores, for the loads that follow */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void xg_armci_barrier(const char *routine, ARMCI_Group *group)
{
    /* the world that is the whole job uses gas's barrier, which serves
     * what waits for this process's thread; MPI's for any other group */
    if ((group->comm == xg_armci.world.comm) && xg_armci.identity) {
        xg_gas_barrier_named(routine);
    } else {
        xg_gas_am_serve();
        MPI_Barrier(group->comm);
    }
}

XG_ARMCI_API void PARMCI_Fence(int proc)
{
    xg_status_t status;

    status = xg_gas_region_fence(xg_armci_check_proc("ARMCI_Fence", proc));
    if (status != XG_OK) {
        xg_armci_fail("ARMCI_Fence",
                      "completing the operations to process "
                      "%d failed (%s)",
                      proc, xg_status_str(status));
    }
}
XG_ARMCI_WEAK(ARMCI_Fence);

XG_ARMCI_API void PARMCI_AllFence(void)
{
    xg_armci_check_running("ARMCI_AllFence");
    xg_armci_all_fence("ARMCI_AllFence");
}
XG_ARMCI_WEAK(ARMCI_AllFence);

XG_ARMCI_API void PARMCI_Barrier(void)
{
    xg_armci_check_running("ARMCI_Barrier");
    xg_armci_all_fence("ARMCI_Barrier");
    xg_armci_barrier("ARMCI_Barrier", &xg_armci.world);
}
XG_ARMCI_WEAK(ARMCI_Barrier);

/* ---- handles ----------------------------------------------------------------- */

XG_ARMCI_API void ARMCI_INIT_HANDLE(armci_hdl_t *hdl)
{
    if (hdl != NULL) {
        memset(hdl, 0, sizeof(*hdl));
    }
}

XG_ARMCI_API void ARMCI_SET_AGGREGATE_HANDLE(armci_hdl_t *handle)
{
    if (handle != NULL) {
        handle->aggregate = 1;
    }
}

XG_ARMCI_API void ARMCI_UNSET_AGGREGATE_HANDLE(armci_hdl_t *handle)
{
    if (handle != NULL) {
        handle->aggregate = 0;
    }
}

static void armci_check_hdl(const char *routine, const armci_hdl_t *hdl)
{
    xg_armci_check_running(routine);
    if (hdl == NULL) {
        xg_armci_fail(routine, "the handle is NULL: pass the handle the "
                               "non-blocking operation was given");
    }
}

XG_ARMCI_API int PARMCI_Wait(armci_hdl_t *hdl)
{
    xg_status_t status;

    armci_check_hdl("ARMCI_Wait", hdl);
    if (!hdl->active) {
        return 0;
    }
    status = xg_gas_region_complete(hdl->pending);
    if (status != XG_OK) {
        xg_armci_fail("ARMCI_Wait",
                      "the operations of the handle failed "
                      "(%s)",
                      xg_status_str(status));
    }
    hdl->active  = 0;
    hdl->pending = NULL;
    return 0;
}
XG_ARMCI_WEAK(ARMCI_Wait);

XG_ARMCI_API int PARMCI_Test(armci_hdl_t *hdl)
{
    armci_check_hdl("ARMCI_Test", hdl);
    if (hdl->active && !xg_gas_region_test(hdl->pending)) {
        return 1;
    }
    hdl->active  = 0;
    hdl->pending = NULL;
    return 0;
}
XG_ARMCI_WEAK(ARMCI_Test);

XG_ARMCI_API int PARMCI_WaitProc(int proc)
{
    xg_status_t status;

    /* the NIC route counts per allocation, not per process: all of them */
    xg_armci_check_proc("ARMCI_WaitProc", proc);
    xg_gas_am_serve();
    status = xg_gas_region_complete(NULL);
    if (status != XG_OK) {
        xg_armci_fail("ARMCI_WaitProc",
                      "the operations to process %d "
                      "failed (%s)",
                      proc, xg_status_str(status));
    }
    return 0;
}
XG_ARMCI_WEAK(ARMCI_WaitProc);

XG_ARMCI_API int PARMCI_WaitAll(void)
{
    xg_status_t status;

    xg_armci_check_running("ARMCI_WaitAll");
    xg_gas_am_serve();
    status = xg_gas_region_complete(NULL);
    if (status != XG_OK) {
        xg_armci_fail("ARMCI_WaitAll",
                      "the outstanding operations failed "
                      "(%s)",
                      xg_status_str(status));
    }
    return 0;
}
XG_ARMCI_WEAK(ARMCI_WaitAll);
