/*
 * The Portals calls that wait for the engine: PtlCTWait/PtlCTPoll,
 * PtlEQWait/PtlEQPoll/PtlEQGet and PtlMDRelease's drain of operations in
 * flight.  Each is one loop, poll_until: look at the objects, and
 * while nothing is ready serve the NIC (xg_nic_progress_once) and back
 * off.  The objects themselves -- counters, queues, descriptors -- are in
 * ct.c, eq.c and md.c, which never wait.
 *
 * PtlAbort (Portals 4.3): a waiter counts itself in before it looks at the
 * flag, PtlAbort sets the flag before it looks at the count (both
 * sequentially consistent): either the waiter sees the flag, or PtlAbort
 * sees the waiter and waits for it to leave.  Waiters look at the flag on
 * every turn of their loop.
 *
 * PtlMDRelease answers PTL_IN_USE while either is non-zero (Portals 4.1,
 * 3.10.3), but it first waits for the operations in flight: their answers
 * are packets already on their way, which this thread processes itself
 * (xg_nic_progress_once, as PtlCTWait does) until the last one lands or
 * MD_RELEASE_WAIT_NS pass.  Without the wait a program that releases an
 * MD right after a barrier that follows its acknowledged put finds it in
 * use whenever the acknowledgement has not been handled yet (the
 * reference suite's test_eq_overflow-001, 7 of 8 runs), although nothing
 * but this process's own progress stands between it and PTL_OK.  The
 * bound keeps the call from hanging on an answer that never comes (a peer
 * gone across nodes); triggered operations wait for a counter only the
 * application moves, so they are never waited for.  The progress thread
 * itself (a handler running there) does not wait: it is what would
 * deliver the answers.
 */
#include <stdio.h>

#include "base/xg_log.h"
#include "base/xg_pool.h"
#include "base/xg_time.h"
#include "base/xg_wait.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_ct_int.h"
#include "nic/xg_nic_eq_int.h"
#include "nic/xg_nic_md_int.h"
#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_obj_int.h"
#include "nic/xg_nic_progress_int.h"
#include "nic/xg_nic_region_int.h"

#define POLL_AGAIN (-1) /* poll_until: not ready, look again */

int xg_nic_wait_enter(xg_nic_t *nic)
{
    atomic_fetch_add_explicit(&nic->waiters, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&nic->aborted, memory_order_seq_cst) != 0) {
        atomic_fetch_sub_explicit(&nic->waiters, 1, memory_order_release);
        return PTL_ABORTED;
    }
    return PTL_OK;
}

void xg_nic_wait_leave(xg_nic_t *nic)
{
    atomic_fetch_sub_explicit(&nic->waiters, 1, memory_order_release);
}

/*
 * The wait of PtlCTPoll/PtlCTWait and PtlEQPoll/PtlEQWait: asks
 * @try_one(@arg, i) for each i < @size, round robin from a start that
 * moves on after each empty round, until one answers something else than
 * POLL_AGAIN, and returns that answer with i in *index_p.  Between
 * rounds it serves the NIC and backs off.  It ends with @none_rc once
 * @timeout_ms passed (0: after one round; XG_NIC_FOREVER: never, and the
 * wait is published as @what for the hang watch), PTL_INTERRUPTED when
 * @ni closes, PTL_ABORTED after PtlAbort.
 */
