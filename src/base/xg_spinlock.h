/*
 * A one-word spin lock whose contended path backs off (xg_wait_backoff),
 * so waiters make progress with 8 PEs on 2 cores.  For short critical
 * sections that never wait for anything while held (the NIC's send queues
 * and event queues); use a mutex for anything longer.
 */
#ifndef XG_SPINLOCK_H
#define XG_SPINLOCK_H

#include <stdatomic.h>

#include "base/xg_compiler.h"

typedef struct xg_spinlock {
    atomic_flag flag;
} xg_spinlock_t;

/* Contended acquire: backs off until the holder releases. */
void xg_spinlock_lock_slow(xg_spinlock_t *lock);

static inline void xg_spinlock_init(xg_spinlock_t *lock)
{
    atomic_flag_clear(&lock->flag);
}

static inline void xg_spinlock_lock(xg_spinlock_t *lock)
{
    if (xg_unlikely(atomic_flag_test_and_set_explicit(&lock->flag,
                                                      memory_order_acquire))) {
        xg_spinlock_lock_slow(lock);
    }
}

/* 1 if the lock was taken, 0 if another thread holds it. */
static inline int xg_spinlock_trylock(xg_spinlock_t *lock)
{
    return !atomic_flag_test_and_set_explicit(&lock->flag,
                                              memory_order_acquire);
}

static inline void xg_spinlock_unlock(xg_spinlock_t *lock)
{
    atomic_flag_clear_explicit(&lock->flag, memory_order_release);
}

#endif
