/*
 * All-to-all exchanges whose receives are posted late, racing the
 * messages: every round each process sends a message of each size class
 * (one packet; several packets, eager; rendezvous) to every process, and
 * posts its use-once receives before the sends on some rounds and after
 * them on others (differently on every process).  So a receive is
 * appended while the matching message is not there yet, already complete
 * in the overflow entry, or -- the case this test was written for -- still
 * landing in it (header matched, data packets to come; the receive must
 * claim it and get PTL_EVENT_PUT_OVERFLOW once it is complete).
 *
 * Checked: every receive completes exactly once and holds the sender's
 * bytes; every put is acknowledged; no header is left behind.  The
 * interleavings depend on scheduling, the assertions do not (a lost match
 * would hang and end in CTest's timeout).
 */
#include "ptl_test.h"

#define PT      4
#define ROUNDS  24
#define CLASSES 3

static const ptl_size_t class_len[CLASSES] = {
    1000,  /* one packet */
    12000, /* two packets, eager (limit 16 KiB) */
    40000, /* rendezvous */
};

static uint64_t tag_of(int round, int from, int to, int k)
{
    return ((uint64_t)round << 24) | ((uint64_t)from << 16) |
           ((uint64_t)to << 8) | (uint64_t)k;
}

int main(void)
{
    ptl_test_env_t env;
    ptl_handle_eq_t eq;
    ptl_handle_ct_t acks;
    ptl_handle_md_t md[CLASSES];
    ptl_handle_me_t oh, h;
    ptl_ct_event_t cv;
    ptl_event_t ev;
    ptl_md_t mdd;
    ptl_me_t me;
    uint8_t *sbuf[CLASSES], *rbuf, *obuf;
    size_t slot = 40960, obuf_len;
    int round, pe, k, got, want, late;
    uint64_t i, acked = 0;

    ptl_test_init(&env);
    want     = env.npes * CLASSES;
    rbuf     = malloc(slot * (size_t)want);
    obuf_len = (size_t)env.npes * (class_len[0] + class_len[1]) + 4096;
    obuf     = malloc(obuf_len);
    XG_CHECK(rbuf != NULL && obuf != NULL, "no memory");
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 4 * (ptl_size_t)want + 16, &eq));
    PTL_OK_OR_DIE(PtlCTAlloc(env.ni, &acks));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, eq, PT, &(ptl_pt_index_t){0}));
    for (k = 0; k < CLASSES; k++) {
        /* one message of the class per destination (none is reused
         * before the round's acknowledgements: a rendezvous put that
         * arrives before its receive is only acknowledged once the late
         * receive has taken it) */
        sbuf[k] = malloc(class_len[k] * (size_t)env.npes);
        XG_CHECK(sbuf[k] != NULL, "no memory");
        memset(&mdd, 0, sizeof(mdd));
        mdd.start     = sbuf[k];
        mdd.length    = class_len[k] * (ptl_size_t)env.npes;
        mdd.eq_handle = PTL_EQ_NONE;
        mdd.ct_handle = acks;
        mdd.options   = PTL_MD_EVENT_CT_ACK;
        PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &md[k]));
    }

    for (round = 0; round < ROUNDS; round++) {
        /* a fresh overflow buffer per round, filled from its start */
        memset(&me, 0, sizeof(me));
        me.start     = obuf;
        me.length    = obuf_len;
        me.ct_handle = PTL_CT_NONE;
        me.uid       = PTL_UID_ANY;
        me.options   = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL |
                     PTL_ME_EVENT_LINK_DISABLE | PTL_ME_EVENT_UNLINK_DISABLE;
        me.match_id.rank = PTL_RANK_ANY;
        me.ignore_bits   = ~0ull;
        PTL_OK_OR_DIE(
            PtlMEAppend(env.ni, PT, &me, PTL_OVERFLOW_LIST, NULL, &oh));
        memset(rbuf, 0, slot * (size_t)want);
        ptl_test_barrier(&env);
        /* late on odd rounds for even ranks, on even rounds for odd ones */
        late = (round + env.rank) % 2;
        for (int pass = 0; pass < 2; pass++) {
            if (pass == late) {
                for (pe = 0; pe < env.npes; pe++) {
                    for (k = 0; k < CLASSES; k++) {
                        memset(&me, 0, sizeof(me));
                        me.start     = rbuf + slot * (size_t)(pe * CLASSES + k);
                        me.length    = class_len[k];
                        me.ct_handle = PTL_CT_NONE;
                        me.uid       = PTL_UID_ANY;
                        me.options   = PTL_ME_OP_PUT | PTL_ME_USE_ONCE |
                                     PTL_ME_EVENT_LINK_DISABLE |
                                     PTL_ME_EVENT_UNLINK_DISABLE;
                        me.match_id.rank = (ptl_rank_t)pe;
                        me.match_bits    = tag_of(round, pe, env.rank, k);
                        PTL_OK_OR_DIE(PtlMEAppend(
                            env.ni, PT, &me, PTL_PRIORITY_LIST,
                            (void *)(intptr_t)(pe * CLASSES + k), &h));
                    }
                }
            } else {
                for (int j = 1; j <= env.npes; j++) {
                    pe = (env.rank + j) % env.npes;
                    for (k = 0; k < CLASSES; k++) {
                        uint8_t *b = sbuf[k] + class_len[k] * (size_t)pe;

                        for (i = 0; i < class_len[k]; i++) {
                            b[i] = ptl_test_byte(tag_of(round, env.rank, pe, k),
                                                 i);
                        }
                        PTL_OK_OR_DIE(PtlPut(
                            md[k], class_len[k] * (ptl_size_t)pe, class_len[k],
                            PTL_CT_ACK_REQ, ptl_test_rank(pe), PT,
                            tag_of(round, env.rank, pe, k), 0, NULL, 0));
                    }
                }
            }
        }
        for (got = 0; got < want;) {
            PTL_OK_OR_DIE(PtlEQWait(eq, &ev));
            XG_CHECK(ev.ni_fail_type == PTL_NI_OK, "event %s failed (%u)",
                     ptl_test_ev(ev.type), ev.ni_fail_type);
            if (ev.type == PTL_EVENT_PUT_OVERFLOW) {
                /* it came first: its bytes wait in the overflow buffer */
                pe = (int)(intptr_t)ev.user_ptr;
                XG_CHECK(ev.mlength == class_len[pe % CLASSES],
                         "overflow length %llu",
                         (unsigned long long)ev.mlength);
                memcpy(rbuf + slot * (size_t)pe, ev.start, ev.mlength);
                got++;
            } else if ((ev.type == PTL_EVENT_PUT) &&
                       (ev.ptl_list == PTL_PRIORITY_LIST)) {
                got++;
            } else {
                XG_CHECK(ev.type == PTL_EVENT_PUT, "event %s",
                         ptl_test_ev(ev.type));
            }
        }
        for (pe = 0; pe < env.npes; pe++) {
            for (k = 0; k < CLASSES; k++) {
                const uint8_t *r = rbuf + slot * (size_t)(pe * CLASSES + k);

                for (i = 0; i < class_len[k]; i++) {
                    if (r[i] !=
                        ptl_test_byte(tag_of(round, pe, env.rank, k), i)) {
                        XG_CHECK(0,
                                 "round %d: byte %llu of class %d from "
                                 "PE %d is wrong",
                                 round, (unsigned long long)i, k, pe);
                    }
                }
            }
        }
        /* every put of the round acknowledged, none failed */
        acked += (uint64_t)want;
        PTL_OK_OR_DIE(PtlCTWait(acks, acked, &cv));
        XG_CHECK(cv.failure == 0, "%llu puts failed",
                 (unsigned long long)cv.failure);
        ptl_test_barrier(&env);
        /* every message has completed: nothing holds the overflow entry */
        PTL_OK_OR_DIE(PtlMEUnlink(oh));
        while (PtlEQGet(eq, &ev) == PTL_OK) {
            XG_CHECK(ev.type == PTL_EVENT_PUT &&
                         ev.ptl_list == PTL_OVERFLOW_LIST,
                     "left-over event %s", ptl_test_ev(ev.type));
        }
    }
    ptl_test_barrier(&env);
    for (k = 0; k < CLASSES; k++) {
        PTL_OK_OR_DIE(PtlMDRelease(md[k]));
        free(sbuf[k]);
    }
    /* no header was left behind: the portal can go */
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    PTL_OK_OR_DIE(PtlCTFree(acks));
    PTL_OK_OR_DIE(PtlEQFree(eq));
    free(rbuf);
    free(obuf);
    ptl_test_fini(&env);
    return 0;
}