static int poll_until(xg_nic_ni_t *ni, unsigned size, uint64_t timeout_ms,
                      int none_rc, const xg_wait_what_t *what,
                      int (*try_one)(void *arg, unsigned i), void *arg,
                      unsigned *index_p)
{
    uint64_t deadline = 0;
    unsigned i, k, start = 0;
    xg_wait_t wait;
    int ret;

    if ((timeout_ms != 0) && (timeout_ms != XG_NIC_FOREVER)) {
        deadline = xg_time_ns() + timeout_ms * 1000000ull;
    }
    xg_wait_init(&wait);
    if (timeout_ms == XG_NIC_FOREVER) {
        /* a bounded poll ends by itself: only this wait can hang */
        xg_wait_watch(&wait, what);
    }
    for (;;) {
        for (k = 0; k < size; k++) {
            i   = (start + k) % size;
            ret = try_one(arg, i);
            if (ret != POLL_AGAIN) {
                *index_p = i;
                return ret;
            }
        }
        if ((timeout_ms == 0) ||
            ((deadline != 0) && (xg_time_ns() >= deadline))) {
            return none_rc;
        }
        if (!xg_nic_ni_is_open(ni)) {
            return PTL_INTERRUPTED;
        }
        if (xg_nic_aborted(ni->nic)) {
            return PTL_ABORTED;
        }
        start = (start + 1) % size;
        /* having served the NIC, it looks again at once */
        xg_wait_net_backoff(&wait, xg_nic_progress_once(ni->nic));
    }
}

/* What a poll looks at: the set, and where the answer goes (also what a
 * wait without a timeout is for, for hang reports). */
typedef struct ct_wait_arg {
    xg_nic_ni_t *ni;
    const ptl_handle_ct_t *cts;
    const ptl_size_t *tests;
    unsigned size;
    ptl_ct_event_t *event; /* the value of the counter that reached */
} ct_wait_arg_t;

static void ct_describe(const xg_wait_what_t *what, char *buf, size_t len)
{
    const ct_wait_arg_t *arg = what->arg;
    xg_nic_ct_t *ct          = xg_pool_lookup(&arg->ni->ct_pool, arg->cts[0]);
    unsigned long long s = 0, f = 0;

    if (ct != NULL) {
        s = atomic_load_explicit(&ct->success, memory_order_relaxed);
        f = atomic_load_explicit(&ct->failure, memory_order_relaxed);
    }
    snprintf(buf, len,
             "waiting until counter %#x%s reaches %llu (now %llu "
             "success + %llu failure)",
             arg->cts[0], (arg->size > 1) ? " (or another of the set)" : "",
             (unsigned long long)arg->tests[0], s, f);
}

/* One counter of a PtlCTPoll set: PTL_OK with its value once it reached
 * its test. */
static int ct_try(void *p, unsigned i)
{
    ct_wait_arg_t *arg = p;
    xg_nic_ct_t *ct    = xg_pool_lookup(&arg->ni->ct_pool, arg->cts[i]);
    uint64_t s, f;

    if (ct == NULL) {
        return PTL_INTERRUPTED; /* freed while we waited */
    }
    s = atomic_load_explicit(&ct->success, memory_order_acquire);
    f = atomic_load_explicit(&ct->failure, memory_order_acquire);
    if (s + f < arg->tests[i]) {
        return POLL_AGAIN;
    }
    arg->event->success = s;
    arg->event->failure = f;
    return PTL_OK;
}

static int ct_poll_loop(const char *fn, xg_nic_ni_t *ni,
                        const ptl_handle_ct_t *cts, const ptl_size_t *tests,
                        unsigned size, uint64_t timeout_ms,
                        ptl_ct_event_t *event, unsigned *which)
{
    ct_wait_arg_t arg = {
        .ni = ni, .cts = cts, .tests = tests, .size = size, .event = event};
    xg_wait_what_t what = {
        .routine = fn, .peer = -1, .describe = ct_describe, .arg = &arg};
    unsigned i = 0;
    int ret;

    ret = poll_until(ni, size, timeout_ms, PTL_CT_NONE_REACHED, &what, ct_try,
                     &arg, &i);
    if ((ret == PTL_OK) && (which != NULL)) {
        *which = i;
    }
    return ret;
}

