/*
 * Ten thousand unexpected messages, received in reverse order: each
 * receive matches the newest header, at the tail of the unexpected list
 * (the worst case of the offload-engine paper).  Every message must be
 * found, with its data, in the overflow buffer.  Run with hashing on and
 * off.
 */
#include "ptl_test.h"

#define PT 29
#define N  10000

static uint64_t obuf[N];
static uint64_t sbuf[N];

int main(void)
{
    ptl_test_env_t env;
    ptl_handle_eq_t eq;
    ptl_handle_md_t md;
    ptl_handle_me_t oh, h;
    ptl_handle_ct_t ct;
    ptl_ct_event_t v;
    ptl_event_t ev;
    ptl_md_t mdd;
    ptl_me_t me;
    int left, right, i;

    ptl_test_init(&env);
    left  = (env.rank + env.npes - 1) % env.npes;
    right = (env.rank + 1) % env.npes;
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 2 * N + 16, &eq));
    PTL_OK_OR_DIE(PtlCTAlloc(env.ni, &ct));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, eq, PT, &(ptl_pt_index_t){0}));
    memset(&me, 0, sizeof(me));
    me.start     = obuf;
    me.length    = sizeof(obuf);
    me.ct_handle = ct;
    me.uid       = PTL_UID_ANY;
    me.options   = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL | PTL_ME_EVENT_CT_COMM |
                 PTL_ME_EVENT_COMM_DISABLE | PTL_ME_EVENT_LINK_DISABLE;
    me.match_id.rank = PTL_RANK_ANY;
    me.ignore_bits   = ~0ull;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_OVERFLOW_LIST, NULL, &oh));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = sbuf;
    mdd.length    = sizeof(sbuf);
    mdd.eq_handle = PTL_EQ_NONE;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &md));
    for (i = 0; i < N; i++) {
        sbuf[i] = 0xbeef000000000000ull | (uint64_t)i;
    }
    ptl_test_barrier(&env);
    for (i = 0; i < N; i++) {
        PTL_OK_OR_DIE(PtlPut(md, (ptl_size_t)i * 8, 8, PTL_NO_ACK_REQ,
                             ptl_test_rank(right), PT, (uint64_t)i, 0, NULL,
                             (uint64_t)i));
    }
    /* all of the left neighbour's messages are in our overflow list */
    PTL_OK_OR_DIE(PtlCTWait(ct, N, &v));
    XG_CHECK(v.failure == 0, "failures");
    memset(&me, 0, sizeof(me));
    me.start     = &sbuf[0]; /* receives nothing: overflow events */
    me.length    = 8;
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    me.options = PTL_ME_OP_PUT | PTL_ME_USE_ONCE | PTL_ME_EVENT_UNLINK_DISABLE;
    me.match_id.rank = (ptl_rank_t)left;
    for (i = N - 1; i >= 0; i--) {
        me.match_bits = (uint64_t)i;
        PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST,
                                  (void *)(intptr_t)i, &h));
        ptl_test_next(eq, PTL_EVENT_PUT_OVERFLOW, &ev);
        XG_CHECK(ev.user_ptr == (void *)(intptr_t)i &&
                     ev.hdr_data == (uint64_t)i && ev.match_bits == (uint64_t)i,
                 "receive %d matched message %llu", i,
                 (unsigned long long)ev.hdr_data);
        XG_CHECK(*(uint64_t *)ev.start == (0xbeef000000000000ull | (uint64_t)i),
                 "data of message %d", i);
    }
    ptl_test_none(eq);
    ptl_test_barrier(&env);
    PTL_OK_OR_DIE(PtlMEUnlink(oh));
    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    PTL_OK_OR_DIE(PtlCTFree(ct));
    PTL_OK_OR_DIE(PtlEQFree(eq));
    ptl_test_fini(&env);
    return 0;
}
