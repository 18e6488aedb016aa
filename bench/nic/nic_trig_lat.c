/*
 * nic-trig-lat: from a counter reaching a triggered operation's threshold
 * to the operation's data landing at its target.  PE 0 writes the current
 * time into its MD, then increments the counter with PtlCTInc; the
 * triggered put, released by the NIC, carries the time to PE 1, which
 * polls its memory (no Portals call) and takes the difference -- both PEs
 * read the same monotonic clock.  Next to it, the same for a plain PtlPut
 * (time taken just before the call).  With one PE, it sends to itself.
 *
 * --ctwait: PE 1 waits with PtlCTWait on the entry's counter instead of
 * polling memory, so its own thread handles the packet; by default the
 * data is delivered by PE 1's progress thread, which may have gone to
 * sleep in the meantime (the figure then includes its wake-up).
 * Output: bench=nic_trig_lat kind=triggered|put pes=N target=poll|ctwait
 *         median_ns=... min_ns=...
 */
#include <sched.h>

#include "nic_bench.h"

#define PT    7
#define ITERS 2000

static volatile uint64_t landing[2]; /* time stamp, sequence */
static uint64_t stamp[2];

int main(int argc, char **argv)
{
    ptl_env_t env;
    ptl_handle_me_t h;
    ptl_handle_md_t md;
    ptl_handle_ct_t trig, done;
    ptl_ct_event_t one = {1, 0};
    ptl_md_t mdd;
    ptl_me_t me;
    double *lat[2];
    int iters = ITERS, ctwait = 0;
    int peer, kind, i;
    uint64_t seq = 0, landed = 0;
    ptl_ct_event_t got;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            iters = 200;
        } else if (strcmp(argv[i], "--ctwait") == 0) {
            ctwait = 1;
        } else {
            fprintf(stderr, "usage: nic-trig-lat [--quick] [--ctwait]\n");
            return 2;
        }
    }

    nb_init(&env);
    peer   = (env.npes > 1) ? 1 : 0;
    lat[0] = calloc((size_t)iters, sizeof(double));
    lat[1] = calloc((size_t)iters, sizeof(double));
    PTL_ENV_OK(PtlCTAlloc(env.ni, &trig));
    PTL_ENV_OK(PtlCTAlloc(env.ni, &done));
    PTL_ENV_OK(PtlPTAlloc(env.ni, 0, PTL_EQ_NONE, PT, &(ptl_pt_index_t){0}));
    memset(&me, 0, sizeof(me));
    me.start         = (void *)landing;
    me.length        = sizeof(landing);
    me.ct_handle     = done;
    me.uid           = PTL_UID_ANY;
    me.options       = PTL_ME_OP_PUT | PTL_ME_EVENT_CT_COMM;
    me.match_id.rank = PTL_RANK_ANY;
    PTL_ENV_OK(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &h));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = stamp;
    mdd.length    = sizeof(stamp);
    mdd.eq_handle = PTL_EQ_NONE;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_ENV_OK(PtlMDBind(env.ni, &mdd, &md));
    ptl_env_barrier(&env);
    for (kind = 0; kind < 2; kind++) {
        for (i = -iters / 10; i < iters; i++) {
            seq++;
            if (env.rank == 0) {
                if (kind == 0) {
                    /* armed first, released by the increment */
                    PTL_ENV_OK(PtlTriggeredPut(
                        md, 0, sizeof(stamp), PTL_NO_ACK_REQ,
                        ptl_env_rank(peer), PT, 0, 0, NULL, 0, trig, seq));
                }
                stamp[1] = seq;
                stamp[0] = bench_now_ns();
                if (kind == 0) {
                    PTL_ENV_OK(PtlCTInc(trig, one));
                } else {
                    PTL_ENV_OK(PtlPut(md, 0, sizeof(stamp), PTL_NO_ACK_REQ,
                                      ptl_env_rank(peer), PT, 0, 0, NULL, 0));
                }
            }
            if (env.rank == peer) {
                if (ctwait) {
                    PTL_ENV_OK(PtlCTWait(done, ++landed, &got));
                }
                while (landing[1] != seq) {
                    /* plain memory polling: the NIC delivers on its own */
                    if (env.npes > 2) {
                        sched_yield();
                    }
                }
                if (i >= 0) {
                    lat[kind][i] = (double)(bench_now_ns() - landing[0]);
                }
            }
            /* the next round starts once the data has landed */
            ptl_env_barrier(&env);
        }
        if (env.rank == peer) {
            double med = bench_median(lat[kind], iters);

            printf("bench=nic_trig_lat kind=%s pes=%d target=%s "
                   "median_ns=%.0f min_ns=%.0f iters=%d\n",
                   kind ? "put" : "triggered", env.npes,
                   ctwait ? "ctwait" : "poll", med, lat[kind][0], iters);
            fflush(stdout);
        }
    }
    nb_fini(&env);
    return 0;
}
