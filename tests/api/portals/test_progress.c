/*
 * Independent progress: after setting up its entries, a target makes no
 * call that makes progress -- it only reads a counter (PtlCTGet never
 * processes packets, unlike the waiting routines) -- while its
 * initiator puts data, reads it back with a get, adds with atomics, and
 * gets an answer from a triggered put armed at the target.  Everything
 * must happen: the NIC's progress thread does the target's share.  (With
 * one process, the process is its own target and only the data is
 * checked.)
 */
#include <sched.h>

#include "ptl_test.h"

#define PT  35
#define RPT 36
#define N   4096

static uint8_t tbuf[N];
static uint64_t done_word;
static uint64_t counter, reply_word;
static uint8_t src[N], back[N];

int main(void)
{
    ptl_test_env_t env;
    ptl_handle_me_t h1, h2, h3, h4;
    ptl_handle_md_t md, answer_md;
    ptl_handle_ct_t tct, ict;
    ptl_ct_event_t v;
    ptl_md_t mdd;
    ptl_me_t me;
    uint64_t one = 1, answer = 0x600d;
    int left, right, i;

    ptl_test_init(&env);
    left  = (env.rank + env.npes - 1) % env.npes;
    right = (env.rank + 1) % env.npes;
    PTL_OK_OR_DIE(PtlCTAlloc(env.ni, &tct));
    PTL_OK_OR_DIE(PtlCTAlloc(env.ni, &ict));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, PTL_EQ_NONE, PT, &(ptl_pt_index_t){0}));
    PTL_OK_OR_DIE(
        PtlPTAlloc(env.ni, 0, PTL_EQ_NONE, RPT, &(ptl_pt_index_t){0}));
    memset(&me, 0, sizeof(me));
    me.ct_handle     = PTL_CT_NONE;
    me.uid           = PTL_UID_ANY;
    me.options       = PTL_ME_OP_PUT | PTL_ME_OP_GET;
    me.match_id.rank = (ptl_rank_t)left;
    me.start         = tbuf;
    me.length        = N;
    me.match_bits    = 1;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &h1));
    me.start      = &counter;
    me.length     = 8;
    me.match_bits = 2;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &h2));
    /* the done word counts on tct, which triggers the answer */
    me.start      = &done_word;
    me.length     = 8;
    me.match_bits = 3;
    me.ct_handle  = tct;
    me.options |= PTL_ME_EVENT_CT_COMM;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &h3));
    /* where our own answer lands, counted on ict */
    me.start         = &reply_word;
    me.length        = 8;
    me.match_bits    = 4;
    me.match_id.rank = (ptl_rank_t)right;
    me.ct_handle     = ict;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, RPT, &me, PTL_PRIORITY_LIST, NULL, &h4));
    memset(&mdd, 0, sizeof(mdd));
    mdd.eq_handle = PTL_EQ_NONE;
    mdd.ct_handle = ict;
    mdd.options   = PTL_MD_EVENT_CT_ACK | PTL_MD_EVENT_CT_REPLY;
    mdd.start     = &answer;
    mdd.length    = 8;
    PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &answer_md));
    PTL_OK_OR_DIE(PtlTriggeredPut(answer_md, 0, 8, PTL_NO_ACK_REQ,
                                  ptl_test_rank(left), RPT, 4, 0, NULL, 0, tct,
                                  1));
    mdd.start  = src;
    mdd.length = N;
    PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &md));
    for (i = 0; i < N; i++) {
        src[i] = ptl_test_byte((uint64_t)env.rank, (uint64_t)i);
    }
    ptl_test_barrier(&env);

    /* initiator: put, get it back, two atomics, then the done word */
    PTL_OK_OR_DIE(PtlPut(md, 0, N, PTL_CT_ACK_REQ, ptl_test_rank(right), PT, 1,
                         0, NULL, 0));
    PTL_OK_OR_DIE(PtlCTWait(ict, 1, &v));
    {
        ptl_handle_md_t bmd;

        mdd.start = back;
        PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &bmd));
        PTL_OK_OR_DIE(PtlGet(bmd, 0, N, ptl_test_rank(right), PT, 1, 0, NULL));
        PTL_OK_OR_DIE(PtlCTWait(ict, 2, &v));
        XG_CHECK(memcmp(back, src, N) == 0, "get read what the put wrote");
        mdd.start  = &one;
        mdd.length = 8;
        PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &bmd));
        PTL_OK_OR_DIE(PtlAtomic(bmd, 0, 8, PTL_CT_ACK_REQ, ptl_test_rank(right),
                                PT, 2, 0, NULL, 0, PTL_SUM, PTL_UINT64_T));
        PTL_OK_OR_DIE(PtlAtomic(bmd, 0, 8, PTL_CT_ACK_REQ, ptl_test_rank(right),
                                PT, 2, 0, NULL, 0, PTL_SUM, PTL_UINT64_T));
        PTL_OK_OR_DIE(PtlCTWait(ict, 4, &v));
        PTL_OK_OR_DIE(PtlPut(bmd, 0, 8, PTL_NO_ACK_REQ, ptl_test_rank(right),
                             PT, 3, 0, NULL, 0));
    }
    if (env.npes > 1) {
        /* target: nothing that makes progress until the done word is set
         * -- PtlCTGet only reads the counter (an atomic, so that the data
         * it counts is visible once it moves; watching done_word itself
         * would race with the NIC's copy into it) */
        ptl_ct_event_t seen;

        do {
            sched_yield();
            PTL_OK_OR_DIE(PtlCTGet(tct, &seen));
        } while (seen.success == 0);
        XG_CHECK(done_word == 1, "done word %llu",
                 (unsigned long long)done_word);
    }
    /* the answer came from our right neighbour's triggered put */
    PTL_OK_OR_DIE(PtlCTWait(ict, 5, &v));
    XG_CHECK(reply_word == 0x600d, "triggered answer %llx",
             (unsigned long long)reply_word);
    ptl_test_barrier(&env);
    for (i = 0; i < N; i++) {
        XG_CHECK(tbuf[i] == ptl_test_byte((uint64_t)left, (uint64_t)i),
                 "target byte %d", i);
    }
    XG_CHECK(counter == 2, "atomics left %llu", (unsigned long long)counter);
    ptl_test_barrier(&env);
    PTL_OK_OR_DIE(PtlMEUnlink(h1));
    PTL_OK_OR_DIE(PtlMEUnlink(h2));
    PTL_OK_OR_DIE(PtlMEUnlink(h3));
    PTL_OK_OR_DIE(PtlMEUnlink(h4));
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    PTL_OK_OR_DIE(PtlPTFree(env.ni, RPT));
    ptl_test_fini(&env);
    return 0;
}
