/*
 * Packet handlers on a matching entry (src/nic/xg_nic_hooks.h), at 2 PEs:
 * PE 0 puts, PE 1 owns entries carrying handler sets.
 *
 *  - an eager message of several packets and a rendezvous one: the header
 *    handler runs once and first, the payload handler once per packet with
 *    bytes, in order, with the packet's bytes, the completion handler once,
 *    last, when every byte is in the entry, before the PUT event;
 *  - every handler calls PtlCTInc (which takes the NI lock) and checks
 *    that the poller holds no NI: a handler run under the NI lock would
 *    deadlock here, and TSan would report it;
 *  - a header handler that consumes the message: nothing lands, the
 *    message completes normally;
 *  - a payload handler that fails: the target's event and the initiator's
 *    acknowledgement report PTL_NI_DROPPED, the completion handler is told;
 *  - an asynchronous set (the sPIN engine's contract): the header handler
 *    keeps per-message state and answers BUSY a few times before taking
 *    the packet, payload handlers copy and consume, the completion handler
 *    answers PENDING and another thread resumes the message later: its
 *    event and acknowledgement come only after the resume, the release
 *    call comes once with the state, and the set's in-flight count goes
 *    back to 0; a resume with a stale ticket is refused.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "api/portals/ptl_test.h"
#include "nic/xg_nic_hooks.h"
#include "base/xg_wait.h"
#include "nic/xg_nic_ni_int.h"

#define PT  7
#define BUF (64 * 1024)

enum {
    MSG_EAGER = 1,
    MSG_RNDV,
    MSG_CONSUME,
    MSG_FAIL,
    MSG_ASYNC,
    MSG_LAST
};

/* The asynchronous set's message state and what the resumer does. */
typedef struct async_state {
    uint8_t copy[BUF]; /* payload copied by the handlers */
    uint64_t bytes;
    unsigned busy_left; /* BUSY answers still to give */
    unsigned releases;
    void *released_msg;
    xg_nic_hook_ticket_t ticket;
    _Atomic int completion_called;
    _Atomic int resumed;
} async_state_t;

static async_state_t async_st;
static int async_token; /* the per-message state the header stores */

typedef struct state {
    uint64_t bits;
    xg_nic_hook_ret_t header_ret;
    xg_nic_hook_ret_t payload_ret;
    ptl_handle_ct_t ct;
    uint8_t *buf;
    unsigned headers, payloads, completions;
    unsigned out_of_order, bad_bytes, locked;
    uint64_t next_off, bytes;
    uint64_t landed_at_completion; /* bytes of the pattern in buf */
    ptl_ni_fail_t completion_fail;
} state_t;

static state_t states[MSG_LAST];

static void hook_common(const xg_nic_hook_args_t *a, state_t *st)
{
    /* no NI lock in the poller's hands, and taking one works */
    if (xg_nic_global->rx_locked != NULL) {
        st->locked++;
    }
    XG_CHECK(PtlCTInc(st->ct, (ptl_ct_event_t){1, 0}) == PTL_OK,
             "PtlCTInc from a handler");
    XG_CHECK(a->id->match_bits == st->bits, "match bits %llu in a handler",
             (unsigned long long)a->id->match_bits);
}

static xg_nic_hook_ret_t on_header(const xg_nic_hook_args_t *a)
{
    state_t *st = a->mem;

    hook_common(a, st);
    if ((st->payloads != 0) || (st->completions != 0)) {
        st->out_of_order++;
    }
    st->headers++;
    return st->header_ret;
}

static xg_nic_hook_ret_t on_payload(const xg_nic_hook_args_t *a)
{
    state_t *st      = a->mem;
    const uint8_t *p = a->data;
    size_t i;

    hook_common(a, st);
    if ((st->headers != 1) || (st->completions != 0) ||
        (a->offset != st->next_off)) {
        st->out_of_order++;
    }
    for (i = 0; i < a->len; i++) {
        st->bad_bytes += p[i] != ptl_test_byte(st->bits, a->offset + i);
    }
    st->next_off = a->offset + a->len;
    st->bytes += a->len;
    st->payloads++;
    return st->payload_ret;
}

