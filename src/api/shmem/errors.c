/*
 * Fatal argument errors of the OpenSHMEM layer.  Each message names the
 * routine, the value and the fix; then the job ends with status 1 (xgasrun
 * ends the other PEs and reports this one).
 */
#include "api/shmem/shmem_int.h"
#include "base/xg_log.h"
#include "gas/xg_gas_nic.h"
#include "runtime/xg_runtime.h"

void xg_shmem_not_initialized(const char *routine)
{
    if (xg_runtime_state(XG_RUNTIME_PGAS) == XG_RUNTIME_FINALIZED) {
        xg_shmem_fail(routine, "called after shmem_finalize: OpenSHMEM "
                      "routines may only be called between shmem_init and "
                      "shmem_finalize (call shmem_init again to restart)");
    }
    xg_shmem_fail(routine, "called before shmem_init: call shmem_init (or "
                  "shmem_init_thread) first");
}

XG_NORETURN static void errors_misaligned(const char *routine,
                                          const void *addr, size_t align)
{
    xg_shmem_fail(routine, "address %p is not aligned to %zu bytes: atomic "
                  "operations need a naturally aligned operand", addr, align);
}

void xg_shmem_status_fail(const char *routine, xg_status_t status,
                          const void *addr, size_t len, int pe)
{
    char ranges[256];

    switch (status) {
    case XG_ERR_NOT_INITIALIZED:
        xg_shmem_not_initialized(routine);
    case XG_ERR_MISALIGNED:
        errors_misaligned(routine, addr, len);
    case XG_ERR_PE_RANGE:
        xg_shmem_fail(routine, "PE %d is out of range: this job has %d PEs "
                      "(0..%d)", pe, xg_gas.npes, xg_gas.npes - 1);
    case XG_ERR_NOT_SYMMETRIC:
        xg_gas_describe_ranges(ranges, sizeof(ranges));
        xg_shmem_fail(routine, "address %p is not symmetric (%s): use memory "
                      "from shmem_malloc or a global/static variable", addr,
                      ranges);
    case XG_ERR_OUT_OF_BOUNDS:
        xg_gas_describe_ranges(ranges, sizeof(ranges));
        xg_shmem_fail(routine, "%zu bytes at %p run past the end of the "
                      "symmetric memory of PE %d (%s): check the length and "
                      "the object's size", len, addr, pe, ranges);
    case XG_ERR_UNREACHABLE:
        if (xg_gas_nic_reaches(pe)) {
            xg_shmem_fail(routine, "an operation through the NIC to PE %d "
                          "failed: the PE left the job or its NIC refused "
                          "the operation (see the messages above)", pe);
        }
        xg_shmem_fail(routine, "PE %d is not reachable by load/store and "
                      "this build has no off-node transport: run every PE "
                      "of the job on one node", pe);
    default:
        xg_shmem_fail(routine, "%zu bytes at %p on PE %d cannot be accessed "
                      "(%s)", len, addr, pe, xg_status_str(status));
    }
}

void xg_shmem_check_target_slow(const char *routine, const void *addr,
                                size_t len, int pe)
{
    xg_status_t status = xg_gas_diagnose(addr, len, pe);

    if (status != XG_OK) {
        xg_shmem_status_fail(routine, status, addr, len, pe);
    }
}
