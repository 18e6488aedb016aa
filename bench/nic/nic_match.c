/*
 * nic-match: the worst case of the Portals offload-engine paper (its
 * Fig. 11).  N unexpected messages wait in the unexpected list; the
 * receives are then posted in the opposite order, so each one matches the
 * newest header -- at the tail of the list.  Without hashing each receive
 * walks the whole list; with it the lookup is one hash chain.  Timed: the
 * N receive appends (each finds its header and posts PTL_EVENT_PUT_OVERFLOW).
 *
 * --list priority (2 PEs) measures the other side: PE 0 posts N receives,
 * PE 1's messages each match the one posted last (the tail of the
 * priority list); timed at PE 0 from a barrier to the N-th delivery, so
 * the figure includes the transport's per-message cost.  PE 1 takes the
 * start time (right before its first put) and sends it to PE 0.
 *
 * Hashing is switched with XGAS_NIC_HASH (bench/nic/run.sh runs both).
 * Output: bench=nic_match list=... hash=0|1 n=N total_ns=... per_match_ns=...
 */
#include "nic_bench.h"

#define PT 3

static uint64_t unexpected_case(ptl_env_t *env, int n, uint64_t *buf)
{
    ptl_handle_me_t oh, h;
    ptl_handle_md_t md;
    ptl_handle_ct_t ct;
    ptl_handle_eq_t eq;
    ptl_ct_event_t v;
    ptl_event_t ev;
    ptl_md_t mdd;
    ptl_me_t me;
    uint64_t t0, t1;
    int i;

    PTL_ENV_OK(PtlCTAlloc(env->ni, &ct));
    PTL_ENV_OK(PtlEQAlloc(env->ni, (ptl_size_t)n + 64, &eq));
    PTL_ENV_OK(PtlPTAlloc(env->ni, 0, eq, PT, &(ptl_pt_index_t){0}));
    memset(&me, 0, sizeof(me));
    me.start     = buf;
    me.length    = (ptl_size_t)n * 8;
    me.ct_handle = ct;
    me.uid       = PTL_UID_ANY;
    me.options   = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL | PTL_ME_EVENT_CT_COMM |
                 PTL_ME_EVENT_COMM_DISABLE | PTL_ME_EVENT_LINK_DISABLE;
    me.match_id.rank = PTL_RANK_ANY;
    me.ignore_bits   = ~0ull;
    PTL_ENV_OK(PtlMEAppend(env->ni, PT, &me, PTL_OVERFLOW_LIST, NULL, &oh));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = buf;
    mdd.length    = 8;
    mdd.eq_handle = PTL_EQ_NONE;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_ENV_OK(PtlMDBind(env->ni, &mdd, &md));
    for (i = 0; i < n; i++) {
        PTL_ENV_OK(PtlPut(md, 0, 8, PTL_NO_ACK_REQ, ptl_env_rank(env->rank), PT,
                          (uint64_t)i, 0, NULL, 0));
    }
    PTL_ENV_OK(PtlCTWait(ct, (ptl_size_t)n, &v));
    memset(&me, 0, sizeof(me));
    me.start     = buf;
    me.length    = 8;
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    me.options = PTL_ME_OP_PUT | PTL_ME_USE_ONCE | PTL_ME_EVENT_UNLINK_DISABLE;
    me.match_id.rank = (ptl_rank_t)env->rank;
    /* warm the code and the receive path with an append that matches
     * nothing (then unlinked): the timing then shows the search, not the
     * first touch of the set-up's memory */
    me.match_bits = (uint64_t)n + 1;
    me.options &= ~(unsigned)PTL_ME_USE_ONCE;
    PTL_ENV_OK(PtlMEAppend(env->ni, PT, &me, PTL_PRIORITY_LIST, NULL, &h));
    PTL_ENV_OK(PtlEQWait(eq, &ev));
    PTL_ENV_OK(PtlMEUnlink(h));
    me.options |= PTL_ME_USE_ONCE | PTL_ME_EVENT_LINK_DISABLE;
    t0 = bench_now_ns();
    for (i = n - 1; i >= 0; i--) {
        me.match_bits = (uint64_t)i;
        PTL_ENV_OK(PtlMEAppend(env->ni, PT, &me, PTL_PRIORITY_LIST, NULL, &h));
    }
    t1 = bench_now_ns();
    for (i = 0; i < n; i++) {
        PTL_ENV_OK(PtlEQWait(eq, &ev));
        if ((ev.type != PTL_EVENT_PUT_OVERFLOW) ||
            (ev.match_bits != (uint64_t)(n - 1 - i))) {
            fprintf(stderr, "nic-match: receive %d matched wrongly\n", i);
            exit(1);
        }
    }
    PTL_ENV_OK(PtlMEUnlink(oh));
    PTL_ENV_OK(PtlMDRelease(md));
    PTL_ENV_OK(PtlPTFree(env->ni, PT));
    PTL_ENV_OK(PtlEQFree(eq));
    PTL_ENV_OK(PtlCTFree(ct));
    return t1 - t0;
}

/* PE 0 posts n entries for PE 1; PE 1 then sends the messages newest
 * entry first, so each one matches the tail of the list.  Timed from PE
 * 1's first put to the n-th delivery at PE 0: for small n one message's
 * latency, for large n the target's cost per message (the sender keeps
 * ahead of it unless matching is cheap). */
