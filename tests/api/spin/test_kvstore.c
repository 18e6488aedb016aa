/*
 * The paper's key-value store answered by the NIC: PE 0's entry carries
 * a context running examples/spin/handlers/kvstore.c; every other PE
 * SETs its keys, then GETs them and keys nobody set.  The replies are
 * packets the handlers send to the client's reply entry; PE 0's host
 * does nothing until the end, when it reads the handlers' counters.
 */
#include <stdlib.h>
#include <string.h>

#include "api/portals/ptl_test.h"
#include "spin/packets.h"
#include "usecase.h"
#include "xgas_spin.h"

enum {
    PT_KV    = 20,
    PT_REPLY = 21
};

#define KEYS   50 /* per client */
#define MISSES 10
#define SETS   256

static void server(ptl_test_env_t *env, const char *so, ptl_handle_eq_t eq)
{
    size_t size      = sizeof(uc_kv_mem_t) + SETS * sizeof(uc_kv_set_t);
    uc_kv_mem_t *img = calloc(1, size);
    const uc_kv_mem_t *mem;
    xg_spin_ctx_params_t p;
    xg_spin_ctx_t *ctx;
    ptl_handle_me_t meh;
    ptl_pt_index_t pt;
    ptl_me_t me;
    uint8_t sink[64];
    int clients = env->npes - 1;

    img->sets = SETS;
    memset(&p, 0, sizeof(p));
    p.field_mask = XG_SPIN_CTX_FIELD_HANDLERS | XG_SPIN_CTX_FIELD_HANDLER_MEM |
                   XG_SPIN_CTX_FIELD_SEND;
    p.handler_file           = so;
    p.payload_handler        = "kvstore_ph";
    p.handler_mem_size       = size;
    p.handler_mem_image      = img;
    p.handler_mem_image_size = size;
    p.send_pt_index          = PT_REPLY;
    p.send_match_bits        = 0;
    XG_CHECK(xg_spin_ctx_create(&p, &ctx) == XG_OK, "context");
    PTL_OK_OR_DIE(PtlPTAlloc(env->ni, 0, eq, PT_KV, &pt));
    memset(&me, 0, sizeof(me));
    me.start     = sink;
    me.length    = sizeof(sink);
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    me.options   = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE |
                 PTL_ME_EVENT_SUCCESS_DISABLE;
    me.match_id.rank = PTL_RANK_ANY;
    PTL_OK_OR_DIE(
        PtlMEAppend(env->ni, PT_KV, &me, PTL_PRIORITY_LIST, NULL, &meh));
    XG_CHECK(xg_spin_ctx_attach(ctx, meh) == XG_OK, "attach");
    ptl_test_barrier(env); /* clients may send */
    ptl_test_barrier(env); /* clients have all their replies */
    XG_CHECK(xg_spin_ctx_quiet(ctx) == XG_OK, "quiet");
    mem = xg_spin_ctx_handler_mem(ctx, NULL);
    XG_CHECK(mem->sets_done == clients * KEYS &&
                 mem->gets == clients * (KEYS + MISSES) &&
                 mem->hits == clients * KEYS,
             "the NIC served %d SETs, %d GETs, %d hits", mem->sets_done,
             mem->gets, mem->hits);
    XG_CHECK(xg_spin_ctx_destroy(ctx) == XG_OK, "destroy");
    PTL_OK_OR_DIE(PtlMEUnlink(meh));
    PTL_OK_OR_DIE(PtlPTFree(env->ni, PT_KV));
    free(img);
}

