/*
 * The end-to-end demo of sPIN on the software NIC (docs/spin.md, "A
 * reduction on the NIC"): every PE but 0 puts vectors of int32 to an
 * entry of PE 0 whose execution context reduces them on the NIC
 * (examples/spin/handlers/reduce.c); only the sum reaches PE 0's host
 * memory -- the entry's own buffer stays untouched -- and PE 0's host
 * waits for one flag word.  Vectors of 24 KB go by rendezvous, so both
 * the eager and the rendezvous paths of the NIC feed the engine.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "api/portals/ptl_test.h"
#include "spin/spin_conf.h"
#include "usecase.h"
#include "xgas_spin.h"

#define PT    10
#define ELEMS 6000 /* 24 KB: rendezvous */
#define MSGS  3    /* per sending PE */

static int32_t item(int pe, int m, uint32_t i)
{
    return (int32_t)((uint32_t)(pe * 7919 + m * 104729) + i * 2654435761u) %
           100000;
}

int main(int argc, char **argv)
{
    static int32_t vec[ELEMS];
    static int32_t landing[ELEMS];
    ptl_test_env_t env;
    xg_spin_ctx_params_t p;
    xg_spin_ctx_t *ctx = NULL;
    ptl_handle_me_t meh;
    ptl_handle_md_t md;
    ptl_handle_eq_t eq;
    ptl_pt_index_t pt;
    ptl_event_t ev;
    ptl_me_t me;
    ptl_md_t mdd;
    uc_reduce_mem_t img;
    uint8_t *win;
    int32_t *res;
    int64_t want;
    uint32_t i;
    int pe, m, expected;

    XG_CHECK(argc == 2, "usage: %s reduce.so", argv[0]);
    ptl_test_init(&env);
    if (env.npes < 2) {
        ptl_test_fini(&env);
        return XG_TEST_SKIP;
    }
    expected = (env.npes - 1) * MSGS;
    win      = calloc(1, UC_RESULT_OFF + 4 * ELEMS);
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 256, &eq));
    if (env.rank == 0) {
        memset(&img, 0, sizeof(img));
        img.elems    = ELEMS;
        img.expected = (uint32_t)expected;
        memset(&p, 0, sizeof(p));
        p.field_mask =
            XG_SPIN_CTX_FIELD_HANDLERS | XG_SPIN_CTX_FIELD_HANDLER_MEM |
            XG_SPIN_CTX_FIELD_SCRATCHPAD | XG_SPIN_CTX_FIELD_HOST_MEM;
        p.handler_file           = argv[1];
        p.payload_handler        = "reduce_ph";
        p.completion_handler     = "reduce_th";
        p.handler_mem_size       = sizeof(img) + 4 * ELEMS;
        p.handler_mem_image      = &img;
        p.handler_mem_image_size = sizeof(img);
        p.scratchpad_size        = NB_CORES * 4 * ELEMS; /* per HPU */
        p.host_mem               = win;
        p.host_mem_size          = UC_RESULT_OFF + 4 * ELEMS;
        XG_CHECK(xg_spin_ctx_create(&p, &ctx) == XG_OK, "context");
        for (i = 0; i < ELEMS; i++) {
            landing[i] = -1;
        }
        PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, eq, PT, &pt));
        memset(&me, 0, sizeof(me));
        me.start         = landing;
        me.length        = sizeof(landing);
        me.ct_handle     = PTL_CT_NONE;
        me.uid           = PTL_UID_ANY;
        me.options       = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE;
        me.match_id.rank = PTL_RANK_ANY;
        PTL_OK_OR_DIE(
            PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &meh));
        XG_CHECK(xg_spin_ctx_attach(ctx, meh) == XG_OK, "attach");
    }
    ptl_test_barrier(&env); /* the entry and its context are in place */
    if (env.rank != 0) {
        memset(&mdd, 0, sizeof(mdd));
        mdd.start     = vec;
        mdd.length    = sizeof(vec);
        mdd.eq_handle = eq;
        mdd.ct_handle = PTL_CT_NONE;
        mdd.options   = PTL_MD_EVENT_SEND_DISABLE;
        PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &md));
        for (m = 0; m < MSGS; m++) {
            for (i = 0; i < ELEMS; i++) {
                vec[i] = item(env.rank, m, i);
            }
            PTL_OK_OR_DIE(PtlPut(md, 0, sizeof(vec), PTL_ACK_REQ,
                                 ptl_test_rank(0), PT, 0, 0, NULL, 0));
            ptl_test_next(eq, PTL_EVENT_ACK, &ev); /* vec is free again */
            XG_CHECK(ev.ni_fail_type == PTL_NI_OK, "ack of message %d: %u", m,
                     ev.ni_fail_type);
        }
        PTL_OK_OR_DIE(PtlMDRelease(md));
    } else {
        /* the host waits for the NIC's one flag word */
        while (__atomic_load_n((uint64_t *)win, __ATOMIC_ACQUIRE) !=
               (uint64_t)expected) {
            sched_yield();
        }
        res = (int32_t *)(win + UC_RESULT_OFF);
        for (i = 0; i < ELEMS; i++) {
            want = 0;
            for (pe = 1; pe < env.npes; pe++) {
                for (m = 0; m < MSGS; m++) {
                    want += item(pe, m, i);
                }
            }
            XG_CHECK(res[i] == (int32_t)want,
                     "element %u: %d on the host, %lld expected", i, res[i],
                     (long long)want);
            XG_CHECK(landing[i] == -1, "the entry's buffer was written");
        }
        for (m = 0; m < expected; m++) {
            ptl_test_next(eq, PTL_EVENT_PUT, &ev);
            XG_CHECK(ev.ni_fail_type == PTL_NI_OK && ev.mlength == sizeof(vec),
                     "put event %d: fail %u, mlength %llu", m, ev.ni_fail_type,
                     (unsigned long long)ev.mlength);
        }
        XG_CHECK(xg_spin_ctx_desc(ctx)->errors == 0 &&
                     xg_spin_ctx_desc(ctx)->messages == (uint64_t)expected,
                 "descriptor: %llu faults, %llu messages",
                 (unsigned long long)xg_spin_ctx_desc(ctx)->errors,
                 (unsigned long long)xg_spin_ctx_desc(ctx)->messages);
    }
    ptl_test_barrier(&env);
    if (env.rank == 0) {
        XG_CHECK(xg_spin_ctx_destroy(ctx) == XG_OK, "destroy");
        PTL_OK_OR_DIE(PtlMEUnlink(meh));
        PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    }
    PTL_OK_OR_DIE(PtlEQFree(eq));
    free(win);
    ptl_test_fini(&env);
    return XG_TEST_PASS;
}
