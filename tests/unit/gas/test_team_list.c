/*
 * Teams in list form (gas/coll/xg_team.h): a team whose members are not
 * strided in the world -- world PE 0, the odd PEs from the highest down,
 * then the even PEs from 4 up ({0, 3, 1} at 4 PEs) -- created by
 * xg_team_create_list over the world team.  Its members check the
 * translation both ways, then run barriers, broadcasts from team PE 1 and
 * sum reductions over it, round after round; a list naming a PE twice is
 * refused on every PE.  Run on 1 to 8 PEs.
 */
#include "gas/coll/xg_coll.h"
#include "gas/coll/xg_team.h"
#include "xg_test.h"
#include "xgas.h"

#define ROUNDS 20
#define NELEMS 16

/* The list described above; returns its length. */
static int make_list(int npes, int *list)
{
    int n = 0, pe;

    list[n++] = 0;
    for (pe = npes - 1; pe >= 1; pe--) {
        if (pe % 2 == 1) {
            list[n++] = pe;
        }
    }
    for (pe = 4; pe < npes; pe += 2) {
        list[n++] = pe;
    }
    return n;
}

static void check_translation(const xg_team_t *team, const int *list, int count,
                              int me)
{
    int i;

    XG_CHECK(team->size == count, "size %d, want %d", team->size, count);
    XG_CHECK(list[team->my_pe] == me, "my_pe %d", team->my_pe);
    for (i = 0; i < count; i++) {
        XG_CHECK(xg_team_world_pe(team, i) == list[i],
                 "team PE %d is world PE %d, want %d", i,
                 xg_team_world_pe(team, i), list[i]);
        XG_CHECK(xg_team_rank_of(team, list[i]) == i,
                 "world PE %d is team PE %d, want %d", list[i],
                 xg_team_rank_of(team, list[i]), i);
    }
    if (xg_size() > 2) {
        XG_CHECK(xg_team_rank_of(team, 2) == -1, "PE 2 is a member");
    }
}

static void run_collectives(xg_team_t *team, const int *list, int count,
                            long *src, long *dst, int me)
{
    int root = (count > 1) ? 1 : 0, round, i, j;
    xg_coll_t coll;
    long want;

    for (round = 0; round < ROUNDS; round++) {
        xg_coll_team(&coll, team, "test_team_list");
        xg_coll_barrier(&coll);

        for (i = 0; i < NELEMS; i++) {
            src[i] = (team->my_pe == root) ? round * 1000 + i : -1;
            dst[i] = -2;
        }
        xg_coll_broadcast(&coll, dst, src, NELEMS * sizeof(long), root, 1);
        for (i = 0; i < NELEMS; i++) {
            XG_CHECK(dst[i] == round * 1000 + i,
                     "round %d: broadcast dst[%d] = %ld", round, i, dst[i]);
        }

        for (i = 0; i < NELEMS; i++) {
            src[i] = (long)me * 100 + i + round;
        }
        xg_coll_reduce(&coll, dst, src, NELEMS, XG_OP_SUM, XG_TYPE_I64);
        for (i = 0; i < NELEMS; i++) {
            want = 0;
            for (j = 0; j < count; j++) {
                want += (long)list[j] * 100 + i + round;
            }
            XG_CHECK(dst[i] == want, "round %d: sum dst[%d] = %ld, want %ld",
                     round, i, dst[i], want);
        }
    }
}

int main(void)
{
    int list[64], bad[2] = {0, 0}, count, me;
    xg_team_t *team = NULL;
    long *src, *dst;

    XG_CHECK(xg_init() == XG_OK, "xg_init");
    me         = xg_rank();
    xg_test_pe = me;
    XG_CHECK(xg_size() <= 64, "at most 64 PEs");
    count = make_list(xg_size(), list);
    XG_CHECK(xg_malloc(NELEMS * sizeof(long), (void **)&src) == XG_OK, "src");
    XG_CHECK(xg_malloc(NELEMS * sizeof(long), (void **)&dst) == XG_OK, "dst");

    XG_CHECK(xg_team_create_list(&xg_team_world, bad, 2, "test_team_list",
                                 &team) == XG_ERR_INVALID_PARAM,
             "a list naming PE 0 twice was accepted");
    XG_CHECK(team == NULL, "a team from a refused list");

    XG_CHECK(xg_team_create_list(&xg_team_world, list, count, "test_team_list",
                                 &team) == XG_OK,
             "xg_team_create_list");
    XG_CHECK((team != NULL) == (me != 2 || xg_size() <= 2),
             "this PE is%s a member", (team != NULL) ? "" : " not");
    if (team != NULL) {
        check_translation(team, list, count, me);
        run_collectives(team, list, count, src, dst, me);
        xg_team_destroy(team, "test_team_list");
    }
    xg_barrier();
    XG_CHECK(xg_free(dst) == XG_OK, "free dst");
    XG_CHECK(xg_free(src) == XG_OK, "free src");
    XG_CHECK(xg_fini() == XG_OK, "xg_fini");
    return XG_TEST_PASS;
}
