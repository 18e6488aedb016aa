/*
 * Barriers: shmem_team_sync (and the C11 shmem_sync(team)) on every test
 * team, and the deprecated active-set shmem_barrier and shmem_sync on the
 * whole job, the even PEs and the odd PEs, 200 times in a row with the same
 * pSync (allowed for barriers).  In every round each member atomically
 * increments a counter on every member and synchronizes; afterwards the
 * counter must hold exactly the increments of all rounds so far -- a
 * barrier that lets a PE out early shows a missing increment.  Two
 * counters alternate, so a member already in the next round cannot spoil
 * the count.  After the active-set rounds every pSync word must be back
 * at SHMEM_SYNC_VALUE.
 */
#include <shmem.h>

#include "coll_test.h"

#define ROUNDS 200

static int me, npes;
static long counter[2];
static long psync_a[SHMEM_BARRIER_SYNC_SIZE];
static long psync_b[SHMEM_SYNC_SIZE];

/* @how: 0 team_sync, 1 C11 shmem_sync(team), 2 shmem_barrier (active set),
 * 3 shmem_sync (active set) */
static void rounds(const char *what, int how, shmem_team_t team, int start,
                   int logstride, int size, long *psync)
{
    int r, i, stride = 1 << logstride;

    for (r = 0; r < ROUNDS; r++) {
        long *c = &counter[r % 2];

        for (i = 0; i < size; i++) {
            int pe = (how < 2) ? coll_test_world(team, i) : start + i * stride;

            shmem_long_atomic_inc(c, pe);
        }
        switch (how) {
        case 0:
            shmem_quiet();
            XG_CHECK(shmem_team_sync(team) == 0, "%s: team_sync", what);
            break;
        case 1:
            shmem_quiet();
            XG_CHECK(shmem_sync(team) == 0, "%s: shmem_sync(team)", what);
            break;
        case 2: shmem_barrier(start, logstride, size, psync); break;
        default:
            shmem_quiet();
            shmem_sync(start, logstride, size, psync);
            break;
        }
        XG_CHECK(shmem_long_atomic_fetch(c, me) == (long)(r / 2 + 1) * size,
                 "%s (%d) round %d: counter %ld, expected %ld", what, how, r,
                 shmem_long_atomic_fetch(c, me), (long)(r / 2 + 1) * size);
    }
}

static void reset(void)
{
    shmem_barrier_all();
    counter[0] = counter[1] = 0;
    shmem_barrier_all();
}

static void check_psync(const long *psync, int len)
{
    int i;

    for (i = 0; i < len; i++) {
        XG_CHECK(psync[i] == SHMEM_SYNC_VALUE,
                 "pSync[%d] = %ld after the barriers, not SHMEM_SYNC_VALUE", i,
                 psync[i]);
    }
}

int main(void)
{
    int t, how, in_even, in_odd;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    coll_test_teams_create();

    for (t = 0; t < COLL_TEST_TEAMS; t++) {
        shmem_team_t team = coll_teams[t].team;

        for (how = 0; how < 2; how++) {
            if (team != SHMEM_TEAM_INVALID) {
                rounds(coll_teams[t].name, how, team, 0, 0,
                       shmem_team_n_pes(team), NULL);
            }
            reset();
        }
    }

    /* active sets: the job, then evens and odds at the same time (each
     * with its own pSync) */
    for (how = 2; how < 4; how++) {
        rounds("all (active set)", how, SHMEM_TEAM_INVALID, 0, 0, npes,
               psync_a);
        reset();
        in_even = (me % 2 == 0);
        in_odd  = (me % 2 == 1);
        if (in_even) {
            rounds("evens (active set)", how, SHMEM_TEAM_INVALID, 0, 1,
                   (npes + 1) / 2, psync_a);
        }
        if (in_odd) {
            rounds("odds (active set)", how, SHMEM_TEAM_INVALID, 1, 1, npes / 2,
                   psync_b);
        }
        reset();
        check_psync(psync_a, SHMEM_BARRIER_SYNC_SIZE);
        check_psync(psync_b, SHMEM_SYNC_SIZE);
        /* before anyone signals into the arrays again */
        shmem_barrier_all();
    }

    coll_test_teams_destroy();
    shmem_finalize();
    return XG_TEST_PASS;
}
