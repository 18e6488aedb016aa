/*
 * Contended path of the spin lock (see xg_spinlock.h): out of line so the
 * inline acquire stays one test-and-set.
 */
#include "base/xg_spinlock.h"

#include "base/xg_wait.h"

void xg_spinlock_lock_slow(xg_spinlock_t *lock)
{
    xg_wait_t wait;

    xg_wait_init(&wait);
    while (
        atomic_flag_test_and_set_explicit(&lock->flag, memory_order_acquire)) {
        xg_wait_backoff(&wait);
    }
}
