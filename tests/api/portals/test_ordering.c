/*
 * Ordering: messages from one initiator to one target are matched in the
 * order they were sent, whatever their sizes (one packet, several, or a
 * rendezvous) and whether they arrive expected or unexpected.  Every
 * process sends K messages with the same match bits to process 0, which
 * has K use-once entries per source appended in order: message i of each
 * source must land in entry i.  Then the same with unexpected messages:
 * receives appended afterwards take them in sending order.
 */
#include "ptl_test.h"

#define PT     31
#define K      24
#define MAXLEN (48u * 1024u)

static const ptl_size_t lens[] = {8, 100, 9000, 30000, 16, 1};

int main(void)
{
    ptl_test_env_t env;
    ptl_handle_eq_t eq;
    ptl_handle_md_t md;
    ptl_handle_me_t oh, h;
    ptl_handle_ct_t ct;
    ptl_ct_event_t v;
    ptl_event_t ev;
    ptl_md_t mdd;
    ptl_me_t me;
    uint8_t *src, **bufs, *obuf = NULL, *srcs[K + 1];
    int nsrcs = 0;
    int s, i, n, round;
    ptl_size_t acked = 0; /* acknowledgements to wait for so far */

    ptl_test_init(&env);
    src           = malloc(MAXLEN);
    srcs[nsrcs++] = src;
    bufs          = calloc((size_t)env.npes * K, sizeof(*bufs));
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 4 * (size_t)env.npes * K + 16, &eq));
    PTL_OK_OR_DIE(PtlCTAlloc(env.ni, &ct));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, eq, PT, &(ptl_pt_index_t){0}));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = src;
    mdd.length    = MAXLEN;
    mdd.eq_handle = PTL_EQ_NONE;
    mdd.ct_handle = ct;
    mdd.options   = PTL_MD_EVENT_CT_ACK;
    PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &md));
    for (round = 0; round < 2; round++) {
        int unexpected = (round == 1);

        if ((env.rank == 0) && !unexpected) {
            memset(&me, 0, sizeof(me));
            me.ct_handle = PTL_CT_NONE;
            me.uid       = PTL_UID_ANY;
            me.options   = PTL_ME_OP_PUT | PTL_ME_USE_ONCE |
                         PTL_ME_EVENT_LINK_DISABLE |
                         PTL_ME_EVENT_UNLINK_DISABLE;
            me.match_bits = 77;
            for (s = 0; s < env.npes; s++) {
                for (i = 0; i < K; i++) {
                    bufs[s * K + i]  = calloc(1, MAXLEN);
                    me.start         = bufs[s * K + i];
                    me.length        = MAXLEN;
                    me.match_id.rank = (ptl_rank_t)s;
                    PTL_OK_OR_DIE(
                        PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST,
                                    (void *)(intptr_t)(s * K + i), &h));
                }
            }
        }
        if ((env.rank == 0) && unexpected) {
            obuf = malloc((size_t)env.npes * K * MAXLEN);
            memset(&me, 0, sizeof(me));
            me.start     = obuf;
            me.length    = (size_t)env.npes * K * MAXLEN;
            me.ct_handle = PTL_CT_NONE;
            me.uid       = PTL_UID_ANY;
            me.options   = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL |
                         PTL_ME_EVENT_LINK_DISABLE | PTL_ME_EVENT_COMM_DISABLE;
            me.match_id.rank = PTL_RANK_ANY;
            me.ignore_bits   = ~0ull;
            PTL_OK_OR_DIE(
                PtlMEAppend(env.ni, PT, &me, PTL_OVERFLOW_LIST, NULL, &oh));
        }
        ptl_test_barrier(&env);
        for (i = 0; i < K; i++) {
            ptl_size_t len = lens[i % (sizeof(lens) / sizeof(lens[0]))];
            ptl_size_t b;

            for (b = 0; b < len; b++) {
                src[b] = ptl_test_byte((uint64_t)(env.rank * K + i), b);
            }
            /* each message is acknowledged before the buffer is reused */
            PTL_OK_OR_DIE(PtlPut(md, 0, len, PTL_CT_ACK_REQ, ptl_test_rank(0),
                                 PT, 77, 0, NULL, (uint64_t)i));
            if (!unexpected || (len <= 16384)) {
                /* (held messages are acknowledged only once received,
                 * after this loop, so they cannot be counted here) */
                PTL_OK_OR_DIE(PtlCTWait(ct, ++acked, &v));
            } else {
                /* a held rendezvous completes once received: wait later,
                 * and keep its bytes apart from the next message's */
                src           = malloc(MAXLEN);
                srcs[nsrcs++] = src;
                mdd.start     = src;
                PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &md));
            }
        }
        ptl_test_barrier(&env);
        if (env.rank == 0) {
            if (unexpected) {
                memset(&me, 0, sizeof(me));
                me.ct_handle = PTL_CT_NONE;
                me.uid       = PTL_UID_ANY;
                me.options   = PTL_ME_OP_PUT | PTL_ME_USE_ONCE |
                             PTL_ME_EVENT_LINK_DISABLE |
                             PTL_ME_EVENT_UNLINK_DISABLE;
                me.match_bits = 77;
                for (s = 0; s < env.npes; s++) {
                    for (i = 0; i < K; i++) {
                        memset(bufs[s * K + i], 0, MAXLEN);
                        me.start         = bufs[s * K + i];
                        me.length        = MAXLEN;
                        me.match_id.rank = (ptl_rank_t)s;
                        PTL_OK_OR_DIE(
                            PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST,
                                        (void *)(intptr_t)(s * K + i), &h));
                    }
                }
            }
            for (n = 0; n < env.npes * K; n++) {
                ptl_size_t len, b;
                const uint8_t *data;

                PTL_OK_OR_DIE(PtlEQWait(eq, &ev));
                XG_CHECK((ev.type == PTL_EVENT_PUT) ||
                             (ev.type == PTL_EVENT_PUT_OVERFLOW),
                         "event %s", ptl_test_ev(ev.type));
                s = (int)ev.initiator.rank;
                i = (int)ev.hdr_data;
                XG_CHECK(ev.user_ptr == (void *)(intptr_t)(s * K + i),
                         "round %d: message %d of PE %d matched entry %d",
                         round, i, s, (int)(intptr_t)ev.user_ptr - s * K);
                len  = lens[i % (sizeof(lens) / sizeof(lens[0]))];
                data = (ev.type == PTL_EVENT_PUT) ? bufs[s * K + i]
                                                  : (const uint8_t *)ev.start;
                for (b = 0; b < len; b++) {
                    XG_CHECK(data[b] == ptl_test_byte((uint64_t)(s * K + i), b),
                             "data of message %d of PE %d", i, s);
                }
            }
            ptl_test_none(eq);
        }
        /* every message of ours has been acknowledged */
        acked = (ptl_size_t)((round + 1) * K);
        PTL_OK_OR_DIE(PtlCTWait(ct, acked, &v));
        ptl_test_barrier(&env);
        if ((env.rank == 0) && unexpected) {
            PTL_OK_OR_DIE(PtlMEUnlink(oh));
        }
    }
    ptl_test_barrier(&env);
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    PTL_OK_OR_DIE(PtlEQFree(eq));
    ptl_test_fini(&env);
    for (i = 0; i < env.npes * K; i++) {
        free(bufs[i]);
    }
    free(bufs);
    free(obuf);
    for (i = 0; i < nsrcs; i++) {
        free(srcs[i]);
    }
    return 0;
}
