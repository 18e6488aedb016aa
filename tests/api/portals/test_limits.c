/*
 * Resource limits and argument errors: every object limit (entries, MDs,
 * counters, event queues, list length, portal indexes) ends in the
 * documented return code, bounds and handle errors give PTL_ARG_INVALID,
 * objects in use refuse to go (PTL_IN_USE), and scatter/gather (PTL_IOVEC)
 * MDs and MEs move data across element boundaries with offsets.
 */
#include "ptl_test.h"

static void iovec_transfer(ptl_handle_ni_t ni)
{
    static uint8_t s0[5], s1[7], s2[20], d0[3], d1[9], d2[30];
    ptl_iovec_t siov[3] = {{s0, 5}, {s1, 7}, {s2, 20}};
    ptl_iovec_t diov[3] = {{d0, 3}, {d1, 9}, {d2, 30}};
    uint8_t all_src[32], all_dst[42];
    ptl_handle_md_t md;
    ptl_handle_me_t meh;
    ptl_handle_eq_t eq;
    ptl_process_t id;
    ptl_event_t ev;
    ptl_md_t mdd;
    ptl_me_t me;
    int i;

    for (i = 0; i < 32; i++) {
        all_src[i] = (uint8_t)(i + 1);
    }
    memcpy(s0, all_src, 5);
    memcpy(s1, all_src + 5, 7);
    memcpy(s2, all_src + 12, 20);
    PTL_OK_OR_DIE(PtlEQAlloc(ni, 16, &eq));
    PTL_OK_OR_DIE(PtlPTAlloc(ni, 0, eq, 2, &(ptl_pt_index_t){0}));
    memset(&me, 0, sizeof(me));
    me.start     = diov;
    me.length    = 3;
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    me.options =
        PTL_IOVEC | PTL_ME_OP_PUT | PTL_ME_OP_GET | PTL_ME_EVENT_LINK_DISABLE;
    me.match_id.rank = PTL_RANK_ANY;
    PTL_OK_OR_DIE(PtlMEAppend(ni, 2, &me, PTL_PRIORITY_LIST, NULL, &meh));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = siov;
    mdd.length    = 3;
    mdd.options   = PTL_IOVEC;
    mdd.eq_handle = eq;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_OK_OR_DIE(PtlMDBind(ni, &mdd, &md));
    memset(siov, 0, sizeof(siov)); /* our copy was taken at bind time */
    PTL_OK_OR_DIE(PtlGetId(ni, &id));
    /* bytes 2..29 of the source into bytes 4..31 of the destination */
    PTL_OK_OR_DIE(PtlPut(md, 2, 28, PTL_ACK_REQ, id, 2, 0, 4, NULL, 0));
    /* one queue for both ends: the target's event precedes the ack */
    ptl_test_next(eq, PTL_EVENT_SEND, &ev);
    ptl_test_next(eq, PTL_EVENT_PUT, &ev);
    XG_CHECK(ev.mlength == 28 && ev.start == d1 + 1, "iovec put event");
    ptl_test_next(eq, PTL_EVENT_ACK, &ev);
    memcpy(all_dst, d0, 3);
    memcpy(all_dst + 3, d1, 9);
    memcpy(all_dst + 12, d2, 30);
    for (i = 0; i < 28; i++) {
        XG_CHECK(all_dst[4 + i] == all_src[2 + i], "iovec byte %d", i);
    }
    /* and back: a get of the same bytes into the start of the source */
    memset(s0, 0, 5);
    memset(s1, 0, 7);
    memset(s2, 0, 20);
    PTL_OK_OR_DIE(PtlGet(md, 0, 28, id, 2, 0, 4, NULL));
    ptl_test_next(eq, PTL_EVENT_GET, &ev);
    ptl_test_next(eq, PTL_EVENT_REPLY, &ev);
    memcpy(all_dst, s0, 5);
    memcpy(all_dst + 5, s1, 7);
    memcpy(all_dst + 12, s2, 20);
    for (i = 0; i < 28; i++) {
        XG_CHECK(all_dst[i] == all_src[2 + i], "iovec get byte %d", i);
    }
    /* a put past the end of an iovec MD is refused */
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlPut(md, 30, 3, PTL_NO_ACK_REQ, id, 2, 0, 0, NULL, 0));
    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlMEUnlink(meh));
    PTL_OK_OR_DIE(PtlPTFree(ni, 2));
    PTL_OK_OR_DIE(PtlEQFree(eq));
}

