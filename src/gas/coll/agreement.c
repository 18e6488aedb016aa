/*
 * What the members of a collective agree on, and the checks that they do
 * (xg_coll.h): the algorithms, chosen once at start-up (PE 0's choice for
 * every PE); the set-up of each call over a team or an active set; the
 * descriptor a member publishes for a call and its comparison with a
 * peer's (the mismatch check, the symmetric heap routines' included);
 * the names that messages and hang reports use, and the failure that
 * ends the job.  The algorithms themselves are in algorithms.c.
 */
#include "gas/coll/engine_int.h"

#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "base/xg_wait.h"
#include "boot/xg_boot.h"
#include "gas/coll/xg_coll.h"
#include "gas/coll/xg_internal_area.h"
#include "gas/xg_gas.h"

/* Agreed by every PE at start-up (PE 0's values). */
xg_coll_cfg_t xg_coll_cfg = {COLL_BAR_DISSEMINATION, 1, 4, 16384, 0, 0};

/* ---- set-up ------------------------------------------------------------- */

static int coll_cpus(void)
{
    cpu_set_t set;
    long online;

    if ((sched_getaffinity(0, sizeof(set), &set) == 0) &&
        (CPU_COUNT(&set) > 0)) {
        return CPU_COUNT(&set);
    }
    online = sysconf(_SC_NPROCESSORS_ONLN);
    return (online > 0) ? (int)online : 1;
}

/* The words of XGAS_COLL_CHANNEL and XGAS_COLL_BARRIER, in the order of
 * their rows (xg_gas_config.h). */
enum {
    CHANNEL_AUTO,
    CHANNEL_DIRECT,
    CHANNEL_REMOTE
};
enum {
    BARRIER_AUTO,
    BARRIER_DISSEMINATION,
    BARRIER_COUNTER,
    BARRIER_TREE
};

/* XGAS_COLL_CHANNEL: the remote channels when asked for, or (auto) when
 * some PE is not on the direct route.  Each PE decides for itself: both
 * forms of a channel use the same words the same way. */
static int coll_channel_remote(void)
{
    int pe;

    if (xg_config.coll_channel != CHANNEL_AUTO) {
        return xg_config.coll_channel == CHANNEL_REMOTE;
    }
    for (pe = 0; pe < xg_gas.npes; pe++) {
        if (xg_gas.table[pe + 1].route != XG_GAS_ROUTE_DIRECT) {
            return 1;
        }
    }
    return 0;
}

void xg_coll_setup_publish(void)
{
    /* the PEs that share this host's CPUs (virtual nodes share them) */
    xg_boot_identity_t job;
    long radix = xg_config.coll_radix;
    uint64_t mine[4];
    int oversubscribed, barrier;
    int node_aware = xg_config.coll_barrier == BARRIER_AUTO;

    xg_boot_identity(&job);
    oversubscribed = job.host_npes > coll_cpus();
    barrier        = oversubscribed ? COLL_BAR_COUNTER : COLL_BAR_DISSEMINATION;
    xg_coll_cfg.remote      = coll_channel_remote();
    xg_coll_cfg.yield_early = (xg_config.coll_yield < 0)
                                  ? oversubscribed
                                  : (xg_config.coll_yield != 0);
    if (xg_config.coll_barrier == BARRIER_TREE) {
        barrier = COLL_BAR_TREE;
    } else if (xg_config.coll_barrier == BARRIER_COUNTER) {
        barrier = COLL_BAR_COUNTER;
    } else if (xg_config.coll_barrier == BARRIER_DISSEMINATION) {
        barrier = COLL_BAR_DISSEMINATION;
    }
    if (radix == 0) {
        /* each tree level costs a context switch when PEs share CPUs */
        radix = oversubscribed ? 8 : 4;
    } else if ((radix < 2) || (radix > COLL_RADIX_MAX)) {
        xg_warn("coll", "XGAS_COLL_RADIX=%ld is outside 2..%d; using 4", radix,
                COLL_RADIX_MAX);
        radix = 4;
    }
    mine[0] = (uint64_t)barrier;
    mine[1] = (uint64_t)radix;
    mine[2] = xg_config.coll_reduce_split;
    mine[3] = (uint64_t)node_aware;
    if (xg_boot_kv_put("coll.config", mine, sizeof(mine)) != XG_OK) {
        xg_warn("coll", "cannot publish the collective configuration");
    }
}

