/*
 * The collective engine (see xg_coll.h for the algorithms and the
 * signalling scheme).
 *
 * The algorithms talk only to the call's signal channel (gas/coll/coll_int.h):
 * signals, waits and reads of other members' data.  Invariants every
 * algorithm here keeps:
 *  - between two members, the signals one sends are exactly the ones the
 *    other waits for, in the same order (the algorithms are deterministic
 *    given the call's arguments, which all members pass alike), so a
 *    channel that counts per sender matches every wait with its signal
 *    even when a signal of a later call arrives early;
 *  - a member reads another member's memory (its source, dest, slot
 *    descriptor) only while that member cannot have left the call: it
 *    still waits for a signal the reader sends afterwards;
 *  - a member leaves a call only when no other member will read its dest
 *    or source for that call again;
 *  - a wait names every sender it expects a signal from at once (a tree
 *    node waits for all its children in one wait), so one back-off and
 *    one hang-watch description serve them all.
 */
#include "gas/coll/coll_int.h"
#include "gas/coll/xg_coll.h"

#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "base/xg_wait.h"
#include "boot/xg_boot.h"
#include "gas/coll/xg_internal_area.h"
#include "gas/region/xg_gas_am.h"
#include "gas/xg_gas.h"

enum {
    COLL_SPIN        = 16,    /* polls before an oversubscribed wait yields */
    COLL_YIELDS      = 4000,  /* yields before the usual back-off resumes */
    COLL_CHUNK       = 4096,  /* bytes combined at a time (stays in L1) */
    COLL_RADIX_MAX   = 64
};

/* Copies of user data: a zero-length call may pass NULL buffers, which
 * memcpy and friends must not see (even for 0 bytes). */
static inline void coll_memcpy(void *dst, const void *src, size_t n)
{
    if (n > 0) {
        memcpy(dst, src, n);
    }
}

static inline void coll_memmove(void *dst, const void *src, size_t n)
{
    if (n > 0) {
        memmove(dst, src, n);
    }
}

static inline void coll_memset0(void *dst, size_t n)
{
    if (n > 0) {
        memset(dst, 0, n);
    }
}

/* Barrier algorithms (XGAS_COLL_BARRIER). */
enum {
    COLL_BAR_DISSEMINATION = 0,
    COLL_BAR_TREE          = 1,
    COLL_BAR_COUNTER       = 2,
    COLL_BAR_COUNTER_MAX   = 64  /* larger teams use the tree instead */
};

/* Agreed by every PE at start-up (PE 0's values). */
static struct {
    int      barrier;       /* COLL_BAR_* */
    int      node_aware;    /* teams over nodes: the node barrier */
    int      radix;         /* children per tree node */
    uint64_t reduce_split;  /* bytes from which reductions split */
    int      yield_early;   /* local: yield after COLL_SPIN polls */
    int      remote;        /* local: the remote channels */
} coll_cfg = {COLL_BAR_DISSEMINATION, 1, 4, 16384, 0, 0};

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

/* XGAS_COLL_CHANNEL: the remote channels when asked for, or (auto) when
 * some PE is not on the direct route.  Each PE decides for itself: both
 * forms of a channel use the same words the same way. */
