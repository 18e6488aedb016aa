/*
 * OpenSHMEM communication contexts: creation and destruction, the memory
 * ordering routines on a context, shmem_pe_quiet, and sessions.
 *
 * A context is a gas context (gas/xg_gas_ops.h: the ordering and
 * completion domain, with its count of outstanding operations and the lock
 * kind chosen at creation -- none for SHMEM_CTX_PRIVATE) plus its team: the
 * PE numbers passed to shmem_ctx_* routines are relative to it.  Every
 * operation on this node completes before it returns, so fence and quiet
 * find nothing outstanding and are a release and a full fence; the
 * context costs one small allocation.
 *
 * The contexts a program created are kept in a list, because destroying a
 * team destroys its shareable contexts, and shmem_finalize all shareable
 * contexts.  A private context must be destroyed by the program before its
 * team; one that is not is left pointing to an empty "destroyed" team, so
 * any later use reports the mistake instead of reading freed memory.
 *
 * A destroyed context is not freed at once either: it points to the
 * "destroyed" team (no members, so the fast path's PE range check sends
 * every use to the slow path, which names the mistake) and waits in a
 * quarantine of CTX_QUARANTINE contexts before its slot is reused, so
 * a stale handle is reported instead of being a use-after-free (after
 * that many later destroys it may name a new context).
 *
 * Contexts live in one table of CTX_MAX slots, reserved at the first
 * creation (address space only; a slot's page is committed when it is
 * first used), so that every handle is checked before it is read: one
 * that is neither SHMEM_CTX_DEFAULT nor a slot handed out (e.g.
 * (shmem_ctx_t)0x1234, or a pointer into freed memory) is garbage and
 * named as such, instead of a segfault (shmem_int.h, xg_shmem_ctx_known).
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "api/shmem/coll_int.h"
#include "api/shmem/shmem_int.h"
#include "base/xg_log.h"

#define XG_CTX_KNOWN_OPTIONS \
    (SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE)

XG_EXPORT struct xg_shmem_ctx xg_shmem_ctx_default = {
    .gas = XG_GAS_CTX_INIT_SHARED, .team = &xg_team_world};

/* The team of private contexts whose own team was destroyed: no members,
 * so every PE number fails the fast path's range check. */
static xg_team_t ctx_dead_team;

/* The team of destroyed contexts: no members either. */
static xg_team_t ctx_destroyed_team;

enum {
    CTX_QUARANTINE = 256,
    CTX_MAX        = 1 << 16
};

struct xg_shmem_ctx *xg_shmem_ctx_table;
size_t xg_shmem_ctx_slots; /* slots handed out (grows only) */

static struct xg_shmem_ctx *ctx_quarantine[CTX_QUARANTINE];
static unsigned ctx_quarantine_next;        /* the oldest entry once full */
static struct xg_shmem_ctx *ctx_free_slots; /* out of quarantine, by next */

static pthread_mutex_t ctx_list_lock = PTHREAD_MUTEX_INITIALIZER;
static struct xg_shmem_ctx *ctx_list; /* contexts the program created */

void xg_shmem_ctx_bad(const char *routine, shmem_ctx_t ctx, int pe)
{
    xg_shmem_check_init(routine);
    if (ctx == SHMEM_CTX_INVALID) {
        xg_shmem_fail(routine,
                      "the context is SHMEM_CTX_INVALID: create it "
                      "with shmem_ctx_create or shmem_team_create_ctx and "
                      "check that the call returned 0");
    }
    if (!xg_shmem_ctx_known(ctx)) {
        xg_shmem_fail(routine,
                      "%p is not a context of this PE (never "
                      "created, or not a shmem_ctx_t): pass SHMEM_CTX_DEFAULT "
                      "or a context set by shmem_ctx_create or "
                      "shmem_team_create_ctx",
                      (void *)ctx);
    }
    if (ctx->team == &ctx_destroyed_team) {
        xg_shmem_fail(routine,
                      "the context %p was destroyed "
                      "(shmem_ctx_destroy): create a new one, and use a "
                      "context only between its creation and destruction",
                      (void *)ctx);
    }
    if (ctx->team == &ctx_dead_team) {
        xg_shmem_fail(routine,
                      "the context's team was destroyed: destroy "
                      "private contexts before their team (shmem_team_destroy "
                      "destroys only the shareable ones)");
    }
    xg_shmem_fail(routine,
                  "PE %d is not in the context's team, which has "
                  "%d PEs (0..%d): PE numbers of a context are relative to "
                  "its team (shmem_team_translate_pe converts them)",
                  pe, ctx->team->size, ctx->team->size - 1);
}

/* Checks @options; 0 if every bit is a known option. */
static int ctx_check_options(const char *routine, long options)
{
    if ((options & ~XG_CTX_KNOWN_OPTIONS) != 0) {
        xg_warn("shmem",
                "%s: unknown option bits %#lx (known: "
                "SHMEM_CTX_SERIALIZED, SHMEM_CTX_PRIVATE, "
                "SHMEM_CTX_NOSTORE); no context created",
                routine, options & ~XG_CTX_KNOWN_OPTIONS);
        return -1;
    }
    return 0;
}

