/*
 * Portals 4.1 details and the 4.3 additions the reference test suite uses:
 *  - an MD bound with start NULL and length PTL_SIZE_MAX (the whole address
 *    space) puts, gets and applies atomics from any address,
 *  - PTL_EVENT_REPLY says which list the entry was on (ptl_list),
 *  - a put from a PTL_MD_VOLATILE MD has its data copied before PtlPut
 *    returns; one longer than max_volatile_size is refused,
 *  - the fetch-atomic size check names max_fetch_atomic_size,
 *  - PTL_PT_MATCH_UNORDERED is accepted, bits outside the masks are not,
 *  - counting search (4.3): success counts the headers found, failure 1
 *    marks the end of the search (not for a use-once entry that found one),
 *  - PtlTriggeredMEAppend / PtlTriggeredMEUnlink,
 *  - PtlAbort (4.3): waits in progress and later ones return PTL_ABORTED,
 *    until the last PtlFini.
 * Each process talks to the next one (itself with one process).  The last
 * line on stderr, "conformance ok", is what CTest looks for (with the
 * fetch-atomic warning before it).
 */
#include <pthread.h>

#include "ptl_test.h"

#define PT_DATA   1
#define PT_SEARCH 2
#define PT_TRIG   3

static uint64_t target_buf[2048]; /* 16 KiB, exposed on PT_DATA */
static uint64_t overflow_buf[64];

static ptl_event_t wait_event(ptl_handle_eq_t eq, ptl_event_kind_t type)
{
    ptl_event_t ev;

    do {
        PTL_OK_OR_DIE(PtlEQWait(eq, &ev));
    } while (ev.type != type);
    return ev;
}

static void append(ptl_handle_ni_t ni, ptl_pt_index_t pt, void *start,
                   ptl_size_t length, ptl_match_bits_t bits, unsigned options,
                   ptl_handle_ct_t ct, ptl_list_t list, ptl_handle_me_t *meh)
{
    ptl_me_t me;

    memset(&me, 0, sizeof(me));
    me.start     = start;
    me.length    = length;
    me.ct_handle = ct;
    me.uid       = PTL_UID_ANY;
    me.options =
        PTL_ME_OP_PUT | PTL_ME_OP_GET | PTL_ME_EVENT_LINK_DISABLE | options;
    me.match_id.rank = PTL_RANK_ANY;
    me.match_bits    = bits;
    PTL_OK_OR_DIE(PtlMEAppend(ni, pt, &me, list, NULL, meh));
}

static void test_whole_address_space(ptl_test_env_t *env, ptl_handle_eq_t eq,
                                     int peer)
{
    static uint64_t src[4] = {11, 22, 33, 44};
    static uint64_t dst[4];
    static uint64_t add = 5;
    ptl_handle_md_t md;
    ptl_event_t ev;
    ptl_md_t mdd;

    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = NULL;
    mdd.length    = PTL_SIZE_MAX;
    mdd.eq_handle = eq;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_OK_OR_DIE(PtlMDBind(env->ni, &mdd, &md));
    /* local offsets are addresses */
    PTL_OK_OR_DIE(PtlPut(md, (ptl_size_t)(uintptr_t)src, sizeof(src),
                         PTL_ACK_REQ, ptl_test_rank(peer), PT_DATA, 0, 0, NULL,
                         0));
    ev = wait_event(eq, PTL_EVENT_ACK);
    XG_CHECK(ev.ni_fail_type == PTL_NI_OK, "put from address: fail %d",
             (int)ev.ni_fail_type);
    PTL_OK_OR_DIE(PtlAtomic(md, (ptl_size_t)(uintptr_t)&add, sizeof(add),
                            PTL_ACK_REQ, ptl_test_rank(peer), PT_DATA, 0, 0,
                            NULL, 0, PTL_SUM, PTL_UINT64_T));
    ev = wait_event(eq, PTL_EVENT_ACK);
    XG_CHECK(ev.ni_fail_type == PTL_NI_OK, "atomic from address: fail %d",
             (int)ev.ni_fail_type);
    ptl_test_barrier(env);
    PTL_OK_OR_DIE(PtlGet(md, (ptl_size_t)(uintptr_t)dst, sizeof(dst),
                         ptl_test_rank(peer), PT_DATA, 0, 0, NULL));
    ev = wait_event(eq, PTL_EVENT_REPLY);
    XG_CHECK(ev.ni_fail_type == PTL_NI_OK && ev.start == (void *)dst,
             "get into address: fail %d start %p (want %p)",
             (int)ev.ni_fail_type, ev.start, (void *)dst);
    XG_CHECK(ev.ptl_list == PTL_PRIORITY_LIST, "REPLY ptl_list %d",
             (int)ev.ptl_list);
    XG_CHECK(dst[0] == 16 && dst[1] == 22 && dst[3] == 44,
             "data through the whole-address-space MD: %llu %llu %llu",
             (unsigned long long)dst[0], (unsigned long long)dst[1],
             (unsigned long long)dst[3]);
    PTL_OK_OR_DIE(PtlMDRelease(md));
    ptl_test_barrier(env);
}

