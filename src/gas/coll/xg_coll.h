/*
 * The collective engine: barriers, broadcast, reductions, scans, collect,
 * fcollect, alltoall(s), scatter and gather over a team or an active set.
 *
 * On the direct channels data never goes through intermediate buffers:
 * every PE reads the other members' symmetric objects directly (PVAS: a
 * remote object is the same offset in the owner's partition), so a
 * broadcast is one copy per PE out of the root's source and a large
 * reduction reads each source once; the remote channels get a member's
 * data a chunk at a time into a private buffer.
 * What the algorithms exchange are signals, and they are arranged in
 * trees or dissemination rounds so that no PE handles more than
 * O(radix x log PEs) of them per call:
 *
 *   barrier        dissemination (ceil(log2 n) rounds) or, when PEs
 *                  outnumber CPUs, the counter barrier (arrivals counted
 *                  at member 0, one release word; teams above 64 members
 *                  and the active sets take a radix-k gather/release
 *                  tree instead: each PE waits at most twice, so it is
 *                  scheduled fewer times); a team over several nodes
 *                  meets per node, then among the nodes' leaders
 *   broadcast      radix-k tree rooted at the root: "ready" flows down,
 *                  every PE copies from the root's source, "done" flows up
 *   reduce         < XGAS_COLL_REDUCE_SPLIT bytes: radix-k tree, partial
 *                  results combined up the tree in the PEs' dest arrays,
 *                  the result read from the root's; otherwise reduce-
 *                  scatter (each PE reduces 1/n of the elements, reading
 *                  every source directly) + allgather, 3 barrier phases
 *   scan           small: recursive doubling (log2 n rounds, pairwise
 *                  handshakes); large: each PE scans its 1/n slice across
 *                  all PEs and writes it into every dest
 *   (f)collect,
 *   alltoall(s)    barrier, direct copies of every block, barrier
 *
 * Signals and peer data go through a signal channel (gas/coll/engine_int.h),
 * chosen once per call: the team-slot channel (a team's slot counters in
 * the internal area, gas/coll/xg_internal_area.h) or the pSync channel (the
 * deprecated active-set routines: the same counters in the reserved
 * active-set slot, indexed by world PE, so that no PE writes another's
 * pSync -- a late signal would land in an array its owner may already
 * reuse or check; only a collect keeps its count in the caller's own
 * pSync, reset before it returns).
 * Each has a direct form (loads and stores) and a remote one (gas
 * operations through each member's route), picked by XGAS_COLL_CHANNEL.
 * The algorithms below know only the channel.
 *
 * Waits back off with xg_wait_t and, when the node runs more PEs than it
 * has CPUs, yield after a few polls (XGAS_COLL_YIELD).
 *
 * Callers (the bindings under src/api) have checked every user argument;
 * the engine checks, cheaply, that the members of a team called the same
 * collective with the same counts and root (each member publishes a
 * descriptor; a member compares the descriptors of the peers it
 * synchronizes with) and ends the job with a message naming the routine
 * when they differ.
 */
#ifndef XG_COLL_H
#define XG_COLL_H

#include <stddef.h>
#include <stdint.h>

#include "base/xg_compiler.h"
#include "base/xg_op.h"
#include "gas/coll/xg_team.h"

typedef enum xg_coll_kind {
    XG_COLL_SYNC = 1,
    XG_COLL_BROADCAST,
    XG_COLL_REDUCE,
    XG_COLL_SCAN,
    XG_COLL_COLLECT,
    XG_COLL_FCOLLECT,
    XG_COLL_ALLTOALL,
    XG_COLL_ALLTOALLS,
    XG_COLL_SPLIT,
    XG_COLL_DESTROY,
    XG_COLL_HEAP, /* a symmetric heap routine (code: xg_coll_heap_op_t) */
    XG_COLL_SCATTER,
    XG_COLL_GATHER,
    XG_COLL_KIND_COUNT
} xg_coll_kind_t;

/* The phases a signal names (dissemination rounds, then the tree
 * barrier's, then the data collectives'), and the pSync word of a
 * collect's count: the routines need XG_PSYNC_WORDS longs of pSync. */