void xg_coll_setup_adopt(void)
{
    uint64_t pe0[4];

    /* PE 0's choice for everyone: the algorithms must match, even if the
     * PEs' environments or CPU sets differ */
    if (xg_boot_kv_get(0, "coll.config", pe0, sizeof(pe0)) != XG_OK) {
        xg_error("coll", "cannot read PE 0's collective configuration");
        xg_boot_abort(1);
    }
    xg_coll_cfg.barrier      = (int)pe0[0];
    xg_coll_cfg.radix        = (int)pe0[1];
    xg_coll_cfg.reduce_split = pe0[2];
    xg_coll_cfg.node_aware   = (int)pe0[3];
}

const char *xg_coll_barrier_name(void)
{
    static const char *const names[] = {"dissemination", "tree", "counter"};

    return names[xg_coll_cfg.barrier];
}

const char *xg_coll_channel_name(void)
{
    return xg_coll_cfg.remote ? "remote" : "direct";
}

/* ---- errors ------------------------------------------------------------- */

XG_NORETURN static void coll_default_fail(const char *routine, const char *text)
{
    xg_log_emit(XG_LOG_ERROR, "gas", "%s: %s", routine, text);
    xg_boot_abort(1);
}

static const xg_coll_naming_t coll_default_naming = {
    .kinds =
        {
            [XG_COLL_SYNC]      = "a barrier",
            [XG_COLL_BROADCAST] = "a broadcast",
            [XG_COLL_REDUCE]    = "a reduction",
            [XG_COLL_SCAN]      = "a scan",
            [XG_COLL_COLLECT]   = "a collect",
            [XG_COLL_FCOLLECT]  = "an fcollect",
            [XG_COLL_ALLTOALL]  = "an alltoall",
            [XG_COLL_ALLTOALLS] = "an alltoalls",
            [XG_COLL_SPLIT]     = "a team split",
            [XG_COLL_DESTROY]   = "a team destruction",
            [XG_COLL_SCATTER]   = "a scatter",
            [XG_COLL_GATHER]    = "a gather",
        },
    .heap_ops =
        {
            [XG_COLL_HEAP_MALLOC]       = "an allocation",
            [XG_COLL_HEAP_MALLOC_HINTS] = "an allocation with hints",
            [XG_COLL_HEAP_CALLOC]       = "a zeroed allocation",
            [XG_COLL_HEAP_ALIGN]        = "an aligned allocation",
            [XG_COLL_HEAP_REALLOC]      = "a reallocation",
            [XG_COLL_HEAP_FREE]         = "a free",
        },
    .world  = "the world team",
    .shared = "the node team",
    .fail   = coll_default_fail,
};

/* The names in use: the defaults until a binding sets its own (a pointer,
 * since C does not let one static structure initialize another). */
static xg_coll_naming_t coll_custom_naming;
static const xg_coll_naming_t *coll_names = &coll_default_naming;

void xg_coll_set_naming(const xg_coll_naming_t *naming)
{
    xg_coll_naming_t coll_naming;
    size_t i;

    for (i = 0; i < XG_ARRAY_SIZE(coll_naming.kinds); i++) {
        coll_naming.kinds[i] = (naming->kinds[i] != NULL)
                                   ? naming->kinds[i]
                                   : coll_default_naming.kinds[i];
    }
    for (i = 0; i < XG_ARRAY_SIZE(coll_naming.heap_ops); i++) {
        coll_naming.heap_ops[i] = (naming->heap_ops[i] != NULL)
                                      ? naming->heap_ops[i]
                                      : coll_default_naming.heap_ops[i];
    }
    coll_naming.world =
        (naming->world != NULL) ? naming->world : coll_default_naming.world;
    coll_naming.shared =
        (naming->shared != NULL) ? naming->shared : coll_default_naming.shared;
    coll_naming.fail =
        (naming->fail != NULL) ? naming->fail : coll_default_naming.fail;
    coll_custom_naming = coll_naming;
    coll_names         = &coll_custom_naming;
}