static xg_nic_hook_ret_t on_completion(const xg_nic_hook_args_t *a)
{
    state_t *st = a->mem;
    uint64_t i, n = 0;

    hook_common(a, st);
    if ((st->headers != 1) ||
        ((a->fail == PTL_NI_OK) && (st->bytes != a->id->rlength))) {
        st->out_of_order++;
    }
    for (i = 0; i < a->mlength; i++) {
        n += st->buf[i] == ptl_test_byte(st->bits, i);
    }
    st->landed_at_completion = n;
    st->completion_fail      = a->fail;
    st->completions++;
    return XG_NIC_HOOK_PROCEED;
}

static xg_nic_hook_ret_t async_header(const xg_nic_hook_args_t *a)
{
    if (async_st.busy_left > 0) {
        async_st.busy_left--;
        return XG_NIC_HOOK_BUSY; /* called again, same packet */
    }
    XG_CHECK(*a->msg == NULL, "message state before the header call");
    *a->msg = &async_token;
    return XG_NIC_HOOK_CONSUMED;
}

static xg_nic_hook_ret_t async_payload(const xg_nic_hook_args_t *a)
{
    XG_CHECK(*a->msg == &async_token, "payload call without the state");
    XG_CHECK(a->offset + a->len <= BUF, "payload past the buffer");
    memcpy(async_st.copy + a->offset, a->data, a->len);
    async_st.bytes += a->len;
    return XG_NIC_HOOK_CONSUMED;
}

static xg_nic_hook_ret_t async_completion(const xg_nic_hook_args_t *a)
{
    XG_CHECK(*a->msg == &async_token, "completion call without the state");
    async_st.ticket = a->ticket;
    atomic_store(&async_st.completion_called, 1);
    return XG_NIC_HOOK_PENDING;
}

static void async_release(const xg_nic_hook_args_t *a)
{
    async_st.releases++;
    async_st.released_msg = *a->msg;
}

/* Resumes the pending message from a thread of its own. */
static void *async_resumer(void *arg)
{
    xg_wait_t wait;

    (void)arg;
    xg_wait_init(&wait);
    while (!atomic_load(&async_st.completion_called)) {
        xg_wait_backoff(&wait);
    }
    atomic_store(&async_st.resumed, 1);
    XG_CHECK(xg_nic_hook_resume(&async_st.ticket, XG_NIC_HOOK_PROCEED) ==
                 PTL_OK,
             "resume of the pending message");
    return NULL;
}

static xg_nic_hooks_t hooks[MSG_LAST];

static uint64_t msg_len(int m)
{
    const xg_nic_t *nic = xg_nic_global;
    /* eager: the longest that is still eager, over several packets */
    uint64_t eager = nic->eager_limit;

    XG_CHECK(eager > 2 * nic->max_payload,
             "eager limit %llu too small for a 3-packet eager message",
             (unsigned long long)eager);
    return (m == MSG_RNDV) ? 40000 : eager;
}

static void check_async(const ptl_event_t *ev, uint64_t len,
                        const uint8_t *landed)
{
    const xg_nic_hooks_t *h = &hooks[MSG_ASYNC];
    xg_wait_t wait;
    uint64_t i;

    XG_CHECK(atomic_load(&async_st.resumed),
             "the pending message's event came before its resume");
    XG_CHECK(ev->ni_fail_type == PTL_NI_OK && ev->mlength == len,
             "asynchronous message: fail type %u, mlength %llu",
             ev->ni_fail_type, (unsigned long long)ev->mlength);
    XG_CHECK(async_st.busy_left == 0, "BUSY answers not retried");
    XG_CHECK(async_st.bytes == len, "asynchronous handlers saw %llu bytes",
             (unsigned long long)async_st.bytes);
    for (i = 0; i < len; i++) {
        XG_CHECK(async_st.copy[i] == ptl_test_byte(MSG_ASYNC, i),
                 "asynchronous copy: byte %llu", (unsigned long long)i);
    }
    /* the release follows the event (the operation is freed after the
     * acknowledgement): wait for it with the in-flight count */
    xg_wait_init(&wait);
    while (atomic_load_explicit(&h->inflight, memory_order_acquire) != 0) {
        xg_wait_backoff(&wait);
    }
    XG_CHECK(async_st.releases == 1 && async_st.released_msg == &async_token,
             "release calls: %u (state %p)", async_st.releases,
             async_st.released_msg);
    XG_CHECK(xg_nic_hook_resume(&async_st.ticket, XG_NIC_HOOK_PROCEED) ==
                 PTL_ARG_INVALID,
             "a stale ticket was accepted");
    for (i = 0; i < len; i++) {
        XG_CHECK(landed[i] == 0, "consumed byte %llu landed",
                 (unsigned long long)i);
    }
}