static uint64_t priority_case(ptl_env_t *env, int n, uint64_t *buf)
{
    static uint64_t t0; /* PE 1's start time, sent to PE 0 */
    ptl_handle_md_t md, tmd;
    ptl_handle_ct_t ct, tct;
    ptl_handle_me_t h, th;
    ptl_ct_event_t v;
    ptl_md_t mdd;
    ptl_me_t me;
    uint64_t t1 = 0;
    int i;

    PTL_ENV_OK(PtlCTAlloc(env->ni, &ct));
    PTL_ENV_OK(PtlCTAlloc(env->ni, &tct));
    PTL_ENV_OK(PtlPTAlloc(env->ni, 0, PTL_EQ_NONE, PT, &(ptl_pt_index_t){0}));
    PTL_ENV_OK(
        PtlPTAlloc(env->ni, 0, PTL_EQ_NONE, PT + 1, &(ptl_pt_index_t){0}));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = buf;
    mdd.length    = 8;
    mdd.eq_handle = PTL_EQ_NONE;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_ENV_OK(PtlMDBind(env->ni, &mdd, &md));
    mdd.start = &t0;
    PTL_ENV_OK(PtlMDBind(env->ni, &mdd, &tmd));
    memset(&me, 0, sizeof(me));
    me.start         = &t0;
    me.length        = 8;
    me.ct_handle     = tct;
    me.uid           = PTL_UID_ANY;
    me.options       = PTL_ME_OP_PUT | PTL_ME_EVENT_CT_COMM;
    me.match_id.rank = PTL_RANK_ANY;
    PTL_ENV_OK(PtlMEAppend(env->ni, PT + 1, &me, PTL_PRIORITY_LIST, NULL, &th));
    if (env->rank == 0) {
        memset(&me, 0, sizeof(me));
        me.length    = 8;
        me.ct_handle = ct;
        me.uid       = PTL_UID_ANY;
        me.options   = PTL_ME_OP_PUT | PTL_ME_USE_ONCE | PTL_ME_EVENT_CT_COMM;
        me.match_id.rank = 1;
        for (i = 0; i < n; i++) {
            me.start      = &buf[i];
            me.match_bits = (uint64_t)i;
            PTL_ENV_OK(
                PtlMEAppend(env->ni, PT, &me, PTL_PRIORITY_LIST, NULL, &h));
        }
    }
    ptl_env_barrier(env);
    if (env->rank == 1) {
        /* the start is taken here: PE 0 may still be leaving the
         * barrier while the first messages are matched (both read the
         * same monotonic clock) */
        t0 = bench_now_ns();
        for (i = n - 1; i >= 0; i--) {
            PTL_ENV_OK(PtlPut(md, 0, 8, PTL_NO_ACK_REQ, ptl_env_rank(0), PT,
                              (uint64_t)i, 0, NULL, 0));
        }
    } else {
        PTL_ENV_OK(PtlCTWait(ct, (ptl_size_t)n, &v));
        t1 = bench_now_ns();
    }
    ptl_env_barrier(env); /* every put has landed: the MD is idle */
    if (env->rank == 1) {
        PTL_ENV_OK(PtlPut(tmd, 0, 8, PTL_NO_ACK_REQ, ptl_env_rank(0), PT + 1, 0,
                          0, NULL, 0));
    } else {
        PTL_ENV_OK(PtlCTWait(tct, 1, &v));
    }
    ptl_env_barrier(env);
    PTL_ENV_OK(PtlMEUnlink(th));
    PTL_ENV_OK(PtlMDRelease(md));
    PTL_ENV_OK(PtlMDRelease(tmd));
    PTL_ENV_OK(PtlPTFree(env->ni, PT));
    PTL_ENV_OK(PtlPTFree(env->ni, PT + 1));
    PTL_ENV_OK(PtlCTFree(ct));
    PTL_ENV_OK(PtlCTFree(tct));
    return (env->rank == 0) ? t1 - t0 : 0;
}

int main(int argc, char **argv)
{
    ptl_env_t env;
    int max_n = 65536, min_n = 1, n, priority = 0, rep, reps, i;
    const char *hash = nb_env_str("XGAS_NIC_HASH", "1");
    uint64_t *buf;
    double samples[9], total;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0 && i + 1 < argc) {
            priority = strcmp(argv[++i], "priority") == 0;
        } else if (strcmp(argv[i], "--max") == 0 && i + 1 < argc) {
            max_n = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--min") == 0 && i + 1 < argc) {
            min_n = atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: nic-match [--list unexpected|priority] "
                            "[--min N] [--max N]\n");
            return 2;
        }
    }
    nb_init(&env);
    if (priority && (env.npes != 2)) {
        if (env.rank == 0) {
            fprintf(stderr, "nic-match: --list priority needs 2 PEs "
                            "(xgasrun -n 2)\n");
        }
        nb_fini(&env);
        return 2;
    }
    buf = calloc((size_t)max_n, 8);
    if ((env.rank == 0) || priority) {
        for (n = (min_n > 0) ? min_n : 1; n <= max_n; n *= 2) {
            /* fewer repetitions where one run is long; many where runs
             * are short and a neighbour's burst would skew one */
            reps = (n >= 8192 && hash[0] == '0') ? 1 : 9;
            for (rep = 0; rep < reps; rep++) {
                samples[rep] =
                    (double)(priority ? priority_case(&env, n, buf)
                                      : unexpected_case(&env, n, buf));
            }
            total = bench_median(samples, reps);
            if (env.rank != 0) {
                continue;
            }
            printf("bench=nic_match list=%s hash=%c n=%d total_ns=%.0f "
                   "per_match_ns=%.1f reps=%d\n",
                   priority ? "priority" : "unexpected", hash[0], n, total,
                   total / n, reps);
            fflush(stdout);
        }
    }
    free(buf);
    nb_fini(&env);
    return 0;
}
