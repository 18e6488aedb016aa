/*
 * Helpers for the Portals 4 API tests.  Each test is a program run through
 * xgasrun with 1..8 processes; ranks come from the logical NI (no PtlSetMap:
 * xgasrun's rank r is logical process r).  ptl_test_barrier() is built on
 * Portals itself (a counting ME on a reserved portal index), so a test
 * needs nothing but the API it tests.  Waits never time out: a hang is
 * ended by CTest's timeout, and no assertion depends on timing.
 */
#ifndef PTL_TEST_H
#define PTL_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <portals4.h>

#include "xg_test.h"

#define PTL_TEST_BARRIER_PT 63  /* portal index reserved for the barrier */

typedef struct ptl_test_env {
    ptl_handle_ni_t ni;        /* matching, logical */
    int             rank;
    int             npes;
    ptl_handle_ct_t bar_ct;
    ptl_handle_eq_t bar_eq;
    ptl_handle_md_t bar_md;
    ptl_handle_me_t bar_me;
    uint64_t        bar_round;
    uint64_t        bar_bits;  /* one value per ptl_test_init of a run */
    char            bar_byte;
} ptl_test_env_t;

static int ptl_test_lives; /* ptl_test_init calls so far */

static const char *const ptl_test_rc_names[] = {
    "PTL_OK", "PTL_ARG_INVALID", "PTL_CT_NONE_REACHED", "PTL_EQ_DROPPED",
    "PTL_EQ_EMPTY", "PTL_FAIL", "PTL_IGNORED", "PTL_IN_USE",
    "PTL_INTERRUPTED", "PTL_LIST_TOO_LONG", "PTL_NO_INIT", "PTL_NO_SPACE",
    "PTL_PID_IN_USE", "PTL_PT_FULL", "PTL_PT_EQ_NEEDED", "PTL_PT_IN_USE"};

static inline const char *ptl_test_rc(int rc)
{
    return ((rc >= 0) && (rc < (int)(sizeof(ptl_test_rc_names) /
                                     sizeof(ptl_test_rc_names[0]))))
               ? ptl_test_rc_names[rc] : "?";
}

/* Checks that a Portals call returns @want. */
#define PTL_EXPECT(want, call)                                             \
    do {                                                                   \
        int ptl_rc_ = (call);                                              \
        XG_CHECK(ptl_rc_ == (want), "%s returned %s, expected %s", #call,  \
                 ptl_test_rc(ptl_rc_), ptl_test_rc(want));                 \
    } while (0)

#define PTL_OK_OR_DIE(call) PTL_EXPECT(PTL_OK, call)

static const char *const ptl_test_ev_names[] = {
    "GET", "GET_OVERFLOW", "PUT", "PUT_OVERFLOW", "ATOMIC",
    "ATOMIC_OVERFLOW", "FETCH_ATOMIC", "FETCH_ATOMIC_OVERFLOW", "REPLY",
    "SEND", "ACK", "PT_DISABLED", "LINK", "AUTO_UNLINK", "AUTO_FREE",
    "SEARCH"};

static inline const char *ptl_test_ev(int type)
{
    return ((type >= 0) && (type < 16)) ? ptl_test_ev_names[type] : "?";
}

static inline ptl_process_t ptl_test_rank(int rank)
{
    ptl_process_t p;

    memset(&p, 0, sizeof(p));
    p.rank = (ptl_rank_t)rank;
    return p;
}

/* Waits for the next event of @eq and checks its type. */
static inline void ptl_test_next(ptl_handle_eq_t eq, ptl_event_kind_t type,
                                 ptl_event_t *ev)
{
    int rc = PtlEQWait(eq, ev);

    XG_CHECK((rc == PTL_OK), "PtlEQWait returned %s", ptl_test_rc(rc));
    XG_CHECK(ev->type == type, "event %s, expected %s (fail type %u)",
             ptl_test_ev(ev->type), ptl_test_ev(type), ev->ni_fail_type);
}

/* Checks that @eq holds no event now. */
static inline void ptl_test_none(ptl_handle_eq_t eq)
{
    ptl_event_t ev;
    int rc = PtlEQGet(eq, &ev);

    XG_CHECK(rc == PTL_EQ_EMPTY, "unexpected event %s (rc %s)",
             ptl_test_ev(ev.type), ptl_test_rc(rc));
}

/* Each round every process puts to every other one (acknowledged: a put
 * that arrives before the peer has its barrier entry is dropped, and sent
 * again), then waits until its counter shows one put per peer and round. */
