/*
 * Acknowledgements and completion reporting: every ack type (PTL_ACK_REQ,
 * PTL_CT_ACK_REQ, PTL_OC_ACK_REQ, PTL_NO_ACK_REQ), for delivered and for
 * dropped messages; the MD options (SEND/SUCCESS disable, counting SEND,
 * ACK, REPLY, by events or bytes, remote failures disabled) and the entry
 * options (ACK disable, COMM/SUCCESS disable, counting comm events by
 * events or bytes).  At the end every MD must be releasable: no operation
 * may leave an MD in use.  Process r targets its right neighbour.
 */
#include "ptl_test.h"

#define PT 11

static ptl_test_env_t env;
static ptl_handle_eq_t teq, ieq;
static int right;

static ptl_handle_ct_t ct_alloc(void)
{
    ptl_handle_ct_t ct;

    PTL_OK_OR_DIE(PtlCTAlloc(env.ni, &ct));
    return ct;
}

static void ct_is(ptl_handle_ct_t ct, ptl_size_t s, ptl_size_t f,
                  const char *what)
{
    ptl_ct_event_t v;

    /* counters may trail the event that was waited for: wait for them */
    PTL_OK_OR_DIE(PtlCTWait(ct, s + f, &v));
    XG_CHECK((v.success == s) && (v.failure == f),
             "%s: counter %llu/%llu, want %llu/%llu", what,
             (unsigned long long)v.success, (unsigned long long)v.failure,
             (unsigned long long)s, (unsigned long long)f);
}

static ptl_handle_md_t md_bind(void *buf, unsigned opts, ptl_handle_eq_t eq,
                               ptl_handle_ct_t ct)
{
    ptl_handle_md_t md;
    ptl_md_t d;

    memset(&d, 0, sizeof(d));
    d.start     = buf;
    d.length    = 256;
    d.options   = opts;
    d.eq_handle = eq;
    d.ct_handle = ct;
    PTL_OK_OR_DIE(PtlMDBind(env.ni, &d, &md));
    return md;
}

static ptl_handle_me_t me_append(uint64_t bits, unsigned opts,
                                 ptl_handle_ct_t ct, void *buf)
{
    ptl_handle_me_t h;
    ptl_event_t ev;
    ptl_me_t me;

    memset(&me, 0, sizeof(me));
    me.start         = buf;
    me.length        = 256;
    me.ct_handle     = ct;
    me.uid           = PTL_UID_ANY;
    me.options       = PTL_ME_OP_PUT | PTL_ME_OP_GET | opts;
    me.match_id.rank = PTL_RANK_ANY;
    me.match_bits    = bits;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST,
                              (void *)(uintptr_t)bits, &h));
    ptl_test_next(teq, PTL_EVENT_LINK, &ev);
    return h;
}

static void put(ptl_handle_md_t md, ptl_size_t len, ptl_ack_req_t ack,
                uint64_t bits)
{
    PTL_OK_OR_DIE(PtlPut(md, 0, len, ack, ptl_test_rank(right), PT, bits, 0,
                         (void *)(uintptr_t)(1000 + bits), 0));
}

/* The initiator has seen its operation through: @ct reached @n. */
static void settle(ptl_handle_ct_t ct, ptl_size_t n)
{
    ptl_ct_event_t v;

    PTL_OK_OR_DIE(PtlCTWait(ct, n, &v));
}