static void test_reply_overflow_list(ptl_test_env_t *env, ptl_handle_md_t md,
                                     ptl_handle_eq_t eq, int peer)
{
    ptl_handle_me_t meh;
    ptl_event_t ev;

    /* an overflow entry answers a get too: REPLY names that list */
    append(env->ni, PT_DATA, overflow_buf, sizeof(overflow_buf), 77, 0,
           PTL_CT_NONE, PTL_OVERFLOW_LIST, &meh);
    ptl_test_barrier(env);
    PTL_OK_OR_DIE(PtlGet(md, 0, 8, ptl_test_rank(peer), PT_DATA, 77, 0, NULL));
    ev = wait_event(eq, PTL_EVENT_REPLY);
    XG_CHECK(ev.ni_fail_type == PTL_NI_OK && ev.ptl_list == PTL_OVERFLOW_LIST,
             "REPLY from an overflow entry: fail %d ptl_list %d",
             (int)ev.ni_fail_type, (int)ev.ptl_list);
    ptl_test_barrier(env);
    PTL_OK_OR_DIE(PtlMEUnlink(meh));
}

static void test_volatile(ptl_test_env_t *env, ptl_handle_eq_t eq, int peer,
                          ptl_size_t max_volatile)
{
    static uint8_t vbuf[16384 + 8];
    ptl_handle_md_t md;
    ptl_event_t ev;
    ptl_md_t mdd;
    ptl_size_t i;
    const uint8_t *landed = (const uint8_t *)target_buf;

    XG_CHECK(max_volatile + 1 <= sizeof(vbuf) &&
                 max_volatile <= sizeof(target_buf),
             "max_volatile_size %llu", (unsigned long long)max_volatile);
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = vbuf;
    mdd.length    = sizeof(vbuf);
    mdd.options   = PTL_MD_VOLATILE;
    mdd.eq_handle = eq;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_OK_OR_DIE(PtlMDBind(env->ni, &mdd, &md));
    memset(vbuf, 0xa5, sizeof(vbuf));
    PTL_OK_OR_DIE(PtlPut(md, 0, max_volatile, PTL_ACK_REQ, ptl_test_rank(peer),
                         PT_DATA, 0, 0, NULL, 0));
    memset(vbuf, 0x5a, sizeof(vbuf)); /* reusable once PtlPut returned */
    ev = wait_event(eq, PTL_EVENT_ACK);
    XG_CHECK(ev.ni_fail_type == PTL_NI_OK && ev.mlength == max_volatile,
             "volatile put: fail %d mlength %llu", (int)ev.ni_fail_type,
             (unsigned long long)ev.mlength);
    ptl_test_barrier(env);
    for (i = 0; i < max_volatile; i++) {
        XG_CHECK(landed[i] == 0xa5, "volatile put: byte %llu is %#x",
                 (unsigned long long)i, landed[i]);
    }
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlPut(md, 0, max_volatile + 1, PTL_ACK_REQ, ptl_test_rank(peer),
                      PT_DATA, 0, 0, NULL, 0));
    PTL_OK_OR_DIE(PtlMDRelease(md));
    ptl_test_barrier(env);
}

static void test_masks(ptl_test_env_t *env, int peer, ptl_size_t max_fetch)
{
    ptl_handle_md_t md;
    ptl_pt_index_t pt;
    ptl_md_t mdd;

    PTL_OK_OR_DIE(PtlPTAlloc(env->ni, PTL_PT_MATCH_UNORDERED, PTL_EQ_NONE,
                             PTL_PT_ANY, &pt));
    PTL_OK_OR_DIE(PtlPTFree(env->ni, pt));
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlPTAlloc(env->ni, ~(unsigned)PTL_PT_ALLOC_OPTIONS_MASK,
                          PTL_EQ_NONE, PTL_PT_ANY, &pt));
    /* the warning names the limit it checks (CTest looks for it) */
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = target_buf;
    mdd.length    = sizeof(target_buf);
    mdd.eq_handle = PTL_EQ_NONE;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_OK_OR_DIE(PtlMDBind(env->ni, &mdd, &md));
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlFetchAtomic(md, 0, md, 8192, max_fetch + 8,
                              ptl_test_rank(peer), PT_DATA, 0, 0, NULL, 0,
                              PTL_SUM, PTL_UINT64_T));
    PTL_OK_OR_DIE(PtlMDRelease(md));
}