int main(void)
{
    ptl_test_env_t env;
    ptl_handle_ni_t ni;
    ptl_ni_limits_t want, got;
    ptl_handle_eq_t eqs[3];
    ptl_handle_ct_t cts[3];
    ptl_handle_md_t mds[3];
    ptl_handle_me_t mes[4];
    ptl_pt_index_t pt;
    ptl_process_t id;
    ptl_md_t mdd;
    ptl_me_t me;
    uint8_t buf[64];
    int i;

    ptl_test_init(&env);
    memset(&want, 0, sizeof(want));
    want.max_entries   = 3;
    want.max_mds       = 2;
    want.max_cts       = 2;
    want.max_eqs       = 2;
    want.max_list_size = 2;
    PTL_OK_OR_DIE(PtlNIInit(PTL_IFACE_DEFAULT,
                            PTL_NI_MATCHING | PTL_NI_PHYSICAL, PTL_PID_ANY,
                            &want, &got, &ni));
    PTL_OK_OR_DIE(PtlGetId(ni, &id));
    PTL_OK_OR_DIE(PtlEQAlloc(ni, 4, &eqs[0]));
    PTL_OK_OR_DIE(PtlEQAlloc(ni, 4, &eqs[1]));
    PTL_EXPECT(PTL_NO_SPACE, PtlEQAlloc(ni, 4, &eqs[2]));
    PTL_OK_OR_DIE(PtlCTAlloc(ni, &cts[0]));
    PTL_OK_OR_DIE(PtlCTAlloc(ni, &cts[1]));
    PTL_EXPECT(PTL_NO_SPACE, PtlCTAlloc(ni, &cts[2]));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = buf;
    mdd.length    = sizeof(buf);
    mdd.eq_handle = PTL_EQ_NONE;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_OK_OR_DIE(PtlMDBind(ni, &mdd, &mds[0]));
    PTL_OK_OR_DIE(PtlMDBind(ni, &mdd, &mds[1]));
    PTL_EXPECT(PTL_NO_SPACE, PtlMDBind(ni, &mdd, &mds[2]));
    /* bad descriptors */
    mdd.options = 1u << 30;
    PTL_EXPECT(PTL_ARG_INVALID, PtlMDBind(ni, &mdd, &mds[2]));
    mdd.options   = 0;
    mdd.eq_handle = cts[0];
    PTL_EXPECT(PTL_ARG_INVALID, PtlMDBind(ni, &mdd, &mds[2]));
    mdd.eq_handle = PTL_EQ_NONE;
    /* (a NULL start without PTL_IOVEC is address 0: the whole address
     * space with PTL_SIZE_MAX; a NULL iovec list is not valid) */
    mdd.start   = NULL;
    mdd.options = PTL_IOVEC;
    PTL_EXPECT(PTL_ARG_INVALID, PtlMDBind(ni, &mdd, &mds[2]));
    mdd.options = 0;
    mdd.length  = 64; /* NULL with a length: a missing buffer */
    PTL_EXPECT(PTL_ARG_INVALID, PtlMDBind(ni, &mdd, &mds[2]));
    mdd.length = sizeof(buf);
    mdd.start  = buf;
    /* portal indexes */
    PTL_OK_OR_DIE(PtlPTAlloc(ni, 0, PTL_EQ_NONE, PTL_PT_ANY, &pt));
    XG_CHECK(pt == 0, "first free index %u", pt);
    PTL_EXPECT(PTL_PT_IN_USE, PtlPTAlloc(ni, 0, PTL_EQ_NONE, 0, &pt));
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlPTAlloc(ni, 0, PTL_EQ_NONE,
                          (ptl_pt_index_t)got.max_pt_index + 1, &pt));
    PTL_EXPECT(PTL_ARG_INVALID, PtlPTAlloc(ni, 1u << 20, PTL_EQ_NONE, 1, &pt));
    for (i = 1; i <= got.max_pt_index; i++) {
        PTL_OK_OR_DIE(PtlPTAlloc(ni, 0, PTL_EQ_NONE, PTL_PT_ANY, &pt));
    }
    PTL_EXPECT(PTL_PT_FULL, PtlPTAlloc(ni, 0, PTL_EQ_NONE, PTL_PT_ANY, &pt));
    /* entries: list length 2, 3 in all */
    memset(&me, 0, sizeof(me));
    me.start             = buf;
    me.length            = sizeof(buf);
    me.ct_handle         = PTL_CT_NONE;
    me.uid               = PTL_UID_ANY;
    me.options           = PTL_ME_OP_PUT;
    me.match_id.phys.nid = PTL_NID_ANY;
    me.match_id.phys.pid = PTL_PID_ANY;
    PTL_OK_OR_DIE(PtlMEAppend(ni, 0, &me, PTL_PRIORITY_LIST, NULL, &mes[0]));
    PTL_OK_OR_DIE(PtlMEAppend(ni, 0, &me, PTL_PRIORITY_LIST, NULL, &mes[1]));
    PTL_EXPECT(PTL_LIST_TOO_LONG,
               PtlMEAppend(ni, 0, &me, PTL_PRIORITY_LIST, NULL, &mes[2]));
    PTL_OK_OR_DIE(PtlMEAppend(ni, 1, &me, PTL_PRIORITY_LIST, NULL, &mes[2]));
    PTL_EXPECT(PTL_NO_SPACE,
               PtlMEAppend(ni, 2, &me, PTL_PRIORITY_LIST, NULL, &mes[3]));
    PTL_EXPECT(PTL_ARG_INVALID, PtlMEAppend(ni, 2, &me, 7, NULL, &mes[3]));
    me.options = 1u << 30;
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlMEAppend(ni, 2, &me, PTL_PRIORITY_LIST, NULL, &mes[3]));
    me.options = PTL_ME_OP_PUT;
    /* a NULL start takes length 0 or PTL_SIZE_MAX only */
    me.start  = NULL;
    me.length = 64;
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlMEAppend(ni, 2, &me, PTL_PRIORITY_LIST, NULL, &mes[3]));
    me.start  = buf;
    me.length = sizeof(buf);
    PTL_EXPECT(PTL_IN_USE, PtlPTFree(ni, 0));
    /* bounds and handles of data operations */
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlPut(mds[0], 60, 5, PTL_NO_ACK_REQ, id, 0, 0, 0, NULL, 0));
    PTL_EXPECT(PTL_ARG_INVALID, PtlPut(mds[0], 0, 8, 9, id, 0, 0, 0, NULL, 0));
    PTL_EXPECT(PTL_ARG_INVALID, PtlPut(PTL_INVALID_HANDLE, 0, 8, PTL_NO_ACK_REQ,
                                       id, 0, 0, 0, NULL, 0));
    id.phys.pid = (ptl_pid_t)env.npes; /* not a process of the job */
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlPut(mds[0], 0, 8, PTL_NO_ACK_REQ, id, 0, 0, 0, NULL, 0));
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlTriggeredPut(mds[0], 0, 8, PTL_NO_ACK_REQ, id, 0, 0, 0, NULL,
                               0, PTL_CT_NONE, 1));
    PTL_OK_OR_DIE(PtlGetId(ni, &id));
    /* an MD in use by a pending triggered put cannot go */
    PTL_OK_OR_DIE(PtlTriggeredPut(mds[0], 0, 8, PTL_NO_ACK_REQ, id, 0, 0, 0,
                                  NULL, 0, cts[0], 1));
    PTL_EXPECT(PTL_IN_USE, PtlMDRelease(mds[0]));
    PTL_OK_OR_DIE(PtlCTCancelTriggered(cts[0]));
    PTL_OK_OR_DIE(PtlMDRelease(mds[0]));
    PTL_EXPECT(PTL_ARG_INVALID, PtlMDRelease(mds[0]));
    PTL_OK_OR_DIE(PtlMDRelease(mds[1]));
    for (i = 0; i < 3; i++) {
        PTL_OK_OR_DIE(PtlMEUnlink(mes[i]));
    }
    PTL_EXPECT(PTL_ARG_INVALID, PtlMEUnlink(mes[0]));
    for (i = 0; i <= got.max_pt_index; i++) {
        PTL_OK_OR_DIE(PtlPTFree(ni, (ptl_pt_index_t)i));
    }
    PTL_EXPECT(PTL_ARG_INVALID, PtlPTFree(ni, 0));
    PTL_OK_OR_DIE(PtlCTFree(cts[0]));
    PTL_OK_OR_DIE(PtlCTFree(cts[1]));
    PTL_OK_OR_DIE(PtlEQFree(eqs[0]));
    PTL_OK_OR_DIE(PtlEQFree(eqs[1]));
    PTL_OK_OR_DIE(PtlNIFini(ni));
    iovec_transfer(env.ni);
    ptl_test_fini(&env);
    PTL_EXPECT(PTL_NO_INIT,
               PtlPut(mds[0], 0, 8, PTL_NO_ACK_REQ, id, 0, 0, 0, NULL, 0));
    return 0;
}
