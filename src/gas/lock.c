/*
 * Distributed locks (xg_gas_ops.h): an MCS queue lock built in the
 * program's own lock object -- a symmetric 8-byte object that starts at 0
 * on every PE -- so it needs no memory of its own and works for any number
 * of locks.  Each PE's copy of the object is split into two 32-bit words:
 *
 *   word 0, the PE's queue node:  bit 31 "still waiting", bit 30 "this PE
 *                                 holds the lock", bits 0..29 the
 *                                 successor in the queue (PE + 1, 0 = none)
 *   word 1, on the lock's home PE only: the tail of the queue (PE + 1 of
 *                                 the last PE that asked, 0 = the lock is
 *                                 free)
 *
 * OpenSHMEM's locks have their home on PE 0; ARMCI's mutexes (one object
 * per mutex and hosting process) on the process that hosts them.
 *
 * To acquire, a PE marks its node waiting, swaps itself in as the tail and,
 * if there was a predecessor, links itself into the predecessor's node and
 * polls its own node until the predecessor clears the waiting bit.  So each
 * waiter spins on its own memory, and the lock passes in the order the PEs
 * asked for it (FIFO, no starvation).  To release, the holder hands the lock
 * to its successor, or, if it has none, swings the tail back to 0 -- unless
 * a PE is just joining, whose link it then waits for.  The "holds" bit
 * lets clear refuse a lock this PE does not hold (which would otherwise
 * wait forever for a successor that never links).
 *
 * All words are 32-bit, naturally aligned halves of the object, updated
 * only with atomics; their meaning does not depend on byte order.  Locks
 * are per PE: one thread of a PE may use a given lock at a time.  Every
 * update is a gas atomic (xg_gas_amo), so the lock works on any route --
 * a PE's own node included, which other PEs update too -- and a PE polls
 * its own node with plain loads of its copy.
 */
#include "gas/xg_gas_ops.h"

#include <stdio.h>

#include "base/xg_wait.h"
#include "gas/region/xg_gas_am.h"

#define LOCK_WAITING (1u << 31)
#define LOCK_HELD    (1u << 30)
#define LOCK_NEXT    (LOCK_HELD - 1u) /* the successor bits */
#define LOCK_HOME    0                /* the home of OpenSHMEM's locks */

/* Completes nothing: lock words are updated with blocking atomics. */
static xg_gas_ctx_t lock_ctx = XG_GAS_CTX_INIT_SHARED;

/* The lock object is usable on this PE and on its @home. */
static xg_status_t lock_check(void *lock, int home)
{
    xg_status_t status;

    if (((uintptr_t)lock & (sizeof(uint64_t) - 1)) != 0) {
        return XG_ERR_MISALIGNED;
    }
    status = xg_gas_diagnose(lock, sizeof(uint64_t), xg_gas.me);
    if (status == XG_OK) {
        status = xg_gas_diagnose(lock, sizeof(uint64_t), home);
    }
    return status;
}

#define LOCK_NODE 0 /* the words of the object */
#define LOCK_TAIL 1

/* @op on word @word of PE @pe's copy of @lock (checked): the old value. */
static uint32_t lock_amo(xg_gas_amo_t op, void *lock, int word, int pe,
                         uint32_t value, uint32_t cond)
{
    return (uint32_t)xg_gas_amo(&lock_ctx, op, (uint32_t *)lock + word,
                                sizeof(uint32_t), value, cond, pe)
        .old;
}

/* This PE's node, as other PEs' atomics leave it. */
static uint32_t lock_my_node(void *lock)
{
    return __atomic_load_n((uint32_t *)lock + LOCK_NODE, __ATOMIC_ACQUIRE);
}

static void lock_describe(const xg_wait_what_t *what, char *buf, size_t len)
{
    snprintf(buf, len, "waiting for PE %d to pass on the lock at %p",
             what->peer, what->arg);
}

