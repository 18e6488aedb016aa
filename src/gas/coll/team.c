/*
 * Teams (see xg_team.h): the predefined teams, creation by split, and
 * destruction.
 *
 * Each team owns one synchronization slot of the internal area, at the
 * same index on every member (gas/coll/xg_internal_area.h).  Slot 0 is
 * SHMEM_TEAM_WORLD's, slot 1 SHMEM_TEAM_SHARED's and slot 2 the
 * active-set routines' (xg_team_aset); this PE tracks the others it uses
 * in a bitmap.  Creating teams is collective over the parent:
 *
 *   1. every parent member ORs its bitmap (and flags: bad arguments, no
 *      memory) into a reduction over the parent, in the parent's slot
 *      scratch -- afterwards all hold the union;
 *   2. all pick the same lowest free slot(s): one per axis (a strided
 *      split creates one team, a 2-D split a row of x teams and a column
 *      of y teams, each axis a set of disjoint teams sharing one slot);
 *   3. every member of a new team claims the slot locally (another thread
 *      may have claimed it meanwhile for a split over another parent: then
 *      it reports a conflict), clears its part of the slot, and a second
 *      reduction over the parent ORs the conflicts; if any, everyone
 *      releases and starts over (after a few yields, so that two splits
 *      that conflicted do not meet in the same order again), else the
 *      second reduction is also the barrier after which members may use
 *      the new slot.
 *
 * Failures are collective: every parent member returns the same status.
 */
#include "gas/coll/xg_team.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "base/xg_compiler.h"
#include "base/xg_config.h"
#include "base/xg_log.h"
#include "boot/xg_boot.h"
#include "gas/coll/xg_coll.h"
#include "gas/coll/xg_internal_area.h"
#include "gas/xg_gas.h"

/* Public objects: SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED point here. */
XG_EXPORT xg_team_t xg_team_world;
XG_EXPORT xg_team_t xg_team_shared;
xg_team_t xg_team_aset;

xg_slot_layout_t xg_slot_layout;

/* Flags ORed into the last scratch word of the agreement. */
enum {
    TEAM_FLAG_INVALID  = 1,
    TEAM_FLAG_NOMEM    = 2,
    TEAM_FLAG_CONFLICT = 4
};

static pthread_mutex_t team_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t *team_used; /* slots of teams this PE is a member of */
static size_t team_used_words;
static xg_team_t *team_live; /* user teams of this PE */
static xg_team_t *team_free; /* destroyed team objects, for reuse */

/* ---- slots -------------------------------------------------------------- */

static int team_slot_used(uint64_t slot)
{
    return (team_used[slot / 64] >> (slot % 64)) & 1;
}

static void team_slot_set(uint64_t slot, int used)
{
    if (used) {
        team_used[slot / 64] |= (uint64_t)1 << (slot % 64);
    } else {
        team_used[slot / 64] &= ~((uint64_t)1 << (slot % 64));
    }
}

/* Clears this PE's part of @slot (before anyone may use it). */
static void team_slot_clear(uint64_t slot)
{
    memset(xg_slot(xg_gas.me, slot), 0, xg_slot_layout.size);
}

/* ---- nodes -------------------------------------------------------------- */

static void team_nodes_free(xg_team_t *team)
{
    free(team->nodes.local);
    free(team->nodes.leaders);
    team->nodes.local = team->nodes.leaders = NULL;
    team->nodes.count                       = 0;
}

/* Fills team->nodes from the members' nodes: O(size + nodes) once per
 * team; 0 if out of memory. */
static int team_nodes_init(xg_team_t *team)
{
    xg_team_nodes_t *n = &team->nodes;
    int *first         = malloc((size_t)xg_boot.nnodes * sizeof(*first));
    int r, node, mine = xg_boot.node;

    memset(n, 0, sizeof(*n));
    n->local   = malloc((size_t)team->size * sizeof(*n->local));
    n->leaders = malloc((size_t)team->size * sizeof(*n->leaders));
    if ((first == NULL) || (n->local == NULL) || (n->leaders == NULL)) {
        free(first);
        team_nodes_free(team);
        return 0;
    }
    for (node = 0; node < xg_boot.nnodes; node++) {
        first[node] = -1;
    }
    n->my_leader = -1;
    for (r = 0; r < team->size; r++) {
        node = xg_boot_node_of(xg_team_world_pe(team, r));
        if (first[node] < 0) {
            first[node] = r;
            if (r == team->my_pe) {
                n->my_leader = n->count;
            }
            n->leaders[n->count++] = r;
        }
        if (node == mine) {
            n->local[n->nlocal++] = r;
        }
    }
    n->leader = first[mine];
    free(first);
    return 1;
}

