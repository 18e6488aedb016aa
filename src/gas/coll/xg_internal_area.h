/*
 * Layout of the internal area at the top of each PE's partition (the PVAS
 * export area): runtime state that other PEs read or update directly.
 *
 * The area is an array of team synchronization slots (the geometry below,
 * xg_slot_geometry, is the only place that sizes them; mem reserves the
 * bytes xg_gas_internal_size asks for).  Slot 0 belongs to
 * SHMEM_TEAM_WORLD, slot 1 to SHMEM_TEAM_SHARED, slot 2 to the active-set
 * routines (their signals, counted per world PE); the others are handed to
 * teams as they are created, by an agreement over the parent team, and a
 * team uses the same slot index on every member.  A slot holds:
 *
 *   desc     XG_COLL_DESC_RING cache lines, one per collective number
 *            modulo the ring: the owner rewrites line (seq % ring) at the
 *            start of each collective on the team (which one, its root,
 *            counts, argument digest); other members read it to detect
 *            mismatched arguments.  A member cannot get more than two
 *            calls ahead of another (each call of this team ends with a
 *            synchronization that needs all members, broadcasts aside,
 *            which need the root), so a peer's line for the call this PE
 *            is in stays readable until this PE leaves the call;
 *   inbox    XG_COLL_DESC_RING lines more, indexed the same way: where a
 *            member that pushes data to this PE through the network (a
 *            broadcast's parent) writes its descriptor before its signal,
 *            so this PE checks the call with a local read;
 *   bar      the counter barrier's words, used in member 0's slot only:
 *            arrivals (every member's) and release (written by the last
 *            member to arrive, read by every member);
 *   scratch  a few lines of symmetric scratch the team's own internal
 *            operations use (the free-slot bitmap during team creation);
 *   chan[d][r]  64-bit signal counters, one per member r and direction
 *            d (from a parent in a tree, or from a child -- and the
 *            direction-less rounds): only member r ever writes chan[d][r]
 *            (atomically adds 1), only the owner reads it.  Counters only
 *            grow while the team lives, so a signal that arrives early is
 *            never lost or mistaken for a later one; the direction keeps
 *            members that disagree on the tree (different roots) from
 *            taking each other's signals for the ones they wait for;
 *   count[r] where member r of a collect across nodes writes how many
 *            bytes it contributes, before its signal (only r writes it,
 *            only the owner reads it);
 *   stage    XG_COLL_STAGE bytes where members write small blocks across
 *            nodes, each before its signal: the first XG_COLL_STAGE_REDUCE
 *            the partial results of this PE's children in a reduction
 *            (child i of k at i / k of it; a child writes again only
 *            after this PE has sent it the result), the rest two halves,
 *            by the parity of the team's exchange number, where each
 *            member of a small fcollect or alltoall writes its block at
 *            its rank's place (a member is in exchange e only after every
 *            member has entered e - 1, so done with e - 2).
 *
 * The owner clears its slot when a team is created in it, before a barrier
 * of the parent team that every member passes before it may touch the new
 * slot; team destruction ends with a barrier after which no member touches
 * another's slot again, so a slot is quiet before it is handed out again.
 */
#ifndef XG_INTERNAL_AREA_H
#define XG_INTERNAL_AREA_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "base/xg_compiler.h"
#include "gas/xg_gas.h"
#include "mem/xg_mem.h"

/* The descriptor of the collective a member is in (seqlock: seq2 is odd
 * while the owner rewrites the other fields). */
typedef struct xg_coll_desc {
    _Atomic uint64_t seq2;   /* 2 x the team's collective number */
    _Atomic uint64_t kind;   /* xg_coll_kind_t */
    _Atomic uint64_t code;   /* element size, operation */
    _Atomic uint64_t nelems; /* elements or bytes, as the kind counts */
    _Atomic int64_t root;    /* root PE in the team, or -1 */
    _Atomic uint64_t extra;  /* kind-specific argument digest */
    _Atomic uint64_t count;  /* collect: this PE's contribution in bytes */
} XG_CACHE_ALIGNED xg_coll_desc_t;

_Static_assert(sizeof(xg_coll_desc_t) == 64, "descriptor is one line");

/* Descriptors per slot (a power of two). */
#define XG_COLL_DESC_RING 4u

/* The counter barrier's lines: both only grow while the team lives.  The
 * release word has a line of its own, so the members polling it are not
 * disturbed by each arrival. */
typedef struct xg_coll_bar {
    _Atomic uint64_t arrived XG_CACHE_ALIGNED; /* member 0's: arrivals, size
                                                * per barrier */
    _Atomic uint64_t release XG_CACHE_ALIGNED; /* member 0's: barriers the
                                                * members may leave */
} XG_CACHE_ALIGNED xg_coll_bar_t;

_Static_assert(sizeof(xg_coll_bar_t) == 128, "the barrier is two lines");

