/*
 * An MD whose memory the program unmapped after PtlMDBind: a put from it
 * (eager, rendezvous, atomic) must not send anything -- no zeros, no
 * crash -- but fail on the initiator with PTL_NI_SEGV on its SEND and
 * ACK events, and the target's entry must stay untouched.  Rank 0 sends
 * to rank 1 (pt 4, one ME of 64 KiB filled with 0x5a).
 */
#include <sys/mman.h>

#include "ptl_test.h"

#define LEN (64u << 10)

static void expect_segv(ptl_handle_eq_t eq, ptl_event_kind_t type,
                        const char *what)
{
    ptl_event_t ev;

    PTL_OK_OR_DIE(PtlEQWait(eq, &ev));
    XG_CHECK(ev.type == type && ev.ni_fail_type == PTL_NI_SEGV,
             "%s: got %s fail %d, want %s PTL_NI_SEGV", what,
             ptl_test_ev(ev.type), (int)ev.ni_fail_type, ptl_test_ev(type));
}

int main(void)
{
    static unsigned char target[LEN];
    ptl_test_env_t env;
    ptl_handle_eq_t eq;
    ptl_handle_md_t md;
    ptl_handle_me_t meh;
    ptl_pt_index_t pt;
    ptl_md_t mdd;
    ptl_me_t me;
    void *buf;
    size_t i;

    ptl_test_init(&env);
    if (env.npes < 2) {
        ptl_test_fini(&env);
        return XG_TEST_PASS;
    }
    memset(target, 0x5a, sizeof(target));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, PTL_EQ_NONE, 4, &pt));
    memset(&me, 0, sizeof(me));
    me.start     = target;
    me.length    = sizeof(target);
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    me.options =
        PTL_ME_OP_PUT | PTL_ME_EVENT_COMM_DISABLE | PTL_ME_EVENT_LINK_DISABLE;
    me.match_id.rank = PTL_RANK_ANY;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, pt, &me, PTL_PRIORITY_LIST, NULL, &meh));
    ptl_test_barrier(&env);
    if (env.rank == 0) {
        buf = mmap(NULL, LEN, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        XG_CHECK(buf != MAP_FAILED, "mmap");
        memset(buf, 1, LEN);
        PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 16, &eq));
        memset(&mdd, 0, sizeof(mdd));
        mdd.start     = buf;
        mdd.length    = LEN;
        mdd.eq_handle = eq;
        mdd.ct_handle = PTL_CT_NONE;
        PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &md));
        XG_CHECK(munmap(buf, LEN) == 0, "munmap");
        /* one packet, then many (past the eager limit) */
        PTL_OK_OR_DIE(
            PtlPut(md, 0, 64, PTL_ACK_REQ, ptl_test_rank(1), 4, 0, 0, NULL, 0));
        expect_segv(eq, PTL_EVENT_SEND, "small put");
        expect_segv(eq, PTL_EVENT_ACK, "small put");
        PTL_OK_OR_DIE(PtlPut(md, 0, LEN, PTL_ACK_REQ, ptl_test_rank(1), 4, 0, 0,
                             NULL, 0));
        expect_segv(eq, PTL_EVENT_SEND, "large put");
        expect_segv(eq, PTL_EVENT_ACK, "large put");
        PTL_OK_OR_DIE(PtlMDRelease(md));
        PTL_OK_OR_DIE(PtlEQFree(eq));
    }
    ptl_test_barrier(&env);
    if (env.rank == 1) {
        for (i = 0; i < sizeof(target); i++) {
            XG_CHECK(target[i] == 0x5a,
                     "byte %zu of the entry is %#x: "
                     "something was sent",
                     i, target[i]);
        }
    }
    PTL_OK_OR_DIE(PtlMEUnlink(meh));
    PTL_OK_OR_DIE(PtlPTFree(env.ni, pt));
    ptl_test_fini(&env);
    return XG_TEST_PASS;
}
