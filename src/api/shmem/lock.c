/*
 * OpenSHMEM distributed locks: shmem_set_lock, shmem_test_lock,
 * shmem_clear_lock.
 *
 * A lock is an MCS queue lock built in the program's own lock object -- a
 * symmetric long that starts at 0 on every PE -- so it needs no memory of
 * its own and works for any number of locks.  Each PE's copy of the long is
 * split into two 32-bit words:
 *
 *   word 0, the PE's queue node:  bit 31 "still waiting", bit 30 "this PE
 *                                 holds the lock", bits 0..29 the
 *                                 successor in the queue (PE + 1, 0 = none)
 *   word 1, on PE 0 only: the tail of the queue (PE + 1 of the last PE that
 *                                 asked, 0 = the lock is free)
 *
 * To acquire, a PE marks its node waiting, swaps itself in as the tail and,
 * if there was a predecessor, links itself into the predecessor's node and
 * polls its own node until the predecessor clears the waiting bit.  So each
 * waiter spins on its own memory, and the lock passes in the order the PEs
 * asked for it (FIFO, no starvation).  To release, the holder hands the lock
 * to its successor, or, if it has none, swings the tail back to 0 -- unless
 * a PE is just joining, whose link it then waits for.  The "holds" bit
 * lets shmem_clear_lock refuse a lock this PE does not hold (which would
 * otherwise wait forever for a successor that never links).
 *
 * All words are 32-bit, naturally aligned halves of the long, updated only
 * with atomics; their meaning does not depend on byte order.  Locks are per
 * PE: one thread of a PE may use a given lock at a time.
 */
#include <stdio.h>

#include "api/shmem/shmem_int.h"
#include "base/xg_wait.h"

#define LOCK_WAITING (1u << 31)
#define LOCK_HELD    (1u << 30)
#define LOCK_NEXT    (LOCK_HELD - 1u) /* the successor bits */
#define LOCK_HOME    0 /* the PE whose copy holds the tail */

typedef struct {
    uint32_t *my_node;   /* this PE's node */
    uint32_t *tail;      /* the tail, on LOCK_HOME */
} lock_words_t;

static lock_words_t lock_words(const char *routine, long *lock)
{
    uint32_t *mine = xg_shmem_atomic_target(routine, lock, sizeof(*lock),
                                            xg_gas.me);
    uint32_t *home = xg_shmem_atomic_target(routine, lock, sizeof(*lock),
                                            LOCK_HOME);

    return (lock_words_t){.my_node = &mine[0], .tail = &home[1]};
}

/* PE @pe's node of @lock. */
static uint32_t *lock_node(const char *routine, long *lock, int pe)
{
    return &((uint32_t *)xg_shmem_atomic_target(routine, lock,
                                                sizeof(*lock), pe))[0];
}

static void lock_describe(const xg_wait_what_t *what, char *buf, size_t len)
{
    snprintf(buf, len, "waiting for PE %d to pass on the lock at %p",
             what->peer, what->arg);
}

XG_SHMEM_API void shmem_set_lock(long *lock)
{
    lock_words_t w = lock_words(__func__, lock);
    uint32_t me = (uint32_t)xg_gas.me + 1, prev;
    xg_wait_what_t what;
    xg_wait_t wait;

    __atomic_store_n(w.my_node, LOCK_WAITING, __ATOMIC_RELAXED);
    prev = __atomic_exchange_n(w.tail, me, __ATOMIC_ACQ_REL);
    if (prev == 0) {
        /* ours at once; a successor may already have linked itself into
         * our node, so flip only waiting (set) and held (clear) */
        __atomic_fetch_xor(w.my_node, LOCK_WAITING | LOCK_HELD,
                           __ATOMIC_RELAXED);
        return;
    }
    if (prev == me) {
        xg_shmem_fail(__func__, "this PE already holds the lock at %p: "
                      "OpenSHMEM locks are not reentrant; call "
                      "shmem_clear_lock first", (void *)lock);
    }
    __atomic_fetch_or(lock_node(__func__, lock, (int)prev - 1), me,
                      __ATOMIC_RELEASE);
    xg_wait_init(&wait);
    what = (xg_wait_what_t){.routine = __func__, .peer = (int)prev - 1,
                            .describe = lock_describe, .arg = lock};
    xg_wait_watch(&wait, &what);
    /* acquire: the previous holder's critical section happens before ours */
    while (__atomic_load_n(w.my_node, __ATOMIC_ACQUIRE) & LOCK_WAITING) {
        xg_wait_backoff(&wait);
    }
    __atomic_fetch_or(w.my_node, LOCK_HELD, __ATOMIC_RELAXED);
}
XG_PSHMEM(shmem_set_lock)

XG_SHMEM_API int shmem_test_lock(long *lock)
{
    lock_words_t w = lock_words(__func__, lock);
    uint32_t me = (uint32_t)xg_gas.me + 1, free_tail = 0;

    /* nobody links into our node unless the swap below makes us the tail */
    __atomic_store_n(w.my_node, LOCK_HELD, __ATOMIC_RELAXED);
    if (__atomic_compare_exchange_n(w.tail, &free_tail, me, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
        return 0;
    }
    __atomic_store_n(w.my_node, 0, __ATOMIC_RELAXED);
    return 1;
}
XG_PSHMEM(shmem_test_lock)

XG_SHMEM_API void shmem_clear_lock(long *lock)
{
    lock_words_t w = lock_words(__func__, lock);
    uint32_t me = (uint32_t)xg_gas.me + 1, next, expected = me;
    xg_wait_t wait;

    if (__atomic_load_n(w.tail, __ATOMIC_ACQUIRE) == 0) {
        xg_shmem_fail(__func__, "the lock at %p is not held by any PE: "
                      "call shmem_clear_lock only after shmem_set_lock or "
                      "a successful shmem_test_lock", (void *)lock);
    }
    if ((__atomic_load_n(w.my_node, __ATOMIC_RELAXED) & LOCK_HELD) == 0) {
        xg_shmem_fail(__func__, "this PE (PE %d) does not hold the lock at "
                      "%p (another PE does, or this PE is still waiting "
                      "for it): only the PE that acquired a lock with "
                      "shmem_set_lock or shmem_test_lock may clear it",
                      xg_gas.me, (void *)lock);
    }
    xg_gas_quiet(); /* the specification: clearing a lock completes puts */
    /* not ours any more; keeps a successor's link */
    next = __atomic_and_fetch(w.my_node, ~LOCK_HELD, __ATOMIC_ACQUIRE) &
           LOCK_NEXT;
    if (next == 0) {
        if (__atomic_compare_exchange_n(w.tail, &expected, 0, 0,
                                        __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED)) {
            return; /* nobody waiting */
        }
        /* a PE swapped itself in as the tail and is about to link */
        xg_wait_init(&wait);
        while ((next = __atomic_load_n(w.my_node, __ATOMIC_ACQUIRE) &
                       LOCK_NEXT) == 0) {
            xg_wait_backoff(&wait);
        }
    }
    __atomic_store_n(w.my_node, 0, __ATOMIC_RELAXED);
    /* release: our critical section happens before the successor's */
    __atomic_fetch_and(lock_node(__func__, lock, (int)next - 1),
                       ~LOCK_WAITING, __ATOMIC_RELEASE);
}
XG_PSHMEM(shmem_clear_lock)