/* ---- objects ------------------------------------------------------------ */

static void team_release(xg_team_t *team);

static xg_team_t *team_alloc(const xg_team_spec_t *spec, int my_pe)
{
    xg_team_t *team;
    uint64_t *expected = calloc(4 * (size_t)spec->size, sizeof(*expected));
    int *members       = NULL;

    if ((spec->members != NULL) && (expected != NULL)) {
        members = malloc((size_t)spec->size * sizeof(*members));
        if (members == NULL) {
            free(expected);
            return NULL;
        }
        memcpy(members, spec->members, (size_t)spec->size * sizeof(*members));
    }
    if (expected == NULL) {
        return NULL;
    }
    pthread_mutex_lock(&team_lock);
    team = team_free;
    if (team != NULL) {
        team_free = team->next;
    }
    pthread_mutex_unlock(&team_lock);
    if (team == NULL) {
        team = malloc(sizeof(*team));
        if (team == NULL) {
            free(members);
            free(expected);
            return NULL;
        }
    }
    memset(team, 0, sizeof(*team));
    team->start        = spec->start;
    team->stride       = (spec->size == 1) ? 0 : spec->stride;
    team->size         = spec->size;
    team->my_pe        = my_pe;
    team->members      = members;
    team->expected     = expected;
    team->num_contexts = spec->num_contexts;
    team->config_mask  = spec->config_mask;
    if (!team_nodes_init(team)) {
        team_release(team);
        return NULL;
    }
    return team;
}

/* Back to the free list; the handle stays invalid (magic cleared). */
static void team_release(xg_team_t *team)
{
    team_nodes_free(team);
    free(team->expected);
    free((void *)team->members);
    team->expected = NULL;
    team->members  = NULL;
    team->magic    = 0;
    pthread_mutex_lock(&team_lock);
    team->next = team_free;
    team_free  = team;
    pthread_mutex_unlock(&team_lock);
}

/* A predefined team of @size members from world PE @start, @stride
 * apart, or (@members not NULL) of those world PEs. */
static void team_init_predefined(xg_team_t *team, uint64_t slot, int start,
                                 int stride, int size, const int *members)
{
    int my_pe = (stride == 0) ? 0 : (xg_gas.me - start) / stride;

    team_nodes_free(team);
    free(team->expected);
    free((void *)team->members);
    memset(team, 0, sizeof(*team));
    if (members != NULL) {
        int *copy = malloc((size_t)size * sizeof(*copy));

        if (copy == NULL) {
            xg_error("team", "no memory for the predefined teams");
            xg_boot_abort(1);
        }
        memcpy(copy, members, (size_t)size * sizeof(*copy));
        team->members = copy;
        for (my_pe = 0; copy[my_pe] != xg_gas.me; my_pe++) {
        }
    }
    team->start      = start;
    team->stride     = stride;
    team->size       = size;
    team->my_pe      = my_pe;
    team->predefined = 1;
    team->slot       = slot;
    team->expected   = calloc(4 * (size_t)size, sizeof(*team->expected));
    if ((team->expected == NULL) || !team_nodes_init(team)) {
        xg_error("team", "no memory for the predefined teams of %d PEs", size);
        xg_boot_abort(1);
    }
    team->magic = XG_TEAM_MAGIC;
}

/* SHMEM_TEAM_SHARED: the PEs of this node, which reach each other's
 * memory by load and store -- strided when their ranks are (one node,
 * blocks of ranks, round robin), else listed. */
static void team_init_shared(void)
{
    const int32_t *ranks =
        &xg_boot.node_ranks[xg_boot.node_first[xg_boot.node]];
    int size   = xg_boot.local_npes,
        stride = (size > 1) ? ranks[1] - ranks[0] : 1;
    int i, strided = (stride > 0);

    for (i = 2; strided && (i < size); i++) {
        strided = (ranks[i] - ranks[i - 1] == stride);
    }
    if (strided) {
        team_init_predefined(&xg_team_shared, 1, ranks[0], stride, size, NULL);
    } else {
        team_init_predefined(&xg_team_shared, 1, ranks[0], 0, size,
                             (const int *)ranks);
    }
}

