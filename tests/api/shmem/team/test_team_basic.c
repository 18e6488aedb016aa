/*
 * Team management: the predefined teams, SHMEM_TEAM_INVALID everywhere the
 * specification defines a result for it, strided splits (even PEs, odd PEs
 * in reverse order, a single PE with stride 0, a split of a split), the
 * queries and translations on each, shmem_team_ptr, configurations, and
 * invalid triplets (every parent PE must get a nonzero return and
 * SHMEM_TEAM_INVALID).  After each creation a team sync and an atomic
 * count over the team check that the members really synchronize.
 */
#include <shmem.h>
#include <stdint.h>
#include <string.h>

#include "xg_test.h"

static int me, npes;
static long counter[2];
static long probe = 1234;

/* World PE of member i of the team (start, stride) given in world PEs. */
static int member(int start, int stride, int i)
{
    return start + i * stride;
}

/* Checks a team that should hold the world PEs start + i * stride. */
static void check_team(const char *what, shmem_team_t team, int start,
                       int stride, int size)
{
    int i, mine = -1, round;

    for (i = 0; i < size; i++) {
        if (member(start, stride, i) == me) {
            mine = i;
        }
    }
    if (mine < 0) {
        XG_CHECK(team == SHMEM_TEAM_INVALID,
                 "%s: PE %d is not a member but got a team", what, me);
        return;
    }
    XG_CHECK(team != SHMEM_TEAM_INVALID, "%s: member %d got no team", what, me);
    XG_CHECK(shmem_team_my_pe(team) == mine, "%s: my_pe %d, expected %d", what,
             shmem_team_my_pe(team), mine);
    XG_CHECK(shmem_team_n_pes(team) == size, "%s: n_pes %d, expected %d", what,
             shmem_team_n_pes(team), size);
    for (i = -1; i <= size; i++) {
        int world = shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD);
        int want  = ((i < 0) || (i >= size)) ? -1 : member(start, stride, i);

        XG_CHECK(world == want, "%s: translate %d to world gave %d, not %d",
                 what, i, world, want);
        if (want >= 0) {
            XG_CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, want, team) == i,
                     "%s: world PE %d is not member %d", what, want, i);
            XG_CHECK(shmem_team_ptr(team, &probe, i) == shmem_ptr(&probe, want),
                     "%s: team_ptr of member %d differs from shmem_ptr", what,
                     i);
        }
    }
    XG_CHECK(shmem_team_ptr(team, &probe, size) == NULL,
             "%s: team_ptr past the team is not NULL", what);
    XG_CHECK(shmem_team_ptr(team, &probe, -1) == NULL,
             "%s: team_ptr of PE -1 is not NULL", what);
    /* members synchronize: each increments a counter on every member,
     * syncs, and must then see all increments (two counters alternate so
     * no second sync is needed) */
    for (round = 0; round < 20; round++) {
        long *c = &counter[round % 2];

        for (i = 0; i < size; i++) {
            shmem_long_atomic_inc(c, member(start, stride, i));
        }
        shmem_quiet();
        XG_CHECK(shmem_team_sync(team) == 0, "%s: team_sync failed", what);
        XG_CHECK(shmem_long_atomic_fetch(c, me) == (round / 2 + 1) * size,
                 "%s round %d: counter %ld, expected %d", what, round,
                 shmem_long_atomic_fetch(c, me), (round / 2 + 1) * size);
    }
    XG_CHECK(shmem_team_sync(team) == 0, "%s: final team_sync", what);
    counter[0] = counter[1] = 0;
    shmem_team_sync(team);
}

static void test_invalid(void)
{
    shmem_team_config_t config = {.num_contexts = 7};
    shmem_team_t t = SHMEM_TEAM_WORLD, x = SHMEM_TEAM_WORLD,
                 y = SHMEM_TEAM_WORLD;

    XG_CHECK(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1, "my_pe(INVALID)");
    XG_CHECK(shmem_team_n_pes(SHMEM_TEAM_INVALID) == -1, "n_pes(INVALID)");
    XG_CHECK(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD) ==
                 -1,
             "translate from INVALID");
    XG_CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_INVALID) ==
                 -1,
             "translate to INVALID");
    XG_CHECK(shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS,
                                   &config) != 0,
             "get_config(INVALID) returned 0");
    XG_CHECK(config.num_contexts == 7, "get_config(INVALID) wrote config");
    XG_CHECK(shmem_team_ptr(SHMEM_TEAM_INVALID, &probe, 0) == NULL,
             "team_ptr(INVALID)");
    shmem_team_destroy(SHMEM_TEAM_INVALID); /* no operation */
    XG_CHECK(
        shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &t) != 0,
        "split of INVALID returned 0");
    XG_CHECK(t == SHMEM_TEAM_INVALID, "split of INVALID gave a team");
    XG_CHECK(shmem_team_split_2d(SHMEM_TEAM_INVALID, 1, NULL, 0, &x, NULL, 0,
                                 &y) != 0,
             "split_2d of INVALID returned 0");
    XG_CHECK((x == SHMEM_TEAM_INVALID) && (y == SHMEM_TEAM_INVALID),
             "split_2d of INVALID gave teams");
}