/* The world or node team's name, or NULL for a user team. */
static const char *coll_predefined_name(const xg_team_t *team)
{
    if (team == &xg_team_world) {
        return coll_names->world;
    }
    return (team == &xg_team_shared) ? coll_names->shared : NULL;
}

/* A predefined team's name, or how a user team is made up. */
static void coll_team_name(const xg_coll_t *coll, char *buf, size_t len)
{
    const char *name = coll_predefined_name(coll->team);

    if (name != NULL) {
        snprintf(buf, len, "%s", name);
    } else if (coll->members != NULL) {
        snprintf(buf, len, "the team of %d listed PEs (PE %d first)",
                 coll->size, coll->members[0]);
    } else {
        snprintf(buf, len, "the team of %d PEs (PE %d + i * %d)", coll->size,
                 coll->start, coll->stride);
    }
}

static XG_NORETURN XG_PRINTF(2, 3) void coll_fail(const xg_coll_t *coll,
                                                  const char *fmt, ...)
{
    char text[640], full[768], team[96];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    if (coll->team == NULL) {
        coll_names->fail(coll->routine, text);
    }
    coll_team_name(coll, team, sizeof(team));
    snprintf(full, sizeof(full), "%s (call #%llu on %s)", text,
             (unsigned long long)coll->team->seq, team);
    coll_names->fail(coll->routine, full);
}

void xg_coll_fail(const xg_coll_t *coll, const char *fmt, ...)
{
    char text[640];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    coll_fail(coll, "%s", text);
}

void xg_coll_chan_failed(const xg_coll_t *coll, int rank, xg_status_t status)
{
    coll_fail(coll,
              "reaching team PE %d (PE %d) failed (%s): its route is "
              "down (the PE left the job or the NIC stopped)",
              rank, xg_coll_world(coll, rank), xg_status_str(status));
}

static const char *coll_heap_name(uint64_t op)
{
    return ((op < XG_COLL_HEAP_OP_COUNT) && (coll_names->heap_ops[op] != NULL))
               ? coll_names->heap_ops[op]
               : "a symmetric heap routine";
}

static const char *coll_kind_name(uint64_t kind, uint64_t code)
{
    if (kind == XG_COLL_HEAP) {
        return coll_heap_name(code);
    }
    return ((kind < XG_COLL_KIND_COUNT) && (coll_names->kinds[kind] != NULL))
               ? coll_names->kinds[kind]
               : "an unknown collective";
}

/* ---- descriptors and the mismatch check --------------------------------- */

void xg_coll_begin(xg_coll_t *coll, xg_coll_kind_t kind, uint64_t code,
                   uint64_t nelems, int64_t root, uint64_t extra)
{
    coll->kind   = kind;
    coll->code   = code;
    coll->nelems = nelems;
    coll->root   = root;
    coll->extra  = extra;
    coll->chan->publish(coll);
}

/* "the object at heap offset 0x..." or "NULL". */
static const char *coll_heap_object(uint64_t off, char *buf, size_t len)
{
    if (off == XG_COLL_HEAP_NULL) {
        return "NULL";
    }
    snprintf(buf, len, "the object at heap offset 0x%llx",
             (unsigned long long)off);
    return buf;
}

/* Both PEs are in a heap routine (same call number): the same routine,
 * size and extra argument, or the job ends. */
static void coll_heap_mismatch(const xg_coll_t *coll, int peer, uint64_t code,
                               uint64_t nelems, uint64_t extra)
{
    int me = xg_coll_world(coll, coll->rank), other = xg_coll_world(coll, peer);
    char a[64], b[64];

    if (code != coll->code) {
        coll_fail(coll,
                  "PE %d called %s while PE %d called %s: every PE "
                  "must call the same symmetric heap routines in the same "
                  "order",
                  me, coll_heap_name(coll->code), other, coll_heap_name(code));
    }
    if (nelems != coll->nelems) {
        coll_fail(coll,
                  "PE %d asked for %llu bytes, PE %d for %llu: every "
                  "PE must pass the same size",
                  me, (unsigned long long)coll->nelems, other,
                  (unsigned long long)nelems);
    }
    if (extra == coll->extra) {
        return;
    }
    switch (coll->code) {
    case XG_COLL_HEAP_ALIGN:
        coll_fail(coll,
                  "PE %d asked for alignment %llu, PE %d for %llu: "
                  "every PE must pass the same alignment",
                  me, (unsigned long long)coll->extra, other,
                  (unsigned long long)extra);
    case XG_COLL_HEAP_FREE:
        coll_fail(coll,
                  "PE %d frees %s, PE %d %s: every PE must free the "
                  "same objects in the same order",
                  me, coll_heap_object(coll->extra, a, sizeof(a)), other,
                  coll_heap_object(extra, b, sizeof(b)));
    default:
        coll_fail(coll,
                  "PE %d resizes %s, PE %d %s: every PE must pass the "
                  "same object",
                  me, coll_heap_object(coll->extra, a, sizeof(a)), other,
                  coll_heap_object(extra, b, sizeof(b)));
    }
}