xg_status_t xg_gas_lock_set_at(const char *routine, void *lock, int home)
{
    int me = xg_gas.me;
    uint32_t prev;
    xg_status_t status = lock_check(lock, home);
    xg_wait_what_t what;
    xg_wait_t wait;

    if (status != XG_OK) {
        return status;
    }
    if ((lock_my_node(lock) & (LOCK_HELD | LOCK_WAITING)) != 0) {
        return XG_GAS_LOCK_REENTERED;
    }
    lock_amo(XG_GAS_AMO_SET, lock, LOCK_NODE, me, LOCK_WAITING, 0);
    prev =
        lock_amo(XG_GAS_AMO_SWAP, lock, LOCK_TAIL, home, (uint32_t)me + 1, 0);
    if (prev == 0) {
        /* ours at once; a successor may already have linked itself into
         * our node, so flip only waiting (set) and held (clear) */
        lock_amo(XG_GAS_AMO_XOR, lock, LOCK_NODE, me, LOCK_WAITING | LOCK_HELD,
                 0);
        return XG_OK;
    }
    lock_amo(XG_GAS_AMO_OR, lock, LOCK_NODE, (int)prev - 1, (uint32_t)me + 1,
             0);
    xg_wait_init(&wait);
    what = (xg_wait_what_t){.routine  = routine,
                            .peer     = (int)prev - 1,
                            .describe = lock_describe,
                            .arg      = lock,
                            /* its symmetric offset: the lock's name on
                             * every PE (checked: it is symmetric) */
                            .object = xg_gas_offset(lock) + 1};
    xg_wait_watch(&wait, &what);
    /* acquire: the previous holder's critical section happens before ours */
    while (lock_my_node(lock) & LOCK_WAITING) {
        xg_gas_am_idle();
        xg_gas_wait_backoff(&wait);
    }
    lock_amo(XG_GAS_AMO_OR, lock, LOCK_NODE, me, LOCK_HELD, 0);
    return XG_OK;
}

xg_status_t xg_gas_lock_test_at(void *lock, int home, int *taken_p)
{
    int me             = xg_gas.me;
    xg_status_t status = lock_check(lock, home);

    if (status != XG_OK) {
        return status;
    }
    /* Held or awaited already: our node carries the queue's link to our
     * successor (or a predecessor is about to clear its waiting bit), so
     * the reset below would cut the queue and hang whoever follows us. */
    if ((lock_my_node(lock) & (LOCK_HELD | LOCK_WAITING)) != 0) {
        return XG_GAS_LOCK_REENTERED;
    }
    /* nobody links into our node unless the swap below makes us the tail */
    lock_amo(XG_GAS_AMO_SET, lock, LOCK_NODE, me, LOCK_HELD, 0);
    if (lock_amo(XG_GAS_AMO_CSWAP, lock, LOCK_TAIL, home, (uint32_t)me + 1,
                 0) == 0) {
        *taken_p = 1;
        return XG_OK;
    }
    lock_amo(XG_GAS_AMO_SET, lock, LOCK_NODE, me, 0, 0);
    *taken_p = 0;
    return XG_OK;
}

xg_status_t xg_gas_lock_clear_at(xg_gas_ctx_t *ctx, void *lock, int home)
{
    int me = xg_gas.me;
    uint32_t next;
    xg_status_t status = lock_check(lock, home);
    xg_wait_t wait;

    if (status != XG_OK) {
        return status;
    }
    if (lock_amo(XG_GAS_AMO_FETCH, lock, LOCK_TAIL, home, 0, 0) == 0) {
        return XG_GAS_LOCK_FREE;
    }
    if ((lock_my_node(lock) & LOCK_HELD) == 0) {
        return XG_GAS_LOCK_NOT_MINE;
    }
    xg_gas_ctx_quiet(ctx); /* releasing a lock completes earlier puts */
    /* not ours any more; keeps a successor's link */
    next = lock_amo(XG_GAS_AMO_AND, lock, LOCK_NODE, me, ~LOCK_HELD, 0) &
           LOCK_NEXT;
    if (next == 0) {
        if (lock_amo(XG_GAS_AMO_CSWAP, lock, LOCK_TAIL, home, 0,
                     (uint32_t)me + 1) == (uint32_t)me + 1) {
            return XG_OK; /* nobody waiting */
        }
        /* a PE swapped itself in as the tail and is about to link */
        xg_wait_init(&wait);
        while ((next = lock_my_node(lock) & LOCK_NEXT) == 0) {
            xg_gas_wait_backoff(&wait);
        }
    }
    lock_amo(XG_GAS_AMO_SET, lock, LOCK_NODE, me, 0, 0);
    /* our critical section happens before the successor's (the atomic is
     * sequentially consistent) */
    lock_amo(XG_GAS_AMO_AND, lock, LOCK_NODE, (int)next - 1, ~LOCK_WAITING, 0);
    return XG_OK;
}

xg_status_t xg_gas_lock_set(const char *routine, void *lock)
{
    return xg_gas_lock_set_at(routine, lock, LOCK_HOME);
}

xg_status_t xg_gas_lock_test(void *lock, int *taken_p)
{
    return xg_gas_lock_test_at(lock, LOCK_HOME, taken_p);
}

xg_status_t xg_gas_lock_clear(xg_gas_ctx_t *ctx, void *lock)
{
    return xg_gas_lock_clear_at(ctx, lock, LOCK_HOME);
}
