/*
 * Triggered operations: release in threshold order (issue order for equal
 * thresholds), immediate release when the threshold is already reached,
 * chains of triggered counter increments, triggered counter sets,
 * cancellation, every triggered data operation, the limit on pending
 * operations, and a token passed around the ring of processes by
 * triggered puts alone -- no process's code touches it on the way.
 */
#include "ptl_test.h"

#define PT  19
#define RPT 20

static ptl_test_env_t env;
static ptl_handle_eq_t teq, ieq;
static ptl_handle_md_t md;
static int left, right;
static uint64_t src[64], dst[64];

static ptl_handle_ct_t ct_new(void)
{
    ptl_handle_ct_t ct;

    PTL_OK_OR_DIE(PtlCTAlloc(env.ni, &ct));
    return ct;
}

static void ct_inc(ptl_handle_ct_t ct, ptl_size_t n)
{
    ptl_ct_event_t inc = {n, 0};

    PTL_OK_OR_DIE(PtlCTInc(ct, inc));
}

static ptl_size_t ct_val(ptl_handle_ct_t ct)
{
    ptl_ct_event_t v;

    PTL_OK_OR_DIE(PtlCTGet(ct, &v));
    return v.success + v.failure;
}

static void tput(ptl_handle_ct_t ct, ptl_size_t thr, uint64_t tag)
{
    PTL_OK_OR_DIE(PtlTriggeredPut(md, 0, 8, PTL_NO_ACK_REQ,
                                  ptl_test_rank(right), PT, 1, 0, NULL, tag, ct,
                                  thr));
}

/* The tags of the next @n puts that reach us. */
static void expect_tags(const uint64_t *tags, int n)
{
    ptl_event_t ev;
    int i;

    for (i = 0; i < n; i++) {
        ptl_test_next(teq, PTL_EVENT_PUT, &ev);
        XG_CHECK(ev.hdr_data == tags[i], "put %d: tag %llu, want %llu", i,
                 (unsigned long long)ev.hdr_data, (unsigned long long)tags[i]);
    }
}

