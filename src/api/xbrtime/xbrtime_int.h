/*
 * Shared internals of the xbrtime binding (include/xbrtime.h): the
 * binding's context for the gas operations and its error policy.
 *
 * The published runtime reports nothing: its void routines fault or
 * corrupt memory on a bad argument.  Here a routine that cannot do what it
 * was asked ends the job with a message naming the routine, the bad value
 * and the fix; the routines that have a result to return (init, malloc,
 * mype, num_pes, addr_accessible) return their published failure value
 * instead.
 */
#ifndef XG_XBRTIME_INT_H
#define XG_XBRTIME_INT_H

#include <stddef.h>

#include "base/xg_compiler.h"
#include "base/xg_log.h"
#include "gas/xg_gas.h"
#include "gas/xg_gas_ops.h"
#include "xbrtime.h"

/* Routines are exported with their published names. */
#define XG_XBRTIME_API XG_EXPORT

/* The one context of the binding: its _nb transfers complete at
 * xbrtime_barrier (the published API has no other completion call). */
extern xg_gas_ctx_t xg_xbrtime_ctx;

/* Ends the job after printing "<routine>: <what went wrong>". */
#define xg_xbrtime_fail(routine, ...) \
    xg_fatal_api("xbrtime", routine, __VA_ARGS__)

/* Ends the job for a routine called while the runtime is not running. */
XG_NORETURN XG_NOINLINE void xg_xbrtime_not_running(const char *routine);

/* Ends the job for a gas operation that returned @status on @len bytes at
 * symmetric @addr of PE @pe, saying why in the user's terms. */
XG_NORETURN XG_NOINLINE void xg_xbrtime_access_fail(const char *routine,
                                                    xg_status_t status,
                                                    const void *addr,
                                                    size_t len, int pe);

static inline void xg_xbrtime_check_running(const char *routine)
{
    if (xg_unlikely(xg_gas.npes == 0)) {
        xg_xbrtime_not_running(routine);
    }
}

/* A stride of the published API (elements, applies to both arrays) must
 * be at least 1. */
void xg_xbrtime_check_stride(const char *routine, const char *what, int stride);

/* @nelems elements of @elem_size bytes at @stride elements apart span
 * this many bytes; the job ends if that overflows. */
size_t xg_xbrtime_span(const char *routine, size_t nelems, int stride,
                       size_t elem_size);

#endif
