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

#include <stdatomic.h>
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
    const char *routine; /* the routine blocked, e.g. "shmem_barrier_all" */
    int peer;
    int member_start, member_stride, member_count;
    /* writes what the wait is for into @buf (at most @len bytes with the
     * NUL), e.g. "barrier #3 on SHMEM_TEAM_WORLD, waiting for PE 2" */
    void (*describe)(const struct xg_wait_what *what, char *buf, size_t len);
    const void *arg; /* for describe */
    /* names the object waited for, the same on every PE, when it is one
     * that a PE holds (a lock), else 0: the PEs waiting for one object
     * form a chain through @peer, whose end -- a PE not waiting for it --
     * holds it */
    unsigned long long object;
} xg_wait_what_t;

typedef struct xg_wait {
    unsigned polls;
    unsigned watched;           /* the hook's state; 0 before it ran */
    unsigned long net_events;   /* xg_wait_net_events last seen */
    int net;                    /* polls the network: may sleep on
                                       * its doorbell (xg_wait_net_sleep) */
    const xg_wait_what_t *what; /* NULL: nothing to report */
} xg_wait_t;

/* Called by the slow back-off rounds of watched waits (NULL: none). */
typedef void (*xg_wait_hook_t)(xg_wait_t *wait);
extern xg_wait_hook_t xg_wait_hook;

extern unsigned xg_wait_spin_polls;

void xg_wait_backoff_slow(xg_wait_t *wait);

static inline void xg_wait_init(xg_wait_t *wait)
{
    wait->polls      = 0;
    wait->watched    = 0;
    wait->net_events = 0;
    wait->net        = 0;
    wait->what       = NULL;
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

/* 1 once @wait has backed off past spinning and pausing, to yielding:
 * a loop that can sleep in the kernel until its condition changes (a
 * futex) does so from here on. */
int xg_wait_sleepy(const xg_wait_t *wait);

/* Applies XGAS_WAIT_SPIN / XGAS_WAIT_PAUSE (after xg_config_load). */
void xg_wait_configure(unsigned spin_polls, unsigned pause_rounds);

/*
 * Waits that poll the network.  A network whose provider moves bytes only
 * while the process reads its queues (libfabric's tcp: an RMA aimed at
 * this PE lands, or is answered, during such a read) is served best by a
 * thread that is already running.  Two threads polling it -- a waiting
 * application thread and the NIC's progress thread, woken by every
 * arrival -- take turns on the cores and the provider's lock, and on a
 * machine with few cores that doubles the latency.  So, in a job over
 * several nodes:
 *
 *   - a waiting thread calls xg_wait_net_backoff() after each poll of the
 *     network instead of xg_wait_backoff(): while it has not backed off to
 *     sleeping it marks the network as polled, and the progress thread,
 *     seeing the mark (xg_wait_net_claim), leaves the network to it for a
 *     moment instead of sleeping on the network's descriptor;
 *   - a waiting thread that has backed off to sleeping sleeps on the
 *     network's doorbell (xg_wait_net_sleep, installed by the NIC) rather
 *     than for a fixed time, unless another thread already does: it
 *     wakes when something arrives, and stays the network's poller;
 *   - whoever is woken by the network's descriptor counts it
 *     (xg_wait_net_event), and a waiting thread that sees the count move
 *     -- or handled something itself -- looks again at once (its back-off
 *     starts over): an RMA served by the provider leaves no completion at
 *     the target, and this is how a target that went to sleep in a wait
 *     learns that it is being accessed, and becomes the poller again.
 */
extern _Atomic unsigned long xg_wait_net_events;

/* After a poll of the network by a waiting thread that handled @handled
 * items (completions, packets). */
void xg_wait_net_backoff(xg_wait_t *wait, unsigned handled);

/* Sleeps on the network's doorbell for at most @ns nanoseconds, as the
 * network's only sleeper; returns 0 at once if it cannot (no network, or
 * another thread sleeps on it).  NULL: there is none.  Set and read with
 * __atomic builtins (a waiting thread may read it while the NIC starts). */
extern int (*_Atomic xg_wait_net_sleep)(unsigned long ns);

/* A thread was woken by the network's descriptor. */
static inline void xg_wait_net_event(void)
{
    atomic_fetch_add_explicit(&xg_wait_net_events, 1, memory_order_relaxed);
}

/* 1 if a waiting thread polled the network since the last call (for the
 * NIC's progress thread). */
int xg_wait_net_claim(void);

#endif
