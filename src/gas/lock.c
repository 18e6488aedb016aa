/*
 * Distributed locks (xg_gas_ops.h): an MCS queue lock built in the
 * program's own lock object -- a symmetric 8-byte object that starts at 0
 * on every PE -- so it needs no memory of its own and works for any number
 * of locks.  Each PE's copy of the object is split into two 32-bit words:
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
 * lets clear refuse a lock this PE does not hold (which would otherwise
 * wait forever for a successor that never links).
 *
 * All words are 32-bit, naturally aligned halves of the object, updated
 * only with atomics; their meaning does not depend on byte order.  Locks
 * are per PE: one thread of a PE may use a given lock at a time.  Every
 * PE holding a lock word is reached directly (the words are translated
 * like an atomic's operand).
 */
#include "gas/xg_gas_ops.h"

#include <stdio.h>

#include "base/xg_wait.h"

#define LOCK_WAITING (1u << 31)
#define LOCK_HELD    (1u << 30)
#define LOCK_NEXT    (LOCK_HELD - 1u) /* the successor bits */
#define LOCK_HOME    0 /* the PE whose copy holds the tail */

/* PE @pe's copy of @lock as two words, or NULL with *@status_p set. */
static uint32_t *lock_words(void *lock, int pe, xg_status_t *status_p)
{
    uint32_t *words;

    if (((uintptr_t)lock & (sizeof(uint64_t) - 1)) != 0) {
        *status_p = XG_ERR_MISALIGNED;
        return NULL;
    }
    words = xg_gas_translate(lock, sizeof(uint64_t), pe);
    *status_p = (words != NULL) ? XG_OK
                                : xg_gas_diagnose(lock, sizeof(uint64_t), pe);
    return words;
}

typedef struct {
    uint32_t *my_node;   /* this PE's node */
    uint32_t *tail;      /* the tail, on LOCK_HOME */
} lock_pair_t;

static xg_status_t lock_pair(void *lock, lock_pair_t *pair)
{
    xg_status_t status;
    uint32_t *mine = lock_words(lock, xg_gas.me, &status);
    uint32_t *home;

    if (mine == NULL) {
        return status;
    }
    home = lock_words(lock, LOCK_HOME, &status);
    if (home == NULL) {
        return status;
    }
    pair->my_node = &mine[0];
    pair->tail    = &home[1];
    return XG_OK;
}

/* PE @pe's node of @lock (a PE in the queue: translated before). */
static uint32_t *lock_node(void *lock, int pe)
{
    return &((uint32_t *)xg_gas_translate(lock, sizeof(uint64_t), pe))[0];
}

static void lock_describe(const xg_wait_what_t *what, char *buf, size_t len)
{
    snprintf(buf, len, "waiting for PE %d to pass on the lock at %p",
             what->peer, what->arg);
}

xg_status_t xg_gas_lock_set(const char *routine, void *lock)
{
    lock_pair_t w;
    uint32_t me = (uint32_t)xg_gas.me + 1, prev;
    xg_status_t status = lock_pair(lock, &w);
    xg_wait_what_t what;
    xg_wait_t wait;

    if (status != XG_OK) {
        return status;
    }
    if ((__atomic_load_n(w.my_node, __ATOMIC_RELAXED) &
         (LOCK_HELD | LOCK_WAITING)) != 0) {
        return XG_GAS_LOCK_REENTERED;
    }
    __atomic_store_n(w.my_node, LOCK_WAITING, __ATOMIC_RELAXED);
    prev = __atomic_exchange_n(w.tail, me, __ATOMIC_ACQ_REL);
    if (prev == 0) {
        /* ours at once; a successor may already have linked itself into
         * our node, so flip only waiting (set) and held (clear) */
        __atomic_fetch_xor(w.my_node, LOCK_WAITING | LOCK_HELD,
                           __ATOMIC_RELAXED);
        return XG_OK;
    }
    __atomic_fetch_or(lock_node(lock, (int)prev - 1), me, __ATOMIC_RELEASE);
    xg_wait_init(&wait);
    what = (xg_wait_what_t){.routine = routine, .peer = (int)prev - 1,
                            .describe = lock_describe, .arg = lock};
    xg_wait_watch(&wait, &what);
    /* acquire: the previous holder's critical section happens before ours */
    while (__atomic_load_n(w.my_node, __ATOMIC_ACQUIRE) & LOCK_WAITING) {
        xg_wait_backoff(&wait);
    }
    __atomic_fetch_or(w.my_node, LOCK_HELD, __ATOMIC_RELAXED);
    return XG_OK;
}

xg_status_t xg_gas_lock_test(void *lock, int *taken_p)
{
    lock_pair_t w;
    uint32_t me = (uint32_t)xg_gas.me + 1, free_tail = 0;
    xg_status_t status = lock_pair(lock, &w);

    if (status != XG_OK) {
        return status;
    }
    /* nobody links into our node unless the swap below makes us the tail */
    __atomic_store_n(w.my_node, LOCK_HELD, __ATOMIC_RELAXED);
    if (__atomic_compare_exchange_n(w.tail, &free_tail, me, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
        *taken_p = 1;
        return XG_OK;
    }
    __atomic_store_n(w.my_node, 0, __ATOMIC_RELAXED);
    *taken_p = 0;
    return XG_OK;
}

xg_status_t xg_gas_lock_clear(xg_gas_ctx_t *ctx, void *lock)
{
    lock_pair_t w;
    uint32_t me = (uint32_t)xg_gas.me + 1, next, expected = me;
    xg_status_t status = lock_pair(lock, &w);
    xg_wait_t wait;

    if (status != XG_OK) {
        return status;
    }
    if (__atomic_load_n(w.tail, __ATOMIC_ACQUIRE) == 0) {
        return XG_GAS_LOCK_FREE;
    }
    if ((__atomic_load_n(w.my_node, __ATOMIC_RELAXED) & LOCK_HELD) == 0) {
        return XG_GAS_LOCK_NOT_MINE;
    }
    xg_gas_ctx_quiet(ctx); /* releasing a lock completes earlier puts */
    /* not ours any more; keeps a successor's link */
    next = __atomic_and_fetch(w.my_node, ~LOCK_HELD, __ATOMIC_ACQUIRE) &
           LOCK_NEXT;
    if (next == 0) {
        if (__atomic_compare_exchange_n(w.tail, &expected, 0, 0,
                                        __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED)) {
            return XG_OK; /* nobody waiting */
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
    __atomic_fetch_and(lock_node(lock, (int)next - 1), ~LOCK_WAITING,
                       __ATOMIC_RELEASE);
    return XG_OK;
}