#define XG_PSYNC_ROUNDS   32
#define XG_PSYNC_BAR_UP   32
#define XG_PSYNC_BAR_DOWN 33
#define XG_PSYNC_DOWN     34
#define XG_PSYNC_UP       35
#define XG_PSYNC_ACK      36
#define XG_PSYNC_COUNT    37 /* collect: this PE's contribution, bytes */
#define XG_PSYNC_WORDS    38

/* The signal channel of a call (gas/coll/engine_int.h). */
typedef struct xg_coll_chan xg_coll_chan_t;

/* One collective call: who takes part and where it synchronizes. */
typedef struct xg_coll {
    const char *routine; /* for messages */
    const xg_coll_chan_t *chan;
    xg_team_t *team;    /* team-slot channel (NULL: pSync channel) */
    long *psync;        /* pSync channel: the caller's pSync */
    char *slot;         /* team-slot channel: this PE's slot */
    const int *members; /* member r is world PE members[r], or, if NULL, */
    int start;          /* start + r * stride */
    int stride;
    int size;
    int rank; /* this PE's index */
    /* what this PE published for the call (team mode) */
    uint64_t kind, code, nelems, extra;
    int64_t root;
} xg_coll_t;

/* Reads the configuration and agrees on the algorithms with the other PEs
 * (before and after the boot fence of xg_team_init). */
void xg_coll_setup_publish(void);
void xg_coll_setup_adopt(void);

/* A call over @team (valid, this PE a member). */
void xg_coll_team(xg_coll_t *coll, xg_team_t *team, const char *routine);

/* A call over the active set start + r * stride, r < size, with this PE at
 * index @rank, with @psync (symmetric, XG_PSYNC_WORDS longs, all
 * SHMEM_SYNC_VALUE: a collect's count; left as found).  A PE makes its
 * active-set calls one at a time. */
void xg_coll_aset(xg_coll_t *coll, int start, int stride, int size, int rank,
                  long *psync, const char *routine);

/* Team mode: starts the team's next collective and publishes what it is
 * (compared with the peers'); called by every routine below, and by team
 * creation and destruction before the phases they run. */
void xg_coll_begin(xg_coll_t *coll, xg_coll_kind_t kind, uint64_t code,
                   uint64_t nelems, int64_t root, uint64_t extra);

/* Returns when every member has called it; release/acquire: writes of any
 * member before it are visible to every member after it. */
void xg_coll_barrier(xg_coll_t *coll);

/* A barrier phase inside a call that has begun (no new descriptor). */
void xg_coll_phase(xg_coll_t *coll);

/* Copies @nbytes of @source on member @root into @dest on every member
 * (on the root too if @root_copies). */
void xg_coll_broadcast(xg_coll_t *coll, void *dest, const void *source,
                       size_t nbytes, int root, int root_copies);

/* dest[i] = @op over members of source[i], i < nelems elements of @type,
 * on every member; @dest and @source are the same or disjoint.  @op is an
 * element-wise operation valid on @type (base/xg_op.h); members must pass
 * the same pair (checked). */
void xg_coll_reduce(xg_coll_t *coll, void *dest, const void *source,
                    size_t nelems, xg_op_t op, xg_op_type_t type);

/* Inside a begun team call: reduction of @nelems words of @words (in this
 * PE's slot scratch, the same place on every member) with the small-payload
 * tree; @words holds the result on every member afterwards. */
void xg_coll_reduce_scratch(xg_coll_t *coll, uint64_t *words, size_t nelems,
                            xg_op_t op);

/* Prefix reduction in member order: dest on member r = @op of source on
 * members 0..r (inclusive) or 0..r-1 (exclusive; zero bytes on member 0). */
void xg_coll_scan(xg_coll_t *coll, void *dest, const void *source,
                  size_t nelems, xg_op_t op, xg_op_type_t type, int exclusive);

/* dest = source of member 0, member 1, ... (@nbytes from each). */
void xg_coll_fcollect(xg_coll_t *coll, void *dest, const void *source,
                      size_t nbytes);

/* The same with @nbytes varying between members (@elem_size: the element
 * size the caller counts in, for the mismatch check). */