static int coll_channel_remote(void)
{
    const char *chan = xg_config.coll_channel;
    int pe;

    if ((chan != NULL) && (strcmp(chan, "remote") == 0)) {
        return 1;
    }
    if ((chan != NULL) && (strcmp(chan, "direct") == 0)) {
        return 0;
    }
    if ((chan != NULL) && (strcmp(chan, "auto") != 0)) {
        xg_warn("coll", "XGAS_COLL_CHANNEL=%s is not direct, remote or auto; "
                "using auto", chan);
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
    /* the PEs that share this node's CPUs */
    int oversubscribed = xg_mem.local_npes > coll_cpus();
    const char *algo = xg_config.coll_barrier;
    long radix = xg_config.coll_radix;
    uint64_t mine[4];
    int barrier = oversubscribed ? COLL_BAR_COUNTER : COLL_BAR_DISSEMINATION;
    int node_aware = (algo == NULL) || (strcmp(algo, "auto") == 0);

    coll_cfg.remote = coll_channel_remote();
    coll_cfg.yield_early = (xg_config.coll_yield < 0)
                               ? oversubscribed
                               : (xg_config.coll_yield != 0);
    if ((algo != NULL) && (strcmp(algo, "tree") == 0)) {
        barrier = COLL_BAR_TREE;
    } else if ((algo != NULL) && (strcmp(algo, "counter") == 0)) {
        barrier = COLL_BAR_COUNTER;
    } else if ((algo != NULL) && (strcmp(algo, "dissemination") == 0)) {
        barrier = COLL_BAR_DISSEMINATION;
    } else if ((algo != NULL) && (strcmp(algo, "auto") != 0)) {
        xg_warn("coll", "XGAS_COLL_BARRIER=%s is not dissemination, counter, "
                "tree or auto; using auto", algo);
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
    coll_cfg.barrier      = (int)pe0[0];
    coll_cfg.radix        = (int)pe0[1];
    coll_cfg.reduce_split = pe0[2];
    coll_cfg.node_aware   = (int)pe0[3];
}

const char *xg_coll_barrier_name(void)
{
    static const char *const names[] = {"dissemination", "tree", "counter"};

    return names[coll_cfg.barrier];
}

const char *xg_coll_channel_name(void)
{
    return coll_cfg.remote ? "remote" : "direct";
}

/* ---- errors ------------------------------------------------------------- */

XG_NORETURN static void coll_default_fail(const char *routine,
                                          const char *text)
{
    xg_log_emit(XG_LOG_ERROR, "gas", "%s: %s", routine, text);
    xg_boot_abort(1);
}

static const xg_coll_naming_t coll_default_naming = {
    .kinds = {
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
    .heap_ops = {
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
    coll_naming.world  = (naming->world != NULL) ? naming->world
                                                 : coll_default_naming.world;
    coll_naming.shared = (naming->shared != NULL)
                             ? naming->shared
                             : coll_default_naming.shared;
    coll_naming.fail   = (naming->fail != NULL) ? naming->fail
                                                : coll_default_naming.fail;
    coll_custom_naming = coll_naming;
    coll_names = &coll_custom_naming;
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

void xg_coll_chan_failed(const xg_coll_t *coll, int rank,
                         xg_status_t status)
{
    coll_fail(coll, "reaching team PE %d (PE %d) failed (%s): its route is "
              "down (the PE left the job or the NIC stopped)", rank,
              xg_coll_world(coll, rank), xg_status_str(status));
}

static const char *coll_heap_name(uint64_t op)
{
    return ((op < XG_COLL_HEAP_OP_COUNT) &&
            (coll_names->heap_ops[op] != NULL))
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
static void coll_heap_mismatch(const xg_coll_t *coll, int peer,
                               uint64_t code, uint64_t nelems, uint64_t extra)
{
    int me = xg_coll_world(coll, coll->rank), other = xg_coll_world(coll, peer);
    char a[64], b[64];

    if (code != coll->code) {
        coll_fail(coll, "PE %d called %s while PE %d called %s: every PE "
                  "must call the same symmetric heap routines in the same "
                  "order", me, coll_heap_name(coll->code), other,
                  coll_heap_name(code));
    }
    if (nelems != coll->nelems) {
        coll_fail(coll, "PE %d asked for %llu bytes, PE %d for %llu: every "
                  "PE must pass the same size", me,
                  (unsigned long long)coll->nelems, other,
                  (unsigned long long)nelems);
    }
    if (extra == coll->extra) {
        return;
    }
    switch (coll->code) {
    case XG_COLL_HEAP_ALIGN:
        coll_fail(coll, "PE %d asked for alignment %llu, PE %d for %llu: "
                  "every PE must pass the same alignment", me,
                  (unsigned long long)coll->extra, other,
                  (unsigned long long)extra);
    case XG_COLL_HEAP_FREE:
        coll_fail(coll, "PE %d frees %s, PE %d %s: every PE must free the "
                  "same objects in the same order", me,
                  coll_heap_object(coll->extra, a, sizeof(a)), other,
                  coll_heap_object(extra, b, sizeof(b)));
    default:
        coll_fail(coll, "PE %d resizes %s, PE %d %s: every PE must pass the "
                  "same object", me,
                  coll_heap_object(coll->extra, a, sizeof(a)), other,
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
        coll_fail(coll, "team PE %d is in %s while this PE (team PE %d) is "
                  "in %s: every member of a team must call the team's "
                  "collective routines in the same order", peer,
                  coll_kind_name(kind, code), coll->rank,
                  coll_kind_name(coll->kind, coll->code));
    }
    if (kind == XG_COLL_HEAP) {
        coll_heap_mismatch(coll, peer, code, nelems, extra);
        return;
    }
    if (root != coll->root) {
        coll_fail(coll, "the root is %lld on this PE (team PE %d) but %lld on "
                  "team PE %d: every member must pass the same root",
                  (long long)coll->root, coll->rank, (long long)root, peer);
    }
    if (nelems != coll->nelems) {
        int counts_elements = (coll->kind == XG_COLL_REDUCE) ||
                              (coll->kind == XG_COLL_SCAN) ||
                              (coll->kind == XG_COLL_ALLTOALLS);

        coll_fail(coll, "%s is %llu on this PE (team PE %d) but %llu on "
                  "team PE %d: every member must pass the same count",
                  counts_elements ? "the element count" : "the size in bytes",
                  (unsigned long long)coll->nelems, coll->rank,
                  (unsigned long long)nelems, peer);
    }
    if (code != coll->code) {
        coll_fail(coll, "team PE %d called a routine for another element "
                  "type or operation than this PE (team PE %d): every "
                  "member must call the same routine", peer, coll->rank);
    }
    if (extra != coll->extra) {
        coll_fail(coll, "the arguments differ between this PE (team PE %d) "
                  "and team PE %d (%s): every member must pass the same "
                  "values", coll->rank, peer,
                  (coll->kind == XG_COLL_SPLIT) ? "PE triplet or xrange"
                                                : "strides");
    }
}

/* ---- hang reports (boot/watch.c) ----------------------------------------- */

static void coll_describe(const xg_wait_what_t *what, char *buf, size_t len)
{
    static const char *const names[XG_COLL_KIND_COUNT] = {
        [XG_COLL_SYNC] = "barrier", [XG_COLL_BROADCAST] = "broadcast",
        [XG_COLL_REDUCE] = "reduction", [XG_COLL_SCAN] = "scan",
        [XG_COLL_COLLECT] = "collect", [XG_COLL_FCOLLECT] = "fcollect",
        [XG_COLL_ALLTOALL] = "alltoall", [XG_COLL_ALLTOALLS] = "alltoalls",
        [XG_COLL_SPLIT] = "team split", [XG_COLL_DESTROY] = "team destroy",
        [XG_COLL_HEAP] = "barrier of a heap routine",
        [XG_COLL_SCATTER] = "scatter", [XG_COLL_GATHER] = "gather"};
    const xg_coll_t *coll = what->arg;
    const char *kind = ((coll->kind < XG_COLL_KIND_COUNT) &&
                        (names[coll->kind] != NULL)) ? names[coll->kind]
                                                     : "collective";
    char peer[40] = ", waiting for the other members";
    const char *team;

    if (what->peer >= 0) {
        snprintf(peer, sizeof(peer), ", waiting for PE %d", what->peer);
    }
    if (coll->team == NULL) {
        snprintf(buf, len, "%s over the active set of %d PEs from PE %d, "
                 "stride %d%s", kind, coll->size, coll->start, coll->stride,
                 peer);
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
        what->member_count  = ((coll->members == NULL) &&
                               !coll->chan->remote) ? coll->size : 0;
    }
    xg_wait_watch(wait, what);
}

/* ---- signals ------------------------------------------------------------ */

/* One poll failed: back off, yielding early when PEs outnumber CPUs. */
void xg_coll_backoff(xg_wait_t *wait)
{
    /* a PE waiting in a collective serves what waits for its thread */
    xg_gas_am_idle();
    if (coll_cfg.yield_early && (wait->polls >= COLL_SPIN) &&
        (wait->polls < COLL_SPIN + COLL_YIELDS)) {
        wait->polls++;
        sched_yield();
        return;
    }
    xg_gas_wait_backoff(wait);
}

/* Tells member @to one thing; @phase names what (a pSync word). */
static inline void coll_signal(const xg_coll_t *coll, int to, int phase)
{
    coll->chan->signal(coll, to, phase);
}

/* Waits for the next signal of @phase from member @from. */
static inline void coll_wait(const xg_coll_t *coll, int from, int phase)
{
    coll->chan->wait(coll, &from, 1, phase);
}

/* ---- trees -------------------------------------------------------------- */

/* Members in a radix-k heap rooted at @root: the member at position v
 * (counted from the root) has children at positions v*k+1 .. v*k+k. */
static inline int coll_at(const xg_coll_t *coll, long v, int root)
{
    return (int)((v + root) % coll->size);
}

static inline long coll_pos(const xg_coll_t *coll, int root)
{
    return (coll->rank - root + coll->size) % coll->size;
}

static inline void coll_children(const xg_coll_t *coll, long v,
                                 long *first_p, long *count_p)
{
    long k = coll_cfg.radix, first = v * k + 1, n = coll->size;

    *first_p = first;
    *count_p = (first >= n) ? 0 : ((first + k <= n) ? k : n - first);
}

static inline long coll_parent(long v)
{
    return (v - 1) / coll_cfg.radix;
}

/* Waits for one signal of @phase from each of @count children starting at
 * position @first. */
static void coll_wait_children(const xg_coll_t *coll, long first, long count,
                               int root, int phase)
{
    int from[COLL_RADIX_MAX];
    long i;

    for (i = 0; i < count; i++) {
        from[i] = coll_at(coll, first + i, root);
    }
    coll->chan->wait(coll, from, (int)count, phase);
}

static void coll_signal_children(const xg_coll_t *coll, long first,
                                 long count, int root, int chan)
{
    long i;

    for (i = 0; i < count; i++) {
        coll_signal(coll, coll_at(coll, first + i, root), chan);
    }
}

/* ---- calls -------------------------------------------------------------- */

void xg_coll_team(xg_coll_t *coll, xg_team_t *team, const char *routine)
{
    coll->routine = routine;
    coll->chan    = coll_cfg.remote ? &xg_coll_chan_team_remote
                                    : &xg_coll_chan_team;
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
    coll->chan    = coll_cfg.remote ? &xg_coll_chan_psync_remote
                                    : &xg_coll_chan_psync;
    coll->team    = NULL;
    coll->psync   = psync;
    coll->slot    = xg_slot(xg_gas.me, xg_team_aset.slot);
    coll->members = NULL;
    coll->start   = start;
    coll->stride  = stride;
    coll->size    = size;
    coll->rank    = rank;
}

/* ---- barriers ----------------------------------------------------------- */

/* Round r: signal member rank + 2^r, wait for member rank - 2^r. */
static void coll_dissemination(const xg_coll_t *coll)
{
    long n = coll->size, dist;
    int round;

    for (round = 0, dist = 1; dist < n; round++, dist <<= 1) {
        coll_signal(coll, (int)((coll->rank + dist) % n), round);
        coll_wait(coll, (int)((coll->rank - dist + n) % n), round);
    }
}

/* Gather to member 0 up a radix-k tree, release down it.  A PE waits at
 * most twice, so an oversubscribed node schedules each PE about twice per
 * barrier instead of once per dissemination round. */
static void coll_tree_barrier(const xg_coll_t *coll)
{
    long v = coll->rank, first, count;

    coll_children(coll, v, &first, &count);
    coll_wait_children(coll, first, count, 0, XG_PSYNC_BAR_UP);
    if (v != 0) {
        coll_signal(coll, (int)coll_parent(v), XG_PSYNC_BAR_UP);
        coll_wait(coll, (int)coll_parent(v), XG_PSYNC_BAR_DOWN);
    }
    coll_signal_children(coll, first, count, 0, XG_PSYNC_BAR_DOWN);
}

/*
 * For nodes with more PEs than CPUs: every member adds its arrival to a
 * counter of member 0; the member whose addition completes the count
 * releases all the others with one store into member 0's release word,
 * which they wait on, so no PE has to be scheduled in between, and each is
 * scheduled about twice per barrier.  A member touches no slot but member
 * 0's (not every member's: each peer partition touched costs page-table
 * pages, 447 KB per PE at 64 PEs when the last arrival wrote every
 * member's word).  Every waiting member polls the one line: teams above
 * COLL_BAR_COUNTER_MAX use the tree.
 */
static void coll_counter_barrier(const xg_coll_t *coll)
{
    if (coll->chan->arrive(coll)) {
        coll->chan->release(coll);
    } else {
        coll->chan->wait_release(coll);
    }
}

/*
 * A team over several nodes: the members of each node meet at their
 * node's leader (its first member) through shared memory, the leaders
 * run a dissemination barrier among themselves through the network, and
 * each releases its node: 2 x log2(nodes) messages cross nodes per
 * leader, instead of rounds in which most messages do.  The signals use
 * the same words as the other algorithms (pairs of members never mix
 * roles: a leader pair is on two nodes, a member and its leader on one).
 */
static void coll_node_barrier(const xg_coll_t *coll,
                              const xg_team_nodes_t *nodes)
{
    int i, n = nodes->count, me = nodes->my_leader, round;
    long dist;

    if (nodes->my_leader < 0) {
        coll_signal(coll, nodes->leader, XG_PSYNC_BAR_UP);
        coll_wait(coll, nodes->leader, XG_PSYNC_BAR_DOWN);
        return;
    }
    for (i = 1; i < nodes->nlocal; i++) {
        coll_wait(coll, nodes->local[i], XG_PSYNC_BAR_UP);
    }
    for (round = 0, dist = 1; dist < n; round++, dist <<= 1) {
        coll_signal(coll, nodes->leaders[(me + dist) % n], round);
        coll_wait(coll, nodes->leaders[(me - dist + n) % n], round);
    }
    for (i = 1; i < nodes->nlocal; i++) {
        coll_signal(coll, nodes->local[i], XG_PSYNC_BAR_DOWN);
    }
}

void xg_coll_phase(xg_coll_t *coll)
{
    int algo = coll_cfg.barrier;

    if (coll->size == 1) {
        return;
    }
    if ((coll->team != NULL) && (coll->team->nodes.count > 1) &&
        coll_cfg.node_aware) {
        coll_node_barrier(coll, &coll->team->nodes);
        return;
    }
    /* the active-set channel has no counter barrier (xg_coll_chan_t) */
    if ((algo == COLL_BAR_COUNTER) &&
        ((coll->chan->arrive == NULL) ||
         (coll->size > COLL_BAR_COUNTER_MAX))) {
        algo = COLL_BAR_TREE;
    }
    switch (algo) {
    case COLL_BAR_COUNTER:
        coll_counter_barrier(coll);
        break;
    case COLL_BAR_TREE:
        coll_tree_barrier(coll);
        break;
    default:
        coll_dissemination(coll);
        break;
    }
}

/* After a barrier phase of a begun call: every member has published its
 * descriptor, so comparing with the right neighbour's finds a difference
 * between any two members (some neighbouring pair differs).  The heap
 * routines do it; plain barriers do not (it would add a cache miss on the
 * neighbour's descriptor line to every barrier), and a barrier paired with
 * a heap routine is still seen from the heap routine's side. */
static void coll_check_after_phase(const xg_coll_t *coll)
{
    if (coll->size > 1) {
        coll->chan->check(coll, (coll->rank + 1) % coll->size);
    }
}

void xg_coll_barrier(xg_coll_t *coll)
{
    xg_coll_begin(coll, XG_COLL_SYNC, 0, 0, -1, 0);
    xg_coll_phase(coll);
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

/* ---- broadcast ---------------------------------------------------------- */

void xg_coll_broadcast(xg_coll_t *coll, void *dest, const void *source,
                       size_t nbytes, int root, int root_copies)
{
    long v = coll_pos(coll, root), first, count;
    int parent = coll_at(coll, coll_parent(v), root);

    xg_coll_begin(coll, XG_COLL_BROADCAST, 1, nbytes, root, 0);
    coll_children(coll, v, &first, &count);
    if (v != 0) {
        coll_wait(coll, parent, XG_PSYNC_DOWN);
        coll->chan->check(coll, parent);
    }
    /* pass "the root is in" on before copying, so the subtree copies in
     * parallel with this PE */
    coll_signal_children(coll, first, count, root, XG_PSYNC_DOWN);
    if (v != 0) {
        coll->chan->read(coll, dest, source, root, nbytes);
    } else if (root_copies && (dest != source)) {
        coll_memmove(dest, source, nbytes);
    }
    /* the root's source must stay until every member has copied it */
    coll_wait_children(coll, first, count, root, XG_PSYNC_ACK);
    if (v != 0) {
        coll_signal(coll, parent, XG_PSYNC_ACK);
    }
}

/* ---- reductions --------------------------------------------------------- */

/*
 * Radix-k tree rooted at member 0.  Up: each member combines its
 * children's partial results (in their dest arrays) into its own dest and
 * tells its parent.  Down: member 0's dest holds the result; "ready" flows
 * down and every member copies it from member 0; "done" flows back up so
 * member 0 leaves last.  A child's dest is read by its parent before the
 * child is released, and overwritten only after.
 */
static void coll_reduce_tree(const xg_coll_t *coll, void *dest,
                             const void *source, size_t nelems,
                             size_t elem_size, xg_op_kernel_t op)
{
    size_t nbytes = nelems * elem_size;
    long v = coll->rank, first, count, i;
    int parent = (int)coll_parent(v);

    coll_children(coll, v, &first, &count);
    if (dest != source) {
        coll_memcpy(dest, source, nbytes);
    }
    coll_wait_children(coll, first, count, 0, XG_PSYNC_UP);
    for (i = 0; i < count; i++) {
        int child = (int)(first + i);

        coll->chan->check(coll, child);
        coll->chan->combine(coll, op, dest, dest, child, nelems, elem_size);
    }
    if (v != 0) {
        coll_signal(coll, parent, XG_PSYNC_UP);
        coll_wait(coll, parent, XG_PSYNC_DOWN);
        coll->chan->check(coll, parent);
    }
    coll_signal_children(coll, first, count, 0, XG_PSYNC_DOWN);
    if (v != 0) {
        coll->chan->read(coll, dest, dest, 0, nbytes);
    }
    coll_wait_children(coll, first, count, 0, XG_PSYNC_ACK);
    if (v != 0) {
        coll_signal(coll, parent, XG_PSYNC_ACK);
    }
}

/* Member @rank's share of @nelems elements: whole cache lines where the
 * elements allow, so no two members write the same line. */
static void coll_slice(size_t nelems, size_t elem_size, int size, int rank,
                       size_t *lo_p, size_t *count_p)
{
    size_t line = (elem_size < 64) ? 64 / elem_size : 1;
    size_t per = (nelems + (size_t)size - 1) / (size_t)size;
    size_t lo, hi;

    per = (per + line - 1) / line * line;
    lo = per * (size_t)rank;
    if (lo > nelems) {
        lo = nelems;
    }
    hi = (per > nelems - lo) ? nelems : lo + per;
    *lo_p = lo;
    *count_p = hi - lo;
}

/*
 * Reduce-scatter + allgather, reading the sources directly: after a first
 * barrier phase (every source ready, every dest writable) member r reduces
 * its slice of all members' sources into its own dest, in chunks that stay
 * in cache; after a second, it copies the other slices from their owners'
 * dest; a third keeps every dest and source in place until all have read.
 * Each member reads about 2 x the payload whatever the team size.
 */
static void coll_reduce_split(xg_coll_t *coll, void *dest,
                              const void *source, size_t nelems,
                              size_t elem_size, xg_op_kernel_t op)
{
    char *d = dest;
    const char *s = source;
    size_t lo, count, off, m, chunk = COLL_CHUNK / elem_size;
    int n = coll->size, j, p;

    if (chunk == 0) {
        chunk = 1;
    }
    xg_coll_phase(coll);
    coll->chan->check(coll, (coll->rank + 1) % n);
    coll_slice(nelems, elem_size, n, coll->rank, &lo, &count);
    for (off = lo; off < lo + count; off += m) {
        m = (lo + count - off < chunk) ? lo + count - off : chunk;
        if (d != s) {
            coll_memcpy(d + off * elem_size, s + off * elem_size, m * elem_size);
        }
        /* start at the next member: members read different sources */
        for (j = 1; j < n; j++) {
            p = (coll->rank + j) % n;
            coll->chan->combine(coll, op, d + off * elem_size,
                                s + off * elem_size, p, m, elem_size);
        }
    }
    xg_coll_phase(coll);
    for (j = 1; j < n; j++) {
        p = (coll->rank + j) % n;
        coll_slice(nelems, elem_size, n, p, &lo, &count);
        coll->chan->read(coll, d + lo * elem_size, d + lo * elem_size, p,
                         count * elem_size);
    }
    xg_coll_phase(coll);
}

static int coll_split_size(const xg_coll_t *coll, size_t nelems,
                           size_t elem_size)
{
    return (nelems * elem_size >= coll_cfg.reduce_split) &&
           (nelems >= (size_t)coll->size);
}

/* What members publish for a reduction or scan: the (operation, type). */
static uint64_t coll_op_code(xg_op_t op, xg_op_type_t type)
{
    return ((uint64_t)op << 8) | (uint64_t)type;
}

void xg_coll_reduce(xg_coll_t *coll, void *dest, const void *source,
                    size_t nelems, xg_op_t op, xg_op_type_t type)
{
    size_t elem_size = xg_op_type_size(type);
    xg_op_kernel_t kernel = xg_op_kernel(op, type);

    xg_coll_begin(coll, XG_COLL_REDUCE, coll_op_code(op, type), nelems, -1,
                  0);
    if (coll->size == 1) {
        if (dest != source) {
            coll_memcpy(dest, source, nelems * elem_size);
        }
    } else if (coll_split_size(coll, nelems, elem_size)) {
        coll_reduce_split(coll, dest, source, nelems, elem_size, kernel);
    } else {
        coll_reduce_tree(coll, dest, source, nelems, elem_size, kernel);
    }
}

void xg_coll_reduce_scratch(xg_coll_t *coll, uint64_t *words, size_t nelems,
                            xg_op_t op)
{
    if (coll->size > 1) {
        coll_reduce_tree(coll, words, words, nelems, sizeof(*words),
                         xg_op_kernel(op, XG_TYPE_U64));
    }
}

/* ---- scans -------------------------------------------------------------- */

/*
 * One step of the recursive-doubling scan with member distance @dist:
 * dest (this member's partial result) is read by member rank + dist after
 * "ready"; this member reads rank - dist's into @tmp and says "done"; dest
 * changes only after rank + dist said "done".  @combine: dest OP= tmp;
 * otherwise dest = tmp (or zeros on the first members: the exclusive
 * shift).
 */
static void coll_scan_step(const xg_coll_t *coll, void *dest, void *tmp,
                           size_t nelems, size_t elem_size, long dist,
                           xg_op_kernel_t op, int combine)
{
    size_t nbytes = nelems * elem_size;
    long r = coll->rank;
    int right = (r + dist < coll->size), left = (r - dist >= 0);

    if (right) {
        coll_signal(coll, (int)(r + dist), XG_PSYNC_DOWN);
    }
    if (left) {
        coll_wait(coll, (int)(r - dist), XG_PSYNC_DOWN);
        coll->chan->check(coll, (int)(r - dist));
        coll->chan->read(coll, tmp, dest, (int)(r - dist), nbytes);
        coll_signal(coll, (int)(r - dist), XG_PSYNC_ACK);
    }
    if (right) {
        coll_wait(coll, (int)(r + dist), XG_PSYNC_ACK);
    }
    if (combine) {
        if (left && (nelems > 0)) {
            op(dest, tmp, nelems);
        }
    } else if (left) {
        coll_memcpy(dest, tmp, nbytes);
    } else {
        coll_memset0(dest, nbytes);
    }
}

static void coll_scan_doubling(const xg_coll_t *coll, void *dest,
                               const void *source, size_t nelems,
                               size_t elem_size, xg_op_kernel_t op,
                               int exclusive)
{
    size_t nbytes = nelems * elem_size;
    char stack_tmp[COLL_CHUNK];
    void *tmp = stack_tmp;
    long dist;

    if (nbytes > sizeof(stack_tmp)) {
        tmp = malloc(nbytes);
        if (tmp == NULL) {
            coll_fail(coll, "no memory for a %zu-byte scan buffer", nbytes);
        }
    }
    if (dest != source) {
        coll_memcpy(dest, source, nbytes);
    }
    for (dist = 1; dist < coll->size; dist <<= 1) {
        coll_scan_step(coll, dest, tmp, nelems, elem_size, dist, op, 1);
    }
    if (exclusive) {
        coll_scan_step(coll, dest, tmp, nelems, elem_size, 1, op, 0);
    }
    if (tmp != stack_tmp) {
        free(tmp);
    }
}

/*
 * Large scans: member r owns a slice of the elements and, in member order,
 * accumulates every member's source slice, writing each member's prefix
 * into that member's dest -- each member reads and writes about the
 * payload once.  Bracketed by barrier phases like the split reduction.
 */
static void coll_scan_split(xg_coll_t *coll, void *dest, const void *source,
                            size_t nelems, size_t elem_size,
                            xg_op_kernel_t op, int exclusive)
{
    char acc[COLL_CHUNK], tmp[COLL_CHUNK];
    size_t lo, count, off, m, bytes, chunk = COLL_CHUNK / elem_size;
    int n = coll->size, p;

    xg_coll_phase(coll);
    coll->chan->check(coll, (coll->rank + 1) % n);
    coll_slice(nelems, elem_size, n, coll->rank, &lo, &count);
    for (off = lo; off < lo + count; off += m) {
        m = (lo + count - off < chunk) ? lo + count - off : chunk;
        bytes = m * elem_size;
        for (p = 0; p < n; p++) {
            const char *src = (const char *)source + off * elem_size;
            char *dst = (char *)dest + off * elem_size;

            if (!exclusive) {
                if (p == 0) {
                    coll->chan->read(coll, acc, src, p, bytes);
                } else {
                    coll->chan->combine(coll, op, acc, src, p, m, elem_size);
                }
                coll->chan->write(coll, dst, acc, p, bytes);
                continue;
            }
            /* exclusive: dst may be src (in place), so read it first */
            if (p == 0) {
                coll->chan->read(coll, acc, src, p, bytes);
                coll_memset0(tmp, bytes);
                coll->chan->write(coll, dst, tmp, p, bytes);
            } else {
                coll->chan->read(coll, tmp, src, p, bytes);
                coll->chan->write(coll, dst, acc, p, bytes);
                op(acc, tmp, m);
            }
        }
    }
    xg_coll_phase(coll);
}

void xg_coll_scan(xg_coll_t *coll, void *dest, const void *source,
                  size_t nelems, xg_op_t op, xg_op_type_t type,
                  int exclusive)
{
    size_t elem_size = xg_op_type_size(type);
    xg_op_kernel_t kernel = xg_op_kernel(op, type);

    xg_coll_begin(coll, XG_COLL_SCAN,
                  2 * coll_op_code(op, type) + (exclusive ? 1 : 0), nelems,
                  -1, 0);
    if (coll->size == 1) {
        if (exclusive) {
            coll_memset0(dest, nelems * elem_size);
        } else if (dest != source) {
            coll_memcpy(dest, source, nelems * elem_size);
        }
    } else if (coll_split_size(coll, nelems, elem_size) &&
               (elem_size <= COLL_CHUNK)) {
        coll_scan_split(coll, dest, source, nelems, elem_size, kernel,
                        exclusive);
    } else {
        coll_scan_doubling(coll, dest, source, nelems, elem_size, kernel,
                           exclusive);
    }
}

/* ---- collect, fcollect, alltoall(s) ------------------------------------- */

void xg_coll_fcollect(xg_coll_t *coll, void *dest, const void *source,
                      size_t nbytes)
{
    int n = coll->size, j, p;

    xg_coll_begin(coll, XG_COLL_FCOLLECT, 1, nbytes, -1, 0);
    xg_coll_phase(coll);
    coll->chan->check(coll, (coll->rank + 1) % n);
    for (j = 0; j < n; j++) {
        p = (coll->rank + j) % n;
        coll->chan->read(coll, (char *)dest + (size_t)p * nbytes, source, p,
                         nbytes);
    }
    xg_coll_phase(coll);
}

void xg_coll_collect(xg_coll_t *coll, void *dest, const void *source,
                     size_t nbytes, size_t elem_size)
{
    size_t off = 0, len;
    int p;

    /* the counts may differ: only the element size is compared */
    xg_coll_begin(coll, XG_COLL_COLLECT, elem_size, 0, -1, 0);
    coll->chan->count_put(coll, nbytes);
    /* the barrier's release/acquire publishes the counts */
    xg_coll_phase(coll);
    coll->chan->check(coll, (coll->rank + 1) % coll->size);
    for (p = 0; p < coll->size; p++) {
        off += (p == coll->rank) ? nbytes : coll->chan->count_get(coll, p);
    }
    if ((off > 0) && (xg_gas_diagnose(dest, off, xg_gas.me) != XG_OK)) {
        coll_fail(coll, "dest %p cannot hold the %zu bytes the PEs "
                  "contribute: it must be a symmetric array of at least "
                  "the sum of every PE's nelems", dest, off);
    }
    off = 0;
    for (p = 0; p < coll->size; p++) {
        len = (p == coll->rank) ? nbytes : coll->chan->count_get(coll, p);
        coll->chan->read(coll, (char *)dest + off, source, p, len);
        off += len;
    }
    xg_coll_phase(coll);
    coll->chan->count_done(coll);
}

void xg_coll_alltoall(xg_coll_t *coll, void *dest, const void *source,
                      size_t nbytes)
{
    int n = coll->size, j, p;

    xg_coll_begin(coll, XG_COLL_ALLTOALL, 1, nbytes, -1, 0);
    xg_coll_phase(coll);
    coll->chan->check(coll, (coll->rank + 1) % n);
    for (j = 0; j < n; j++) {
        p = (coll->rank + j) % n;
        coll->chan->read(coll, (char *)dest + (size_t)p * nbytes,
                         (const char *)source + (size_t)coll->rank * nbytes, p,
                         nbytes);
    }
    xg_coll_phase(coll);
}

void xg_coll_alltoalls(xg_coll_t *coll, void *dest, const void *source,
                       ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                       size_t elem_size)
{
    int n = coll->size, j, p;
    uint64_t strides = ((uint64_t)dst << 32) ^ (uint64_t)sst;

    xg_coll_begin(coll, XG_COLL_ALLTOALLS, elem_size, nelems, -1, strides);
    xg_coll_phase(coll);
    coll->chan->check(coll, (coll->rank + 1) % n);
    for (j = 0; j < n; j++) {
        p = (coll->rank + j) % n;
        coll->chan->read_strided(
            coll, (char *)dest + (size_t)p * nelems * (size_t)dst * elem_size,
            dst,
            (const char *)source +
                (size_t)coll->rank * nelems * (size_t)sst * elem_size,
            sst, p, nelems, elem_size);
    }
    xg_coll_phase(coll);
}

/* ---- scatter and gather with counts and displacements ------------------- */

void xg_coll_scatterv(xg_coll_t *coll, void *dest, const void *source,
                      const int *counts, const int *displs, size_t nelems,
                      size_t elem_size, int root)
{
    xg_coll_begin(coll, XG_COLL_SCATTER, elem_size, nelems, root, 0);
    /* the root's source is ready */
    xg_coll_phase(coll);
    coll->chan->check(coll, (coll->rank + 1) % coll->size);
    coll->chan->read(coll, dest,
                     (const char *)source +
                         (size_t)displs[coll->rank] * elem_size,
                     root, (size_t)counts[coll->rank] * elem_size);
    /* the root's source stays until every member has its block */
    xg_coll_phase(coll);
}

void xg_coll_gatherv(xg_coll_t *coll, void *dest, const void *source,
                     const int *counts, const int *displs, size_t nelems,
                     size_t elem_size, int root)
{
    int j, p;

    xg_coll_begin(coll, XG_COLL_GATHER, elem_size, nelems, root, 0);
    /* every member's source is ready */
    xg_coll_phase(coll);
    coll->chan->check(coll, (coll->rank + 1) % coll->size);
    if (coll->rank == root) {
        for (j = 0; j < coll->size; j++) {
            p = (root + j) % coll->size;
            coll->chan->read(coll, (char *)dest + (size_t)displs[p] * elem_size,
                             source, p, (size_t)counts[p] * elem_size);
        }
    }
    /* the sources stay until the root has read them */
    xg_coll_phase(coll);
}
