/*
 * Helpers for the Portals 4 API tests.  Each test is a program run through
 * xgasrun with 1..8 processes; ranks come from the logical NI (no PtlSetMap:
 * xgasrun's rank r is logical process r).  ptl_test_barrier() is built on
 * Portals itself (a counting ME on a reserved portal index), so a test
 * needs nothing but the API it tests.  Waits never time out: a hang is
 * ended by CTest's timeout, and no assertion depends on timing.  The
 * environment (NI, barrier, names of codes and events) is the one the
 * software NIC's benchmarks use, bench/lib/ptl_env.h; its failed checks
 * report through XG_CHECK here.
 */
#ifndef PTL_TEST_H
#define PTL_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xg_test.h"

#define PTL_ENV_CHECK(cond, ...) XG_CHECK(cond, __VA_ARGS__)
/* found through the tests' include root, tests/ */
#include "../bench/lib/ptl_env.h"

#define PTL_TEST_BARRIER_PT PTL_ENV_BARRIER_PT

typedef ptl_env_t ptl_test_env_t;

/* Checks that a Portals call returns @want. */
#define PTL_EXPECT(want, call) PTL_ENV_EXPECT(want, call)

#define PTL_OK_OR_DIE(call) PTL_EXPECT(PTL_OK, call)

static inline const char *ptl_test_rc(int rc)
{
    return ptl_env_rc(rc);
}

static inline const char *ptl_test_ev(int type)
{
    return ptl_env_ev(type);
}

static inline ptl_process_t ptl_test_rank(int rank)
{
    return ptl_env_rank(rank);
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

static inline void ptl_test_barrier(ptl_test_env_t *env)
{
    ptl_env_barrier(env);
}

static inline void ptl_test_init(ptl_test_env_t *env)
{
    ptl_env_init(env, 64);
    xg_test_pe = env->rank;
    ptl_env_barrier(env);
}

static inline void ptl_test_fini(ptl_test_env_t *env)
{
    ptl_env_fini(env);
}

/* A deterministic byte pattern: byte i of message @tag. */
static inline uint8_t ptl_test_byte(uint64_t tag, uint64_t i)
{
    return (uint8_t)((tag * 131u + i * 7u + (i >> 8)) & 0xff);
}

#endif
