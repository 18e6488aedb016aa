/*
 * Back-off schedule of xg_wait_backoff(): spin, then pause bursts that
 * double each round, then sched_yield(), then short sleeps.  Sleeping only
 * starts after thousands of yields, i.e. when the awaited event is far away
 * (or its producer is descheduled), so it does not affect latency on an
 * idle machine.
 */
#include "base/xg_wait.h"

#include <sched.h>
#include <time.h>

unsigned xg_wait_spin_polls = 64;
xg_wait_hook_t xg_wait_hook;
static unsigned wait_pause_rounds = 8;

enum {
    WAIT_YIELDS_BEFORE_SLEEP = 2000,
    WAIT_SLEEP_NS = 20000
};

void xg_wait_configure(unsigned spin_polls, unsigned pause_rounds)
{
    xg_wait_spin_polls = (spin_polls == 0) ? 1 : spin_polls;
    wait_pause_rounds = pause_rounds;
}

void xg_wait_backoff_slow(xg_wait_t *wait)
{
    unsigned round = wait->polls - xg_wait_spin_polls;
    unsigned i;
    struct timespec nap = {0, WAIT_SLEEP_NS};

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
    } else {
        nanosleep(&nap, NULL);
        wait->polls--; /* stay in the sleeping phase without overflow */
    }
}