int main(void)
{
    ptl_handle_ct_t a, b, c, d, e, f, ring_ct;
    ptl_handle_me_t meh, ring_me;
    ptl_handle_ni_t pni;
    ptl_handle_md_t pmd;
    ptl_ni_limits_t want, got;
    ptl_ct_event_t v, val;
    ptl_event_t ev;
    ptl_md_t mdd;
    ptl_me_t me;
    uint64_t one = 1, cmp = 5;
    int i;

    ptl_test_init(&env);
    left  = (env.rank + env.npes - 1) % env.npes;
    right = (env.rank + 1) % env.npes;
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 256, &teq));
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 256, &ieq));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, teq, PT, &(ptl_pt_index_t){0}));
    memset(&me, 0, sizeof(me));
    me.start     = dst;
    me.length    = sizeof(dst);
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    me.options   = PTL_ME_OP_PUT | PTL_ME_OP_GET | PTL_ME_EVENT_LINK_DISABLE;
    me.match_id.rank = PTL_RANK_ANY;
    me.match_bits    = 1;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &meh));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = src;
    mdd.length    = sizeof(src);
    mdd.eq_handle = ieq;
    mdd.ct_handle = PTL_CT_NONE;
    mdd.options   = PTL_MD_EVENT_SEND_DISABLE;
    PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &md));
    ptl_test_barrier(&env);

    /* 1. threshold order, issue order on ties, all released at once */
    a = ct_new();
    tput(a, 3, 'A');
    tput(a, 1, 'B');
    tput(a, 2, 'C');
    tput(a, 2, 'D');
    XG_CHECK(ct_val(a) == 0, "counter moved");
    ct_inc(a, 1);
    ct_inc(a, 2);
    {
        static const uint64_t order[] = {'B', 'C', 'D', 'A'};

        expect_tags(order, 4);
    }
    /* 2. a threshold already reached releases at once */
    tput(a, 2, 'E');
    {
        static const uint64_t e_only[] = {'E'};

        expect_tags(e_only, 1);
    }
    /* 3. a chain a -> b -> c -> put, and 4. a triggered set */
    b = ct_new();
    c = ct_new();
    d = ct_new();
    PTL_OK_OR_DIE(PtlTriggeredCTInc(b, (ptl_ct_event_t){1, 0}, a, 4));
    PTL_OK_OR_DIE(PtlTriggeredCTInc(c, (ptl_ct_event_t){1, 0}, b, 1));
    tput(c, 1, 'F');
    PTL_OK_OR_DIE(PtlTriggeredCTSet(d, (ptl_ct_event_t){10, 2}, c, 1));
    XG_CHECK((ct_val(b) == 0) && (ct_val(c) == 0), "chain fired early");
    ct_inc(a, 1);
    {
        static const uint64_t f_only[] = {'F'};

        expect_tags(f_only, 1);
    }
    XG_CHECK((ct_val(b) == 1) && (ct_val(c) == 1), "chain counters");
    PTL_OK_OR_DIE(PtlCTGet(d, &val));
    XG_CHECK(val.success == 10 && val.failure == 2, "triggered set");
    /* 5. cancellation: nothing is sent, the MD is not held */
    e = ct_new();
    tput(e, 1, 'X');
    PTL_OK_OR_DIE(PtlCTCancelTriggered(e));
    ct_inc(e, 5);
    ptl_test_barrier(&env);
    ptl_test_none(teq);
    /* 6. every data operation, triggered together */
    f      = ct_new();
    src[8] = one;
    PTL_OK_OR_DIE(PtlTriggeredGet(md, 16 * 8, 8, ptl_test_rank(right), PT, 1, 0,
                                  (void *)1, f, 1));
    PTL_OK_OR_DIE(PtlTriggeredAtomic(md, 8 * 8, 8, PTL_ACK_REQ,
                                     ptl_test_rank(right), PT, 1, 8, (void *)2,
                                     0, PTL_SUM, PTL_UINT64_T, f, 2));
    PTL_OK_OR_DIE(PtlTriggeredFetchAtomic(
        md, 17 * 8, md, 8 * 8, 8, ptl_test_rank(right), PT, 1, 8, (void *)3, 0,
        PTL_SUM, PTL_UINT64_T, f, 3));
    src[9] = 77;
    PTL_OK_OR_DIE(PtlTriggeredSwap(md, 18 * 8, md, 9 * 8, 8,
                                   ptl_test_rank(right), PT, 1, 16, (void *)4,
                                   0, &cmp, PTL_CSWAP, PTL_UINT64_T, f, 4));
    ptl_test_barrier(&env);
    dst[1] = 0;
    dst[2] = 5;
    dst[0] = 1234;
    ptl_test_barrier(&env);
    ct_inc(f, 4);
    for (i = 0; i < 4; i++) {
        PTL_OK_OR_DIE(PtlEQWait(ieq, &ev));
        XG_CHECK(ev.ni_fail_type == PTL_NI_OK, "triggered op failed");
    }
    XG_CHECK(src[16] == 1234, "triggered get read %llu",
             (unsigned long long)src[16]);
    XG_CHECK(src[17] == 1, "triggered fetch saw %llu (after the atomic)",
             (unsigned long long)src[17]);
    XG_CHECK(src[18] == 5, "triggered swap saw %llu",
             (unsigned long long)src[18]);
    ptl_test_barrier(&env);
    XG_CHECK(dst[1] == 2 && dst[2] == 77,
             "target after triggered ops: "
             "%llu %llu",
             (unsigned long long)dst[1], (unsigned long long)dst[2]);
    while (PtlEQGet(teq, &ev) == PTL_OK) {
    }

    /* 7. a token around the ring, carried by triggered puts only */
    PTL_OK_OR_DIE(PtlCTAlloc(env.ni, &ring_ct));
    PTL_OK_OR_DIE(
        PtlPTAlloc(env.ni, 0, PTL_EQ_NONE, RPT, &(ptl_pt_index_t){0}));
    me.start     = NULL;
    me.length    = 0;
    me.ct_handle = ring_ct;
    me.options   = PTL_ME_OP_PUT | PTL_ME_EVENT_CT_COMM;
    PTL_OK_OR_DIE(
        PtlMEAppend(env.ni, RPT, &me, PTL_PRIORITY_LIST, NULL, &ring_me));
    if (env.rank != 0) {
        PTL_OK_OR_DIE(PtlTriggeredPut(md, 0, 0, PTL_NO_ACK_REQ,
                                      ptl_test_rank(right), RPT, 1, 0, NULL, 0,
                                      ring_ct, 1));
    }
    ptl_test_barrier(&env);
    if (env.rank == 0) {
        PTL_OK_OR_DIE(PtlPut(md, 0, 0, PTL_NO_ACK_REQ, ptl_test_rank(right),
                             RPT, 1, 0, NULL, 0));
    }
    PTL_OK_OR_DIE(PtlCTWait(ring_ct, 1, &v));
    XG_CHECK(v.success == 1 && v.failure == 0, "token count %llu",
             (unsigned long long)v.success);
    ptl_test_barrier(&env);

    /* 8. the pending-operation limit */
    memset(&want, 0, sizeof(want));
    want.max_triggered_ops = 2;
    PTL_OK_OR_DIE(PtlNIInit(PTL_IFACE_DEFAULT,
                            PTL_NI_MATCHING | PTL_NI_PHYSICAL, PTL_PID_ANY,
                            &want, &got, &pni));
    XG_CHECK(got.max_triggered_ops == 2, "limit %d", got.max_triggered_ops);
    {
        ptl_handle_ct_t g;
        ptl_process_t me_id;

        PTL_OK_OR_DIE(PtlGetPhysId(pni, &me_id));
        PTL_OK_OR_DIE(PtlCTAlloc(pni, &g));
        mdd.eq_handle = PTL_EQ_NONE;
        PTL_OK_OR_DIE(PtlMDBind(pni, &mdd, &pmd));
        PTL_OK_OR_DIE(PtlTriggeredPut(pmd, 0, 8, PTL_NO_ACK_REQ, me_id, 0, 0, 0,
                                      NULL, 0, g, 5));
        PTL_OK_OR_DIE(PtlTriggeredPut(pmd, 0, 8, PTL_NO_ACK_REQ, me_id, 0, 0, 0,
                                      NULL, 0, g, 5));
        PTL_EXPECT(PTL_NO_SPACE,
                   PtlTriggeredPut(pmd, 0, 8, PTL_NO_ACK_REQ, me_id, 0, 0, 0,
                                   NULL, 0, g, 5));
        PTL_EXPECT(PTL_IN_USE, PtlMDRelease(pmd));
        /* freeing the counter cancels its operations */
        PTL_OK_OR_DIE(PtlCTFree(g));
        PTL_OK_OR_DIE(PtlMDRelease(pmd));
        PTL_OK_OR_DIE(PtlNIFini(pni));
    }

    PTL_OK_OR_DIE(PtlMEUnlink(ring_me));
    PTL_OK_OR_DIE(PtlPTFree(env.ni, RPT));
    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlMEUnlink(meh));
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    PTL_OK_OR_DIE(PtlCTFree(a));
    PTL_OK_OR_DIE(PtlCTFree(b));
    PTL_OK_OR_DIE(PtlCTFree(c));
    PTL_OK_OR_DIE(PtlCTFree(d));
    PTL_OK_OR_DIE(PtlCTFree(e));
    PTL_OK_OR_DIE(PtlCTFree(f));
    PTL_OK_OR_DIE(PtlCTFree(ring_ct));
    PTL_OK_OR_DIE(PtlEQFree(teq));
    PTL_OK_OR_DIE(PtlEQFree(ieq));
    ptl_test_fini(&env);
    (void)left;
    return 0;
}
