/*
 * Flow control (PTL_PT_FLOWCTRL): when a target runs out of resources --
 * no overflow buffer left, or no room in its event queue -- the portal
 * index disables itself, PTL_EVENT_PT_DISABLED is posted, and every message
 * that is not delivered is reported to its initiator as PTL_NI_PT_DISABLED
 * and counted: nothing is dropped silently.  After the target recovers and
 * re-enables the index, the initiator resends what failed and everything
 * arrives.  Also: PtlPTDisable/PtlPTEnable by hand, and PTL_PT_EQ_NEEDED.
 * Process r sends to process r+1.
 */
#include "ptl_test.h"

#define PT   21
#define NMSG 10

static ptl_test_env_t env;
static ptl_handle_eq_t ieq;
static ptl_handle_md_t md;
static int right;
static uint8_t src[NMSG * 16];

/* Sends the messages marked in @pending; returns how many failed (and marks
 * them), after checking the failures are flow-control failures. */
static int send_all(int *pending)
{
    ptl_event_t ev;
    int i, n = 0, failed = 0;

    for (i = 0; i < NMSG; i++) {
        if (pending[i]) {
            PTL_OK_OR_DIE(PtlPut(md, (ptl_size_t)i * 16, 16, PTL_ACK_REQ,
                                 ptl_test_rank(right), PT, 5, 0,
                                 (void *)(intptr_t)i, (uint64_t)i));
            n++;
        }
    }
    while (n > 0) {
        PTL_OK_OR_DIE(PtlEQWait(ieq, &ev));
        if (ev.type != PTL_EVENT_ACK) {
            continue;
        }
        n--;
        i = (int)(intptr_t)ev.user_ptr;
        if (ev.ni_fail_type == PTL_NI_OK) {
            pending[i] = 0;
        } else {
            XG_CHECK(ev.ni_fail_type == PTL_NI_PT_DISABLED,
                     "message %d failed with %u", i, ev.ni_fail_type);
            failed++;
        }
    }
    return failed;
}