static void test_counting_search(ptl_test_env_t *env, ptl_handle_md_t md)
{
    static const ptl_match_bits_t bits[3] = {55, 1, 55};
    ptl_handle_me_t over;
    ptl_handle_ct_t land, ct;
    ptl_ct_event_t c;
    ptl_me_t me;
    int i;

    PTL_OK_OR_DIE(PtlCTAlloc(env->ni, &land));
    PTL_OK_OR_DIE(PtlCTAlloc(env->ni, &ct));
    memset(&me, 0, sizeof(me));
    me.start     = overflow_buf;
    me.length    = sizeof(overflow_buf);
    me.ct_handle = land;
    me.uid       = PTL_UID_ANY;
    me.options   = PTL_ME_OP_PUT | PTL_ME_EVENT_CT_COMM | PTL_ME_MANAGE_LOCAL |
                 PTL_ME_EVENT_LINK_DISABLE;
    me.match_id.rank = PTL_RANK_ANY;
    me.ignore_bits   = ~(ptl_match_bits_t)0;
    PTL_OK_OR_DIE(
        PtlMEAppend(env->ni, PT_SEARCH, &me, PTL_OVERFLOW_LIST, NULL, &over));
    /* three unexpected messages to ourselves: 55, 1, 55 */
    for (i = 0; i < 3; i++) {
        PTL_OK_OR_DIE(PtlPut(md, 0, 8, PTL_NO_ACK_REQ, ptl_test_rank(env->rank),
                             PT_SEARCH, bits[i], 0, NULL, 0));
    }
    PTL_OK_OR_DIE(PtlCTWait(land, 3, &c));

    memset(&me, 0, sizeof(me));
    me.ct_handle     = ct;
    me.uid           = PTL_UID_ANY;
    me.match_id.rank = PTL_RANK_ANY;
    me.options       = PTL_ME_OP_PUT | PTL_ME_EVENT_CT_OVERFLOW;
    me.match_bits    = 55;
    PTL_OK_OR_DIE(PtlMESearch(env->ni, PT_SEARCH, &me, PTL_SEARCH_ONLY, NULL));
    PTL_OK_OR_DIE(PtlCTGet(ct, &c));
    XG_CHECK(c.success == 2 && c.failure == 1,
             "search-only 55: success %llu failure %llu (want 2, 1)",
             (unsigned long long)c.success, (unsigned long long)c.failure);
    PTL_OK_OR_DIE(PtlCTSet(ct, (ptl_ct_event_t){0, 0}));
    me.options |= PTL_ME_USE_ONCE;
    PTL_OK_OR_DIE(PtlMESearch(env->ni, PT_SEARCH, &me, PTL_SEARCH_ONLY, NULL));
    PTL_OK_OR_DIE(PtlCTGet(ct, &c));
    XG_CHECK(c.success == 1 && c.failure == 0,
             "use-once search-only 55: success %llu failure %llu (want 1, 0)",
             (unsigned long long)c.success, (unsigned long long)c.failure);
    PTL_OK_OR_DIE(PtlCTSet(ct, (ptl_ct_event_t){0, 0}));
    me.match_bits = 101;
    PTL_OK_OR_DIE(PtlMESearch(env->ni, PT_SEARCH, &me, PTL_SEARCH_ONLY, NULL));
    PTL_OK_OR_DIE(PtlCTGet(ct, &c));
    XG_CHECK(c.success == 0 && c.failure == 1,
             "use-once search-only 101: success %llu failure %llu (want 0, "
             "1)",
             (unsigned long long)c.success, (unsigned long long)c.failure);
    PTL_OK_OR_DIE(PtlCTSet(ct, (ptl_ct_event_t){0, 0}));
    me.options    = PTL_ME_OP_PUT | PTL_ME_EVENT_CT_OVERFLOW;
    me.match_bits = 55;
    PTL_OK_OR_DIE(
        PtlMESearch(env->ni, PT_SEARCH, &me, PTL_SEARCH_DELETE, NULL));
    PTL_OK_OR_DIE(PtlCTWait(ct, 3, &c));
    XG_CHECK(c.success == 2 && c.failure == 1,
             "search-delete 55: success %llu failure %llu (want 2, 1)",
             (unsigned long long)c.success, (unsigned long long)c.failure);
    PTL_OK_OR_DIE(PtlCTSet(ct, (ptl_ct_event_t){0, 0}));
    PTL_OK_OR_DIE(PtlMESearch(env->ni, PT_SEARCH, &me, PTL_SEARCH_ONLY, NULL));
    PTL_OK_OR_DIE(PtlCTGet(ct, &c));
    XG_CHECK(c.success == 0 && c.failure == 1, "after the delete: %llu %llu",
             (unsigned long long)c.success, (unsigned long long)c.failure);
    /* the one left (bits 1) goes too */
    me.ignore_bits = ~(ptl_match_bits_t)0;
    PTL_OK_OR_DIE(
        PtlMESearch(env->ni, PT_SEARCH, &me, PTL_SEARCH_DELETE, NULL));
    PTL_OK_OR_DIE(PtlMEUnlink(over));
    PTL_OK_OR_DIE(PtlCTFree(ct));
    PTL_OK_OR_DIE(PtlCTFree(land));
}

