/*
 * Descriptions of xg_status_t values.  One table, indexed by the switch, so a
 * new code without a message fails the status unit test.
 */
#include "xgas_status.h"

#include "base/xg_compiler.h"

XG_EXPORT const char *xg_status_str(xg_status_t status)
{
    switch (status) {
    case XG_OK: return "success";
    case XG_INPROGRESS: return "operation in progress";
    case XG_ERR_INVALID_PARAM: return "invalid parameter";
    case XG_ERR_NOT_INITIALIZED: return "library not initialized";
    case XG_ERR_PE_RANGE: return "PE number out of range";
    case XG_ERR_NOT_SYMMETRIC: return "address is not symmetric";
    case XG_ERR_OUT_OF_BOUNDS:
        return "range runs past the end of a symmetric segment";
    case XG_ERR_MISALIGNED: return "address is not aligned to the operand size";
    case XG_ERR_UNSUPPORTED: return "operation not supported";
    case XG_ERR_NO_MEMORY: return "out of memory";
    case XG_ERR_NO_RESOURCE: return "resource temporarily exhausted";
    case XG_ERR_ADDRESS_IN_USE: return "virtual address range already in use";
    case XG_ERR_BOOT: return "bootstrap failure";
    case XG_ERR_UNREACHABLE: return "peer unreachable";
    case XG_ERR_MISMATCH: return "PEs disagree on a collective argument";
    case XG_ERR_IO: return "system call failed";
    case XG_ERR_INTERNAL: return "internal error";
    }
    return "unknown status";
}