/* Member @peer published (kind, code, nelems, root, extra) for the call
 * this PE is in: the same as this PE's, or the job ends. */
void xg_coll_compare(const xg_coll_t *coll, int peer, uint64_t kind,
                     uint64_t code, uint64_t nelems, int64_t root,
                     uint64_t extra)
{
    if (kind != coll->kind) {
        coll_fail(coll,
                  "team PE %d is in %s while this PE (team PE %d) is "
                  "in %s: every member of a team must call the team's "
                  "collective routines in the same order",
                  peer, coll_kind_name(kind, code), coll->rank,
                  coll_kind_name(coll->kind, coll->code));
    }
    if (kind == XG_COLL_HEAP) {
        coll_heap_mismatch(coll, peer, code, nelems, extra);
        return;
    }
    if (root != coll->root) {
        coll_fail(coll,
                  "the root is %lld on this PE (team PE %d) but %lld on "
                  "team PE %d: every member must pass the same root",
                  (long long)coll->root, coll->rank, (long long)root, peer);
    }
    if (nelems != coll->nelems) {
        int counts_elements = (coll->kind == XG_COLL_REDUCE) ||
                              (coll->kind == XG_COLL_SCAN) ||
                              (coll->kind == XG_COLL_ALLTOALLS);

        coll_fail(coll,
                  "%s is %llu on this PE (team PE %d) but %llu on "
                  "team PE %d: every member must pass the same count",
                  counts_elements ? "the element count" : "the size in bytes",
                  (unsigned long long)coll->nelems, coll->rank,
                  (unsigned long long)nelems, peer);
    }
    if (code != coll->code) {
        coll_fail(coll,
                  "team PE %d called a routine for another element "
                  "type or operation than this PE (team PE %d): every "
                  "member must call the same routine",
                  peer, coll->rank);
    }
    if (extra != coll->extra) {
        coll_fail(coll,
                  "the arguments differ between this PE (team PE %d) "
                  "and team PE %d (%s): every member must pass the same "
                  "values",
                  coll->rank, peer,
                  (coll->kind == XG_COLL_SPLIT) ? "PE triplet or xrange"
                                                : "strides");
    }
}

/* ---- hang reports (boot/watch.c) ----------------------------------------- */

static void coll_describe(const xg_wait_what_t *what, char *buf, size_t len)
{
    static const char *const names[XG_COLL_KIND_COUNT] = {
        [XG_COLL_SYNC]      = "barrier",
        [XG_COLL_BROADCAST] = "broadcast",
        [XG_COLL_REDUCE]    = "reduction",
        [XG_COLL_SCAN]      = "scan",
        [XG_COLL_COLLECT]   = "collect",
        [XG_COLL_FCOLLECT]  = "fcollect",
        [XG_COLL_ALLTOALL]  = "alltoall",
        [XG_COLL_ALLTOALLS] = "alltoalls",
        [XG_COLL_SPLIT]     = "team split",
        [XG_COLL_DESTROY]   = "team destroy",
        [XG_COLL_HEAP]      = "barrier of a heap routine",
        [XG_COLL_SCATTER]   = "scatter",
        [XG_COLL_GATHER]    = "gather"};
    const xg_coll_t *coll = what->arg;
    const char *kind =
        ((coll->kind < XG_COLL_KIND_COUNT) && (names[coll->kind] != NULL))
            ? names[coll->kind]
            : "collective";
    char peer[40] = ", waiting for the other members";
    const char *team;

    if (what->peer >= 0) {
        snprintf(peer, sizeof(peer), ", waiting for PE %d", what->peer);
    }
    if (coll->team == NULL) {
        snprintf(buf, len,
                 "%s over the active set of %d PEs from PE %d, "
                 "stride %d%s",
                 kind, coll->size, coll->start, coll->stride, peer);
    } else {
        team = coll_predefined_name(coll->team);
        snprintf(buf, len, "%s, collective #%llu on %s (%d PEs)%s", kind,
                 (unsigned long long)coll->team->seq,
                 (team != NULL) ? team : "a user team", coll->size, peer);
    }
}