static void client(ptl_test_env_t *env, ptl_handle_eq_t eq)
{
    static uint8_t replies[(KEYS + MISSES) * 64];
    uc_kv_msg_t req, rep;
    ptl_handle_eq_t acks; /* the requests' (replies come on @eq) */
    ptl_handle_md_t md;
    ptl_handle_me_t meh;
    ptl_pt_index_t pt;
    ptl_event_t ev;
    ptl_me_t me;
    ptl_md_t mdd;
    uint32_t j, key, base = (uint32_t)(env->rank - 1) * KEYS;
    int seen[KEYS + MISSES] = {0};

    PTL_OK_OR_DIE(PtlPTAlloc(env->ni, 0, eq, PT_REPLY, &pt));
    memset(&me, 0, sizeof(me));
    me.start     = replies;
    me.length    = sizeof(replies);
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    me.options =
        PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE | PTL_ME_MANAGE_LOCAL;
    me.match_id.rank = PTL_RANK_ANY;
    PTL_OK_OR_DIE(
        PtlMEAppend(env->ni, PT_REPLY, &me, PTL_PRIORITY_LIST, NULL, &meh));
    PTL_OK_OR_DIE(PtlEQAlloc(env->ni, 64, &acks));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = &req;
    mdd.length    = sizeof(req);
    mdd.eq_handle = acks;
    mdd.ct_handle = PTL_CT_NONE;
    mdd.options   = PTL_MD_EVENT_SEND_DISABLE;
    PTL_OK_OR_DIE(PtlMDBind(env->ni, &mdd, &md));
    ptl_test_barrier(env);
    for (j = 0; j < KEYS; j++) {
        req = (uc_kv_msg_t){UC_KV_SET, base + j, 1000000ULL * env->rank + j, 0,
                            (uint32_t)env->rank};
        PTL_OK_OR_DIE(PtlPut(md, 0, sizeof(req), PTL_ACK_REQ, ptl_test_rank(0),
                             PT_KV, 0, 0, NULL, 0));
        ptl_test_next(acks, PTL_EVENT_ACK, &ev); /* stored before a GET */
        XG_CHECK(ev.ni_fail_type == PTL_NI_OK, "SET %u: fail %u", j,
                 ev.ni_fail_type);
    }
    for (j = 0; j < KEYS + MISSES; j++) {
        /* the misses: keys above every client's */
        key = (j < KEYS) ? base + j : 100000 + base + j;
        req = (uc_kv_msg_t){UC_KV_GET, key, 0, 0, (uint32_t)env->rank};
        PTL_OK_OR_DIE(PtlPut(md, 0, sizeof(req), PTL_ACK_REQ, ptl_test_rank(0),
                             PT_KV, 0, 0, NULL, 0));
        ptl_test_next(acks, PTL_EVENT_ACK, &ev); /* req is free again */
    }
    for (j = 0; j < KEYS + MISSES; j++) {
        ptl_test_next(eq, PTL_EVENT_PUT, &ev);
        XG_CHECK(ev.mlength == sizeof(pkt_hdr_t) + sizeof(rep),
                 "a reply of %llu bytes", (unsigned long long)ev.mlength);
        memcpy(&rep, (uint8_t *)ev.start + sizeof(pkt_hdr_t), sizeof(rep));
        XG_CHECK(rep.op == UC_KV_REPLY && rep.client == (uint32_t)env->rank,
                 "reply op %u for client %u", rep.op, rep.client);
        if (rep.key >= 100000) {
            XG_CHECK(!rep.hit, "key %u was never set", rep.key);
            seen[KEYS + (rep.key - 100000 - base - KEYS)]++;
        } else {
            XG_CHECK(rep.key >= base && rep.key < base + KEYS && rep.hit &&
                         rep.value == 1000000ULL * env->rank + (rep.key - base),
                     "key %u: hit %u, value %llu", rep.key, rep.hit,
                     (unsigned long long)rep.value);
            seen[rep.key - base]++;
        }
    }
    for (j = 0; j < KEYS + MISSES; j++) {
        XG_CHECK(seen[j] == 1, "request %u answered %d times", j, seen[j]);
    }
    ptl_test_barrier(env);
    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlEQFree(acks));
    PTL_OK_OR_DIE(PtlMEUnlink(meh));
    PTL_OK_OR_DIE(PtlPTFree(env->ni, PT_REPLY));
}

int main(int argc, char **argv)
{
    ptl_test_env_t env;
    ptl_handle_eq_t eq;

    XG_CHECK(argc == 2, "usage: %s kvstore.so", argv[0]);
    ptl_test_init(&env);
    if (env.npes < 2) {
        ptl_test_fini(&env);
        return XG_TEST_SKIP;
    }
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 512, &eq));
    if (env.rank == 0) {
        server(&env, argv[1], eq);
    } else {
        client(&env, eq);
    }
    PTL_OK_OR_DIE(PtlEQFree(eq));
    ptl_test_fini(&env);
    return XG_TEST_PASS;
}
