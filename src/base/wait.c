/*
 * Back-off schedule of xg_wait_backoff(): spin, then pause bursts that
 * double each round, then sched_yield(), then short sleeps.  Sleeping only
 * starts after thousands of yields, i.e. when the awaited event is far away
 * (or its producer is descheduled), so it does not affect latency on an
 * idle machine.  A wait that polls the network sleeps on the network's
 * doorbell instead when it can, and keeps the NIC's progress thread off
 * the network while it polls (xg_wait_net_backoff, xg_wait.h).
 */
#include "base/xg_wait.h"

#include <sched.h>
#include <time.h>

unsigned xg_wait_spin_polls = 64;
xg_wait_hook_t xg_wait_hook;
static unsigned wait_pause_rounds = 8;

_Atomic unsigned long xg_wait_net_events;
int (*_Atomic xg_wait_net_sleep)(unsigned long ns);
/* set by waiting threads that poll the network, cleared by the claim */
static _Atomic int wait_net_polled;

enum {
    WAIT_YIELDS_BEFORE_SLEEP = 2000,
    WAIT_SLEEP_NS            = 20000
};

void xg_wait_configure(unsigned spin_polls, unsigned pause_rounds)
{
    xg_wait_spin_polls = (spin_polls == 0) ? 1 : spin_polls;
    wait_pause_rounds  = pause_rounds;
}

static void wait_net_mark(void)
{
    /* read first: the line stays shared while the mark is already up */
    if (!atomic_load_explicit(&wait_net_polled, memory_order_relaxed)) {
        atomic_store_explicit(&wait_net_polled, 1, memory_order_relaxed);
    }
}

void xg_wait_backoff_slow(xg_wait_t *wait)
{
    unsigned round = wait->polls - xg_wait_spin_polls;
    unsigned i;
    struct timespec nap = {0, WAIT_SLEEP_NS};
    int (*net_sleep)(unsigned long ns);

    if (round < wait_pause_rounds) {
        for (i = 0; i < (2u << round); i++) {
            xg_cpu_relax();
        }
        return;
    }
    /* yielding from here on: the wait is long enough to be reported */
    if ((wait->what != NULL) && (xg_wait_hook != NULL)) {
        xg_wait_hook(wait);
    }
    if (round < wait_pause_rounds + WAIT_YIELDS_BEFORE_SLEEP) {
        sched_yield();
        return;
    }
    net_sleep = atomic_load_explicit(&xg_wait_net_sleep, memory_order_acquire);
    if (wait->net && (net_sleep != NULL) && net_sleep(WAIT_SLEEP_NS)) {
        wait_net_mark(); /* it is still the network's poller */
    } else {
        nanosleep(&nap, NULL);
    }
    wait->polls--; /* stay in the sleeping phase without overflow */
}

int xg_wait_sleepy(const xg_wait_t *wait)
{
    return wait->polls >= xg_wait_spin_polls + wait_pause_rounds;
}

/* 1 while @wait's next back-off does not sleep (a sleeping wait stays
 * one poll short of its next round: xg_wait_backoff_slow) */
static int wait_is_awake(const xg_wait_t *wait)
{
    return wait->polls + 1 <
           xg_wait_spin_polls + wait_pause_rounds + WAIT_YIELDS_BEFORE_SLEEP;
}

void xg_wait_net_backoff(xg_wait_t *wait, unsigned handled)
{
    unsigned long events =
        atomic_load_explicit(&xg_wait_net_events, memory_order_relaxed);

    wait->net = 1;
    if ((handled > 0) || (events != wait->net_events)) {
        /* the network is busy: look again at once */
        wait->net_events = events;
        wait->polls      = 0;
        wait_net_mark();
        return;
    }
    if (wait_is_awake(wait)) {
        wait_net_mark();
    }
    xg_wait_backoff(wait);
}

int xg_wait_net_claim(void)
{
    return atomic_load_explicit(&wait_net_polled, memory_order_relaxed) &&
           atomic_exchange_explicit(&wait_net_polled, 0, memory_order_relaxed);
}
