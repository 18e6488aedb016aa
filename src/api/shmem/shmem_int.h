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
#include "gas/xg_team.h"
#include "shmem.h"

/*
 * Every OpenSHMEM routine is defined with XG_SHMEM_API -- an exported weak
 * symbol -- and followed by XG_PSHMEM(name), which exports the strong alias
 * pshmem_<name> (the profiling interface): a tool defines its own
 * shmem_<name>, which wins over the weak one, and reaches the library's
 * through pshmem_<name>.
 */
#define XG_SHMEM_API XG_EXPORT __attribute__((weak))
#define XG_PSHMEM(name)                                                    \
    extern __typeof__(name) p##name                                        \
        __attribute__((alias(#name), visibility("default")));
#define XG_PSHMEM_NORETURN(name)                                           \
    extern __typeof__(name) p##name                                        \
        __attribute__((alias(#name), visibility("default"), noreturn));

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

/* shmem_ptr and shmem_team_ptr: a pointer to @dest on world PE @pe, @dest
 * itself for this PE, or NULL. */
void *xg_shmem_ptr(const void *dest, int pe);

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

/*
 * Communication contexts.  On this node every operation completes before
 * it returns (a put is a copy, an atomic one instruction), so a context
 * holds no pending operations and needs no lock: it only names the team
 * whose PE numbers its routines take, and its options.
 */
struct xg_shmem_ctx {
    xg_team_t           *team;
    long                 options;
    struct xg_shmem_ctx *prev, *next; /* contexts the program created */
};

/* Destroys the shareable contexts of @team (NULL: of every team) and
 * orphans its private ones (see ctx.c). */
void xg_shmem_ctx_release_team(const xg_team_t *team);

XG_NORETURN XG_NOINLINE void xg_shmem_ctx_bad(const char *routine,
                                              shmem_ctx_t ctx, int pe);

/* World PE of team-relative @pe on @ctx, or the job ends (invalid context,
 * PE outside the context's team, library not running). */
static inline int xg_shmem_ctx_pe(const char *routine, shmem_ctx_t ctx,
                                  int pe)
{
    const xg_team_t *team;

    if (xg_unlikely(ctx == SHMEM_CTX_INVALID)) {
        xg_shmem_ctx_bad(routine, ctx, pe);
    }
    team = ctx->team;
    if (xg_unlikely((unsigned)pe >= (unsigned)team->size)) {
        xg_shmem_ctx_bad(routine, ctx, pe);
    }
    return xg_team_world_pe(team, pe);
}

/*
 * Defining a routine and its context form at once:
 *
 *   XG_SHMEM_DEFINE(void, long_p, (long *dest, long value, int pe),
 *                   body that uses pe as a world PE)
 *
 * defines shmem_long_p(dest, value, pe) and shmem_ctx_long_p(ctx, dest,
 * value, pe) -- whose body first turns pe from a PE of the context's team
 * into a world PE -- and their pshmem_ names.  The body comes last (it may
 * contain commas); in each function, __func__ names that function.
 */
#define XG_CTX_PARAMS(...) (shmem_ctx_t ctx, __VA_ARGS__)

#define XG_SHMEM_DEFINE(RET, NAME, PARAMS, ...)                            \
    XG_SHMEM_API RET shmem_##NAME PARAMS                                   \
    {                                                                      \
        __VA_ARGS__                                                        \
    }                                                                      \
    XG_PSHMEM(shmem_##NAME)                                                \
    XG_SHMEM_API RET shmem_ctx_##NAME XG_CTX_PARAMS PARAMS                 \
    {                                                                      \
        pe = xg_shmem_ctx_pe(__func__, ctx, pe);                           \
        __VA_ARGS__                                                        \
    }                                                                      \
    XG_PSHMEM(shmem_ctx_##NAME)

#endif