void xg_team_init(void)
{
    uint64_t slots = xg_gas_team_slots(xg_config.teams_max);

    xg_slot_layout = xg_slot_geometry(xg_gas.npes, slots);

    free(team_used);
    team_used_words = (size_t)(slots + 63) / 64;
    team_used       = calloc(team_used_words, sizeof(*team_used));
    if (team_used == NULL) {
        xg_error("team", "no memory for the team slot map");
        xg_boot_abort(1);
    }
    team_slot_set(0, 1);
    team_slot_set(1, 1);
    team_slot_set(2, 1);
    team_init_predefined(&xg_team_world, 0, 0, 1, xg_gas.npes, NULL);
    team_init_shared();
    team_init_predefined(&xg_team_aset, 2, 0, 1, xg_gas.npes, NULL);

    /* The node region outlives a finalize: clear the predefined slots, and
     * let no PE signal them before every owner has (boot fence). */
    team_slot_clear(0);
    team_slot_clear(1);
    team_slot_clear(2);
    xg_coll_setup_publish();
    if (xg_boot_fence() != XG_OK) {
        xg_error("team", "the start-up fence failed");
        xg_boot_abort(1);
    }
    xg_coll_setup_adopt();
}

void xg_team_fini(void)
{
    xg_team_t *team, *next;

    pthread_mutex_lock(&team_lock);
    team      = team_live;
    team_live = NULL;
    pthread_mutex_unlock(&team_lock);
    for (; team != NULL; team = next) {
        next = team->next;
        team_release(team);
    }
    xg_team_world.magic  = 0;
    xg_team_shared.magic = 0;
    xg_team_aset.magic   = 0;
}

int xg_team_lookup(const xg_team_t *team)
{
    const xg_team_t *t;
    int found = 0;

    if (team == NULL) {
        return 0;
    }
    pthread_mutex_lock(&team_lock);
    for (t = team_live; t != NULL; t = t->next) {
        if (t == team) {
            found = (t->magic == XG_TEAM_MAGIC);
            break;
        }
    }
    pthread_mutex_unlock(&team_lock);
    return found;
}

/* ---- split -------------------------------------------------------------- */

/* Lowest @count slots free in @used (the union over the parent), or 0. */
static int team_pick(const uint64_t *used, int count, uint64_t *slots_p)
{
    uint64_t slot;
    int found = 0;

    for (slot = XG_GAS_PREDEFINED_TEAMS;
         (slot < xg_slot_layout.slots) && (found < count); slot++) {
        if (((used[slot / 64] >> (slot % 64)) & 1) == 0) {
            slots_p[found++] = slot;
        }
    }
    return found == count;
}

