/*
 * Fatal argument errors of the OpenSHMEM layer.  Each message names the
 * routine, the value and the fix; then the job ends with status 1 (xgasrun
 * ends the other PEs and reports this one).
 */
#include "api/shmem/shmem_int.h"
#include "base/xg_log.h"
#include "runtime/xg_runtime.h"

void xg_shmem_not_initialized(const char *routine)
{
    if (xg_runtime_state(XG_RUNTIME_PGAS) == XG_RUNTIME_FINALIZED) {
        xg_shmem_fail(routine,
                      "called after shmem_finalize: OpenSHMEM "
                      "routines may only be called between shmem_init and "
                      "shmem_finalize (call shmem_init again to restart)");
    }
    xg_shmem_fail(routine, "called before shmem_init: call shmem_init (or "
                           "shmem_init_thread) first");
}

void xg_shmem_status_fail(const char *routine, xg_status_t status,
                          const void *addr, size_t len, int pe)
{
    char text[512];

    if (status == XG_ERR_NOT_INITIALIZED) {
        xg_shmem_not_initialized(routine);
    }
    xg_gas_describe_access(status, addr, len, pe, "shmem_malloc",
                           "the length and the object's size", text,
                           sizeof(text));
    xg_shmem_fail(routine, "%s", text);
}

void xg_shmem_check_target_slow(const char *routine, const void *addr,
                                size_t len, int pe)
{
    xg_status_t status = xg_gas_diagnose(addr, len, pe);

    if (status != XG_OK) {
        xg_shmem_status_fail(routine, status, addr, len, pe);
    }
}
