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
    const char *name;
    shmem_team_t team; /* SHMEM_TEAM_INVALID on non-members */
} coll_test_team_t;

static coll_test_team_t coll_teams[COLL_TEST_TEAMS];

static void coll_test_teams_create(void)
{
    int npes    = shmem_n_pes();
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

/* Start of a collective test: the library, two symmetric buffers of
 * @bytes each, and the teams of the list. */
static inline void coll_test_start(size_t bytes, unsigned char **src,
                                   unsigned char **dst)
{
    shmem_init();
    xg_test_pe = shmem_my_pe();
    *src       = shmem_malloc(bytes);
    *dst       = shmem_malloc(bytes);
    XG_CHECK((*src != NULL) && (*dst != NULL), "shmem_malloc");
    coll_test_teams_create();
}

/* End of a collective test: the active-set routines left @psync as the
 * specification requires (every word SHMEM_SYNC_VALUE), then everything
 * coll_test_start made goes away. */
static inline int coll_test_finish(const long *psync, int words,
                                   unsigned char *src, unsigned char *dst)
{
    int i;

    for (i = 0; i < words; i++) {
        XG_CHECK(psync[i] == SHMEM_SYNC_VALUE, "pSync[%d] = %ld", i, psync[i]);
    }
    coll_test_teams_destroy();
    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return XG_TEST_PASS;
}

/* World PE of member @rank of @team. */
static inline int coll_test_world(shmem_team_t team, int rank)
{
    return shmem_team_translate_pe(team, rank, SHMEM_TEAM_WORLD);
}

#endif
