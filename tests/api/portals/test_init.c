/*
 * Initialization and network interfaces: PtlInit/PtlFini reference counts
 * (and PTL_NO_INIT outside them), the four NI kinds open at once, repeated
 * PtlNIInit returning the same handle, desired limits lowered to what is
 * supported, PtlNIHandle for every object kind, PtlHandleIsEqual, process
 * ids, pids, option errors, and bundles (operations issued inside a bundle
 * complete once it ends).
 */
#include "ptl_test.h"

int main(void)
{
    static const unsigned kinds[4] = {PTL_NI_MATCHING | PTL_NI_LOGICAL,
                                      PTL_NI_NO_MATCHING | PTL_NI_LOGICAL,
                                      PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                                      PTL_NI_NO_MATCHING | PTL_NI_PHYSICAL};
    ptl_handle_ni_t ni[4], again, nih;
    ptl_ni_limits_t want, got;
    ptl_handle_eq_t eq;
    ptl_handle_ct_t ct;
    ptl_handle_md_t md;
    ptl_handle_me_t meh;
    ptl_process_t id;
    ptl_sr_value_t v;
    ptl_ct_event_t cv;
    ptl_md_t mdd;
    ptl_me_t me;
    uint8_t buf[64];
    ptl_test_env_t env;
    int i, rank;

    /* nothing works before PtlInit */
    PTL_EXPECT(PTL_NO_INIT, PtlNIInit(PTL_IFACE_DEFAULT, kinds[0], PTL_PID_ANY,
                                      NULL, NULL, &ni[0]));
    PTL_EXPECT(PTL_NO_INIT, PtlCTAlloc(0, &ct));
    PTL_EXPECT(PTL_NO_INIT, PtlEQGet(0, NULL));
    XG_CHECK(PtlHandleIsEqual(PTL_INVALID_HANDLE, PTL_INVALID_HANDLE),
             "invalid handles differ");
    PTL_OK_OR_DIE(PtlInit());
    PTL_OK_OR_DIE(PtlInit()); /* counted */
    PtlFini();
    PTL_EXPECT(PTL_ARG_INVALID, PtlCTAlloc(0, &ct)); /* still initialized */
    PtlFini();
    PTL_EXPECT(PTL_NO_INIT, PtlCTAlloc(0, &ct));
    ptl_test_init(&env);
    rank = env.rank;

    memset(&want, 0, sizeof(want));
    want.max_entries  = 10;
    want.max_pt_index = 5; /* a smaller table is honoured */
    want.max_cts      = 1000000000;
    for (i = 1; i < 4; i++) {
        PTL_OK_OR_DIE(PtlNIInit(PTL_IFACE_DEFAULT, kinds[i], PTL_PID_ANY, &want,
                                &got, &ni[i]));
        XG_CHECK(got.max_entries == 10 && got.max_pt_index == 5 &&
                     got.max_cts > 0 && got.max_cts < 1000000000,
                 "limits %d %d %d", got.max_entries, got.max_pt_index,
                 got.max_cts);
        XG_CHECK(got.max_waw_ordered_size >= 64 &&
                     got.max_war_ordered_size >= 8,
                 "ordered sizes");
    }
    ni[0] = env.ni;
    for (i = 0; i < 4; i++) {
        int j;

        for (j = 0; j < i; j++) {
            XG_CHECK(!PtlHandleIsEqual(ni[i], ni[j]), "NIs %d and %d", i, j);
        }
        PTL_OK_OR_DIE(PtlGetPhysId(ni[i], &id));
        XG_CHECK(id.phys.nid == 0 && id.phys.pid == (ptl_pid_t)rank, "phys id");
        PTL_OK_OR_DIE(PtlGetId(ni[i], &id));
        if (kinds[i] & PTL_NI_LOGICAL) {
            XG_CHECK(id.rank == (ptl_rank_t)rank, "logical id %u", id.rank);
        } else {
            XG_CHECK(id.phys.pid == (ptl_pid_t)rank, "physical id");
        }
        PTL_OK_OR_DIE(PtlNIStatus(ni[i], PTL_SR_OPERATION_VIOLATIONS, &v));
    }
    /* the same kind again: the same NI, limits unchanged, counted */
    PTL_OK_OR_DIE(PtlNIInit(PTL_IFACE_DEFAULT, kinds[1], (ptl_pid_t)rank, NULL,
                            &got, &again));
    XG_CHECK(PtlHandleIsEqual(again, ni[1]) && got.max_entries == 10,
             "second PtlNIInit");
    PTL_OK_OR_DIE(PtlNIFini(again));
    PTL_OK_OR_DIE(PtlNIHandle(ni[1], &nih));
    XG_CHECK(PtlHandleIsEqual(nih, ni[1]), "still open after one fini");
    /* bad arguments */
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlNIInit(PTL_IFACE_DEFAULT,
                         PTL_NI_MATCHING | PTL_NI_NO_MATCHING | PTL_NI_LOGICAL,
                         PTL_PID_ANY, NULL, NULL, &nih));
    PTL_EXPECT(PTL_ARG_INVALID, PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING,
                                          PTL_PID_ANY, NULL, NULL, &nih));
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlNIInit(3, kinds[0], PTL_PID_ANY, NULL, NULL, &nih));
    PTL_EXPECT(PTL_PID_IN_USE,
               PtlNIInit(PTL_IFACE_DEFAULT, kinds[0], (ptl_pid_t)rank + 1000,
                         NULL, NULL, &nih));
    PTL_EXPECT(PTL_ARG_INVALID, PtlNIInit(PTL_IFACE_DEFAULT, kinds[0],
                                          PTL_PID_ANY, NULL, NULL, NULL));
    /* PtlNIHandle of every object kind */
    PTL_OK_OR_DIE(PtlEQAlloc(ni[2], 32, &eq));
    PTL_OK_OR_DIE(PtlCTAlloc(ni[2], &ct));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = buf;
    mdd.length    = sizeof(buf);
    mdd.eq_handle = eq;
    mdd.ct_handle = ct;
    mdd.options   = PTL_MD_EVENT_CT_SEND;
    PTL_OK_OR_DIE(PtlMDBind(ni[2], &mdd, &md));
    /* max_pt_index 5 was asked for: index 6 does not exist */
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlPTAlloc(ni[2], 0, eq, 6, &(ptl_pt_index_t){0}));
    PTL_OK_OR_DIE(PtlPTAlloc(ni[2], 0, eq, 4, &(ptl_pt_index_t){0}));
    memset(&me, 0, sizeof(me));
    me.start     = buf;
    me.length    = sizeof(buf);
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    me.options =
        PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE | PTL_ME_EVENT_COMM_DISABLE;
    me.match_id.phys.nid = PTL_NID_ANY;
    me.match_id.phys.pid = PTL_PID_ANY;
    PTL_OK_OR_DIE(PtlMEAppend(ni[2], 4, &me, PTL_PRIORITY_LIST, NULL, &meh));
    {
        ptl_handle_any_t objs[4] = {eq, ct, md, meh};

        for (i = 0; i < 4; i++) {
            PTL_OK_OR_DIE(PtlNIHandle(objs[i], &nih));
            XG_CHECK(PtlHandleIsEqual(nih, ni[2]), "NIHandle of object %d", i);
        }
    }
    PTL_EXPECT(PTL_ARG_INVALID, PtlNIHandle(PTL_INVALID_HANDLE, &nih));
    PTL_EXPECT(PTL_ARG_INVALID, PtlNIHandle(PTL_EQ_NONE, &nih));
    /* a bundle: ten puts to ourselves, counted once it ends */
    PTL_OK_OR_DIE(PtlGetPhysId(ni[2], &id));
    PTL_OK_OR_DIE(PtlStartBundle(ni[2]));
    PTL_OK_OR_DIE(PtlStartBundle(ni[2]));
    for (i = 0; i < 10; i++) {
        PTL_OK_OR_DIE(PtlPut(md, 0, 8, PTL_NO_ACK_REQ, id, 4, 0, 0, NULL, 0));
    }
    PTL_OK_OR_DIE(PtlEndBundle(ni[2]));
    PTL_OK_OR_DIE(PtlEndBundle(ni[2]));
    PTL_EXPECT(PTL_ARG_INVALID, PtlEndBundle(ni[2]));
    PTL_OK_OR_DIE(PtlCTWait(ct, 10, &cv));
    for (i = 0; i < 10; i++) {
        ptl_event_t ev;

        ptl_test_next(eq, PTL_EVENT_SEND, &ev);
    }
    PTL_OK_OR_DIE(PtlMEUnlink(meh));
    PTL_OK_OR_DIE(PtlPTFree(ni[2], 4));
    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlCTFree(ct));
    PTL_OK_OR_DIE(PtlEQFree(eq));
    for (i = 1; i < 4; i++) {
        PTL_OK_OR_DIE(PtlNIFini(ni[i]));
        PTL_EXPECT(PTL_ARG_INVALID, PtlNIFini(ni[i]));
    }
    /* a request for an NI its target has not opened is answered, with
     * PTL_NI_UNDELIVERABLE (the initiator may try again later); PE 0
     * keeps only the first NI open from here on */
    ptl_test_barrier(&env);
    if (rank == env.npes - 1) {
        ptl_event_t ev;
        ptl_process_t pe0;

        PTL_OK_OR_DIE(PtlNIInit(PTL_IFACE_DEFAULT, kinds[3], PTL_PID_ANY, NULL,
                                NULL, &ni[3]));
        PTL_OK_OR_DIE(PtlEQAlloc(ni[3], 16, &eq));
        memset(&mdd, 0, sizeof(mdd));
        mdd.start     = buf;
        mdd.length    = sizeof(buf);
        mdd.eq_handle = eq;
        mdd.ct_handle = PTL_CT_NONE;
        PTL_OK_OR_DIE(PtlMDBind(ni[3], &mdd, &md));
        memset(&pe0, 0, sizeof(pe0));
        if (kinds[3] & PTL_NI_LOGICAL) {
            pe0.rank = 0;
        } else {
            pe0.phys.nid = 0;
            pe0.phys.pid = 0;
        }
        if (rank != 0) {
            PTL_OK_OR_DIE(PtlPut(md, 0, 8, PTL_ACK_REQ, pe0, 0, 0, 0, NULL, 0));
            ptl_test_next(eq, PTL_EVENT_SEND, &ev);
            ptl_test_next(eq, PTL_EVENT_ACK, &ev);
            XG_CHECK(ev.ni_fail_type == PTL_NI_UNDELIVERABLE,
                     "put to a closed NI: fail type %u", ev.ni_fail_type);
            PTL_OK_OR_DIE(PtlGet(md, 0, 8, pe0, 0, 0, 0, NULL));
            ptl_test_next(eq, PTL_EVENT_REPLY, &ev);
            XG_CHECK(ev.ni_fail_type == PTL_NI_UNDELIVERABLE,
                     "get from a closed NI: fail type %u", ev.ni_fail_type);
        }
        PTL_OK_OR_DIE(PtlMDRelease(md));
        PTL_OK_OR_DIE(PtlEQFree(eq));
        PTL_OK_OR_DIE(PtlNIFini(ni[3]));
    }
    ptl_test_fini(&env);
    PTL_EXPECT(PTL_NO_INIT, PtlNIFini(ni[0]));
    /* a second life after PtlFini */
    ptl_test_init(&env);
    ptl_test_fini(&env);
    return 0;
}
