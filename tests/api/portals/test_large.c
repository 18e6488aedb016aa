/*
 * Large messages and the protocols: puts above XGAS_NIC_EAGER_LIMIT go by
 * rendezvous (the target pulls the payload: by a triggered get, or a plain
 * one with XGAS_NIC_RNDV=get), below it eagerly.  The test runs under
 * several settings (CMakeLists.txt) and checks what must hold in all:
 *  - expected large puts and gets deliver every byte, truncation included;
 *  - large puts that arrive unexpected never lose data: receives posted
 *    later (in reverse order) get every byte -- delivered straight into
 *    the receive (rendezvous: PTL_EVENT_PUT) or kept in the overflow
 *    buffer (eager: PTL_EVENT_PUT_OVERFLOW), both allowed by Portals;
 *  - a held message deleted by a search, and one that matches nothing,
 *    still complete at the initiator (SEND, then ACK).
 * Process r sends to process r+1.
 */
#include "ptl_test.h"

#define PT    25
#define BIG   (200u * 1024u)
#define NUNEX 3
#define OVF   (1u << 20)

static ptl_test_env_t env;
static ptl_handle_eq_t teq, ieq;
static ptl_handle_md_t md;
static int left, right;
static uint8_t *src, *rbuf[NUNEX + 1], *obuf;

static ptl_handle_me_t receive(uint64_t bits, uint8_t *buf, ptl_size_t len,
                               unsigned opts)
{
    ptl_handle_me_t h;
    ptl_me_t me;

    memset(&me, 0, sizeof(me));
    me.start     = buf;
    me.length    = len;
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    me.options =
        PTL_ME_OP_PUT | PTL_ME_OP_GET | PTL_ME_EVENT_LINK_DISABLE | opts;
    me.match_id.rank = (ptl_rank_t)left;
    me.match_bits    = bits;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST,
                              (void *)(uintptr_t)bits, &h));
    return h;
}

static void fill(uint64_t tag, ptl_size_t off, ptl_size_t len)
{
    ptl_size_t i;

    for (i = 0; i < len; i++) {
        src[off + i] = ptl_test_byte(tag, i);
    }
}

static void check(const uint8_t *buf, uint64_t tag, ptl_size_t len,
                  const char *what)
{
    ptl_size_t i;

    for (i = 0; i < len; i++) {
        XG_CHECK(buf[i] == ptl_test_byte(tag, i),
                 "%s: byte %llu of %llu "
                 "wrong",
                 what, (unsigned long long)i, (unsigned long long)len);
    }
}

/* Waits for the SEND and ACK of @n puts; returns the ACKs' fail types
 * or'ed. */
static unsigned complete(int n)
{
    ptl_event_t ev;
    unsigned fails = 0;
    int sends = 0, acks = 0;

    while ((sends < n) || (acks < n)) {
        PTL_OK_OR_DIE(PtlEQWait(ieq, &ev));
        if (ev.type == PTL_EVENT_SEND) {
            sends++;
        } else if (ev.type == PTL_EVENT_ACK) {
            acks++;
            fails |= 1u << ev.ni_fail_type;
        } else {
            XG_CHECK(0, "initiator event %s", ptl_test_ev(ev.type));
        }
    }
    return fails;
}

