/*
 * The wait primitive every polling loop in xgas uses.  A loop calls
 * xg_wait_backoff() once per unsuccessful poll; the first XGAS_WAIT_SPIN
 * polls only issue a CPU pause, the next XGAS_WAIT_PAUSE rounds pause for
 * exponentially longer bursts, and after that each poll yields the CPU (and
 * eventually sleeps briefly), so 8 PEs waiting on 2 cores still let the PE
 * they wait for run.  The fast case (condition already true, or true after a
 * few polls) costs a counter increment and a pause.
 */
#ifndef XG_WAIT_H
#define XG_WAIT_H

#include "base/xg_compiler.h"

typedef struct xg_wait {
    unsigned polls;
} xg_wait_t;

extern unsigned xg_wait_spin_polls;

void xg_wait_backoff_slow(xg_wait_t *wait);

static inline void xg_wait_init(xg_wait_t *wait)
{
    wait->polls = 0;
}

static inline void xg_wait_backoff(xg_wait_t *wait)
{
    if (xg_likely(++wait->polls < xg_wait_spin_polls)) {
        xg_cpu_relax();
    } else {
        xg_wait_backoff_slow(wait);
    }
}

/* Applies XGAS_WAIT_SPIN / XGAS_WAIT_PAUSE (after xg_config_load). */
void xg_wait_configure(unsigned spin_polls, unsigned pause_rounds);

#endif