static void test_triggered_me(ptl_test_env_t *env, ptl_handle_md_t md,
                              ptl_handle_eq_t eq)
{
    static uint64_t slot;
    ptl_handle_ct_t trig;
    ptl_handle_me_t meh;
    ptl_event_t ev;
    ptl_me_t me;

    PTL_OK_OR_DIE(PtlCTAlloc(env->ni, &trig));
    memset(&me, 0, sizeof(me));
    me.start         = &slot;
    me.length        = sizeof(slot);
    me.ct_handle     = PTL_CT_NONE;
    me.uid           = PTL_UID_ANY;
    me.options       = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE;
    me.match_id.rank = PTL_RANK_ANY;
    me.match_bits    = 9;
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlTriggeredMEAppend(env->ni, PT_TRIG, &me, PTL_PRIORITY_LIST,
                                    NULL, &meh, PTL_CT_NONE, 1));
    PTL_OK_OR_DIE(PtlTriggeredMEAppend(env->ni, PT_TRIG, &me, PTL_PRIORITY_LIST,
                                       NULL, &meh, trig, 1));
    PTL_OK_OR_DIE(PtlTriggeredMEUnlink(meh, trig, 2));
    /* not appended yet: no match */
    PTL_OK_OR_DIE(PtlPut(md, 0, 8, PTL_ACK_REQ, ptl_test_rank(env->rank),
                         PT_TRIG, 9, 0, NULL, 0));
    ev = wait_event(eq, PTL_EVENT_ACK);
    XG_CHECK(ev.ni_fail_type != PTL_NI_OK, "matched before the trigger");
    PTL_OK_OR_DIE(PtlCTInc(trig, (ptl_ct_event_t){1, 0}));
    PTL_OK_OR_DIE(PtlPut(md, 0, 8, PTL_ACK_REQ, ptl_test_rank(env->rank),
                         PT_TRIG, 9, 0, NULL, 0));
    ev = wait_event(eq, PTL_EVENT_ACK);
    XG_CHECK(ev.ni_fail_type == PTL_NI_OK, "appended entry: fail %d",
             (int)ev.ni_fail_type);
    PTL_OK_OR_DIE(PtlCTInc(trig, (ptl_ct_event_t){1, 0}));
    PTL_OK_OR_DIE(PtlPut(md, 0, 8, PTL_ACK_REQ, ptl_test_rank(env->rank),
                         PT_TRIG, 9, 0, NULL, 0));
    ev = wait_event(eq, PTL_EVENT_ACK);
    XG_CHECK(ev.ni_fail_type != PTL_NI_OK, "matched after the unlink");
    PTL_EXPECT(PTL_ARG_INVALID, PtlMEUnlink(meh)); /* gone */
    /* a pending append dies with its counter */
    PTL_OK_OR_DIE(PtlTriggeredMEAppend(env->ni, PT_TRIG, &me, PTL_PRIORITY_LIST,
                                       NULL, &meh, trig, 100));
    PTL_OK_OR_DIE(PtlMEUnlink(meh)); /* before it fires: allowed */
    PTL_OK_OR_DIE(PtlTriggeredMEAppend(env->ni, PT_TRIG, &me, PTL_PRIORITY_LIST,
                                       NULL, &meh, trig, 100));
    PTL_OK_OR_DIE(PtlCTFree(trig));
    PTL_EXPECT(PTL_ARG_INVALID, PtlMEUnlink(meh));
}

