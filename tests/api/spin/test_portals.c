/*
 * Contexts on Portals entries, at 2 PEs (PE 1 puts, PE 0 owns entries):
 *   - strided datatype unpack (examples/spin/handlers/strided.c) of an
 *     eager and of a rendezvous message: the blocks land in PE 0's buffer
 *     with their stride, the entry's own buffer stays untouched;
 *   - XG_SPIN_CTX_DELIVER: payload handlers change the bytes, which then
 *     land in the entry; header and completion handlers run once per
 *     message, also for a message of no bytes;
 *   - a handler that faults fails its message: PTL_NI_DROPPED in the
 *     target's event and the initiator's acknowledgement, an event and
 *     the descriptor name the fault, and the next message goes through;
 *   - ping-pong through the NIC: handlers send every packet back to the
 *     initiator's entry on the context's send portal;
 *   - a context detached from its entry: later puts land as without
 *     handlers.
 */
#include <stdlib.h>
#include <string.h>

#include "api/portals/ptl_test.h"
#include "spin/packets.h"
#include "usecase.h"
#include "xgas_spin.h"

enum {
    PT_STRIDED = 10,
    PT_DELIVER,
    PT_FAULT,
    PT_PING,
    PT_PONG
};

#define BLOCK   256
#define STRIDE  512
#define SMALL   (12 * 1024)  /* eager */
#define LARGE   (200 * 1024) /* rendezvous */
#define DLEN    20000
#define PINGS   40
#define PINGLEN 300

typedef struct counts {
    volatile int32_t headers, completions, bad, payloads;
} counts_t;

static const char *strided_so, *local_so, *pingpong_so;

static xg_spin_ctx_t *make_ctx(const char *file, const char *hh, const char *ph,
                               const char *th, const void *img, size_t isize,
                               void *win, size_t wsize, unsigned flags,
                               int send)
{
    xg_spin_ctx_params_t p;
    xg_spin_ctx_t *ctx;

    memset(&p, 0, sizeof(p));
    p.field_mask = XG_SPIN_CTX_FIELD_HANDLERS | XG_SPIN_CTX_FIELD_HANDLER_MEM |
                   XG_SPIN_CTX_FIELD_HOST_MEM | XG_SPIN_CTX_FIELD_FLAGS;
    p.handler_file           = file;
    p.header_handler         = hh;
    p.payload_handler        = ph;
    p.completion_handler     = th;
    p.handler_mem_size       = 4096;
    p.handler_mem_image      = img;
    p.handler_mem_image_size = isize;
    p.host_mem               = win;
    p.host_mem_size          = wsize;
    p.flags                  = flags;
    if (send) {
        p.field_mask |= XG_SPIN_CTX_FIELD_SEND;
        p.send_pt_index   = PT_PONG;
        p.send_match_bits = 0;
    }
    XG_CHECK(xg_spin_ctx_create(&p, &ctx) == XG_OK, "context of %s",
             (ph != NULL) ? ph : th);
    return ctx;
}

static ptl_handle_me_t append(ptl_test_env_t *env, ptl_pt_index_t pt, void *buf,
                              size_t len, unsigned options)
{
    ptl_handle_me_t h;
    ptl_me_t me;

    memset(&me, 0, sizeof(me));
    me.start         = buf;
    me.length        = len;
    me.ct_handle     = PTL_CT_NONE;
    me.uid           = PTL_UID_ANY;
    me.options       = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE | options;
    me.match_id.rank = PTL_RANK_ANY;
    PTL_OK_OR_DIE(PtlMEAppend(env->ni, pt, &me, PTL_PRIORITY_LIST, NULL, &h));
    return h;
}

