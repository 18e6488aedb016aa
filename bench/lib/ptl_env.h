/*
 * A Portals 4 process environment on the API alone, shared by the
 * software NIC's benchmarks (bench/nic) and the Portals API tests
 * (tests/api/portals/ptl_test.h): a logical matching NI whose ranks are
 * xgasrun's (no PtlSetMap), a barrier built on Portals itself (a counting
 * ME on a reserved portal index), and names for return codes and event
 * types.  Waits never time out and nothing depends on timing.
 *
 * A failed check calls PTL_ENV_CHECK(cond, fmt, ...), which must not
 * return; an includer may define it first (the tests report through
 * their own harness), otherwise the message goes to stderr and the
 * process exits with status 1.
 */
#ifndef XGAS_PTL_ENV_H
#define XGAS_PTL_ENV_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <portals4.h>

#ifndef PTL_ENV_CHECK
#define PTL_ENV_CHECK(cond, ...)                            \
    do {                                                    \
        if (!(cond)) {                                      \
            fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                   \
            fputc('\n', stderr);                            \
            exit(1);                                        \
        }                                                   \
    } while (0)
#endif

#define PTL_ENV_BARRIER_PT 63 /* portal index reserved for the barrier */

typedef struct ptl_env {
    ptl_handle_ni_t ni; /* matching, logical */
    int rank;
    int npes;
    ptl_handle_ct_t bar_ct;
    ptl_handle_eq_t bar_eq;
    ptl_handle_md_t bar_md;
    ptl_handle_me_t bar_me;
    uint64_t bar_round;
    uint64_t bar_bits; /* one value per ptl_env_init of a run */
    char bar_byte;
} ptl_env_t;

static int ptl_env_lives; /* ptl_env_init calls so far */

static const char *const ptl_env_rc_names[] = {"PTL_OK",
                                               "PTL_ARG_INVALID",
                                               "PTL_CT_NONE_REACHED",
                                               "PTL_EQ_DROPPED",
                                               "PTL_EQ_EMPTY",
                                               "PTL_FAIL",
                                               "PTL_IGNORED",
                                               "PTL_IN_USE",
                                               "PTL_INTERRUPTED",
                                               "PTL_LIST_TOO_LONG",
                                               "PTL_NO_INIT",
                                               "PTL_NO_SPACE",
                                               "PTL_PID_IN_USE",
                                               "PTL_PT_FULL",
                                               "PTL_PT_EQ_NEEDED",
                                               "PTL_PT_IN_USE"};

static inline const char *ptl_env_rc(int rc)
{
    return ((rc >= 0) && (rc < (int)(sizeof(ptl_env_rc_names) /
                                     sizeof(ptl_env_rc_names[0]))))
               ? ptl_env_rc_names[rc]
               : "?";
}

static const char *const ptl_env_ev_names[] = {
    "GET",          "GET_OVERFLOW",
    "PUT",          "PUT_OVERFLOW",
    "ATOMIC",       "ATOMIC_OVERFLOW",
    "FETCH_ATOMIC", "FETCH_ATOMIC_OVERFLOW",
    "REPLY",        "SEND",
    "ACK",          "PT_DISABLED",
    "LINK",         "AUTO_UNLINK",
    "AUTO_FREE",    "SEARCH"};

static inline const char *ptl_env_ev(int type)
{
    return ((type >= 0) && (type < 16)) ? ptl_env_ev_names[type] : "?";
}

/* Checks that a Portals call returns @want. */
#define PTL_ENV_EXPECT(want, call)                                             \
    do {                                                                       \
        int ptl_rc_ = (call);                                                  \
        PTL_ENV_CHECK(ptl_rc_ == (want), "%s returned %s, expected %s", #call, \
                      ptl_env_rc(ptl_rc_), ptl_env_rc(want));                  \
    } while (0)

#define PTL_ENV_OK(call) PTL_ENV_EXPECT(PTL_OK, call)

static inline ptl_process_t ptl_env_rank(int rank)
{
    ptl_process_t p;

    memset(&p, 0, sizeof(p));
    p.rank = (ptl_rank_t)rank;
    return p;
}

/* Each round every process puts to every other one (acknowledged: a put
 * that arrives before the peer has its barrier entry is dropped, and sent
 * again), then waits until its counter shows one put per peer and round. */
