/*
 * Non-matching NIs (list entries, the first entry takes every message) and
 * physical addressing (nid: the node, pid: the rank among the node's
 * processes -- as the logical NI's default map says; nid 0, pid = rank on
 * one node), next to a logical matching NI:
 * PtlLEAppend, PtlLESearch, PtlLEUnlink, the overflow list of LEs, the
 * rule that LEs belong to non-matching NIs and MEs to matching ones, and
 * PtlSetMap / PtlGetMap on a logical NI (a reversed map).
 */
#include "ptl_test.h"

#define PT 3

int main(void)
{
    ptl_test_env_t env;
    ptl_handle_ni_t pni, lni;
    ptl_handle_eq_t eq;
    ptl_handle_md_t md;
    ptl_handle_le_t l0, l1, lo;
    ptl_process_t id, target, *map, *phys;
    ptl_size_t size;
    ptl_event_t ev;
    ptl_md_t mdd;
    ptl_le_t le;
    ptl_me_t me;
    uint8_t a[32], b[32], o[64], src[16];
    int right, r;

    ptl_test_init(&env);
    right = (env.rank + 1) % env.npes;
    /* every rank's physical id: the logical NI's default map */
    phys = calloc((size_t)env.npes, sizeof(*phys));
    XG_CHECK(phys != NULL, "calloc");
    PTL_OK_OR_DIE(PtlGetMap(env.ni, (ptl_size_t)env.npes, phys, &size));
    if (env.npes <= 4) {
        /* one node, or virtual nodes of consecutive ranks */
        for (r = 0; r < env.npes; r++) {
            XG_CHECK((phys[r].phys.nid != 0) ||
                         (phys[r].phys.pid == (ptl_pid_t)r),
                     "rank %d on node 0 is pid %u", r, phys[r].phys.pid);
        }
    }
    PTL_OK_OR_DIE(PtlNIInit(PTL_IFACE_DEFAULT,
                            PTL_NI_NO_MATCHING | PTL_NI_PHYSICAL, PTL_PID_ANY,
                            NULL, NULL, &pni));
    PTL_OK_OR_DIE(PtlGetId(pni, &id));
    XG_CHECK(id.phys.nid == phys[env.rank].phys.nid &&
                 id.phys.pid == phys[env.rank].phys.pid,
             "physical id %u/%u", id.phys.nid, id.phys.pid);
    PTL_OK_OR_DIE(PtlEQAlloc(pni, 64, &eq));
    PTL_OK_OR_DIE(PtlPTAlloc(pni, 0, eq, PT, &(ptl_pt_index_t){0}));
    memset(&le, 0, sizeof(le));
    le.length    = 32;
    le.ct_handle = PTL_CT_NONE;
    le.uid       = PTL_UID_ANY;
    le.options   = PTL_LE_OP_PUT | PTL_LE_USE_ONCE;
    le.start     = a;
    PTL_OK_OR_DIE(PtlLEAppend(pni, PT, &le, PTL_PRIORITY_LIST, (void *)1, &l0));
    ptl_test_next(eq, PTL_EVENT_LINK, &ev);
    le.start   = b;
    le.options = PTL_LE_OP_PUT;
    PTL_OK_OR_DIE(PtlLEAppend(pni, PT, &le, PTL_PRIORITY_LIST, (void *)2, &l1));
    ptl_test_next(eq, PTL_EVENT_LINK, &ev);
    /* MEs do not go on a non-matching NI, LEs not on a matching one */
    memset(&me, 0, sizeof(me));
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlMEAppend(pni, PT, &me, PTL_PRIORITY_LIST, NULL, &lo));
    PTL_EXPECT(PTL_ARG_INVALID, PtlLEAppend(env.ni, PTL_TEST_BARRIER_PT, &le,
                                            PTL_PRIORITY_LIST, NULL, &lo));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = src;
    mdd.length    = sizeof(src);
    mdd.eq_handle = PTL_EQ_NONE;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_OK_OR_DIE(PtlMDBind(pni, &mdd, &md));
    memset(src, 0x5a, sizeof(src));
    ptl_test_barrier(&env);
    target = phys[right];
    /* match bits are ignored by non-matching NIs; the first entry takes
     * the first message (and, used once, goes), the second the next */
    PTL_OK_OR_DIE(
        PtlPut(md, 0, 16, PTL_NO_ACK_REQ, target, PT, 12345, 0, NULL, 7));
    PTL_OK_OR_DIE(
        PtlPut(md, 0, 16, PTL_NO_ACK_REQ, target, PT, 999, 4, NULL, 8));
    ptl_test_next(eq, PTL_EVENT_PUT, &ev);
    XG_CHECK(ev.user_ptr == (void *)1 && ev.hdr_data == 7, "first LE");
    r = (env.rank + env.npes - 1) % env.npes;
    XG_CHECK(ev.initiator.phys.pid == phys[r].phys.pid &&
                 ev.initiator.phys.nid == phys[r].phys.nid,
             "physical initiator");
    ptl_test_next(eq, PTL_EVENT_AUTO_UNLINK, &ev);
    ptl_test_next(eq, PTL_EVENT_PUT, &ev);
    XG_CHECK(ev.user_ptr == (void *)2 && ev.hdr_data == 8 && ev.start == b + 4,
             "second LE");
    ptl_test_barrier(&env);
    XG_CHECK(a[0] == 0x5a && b[4] == 0x5a, "LE data");
    PTL_EXPECT(PTL_ARG_INVALID, PtlLEUnlink(l0)); /* used up */
    PTL_OK_OR_DIE(PtlLEUnlink(l1));
    /* an overflow LE, then a search and an append that takes it */
    le.start   = o;
    le.length  = sizeof(o);
    le.options = PTL_LE_OP_PUT;
    PTL_OK_OR_DIE(PtlLEAppend(pni, PT, &le, PTL_OVERFLOW_LIST, (void *)3, &lo));
    ptl_test_next(eq, PTL_EVENT_LINK, &ev);
    ptl_test_barrier(&env);
    PTL_OK_OR_DIE(PtlPut(md, 0, 16, PTL_NO_ACK_REQ, target, PT, 0, 0, NULL, 9));
    ptl_test_next(eq, PTL_EVENT_PUT, &ev);
    XG_CHECK(ev.ptl_list == PTL_OVERFLOW_LIST, "overflow LE");
    le.start   = a;
    le.length  = 32;
    le.options = PTL_LE_OP_PUT | PTL_LE_USE_ONCE;
    PTL_OK_OR_DIE(PtlLESearch(pni, PT, &le, PTL_SEARCH_ONLY, (void *)4));
    ptl_test_next(eq, PTL_EVENT_SEARCH, &ev);
    XG_CHECK(ev.ni_fail_type == PTL_NI_OK && ev.hdr_data == 9, "LE search");
    PTL_OK_OR_DIE(PtlLEAppend(pni, PT, &le, PTL_PRIORITY_LIST, (void *)5, &l0));
    ptl_test_next(eq, PTL_EVENT_PUT_OVERFLOW, &ev);
    XG_CHECK(ev.user_ptr == (void *)5 && ev.hdr_data == 9, "LE overflow");
    ptl_test_next(eq, PTL_EVENT_AUTO_UNLINK, &ev);
    PTL_OK_OR_DIE(PtlLESearch(pni, PT, &le, PTL_SEARCH_DELETE, (void *)6));
    ptl_test_next(eq, PTL_EVENT_SEARCH, &ev);
    XG_CHECK(ev.ni_fail_type == PTL_NI_NO_MATCH, "nothing left");
    PTL_OK_OR_DIE(PtlLEUnlink(lo));
    ptl_test_barrier(&env);
    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlPTFree(pni, PT));
    PTL_OK_OR_DIE(PtlEQFree(eq));

    /* a logical non-matching NI with a reversed map */
    PTL_OK_OR_DIE(PtlNIInit(PTL_IFACE_DEFAULT,
                            PTL_NI_NO_MATCHING | PTL_NI_LOGICAL, PTL_PID_ANY,
                            NULL, NULL, &lni));
    PTL_OK_OR_DIE(PtlGetMap(lni, 0, NULL, &size));
    XG_CHECK(size == (ptl_size_t)env.npes, "map size %llu",
             (unsigned long long)size);
    map = calloc((size_t)env.npes, sizeof(*map));
    for (r = 0; r < env.npes; r++) {
        map[r] = phys[env.npes - 1 - r];
    }
    PTL_OK_OR_DIE(PtlSetMap(lni, (ptl_size_t)env.npes, map));
    memset(map, 0xff, (size_t)env.npes * sizeof(*map));
    PTL_OK_OR_DIE(PtlGetMap(lni, (ptl_size_t)env.npes, map, &size));
    XG_CHECK(map[0].phys.pid == phys[env.npes - 1].phys.pid &&
                 map[0].phys.nid == phys[env.npes - 1].phys.nid,
             "map copy");
    PTL_OK_OR_DIE(PtlGetId(lni, &id));
    XG_CHECK(id.rank == (ptl_rank_t)(env.npes - 1 - env.rank),
             "rank under the map %u", id.rank);
    map[0].phys.nid = 0;
    map[0].phys.pid = (ptl_pid_t)env.npes; /* not in the job */
    PTL_EXPECT(PTL_ARG_INVALID, PtlSetMap(lni, (ptl_size_t)env.npes, map));
    PTL_EXPECT(PTL_ARG_INVALID, PtlSetMap(pni, 1, map)); /* physical NI */
    PTL_OK_OR_DIE(PtlEQAlloc(lni, 16, &eq));
    PTL_OK_OR_DIE(PtlPTAlloc(lni, 0, eq, PT, &(ptl_pt_index_t){0}));
    le.start   = a;
    le.options = PTL_LE_OP_PUT | PTL_LE_EVENT_LINK_DISABLE;
    PTL_OK_OR_DIE(PtlLEAppend(lni, PT, &le, PTL_PRIORITY_LIST, NULL, &l0));
    PTL_OK_OR_DIE(PtlMDBind(lni, &mdd, &md));
    ptl_test_barrier(&env);
    /* send to logical rank 0, which is the last process */
    PTL_OK_OR_DIE(PtlPut(md, 0, 8, PTL_NO_ACK_REQ, ptl_test_rank(0), PT, 0, 0,
                         NULL, (uint64_t)env.rank));
    if (env.rank == env.npes - 1) {
        for (r = 0; r < env.npes; r++) {
            ptl_test_next(eq, PTL_EVENT_PUT, &ev);
            XG_CHECK(ev.initiator.rank ==
                         (ptl_rank_t)(env.npes - 1 - (int)ev.hdr_data),
                     "initiator %u of process %llu under the map",
                     ev.initiator.rank, (unsigned long long)ev.hdr_data);
        }
    }
    ptl_test_barrier(&env);
    ptl_test_none(eq);
    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlLEUnlink(l0));
    PTL_OK_OR_DIE(PtlPTFree(lni, PT));
    PTL_OK_OR_DIE(PtlEQFree(eq));
    PTL_OK_OR_DIE(PtlNIFini(lni));
    PTL_OK_OR_DIE(PtlNIFini(pni));
    free(map);
    free(phys);
    ptl_test_fini(&env);
    return 0;
}