/* A slot for a new context: one out of quarantine, a fresh one, or (the
 * table full) the oldest in quarantine; NULL with a message if none is
 * left.  The list lock is held. */
static struct xg_shmem_ctx *ctx_slot_locked(const char *routine)
{
    struct xg_shmem_ctx *ctx = ctx_free_slots;
    void *table;

    if (ctx != NULL) {
        ctx_free_slots = ctx->next;
        return ctx;
    }
    if (xg_shmem_ctx_table == NULL) {
        table = mmap(NULL, CTX_MAX * sizeof(*ctx), PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (table == MAP_FAILED) {
            xg_warn("shmem",
                    "%s: cannot reserve the context table (%zu "
                    "bytes of address space); no context created",
                    routine, CTX_MAX * sizeof(*ctx));
            return NULL;
        }
        xg_shmem_ctx_table = table;
    }
    if (xg_shmem_ctx_slots < CTX_MAX) {
        ctx       = &xg_shmem_ctx_table[xg_shmem_ctx_slots];
        ctx->team = &ctx_destroyed_team; /* known from the next store on */
        __atomic_store_n(&xg_shmem_ctx_slots, xg_shmem_ctx_slots + 1,
                         __ATOMIC_RELEASE);
        return ctx;
    }
    ctx                                 = ctx_quarantine[ctx_quarantine_next];
    ctx_quarantine[ctx_quarantine_next] = NULL;
    if (ctx == NULL) {
        xg_warn("shmem",
                "%s: %d contexts exist, the most this PE can "
                "have; destroy some (shmem_ctx_destroy) first",
                routine, CTX_MAX);
    }
    return ctx;
}

static int ctx_create(const char *routine, xg_team_t *team, long options,
                      shmem_ctx_t *ctx_p)
{
    struct xg_shmem_ctx *ctx;

    if (ctx_check_options(routine, options) != 0) {
        return -1;
    }
    pthread_mutex_lock(&ctx_list_lock);
    ctx = ctx_slot_locked(routine);
    if (ctx == NULL) {
        pthread_mutex_unlock(&ctx_list_lock);
        return -1;
    }
    xg_gas_ctx_init(&ctx->gas, (options & SHMEM_CTX_PRIVATE) != 0);
    ctx->team    = team;
    ctx->options = options;
    ctx->prev    = NULL;
    ctx->next    = ctx_list;
    if (ctx_list != NULL) {
        ctx_list->prev = ctx;
    }
    ctx_list = ctx;
    pthread_mutex_unlock(&ctx_list_lock);
    *ctx_p = ctx;
    return 0;
}

/* Takes @ctx out of the list and quarantines it (its
 * slot is reused CTX_QUARANTINE destroys later); the list lock is held. */
static void ctx_free_locked(struct xg_shmem_ctx *ctx)
{
    struct xg_shmem_ctx *oldest;

    if (ctx->prev != NULL) {
        ctx->prev->next = ctx->next;
    } else {
        ctx_list = ctx->next;
    }
    if (ctx->next != NULL) {
        ctx->next->prev = ctx->prev;
    }
    ctx->team = &ctx_destroyed_team;
    ctx->prev = ctx->next               = NULL;
    oldest                              = ctx_quarantine[ctx_quarantine_next];
    ctx_quarantine[ctx_quarantine_next] = ctx;
    ctx_quarantine_next = (ctx_quarantine_next + 1) % CTX_QUARANTINE;
    if (oldest != NULL) {
        oldest->next   = ctx_free_slots;
        ctx_free_slots = oldest;
    }
}

/* A context the program may still use (not SHMEM_CTX_INVALID, not
 * destroyed); slow paths and non-fast-path routines only. */
static void ctx_check_live(const char *routine, shmem_ctx_t ctx)
{
    if (xg_unlikely(!xg_shmem_ctx_known(ctx) ||
                    (ctx->team == &ctx_destroyed_team))) {
        xg_shmem_ctx_bad(routine, ctx, 0);
    }
}

void xg_shmem_ctx_release_team(const xg_team_t *team)
{
    struct xg_shmem_ctx *ctx, *next;

    pthread_mutex_lock(&ctx_list_lock);
    for (ctx = ctx_list; ctx != NULL; ctx = next) {
        next = ctx->next;
        if ((team != NULL) && (ctx->team != team)) {
            continue;
        }
        if (ctx->options & SHMEM_CTX_PRIVATE) {
            ctx->team = &ctx_dead_team;
        } else {
            ctx_free_locked(ctx);
        }
    }
    pthread_mutex_unlock(&ctx_list_lock);
}

XG_SHMEM_API int shmem_ctx_create(long options, shmem_ctx_t *ctx)
{
    xg_shmem_check_init(__func__);
    return ctx_create(__func__, &xg_team_world, options, ctx);
}
XG_PSHMEM(shmem_ctx_create)

XG_SHMEM_API int shmem_team_create_ctx(shmem_team_t team, long options,
                                       shmem_ctx_t *ctx)
{
    xg_shmem_check_init(__func__);
    if (team == SHMEM_TEAM_INVALID) {
        *ctx = SHMEM_CTX_INVALID;
        return -1;
    }
    if (!xg_team_valid(team)) {
        xg_shmem_bad_team(__func__, team);
    }
    return ctx_create(__func__, team, options, ctx);
}
XG_PSHMEM(shmem_team_create_ctx)

XG_SHMEM_API void shmem_ctx_destroy(shmem_ctx_t ctx)
{
    xg_shmem_check_init(__func__);
    if (ctx == SHMEM_CTX_INVALID) {
        return;
    }
    if (ctx == SHMEM_CTX_DEFAULT) {
        xg_shmem_fail(__func__, "SHMEM_CTX_DEFAULT cannot be destroyed: "
                                "destroy only contexts your program created");
    }
    ctx_check_live(__func__, ctx);
    xg_gas_ctx_fini(&ctx->gas); /* completes the context's operations */
    pthread_mutex_lock(&ctx_list_lock);
    ctx_free_locked(ctx);
    pthread_mutex_unlock(&ctx_list_lock);
}
XG_PSHMEM(shmem_ctx_destroy)

XG_SHMEM_API int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team)
{
    xg_shmem_check_init(__func__);
    if (ctx == SHMEM_CTX_INVALID) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    ctx_check_live(__func__, ctx);
    *team = ctx->team;
    return 0;
}
XG_PSHMEM(shmem_ctx_get_team)

