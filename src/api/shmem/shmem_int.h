/*
 * Shared internals of the OpenSHMEM layer: argument checks and the
 * translation of (symmetric address, PE) into a pointer.  Every check that
 * fails ends the job with a message naming the routine, the bad value and
 * what to do (OpenSHMEM defines no error returns for these routines).  The
 * checks on the fast path are folded into the translation: one range test
 * on the PE (which also catches "not initialized": npes is 0 then) and one
 * on the address; the diagnosis happens only after a failure.
 */
#ifndef XG_SHMEM_INT_H
#define XG_SHMEM_INT_H

#include <stddef.h>
#include <stdint.h>

#include "base/xg_compiler.h"
#include "gas/xg_gas.h"
#include "shmem.h"

/* Ends the job after printing "<routine>: <what went wrong>". */
XG_NORETURN void xg_shmem_fail(const char *routine, const char *fmt, ...)
    XG_PRINTF(2, 3);

/* The complete translation (NLB miss, globals); when (addr, len, pe) is not
 * valid, diagnoses why and ends the job.  Never returns NULL. */
XG_NOINLINE void *xg_shmem_target_slow(const char *routine, const void *addr,
                                       size_t len, int pe)
    __attribute__((returns_nonnull));

XG_NORETURN XG_NOINLINE void xg_shmem_not_initialized(const char *routine);

XG_NORETURN XG_NOINLINE void xg_shmem_misaligned(const char *routine,
                                                 const void *addr,
                                                 size_t align);

/* Pointer to @len bytes of symmetric @addr on @pe, or the job ends. */
static inline void *xg_shmem_target(const char *routine, const void *addr,
                                    size_t len, int pe)
{
    void *ptr = xg_gas_translate_fast(addr, len, pe);

    if (xg_likely(ptr != NULL)) {
        return ptr;
    }
    return xg_shmem_target_slow(routine, addr, len, pe);
}

/* As xg_shmem_target, and the address must be aligned to @len (atomics). */
static inline void *xg_shmem_atomic_target(const char *routine,
                                           const void *addr, size_t len,
                                           int pe)
{
    if (xg_unlikely(((uintptr_t)addr & (len - 1)) != 0)) {
        xg_shmem_misaligned(routine, addr, len);
    }
    return xg_shmem_target(routine, addr, len, pe);
}

/* For routines without a target PE (fence, quiet, wait...). */
static inline void xg_shmem_check_init(const char *routine)
{
    if (xg_unlikely(xg_gas.npes == 0)) {
        xg_shmem_not_initialized(routine);
    }
}

/* Local symmetric memory the routine reads or waits on (e.g. wait_until's
 * ivar) must be symmetric too; checks it as a target on this PE. */
static inline void *xg_shmem_local(const char *routine, const void *addr,
                                   size_t len)
{
    return xg_shmem_target(routine, addr, len, xg_gas.me);
}

#endif
