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

#include <stddef.h>

#include "base/xg_compiler.h"

/*
 * What a blocking wait is for, for hang reports.  A blocking routine fills
 * one on its stack and hands it to xg_wait_watch(); nothing is published
 * while the wait stays short.  Once the wait has backed off to yielding,
 * each back-off round calls xg_wait_hook (installed by boot, which writes
 * the description where the launcher reads it).  base does not interpret
 * the numbers: for boot's hook @peer is the world PE whose action ends the
 * wait (-1 if there is no single one), and the members (world PEs start +
 * r * stride, r < count; count 0: none) are the PEs that take part in the
 * same collective call: if one of them has entered shmem_finalize while
 * the wait goes on, the wait can never end.
 */
typedef struct xg_wait_what {
    const char *routine;  /* the routine blocked, e.g. "shmem_barrier_all" */
    int         peer;
    int         member_start, member_stride, member_count;
    /* writes what the wait is for into @buf (at most @len bytes with the
     * NUL), e.g. "barrier #3 on SHMEM_TEAM_WORLD, waiting for PE 2" */
    void      (*describe)(const struct xg_wait_what *what, char *buf,
                          size_t len);
    const void *arg;      /* for describe */
} xg_wait_what_t;

typedef struct xg_wait {
    unsigned              polls;
    unsigned              watched; /* the hook's state; 0 before it ran */
    const xg_wait_what_t *what;    /* NULL: nothing to report */
} xg_wait_t;

/* Called by the slow back-off rounds of watched waits (NULL: none). */
typedef void (*xg_wait_hook_t)(xg_wait_t *wait);
extern xg_wait_hook_t xg_wait_hook;

extern unsigned xg_wait_spin_polls;

void xg_wait_backoff_slow(xg_wait_t *wait);

static inline void xg_wait_init(xg_wait_t *wait)
{
    wait->polls   = 0;
    wait->watched = 0;
    wait->what    = NULL;
}

/* Names what @wait is for; @what must live as long as the wait. */
static inline void xg_wait_watch(xg_wait_t *wait, const xg_wait_what_t *what)
{
    wait->what = what;
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
