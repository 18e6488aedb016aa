/*
 * PtlMDRelease right after an operation, without waiting for its events:
 * the answer (an acknowledgement, a reply) is a packet on its way, and
 * the release must process it and return PTL_OK -- not PTL_IN_USE, which
 * left the MD bound in the reference suite's test_eq_overflow-001 until
 * max_mds ran out.  Once the release has returned, the operation is
 * complete: its events are in the queue, a get's data has landed.  Every
 * round binds a fresh MD.  Process r targets its right neighbour.
 */
#include "ptl_test.h"

#define PT     12
#define ROUNDS 200
#define LEN    64

static ptl_test_env_t env;

static ptl_handle_md_t bind(void *buf, ptl_handle_eq_t eq)
{
    ptl_handle_md_t md;
    ptl_md_t d;

    memset(&d, 0, sizeof(d));
    d.start     = buf;
    d.length    = LEN;
    d.eq_handle = eq;
    d.ct_handle = PTL_CT_NONE;
    PTL_OK_OR_DIE(PtlMDBind(env.ni, &d, &md));
    return md;
}

int main(void)
{
    static uint8_t tbuf[LEN], pbuf[LEN], gbuf[LEN];
    ptl_handle_eq_t teq, ieq;
    ptl_handle_me_t meh;
    ptl_handle_md_t md;
    ptl_event_t ev;
    ptl_me_t me;
    int r, i, right;

    ptl_test_init(&env);
    right = (env.rank + 1) % env.npes;
    for (i = 0; i < LEN; i++) {
        tbuf[i] = ptl_test_byte((uint64_t)env.rank, (uint64_t)i);
    }
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 4 * ROUNDS + 8, &teq));
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 64, &ieq));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, teq, PT, &(ptl_pt_index_t){0}));
    memset(&me, 0, sizeof(me));
    /* puts land in the second half, gets read the first */
    me.start     = tbuf;
    me.length    = LEN;
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    me.options   = PTL_ME_OP_PUT | PTL_ME_OP_GET | PTL_ME_EVENT_LINK_DISABLE |
                 PTL_ME_EVENT_COMM_DISABLE;
    me.match_id.rank = PTL_RANK_ANY;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &meh));
    ptl_test_barrier(&env);

    for (r = 0; r < ROUNDS; r++) {
        /* an acknowledged put, released at once */
        md = bind(pbuf, ieq);
        PTL_OK_OR_DIE(PtlPut(md, 0, LEN / 2, PTL_ACK_REQ, ptl_test_rank(right),
                             PT, 0, LEN / 2, (void *)(uintptr_t)r, 0));
        PTL_OK_OR_DIE(PtlMDRelease(md));
        ptl_test_next(ieq, PTL_EVENT_SEND, &ev);
        ptl_test_next(ieq, PTL_EVENT_ACK, &ev);
        XG_CHECK(ev.user_ptr == (void *)(uintptr_t)r &&
                     ev.ni_fail_type == PTL_NI_OK,
                 "round %d: ACK", r);
        /* a get, released at once: its data is there */
        memset(gbuf, 0, sizeof(gbuf));
        md = bind(gbuf, PTL_EQ_NONE);
        PTL_OK_OR_DIE(
            PtlGet(md, 0, LEN / 2, ptl_test_rank(right), PT, 0, 0, NULL));
        PTL_OK_OR_DIE(PtlMDRelease(md));
        for (i = 0; i < LEN / 2; i++) {
            XG_CHECK(gbuf[i] == ptl_test_byte((uint64_t)right, (uint64_t)i),
                     "round %d: byte %d of the get is %u", r, i, gbuf[i]);
        }
    }
    ptl_test_none(ieq);
    ptl_test_barrier(&env);

    PTL_OK_OR_DIE(PtlMEUnlink(meh));
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    PTL_OK_OR_DIE(PtlEQFree(teq));
    PTL_OK_OR_DIE(PtlEQFree(ieq));
    ptl_test_fini(&env);
    return 0;
}