xg_status_t xg_team_split(xg_team_t *parent, const xg_team_spec_t *specs,
                          int naxes, int valid, uint64_t digest,
                          const char *routine, xg_team_t **teams_p)
{
    size_t words = xg_slot_layout.scratch_words;
    uint64_t slots[2], flags = valid ? 0 : TEAM_FLAG_INVALID, *scratch;
    xg_team_t *teams[2] = {NULL, NULL};
    int claimed[2]      = {0, 0};
    xg_status_t status  = XG_OK;
    xg_coll_t coll;
    int axis, attempts = 0;

    xg_assert((naxes >= 1) && (naxes <= 2));
    xg_coll_team(&coll, parent, routine);
    xg_coll_begin(&coll, XG_COLL_SPLIT, (uint64_t)naxes, 0, -1, digest);
    scratch = xg_slot_scratch(coll.slot);
    for (axis = 0; (axis < naxes) && valid; axis++) {
        if (specs[axis].member) {
            int my_pe = 0;

            if (specs[axis].members != NULL) {
                while (specs[axis].members[my_pe] != xg_gas.me) {
                    my_pe++;
                }
            } else if (specs[axis].stride != 0) {
                my_pe = (xg_gas.me - specs[axis].start) / specs[axis].stride;
            }
            teams[axis] = team_alloc(&specs[axis], my_pe);
            if (teams[axis] == NULL) {
                flags |= TEAM_FLAG_NOMEM;
            }
        }
    }
    for (;;) {
        /* 1: the union of the used slots and of the flags */
        pthread_mutex_lock(&team_lock);
        memset(scratch, 0, words * sizeof(*scratch));
        memcpy(scratch, team_used, team_used_words * sizeof(*team_used));
        pthread_mutex_unlock(&team_lock);
        scratch[words - 1] = flags;
        xg_coll_reduce_scratch(&coll, scratch, words, XG_OP_BOR);
        if (scratch[words - 1] & TEAM_FLAG_INVALID) {
            status = XG_ERR_INVALID_PARAM;
        } else if (scratch[words - 1] & TEAM_FLAG_NOMEM) {
            status = XG_ERR_NO_MEMORY;
        } else if (!team_pick(scratch, naxes, slots)) {
            status = XG_ERR_NO_RESOURCE;
        }
        if (status != XG_OK) {
            break;
        }
        /* 3: claim; a concurrent split of another thread may have won */
        flags = 0;
        pthread_mutex_lock(&team_lock);
        for (axis = 0; axis < naxes; axis++) {
            claimed[axis] = 0;
            if (teams[axis] == NULL) {
                continue;
            }
            if (team_slot_used(slots[axis])) {
                flags |= TEAM_FLAG_CONFLICT;
            } else {
                team_slot_set(slots[axis], 1);
                claimed[axis] = 1;
            }
        }
        pthread_mutex_unlock(&team_lock);
        for (axis = 0; axis < naxes; axis++) {
            if (claimed[axis]) {
                team_slot_clear(slots[axis]);
            }
        }
        memset(scratch, 0, words * sizeof(*scratch));
        scratch[words - 1] = flags;
        xg_coll_reduce_scratch(&coll, scratch, words, XG_OP_BOR);
        if ((scratch[words - 1] & TEAM_FLAG_CONFLICT) == 0) {
            break;
        }
        pthread_mutex_lock(&team_lock);
        for (axis = 0; axis < naxes; axis++) {
            if (claimed[axis]) {
                team_slot_set(slots[axis], 0);
            }
        }
        pthread_mutex_unlock(&team_lock);
        flags = 0;
        /* two splits that each won the slot on some PEs and lost it on
         * others would meet again at once: let timing differ a little */
        attempts++;
        for (axis = 0; axis < 1 + (xg_gas.me + attempts) % 8; axis++) {
            sched_yield();
        }
    }

    for (axis = 0; axis < naxes; axis++) {
        if (teams[axis] == NULL) {
            teams_p[axis] = NULL;
        } else if (status != XG_OK) {
            team_release(teams[axis]);
            teams_p[axis] = NULL;
        } else {
            teams[axis]->slot  = slots[axis];
            teams[axis]->magic = XG_TEAM_MAGIC;
            pthread_mutex_lock(&team_lock);
            teams[axis]->next = team_live;
            team_live         = teams[axis];
            pthread_mutex_unlock(&team_lock);
            teams_p[axis] = teams[axis];
        }
    }
    if ((status == XG_ERR_NO_RESOURCE) && (parent->my_pe == 0)) {
        xg_error("team",
                 "%s: no team slot is free on every PE of the parent "
                 "team: %ld teams may exist at once besides the predefined "
                 "ones; destroy teams no longer needed or set XGAS_TEAMS_MAX "
                 "higher (e.g. XGAS_TEAMS_MAX=%ld); no team was created",
                 routine,
                 (long)(xg_slot_layout.slots - XG_GAS_PREDEFINED_TEAMS),
                 2 * (long)(xg_slot_layout.slots - XG_GAS_PREDEFINED_TEAMS));
    } else if ((status == XG_ERR_NO_MEMORY) && (parent->my_pe == 0)) {
        xg_error("team",
                 "%s: a PE of the parent team ran out of memory for "
                 "a team object; no team was created",
                 routine);
    }
    return status;
}

/* ---- lists -------------------------------------------------------------- */

int xg_team_list_rank_of(const xg_team_t *team, int world_pe)
{
    int i;

    for (i = 0; i < team->size; i++) {
        if (team->members[i] == world_pe) {
            return i;
        }
    }
    return -1;
}

xg_status_t xg_team_create_list(xg_team_t *parent, const int *pes, int count,
                                const char *routine, xg_team_t **team_p)
{
    xg_team_spec_t spec = {0};
    uint64_t digest     = (uint64_t)count;
    int i, j, valid = (count >= 1);

    /* members of the parent, each once; the digest compares the lists */
    for (i = 0; valid && (i < count); i++) {
        valid = (xg_team_rank_of(parent, pes[i]) >= 0);
        for (j = 0; valid && (j < i); j++) {
            valid = (pes[j] != pes[i]);
        }
        digest = (digest * 0x100000001b3ULL) ^ (uint64_t)(uint32_t)pes[i];
        spec.member |= valid && (pes[i] == xg_gas.me);
    }
    spec.members = pes;
    spec.size    = count;
    return xg_team_split(parent, &spec, 1, valid, digest, routine, team_p);
}

/* ---- destroy ------------------------------------------------------------ */

void xg_team_destroy(xg_team_t *team, const char *routine)
{
    xg_team_t **link;
    xg_coll_t coll;

    /* after this barrier no member touches another's slot again, so the
     * slot is quiet when a later split hands it out */
    xg_coll_team(&coll, team, routine);
    xg_coll_begin(&coll, XG_COLL_DESTROY, 0, 0, -1, 0);
    xg_coll_phase(&coll);
    pthread_mutex_lock(&team_lock);
    team_slot_set(team->slot, 0);
    for (link = &team_live; *link != NULL; link = &(*link)->next) {
        if (*link == team) {
            *link = team->next;
            break;
        }
    }
    pthread_mutex_unlock(&team_lock);
    team_release(team);
}
