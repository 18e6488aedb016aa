/*
 * Shared set-up of the collective tests: the teams every test runs its
 * collectives on, so each collective is checked on the world, on
 * SHMEM_TEAM_SHARED, on the even PEs (a stride), on the world in reverse
 * order, on the odd PEs highest first (negative stride, absent with 1 PE)
 * and on the rows and columns of a 3-wide grid (split_2d: the last row is
 * short unless 3 divides the PE count).  A PE runs a team's collectives
 * only if it is a member; every PE walks the list in the same order.
 */
#ifndef XG_COLL_TEST_H
#define XG_COLL_TEST_H

#include <shmem.h>

#include "xg_test.h"

#define COLL_TEST_TEAMS 7

typedef struct coll_test_team {
    const char  *name;
    shmem_team_t team;  /* SHMEM_TEAM_INVALID on non-members */
} coll_test_team_t;

static coll_test_team_t coll_teams[COLL_TEST_TEAMS];

static void coll_test_teams_create(void)
{
    int npes = shmem_n_pes();
    int top_odd = ((npes - 1) % 2 == 1) ? npes - 1 : npes - 2;

    coll_teams[0].name = "world";
    coll_teams[0].team = SHMEM_TEAM_WORLD;
    coll_teams[1].name = "shared";
    coll_teams[1].team = SHMEM_TEAM_SHARED;
    coll_teams[2].name = "even";
    XG_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2,
                                      NULL, 0, &coll_teams[2].team) == 0,
             "even split");
    coll_teams[3].name = "reverse";
    XG_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes,
                                      NULL, 0, &coll_teams[3].team) == 0,
             "reverse split");
    coll_teams[4].name = "odd-reverse";
    coll_teams[4].team = SHMEM_TEAM_INVALID;
    if (npes > 1) {
        XG_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, top_odd, -2,
                                          npes / 2, NULL, 0,
                                          &coll_teams[4].team) == 0,
                 "odd reverse split");
    }
    coll_teams[5].name = "row";
    coll_teams[6].name = "column";
    XG_CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 3, NULL, 0,
                                 &coll_teams[5].team, NULL, 0,
                                 &coll_teams[6].team) == 0,
             "2-D split");
}

static void coll_test_teams_destroy(void)
{
    int i;

    for (i = 2; i < COLL_TEST_TEAMS; i++) {
        shmem_team_destroy(coll_teams[i].team);
    }
}

/* World PE of member @rank of @team. */
static inline int coll_test_world(shmem_team_t team, int rank)
{
    return shmem_team_translate_pe(team, rank, SHMEM_TEAM_WORLD);
}

#endif