int main(void)
{
    ptl_handle_eq_t teq, small_eq;
    ptl_handle_me_t oh, ph;
    ptl_sr_value_t drops, drops0;
    ptl_pt_index_t pt;
    uint8_t obuf[64];
    ptl_event_t ev;
    ptl_md_t mdd;
    ptl_me_t me;
    int pending[NMSG], i, failed, seen, disabled;

    ptl_test_init(&env);
    right = (env.rank + 1) % env.npes;
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 64, &teq));
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 256, &ieq));
    PTL_EXPECT(PTL_PT_EQ_NEEDED,
               PtlPTAlloc(env.ni, PTL_PT_FLOWCTRL, PTL_EQ_NONE, PT, &pt));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, PTL_PT_FLOWCTRL, teq, PT, &pt));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = src;
    mdd.length    = sizeof(src);
    mdd.eq_handle = ieq;
    mdd.ct_handle = PTL_CT_NONE;
    mdd.options   = PTL_MD_EVENT_SEND_DISABLE;
    PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &md));

    /* 1. overflow exhaustion: one 64-byte overflow buffer, use-once */
    memset(&me, 0, sizeof(me));
    me.start     = obuf;
    me.length    = sizeof(obuf);
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    me.options   = PTL_ME_OP_PUT | PTL_ME_USE_ONCE | PTL_ME_EVENT_LINK_DISABLE;
    me.match_id.rank = PTL_RANK_ANY;
    me.ignore_bits   = ~0ull;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_OVERFLOW_LIST, NULL, &oh));
    /* (the barrier's start-up retries may have counted drops before) */
    PTL_OK_OR_DIE(PtlNIStatus(env.ni, PTL_SR_DROP_COUNT, &drops0));
    ptl_test_barrier(&env);
    for (i = 0; i < NMSG; i++) {
        pending[i] = 1;
    }
    failed = send_all(pending);
    XG_CHECK(failed == NMSG - 1, "%d failed, want %d", failed, NMSG - 1);
    ptl_test_barrier(&env);
    ptl_test_next(teq, PTL_EVENT_PUT, &ev);
    XG_CHECK(ev.ptl_list == PTL_OVERFLOW_LIST, "first went to overflow");
    ptl_test_next(teq, PTL_EVENT_AUTO_UNLINK, &ev);
    ptl_test_next(teq, PTL_EVENT_PT_DISABLED, &ev);
    XG_CHECK(ev.pt_index == PT && ev.ni_fail_type == PTL_NI_PT_DISABLED,
             "PT_DISABLED fields");
    ptl_test_none(teq);
    PTL_OK_OR_DIE(PtlNIStatus(env.ni, PTL_SR_DROP_COUNT, &drops));
    XG_CHECK(drops - drops0 == NMSG - 1, "drop count %lld",
             (long long)(drops - drops0));
    /* recover: a receive for everything, then enable */
    memset(&me, 0, sizeof(me));
    me.ct_handle     = PTL_CT_NONE;
    me.uid           = PTL_UID_ANY;
    me.options       = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE;
    me.match_id.rank = PTL_RANK_ANY;
    me.match_bits    = 5;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &ph));
    ptl_test_next(teq, PTL_EVENT_PUT_OVERFLOW, &ev); /* the first message */
    ptl_test_next(teq, PTL_EVENT_AUTO_FREE, &ev);    /* its buffer */
    PTL_OK_OR_DIE(PtlPTEnable(env.ni, PT));
    ptl_test_barrier(&env);
    failed = send_all(pending);
    XG_CHECK(failed == 0, "%d failed after recovery", failed);
    ptl_test_barrier(&env);
    for (i = 0; i < NMSG - 1; i++) {
        ptl_test_next(teq, PTL_EVENT_PUT, &ev);
    }
    ptl_test_none(teq);
    PTL_OK_OR_DIE(PtlMEUnlink(ph));
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    ptl_test_barrier(&env);

    /* 2. a full event queue: the index disables before losing events */
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 4, &small_eq));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, PTL_PT_FLOWCTRL, small_eq, PT, &pt));
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &ph));
    ptl_test_barrier(&env);
    for (i = 0; i < NMSG; i++) {
        pending[i] = 1;
    }
    failed = send_all(pending);
    ptl_test_barrier(&env);
    XG_CHECK((failed > 0) && (failed < NMSG), "%d of %d failed", failed, NMSG);
    /* every message is either an event here or a failure there */
    seen = disabled = 0;
    while (PtlEQGet(small_eq, &ev) == PTL_OK) {
        if (ev.type == PTL_EVENT_PUT) {
            seen++;
        } else {
            XG_CHECK(ev.type == PTL_EVENT_PT_DISABLED, "event %s",
                     ptl_test_ev(ev.type));
            disabled++;
        }
    }
    XG_CHECK(disabled == 1, "%d PT_DISABLED events", disabled);
    XG_CHECK(seen + failed == NMSG, "%d delivered + %d failed != %d", seen,
             failed, NMSG);
    ptl_test_barrier(&env);
    PTL_OK_OR_DIE(PtlPTEnable(env.ni, PT));
    ptl_test_barrier(&env);
    while (send_all(pending) > 0) {
        /* drain as the target would, then retry what failed */
        ptl_test_barrier(&env);
        while (PtlEQGet(small_eq, &ev) == PTL_OK) {
        }
        PTL_OK_OR_DIE(PtlPTEnable(env.ni, PT));
        ptl_test_barrier(&env);
    }
    ptl_test_barrier(&env);
    PTL_OK_OR_DIE(PtlMEUnlink(ph));
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    ptl_test_barrier(&env);

    /* 3. disabled by hand */
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, teq, PT, &pt));
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &ph));
    PTL_OK_OR_DIE(PtlPTDisable(env.ni, PT));
    ptl_test_barrier(&env);
    for (i = 0; i < NMSG; i++) {
        pending[i] = (i < 2);
    }
    XG_CHECK(send_all(pending) == 2, "disabled portal accepted a message");
    ptl_test_barrier(&env);
    ptl_test_none(teq); /* PtlPTDisable posts no event */
    PTL_OK_OR_DIE(PtlPTEnable(env.ni, PT));
    ptl_test_barrier(&env);
    XG_CHECK(send_all(pending) == 0, "enabled portal refused a message");
    ptl_test_barrier(&env);
    PTL_OK_OR_DIE(PtlMEUnlink(ph));
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlEQFree(teq));
    PTL_OK_OR_DIE(PtlEQFree(small_eq));
    PTL_OK_OR_DIE(PtlEQFree(ieq));
    ptl_test_fini(&env);
    return 0;
}
