/*
 * guest.h: helpers of the machine's guest tests (RV64 programs run by
 * xgas-xbgas): a barrier made of xBGAS instructions (an eamoadd on PE 0's
 * counter, then polling PE 0's generation with a yield between polls, so
 * it progresses oversubscribed) and CHECK, which ends the job with the
 * failed condition.
 */
#ifndef XG_XBGAS_GUEST_H
#define XG_XBGAS_GUEST_H

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "xbgas.h"

#define CHECK(cond)                                                       \
    do {                                                                  \
        if (!(cond)) {                                                    \
            fprintf(stderr, "PE %d: %s:%d: CHECK failed: %s\n", guest_me, \
                    __FILE__, __LINE__, #cond);                           \
            exit(1);                                                      \
        }                                                                 \
    } while (0)

#define CHECK_EQ(a, b)                                             \
    do {                                                           \
        unsigned long long a_ = (unsigned long long)(a);           \
        unsigned long long b_ = (unsigned long long)(b);           \
        if (a_ != b_) {                                            \
            fprintf(stderr,                                        \
                    "PE %d: %s:%d: %s = 0x%llx, expected %s = "    \
                    "0x%llx\n",                                    \
                    guest_me, __FILE__, __LINE__, #a, a_, #b, b_); \
            exit(1);                                               \
        }                                                          \
    } while (0)

static uint64_t guest_bar_count, guest_bar_gen;
static int guest_me, guest_npes;

/* e10/e11 hold the PE and PE count only until an access uses a0/a1. */
__attribute__((constructor)) static void guest_init(void)
{
    guest_me   = (int)xbgas_mype();
    guest_npes = (int)xbgas_npes();
}

static inline void guest_barrier(void)
{
    uint64_t ns0 = xbgas_ns(0), npes = (uint64_t)guest_npes;
    xbgas_fence();
    uint64_t gen = xbgas_eld(ns0, &guest_bar_gen);
    if (xbgas_eamoadd_d(ns0, &guest_bar_count, 1) == npes - 1) {
        xbgas_esd(ns0, &guest_bar_count, 0);
        xbgas_fence();
        xbgas_eamoadd_d(ns0, &guest_bar_gen, 1);
        return;
    }
    while (xbgas_eld(ns0, &guest_bar_gen) == gen)
        sched_yield();
}

#endif
