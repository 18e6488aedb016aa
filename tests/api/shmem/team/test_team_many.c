/*
 * Team slots: run with XGAS_TEAMS_MAX=4.  Four teams can exist at once
 * besides the predefined ones; the fifth split must fail on every PE with
 * SHMEM_TEAM_INVALID (PE 0 prints what to set), a 2-D split needs two free
 * slots (all rows share one, all columns another), destroying teams frees
 * their slots, and 200 create/use/destroy cycles reuse them.  Teams of the
 * even and the odd PEs are disjoint, yet both use slots of this PE's
 * parent agreement, so both count.
 */
#include <shmem.h>
#include <stdlib.h>

#include "xg_test.h"

#define LIMIT 4

static int me, npes;
static long value, total;

static shmem_team_t make_world_copy(void)
{
    shmem_team_t t;

    if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t) !=
        0) {
        XG_CHECK(t == SHMEM_TEAM_INVALID, "failed split gave a team");
        return SHMEM_TEAM_INVALID;
    }
    XG_CHECK(t != SHMEM_TEAM_INVALID, "split returned 0 without a team");
    return t;
}

/* The team works: a sum over it is its size. */
static void use(shmem_team_t t)
{
    value = 1;
    XG_CHECK(shmem_long_sum_reduce(t, &total, &value, 1) == 0, "reduce");
    XG_CHECK(total == shmem_team_n_pes(t), "sum %ld over %d PEs", total,
             shmem_team_n_pes(t));
}

int main(void)
{
    shmem_team_t teams[LIMIT + 1], x, y;
    int i, cycle;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;

    for (i = 0; i < LIMIT; i++) {
        teams[i] = make_world_copy();
        XG_CHECK(teams[i] != SHMEM_TEAM_INVALID, "team %d of %d failed", i,
                 LIMIT);
        use(teams[i]);
    }
    teams[LIMIT] = make_world_copy();
    XG_CHECK(teams[LIMIT] == SHMEM_TEAM_INVALID,
             "team %d was created with XGAS_TEAMS_MAX=%d", LIMIT + 1, LIMIT);
    XG_CHECK(
        shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &x, NULL, 0, &y) != 0,
        "split_2d succeeded without free slots");
    XG_CHECK((x == SHMEM_TEAM_INVALID) && (y == SHMEM_TEAM_INVALID),
             "failed split_2d gave teams");

    /* two slots free: a 2-D split fits, whatever the number of rows */
    shmem_team_destroy(teams[0]);
    shmem_team_destroy(teams[1]);
    XG_CHECK(
        shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &x, NULL, 0, &y) == 0,
        "split_2d with two free slots failed");
    use(x);
    use(y);
    XG_CHECK(make_world_copy() == SHMEM_TEAM_INVALID,
             "a team beyond the limit after split_2d");
    shmem_team_destroy(x);
    shmem_team_destroy(y);
    shmem_team_destroy(teams[2]);
    shmem_team_destroy(teams[3]);

    /* evens and odds: disjoint teams, one split each */
    for (cycle = 0; cycle < 200; cycle++) {
        shmem_team_t even, odd = SHMEM_TEAM_INVALID;

        XG_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2,
                                          (npes + 1) / 2, NULL, 0, &even) == 0,
                 "cycle %d: even split", cycle);
        if (npes > 1) {
            XG_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2,
                                              NULL, 0, &odd) == 0,
                     "cycle %d: odd split", cycle);
        }
        if (even != SHMEM_TEAM_INVALID) {
            use(even);
        }
        if (odd != SHMEM_TEAM_INVALID) {
            use(odd);
        }
        shmem_team_destroy(even);
        shmem_team_destroy(odd);
    }
    use(SHMEM_TEAM_WORLD);

    shmem_finalize();
    return XG_TEST_PASS;
}
