/*
 * The barrier over all PEs (the bindings' barrier_all and sync_all, the
 * closing barrier of some heap routines, start-up): a barrier of the
 * collective engine on the world team, through the world team's slot of
 * every PE's internal area.  The algorithm -- dissemination, or the
 * counter barrier when PEs outnumber CPUs, and the node barrier when the
 * job spans nodes -- is chosen once at start-up (xg_coll.h).  One thread
 * per PE may be in it at a time, as OpenSHMEM requires of collectives on
 * one team.
 */
#include "gas/coll/xg_coll.h"
#include "gas/coll/xg_team.h"
#include "gas/xg_gas.h"

void xg_gas_barrier_named(const char *routine)
{
    xg_coll_t coll;

    xg_coll_team(&coll, &xg_team_world, routine);
    xg_coll_barrier(&coll);
}

void xg_gas_barrier(void)
{
    xg_gas_barrier_named("the barrier over all PEs");
}