int xg_nic_ct_poll(const char *fn, const ptl_handle_ct_t *cts,
                   const ptl_size_t *tests, unsigned size, uint64_t timeout_ms,
                   ptl_ct_event_t *event, unsigned *which)
{
    xg_nic_ni_t *ni = xg_nic_ct_ni(cts[0]);
    unsigned i;
    int ret;

    for (i = 0; i < size; i++) {
        if ((xg_nic_handle_ni(cts[i]) != xg_nic_handle_ni(cts[0])) ||
            (xg_nic_ct_lookup(fn, ni, cts[i]) == NULL)) {
            return PTL_ARG_INVALID;
        }
    }
    ret = xg_nic_wait_enter(ni->nic);
    if (ret != PTL_OK) {
        return ret;
    }
    ret = ct_poll_loop(fn, ni, cts, tests, size, timeout_ms, event, which);
    xg_nic_wait_leave(ni->nic);
    return ret;
}

/* What a poll looks at: the set, and where the answer goes (also what a
 * wait without a timeout is for, for hang reports). */
typedef struct eq_wait_arg {
    xg_nic_ni_t *ni;
    const ptl_handle_eq_t *eqs;
    unsigned size;
    ptl_event_t *event; /* where the event taken goes */
} eq_wait_arg_t;

static void eq_describe(const xg_wait_what_t *what, char *buf, size_t len)
{
    const eq_wait_arg_t *arg = what->arg;

    if (arg->size == 1) {
        snprintf(buf, len, "waiting for an event on event queue %#x",
                 arg->eqs[0]);
    } else {
        snprintf(buf, len,
                 "waiting for an event on one of %u event queues "
                 "(the first %#x)",
                 arg->size, arg->eqs[0]);
    }
}

/* One queue of a PtlEQPoll set: its next event, if any. */
static int eq_try(void *p, unsigned i)
{
    eq_wait_arg_t *arg = p;
    int ret            = xg_nic_eq_take(arg->ni, arg->eqs[i], arg->event);

    return (ret == PTL_EQ_EMPTY) ? POLL_AGAIN : ret;
}

static int eq_poll_loop(const char *fn, xg_nic_ni_t *ni,
                        const ptl_handle_eq_t *eqs, unsigned size,
                        uint64_t timeout_ms, ptl_event_t *event,
                        unsigned *which)
{
    eq_wait_arg_t arg   = {.ni = ni, .eqs = eqs, .size = size, .event = event};
    xg_wait_what_t what = {
        .routine = fn, .peer = -1, .describe = eq_describe, .arg = &arg};
    unsigned i = 0;
    int ret;

    ret =
        poll_until(ni, size, timeout_ms, PTL_EQ_EMPTY, &what, eq_try, &arg, &i);
    if (((ret == PTL_OK) || (ret == PTL_EQ_DROPPED)) && (which != NULL)) {
        *which = i;
    }
    return ret;
}

/* The NI of @eqs, all live queues of one NI; NULL after logging. */
static xg_nic_ni_t *eq_check(const char *fn, const ptl_handle_eq_t *eqs,
                             unsigned size)
{
    xg_nic_ni_t *ni;
    unsigned i;

    ni = xg_nic_ni_lookup(
        xg_nic_handle_make(XG_NIC_OBJ_NI, xg_nic_handle_ni(eqs[0]), 0, 0));
    for (i = 0; i < size; i++) {
        if ((ni == NULL) ||
            (xg_nic_handle_ni(eqs[i]) != xg_nic_handle_ni(eqs[0])) ||
            (xg_pool_lookup(&ni->eq_pool, eqs[i]) == NULL)) {
            xg_warn("ptl",
                    "%s: handle %#x (element %u) is not an event "
                    "queue of the same NI as element 0",
                    fn, eqs[i], i);
            return NULL;
        }
    }
    return ni;
}

int xg_nic_eq_get(const char *fn, ptl_handle_eq_t eq, ptl_event_t *event)
{
    xg_nic_ni_t *ni = eq_check(fn, &eq, 1);

    /* not a wait: PtlAbort does not concern it */
    return (ni == NULL) ? PTL_ARG_INVALID
                        : eq_poll_loop(fn, ni, &eq, 1, 0, event, NULL);
}