int main(void)
{
    ptl_handle_me_t h, oh, hs[NUNEX];
    ptl_event_t ev;
    ptl_md_t mdd;
    ptl_me_t me;
    int i;

    ptl_test_init(&env);
    left  = (env.rank + env.npes - 1) % env.npes;
    right = (env.rank + 1) % env.npes;
    src   = malloc(4 * BIG);
    obuf  = malloc(OVF);
    for (i = 0; i <= NUNEX; i++) {
        rbuf[i] = calloc(1, BIG + 64);
    }
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 64, &teq));
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 64, &ieq));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, teq, PT, &(ptl_pt_index_t){0}));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = src;
    mdd.length    = 4 * BIG;
    mdd.eq_handle = ieq;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &md));

    /* 1. expected: a large put, then a large get back */
    h = receive(1, rbuf[0], BIG + 64, 0);
    ptl_test_barrier(&env);
    fill(1, 0, BIG);
    PTL_OK_OR_DIE(PtlPut(md, 0, BIG, PTL_ACK_REQ, ptl_test_rank(right), PT, 1,
                         64, NULL, 0));
    XG_CHECK(complete(1) == 1u << PTL_NI_OK, "expected put failed");
    ptl_test_next(teq, PTL_EVENT_PUT, &ev);
    XG_CHECK(ev.mlength == BIG && ev.rlength == BIG, "put lengths");
    ptl_test_barrier(&env);
    check(rbuf[0] + 64, 1, BIG, "expected put");
    memset(src + BIG, 0, BIG);
    PTL_OK_OR_DIE(PtlGet(md, BIG, BIG, ptl_test_rank(right), PT, 1, 64, NULL));
    ptl_test_next(ieq, PTL_EVENT_REPLY, &ev);
    XG_CHECK(ev.mlength == BIG, "get length");
    check(src + BIG, 1, BIG, "large get");
    ptl_test_next(teq, PTL_EVENT_GET, &ev);
    PTL_OK_OR_DIE(PtlMEUnlink(h));
    ptl_test_barrier(&env);

    /* 2. truncated: a 100 KiB entry receives 200 KiB */
    memset(rbuf[0], 0, BIG + 64);
    h = receive(2, rbuf[0], BIG / 2, PTL_ME_USE_ONCE);
    ptl_test_barrier(&env);
    fill(2, 0, BIG);
    PTL_OK_OR_DIE(PtlPut(md, 0, BIG, PTL_ACK_REQ, ptl_test_rank(right), PT, 2,
                         0, NULL, 0));
    complete(1);
    ptl_test_next(teq, PTL_EVENT_PUT, &ev);
    XG_CHECK(ev.mlength == BIG / 2 && ev.rlength == BIG,
             "truncation: %llu "
             "of %llu",
             (unsigned long long)ev.mlength, (unsigned long long)ev.rlength);
    ptl_test_next(teq, PTL_EVENT_AUTO_UNLINK, &ev);
    ptl_test_barrier(&env);
    check(rbuf[0], 2, BIG / 2, "truncated put");
    XG_CHECK(rbuf[0][BIG / 2] == 0, "truncated put wrote past the entry");
    ptl_test_barrier(&env);

    /* 3. unexpected: three large puts before any receive */
    memset(&me, 0, sizeof(me));
    me.start     = obuf;
    me.length    = OVF;
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    me.options =
        PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL | PTL_ME_EVENT_LINK_DISABLE;
    me.match_id.rank = PTL_RANK_ANY;
    me.ignore_bits   = ~0ull;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_OVERFLOW_LIST, NULL, &oh));
    ptl_test_barrier(&env);
    for (i = 0; i < NUNEX; i++) {
        fill(10 + (uint64_t)i, (ptl_size_t)i * BIG, BIG);
        PTL_OK_OR_DIE(PtlPut(md, (ptl_size_t)i * BIG, BIG, PTL_ACK_REQ,
                             ptl_test_rank(right), PT, 10 + (uint64_t)i, 0,
                             NULL, 0));
    }
    /* (no waiting here: held rendezvous puts complete when received) */
    ptl_test_barrier(&env);
    for (i = 0; i < NUNEX; i++) {
        ptl_test_next(teq, PTL_EVENT_PUT, &ev);
        XG_CHECK(ev.ptl_list == PTL_OVERFLOW_LIST, "arrival on overflow");
    }
    /* (the peer's puts have all arrived: they are in our overflow list) */
    ptl_test_barrier(&env);
    for (i = NUNEX - 1; i >= 0; i--) {
        memset(rbuf[i], 0, BIG + 64);
        hs[i] = receive(10 + (uint64_t)i, rbuf[i], BIG, PTL_ME_USE_ONCE);
        PTL_OK_OR_DIE(PtlEQWait(teq, &ev));
        if (ev.type == PTL_EVENT_PUT_OVERFLOW) {
            /* kept in the overflow buffer: the receiver copies */
            XG_CHECK(ev.mlength == BIG, "overflow kept %llu bytes",
                     (unsigned long long)ev.mlength);
            memcpy(rbuf[i], ev.start, BIG);
        } else {
            /* held by the NIC and delivered into the receive */
            XG_CHECK(ev.type == PTL_EVENT_PUT, "event %s",
                     ptl_test_ev(ev.type));
            XG_CHECK(ev.ptl_list == PTL_PRIORITY_LIST && ev.mlength == BIG &&
                         ev.start == rbuf[i],
                     "delivery of a held message");
        }
        XG_CHECK(ev.match_bits == 10 + (uint64_t)i, "bits %llu",
                 (unsigned long long)ev.match_bits);
        ptl_test_next(teq, PTL_EVENT_AUTO_UNLINK, &ev);
        check(rbuf[i], 10 + (uint64_t)i, BIG, "unexpected large put");
    }
    XG_CHECK(complete(NUNEX) == 1u << PTL_NI_OK, "unexpected puts failed");
    ptl_test_barrier(&env);

    /* 4. a large put deleted by a search still completes */
    PTL_OK_OR_DIE(PtlPut(md, 0, BIG, PTL_ACK_REQ, ptl_test_rank(right), PT, 20,
                         0, NULL, 0));
    ptl_test_barrier(&env);
    ptl_test_next(teq, PTL_EVENT_PUT, &ev);
    memset(&me, 0, sizeof(me));
    me.ct_handle     = PTL_CT_NONE;
    me.uid           = PTL_UID_ANY;
    me.match_id.rank = PTL_RANK_ANY;
    me.match_bits    = 20;
    PTL_OK_OR_DIE(PtlMESearch(env.ni, PT, &me, PTL_SEARCH_DELETE, NULL));
    ptl_test_next(teq, PTL_EVENT_PUT_OVERFLOW, &ev);
    XG_CHECK(complete(1) == 1u << PTL_NI_OK, "deleted put failed");
    ptl_test_barrier(&env);
    PTL_OK_OR_DIE(PtlMEUnlink(oh));

    /* 5. a large put that matches nothing is dropped, and says so */
    ptl_test_barrier(&env);
    PTL_OK_OR_DIE(PtlPut(md, 0, BIG, PTL_ACK_REQ, ptl_test_rank(right), PT, 30,
                         0, NULL, 0));
    XG_CHECK(complete(1) == 1u << PTL_NI_DROPPED, "unmatched put");
    ptl_test_barrier(&env);
    ptl_test_none(teq);
    ptl_test_none(ieq);
    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    PTL_OK_OR_DIE(PtlEQFree(teq));
    PTL_OK_OR_DIE(PtlEQFree(ieq));
    ptl_test_fini(&env);
    for (i = 0; i <= NUNEX; i++) {
        free(rbuf[i]);
    }
    free(src);
    free(obuf);
    (void)hs;
    return 0;
}
