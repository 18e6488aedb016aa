/*
 * Contexts on sub-teams: the PE numbers of a team context are relative to
 * its team.  The even PEs form a team in reverse order (stride -2), so
 * team PE t is world PE 2 * (n - 1 - t); each member puts to and atomically
 * updates its team neighbour through a context of that team, and the data
 * must land on the world PE the team numbering names.  shmem_ctx_get_team
 * returns the team, and shmem_team_ptr agrees with the translation.  A
 * shareable context of the team is left for shmem_team_destroy to destroy
 * and one of the world team for shmem_finalize (LeakSanitizer, in CI,
 * reports them if they are not).
 */
#include <shmem.h>

#include "xg_test.h"

static long inbox;
static long counter;

int main(void)
{
    shmem_team_t evens;
    shmem_ctx_t ctx, shared, world_shared;
    shmem_team_t got;
    int me, npes, n, tme, tright, world_right;

    shmem_init();
    XG_CHECK(shmem_ctx_create(SHMEM_CTX_SERIALIZED, &world_shared) == 0,
             "shareable world context");
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    n          = (npes + 1) / 2;
    XG_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 2 * (n - 1), -2, n,
                                      NULL, 0, &evens) == 0,
             "split the even PEs in reverse order");
    if (me % 2 == 0) {
        tme = shmem_team_my_pe(evens);
        XG_CHECK(tme == n - 1 - me / 2, "team PE %d", tme);
        XG_CHECK(shmem_team_create_ctx(evens, SHMEM_CTX_PRIVATE, &ctx) == 0,
                 "shmem_team_create_ctx");
        XG_CHECK(shmem_ctx_get_team(ctx, &got) == 0 && got == evens,
                 "shmem_ctx_get_team");
        tright      = (tme + 1) % n;
        world_right = 2 * (n - 1 - tright);
        XG_CHECK(shmem_team_translate_pe(evens, tright, SHMEM_TEAM_WORLD) ==
                     world_right,
                 "translate");
        XG_CHECK(shmem_team_ptr(evens, &inbox, tright) ==
                     shmem_ptr(&inbox, world_right),
                 "shmem_team_ptr");
        XG_CHECK(shmem_team_create_ctx(evens, 0, &shared) == 0,
                 "shareable team context");
        shmem_ctx_long_p(ctx, &inbox, 1000 + me, tright);
        shmem_ctx_long_atomic_add(shared, &counter, me + 1, tright);
        shmem_ctx_quiet(ctx);
        shmem_ctx_quiet(shared);
        shmem_team_sync(evens);
        /* the left team neighbour of tme wrote here */
        XG_CHECK(inbox == 1000 + 2 * (n - 1 - (tme + n - 1) % n), "inbox %ld",
                 inbox);
        XG_CHECK(counter == 2 * (n - 1 - (tme + n - 1) % n) + 1, "counter %ld",
                 counter);
        shmem_ctx_destroy(ctx);
        shmem_team_destroy(evens);
    } else {
        XG_CHECK(evens == SHMEM_TEAM_INVALID, "odd PE outside the team");
    }
    shmem_ctx_long_p(world_shared, &inbox, 0, me);
    shmem_finalize();
    return XG_TEST_PASS;
}
