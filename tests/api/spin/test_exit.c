/*
 * A context left attached when the program ends (docs/spin.md, "At
 * shutdown"), at 3 or more PEs: every PE but 0 puts messages to PE 0's
 * entry, whose handler (handlers_exit.c) holds each packet until PE 0
 * lets it go, then sends it through the NIC.  PE 0 ends with handlers
 * still running, and only then lets them send:
 *   fini     PtlFini without destroying the context, then the handlers
 *            send: each send fails (the NIC is gone), nothing touches
 *            the freed NIC, the context gets quiet, the program exits 0;
 *   destroy  the same, then xg_spin_ctx_destroy after PtlFini: it
 *            returns XG_OK without touching the NIC;
 *   return   no PtlFini: main returns and the handlers send while the
 *            library's exit handler has closed the NIC (an exit handler
 *            registered before PtlInit runs after the library's): each
 *            send fails, none goes out, and the context gets quiet with
 *            no error: the messages are the shutdown's, not faults.
 * In every mode a clean shutdown reports no error of the context.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/portals/ptl_test.h"
#include "xgas_spin.h"

enum {
    PT_HOLD = 12,
    PT_SEND = 13,
    MSGS    = 2,
    LEN     = 512
};

typedef struct hold {
    volatile int32_t started, sent, go;
} hold_t;

static xg_spin_ctx_t *ctx;
static hold_t *hold;
static int release_at_exit; /* mode return */

/* At exit (mode return): lets the held handlers go and waits until the
 * context is quiet (the NIC is closed, not torn down: each held message
 * fails with its send, silently). */
static void at_exit_release(void)
{
    const xg_spin_ec_desc_t *d;

    if (!release_at_exit) {
        return;
    }
    d = xg_spin_ctx_desc(ctx);
    __atomic_store_n(&hold->go, 1, __ATOMIC_RELEASE);
    if ((xg_spin_ctx_quiet(ctx) != XG_OK) || (hold->sent != 0) ||
        (d->errors != 0)) { /* (exit() again would be undefined here) */
        fprintf(stderr,
                "FAIL [pe 0] %d of %d handlers sent through the NIC "
                "after the library's exit handler closed it, %llu errors "
                "of the context at a clean exit\n",
                hold->sent, hold->started, (unsigned long long)d->errors);
        fflush(stderr);
        _exit(XG_TEST_FAIL);
    }
}

static void target(ptl_test_env_t *env, const char *so, const char *mode)
{
    static uint8_t landing[LEN * MSGS * 8];
    xg_spin_ctx_params_t p;
    ptl_handle_me_t meh;
    ptl_pt_index_t pt;
    ptl_me_t me;

    memset(&p, 0, sizeof(p));
    p.field_mask = XG_SPIN_CTX_FIELD_HANDLERS | XG_SPIN_CTX_FIELD_HANDLER_MEM |
                   XG_SPIN_CTX_FIELD_SEND | XG_SPIN_CTX_FIELD_WATCHDOG;
    p.handler_file     = so;
    p.payload_handler  = "hold_ph";
    p.handler_mem_size = 4096;
    p.send_pt_index    = PT_SEND;
    p.watchdog_ns      = 600ull * 1000000000ull; /* they wait for us */
    XG_CHECK(xg_spin_ctx_create(&p, &ctx) == XG_OK, "context");
    hold = xg_spin_ctx_handler_mem(ctx, NULL);
    PTL_OK_OR_DIE(PtlPTAlloc(env->ni, 0, PTL_EQ_NONE, PT_HOLD, &pt));
    memset(&me, 0, sizeof(me));
    me.start         = landing;
    me.length        = sizeof(landing);
    me.ct_handle     = PTL_CT_NONE;
    me.uid           = PTL_UID_ANY;
    me.options       = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL;
    me.match_id.rank = PTL_RANK_ANY;
    PTL_OK_OR_DIE(
        PtlMEAppend(env->ni, PT_HOLD, &me, PTL_PRIORITY_LIST, NULL, &meh));
    XG_CHECK(xg_spin_ctx_attach(ctx, meh) == XG_OK, "attach");
    ptl_test_barrier(env); /* attached */
    ptl_test_barrier(env); /* the others have put */
    while (__atomic_load_n(&hold->started, __ATOMIC_ACQUIRE) == 0) {
        sched_yield(); /* a handler holds a message: one is in flight */
    }
    if (strcmp(mode, "return") == 0) {
        release_at_exit = 1; /* after the library's exit handler */
        return;
    }
    PtlFini();
    /* the NIC released the messages: the engine ends them once their
     * handlers, let go now, fail their sends */
    __atomic_store_n(&hold->go, 1, __ATOMIC_RELEASE);
    XG_CHECK(xg_spin_ctx_quiet(ctx) == XG_OK, "quiet after PtlFini");
    XG_CHECK(hold->sent == 0, "%d of %d handlers sent after PtlFini",
             hold->sent, hold->started);
    XG_CHECK(xg_spin_ctx_desc(ctx)->errors == 0,
             "%llu errors of the context at a clean PtlFini",
             (unsigned long long)xg_spin_ctx_desc(ctx)->errors);
    if (strcmp(mode, "destroy") == 0) {
        XG_CHECK(xg_spin_ctx_destroy(ctx) == XG_OK, "destroy after PtlFini");
    }
}

static void initiator(ptl_test_env_t *env)
{
    static uint8_t src[LEN];
    ptl_handle_md_t md;
    ptl_md_t mdd;
    int k;

    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = src;
    mdd.length    = sizeof(src);
    mdd.eq_handle = PTL_EQ_NONE;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_OK_OR_DIE(PtlMDBind(env->ni, &mdd, &md));
    ptl_test_barrier(env);
    for (k = 0; k < MSGS; k++) {
        memset(src, k + 1, sizeof(src));
        PTL_OK_OR_DIE(PtlPut(md, 0, LEN, PTL_NO_ACK_REQ, ptl_test_rank(0),
                             PT_HOLD, 0, 0, NULL, 0));
    }
    ptl_test_barrier(env);
    /* no further word with PE 0, which may be gone already */
    PtlFini();
}

int main(int argc, char **argv)
{
    ptl_test_env_t env;

    XG_CHECK(argc == 3, "usage: %s exit.so fini|destroy|return", argv[0]);
    atexit(at_exit_release); /* before PtlInit: runs after the library's */
    ptl_test_init(&env);
    if (env.npes < 2) {
        ptl_test_fini(&env);
        return XG_TEST_SKIP;
    }
    if (env.rank == 0) {
        target(&env, argv[1], argv[2]);
    } else {
        initiator(&env);
    }
    return XG_TEST_PASS;
}