/* The context's handle must be valid for the ordering routines too. */
static void ctx_check(const char *routine, shmem_ctx_t ctx)
{
    xg_shmem_check_init(routine);
    if (xg_unlikely(ctx == SHMEM_CTX_INVALID)) {
        xg_shmem_ctx_bad(routine, ctx, 0);
    }
    ctx_check_live(routine, ctx);
}

/* On SHMEM_CTX_INVALID, fence, quiet and pe_quiet do nothing (OpenSHMEM
 * 1.6: a program may create a context that fails and use it anyway, as
 * the specification's shmem_team_create_ctx example does). */
XG_SHMEM_API void shmem_ctx_fence(shmem_ctx_t ctx)
{
    if (ctx == SHMEM_CTX_INVALID) {
        return;
    }
    ctx_check(__func__, ctx);
    xg_gas_ctx_fence(&ctx->gas);
}
XG_PSHMEM(shmem_ctx_fence)

XG_SHMEM_API void shmem_ctx_quiet(shmem_ctx_t ctx)
{
    if (ctx == SHMEM_CTX_INVALID) {
        return;
    }
    ctx_check(__func__, ctx);
    xg_gas_ctx_quiet(&ctx->gas);
}
XG_PSHMEM(shmem_ctx_quiet)

/* Completing the operations to one PE costs what completing all of them
 * costs: one fence.  The PE is still checked. */
XG_SHMEM_API void shmem_ctx_pe_quiet(shmem_ctx_t ctx, int target_pe)
{
    if (ctx == SHMEM_CTX_INVALID) {
        return;
    }
    ctx_check(__func__, ctx);
    (void)xg_shmem_ctx_pe(__func__, ctx, target_pe);
    xg_gas_ctx_quiet(&ctx->gas);
}
XG_PSHMEM(shmem_ctx_pe_quiet)

XG_SHMEM_API void shmem_pe_quiet(int target_pe)
{
    shmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, target_pe);
}
XG_PSHMEM(shmem_pe_quiet)

/*
 * Sessions are hints.  A batch would let a library with a network delay and
 * coalesce small operations; here every operation already completes as a
 * CPU store, so there is nothing to coalesce and the session only checks
 * its arguments.
 */
XG_SHMEM_API void shmem_ctx_session_start(
    shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t *config,
    long config_mask)
{
    xg_shmem_check_init(__func__);
    if (ctx == SHMEM_CTX_INVALID) {
        return; /* as the specification says: no action */
    }
    ctx_check_live(__func__, ctx);
    if ((options & ~SHMEM_CTX_SESSION_BATCH) != 0) {
        xg_warn("shmem", "%s: unknown session option bits %#lx ignored",
                __func__, options & ~SHMEM_CTX_SESSION_BATCH);
    }
    if (((config_mask & SHMEM_CTX_SESSION_TOTAL_OPS) != 0) &&
        (config == NULL)) {
        xg_shmem_fail(__func__,
                      "config_mask asks for total_ops but config "
                      "is NULL: pass a configuration or a config_mask of 0");
    }
}
XG_PSHMEM(shmem_ctx_session_start)

XG_SHMEM_API void shmem_ctx_session_stop(shmem_ctx_t ctx)
{
    xg_shmem_check_init(__func__);
    (void)ctx;
}
XG_PSHMEM(shmem_ctx_session_stop)
