/*
 * Unexpected messages and the overflow list: locally managed overflow
 * buffers that fill up (min_free, AUTO_UNLINK, AUTO_FREE once the last
 * header is consumed), PTL_ME_LOCAL_INC_UH_RLENGTH, the overflow events of
 * every operation kind (put, get, atomic, fetch), PtlMESearch with
 * PTL_SEARCH_ONLY (MPI_Probe) and PTL_SEARCH_DELETE, and the data an
 * overflow event points to.  Process r targets its right neighbour.
 */
#include "ptl_test.h"

#define PT   9
#define OBUF 64

static ptl_test_env_t env;
static ptl_handle_eq_t eq, ieq;
static ptl_handle_md_t md;
static uint8_t src[256], got[256];
static uint8_t obuf[2][OBUF];
static int left, right;

static void put(uint64_t bits, ptl_size_t off, ptl_size_t len, int tag)
{
    size_t i;

    for (i = 0; i < len; i++) {
        src[off + i] = ptl_test_byte((uint64_t)tag, i);
    }
    PTL_OK_OR_DIE(PtlPut(md, off, len, PTL_ACK_REQ, ptl_test_rank(right), PT,
                         bits, 0, (void *)(intptr_t)tag, (uint64_t)tag));
}

static void wait_acks(int n)
{
    ptl_event_t ev;

    while (n > 0) {
        PTL_OK_OR_DIE(PtlEQWait(ieq, &ev));
        if (ev.type == PTL_EVENT_ACK) {
            XG_CHECK(ev.ni_fail_type == PTL_NI_OK, "ack failed %u",
                     ev.ni_fail_type);
            n--;
        }
    }
}

static void overflow_entry(int which, ptl_size_t min_free, unsigned opts,
                           ptl_handle_me_t *h)
{
    ptl_me_t me;
    ptl_event_t ev;

    memset(&me, 0, sizeof(me));
    me.start     = obuf[which];
    me.length    = OBUF;
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    me.options   = PTL_ME_OP_PUT | PTL_ME_OP_GET | PTL_ME_MANAGE_LOCAL | opts;
    me.match_id.rank = PTL_RANK_ANY;
    me.ignore_bits   = ~0ull;
    me.min_free      = min_free;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_OVERFLOW_LIST,
                              (void *)(intptr_t)(100 + which), h));
    ptl_test_next(eq, PTL_EVENT_LINK, &ev);
}

static void receive(uint64_t bits, unsigned opts, void *uptr)
{
    ptl_me_t me;
    ptl_handle_me_t h;

    memset(&me, 0, sizeof(me));
    me.start         = got;
    me.length        = sizeof(got);
    me.ct_handle     = PTL_CT_NONE;
    me.uid           = PTL_UID_ANY;
    me.options       = PTL_ME_OP_PUT | PTL_ME_OP_GET | PTL_ME_USE_ONCE | opts;
    me.match_id.rank = (ptl_rank_t)left;
    me.match_bits    = bits;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, uptr, &h));
}

