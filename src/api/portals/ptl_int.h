/*
 * Shared internals of the Portals 4 API layer.  Every routine is thin:
 * it checks the arguments that need no engine object (NULL pointers,
 * option bits, enum ranges), says what was wrong in a log line naming the
 * routine, the value and the fix, and makes one call into src/nic.
 *
 * Every routine is an exported weak symbol with a strong profiling alias
 * pPtl<Name>: a tool defines its own PtlPut, which wins over the weak one,
 * and reaches the library's through pPtlPut.
 */
#ifndef XG_PTL_INT_H
#define XG_PTL_INT_H

#include "base/xg_compiler.h"
#include "base/xg_log.h"
#include "nic/xg_nic.h"
#include "portals4.h"
#include "runtime/xg_runtime.h"

#define XG_PTL_API    XG_EXPORT __attribute__((weak))
#define XG_PPTL(name) XG_EXPORT_ALIAS(p##name, name);

/* Logs "<routine>: <text>" and returns PTL_ARG_INVALID. */
int xg_ptl_bad_arg(const char *routine, const char *fmt, ...) XG_PRINTF(2, 3);

/* Returns PTL_NO_INIT from the calling routine outside PtlInit .. the last
 * PtlFini (even while OpenSHMEM keeps the NIC open for its route). */
#define XG_PTL_CHECK_INIT()                                 \
    do {                                                    \
        if (xg_unlikely(xg_runtime_state(XG_RUNTIME_NIC) != \
                        XG_RUNTIME_ACTIVE)) {               \
            return PTL_NO_INIT;                             \
        }                                                   \
    } while (0)

/* Returns PTL_ARG_INVALID when @ptr is NULL. */
#define XG_PTL_CHECK_PTR(ptr)                                             \
    do {                                                                  \
        if (xg_unlikely((ptr) == NULL)) {                                 \
            return xg_ptl_bad_arg(__func__, "%s must not be NULL", #ptr); \
        }                                                                 \
    } while (0)

/* Milliseconds of a ptl_time_t for the engine's poll routines. */
static inline uint64_t xg_ptl_timeout(ptl_time_t timeout)
{
    return (timeout == PTL_TIME_FOREVER) ? XG_NIC_FOREVER : timeout;
}

#endif