static void target(ptl_test_env_t *env, ptl_handle_eq_t eq)
{
    static uint8_t landing[LARGE], dbuf[DLEN + 64], plain[DLEN];
    uint64_t wsize        = (LARGE / BLOCK) * STRIDE + 8;
    uint8_t *win          = calloc(1, wsize);
    uc_strided_mem_t simg = {BLOCK, STRIDE, wsize - 8};
    xg_spin_ctx_t *sctx, *dctx, *fctx, *pctx;
    ptl_handle_me_t sme, dme, fme, pme;
    const xg_spin_ec_desc_t *d;
    const counts_t *cnt;
    xg_spin_event_t sev;
    ptl_pt_index_t pt;
    ptl_event_t ev;
    uint64_t i, b, len;
    int k;

    for (k = PT_STRIDED; k <= PT_PING; k++) {
        PTL_OK_OR_DIE(PtlPTAlloc(env->ni, 0, eq, (ptl_pt_index_t)k, &pt));
    }
    sctx = make_ctx(strided_so, NULL, "strided_ph", "strided_th", &simg,
                    sizeof(simg), win, wsize, 0, 0);
    sme  = append(env, PT_STRIDED, landing, sizeof(landing), 0);
    dctx = make_ctx(local_so, "count_hh", "bump_ph", "count_th", NULL, 0, NULL,
                    0, XG_SPIN_CTX_DELIVER, 0);
    dme  = append(env, PT_DELIVER, dbuf, sizeof(dbuf), PTL_ME_MANAGE_LOCAL);
    fctx = make_ctx(local_so, NULL, "crash_ph", NULL, NULL, 0, NULL, 0,
                    XG_SPIN_CTX_DELIVER, 0);
    fme  = append(env, PT_FAULT, plain, sizeof(plain), 0);
    pctx = make_ctx(pingpong_so, NULL, "pingpong_ph", NULL, NULL, 0, NULL, 0, 0,
                    1);
    pme  = append(env, PT_PING, landing, sizeof(landing), 0);
    XG_CHECK(xg_spin_ctx_attach(sctx, sme) == XG_OK &&
                 xg_spin_ctx_attach(dctx, dme) == XG_OK &&
                 xg_spin_ctx_attach(fctx, fme) == XG_OK &&
                 xg_spin_ctx_attach(pctx, pme) == XG_OK,
             "attach");
    ptl_test_barrier(env);

    /* strided: an eager message, then a rendezvous one, same buffer */
    for (k = 0; k < 2; k++) {
        len = (k == 0) ? SMALL : LARGE;
        ptl_test_next(eq, PTL_EVENT_PUT, &ev);
        XG_CHECK(ev.ni_fail_type == PTL_NI_OK && ev.mlength == len,
                 "strided put %d: fail %u", k, ev.ni_fail_type);
        XG_CHECK(*(volatile uint64_t *)(win + wsize - 8) == 1,
                 "strided: the flag is not set at the PUT event");
        for (i = 0; i < len; i++) {
            b = (i / BLOCK) * STRIDE + i % BLOCK;
            XG_CHECK(win[b] == ptl_test_byte(100 + k, i),
                     "strided %d: stream byte %llu misplaced", k,
                     (unsigned long long)i);
        }
        XG_CHECK(landing[0] == 0 && landing[len - 1] == 0,
                 "strided: bytes landed in the entry");
        *(volatile uint64_t *)(win + wsize - 8) = 0;
        ptl_test_barrier(env);
    }

    /* delivered after the handlers: two messages and one of no bytes */
    for (k = 0; k < 3; k++) {
        ptl_test_next(eq, PTL_EVENT_PUT, &ev);
        XG_CHECK(ev.ni_fail_type == PTL_NI_OK, "deliver %d: fail %u", k,
                 ev.ni_fail_type);
    }
    for (i = 0; i < DLEN; i++) {
        XG_CHECK(dbuf[i] == (uint8_t)(ptl_test_byte(7, i % (DLEN / 2)) + 1),
                 "deliver: byte %llu is %u", (unsigned long long)i, dbuf[i]);
    }
    cnt = xg_spin_ctx_handler_mem(dctx, NULL);
    XG_CHECK(cnt->headers == 3 && cnt->completions == 3 && cnt->bad == 0,
             "deliver: %d header, %d completion calls, %d bad headers",
             cnt->headers, cnt->completions, cnt->bad);
    ptl_test_barrier(env);

    /* a faulting handler, then a message that goes through */
    ptl_test_next(eq, PTL_EVENT_PUT, &ev);
    XG_CHECK(ev.ni_fail_type == PTL_NI_DROPPED, "faulted message: fail %u",
             ev.ni_fail_type);
    ptl_test_next(eq, PTL_EVENT_PUT, &ev);
    XG_CHECK(ev.ni_fail_type == PTL_NI_OK && plain[1] == 0x5a,
             "the message after the fault: fail %u, byte %u", ev.ni_fail_type,
             plain[1]);
    d = xg_spin_ctx_desc(fctx);
    XG_CHECK(d->errors == 1 && d->last_fault == XG_SPIN_FAULT_MEMORY &&
                 d->last_handler == XG_SPIN_HANDLER_PAYLOAD &&
                 d->last_addr == 8,
             "descriptor: %llu faults, last %s at %#llx",
             (unsigned long long)d->errors, xg_spin_fault_str(d->last_fault),
             (unsigned long long)d->last_addr);
    XG_CHECK(xg_spin_event_get(&sev) == XG_OK && sev.ctx == fctx &&
                 sev.fault == XG_SPIN_FAULT_MEMORY,
             "fault event");
    ptl_test_barrier(env);

    /* ping-pong: the initiator counts the pongs */
    for (k = 0; k < PINGS; k++) {
        ptl_test_next(eq, PTL_EVENT_PUT, &ev);
    }
    ptl_test_barrier(env);

    /* detached: the next put lands as without handlers */
    XG_CHECK(xg_spin_ctx_detach(dctx, dme) == XG_OK, "detach");
    XG_CHECK(xg_spin_ctx_detach(dctx, dme) == XG_ERR_INVALID_PARAM,
             "a second detach");
    ptl_test_barrier(env);
    ptl_test_next(eq, PTL_EVENT_PUT, &ev);
    /* (the entry manages its offset: after the two messages) */
    XG_CHECK(ev.ni_fail_type == PTL_NI_OK && dbuf[DLEN] == ptl_test_byte(9, 0),
             "after detach: byte %u", dbuf[DLEN]);
    ptl_test_barrier(env);

    XG_CHECK(xg_spin_ctx_destroy(sctx) == XG_OK &&
                 xg_spin_ctx_destroy(dctx) == XG_OK &&
                 xg_spin_ctx_destroy(fctx) == XG_OK &&
                 xg_spin_ctx_destroy(pctx) == XG_OK,
             "destroy");
    PTL_OK_OR_DIE(PtlMEUnlink(sme));
    PTL_OK_OR_DIE(PtlMEUnlink(dme));
    PTL_OK_OR_DIE(PtlMEUnlink(fme));
    PTL_OK_OR_DIE(PtlMEUnlink(pme));
    for (k = PT_STRIDED; k <= PT_PING; k++) {
        PTL_OK_OR_DIE(PtlPTFree(env->ni, (ptl_pt_index_t)k));
    }
    free(win);
}