void xg_coll_collect(xg_coll_t *coll, void *dest, const void *source,
                     size_t nbytes, size_t elem_size);

/* Block r of @dest on member s = block s of @source on member r (@nbytes
 * per block). */
void xg_coll_alltoall(xg_coll_t *coll, void *dest, const void *source,
                      size_t nbytes);

/* Strided alltoall: element k of block r of @dest on member s, at index
 * (r * nelems + k) * dst, is element (s * nelems + k) * sst of @source on
 * member r. */
void xg_coll_alltoalls(xg_coll_t *coll, void *dest, const void *source,
                       ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                       size_t elem_size);

/*
 * Scatter and gather with a count and a displacement per member (in
 * elements of @elem_size bytes; @counts[r] and @displs[r] for member r,
 * non-negative, checked by the caller, the same arrays on every member).
 * scatterv: member r receives @counts[r] elements of @source on @root,
 * from element @displs[r], into @dest.  gatherv: @root receives
 * @counts[r] elements of @source on member r into @dest from element
 * @displs[r].  @nelems (the total the caller names) is compared between
 * members with the root and @elem_size.
 */
void xg_coll_scatterv(xg_coll_t *coll, void *dest, const void *source,
                      const int *counts, const int *displs, size_t nelems,
                      size_t elem_size, int root);
void xg_coll_gatherv(xg_coll_t *coll, void *dest, const void *source,
                     const int *counts, const int *displs, size_t nelems,
                     size_t elem_size, int root);

/*
 * The symmetric heap routines: a barrier over SHMEM_TEAM_WORLD that also
 * checks every PE called the same routine (@op) with the same @size and
 * @extra (the alignment, or the heap offset of the object freed or resized;
 * XG_COLL_HEAP_NULL for NULL).  After the barrier each PE compares
 * its right neighbour's descriptor of this call with its own, so a
 * difference between any two PEs is seen by some PE, which ends the job
 * with a message naming the routine, both PEs and both values.
 */
typedef enum xg_coll_heap_op {
    XG_COLL_HEAP_MALLOC = 1,
    XG_COLL_HEAP_MALLOC_HINTS,
    XG_COLL_HEAP_CALLOC,
    XG_COLL_HEAP_ALIGN,
    XG_COLL_HEAP_REALLOC,
    XG_COLL_HEAP_FREE,
    XG_COLL_HEAP_OP_COUNT
} xg_coll_heap_op_t;

/*
 * What the binding calls things in the engine's messages and hang
 * reports, and what it does with a fatal disagreement between PEs (a
 * mismatched collective or heap call: the PEs no longer agree on what
 * comes next, so @fail must not return).  gas has plain defaults ("the
 * world team", log and end the job); a binding installs its own before it
 * starts the runtime.  A NULL name keeps the default.
 */
typedef struct xg_coll_naming {
    const char *kinds[XG_COLL_KIND_COUNT]; /* "a broadcast" */
    const char *heap_ops[XG_COLL_HEAP_OP_COUNT];
    const char *world, *shared; /* the predefined teams */
    void (*fail)(const char *routine, const char *text) XG_NORETURN;
} xg_coll_naming_t;

void xg_coll_set_naming(const xg_coll_naming_t *naming);

#define XG_COLL_HEAP_NULL UINT64_MAX

void xg_coll_heap(xg_coll_heap_op_t op, uint64_t size, uint64_t extra);

/* xg_coll_heap for a binding whose routine names are not the naming's
 * (messages and hang reports say @routine, e.g. "ARMCI_Malloc"). */
XG_EXPORT void xg_coll_heap_named(const char *routine, xg_coll_heap_op_t op,
                                  uint64_t size, uint64_t extra);

/* Collectives this PE has started on @team (each call, heap routines and
 * barriers included, adds one): "call #N" in messages and hang reports. */
static inline uint64_t xg_coll_seq(const xg_team_t *team)
{
    return team->seq;
}

/* Name of the barrier algorithm in use ("dissemination", "tree" or
 * "counter"). */
const char *xg_coll_barrier_name(void);

/* Which channels this PE's collectives use (XGAS_COLL_CHANNEL): "direct"
 * or "remote". */
const char *xg_coll_channel_name(void);

#endif