int main(void)
{
    static uint8_t tbuf[6][256], ibuf[256];
    ptl_handle_ct_t tct_bytes, tct_quiet, ict, ict_bytes, ict_plain;
    ptl_handle_md_t md_eq, md_bytes, md_nosend, md_nosucc, md_rfd;
    ptl_handle_me_t h[5];
    ptl_sr_value_t drops, drops0;
    ptl_event_t ev;
    int i;

    ptl_test_init(&env);
    right = (env.rank + 1) % env.npes;
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 64, &teq));
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 64, &ieq));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, teq, PT, &(ptl_pt_index_t){0}));
    tct_bytes = ct_alloc();
    tct_quiet = ct_alloc();
    ict       = ct_alloc();
    ict_bytes = ct_alloc();
    ict_plain = ct_alloc();
    h[0] = me_append(1, PTL_ME_EVENT_CT_COMM | PTL_ME_EVENT_CT_BYTES, tct_bytes,
                     tbuf[0]);
    h[1] = me_append(2, PTL_ME_ACK_DISABLE, PTL_CT_NONE, tbuf[1]);
    h[2] = me_append(3, PTL_ME_EVENT_COMM_DISABLE | PTL_ME_EVENT_CT_COMM,
                     tct_quiet, tbuf[2]);
    h[3] = me_append(4, PTL_ME_EVENT_SUCCESS_DISABLE, PTL_CT_NONE, tbuf[3]);
    h[4] = me_append(5, 0, PTL_CT_NONE, tbuf[4]);
    md_eq     = md_bind(ibuf,
                        PTL_MD_EVENT_CT_SEND | PTL_MD_EVENT_CT_ACK |
                            PTL_MD_EVENT_CT_REPLY,
                        ieq, ict);
    md_bytes  = md_bind(ibuf,
                        PTL_MD_EVENT_CT_SEND | PTL_MD_EVENT_CT_ACK |
                            PTL_MD_EVENT_CT_BYTES,
                        ieq, ict_bytes);
    md_nosend = md_bind(ibuf, PTL_MD_EVENT_SEND_DISABLE | PTL_MD_EVENT_CT_ACK,
                        ieq, ict_plain);
    md_nosucc = md_bind(ibuf, PTL_MD_EVENT_SUCCESS_DISABLE, ieq, PTL_CT_NONE);
    md_rfd = md_bind(ibuf, PTL_MD_REMOTE_FAILURE_DISABLE | PTL_MD_EVENT_CT_SEND,
                     ieq, ict_plain);
    /* (the barrier's start-up retries may have counted drops before) */
    PTL_OK_OR_DIE(PtlNIStatus(env.ni, PTL_SR_DROP_COUNT, &drops0));
    ptl_test_barrier(&env);

    /* 1. full acknowledgement: SEND, ACK; counted by events */
    put(md_eq, 10, PTL_ACK_REQ, 1);
    ptl_test_next(ieq, PTL_EVENT_SEND, &ev);
    XG_CHECK(ev.user_ptr == (void *)1001 && ev.mlength == 10, "SEND");
    ptl_test_next(ieq, PTL_EVENT_ACK, &ev);
    XG_CHECK(ev.mlength == 10 && ev.ni_fail_type == PTL_NI_OK, "ACK");
    ct_is(ict, 2, 0, "ACK_REQ");
    /* 2. counting acknowledgement: no ACK event, counted */
    put(md_eq, 10, PTL_CT_ACK_REQ, 1);
    ptl_test_next(ieq, PTL_EVENT_SEND, &ev);
    ct_is(ict, 4, 0, "CT_ACK_REQ");
    /* 3. operation completed: counted as done although dropped */
    put(md_eq, 10, PTL_OC_ACK_REQ, 99);
    ptl_test_next(ieq, PTL_EVENT_SEND, &ev);
    ct_is(ict, 6, 0, "OC_ACK_REQ on a dropped message");
    /* 4. no acknowledgement */
    put(md_eq, 10, PTL_NO_ACK_REQ, 1);
    ptl_test_next(ieq, PTL_EVENT_SEND, &ev);
    ct_is(ict, 7, 0, "NO_ACK_REQ");
    /* 5. no acknowledgement, dropped: the failure is still reported */
    put(md_eq, 10, PTL_NO_ACK_REQ, 99);
    ptl_test_next(ieq, PTL_EVENT_SEND, &ev);
    ptl_test_next(ieq, PTL_EVENT_ACK, &ev);
    XG_CHECK(ev.ni_fail_type == PTL_NI_DROPPED, "failure report %u",
             ev.ni_fail_type);
    ct_is(ict, 8, 1, "NO_ACK_REQ dropped");
    /* 6. ... unless remote failures are disabled */
    put(md_rfd, 10, PTL_NO_ACK_REQ, 99);
    ptl_test_next(ieq, PTL_EVENT_SEND, &ev);
    settle(ict_plain, 1);
    /* 7. the entry disables acknowledgements */
    put(md_eq, 10, PTL_ACK_REQ, 2);
    ptl_test_next(ieq, PTL_EVENT_SEND, &ev);
    ct_is(ict, 9, 1, "ACK_DISABLE: SEND counted, no ACK");
    /* 8. counting bytes: SEND and ACK add 20 each */
    put(md_bytes, 20, PTL_ACK_REQ, 1);
    ptl_test_next(ieq, PTL_EVENT_SEND, &ev);
    ptl_test_next(ieq, PTL_EVENT_ACK, &ev);
    ct_is(ict_bytes, 40, 0, "bytes");
    /* 9. SEND disabled: only the ACK */
    put(md_nosend, 10, PTL_ACK_REQ, 1);
    ptl_test_next(ieq, PTL_EVENT_ACK, &ev);
    ct_is(ict_plain, 2, 0, "SEND_DISABLE");
    /* 10. success events disabled; failures still come */
    put(md_nosucc, 10, PTL_ACK_REQ, 1);
    put(md_nosucc, 10, PTL_ACK_REQ, 99);
    ptl_test_next(ieq, PTL_EVENT_ACK, &ev);
    XG_CHECK(ev.ni_fail_type == PTL_NI_DROPPED, "failure with "
                                                "SUCCESS_DISABLE");
    /* 11. quiet entries, 12. success-disabled entries: no target event;
     * 13. a get, counted as a REPLY */
    put(md_eq, 10, PTL_ACK_REQ, 3);
    ptl_test_next(ieq, PTL_EVENT_SEND, &ev);
    ptl_test_next(ieq, PTL_EVENT_ACK, &ev);
    put(md_eq, 10, PTL_ACK_REQ, 4);
    ptl_test_next(ieq, PTL_EVENT_SEND, &ev);
    ptl_test_next(ieq, PTL_EVENT_ACK, &ev);
    PTL_OK_OR_DIE(
        PtlGet(md_eq, 0, 16, ptl_test_rank(right), PT, 5, 0, (void *)77));
    ptl_test_next(ieq, PTL_EVENT_REPLY, &ev);
    XG_CHECK(ev.user_ptr == (void *)77 && ev.mlength == 16, "REPLY");
    ct_is(ict, 14, 1, "after everything");
    ptl_test_none(ieq);
    ptl_test_barrier(&env);

    /* the target's view: PUT events for 1 (x4), 2, 1 (bytes), 1, 1, and
     * the get; none for 3 and 4 */
    for (i = 0; i < 3; i++) {
        ptl_test_next(teq, PTL_EVENT_PUT, &ev);
        XG_CHECK(ev.user_ptr == (void *)1, "target event %d", i);
    }
    ptl_test_next(teq, PTL_EVENT_PUT, &ev);
    XG_CHECK(ev.user_ptr == (void *)2, "ACK_DISABLE entry event");
    for (i = 0; i < 3; i++) {
        ptl_test_next(teq, PTL_EVENT_PUT, &ev);
        XG_CHECK(ev.user_ptr == (void *)1, "target event %d", i + 4);
    }
    ptl_test_next(teq, PTL_EVENT_GET, &ev);
    XG_CHECK(ev.user_ptr == (void *)5, "GET event");
    ptl_test_none(teq);
    ct_is(tct_bytes, 10 * 5 + 20, 0, "target bytes counter");
    ct_is(tct_quiet, 1, 0, "quiet entry counter");
    PTL_OK_OR_DIE(PtlNIStatus(env.ni, PTL_SR_DROP_COUNT, &drops));
    XG_CHECK(drops - drops0 == 4, "drop count %lld, want 4",
             (long long)(drops - drops0));
    ptl_test_barrier(&env);

    /* nothing is left in use */
    PTL_OK_OR_DIE(PtlMDRelease(md_eq));
    PTL_OK_OR_DIE(PtlMDRelease(md_bytes));
    PTL_OK_OR_DIE(PtlMDRelease(md_nosend));
    PTL_OK_OR_DIE(PtlMDRelease(md_nosucc));
    PTL_OK_OR_DIE(PtlMDRelease(md_rfd));
    for (i = 0; i < 5; i++) {
        PTL_OK_OR_DIE(PtlMEUnlink(h[i]));
    }
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    PTL_OK_OR_DIE(PtlCTFree(tct_bytes));
    PTL_OK_OR_DIE(PtlCTFree(tct_quiet));
    PTL_OK_OR_DIE(PtlCTFree(ict));
    PTL_OK_OR_DIE(PtlCTFree(ict_bytes));
    PTL_OK_OR_DIE(PtlCTFree(ict_plain));
    PTL_OK_OR_DIE(PtlEQFree(teq));
    PTL_OK_OR_DIE(PtlEQFree(ieq));
    ptl_test_fini(&env);
    return 0;
}