/* Overflow buffers fill, unlink at min_free, free when emptied. */
static void test_fill_and_free(void)
{
    ptl_handle_me_t o0, o1;
    ptl_event_t ev;
    size_t i;

    overflow_entry(0, 20, 0, &o0);
    overflow_entry(1, 0, 0, &o1);
    ptl_test_barrier(&env);
    /* 3 x 16 bytes go to o0 (48 used, 16 left < min_free 20: unlinked),
     * the fourth message lands in o1 */
    put(1, 0, 16, 1);
    put(2, 16, 16, 2);
    put(3, 32, 16, 3);
    put(4, 48, 16, 4);
    wait_acks(4);
    ptl_test_barrier(&env);
    for (i = 0; i < 3; i++) {
        ptl_test_next(eq, PTL_EVENT_PUT, &ev);
        XG_CHECK(ev.user_ptr == (void *)100, "message %zu not in o0", i);
        XG_CHECK(ev.ptl_list == PTL_OVERFLOW_LIST, "list");
        XG_CHECK(ev.start == obuf[0] + 16 * i, "start %p, want %p", ev.start,
                 (void *)(obuf[0] + 16 * i));
        XG_CHECK(ev.mlength == 16, "mlength");
    }
    ptl_test_next(eq, PTL_EVENT_AUTO_UNLINK, &ev);
    XG_CHECK(ev.user_ptr == (void *)100, "AUTO_UNLINK of o0");
    ptl_test_next(eq, PTL_EVENT_PUT, &ev);
    XG_CHECK(ev.user_ptr == (void *)101 && ev.start == obuf[1], "o1 put");
    ptl_test_none(eq);

    /* probe: finds message 2 without consuming it */
    {
        ptl_me_t me;

        memset(&me, 0, sizeof(me));
        me.ct_handle     = PTL_CT_NONE;
        me.uid           = PTL_UID_ANY;
        me.match_id.rank = PTL_RANK_ANY;
        me.match_bits    = 2;
        me.options       = PTL_ME_USE_ONCE;
        PTL_OK_OR_DIE(PtlMESearch(env.ni, PT, &me, PTL_SEARCH_ONLY, (void *)7));
        ptl_test_next(eq, PTL_EVENT_SEARCH, &ev);
        XG_CHECK(ev.ni_fail_type == PTL_NI_OK, "search found nothing");
        XG_CHECK(ev.user_ptr == (void *)7 && ev.match_bits == 2 &&
                     ev.rlength == 16 && ev.start == obuf[0] + 16 &&
                     ev.hdr_data == 2 && ev.initiator.rank == (ptl_rank_t)left,
                 "search fields");
        me.match_bits = 99;
        PTL_OK_OR_DIE(PtlMESearch(env.ni, PT, &me, PTL_SEARCH_ONLY, (void *)8));
        ptl_test_next(eq, PTL_EVENT_SEARCH, &ev);
        XG_CHECK(ev.ni_fail_type == PTL_NI_NO_MATCH && ev.user_ptr == (void *)8,
                 "search for nothing found something");
        /* delete message 3's header: overflow event, no data moved */
        me.match_bits = 3;
        PTL_OK_OR_DIE(
            PtlMESearch(env.ni, PT, &me, PTL_SEARCH_DELETE, (void *)9));
        ptl_test_next(eq, PTL_EVENT_PUT_OVERFLOW, &ev);
        XG_CHECK(ev.user_ptr == (void *)9 && ev.match_bits == 3,
                 "search-delete event");
    }
    /* receives for 1 and 2 consume o0's last headers: AUTO_FREE after */
    receive(1, 0, (void *)11);
    ptl_test_next(eq, PTL_EVENT_PUT_OVERFLOW, &ev);
    XG_CHECK(ev.user_ptr == (void *)11 && ev.start == obuf[0] &&
                 ev.mlength == 16 && ev.hdr_data == 1,
             "overflow event 1");
    for (i = 0; i < 16; i++) {
        XG_CHECK(((uint8_t *)ev.start)[i] == ptl_test_byte(1, i),
                 "overflow data byte %zu", i);
    }
    ptl_test_next(eq, PTL_EVENT_AUTO_UNLINK, &ev);
    ptl_test_none(eq);
    receive(2, 0, (void *)12);
    ptl_test_next(eq, PTL_EVENT_PUT_OVERFLOW, &ev);
    XG_CHECK(ev.user_ptr == (void *)12 && ev.start == obuf[0] + 16,
             "overflow event 2");
    /* its last header consumed, o0 is free before the receive unlinks */
    ptl_test_next(eq, PTL_EVENT_AUTO_FREE, &ev);
    XG_CHECK(ev.user_ptr == (void *)100, "AUTO_FREE of o0");
    ptl_test_next(eq, PTL_EVENT_AUTO_UNLINK, &ev);
    XG_CHECK(ev.user_ptr == (void *)12, "AUTO_UNLINK of the receive");
    receive(4, 0, (void *)14);
    ptl_test_next(eq, PTL_EVENT_PUT_OVERFLOW, &ev);
    ptl_test_next(eq, PTL_EVENT_AUTO_UNLINK, &ev);
    ptl_test_none(eq);
    PTL_EXPECT(PTL_ARG_INVALID, PtlMEUnlink(o0)); /* auto-unlinked */
    PTL_OK_OR_DIE(PtlMEUnlink(o1));
    ptl_test_barrier(&env);
}

/* Gets and atomics that arrive unexpected: their overflow events. */
static void test_other_kinds(void)
{
    ptl_handle_me_t o0;
    ptl_event_t ev;
    uint64_t one = 1, old = 0;

    overflow_entry(0, 0, 0, &o0);
    memset(obuf[0], 0, OBUF);
    ptl_test_barrier(&env);
    memcpy(src, &one, sizeof(one));
    PTL_OK_OR_DIE(
        PtlGet(md, 128, 8, ptl_test_rank(right), PT, 21, 0, (void *)21));
    ptl_test_next(ieq, PTL_EVENT_REPLY, &ev);
    PTL_OK_OR_DIE(PtlAtomic(md, 0, 8, PTL_ACK_REQ, ptl_test_rank(right), PT, 22,
                            0, (void *)22, 0, PTL_SUM, PTL_UINT64_T));
    ptl_test_next(ieq, PTL_EVENT_SEND, &ev);
    ptl_test_next(ieq, PTL_EVENT_ACK, &ev);
    PTL_OK_OR_DIE(PtlFetchAtomic(md, 136, md, 0, 8, ptl_test_rank(right), PT,
                                 23, 0, (void *)23, 0, PTL_SUM, PTL_UINT64_T));
    ptl_test_next(ieq, PTL_EVENT_SEND, &ev);
    ptl_test_next(ieq, PTL_EVENT_REPLY, &ev);
    memcpy(&old, src + 136, 8);
    /* locally managed: get at 0, atomic at 8, fetch at 16 */
    XG_CHECK(old == 0, "fetch saw %llu, want 0", (unsigned long long)old);
    ptl_test_barrier(&env);
    memcpy(&old, obuf[0] + 8, 8);
    XG_CHECK(old == 1, "atomic left %llu", (unsigned long long)old);
    memcpy(&old, obuf[0] + 16, 8);
    XG_CHECK(old == 1, "fetch-atomic left %llu", (unsigned long long)old);
    ptl_test_next(eq, PTL_EVENT_GET, &ev);
    XG_CHECK(ev.ptl_list == PTL_OVERFLOW_LIST, "get on overflow");
    ptl_test_next(eq, PTL_EVENT_ATOMIC, &ev);
    XG_CHECK(ev.atomic_operation == PTL_SUM && ev.atomic_type == PTL_UINT64_T,
             "atomic event fields");
    ptl_test_next(eq, PTL_EVENT_FETCH_ATOMIC, &ev);
    receive(21, 0, (void *)31);
    ptl_test_next(eq, PTL_EVENT_GET_OVERFLOW, &ev);
    XG_CHECK(ev.user_ptr == (void *)31 && ev.mlength == 8, "get overflow");
    ptl_test_next(eq, PTL_EVENT_AUTO_UNLINK, &ev);
    receive(22, 0, (void *)32);
    ptl_test_next(eq, PTL_EVENT_ATOMIC_OVERFLOW, &ev);
    XG_CHECK(ev.atomic_operation == PTL_SUM, "atomic overflow op");
    ptl_test_next(eq, PTL_EVENT_AUTO_UNLINK, &ev);
    receive(23, 0, (void *)33);
    ptl_test_next(eq, PTL_EVENT_FETCH_ATOMIC_OVERFLOW, &ev);
    ptl_test_next(eq, PTL_EVENT_AUTO_UNLINK, &ev);
    ptl_test_none(eq);
    PTL_OK_OR_DIE(PtlMEUnlink(o0));
    ptl_test_barrier(&env);
}

