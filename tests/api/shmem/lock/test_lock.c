/*
 * Distributed locks: mutual exclusion (a non-atomic read-modify-write of a
 * counter on PE 0 under the lock loses no update), shmem_test_lock, locks
 * on the heap and on a global, several locks at once, and FIFO order: PEs
 * that queue one after the other get the lock in that order.  And
 * shmem_test_lock on a lock this PE holds, with the others queued behind
 * it: answers 1 (set) and leaves the queue intact, so the lock still
 * passes to every PE.
 */
#include <sched.h>
#include <shmem.h>
#include <stdint.h>

#include "xg_test.h"

#define ROUNDS 200

static int me, npes;
static long global_lock;
static long counter, second_counter;
static long order_log[1024];
static long order_next;

/* get, add one, put: not atomic, so only the lock keeps it exact */
static void locked_increment(long *count)
{
    long value = shmem_long_g(count, 0);

    shmem_long_p(count, value + 1, 0);
    shmem_quiet();
}

static void test_exclusion(long *lock)
{
    int r;

    if (me == 0) {
        counter = 0;
    }
    shmem_barrier_all();
    for (r = 0; r < ROUNDS; r++) {
        shmem_set_lock(lock);
        locked_increment(&counter);
        shmem_clear_lock(lock);
    }
    shmem_barrier_all();
    XG_CHECK(shmem_long_g(&counter, 0) == (long)npes * ROUNDS,
             "counter %ld after %d locked increments on %d PEs",
             shmem_long_g(&counter, 0), ROUNDS, npes);
    shmem_barrier_all();
}

static void test_test_lock(long *lock)
{
    int r;

    if (me == 0) {
        counter = 0;
    }
    shmem_barrier_all();
    for (r = 0; r < ROUNDS; r++) {
        if (r % 2) {
            while (shmem_test_lock(lock) != 0) {
                sched_yield(); /* 8 PEs share 2 cores */
            }
        } else {
            shmem_set_lock(lock);
        }
        locked_increment(&counter);
        shmem_clear_lock(lock);
    }
    shmem_barrier_all();
    XG_CHECK(shmem_long_g(&counter, 0) == (long)npes * ROUNDS,
             "counter %ld with shmem_test_lock", shmem_long_g(&counter, 0));
    /* a held lock: test_lock fails for everybody else */
    if (me == 0) {
        XG_CHECK(shmem_test_lock(lock) == 0, "test_lock on a free lock");
    }
    shmem_barrier_all();
    if (me != 0) {
        XG_CHECK(shmem_test_lock(lock) == 1, "test_lock on a held lock");
    }
    shmem_barrier_all();
    if (me == 0) {
        shmem_clear_lock(lock);
    }
    shmem_barrier_all();
}

/* Two locks held at once, taken in the same order everywhere. */
static void test_two_locks(long *a, long *b)
{
    int r;

    if (me == 0) {
        counter = second_counter = 0;
    }
    shmem_barrier_all();
    for (r = 0; r < ROUNDS / 2; r++) {
        shmem_set_lock(a);
        shmem_set_lock(b);
        locked_increment(&counter);
        locked_increment(&second_counter);
        shmem_clear_lock(b);
        shmem_clear_lock(a);
    }
    shmem_barrier_all();
    XG_CHECK(shmem_long_g(&counter, 0) == (long)npes * (ROUNDS / 2) &&
                 shmem_long_g(&second_counter, 0) == (long)npes * (ROUNDS / 2),
             "two locks");
    shmem_barrier_all();
}

/*
 * FIFO: PE 0 holds the lock; PE i asks for it only once PE i - 1 is in the
 * queue.  (White box: the queue's tail, PE + 1 of the last PE that asked,
 * is the upper 32-bit half of the lock word on PE 0, see lock.c.)  Each PE
 * logs itself when it gets the lock; the log must read 0, 1, ..., n-1.
 */
static uint32_t fifo_tail(long *lock)
{
    return shmem_uint32_atomic_fetch((uint32_t *)lock + 1, 0);
}

static void test_fifo(long *lock)
{
    int i;

    if (npes > 1024) {
        return;
    }
    order_next = 0;
    shmem_barrier_all();
    if (me == 0) {
        shmem_set_lock(lock);
    } else {
        while (fifo_tail(lock) != (uint32_t)me) {
            sched_yield();
        }
        shmem_set_lock(lock);
    }
    shmem_long_p(&order_log[shmem_long_atomic_fetch_inc(&order_next, 0)], me,
                 0);
    if (me == 0) {
        /* hold on until everybody queued */
        while (fifo_tail(lock) != (uint32_t)npes) {
            sched_yield();
        }
    }
    shmem_clear_lock(lock);
    shmem_barrier_all();
    if (me == 0) {
        for (i = 0; i < npes; i++) {
            XG_CHECK(order_log[i] == i, "lock order: position %d got PE %ld", i,
                     order_log[i]);
        }
    }
    shmem_barrier_all();
}

/*
 * Re-testing a held lock (undefined by the specification) must not touch
 * the queue: PE 0 holds the lock while every other PE queues for it (PE
 * 0's node then carries the link to its successor), tests it again, and
 * releases it; every PE must then get the lock once.
 */
static void test_retest_held(long *lock)
{
    int r;

    if (me == 0) {
        counter = 0;
        shmem_set_lock(lock);
    }
    shmem_barrier_all();
    if (me == 0) {
        while (fifo_tail(lock) != (uint32_t)npes) {
            sched_yield(); /* everybody queued behind us, PE 1 first */
        }
        for (r = 0; r < 2; r++) {
            XG_CHECK(shmem_test_lock(lock) == 1,
                     "test_lock on a lock this PE holds");
        }
        locked_increment(&counter);
        shmem_clear_lock(lock);
    } else {
        /* in PE order, as in test_fifo, so the tail tells when all are in */
        while (fifo_tail(lock) != (uint32_t)me) {
            sched_yield();
        }
        shmem_set_lock(lock);
        locked_increment(&counter);
        shmem_clear_lock(lock);
    }
    shmem_barrier_all();
    XG_CHECK(shmem_long_g(&counter, 0) == npes,
             "counter %ld after a re-test of a held lock on %d PEs",
             shmem_long_g(&counter, 0), npes);
    shmem_barrier_all();
}

int main(void)
{
    long *heap_lock;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    heap_lock  = shmem_calloc(1, sizeof(long));
    XG_CHECK(heap_lock != NULL, "shmem_calloc");

    test_exclusion(&global_lock);
    test_exclusion(heap_lock);
    test_test_lock(heap_lock);
    test_two_locks(&global_lock, heap_lock);
    test_fifo(&global_lock);
    test_retest_held(heap_lock);
    test_exclusion(heap_lock); /* and the lock still works */
    XG_CHECK(global_lock == 0 && *heap_lock == 0,
             "lock words back to 0: %#lx %#lx", global_lock, *heap_lock);
    shmem_barrier_all();
    shmem_free(heap_lock);
    shmem_finalize();
    return XG_TEST_PASS;
}
