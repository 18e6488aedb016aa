/*
 * Access control on list entries: a message from a user (or, with
 * PTL_ME_AUTH_USE_JID, a job) the entry does not admit is dropped without
 * touching the entry's memory or posting an event, counted in
 * PTL_SR_PERMISSION_VIOLATIONS, and reported to the initiator as
 * PTL_NI_PERM_VIOLATION; an operation the entry does not enable (put
 * without PTL_ME_OP_PUT, get without PTL_ME_OP_GET, fetch without both)
 * likewise, as PTL_NI_OP_VIOLATION / PTL_SR_OPERATION_VIOLATIONS.
 */
#include "ptl_test.h"

#define PT 23

int main(void)
{
    ptl_test_env_t env;
    ptl_handle_eq_t teq, ieq;
    ptl_handle_md_t md;
    ptl_handle_me_t h[7];
    ptl_sr_value_t perm, ops;
    ptl_event_t ev;
    ptl_uid_t uid;
    ptl_jid_t jid;
    ptl_md_t mdd;
    ptl_me_t me;
    uint8_t tbuf[7][16], src[32];
    int right, i;
    static const struct {
        ptl_ni_fail_t fail; /* expected for the put */
    } want[7] = {{PTL_NI_PERM_VIOLATION},
                 {PTL_NI_OK},
                 {PTL_NI_PERM_VIOLATION},
                 {PTL_NI_OK},
                 {PTL_NI_OK},
                 {PTL_NI_OP_VIOLATION},
                 {PTL_NI_OK}};

    ptl_test_init(&env);
    right = (env.rank + 1) % env.npes;
    PTL_OK_OR_DIE(PtlGetUid(env.ni, &uid));
    PTL_OK_OR_DIE(PtlGetJid(env.ni, &jid));
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 64, &teq));
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 64, &ieq));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, teq, PT, &(ptl_pt_index_t){0}));
    memset(tbuf, 0, sizeof(tbuf));
    for (i = 0; i < 7; i++) {
        memset(&me, 0, sizeof(me));
        me.start     = tbuf[i];
        me.length    = 16;
        me.ct_handle = PTL_CT_NONE;
        me.options = PTL_ME_OP_PUT | PTL_ME_OP_GET | PTL_ME_EVENT_LINK_DISABLE;
        me.match_id.rank = PTL_RANK_ANY;
        me.match_bits    = (uint64_t)i;
        me.uid           = PTL_UID_ANY;
        me.jid           = PTL_JID_ANY;
        switch (i) {
        case 0: me.uid = uid + 1; break; /* other user */
        case 1: me.uid = uid; break;     /* this user */
        case 2:
            me.options |= PTL_ME_AUTH_USE_JID; /* other job */
            me.jid = jid + 1;
            break;
        case 3:
            me.options |= PTL_ME_AUTH_USE_JID; /* this job */
            me.jid = jid;
            me.uid = uid + 1;
            break;                                        /* (uid ignored) */
        case 4: me.options |= PTL_ME_AUTH_USE_JID; break; /* any job */
        case 5: me.options &= ~(unsigned)PTL_ME_OP_PUT; break;
        case 6: me.options &= ~(unsigned)PTL_ME_OP_GET; break;
        }
        PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST,
                                  (void *)(intptr_t)i, &h[i]));
    }
    memset(&mdd, 0, sizeof(mdd));
    memset(src, 0xab, sizeof(src));
    mdd.start     = src;
    mdd.length    = sizeof(src);
    mdd.eq_handle = ieq;
    mdd.ct_handle = PTL_CT_NONE;
    mdd.options   = PTL_MD_EVENT_SEND_DISABLE;
    PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &md));
    ptl_test_barrier(&env);

    for (i = 0; i < 7; i++) {
        PTL_OK_OR_DIE(PtlPut(md, 0, 16, PTL_ACK_REQ, ptl_test_rank(right), PT,
                             (uint64_t)i, 0, NULL, 0));
        ptl_test_next(ieq, PTL_EVENT_ACK, &ev);
        XG_CHECK(ev.ni_fail_type == want[i].fail,
                 "put to entry %d: fail type %u, want %u", i, ev.ni_fail_type,
                 want[i].fail);
    }
    /* a get from a put-only entry, a fetch from it */
    PTL_OK_OR_DIE(PtlGet(md, 16, 8, ptl_test_rank(right), PT, 6, 0, NULL));
    ptl_test_next(ieq, PTL_EVENT_REPLY, &ev);
    XG_CHECK(ev.ni_fail_type == PTL_NI_OP_VIOLATION, "get: %u",
             ev.ni_fail_type);
    PTL_OK_OR_DIE(PtlFetchAtomic(md, 16, md, 0, 8, ptl_test_rank(right), PT, 6,
                                 0, NULL, 0, PTL_SUM, PTL_UINT64_T));
    ptl_test_next(ieq, PTL_EVENT_REPLY, &ev);
    XG_CHECK(ev.ni_fail_type == PTL_NI_OP_VIOLATION, "fetch: %u",
             ev.ni_fail_type);
    ptl_test_barrier(&env);

    /* the target: events only for the admitted puts, memory untouched
     * otherwise, violations counted */
    for (i = 0; i < 7; i++) {
        if (want[i].fail == PTL_NI_OK) {
            ptl_test_next(teq, PTL_EVENT_PUT, &ev);
            XG_CHECK(ev.user_ptr == (void *)(intptr_t)i, "event for %d", i);
            XG_CHECK(ev.uid == uid && ev.jid == jid, "initiator ids");
            XG_CHECK(tbuf[i][0] == 0xab, "entry %d not written", i);
        } else {
            XG_CHECK(tbuf[i][0] == 0 && tbuf[i][15] == 0,
                     "entry %d written despite the violation", i);
        }
    }
    ptl_test_none(teq);
    PTL_OK_OR_DIE(PtlNIStatus(env.ni, PTL_SR_PERMISSION_VIOLATIONS, &perm));
    PTL_OK_OR_DIE(PtlNIStatus(env.ni, PTL_SR_OPERATION_VIOLATIONS, &ops));
    XG_CHECK(perm == 2 && ops == 3,
             "violations: %lld permission, %lld "
             "operation",
             (long long)perm, (long long)ops);
    PTL_EXPECT(PTL_ARG_INVALID, PtlNIStatus(env.ni, PTL_SR_LAST, &ops));
    ptl_test_barrier(&env);
    PTL_OK_OR_DIE(PtlMDRelease(md));
    for (i = 0; i < 7; i++) {
        PTL_OK_OR_DIE(PtlMEUnlink(h[i]));
    }
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    PTL_OK_OR_DIE(PtlEQFree(teq));
    PTL_OK_OR_DIE(PtlEQFree(ieq));
    ptl_test_fini(&env);
    return 0;
}