static inline void ptl_env_barrier(ptl_env_t *env)
{
    ptl_ct_event_t ct;
    ptl_event_t ev;
    int pe, pending = env->npes - 1;

    env->bar_round++;
    for (pe = 0; pe < env->npes; pe++) {
        if (pe != env->rank) {
            PTL_ENV_OK(PtlPut(env->bar_md, 0, 0, PTL_ACK_REQ, ptl_env_rank(pe),
                              PTL_ENV_BARRIER_PT, env->bar_bits, 0,
                              (void *)(intptr_t)pe, 0));
        }
    }
    while (pending > 0) {
        PTL_ENV_OK(PtlEQWait(env->bar_eq, &ev));
        if (ev.type != PTL_EVENT_ACK) {
            continue;
        }
        if (ev.ni_fail_type == PTL_NI_OK) {
            pending--;
            continue;
        }
        pe = (int)(intptr_t)ev.user_ptr;
        PTL_ENV_OK(PtlPut(env->bar_md, 0, 0, PTL_ACK_REQ, ptl_env_rank(pe),
                          PTL_ENV_BARRIER_PT, env->bar_bits, 0,
                          (void *)(intptr_t)pe, 0));
    }
    PTL_ENV_OK(PtlCTWait(env->bar_ct,
                         env->bar_round * (uint64_t)(env->npes - 1), &ct));
    PTL_ENV_CHECK(ct.failure == 0, "barrier counter failed %llu times",
                  (unsigned long long)ct.failure);
}

/*
 * Initializes Portals, the NI and the barrier's objects (its event queue
 * holds @eq_size events).  The caller then runs ptl_env_barrier once, so
 * that everybody has its barrier entry before anybody counts on it.
 */
static inline void ptl_env_init(ptl_env_t *env, ptl_size_t eq_size)
{
    ptl_process_t id;
    ptl_size_t map_size;
    ptl_md_t md;
    ptl_me_t me;
    ptl_pt_index_t pt;

    memset(env, 0, sizeof(*env));
    /* a process that re-initializes must not count puts meant for the
     * barrier of a peer's previous life (or the other way round) */
    env->bar_bits = (uint64_t)ptl_env_lives++;
    PTL_ENV_OK(PtlInit());
    PTL_ENV_OK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_LOGICAL,
                         PTL_PID_ANY, NULL, NULL, &env->ni));
    PTL_ENV_OK(PtlGetId(env->ni, &id));
    PTL_ENV_OK(PtlGetMap(env->ni, 0, NULL, &map_size));
    env->rank = (int)id.rank;
    env->npes = (int)map_size;

    PTL_ENV_OK(PtlCTAlloc(env->ni, &env->bar_ct));
    PTL_ENV_OK(PtlEQAlloc(env->ni, eq_size, &env->bar_eq));
    PTL_ENV_OK(PtlPTAlloc(env->ni, 0, PTL_EQ_NONE, PTL_ENV_BARRIER_PT, &pt));
    memset(&me, 0, sizeof(me));
    me.ct_handle = env->bar_ct;
    me.uid       = PTL_UID_ANY;
    me.options   = PTL_ME_OP_PUT | PTL_ME_EVENT_CT_COMM |
                 PTL_ME_EVENT_LINK_DISABLE | PTL_ME_EVENT_COMM_DISABLE;
    me.match_id.rank = PTL_RANK_ANY;
    me.match_bits    = env->bar_bits;
    PTL_ENV_OK(
        PtlMEAppend(env->ni, pt, &me, PTL_PRIORITY_LIST, NULL, &env->bar_me));
    memset(&md, 0, sizeof(md));
    md.start     = &env->bar_byte;
    md.length    = 1;
    md.eq_handle = env->bar_eq;
    md.ct_handle = PTL_CT_NONE;
    md.options   = PTL_MD_EVENT_SEND_DISABLE;
    PTL_ENV_OK(PtlMDBind(env->ni, &md, &env->bar_md));
}

/* A last barrier, then every object of ptl_env_init freed in turn. */
static inline void ptl_env_fini(ptl_env_t *env)
{
    ptl_env_barrier(env);
    PTL_ENV_OK(PtlMDRelease(env->bar_md));
    PTL_ENV_OK(PtlMEUnlink(env->bar_me));
    PTL_ENV_OK(PtlPTFree(env->ni, PTL_ENV_BARRIER_PT));
    PTL_ENV_OK(PtlCTFree(env->bar_ct));
    PTL_ENV_OK(PtlEQFree(env->bar_eq));
    PTL_ENV_OK(PtlNIFini(env->ni));
    PtlFini();
}

#endif