static inline void ptl_test_barrier(ptl_test_env_t *env)
{
    ptl_ct_event_t ct;
    ptl_event_t ev;
    int pe, pending = env->npes - 1;

    env->bar_round++;
    for (pe = 0; pe < env->npes; pe++) {
        if (pe != env->rank) {
            PTL_OK_OR_DIE(PtlPut(env->bar_md, 0, 0, PTL_ACK_REQ,
                                 ptl_test_rank(pe), PTL_TEST_BARRIER_PT,
                                 env->bar_bits, 0, (void *)(intptr_t)pe,
                                 0));
        }
    }
    while (pending > 0) {
        PTL_OK_OR_DIE(PtlEQWait(env->bar_eq, &ev));
        if (ev.type != PTL_EVENT_ACK) {
            continue;
        }
        if (ev.ni_fail_type == PTL_NI_OK) {
            pending--;
            continue;
        }
        pe = (int)(intptr_t)ev.user_ptr;
        PTL_OK_OR_DIE(PtlPut(env->bar_md, 0, 0, PTL_ACK_REQ,
                             ptl_test_rank(pe), PTL_TEST_BARRIER_PT,
                             env->bar_bits, 0, (void *)(intptr_t)pe, 0));
    }
    PTL_OK_OR_DIE(PtlCTWait(env->bar_ct,
                            env->bar_round * (uint64_t)(env->npes - 1), &ct));
    XG_CHECK(ct.failure == 0, "barrier counter failed %llu times",
             (unsigned long long)ct.failure);
}

static inline void ptl_test_init(ptl_test_env_t *env)
{
    ptl_process_t id;
    ptl_size_t map_size;
    ptl_md_t md;
    ptl_me_t me;
    ptl_pt_index_t pt;

    memset(env, 0, sizeof(*env));
    /* a process that re-initializes must not count puts meant for the
     * barrier of a peer's previous life (or the other way round) */
    env->bar_bits = (uint64_t)ptl_test_lives++;
    PTL_OK_OR_DIE(PtlInit());
    PTL_OK_OR_DIE(PtlNIInit(PTL_IFACE_DEFAULT,
                            PTL_NI_MATCHING | PTL_NI_LOGICAL, PTL_PID_ANY,
                            NULL, NULL, &env->ni));
    PTL_OK_OR_DIE(PtlGetId(env->ni, &id));
    PTL_OK_OR_DIE(PtlGetMap(env->ni, 0, NULL, &map_size));
    env->rank  = (int)id.rank;
    env->npes  = (int)map_size;
    xg_test_pe = env->rank;

    PTL_OK_OR_DIE(PtlCTAlloc(env->ni, &env->bar_ct));
    PTL_OK_OR_DIE(PtlEQAlloc(env->ni, 64, &env->bar_eq));
    PTL_OK_OR_DIE(PtlPTAlloc(env->ni, 0, PTL_EQ_NONE, PTL_TEST_BARRIER_PT,
                             &pt));
    memset(&me, 0, sizeof(me));
    me.ct_handle     = env->bar_ct;
    me.uid           = PTL_UID_ANY;
    me.options       = PTL_ME_OP_PUT | PTL_ME_EVENT_CT_COMM |
                       PTL_ME_EVENT_LINK_DISABLE | PTL_ME_EVENT_COMM_DISABLE;
    me.match_id.rank = PTL_RANK_ANY;
    me.match_bits    = env->bar_bits;
    PTL_OK_OR_DIE(PtlMEAppend(env->ni, pt, &me, PTL_PRIORITY_LIST, NULL,
                              &env->bar_me));
    memset(&md, 0, sizeof(md));
    md.start     = &env->bar_byte;
    md.length    = 1;
    md.eq_handle = env->bar_eq;
    md.ct_handle = PTL_CT_NONE;
    md.options   = PTL_MD_EVENT_SEND_DISABLE;
    PTL_OK_OR_DIE(PtlMDBind(env->ni, &md, &env->bar_md));
    /* everybody has its barrier entry before anybody counts on it */
    ptl_test_barrier(env);
}

static inline void ptl_test_fini(ptl_test_env_t *env)
{
    ptl_test_barrier(env);
    PTL_OK_OR_DIE(PtlMDRelease(env->bar_md));
    PTL_OK_OR_DIE(PtlMEUnlink(env->bar_me));
    PTL_OK_OR_DIE(PtlPTFree(env->ni, PTL_TEST_BARRIER_PT));
    PTL_OK_OR_DIE(PtlCTFree(env->bar_ct));
    PTL_OK_OR_DIE(PtlEQFree(env->bar_eq));
    PTL_OK_OR_DIE(PtlNIFini(env->ni));
    PtlFini();
}

/* A deterministic byte pattern: byte i of message @tag. */
static inline uint8_t ptl_test_byte(uint64_t tag, uint64_t i)
{
    return (uint8_t)((tag * 131u + i * 7u + (i >> 8)) & 0xff);
}

#endif
