/*
 * Shared internals of the OpenSHMEM layer: argument checks and the error
 * policy over the gas operations (gas/xg_gas_ops.h).  Every check that
 * fails, and every status a gas operation returns, ends the job with a
 * message naming the routine, the bad value and what to do (OpenSHMEM
 * defines no error returns for these routines).  The checks on the fast
 * path are folded into the gas operation's translation: one range test on
 * the PE (which also catches "not initialized": npes is 0 then) and one on
 * the address; the diagnosis happens only after a failure.
 */
#ifndef XG_SHMEM_INT_H
#define XG_SHMEM_INT_H

#include <stddef.h>
#include <stdint.h>

#include "base/xg_compiler.h"
#include "base/xg_log.h"
#include "gas/coll/xg_team.h"
#include "gas/xg_gas.h"
#include "gas/xg_gas_ops.h"
#include "shmem.h"

/*
 * Every OpenSHMEM routine is defined with XG_SHMEM_API -- an exported weak
 * symbol -- and followed by XG_PSHMEM(name), which exports the strong alias
 * pshmem_<name> (the profiling interface): a tool defines its own
 * shmem_<name>, which wins over the weak one, and reaches the library's
 * through pshmem_<name>.
 */
#define XG_SHMEM_API             XG_EXPORT __attribute__((weak))
#define XG_PSHMEM(name)          XG_EXPORT_ALIAS(p##name, name);
#define XG_PSHMEM_NORETURN(name) XG_EXPORT_ALIAS(p##name, name) XG_NORETURN;

/* Ends the job after printing "<routine>: <what went wrong>". */
#define xg_shmem_fail(routine, ...) xg_fatal_api("shmem", routine, __VA_ARGS__)

/* Ends the job with the message for @status, which a gas operation on
 * @len bytes at symmetric @addr on PE @pe returned. */
XG_NORETURN XG_NOINLINE void xg_shmem_status_fail(const char *routine,
                                                  xg_status_t status,
                                                  const void *addr, size_t len,
                                                  int pe);

XG_NORETURN XG_NOINLINE void xg_shmem_not_initialized(const char *routine);

/* The complete check (NLB miss, globals) of xg_shmem_check_target. */
XG_NOINLINE void xg_shmem_check_target_slow(const char *routine,
                                            const void *addr, size_t len,
                                            int pe);

/* Ends the job unless @len bytes at symmetric @addr exist on @pe. */
static inline void xg_shmem_check_target(const char *routine, const void *addr,
                                         size_t len, int pe)
{
    if (xg_unlikely(xg_gas_translate_fast(addr, len, pe) == NULL)) {
        xg_shmem_check_target_slow(routine, addr, len, pe);
    }
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
static inline void xg_shmem_check_local(const char *routine, const void *addr,
                                        size_t len)
{
    xg_shmem_check_target(routine, addr, len, xg_gas.me);
}

/*
 * Communication contexts.  The ordering and completion domain is the gas
 * context inside (pending operations, lock kind); this handle adds the
 * team whose PE numbers the context's routines take, and its options.
 */
struct xg_shmem_ctx {
    xg_gas_ctx_t gas;
    xg_team_t *team;
    long options;
    struct xg_shmem_ctx *prev, *next; /* contexts the program created */
};

/* The gas context of the routines without a context argument. */
#define XG_SHMEM_GAS_DEFAULT (&xg_shmem_ctx_default.gas)

/* Destroys the shareable contexts of @team (NULL: of every team) and
 * orphans its private ones (see ctx.c). */
void xg_shmem_ctx_release_team(const xg_team_t *team);

XG_NORETURN XG_NOINLINE void xg_shmem_ctx_bad(const char *routine,
                                              shmem_ctx_t ctx, int pe);

/* The table the contexts a program creates live in (ctx.c), and how many
 * of its slots were ever handed out: a handle outside them is garbage. */
extern struct xg_shmem_ctx *xg_shmem_ctx_table;
extern size_t xg_shmem_ctx_slots;

/* Nonzero if @ctx is SHMEM_CTX_DEFAULT or a slot of the context table (a
 * live or destroyed context, whose team the slow path names), so that it
 * may be dereferenced; a garbage handle is refused without reading it. */
static inline int xg_shmem_ctx_known(shmem_ctx_t ctx)
{
    uintptr_t off = (uintptr_t)ctx - (uintptr_t)xg_shmem_ctx_table;

    return (ctx == SHMEM_CTX_DEFAULT) ||
           ((off < __atomic_load_n(&xg_shmem_ctx_slots, __ATOMIC_ACQUIRE) *
                       sizeof(*ctx)) &&
            (off % sizeof(*ctx) == 0));
}

/* World PE of team-relative @pe on @ctx, or the job ends (invalid or
 * garbage context, PE outside the context's team, library not running). */
static inline int xg_shmem_ctx_pe(const char *routine, shmem_ctx_t ctx, int pe)
{
    const xg_team_t *team;

    if (xg_unlikely(!xg_shmem_ctx_known(ctx))) {
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
 * into a world PE -- and their pshmem_ names.  In the body, gctx is the
 * gas context (the default context's in shmem_long_p).  The body comes
 * last (it may contain commas); in each function, __func__ names that
 * function.
 */
#define XG_CTX_PARAMS(...) (shmem_ctx_t ctx, __VA_ARGS__)

#define XG_SHMEM_DEFINE(RET, NAME, PARAMS, ...)                             \
    XG_SHMEM_API RET shmem_##NAME PARAMS                                    \
    {                                                                       \
        xg_gas_ctx_t *const gctx = XG_SHMEM_GAS_DEFAULT;                    \
                                                                            \
        (void)gctx;                                                         \
        __VA_ARGS__                                                         \
    }                                                                       \
    XG_PSHMEM(shmem_##NAME)                                                 \
    XG_SHMEM_API RET shmem_ctx_##NAME XG_CTX_PARAMS PARAMS                  \
    {                                                                       \
        xg_gas_ctx_t *gctx;                                                 \
                                                                            \
        pe   = xg_shmem_ctx_pe(__func__, ctx, pe); /* ctx is valid after */ \
        gctx = &ctx->gas;                                                   \
        (void)gctx;                                                         \
        __VA_ARGS__                                                         \
    }                                                                       \
    XG_PSHMEM(shmem_ctx_##NAME)

#endif