static void test_predefined(void)
{
    shmem_team_config_t config = {.num_contexts = -5};

    check_team("world", SHMEM_TEAM_WORLD, 0, 1, npes);
    /* the PEs of this node: the world on one node; on several, the node's
     * PEs, which xgasrun's virtual nodes (blocks) and mpirun (by slot)
     * give in consecutive ranks */
    check_team("shared", SHMEM_TEAM_SHARED,
               shmem_team_translate_pe(SHMEM_TEAM_SHARED, 0, SHMEM_TEAM_WORLD),
               1, shmem_team_n_pes(SHMEM_TEAM_SHARED));
    XG_CHECK(shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS,
                                   &config) == 0,
             "get_config(WORLD)");
    XG_CHECK(config.num_contexts == 0, "world num_contexts %d",
             config.num_contexts);
    /* mask 0: nothing to do, config may be NULL */
    XG_CHECK(shmem_team_get_config(SHMEM_TEAM_WORLD, 0, NULL) == 0,
             "get_config with mask 0");
}

/* An invalid triplet: nonzero and SHMEM_TEAM_INVALID on every PE. */
static void expect_invalid(const char *what, shmem_team_t parent, int start,
                           int stride, int size)
{
    shmem_team_t t = SHMEM_TEAM_WORLD;

    XG_CHECK(
        shmem_team_split_strided(parent, start, stride, size, NULL, 0, &t) != 0,
        "%s: split (%d, %d, %d) returned 0", what, start, stride, size);
    XG_CHECK(t == SHMEM_TEAM_INVALID, "%s: split (%d, %d, %d) gave a team",
             what, start, stride, size);
}

static void test_splits(void)
{
    shmem_team_config_t config = {.num_contexts = 3}, got = {0};
    shmem_team_t even, odd_rev, single, sub, all;
    int top_odd = ((npes - 1) % 2 == 1) ? npes - 1 : npes - 2;

    XG_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2,
                                      &config, SHMEM_TEAM_NUM_CONTEXTS,
                                      &even) == 0,
             "even split failed");
    check_team("even", even, 0, 2, (npes + 1) / 2);
    if (even != SHMEM_TEAM_INVALID) {
        XG_CHECK(shmem_team_get_config(even, SHMEM_TEAM_NUM_CONTEXTS, &got) ==
                     0,
                 "get_config(even)");
        XG_CHECK(got.num_contexts == 3, "even num_contexts %d",
                 got.num_contexts);
    }

    /* odd PEs, highest first (negative stride) */
    if (npes >= 2) {
        XG_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, top_odd, -2,
                                          npes / 2, NULL, 0, &odd_rev) == 0,
                 "odd reverse split failed");
        check_team("odd reverse", odd_rev, top_odd, -2, npes / 2);
    } else {
        odd_rev = SHMEM_TEAM_INVALID;
    }

    /* one PE with stride 0 */
    XG_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, 0, 1, NULL, 0,
                                      &single) == 0,
             "single split failed");
    check_team("single", single, npes - 1, 0, 1);

    /* the whole world in reverse order, then its first half (in the
     * parent's numbering: world PEs npes-1 down) */
    XG_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes,
                                      NULL, 0, &all) == 0,
             "reverse split failed");
    check_team("reverse", all, npes - 1, -1, npes);
    XG_CHECK(
        shmem_team_split_strided(all, 0, 1, (npes + 1) / 2, NULL, 0, &sub) == 0,
        "split of reverse failed");
    check_team("reverse first half", sub, npes - 1, -1, (npes + 1) / 2);
    if (sub != SHMEM_TEAM_INVALID) {
        /* translate between two user teams */
        int i;

        for (i = 0; i < shmem_team_n_pes(sub); i++) {
            XG_CHECK(shmem_team_translate_pe(sub, i, all) == i,
                     "sub member %d is not member %d of reverse", i, i);
        }
    }
    if (even != SHMEM_TEAM_INVALID) {
        /* the even team's members, numbered in the reverse team */
        int i;

        for (i = 0; i < shmem_team_n_pes(even); i++) {
            XG_CHECK(shmem_team_translate_pe(even, i, all) == npes - 1 - 2 * i,
                     "even member %d translated to reverse %d", i,
                     shmem_team_translate_pe(even, i, all));
            if (odd_rev != SHMEM_TEAM_INVALID) {
                XG_CHECK(shmem_team_translate_pe(even, i, odd_rev) == -1,
                         "even member %d found in the odd team", i);
            }
        }
    }

    /* invalid triplets, on every PE of the parent */
    expect_invalid("size 0", SHMEM_TEAM_WORLD, 0, 1, 0);
    expect_invalid("negative size", SHMEM_TEAM_WORLD, 0, 1, -3);
    expect_invalid("stride 0, size 2", SHMEM_TEAM_WORLD, 0, 0, 2);
    expect_invalid("past the end", SHMEM_TEAM_WORLD, 0, 1, npes + 1);
    expect_invalid("start out of range", SHMEM_TEAM_WORLD, npes, 1, 1);
    expect_invalid("negative start", SHMEM_TEAM_WORLD, -1, 1, 1);
    expect_invalid("wrap-around", SHMEM_TEAM_WORLD, npes - 1, 1, 2);
    expect_invalid("reverse below 0", SHMEM_TEAM_WORLD, 0, -1, 2);
    expect_invalid("parent-relative", all, 1, 1, npes);

    /* the teams still work after the failed splits */
    if (even != SHMEM_TEAM_INVALID) {
        XG_CHECK(shmem_team_sync(even) == 0, "even sync after failures");
    }
    shmem_team_destroy(sub);
    shmem_team_destroy(all);
    shmem_team_destroy(single);
    shmem_team_destroy(odd_rev);
    shmem_team_destroy(even);
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;

    test_invalid();
    test_predefined();
    test_splits();
    /* a second time: the slots of the destroyed teams are reused */
    test_splits();

    shmem_finalize();
    return XG_TEST_PASS;
}
