/*
 * Counting events and event queues through their API: get, set, increment
 * (success or failure, never both), wait, poll over several counters with
 * and without a timeout; event queues that overflow (the oldest events are
 * lost and the next PtlEQGet says PTL_EQ_DROPPED), PtlEQPoll over several
 * queues, timeouts, and handles used after being freed.  Timeouts are only
 * checked for their return code, never for their duration.
 */
#include "ptl_test.h"

#define PT 17

int main(void)
{
    ptl_test_env_t env;
    ptl_handle_ct_t ct[2];
    ptl_handle_eq_t small, eqs[2];
    ptl_handle_me_t h[6];
    ptl_ct_event_t v, inc;
    ptl_size_t tests[2];
    ptl_event_t ev;
    ptl_me_t me;
    unsigned which = 99;
    int i;

    ptl_test_init(&env);
    PTL_OK_OR_DIE(PtlCTAlloc(env.ni, &ct[0]));
    PTL_OK_OR_DIE(PtlCTAlloc(env.ni, &ct[1]));
    PTL_OK_OR_DIE(PtlCTGet(ct[0], &v));
    XG_CHECK(v.success == 0 && v.failure == 0, "new counter not zero");
    v.success = 5;
    v.failure = 1;
    PTL_OK_OR_DIE(PtlCTSet(ct[0], v));
    inc.success = 3;
    inc.failure = 0;
    PTL_OK_OR_DIE(PtlCTInc(ct[0], inc));
    inc.success = 0;
    inc.failure = 2;
    PTL_OK_OR_DIE(PtlCTInc(ct[0], inc));
    inc.success = 1;
    PTL_EXPECT(PTL_ARG_INVALID, PtlCTInc(ct[0], inc));
    PTL_OK_OR_DIE(PtlCTGet(ct[0], &v));
    XG_CHECK(v.success == 8 && v.failure == 3, "counter %llu/%llu",
             (unsigned long long)v.success, (unsigned long long)v.failure);
    PTL_OK_OR_DIE(PtlCTWait(ct[0], 11, &v));
    tests[0] = 100;
    tests[1] = 0;
    PTL_OK_OR_DIE(PtlCTPoll(ct, tests, 2, PTL_TIME_FOREVER, &v, &which));
    XG_CHECK(which == 1, "poll picked %u", which);
    tests[1] = 1;
    PTL_EXPECT(PTL_CT_NONE_REACHED, PtlCTPoll(ct, tests, 2, 0, &v, &which));
    PTL_EXPECT(PTL_CT_NONE_REACHED, PtlCTPoll(ct, tests, 2, 5, &v, &which));
    PTL_EXPECT(PTL_ARG_INVALID, PtlCTPoll(ct, tests, 0, 0, &v, &which));
    PTL_OK_OR_DIE(PtlCTFree(ct[1]));
    PTL_EXPECT(PTL_ARG_INVALID, PtlCTGet(ct[1], &v));
    PTL_EXPECT(PTL_ARG_INVALID, PtlCTPoll(ct, tests, 2, 0, &v, &which));
    PTL_EXPECT(PTL_ARG_INVALID, PtlCTFree(ct[1]));

    /* an event queue for 4 events gets 6: the 2 oldest are lost */
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 4, &small));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, small, PT, &(ptl_pt_index_t){0}));
    memset(&me, 0, sizeof(me));
    me.ct_handle     = PTL_CT_NONE;
    me.uid           = PTL_UID_ANY;
    me.options       = PTL_ME_OP_PUT;
    me.match_id.rank = PTL_RANK_ANY;
    for (i = 0; i < 6; i++) {
        me.match_bits = (uint64_t)i;
        PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST,
                                  (void *)(intptr_t)i, &h[i]));
    }
    PTL_EXPECT(PTL_EQ_DROPPED, PtlEQGet(small, &ev));
    XG_CHECK(ev.type == PTL_EVENT_LINK && ev.user_ptr == (void *)2,
             "first kept event is for entry %d", (int)(intptr_t)ev.user_ptr);
    for (i = 3; i < 6; i++) {
        PTL_OK_OR_DIE(PtlEQGet(small, &ev));
        XG_CHECK(ev.user_ptr == (void *)(intptr_t)i, "event order");
    }
    PTL_EXPECT(PTL_EQ_EMPTY, PtlEQGet(small, &ev));
    for (i = 0; i < 6; i++) {
        PTL_OK_OR_DIE(PtlMEUnlink(h[i]));
    }
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));

    /* polling two queues: the event is on the second */
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 8, &eqs[0]));
    eqs[1] = small;
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, small, PT, &(ptl_pt_index_t){0}));
    PTL_EXPECT(PTL_EQ_EMPTY, PtlEQPoll(eqs, 2, 0, &ev, &which));
    PTL_EXPECT(PTL_EQ_EMPTY, PtlEQPoll(eqs, 2, 5, &ev, &which));
    PTL_OK_OR_DIE(
        PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, (void *)42, &h[0]));
    PTL_OK_OR_DIE(PtlEQPoll(eqs, 2, PTL_TIME_FOREVER, &ev, &which));
    XG_CHECK(which == 1 && ev.user_ptr == (void *)42, "poll which %u", which);
    PTL_EXPECT(PTL_ARG_INVALID, PtlEQPoll(eqs, 0, 0, &ev, &which));
    PTL_OK_OR_DIE(PtlMEUnlink(h[0]));
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    PTL_OK_OR_DIE(PtlEQFree(eqs[0]));
    PTL_EXPECT(PTL_ARG_INVALID, PtlEQGet(eqs[0], &ev));
    PTL_EXPECT(PTL_ARG_INVALID, PtlEQFree(eqs[0]));
    PTL_OK_OR_DIE(PtlEQFree(small));
    PTL_OK_OR_DIE(PtlCTFree(ct[0]));
    ptl_test_fini(&env);
    return 0;
}