static void target(ptl_test_env_t *env)
{
    static uint8_t bufs[MSG_LAST][BUF];
    pthread_t resumer;
    ptl_handle_me_t meh[MSG_LAST];
    ptl_handle_eq_t eq;
    ptl_ct_event_t ctv;
    ptl_pt_index_t pt;
    ptl_event_t ev;
    ptl_me_t me;
    uint64_t len, mp = xg_nic_global->max_payload, i;
    int m;

    PTL_OK_OR_DIE(PtlEQAlloc(env->ni, 64, &eq));
    PTL_OK_OR_DIE(PtlPTAlloc(env->ni, 0, eq, PT, &pt));
    for (m = MSG_EAGER; m < MSG_LAST; m++) {
        state_t *st = &states[m];

        st->bits = (uint64_t)m;
        st->buf  = bufs[m];
        st->header_ret =
            (m == MSG_CONSUME) ? XG_NIC_HOOK_CONSUMED : XG_NIC_HOOK_PROCEED;
        st->payload_ret =
            (m == MSG_FAIL) ? XG_NIC_HOOK_ERROR : XG_NIC_HOOK_PROCEED;
        PTL_OK_OR_DIE(PtlCTAlloc(env->ni, &st->ct));
        if (m == MSG_ASYNC) {
            hooks[m]           = (xg_nic_hooks_t){.header     = async_header,
                                                  .payload    = async_payload,
                                                  .completion = async_completion,
                                                  .release    = async_release};
            async_st.busy_left = 3;
        } else {
            hooks[m] = (xg_nic_hooks_t){.header     = on_header,
                                        .payload    = on_payload,
                                        .completion = on_completion,
                                        .mem        = st,
                                        .mem_size   = sizeof(*st)};
        }
        memset(&me, 0, sizeof(me));
        me.start         = bufs[m];
        me.length        = BUF;
        me.ct_handle     = PTL_CT_NONE;
        me.uid           = PTL_UID_ANY;
        me.options       = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE;
        me.match_id.rank = PTL_RANK_ANY;
        me.match_bits    = st->bits;
        PTL_OK_OR_DIE(
            PtlMEAppend(env->ni, pt, &me, PTL_PRIORITY_LIST, NULL, &meh[m]));
        PTL_OK_OR_DIE(xg_nic_entry_set_hooks("test", meh[m], &hooks[m]));
    }
    XG_CHECK(pthread_create(&resumer, NULL, async_resumer, NULL) == 0,
             "resumer thread");
    ptl_test_barrier(env); /* entries and handlers are in place */
    for (m = MSG_EAGER; m < MSG_LAST; m++) {
        state_t *st = &states[m];

        len = msg_len(m);
        ptl_test_next(eq, PTL_EVENT_PUT, &ev);
        if (m == MSG_ASYNC) {
            check_async(&ev, len, bufs[m]);
            continue;
        }
        XG_CHECK(ev.match_bits == st->bits, "events out of order: %llu",
                 (unsigned long long)ev.match_bits);
        XG_CHECK(ev.mlength == len, "message %d: mlength %llu of %llu", m,
                 (unsigned long long)ev.mlength, (unsigned long long)len);
        XG_CHECK(st->headers == 1 && st->completions == 1,
                 "message %d: %u header and %u completion calls", m,
                 st->headers, st->completions);
        XG_CHECK(st->out_of_order == 0, "message %d: %u calls out of order", m,
                 st->out_of_order);
        XG_CHECK(st->locked == 0,
                 "message %d: %u calls with an NI lock "
                 "held",
                 m, st->locked);
        PTL_OK_OR_DIE(PtlCTGet(st->ct, &ctv));
        XG_CHECK(ctv.success == 2 + st->payloads,
                 "message %d: %llu PtlCTInc from %u calls", m,
                 (unsigned long long)ctv.success, 2 + st->payloads);
        if (m == MSG_FAIL) {
            XG_CHECK(ev.ni_fail_type == PTL_NI_DROPPED,
                     "failed message: event fail type %u", ev.ni_fail_type);
            XG_CHECK(st->payloads == 1 && st->completion_fail == PTL_NI_DROPPED,
                     "failed message: %u payload calls, completion told %u",
                     st->payloads, st->completion_fail);
            XG_CHECK(st->landed_at_completion < len,
                     "failed message: its bytes landed");
            continue;
        }
        XG_CHECK(ev.ni_fail_type == PTL_NI_OK, "message %d: fail type %u", m,
                 ev.ni_fail_type);
        XG_CHECK(st->bytes == len && st->bad_bytes == 0,
                 "message %d: payload calls saw %llu bytes, %u wrong", m,
                 (unsigned long long)st->bytes, st->bad_bytes);
        if (m == MSG_EAGER) {
            XG_CHECK(st->payloads == (len + mp - 1) / mp,
                     "eager message of %llu bytes: %u payload calls",
                     (unsigned long long)len, st->payloads);
        }
        if (m == MSG_CONSUME) {
            for (i = 0; i < len; i++) {
                XG_CHECK(bufs[m][i] == 0, "consumed byte %llu landed",
                         (unsigned long long)i);
            }
            continue;
        }
        XG_CHECK(st->landed_at_completion == len,
                 "message %d: %llu of %llu bytes in the entry at completion", m,
                 (unsigned long long)st->landed_at_completion,
                 (unsigned long long)len);
    }
    XG_CHECK(pthread_join(resumer, NULL) == 0, "resumer thread");
    ptl_test_barrier(env);
    for (m = MSG_EAGER; m < MSG_LAST; m++) {
        PTL_OK_OR_DIE(PtlMEUnlink(meh[m]));
        PTL_OK_OR_DIE(PtlCTFree(states[m].ct));
    }
    PTL_OK_OR_DIE(PtlPTFree(env->ni, pt));
    PTL_OK_OR_DIE(PtlEQFree(eq));
}