typedef struct {
    ptl_handle_ct_t ct;
    ptl_handle_eq_t eq;
    int ct_rc, eq_rc;
} abort_arg_t;

static void *abort_waiter(void *p)
{
    abort_arg_t *a = p;
    ptl_event_t ev;
    unsigned which;

    a->ct_rc = PtlCTWait(a->ct, 1, NULL); /* never reached */
    a->eq_rc = PtlEQPoll(&a->eq, 1, PTL_TIME_FOREVER, &ev, &which);
    return NULL;
}

static void test_abort(ptl_handle_ni_t ni)
{
    abort_arg_t a;
    pthread_t thread;
    ptl_ct_event_t c;
    ptl_event_t ev;

    PTL_OK_OR_DIE(PtlCTAlloc(ni, &a.ct));
    PTL_OK_OR_DIE(PtlEQAlloc(ni, 4, &a.eq));
    XG_CHECK(pthread_create(&thread, NULL, abort_waiter, &a) == 0, "thread");
    PtlAbort(); /* the waiter is in its wait, or gets there later */
    pthread_join(thread, NULL);
    XG_CHECK(a.ct_rc == PTL_ABORTED && a.eq_rc == PTL_ABORTED,
             "waits after PtlAbort returned %s, %s", ptl_test_rc(a.ct_rc),
             ptl_test_rc(a.eq_rc));
    PTL_EXPECT(PTL_ABORTED, PtlCTWait(a.ct, 0, &c));
    PTL_EXPECT(PTL_EQ_EMPTY, PtlEQGet(a.eq, &ev)); /* not a wait */
    PTL_OK_OR_DIE(PtlCTFree(a.ct));
    PTL_OK_OR_DIE(PtlEQFree(a.eq));
}

int main(void)
{
    ptl_test_env_t env;
    ptl_handle_ni_t ni;
    ptl_ni_limits_t got;
    ptl_handle_me_t data_me;
    ptl_handle_md_t md;
    ptl_handle_eq_t eq, pt_eq;
    ptl_handle_ct_t ct;
    ptl_ct_event_t c;
    ptl_pt_index_t pt;
    ptl_md_t mdd;
    int peer;

    ptl_test_init(&env);
    peer = (env.rank + 1) % env.npes;
    PTL_OK_OR_DIE(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_LOGICAL,
                            PTL_PID_ANY, NULL, &got,
                            &ni)); /* the same NI: its limits */
    PTL_OK_OR_DIE(PtlNIFini(ni));
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 256, &eq));
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 256, &pt_eq));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, pt_eq, PT_DATA, &pt));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, PTL_EQ_NONE, PT_SEARCH, &pt));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, PTL_EQ_NONE, PT_TRIG, &pt));
    target_buf[0] = 0;
    append(env.ni, PT_DATA, target_buf, sizeof(target_buf), 0,
           PTL_ME_EVENT_COMM_DISABLE, PTL_CT_NONE, PTL_PRIORITY_LIST, &data_me);
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = overflow_buf;
    mdd.length    = sizeof(overflow_buf);
    mdd.eq_handle = eq;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &md));
    ptl_test_barrier(&env);

    test_whole_address_space(&env, eq, peer);
    test_volatile(&env, eq, peer, got.max_volatile_size);
    test_masks(&env, peer, got.max_fetch_atomic_size);
    test_counting_search(&env, md);
    test_triggered_me(&env, md, eq);
    PTL_OK_OR_DIE(PtlMEUnlink(data_me));
    test_reply_overflow_list(&env, md, eq, peer);
    ptl_test_barrier(&env);

    /* PtlAbort ends the waits of this process until its last PtlFini, so
     * it comes last (the peers' barrier is over) */
    test_abort(env.ni);
    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlNIFini(env.ni));
    PtlFini();
    /* a new life waits normally again */
    PTL_OK_OR_DIE(PtlInit());
    PTL_OK_OR_DIE(PtlNIInit(PTL_IFACE_DEFAULT,
                            PTL_NI_NO_MATCHING | PTL_NI_PHYSICAL, PTL_PID_ANY,
                            NULL, NULL, &ni));
    PTL_OK_OR_DIE(PtlCTAlloc(ni, &ct));
    PTL_OK_OR_DIE(PtlCTInc(ct, (ptl_ct_event_t){1, 0}));
    PTL_OK_OR_DIE(PtlCTWait(ct, 1, &c));
    PTL_OK_OR_DIE(PtlNIFini(ni));
    PtlFini();
    fprintf(stderr, "conformance ok\n");
    return 0;
}