void xg_coll_wait_start(const xg_coll_t *coll, xg_wait_t *wait,
                        xg_wait_what_t *what, int from)
{
    xg_wait_init(wait);
    what->routine  = coll->routine;
    what->peer     = (from >= 0) ? xg_coll_world(coll, from) : -1;
    what->describe = coll_describe;
    what->arg      = coll;
    what->object   = 0;
    /* the hang watch looks at the member this PE waits for: one that has
     * finalized owes it nothing more (what it sent is visible before its
     * state), while another member may have left the call long before
     * the signal this PE waits for comes, relayed (a tree, the node
     * barrier); a chain of waits reaches a PE that waits for the
     * finalized one itself.  A wait for any member scans the strided
     * members; a list team names none, nor a wait for any member on a
     * remote channel (xg_coll_chan_t.remote: there the deadlock watch of
     * the launcher finds a mismatch) */
    if (from >= 0) {
        what->member_start  = what->peer;
        what->member_stride = 0;
        what->member_count  = 1;
    } else {
        what->member_start  = coll->start;
        what->member_stride = coll->stride;
        what->member_count =
            ((coll->members == NULL) && !coll->chan->remote) ? coll->size : 0;
    }
    xg_wait_watch(wait, what);
}

/* ---- calls -------------------------------------------------------------- */

void xg_coll_team(xg_coll_t *coll, xg_team_t *team, const char *routine)
{
    coll->routine = routine;
    coll->chan =
        xg_coll_cfg.remote ? &xg_coll_chan_team_remote : &xg_coll_chan_team;
    coll->team    = team;
    coll->psync   = NULL;
    coll->slot    = xg_slot(xg_gas.me, team->slot);
    coll->members = team->members;
    coll->start   = team->start;
    coll->stride  = team->stride;
    coll->size    = team->size;
    coll->rank    = team->my_pe;
}

void xg_coll_aset(xg_coll_t *coll, int start, int stride, int size, int rank,
                  long *psync, const char *routine)
{
    coll->routine = routine;
    coll->chan =
        xg_coll_cfg.remote ? &xg_coll_chan_psync_remote : &xg_coll_chan_psync;
    coll->team    = NULL;
    coll->psync   = psync;
    coll->slot    = xg_slot(xg_gas.me, xg_team_aset.slot);
    coll->members = NULL;
    coll->start   = start;
    coll->stride  = stride;
    coll->size    = size;
    coll->rank    = rank;
}

/* ---- the symmetric heap routines -------------------------------------- */

/* After a barrier phase of a begun call: every member has published its
 * descriptor, so comparing with the right neighbour's finds a difference
 * between any two members (some neighbouring pair differs).  The heap
 * routines do it; plain barriers do not (it would add a cache miss on the
 * neighbour's descriptor line to every barrier), and a barrier paired with
 * a heap routine is still seen from the heap routine's side. */
static void coll_check_after_phase(const xg_coll_t *coll)
{
    if (coll->size > 1) {
        xg_coll_check(coll, (coll->rank + 1) % coll->size);
    }
}

void xg_coll_heap(xg_coll_heap_op_t op, uint64_t size, uint64_t extra)
{
    xg_coll_heap_named(coll_heap_name(op), op, size, extra);
}

void xg_coll_heap_named(const char *routine, xg_coll_heap_op_t op,
                        uint64_t size, uint64_t extra)
{
    xg_coll_t coll;

    xg_coll_team(&coll, &xg_team_world, routine);
    xg_coll_begin(&coll, XG_COLL_HEAP, op, size, -1, extra);
    xg_coll_phase(&coll);
    coll_check_after_phase(&coll);
}