static void initiator(ptl_test_env_t *env)
{
    static uint8_t src[MSG_LAST][BUF];
    ptl_handle_md_t md;
    ptl_handle_eq_t eq;
    ptl_event_t ev;
    ptl_md_t mdd;
    uint64_t i;
    int m;

    PTL_OK_OR_DIE(PtlEQAlloc(env->ni, 64, &eq));
    for (m = MSG_EAGER; m < MSG_LAST; m++) {
        for (i = 0; i < BUF; i++) {
            src[m][i] = ptl_test_byte((uint64_t)m, i);
        }
    }
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = src;
    mdd.length    = sizeof(src);
    mdd.eq_handle = eq;
    mdd.ct_handle = PTL_CT_NONE;
    mdd.options   = PTL_MD_EVENT_SEND_DISABLE;
    PTL_OK_OR_DIE(PtlMDBind(env->ni, &mdd, &md));
    ptl_test_barrier(env);
    for (m = MSG_EAGER; m < MSG_LAST; m++) {
        PTL_OK_OR_DIE(PtlPut(md, (ptl_size_t)m * BUF, msg_len(m), PTL_ACK_REQ,
                             ptl_test_rank(1), PT, (uint64_t)m, 0, NULL, 0));
        ptl_test_next(eq, PTL_EVENT_ACK, &ev);
        XG_CHECK(
            ev.ni_fail_type == ((m == MSG_FAIL) ? PTL_NI_DROPPED : PTL_NI_OK),
            "message %d: acknowledgement fail type %u", m, ev.ni_fail_type);
    }
    ptl_test_barrier(env);
    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlEQFree(eq));
}

int main(void)
{
    ptl_test_env_t env;

    ptl_test_init(&env);
    if (env.npes != 2) {
        ptl_test_fini(&env);
        return XG_TEST_SKIP;
    }
    if (env.rank == 0) {
        initiator(&env);
    } else {
        target(&env);
    }
    ptl_test_fini(&env);
    return XG_TEST_PASS;
}
