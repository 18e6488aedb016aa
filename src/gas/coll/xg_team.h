/*
 * Teams: ordered subsets of the job's PEs, as member maps.  The fast form
 * is strided: member i (0 <= i < size) is world PE start + i * stride --
 * SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED (every PE is on this node) and every
 * team split by shmem_team_split_strided or shmem_team_split_2d.  The
 * other form lists the members' world PEs (members[i]), for groups of any
 * shape (ARMCI groups, MPI-like splits); xg_team_create_list makes one.
 *
 * The public handle shmem_team_t points to this structure.  The first
 * block of fields is the contract with the rest of the library (contexts
 * translate team-relative PE numbers with it); the fields after it belong
 * to the team and collective code (gas/coll/).
 */
#ifndef XG_TEAM_H
#define XG_TEAM_H

#include <stddef.h>
#include <stdint.h>

#include "base/xg_compiler.h"
#include "xgas_status.h"

/* Where a team's members run (team.c), for the collectives that use the
 * node structure: the members of this PE's node, and the first member of
 * every node (its leader). */
typedef struct xg_team_nodes {
    int count;     /* nodes with members (1: the team is on one node) */
    int leader;    /* team rank of this PE's node's first member */
    int nlocal;    /* members on this PE's node, this one included */
    int *local;    /* their team ranks, ascending (leader first) */
    int *leaders;  /* team rank of every node's leader, ascending */
    int my_leader; /* this PE's index in leaders, or -1 */
} xg_team_nodes_t;

typedef struct xg_team {
    /* --- contract: read by contexts, RMA, AMO, signals --- */
    int start;  /* world PE of member 0 */
    int stride; /* world PE distance between consecutive members: negative
                  * for a team in reverse order, 0 only when size is 1 */
    int size;   /* members */
    int my_pe;  /* this PE's index in the team */
    const int *members; /* list form: world PE of each member (start and
                         * stride unused); NULL: strided */
    /* --- owned by team.c and the collectives --- */
    uint32_t magic;        /* XG_TEAM_MAGIC while the handle is valid */
    int predefined;        /* world or shared: never destroyed */
    uint64_t slot;         /* sync slot in every member's internal area */
    uint64_t seq;          /* collectives this PE started on the team */
    uint64_t bar_count;    /* counter barriers this PE passed on it */
    uint64_t exchanges;    /* exchanges through the stages it took part in */
    uint64_t *expected;    /* [dir * size + member]: the member's signals
                            * (in direction dir) this PE consumed; from
                            * [2 * size] on, the signals it sent them */
    int num_contexts;      /* shmem_team_config_t.num_contexts */
    long config_mask;      /* the mask the team was created with */
    xg_team_nodes_t nodes; /* where the members run */
    struct xg_team *next;  /* live user teams (for finalize) */
} xg_team_t;

#define XG_TEAM_MAGIC 0x7465616dU /* "team" */

extern xg_team_t xg_team_world;
extern xg_team_t xg_team_shared;

/* Not a team users see: the world-shaped owner of slot 2, whose signal
 * counters (indexed by world PE) and consumed counts carry the signals of
 * every active-set call (gas/coll/xg_coll.h), so that no call writes into its
 * pSync array. */
extern xg_team_t xg_team_aset;

/* Sets up the predefined teams and clears this PE's slots (runtime
 * start-up, after xg_gas_init; collective: ends with a fence of the boot
 * layer, so no PE signals a slot before its owner cleared it -- the node
 * region keeps its contents across a finalize and a new shmem_init). */
void xg_team_init(void);

/* Invalidates and frees every team the program created (at finalize). */
void xg_team_fini(void);

/* Nonzero if @team is one of this PE's live user teams; looks the pointer
 * up in the team table first, so a garbage handle is never dereferenced. */
int xg_team_lookup(const xg_team_t *team);

/* Nonzero if @team is a live team handle of this PE (the predefined teams
 * cost two compares; others a look-up). */
static inline int xg_team_valid(const xg_team_t *team)
{
    if ((team == &xg_team_world) || (team == &xg_team_shared)) {
        return team->magic == XG_TEAM_MAGIC;
    }
    return xg_team_lookup(team);
}

/* Index in @team of world PE @world_pe, or -1 if it is not a member. */
int xg_team_list_rank_of(const xg_team_t *team, int world_pe);

static inline int xg_team_rank_of(const xg_team_t *team, int world_pe)
{
    int diff = world_pe - team->start;

    if (team->members != NULL) {
        return xg_team_list_rank_of(team, world_pe);
    }
    if (team->stride == 0) {
        return (diff == 0) ? 0 : -1;
    }
    if ((diff % team->stride) != 0) {
        return -1;
    }
    diff /= team->stride;
    return ((diff >= 0) && (diff < team->size)) ? diff : -1;
}

/*
 * A team to create: its members in world numbering, whether this PE is
 * one of them, and its configuration.  xg_team_split creates a set of
 * disjoint-or-identical-slot teams in one collective call over the parent.
 */
typedef struct xg_team_spec {
    int start, stride, size; /* world PEs start + i * stride, i < size */
    const int *members;      /* or these (size of them), if not NULL */
    int member;              /* this PE belongs to it */
    int axis;                /* 0 or 1: which slot of the call it takes */
    int num_contexts;
    long config_mask;
} xg_team_spec_t;

/*
 * Collective over @parent: every parent member passes the same number of
 * axes (1 for a strided split, 2 for a 2-D split) and its own specs, one per
 * axis; @valid is 0 on every PE when the arguments were found invalid and
 * @digest summarizes the arguments (compared between PEs).  Teams of the
 * same axis are disjoint and share one slot.  On success *@teams_p[axis]
 * is the new team, or NULL where this PE is not a member; on failure every
 * parent member gets the same error (XG_ERR_INVALID_PARAM: some PE had
 * invalid arguments; XG_ERR_NO_RESOURCE: no free slot, with a message;
 * XG_ERR_NO_MEMORY) and no team.
 */
xg_status_t xg_team_split(xg_team_t *parent, const xg_team_spec_t *specs,
                          int naxes, int valid, uint64_t digest,
                          const char *routine, xg_team_t **teams_p);

/* Collective over @team: synchronizes, then releases its slot and frees
 * it (user teams only). */
void xg_team_destroy(xg_team_t *team, const char *routine);

/* World PE of member @pe of @team (@pe must be in 0..size-1). */
static inline int xg_team_world_pe(const xg_team_t *team, int pe)
{
    if (xg_unlikely(team->members != NULL)) {
        return team->members[pe];
    }
    return team->start + pe * team->stride;
}

/*
 * Collective over @parent: creates the team whose member i is world PE
 * @pes[i] (@count distinct parent members, the same list on every parent
 * member) in a free slot.  *@team_p is the new team on its members, NULL
 * on the other parent members; the status is the same on every parent
 * member (as xg_team_split's; XG_ERR_INVALID_PARAM for a bad list).  The
 * shmem binding cannot split a list team (its splits are strided).
 */
xg_status_t xg_team_create_list(xg_team_t *parent, const int *pes, int count,
                                const char *routine, xg_team_t **team_p);

#endif
