/*
 * shmem_team_split_2d: for several xrange values -- 1, 2, 3 (not dividing
 * most PE counts, so the last row is short), npes and npes + 1 -- and three
 * parents (world, world in reverse order, the even PEs), every PE checks
 * its coordinates, the sizes of its row (x team) and column (y team), the
 * translation of every member back to the parent, and runs a sum reduction
 * and a broadcast on both teams with exact results.  xrange 0 and -1 must
 * fail on every PE.
 */
#include <shmem.h>
#include <string.h>

#include "xg_test.h"

static int me, npes;
static int src[2], dst[2], bsrc[4], bdst[4];

/* Sum of parent ranks i * step + offset for i < count. */
static int ranks_sum(int count, int step, int offset)
{
    return step * count * (count - 1) / 2 + offset * count;
}

static void check_grid(const char *what, shmem_team_t parent, int xrange)
{
    shmem_team_t xt, yt;
    int p, n, x, y, xsize, ysize, i, root;

    if (parent == SHMEM_TEAM_INVALID) {
        return;
    }
    p     = shmem_team_my_pe(parent);
    n     = shmem_team_n_pes(parent);
    x     = p % xrange;
    y     = p / xrange;
    xsize = (n - y * xrange < xrange) ? n - y * xrange : xrange;
    ysize = (n - x + xrange - 1) / xrange;

    XG_CHECK(shmem_team_split_2d(parent, xrange, NULL, 0, &xt, NULL, 0, &yt) ==
                 0,
             "%s xrange %d: split_2d failed", what, xrange);
    XG_CHECK((xt != SHMEM_TEAM_INVALID) && (yt != SHMEM_TEAM_INVALID),
             "%s xrange %d: missing team", what, xrange);
    XG_CHECK(shmem_team_my_pe(xt) == x, "%s xrange %d: x %d, expected %d", what,
             xrange, shmem_team_my_pe(xt), x);
    XG_CHECK(shmem_team_my_pe(yt) == y, "%s xrange %d: y %d, expected %d", what,
             xrange, shmem_team_my_pe(yt), y);
    XG_CHECK(shmem_team_n_pes(xt) == xsize,
             "%s xrange %d: row of %d PEs, expected %d", what, xrange,
             shmem_team_n_pes(xt), xsize);
    XG_CHECK(shmem_team_n_pes(yt) == ysize,
             "%s xrange %d: column of %d PEs, expected %d", what, xrange,
             shmem_team_n_pes(yt), ysize);
    for (i = 0; i < xsize; i++) {
        XG_CHECK(shmem_team_translate_pe(xt, i, parent) == y * xrange + i,
                 "%s xrange %d: row member %d is parent PE %d", what, xrange, i,
                 shmem_team_translate_pe(xt, i, parent));
    }
    for (i = 0; i < ysize; i++) {
        XG_CHECK(shmem_team_translate_pe(yt, i, parent) == i * xrange + x,
                 "%s xrange %d: column member %d is parent PE %d", what, xrange,
                 i, shmem_team_translate_pe(yt, i, parent));
    }

    /* reductions: the sum of the members' parent ranks */
    src[0] = p;
    src[1] = 1;
    XG_CHECK(shmem_int_sum_reduce(xt, dst, src, 2) == 0, "row reduce");
    XG_CHECK((dst[0] == ranks_sum(xsize, 1, y * xrange)) && (dst[1] == xsize),
             "%s xrange %d: row sum %d/%d, expected %d/%d", what, xrange,
             dst[0], dst[1], ranks_sum(xsize, 1, y * xrange), xsize);
    XG_CHECK(shmem_int_sum_reduce(yt, dst, src, 2) == 0, "column reduce");
    XG_CHECK((dst[0] == ranks_sum(ysize, xrange, x)) && (dst[1] == ysize),
             "%s xrange %d: column sum %d/%d, expected %d/%d", what, xrange,
             dst[0], dst[1], ranks_sum(ysize, xrange, x), ysize);

    /* broadcasts from the last member of each team */
    for (i = 0; i < 4; i++) {
        bsrc[i] = p * 10 + i;
        bdst[i] = -1;
    }
    root = xsize - 1;
    XG_CHECK(shmem_int_broadcast(xt, bdst, bsrc, 4, root) == 0, "row bcast");
    for (i = 0; i < 4; i++) {
        XG_CHECK(bdst[i] == (y * xrange + root) * 10 + i,
                 "%s xrange %d: row broadcast [%d] = %d", what, xrange, i,
                 bdst[i]);
    }
    root = ysize - 1;
    XG_CHECK(shmem_int_broadcast(yt, bdst, bsrc, 4, root) == 0, "col bcast");
    for (i = 0; i < 4; i++) {
        XG_CHECK(bdst[i] == (root * xrange + x) * 10 + i,
                 "%s xrange %d: column broadcast [%d] = %d", what, xrange, i,
                 bdst[i]);
    }
    shmem_team_destroy(xt);
    shmem_team_destroy(yt);
}

static void check_parent(const char *what, shmem_team_t parent)
{
    shmem_team_t x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
    int n, xr[5], i;

    if (parent == SHMEM_TEAM_INVALID) {
        return;
    }
    n     = shmem_team_n_pes(parent);
    xr[0] = 1;
    xr[1] = 2;
    xr[2] = 3;
    xr[3] = n;
    xr[4] = n + 1;
    for (i = 0; i < 5; i++) {
        check_grid(what, parent, xr[i]);
    }
    XG_CHECK(shmem_team_split_2d(parent, 0, NULL, 0, &x, NULL, 0, &y) != 0,
             "%s: xrange 0 accepted", what);
    XG_CHECK((x == SHMEM_TEAM_INVALID) && (y == SHMEM_TEAM_INVALID),
             "%s: xrange 0 gave teams", what);
    XG_CHECK(shmem_team_split_2d(parent, -1, NULL, 0, &x, NULL, 0, &y) != 0,
             "%s: xrange -1 accepted", what);
}

int main(void)
{
    shmem_team_t rev, even;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;

    check_parent("world", SHMEM_TEAM_WORLD);
    XG_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes,
                                      NULL, 0, &rev) == 0,
             "reverse split");
    check_parent("reverse", rev);
    XG_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2,
                                      NULL, 0, &even) == 0,
             "even split");
    check_parent("even", even);
    shmem_team_destroy(even);
    shmem_team_destroy(rev);

    shmem_finalize();
    return XG_TEST_PASS;
}