int xg_nic_eq_poll(const char *fn, const ptl_handle_eq_t *eqs, unsigned size,
                   uint64_t timeout_ms, ptl_event_t *event, unsigned *which)
{
    xg_nic_ni_t *ni = eq_check(fn, eqs, size);
    int ret;

    if (ni == NULL) {
        return PTL_ARG_INVALID;
    }
    ret = xg_nic_wait_enter(ni->nic);
    if (ret != PTL_OK) {
        return ret;
    }
    ret = eq_poll_loop(fn, ni, eqs, size, timeout_ms, event, which);
    xg_nic_wait_leave(ni->nic);
    return ret;
}

/* How long PtlMDRelease waits for the answers to operations in flight. */
#define MD_RELEASE_WAIT_NS 2000000000ull /* 2 s */

/* @md_handle's MD with @ni locked (@ni is NULL if the handle names no NI),
 * or NULL unlocked. */
static xg_nic_md_t *md_lock(xg_nic_ni_t *ni, ptl_handle_md_t md_handle)
{
    xg_nic_md_t *md;

    if (ni == NULL) {
        return NULL;
    }
    pthread_mutex_lock(&ni->lock);
    md = xg_pool_lookup(&ni->md_pool, md_handle);
    if (md == NULL) {
        pthread_mutex_unlock(&ni->lock);
    }
    return md;
}

/* Processes packets until @md_handle's operations in flight are answered
 * or the bound passes: its MD, @ni locked, or NULL (released meanwhile by
 * another thread). */
static xg_nic_md_t *md_drain(xg_nic_ni_t *ni, ptl_handle_md_t md_handle,
                             xg_nic_md_t *md)
{
    uint64_t deadline = xg_time_ns() + MD_RELEASE_WAIT_NS;
    xg_wait_t wait;

    if (xg_nic_engine_thread() || (xg_nic_wait_enter(ni->nic) != PTL_OK)) {
        return md; /* the poller itself, or aborted */
    }
    xg_wait_init(&wait);
    while ((md != NULL) && (md->pending != 0) && (xg_time_ns() < deadline) &&
           xg_nic_ni_is_open(ni) && !xg_nic_aborted(ni->nic)) {
        pthread_mutex_unlock(&ni->lock);
        xg_wait_net_backoff(&wait, xg_nic_progress_once(ni->nic));
        md = md_lock(ni, md_handle);
    }
    xg_nic_wait_leave(ni->nic);
    return md;
}

int xg_nic_md_release(const char *fn, ptl_handle_md_t md_handle)
{
    xg_nic_ni_t *ni = xg_nic_ni_lookup(
        xg_nic_handle_make(XG_NIC_OBJ_NI, xg_nic_handle_ni(md_handle), 0, 0));
    xg_nic_md_t *md = md_lock(ni, md_handle);
    int ret         = PTL_OK;

    if ((md != NULL) && (md->pending != 0)) {
        md = md_drain(ni, md_handle, md);
    }
    if (md == NULL) {
        xg_warn("ptl", "%s: %#x is not a bound memory descriptor", fn,
                md_handle);
        return PTL_ARG_INVALID;
    }
    if ((md->pending != 0) || (md->triggers != 0)) {
        xg_info("ptl",
                "%s: MD %#x is in use: %u operations in flight "
                "(unanswered after %llu ms), %u triggered operations "
                "pending (cancel them with PtlCTCancelTriggered or "
                "PtlCTFree)",
                fn, md_handle, md->pending, MD_RELEASE_WAIT_NS / 1000000ull,
                md->triggers);
        ret = PTL_IN_USE;
        goto out_unlock;
    }
    xg_nic_region_fini(&md->region);
    xg_pool_free(&ni->md_pool, md);
out_unlock:
    pthread_mutex_unlock(&ni->lock);
    return ret;
}