/* Local offsets advance by rlength with LOCAL_INC_UH_RLENGTH. */
static void test_inc_rlength(void)
{
    ptl_handle_me_t o0, t0;
    ptl_event_t ev;
    ptl_me_t me;

    /* a zero-length overflow entry: messages are truncated to 0 bytes */
    memset(&me, 0, sizeof(me));
    me.start     = obuf[0];
    me.length    = 0;
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    me.options =
        PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL | PTL_ME_LOCAL_INC_UH_RLENGTH;
    me.match_id.rank = PTL_RANK_ANY;
    me.ignore_bits   = ~0ull;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_OVERFLOW_LIST, NULL, &o0));
    ptl_test_next(eq, PTL_EVENT_LINK, &ev);
    /* a priority entry whose local offset moves with each message */
    me.length      = 64;
    me.options     = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL;
    me.ignore_bits = 0;
    me.match_bits  = 40;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &t0));
    ptl_test_next(eq, PTL_EVENT_LINK, &ev);
    ptl_test_barrier(&env);
    put(41, 0, 10, 41);
    put(40, 0, 10, 42);
    put(40, 0, 10, 43);
    wait_acks(3);
    ptl_test_barrier(&env);
    ptl_test_next(eq, PTL_EVENT_PUT, &ev);
    XG_CHECK(ev.mlength == 0 && ev.rlength == 10, "truncated to 0");
    ptl_test_next(eq, PTL_EVENT_PUT, &ev);
    XG_CHECK(ev.start == obuf[0], "first local offset");
    ptl_test_next(eq, PTL_EVENT_PUT, &ev);
    XG_CHECK(ev.start == obuf[0] + 10, "second local offset: %p", ev.start);
    XG_CHECK(memcmp(obuf[0] + 10, src, 10) == 0, "data at local offset");
    PTL_OK_OR_DIE(PtlMEUnlink(t0));
    PTL_OK_OR_DIE(PtlMEUnlink(o0));
    {
        ptl_me_t all;

        memset(&all, 0, sizeof(all));
        all.ct_handle     = PTL_CT_NONE;
        all.uid           = PTL_UID_ANY;
        all.match_id.rank = PTL_RANK_ANY;
        all.ignore_bits   = ~0ull;
        PTL_OK_OR_DIE(PtlMESearch(env.ni, PT, &all, PTL_SEARCH_DELETE, NULL));
        ptl_test_next(eq, PTL_EVENT_PUT_OVERFLOW, &ev);
        XG_CHECK(ev.mlength == 0 && ev.rlength == 10, "header kept");
    }
    ptl_test_none(eq);
    ptl_test_barrier(&env);
}

int main(void)
{
    ptl_md_t mdd;

    ptl_test_init(&env);
    left  = (env.rank + env.npes - 1) % env.npes;
    right = (env.rank + 1) % env.npes;
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 128, &eq));
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 128, &ieq));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, eq, PT, &(ptl_pt_index_t){0}));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = src;
    mdd.length    = sizeof(src);
    mdd.eq_handle = ieq;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &md));
    ptl_test_barrier(&env);
    test_fill_and_free();
    test_other_kinds();
    test_inc_rlength();
    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    PTL_OK_OR_DIE(PtlEQFree(eq));
    PTL_OK_OR_DIE(PtlEQFree(ieq));
    ptl_test_fini(&env);
    return 0;
}