/* Geometry of the slots, the same on every PE (set by xg_team_init). */
typedef struct xg_slot_layout {
    uint64_t slots;       /* slots per PE */
    uint64_t size;        /* bytes per slot */
    uint64_t inbox_off;   /* offset of the inbox lines in a slot */
    uint64_t bar_off;     /* offset of the barrier line in a slot */
    uint64_t scratch_off; /* offset of the scratch words in a slot */
    uint64_t scratch_words;
    uint64_t chan_off;  /* offset of chan[0][0] in a slot */
    uint64_t chan_pes;  /* counters per direction (the job's PEs) */
    uint64_t count_off; /* offset of count[0] in a slot */
    uint64_t stage_off; /* offset of the stage in a slot */
} xg_slot_layout_t;

/* Bytes of a slot's stage and of its parts (cache-line multiples). */
#define XG_COLL_STAGE_REDUCE   2048u
#define XG_COLL_STAGE_EXCHANGE 1024u
#define XG_COLL_STAGE          (XG_COLL_STAGE_REDUCE + XG_COLL_STAGE_EXCHANGE)

extern xg_slot_layout_t xg_slot_layout;

/* The slots reserved before the teams' (SHMEM_TEAM_WORLD's,
 * SHMEM_TEAM_SHARED's, the active-set routines'), and the slots of an
 * internal area for XGAS_TEAMS_MAX = @teams_max (1..4096, which the
 * configuration table enforces). */
#define XG_GAS_PREDEFINED_TEAMS 3

static inline uint64_t xg_gas_team_slots(long teams_max)
{
    return (uint64_t)teams_max + XG_GAS_PREDEFINED_TEAMS;
}

/* The geometry of @slots slots for a job of @npes PEs: four cache lines of
 * collective descriptors, four of pushed ones, two of barrier counters,
 * scratch lines for a bitmap of every slot (team creation agrees on free
 * slots with it), two 8-byte signal words and a collect count per PE,
 * each part rounded to cache lines, and the stage: 3968 bytes per slot at
 * 8 PEs. */
static inline xg_slot_layout_t xg_slot_geometry(int npes, uint64_t slots)
{
    xg_slot_layout_t g;

    g.slots         = slots;
    g.inbox_off     = XG_COLL_DESC_RING * sizeof(xg_coll_desc_t);
    g.bar_off       = g.inbox_off + XG_COLL_DESC_RING * sizeof(xg_coll_desc_t);
    g.scratch_off   = g.bar_off + sizeof(xg_coll_bar_t);
    g.scratch_words = slots / 64 + 2; /* bitmap + flags */
    g.chan_off      = g.scratch_off + xg_align_up(8 * g.scratch_words, 64);
    g.chan_pes      = (uint64_t)npes;
    g.count_off     = g.chan_off + xg_align_up(16u * (uint64_t)npes, 64);
    g.stage_off     = g.count_off + xg_align_up(8u * (uint64_t)npes, 64);
    g.size          = g.stage_off + XG_COLL_STAGE;
    return g;
}

/* Bytes of the internal area of each PE of a job of @npes PEs (what the
 * runtime asks mem to reserve). */
static inline uint64_t xg_gas_internal_size(int npes, long teams_max)
{
    uint64_t slots = xg_gas_team_slots(teams_max);

    return slots * xg_slot_geometry(npes, slots).size;
}

/* Slot @slot of PE @pe's internal area, as seen from this PE (@pe on the
 * direct route: a PE of this node). */
static inline char *xg_slot(int pe, uint64_t slot)
{
    return (char *)xg_gas_part(pe) + xg_mem.internal_off +
           slot * xg_slot_layout.size;
}

/* The descriptor of the team's collective number @seq in @slot. */
static inline xg_coll_desc_t *xg_slot_desc(char *slot, uint64_t seq)
{
    return (xg_coll_desc_t *)slot + (seq & (XG_COLL_DESC_RING - 1));
}

/* The inbox line of collective number @seq in @slot. */
static inline xg_coll_desc_t *xg_slot_inbox(char *slot, uint64_t seq)
{
    return (xg_coll_desc_t *)(slot + xg_slot_layout.inbox_off) +
           (seq & (XG_COLL_DESC_RING - 1));
}

static inline xg_coll_bar_t *xg_slot_bar(char *slot)
{
    return (xg_coll_bar_t *)(slot + xg_slot_layout.bar_off);
}

static inline uint64_t *xg_slot_scratch(char *slot)
{
    return (uint64_t *)(slot + xg_slot_layout.scratch_off);
}

/* Directions of the signal counters. */
enum {
    XG_CHAN_DOWN = 0,
    XG_CHAN_UP   = 1
};

static inline _Atomic uint64_t *xg_slot_chan(char *slot, int dir, int rank)
{
    return (_Atomic uint64_t *)(slot + xg_slot_layout.chan_off) +
           (uint64_t)dir * xg_slot_layout.chan_pes + (uint64_t)rank;
}

/* count[@rank] of @slot. */
static inline _Atomic uint64_t *xg_slot_count(char *slot, int rank)
{
    return (_Atomic uint64_t *)(slot + xg_slot_layout.count_off) + rank;
}

/* The stage of @slot. */
static inline char *xg_slot_stage(char *slot)
{
    return slot + xg_slot_layout.stage_off;
}

#endif
