/*
 * Shared helpers of the software-NIC benchmarks: set-up of a logical
 * matching NI, a barrier over Portals, timing, medians, and the output
 * format -- one line of key=value pairs per figure, as xgas-bench prints.
 * Nothing here asserts on time.
 */
#ifndef NIC_BENCH_H
#define NIC_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <portals4.h>

#define NB_BARRIER_PT 63

typedef struct nb_env {
    ptl_handle_ni_t ni;
    int             rank;
    int             npes;
    ptl_handle_ct_t bar_ct;
    ptl_handle_eq_t bar_eq;
    ptl_handle_md_t bar_md;
    ptl_handle_me_t bar_me;
    uint64_t        bar_round;
    char            byte;
} nb_env_t;

#define NB_CALL(call)                                                      \
    do {                                                                   \
        int nb_rc_ = (call);                                               \
        if (nb_rc_ != PTL_OK) {                                            \
            fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, \
                    #call, nb_rc_);                                        \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

static inline uint64_t nb_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline ptl_process_t nb_rank(int r)
{
    ptl_process_t p;

    memset(&p, 0, sizeof(p));
    p.rank = (ptl_rank_t)r;
    return p;
}

static inline int nb_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static inline double nb_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), nb_cmp);
    return (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Barrier: every process puts to every other one (acknowledged, resent if
 * a peer is not ready yet) and waits for one put per peer and round. */
static inline void nb_barrier(nb_env_t *env)
{
    ptl_ct_event_t ct;
    ptl_event_t ev;
    int pe, pending = env->npes - 1;

    env->bar_round++;
    for (pe = 0; pe < env->npes; pe++) {
        if (pe != env->rank) {
            NB_CALL(PtlPut(env->bar_md, 0, 0, PTL_ACK_REQ, nb_rank(pe),
                           NB_BARRIER_PT, 0, 0, (void *)(intptr_t)pe, 0));
        }
    }
    while (pending > 0) {
        NB_CALL(PtlEQWait(env->bar_eq, &ev));
        if (ev.type != PTL_EVENT_ACK) {
            continue;
        }
        if (ev.ni_fail_type == PTL_NI_OK) {
            pending--;
        } else {
            pe = (int)(intptr_t)ev.user_ptr;
            NB_CALL(PtlPut(env->bar_md, 0, 0, PTL_ACK_REQ, nb_rank(pe),
                           NB_BARRIER_PT, 0, 0, (void *)(intptr_t)pe, 0));
        }
    }
    NB_CALL(PtlCTWait(env->bar_ct, env->bar_round * (uint64_t)(env->npes - 1),
                      &ct));
}

static inline void nb_init(nb_env_t *env)
{
    ptl_process_t id;
    ptl_size_t n;
    ptl_md_t md;
    ptl_me_t me;

    memset(env, 0, sizeof(*env));
    NB_CALL(PtlInit());
    NB_CALL(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_LOGICAL,
                      PTL_PID_ANY, NULL, NULL, &env->ni));
    NB_CALL(PtlGetId(env->ni, &id));
    NB_CALL(PtlGetMap(env->ni, 0, NULL, &n));
    env->rank = (int)id.rank;
    env->npes = (int)n;
    NB_CALL(PtlCTAlloc(env->ni, &env->bar_ct));
    NB_CALL(PtlEQAlloc(env->ni, 256, &env->bar_eq));
    NB_CALL(PtlPTAlloc(env->ni, 0, PTL_EQ_NONE, NB_BARRIER_PT,
                       &(ptl_pt_index_t){0}));
    memset(&me, 0, sizeof(me));
    me.ct_handle     = env->bar_ct;
    me.uid           = PTL_UID_ANY;
    me.options       = PTL_ME_OP_PUT | PTL_ME_EVENT_CT_COMM |
                       PTL_ME_EVENT_COMM_DISABLE | PTL_ME_EVENT_LINK_DISABLE;
    me.match_id.rank = PTL_RANK_ANY;
    NB_CALL(PtlMEAppend(env->ni, NB_BARRIER_PT, &me, PTL_PRIORITY_LIST, NULL,
                        &env->bar_me));
    memset(&md, 0, sizeof(md));
    md.start     = &env->byte;
    md.length    = 1;
    md.eq_handle = env->bar_eq;
    md.ct_handle = PTL_CT_NONE;
    md.options   = PTL_MD_EVENT_SEND_DISABLE;
    NB_CALL(PtlMDBind(env->ni, &md, &env->bar_md));
    nb_barrier(env);
}

static inline void nb_fini(nb_env_t *env)
{
    nb_barrier(env);
    PtlNIFini(env->ni);
    PtlFini();
}

/* The setting of a variable, for the output ("" when unset). */
static inline const char *nb_env_str(const char *name, const char *def)
{
    const char *v = getenv(name);

    return ((v != NULL) && (*v != '\0')) ? v : def;
}

#endif