static void put_acked(ptl_handle_md_t md, ptl_handle_eq_t eq, ptl_size_t off,
                      ptl_size_t len, ptl_pt_index_t pt, ptl_ni_fail_t want)
{
    ptl_event_t ev;

    PTL_OK_OR_DIE(
        PtlPut(md, off, len, PTL_ACK_REQ, ptl_test_rank(0), pt, 0, 0, NULL, 0));
    ptl_test_next(eq, PTL_EVENT_ACK, &ev);
    XG_CHECK(ev.ni_fail_type == want, "ack on portal %u: fail %u, not %u", pt,
             ev.ni_fail_type, want);
}

static void initiator(ptl_test_env_t *env, ptl_handle_eq_t eq)
{
    static uint8_t src[LARGE], pongs[PINGS * 1024];
    ptl_handle_md_t md;
    ptl_handle_me_t me;
    ptl_pt_index_t pt;
    ptl_event_t ev;
    pkt_hdr_t *h;
    ptl_md_t mdd;
    uint64_t i;
    int k;

    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = src;
    mdd.length    = sizeof(src);
    mdd.eq_handle = eq;
    mdd.ct_handle = PTL_CT_NONE;
    mdd.options   = PTL_MD_EVENT_SEND_DISABLE;
    PTL_OK_OR_DIE(PtlMDBind(env->ni, &mdd, &md));
    PTL_OK_OR_DIE(PtlPTAlloc(env->ni, 0, eq, PT_PONG, &pt));
    me = append(env, PT_PONG, pongs, sizeof(pongs), PTL_ME_MANAGE_LOCAL);
    ptl_test_barrier(env);

    for (k = 0; k < 2; k++) {
        for (i = 0; i < LARGE; i++) {
            src[i] = ptl_test_byte(100 + k, i);
        }
        put_acked(md, eq, 0, (k == 0) ? SMALL : LARGE, PT_STRIDED, PTL_NI_OK);
        ptl_test_barrier(env);
    }

    for (i = 0; i < DLEN / 2; i++) {
        src[i] = ptl_test_byte(7, i);
    }
    put_acked(md, eq, 0, DLEN / 2, PT_DELIVER, PTL_NI_OK);
    put_acked(md, eq, 0, DLEN / 2, PT_DELIVER, PTL_NI_OK);
    put_acked(md, eq, 0, 0, PT_DELIVER, PTL_NI_OK);
    ptl_test_barrier(env);

    src[0] = 0xff;
    src[1] = 0x33;
    put_acked(md, eq, 0, 64, PT_FAULT, PTL_NI_DROPPED);
    src[0] = 0;
    src[1] = 0x5a; /* lands: the context delivers */
    put_acked(md, eq, 0, 64, PT_FAULT, PTL_NI_OK);
    ptl_test_barrier(env);

    for (k = 0; k < PINGS; k++) {
        memset(src, k, PINGLEN);
        PTL_OK_OR_DIE(PtlPut(md, 0, PINGLEN, PTL_NO_ACK_REQ, ptl_test_rank(0),
                             PT_PING, 0, 0, NULL, 0));
    }
    for (k = 0; k < PINGS; k++) {
        /* the pong: the handler's packet, headers and all */
        ptl_test_next(eq, PTL_EVENT_PUT, &ev);
        XG_CHECK(ev.mlength == sizeof(pkt_hdr_t) + PINGLEN,
                 "pong of %llu bytes", (unsigned long long)ev.mlength);
        h = ev.start;
        XG_CHECK(h->ip_hdr.dest_id == (uint32_t)env->rank &&
                     h->ip_hdr.source_id == 0,
                 "pong %d: from %u to %u", k, h->ip_hdr.source_id,
                 h->ip_hdr.dest_id);
    }
    ptl_test_barrier(env);

    ptl_test_barrier(env); /* PE 0 detached */
    src[0] = ptl_test_byte(9, 0);
    PTL_OK_OR_DIE(PtlPut(md, 0, 1, PTL_ACK_REQ, ptl_test_rank(0), PT_DELIVER, 0,
                         0, NULL, 0));
    ptl_test_next(eq, PTL_EVENT_ACK, &ev);
    ptl_test_barrier(env);
    PTL_OK_OR_DIE(PtlMEUnlink(me));
    PTL_OK_OR_DIE(PtlPTFree(env->ni, PT_PONG));
    PTL_OK_OR_DIE(PtlMDRelease(md));
}

int main(int argc, char **argv)
{
    ptl_test_env_t env;
    ptl_handle_eq_t eq;

    XG_CHECK(argc == 4, "usage: %s strided.so portals.so pingpong.so", argv[0]);
    strided_so  = argv[1];
    local_so    = argv[2];
    pingpong_so = argv[3];
    ptl_test_init(&env);
    if (env.npes != 2) {
        ptl_test_fini(&env);
        return XG_TEST_SKIP;
    }
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 1024, &eq));
    if (env.rank == 0) {
        target(&env, eq);
    } else {
        initiator(&env, eq);
    }
    PTL_OK_OR_DIE(PtlEQFree(eq));
    ptl_test_fini(&env);
    return XG_TEST_PASS;
}
