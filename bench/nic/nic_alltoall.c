/*
 * nic-alltoall: the offload-engine paper's Fig. 15 -- an alltoall of
 * 8 KiB messages (every PE sends one to every other PE), timed over
 * repetitions, under the NIC protocol the environment selects:
 *
 *   eager                  XGAS_NIC_EAGER_LIMIT=16K (8 KiB goes whole)
 *   rendezvous             XGAS_NIC_EAGER_LIMIT=0 XGAS_NIC_RNDV=get
 *   triggered rendezvous   XGAS_NIC_EAGER_LIMIT=0 XGAS_NIC_RNDV=triggered
 *   ... with 4 KiB eager   plus XGAS_NIC_RNDV_EAGER=4K
 *
 * (bench/nic/run.sh runs all four.)  --late posts the receives after the
 * sends, as when receivers are late: eager messages then land in the
 * overflow buffer and are copied out (two copies), rendezvous ones are
 * held by the NIC and land directly in the receive.  Without it, receives
 * are posted first (every message expected).
 * Output: bench=nic_alltoall protocol=... arrival=posted|late pes=N
 *         size=8192 median_us=... min_us=...
 */
#include "nic_bench.h"

#define PT   9
#define SIZE 8192
#define REPS 50

int main(int argc, char **argv)
{
    ptl_env_t env;
    ptl_handle_eq_t eq;
    ptl_handle_ct_t sent;
    ptl_handle_md_t md;
    ptl_handle_me_t oh, h;
    ptl_ct_event_t v;
    ptl_event_t ev;
    ptl_md_t mdd;
    ptl_me_t me;
    uint8_t *sbuf, *rbuf, *obuf;
    double t[REPS];
    int late = 0, reps = REPS, rep, pe, got, i;
    uint64_t t0;
    const char *limit = nb_env_str("XGAS_NIC_EAGER_LIMIT", "16K");
    const char *mode  = nb_env_str("XGAS_NIC_RNDV", "triggered");
    const char *eager = nb_env_str("XGAS_NIC_RNDV_EAGER", "0");
    char protocol[64];

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--late") == 0) {
            late = 1;
        } else if (strcmp(argv[i], "--quick") == 0) {
            reps = 5;
        }
    }
    if ((limit[0] == '0') && (limit[1] == '\0')) {
        snprintf(protocol, sizeof(protocol), "%s%s",
                 (strcmp(mode, "get") == 0) ? "rendezvous"
                                            : "triggered_rendezvous",
                 (strcmp(eager, "0") != 0) ? "_eager4k" : "");
    } else {
        snprintf(protocol, sizeof(protocol), "eager");
    }
    nb_init(&env);
    sbuf = malloc((size_t)env.npes * SIZE);
    rbuf = malloc((size_t)env.npes * SIZE);
    obuf = malloc((size_t)env.npes * SIZE * 2);
    memset(sbuf, env.rank, (size_t)env.npes * SIZE);
    PTL_ENV_OK(PtlEQAlloc(env.ni, 4 * (size_t)env.npes + 64, &eq));
    PTL_ENV_OK(PtlCTAlloc(env.ni, &sent));
    PTL_ENV_OK(PtlPTAlloc(env.ni, 0, eq, PT, &(ptl_pt_index_t){0}));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = sbuf;
    mdd.length    = (size_t)env.npes * SIZE;
    mdd.eq_handle = PTL_EQ_NONE;
    mdd.ct_handle = sent;
    mdd.options   = PTL_MD_EVENT_CT_ACK;
    PTL_ENV_OK(PtlMDBind(env.ni, &mdd, &md));
    for (rep = 0; rep < reps; rep++) {
        /* a fresh overflow buffer each time (late receives use it) */
        memset(&me, 0, sizeof(me));
        me.start     = obuf;
        me.length    = (size_t)env.npes * SIZE * 2;
        me.ct_handle = PTL_CT_NONE;
        me.uid       = PTL_UID_ANY;
        me.options   = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL |
                     PTL_ME_EVENT_COMM_DISABLE | PTL_ME_EVENT_LINK_DISABLE;
        me.match_id.rank = PTL_RANK_ANY;
        me.ignore_bits   = ~0ull;
        PTL_ENV_OK(PtlMEAppend(env.ni, PT, &me, PTL_OVERFLOW_LIST, NULL, &oh));
        memset(&me, 0, sizeof(me));
        me.length    = SIZE;
        me.ct_handle = PTL_CT_NONE;
        me.uid       = PTL_UID_ANY;
        me.options   = PTL_ME_OP_PUT | PTL_ME_USE_ONCE |
                     PTL_ME_EVENT_LINK_DISABLE | PTL_ME_EVENT_UNLINK_DISABLE;
        me.match_bits = (uint64_t)rep;
        ptl_env_barrier(&env);
        t0 = bench_now_ns();
        if (!late) {
            for (pe = 0; pe < env.npes; pe++) {
                me.start         = rbuf + (size_t)pe * SIZE;
                me.match_id.rank = (ptl_rank_t)pe;
                PTL_ENV_OK(
                    PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &h));
            }
            ptl_env_barrier(&env);
            t0 = bench_now_ns();
        }
        for (i = 1; i <= env.npes; i++) {
            pe = (env.rank + i) % env.npes;
            PTL_ENV_OK(PtlPut(md, (size_t)pe * SIZE, SIZE, PTL_CT_ACK_REQ,
                              ptl_env_rank(pe), PT, (uint64_t)rep, 0, NULL, 0));
        }
        if (late) {
            for (pe = 0; pe < env.npes; pe++) {
                me.start         = rbuf + (size_t)pe * SIZE;
                me.match_id.rank = (ptl_rank_t)pe;
                PTL_ENV_OK(
                    PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &h));
            }
        }
        for (got = 0; got < env.npes;) {
            PTL_ENV_OK(PtlEQWait(eq, &ev));
            if (ev.type == PTL_EVENT_PUT_OVERFLOW) {
                /* it arrived first: copy it where it belongs */
                memcpy(rbuf + (size_t)ev.initiator.rank * SIZE, ev.start, SIZE);
                got++;
            } else if (ev.type == PTL_EVENT_PUT) {
                got += (ev.ptl_list == PTL_PRIORITY_LIST);
            }
        }
        PTL_ENV_OK(PtlCTWait(sent, (ptl_size_t)(rep + 1) * env.npes, &v));
        t[rep] = (double)(bench_now_ns() - t0) * 1e-3;
        for (pe = 0; pe < env.npes; pe++) {
            if (rbuf[(size_t)pe * SIZE + SIZE - 1] != (uint8_t)pe) {
                fprintf(stderr, "nic-alltoall: wrong data from PE %d\n", pe);
                return 1;
            }
        }
        ptl_env_barrier(&env);
        PTL_ENV_OK(PtlMEUnlink(oh));
        while (PtlEQGet(eq, &ev) == PTL_OK) {
        }
    }
    if (env.rank == 0) {
        double med = bench_median(t, reps);

        printf("bench=nic_alltoall protocol=%s arrival=%s pes=%d size=%d "
               "median_us=%.1f min_us=%.1f reps=%d\n",
               protocol, late ? "late" : "posted", env.npes, SIZE, med, t[0],
               reps);
    }
    nb_fini(&env);
    return 0;
}
