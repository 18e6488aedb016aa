/*
 * Fairness of gas's queue locks with their home on any PE (the locks
 * under ARMCI's mutexes, xg_gas_lock_*_at): waiters get the lock in the
 * order they asked.  PE 0 takes the lock; then PEs 1..n-1 ask in turn --
 * each only once the queue's tail (on the home PE) names the PE before it,
 * so the arrival order is fixed -- and each records its turn inside the
 * lock.  The record must read 0, 1, ..., n-1.  The home is the last PE,
 * so the tail lives elsewhere than PE 0 (OpenSHMEM's home).  Also: test
 * fails while the lock is held, and clear refuses a lock this PE does not
 * hold.
 */
#include <stdint.h>

#include "base/xg_wait.h"
#include "gas_test.h"

static xg_gas_ctx_t ctx;

/* The tail word of @lock on @home: PE + 1 of the last one that asked. */
static uint32_t tail(uint64_t *lock, int home)
{
    return (uint32_t)xg_gas_amo(&ctx, XG_GAS_AMO_FETCH, (uint32_t *)lock + 1,
                                sizeof(uint32_t), 0, 0, home)
        .old;
}

int main(void)
{
    gas_test_ring_t ring = gas_test_start(&ctx);
    int home             = ring.npes - 1, taken, i;
    uint64_t *lock, *next, *order;
    xg_wait_t wait;

    XG_CHECK(xg_malloc(sizeof(*lock), (void **)&lock) == XG_OK, "lock");
    XG_CHECK(xg_malloc(sizeof(*next), (void **)&next) == XG_OK, "next");
    XG_CHECK(xg_malloc(64 * sizeof(*order), (void **)&order) == XG_OK, "order");
    *lock = 0;
    *next = 0;
    xg_barrier();
    if (ring.me == 0) {
        XG_CHECK(xg_gas_lock_set_at("test", lock, home) == XG_OK, "set");
    }
    /* ask right after the PE before this one is queued */
    xg_wait_init(&wait);
    while ((ring.me != 0) && (tail(lock, home) != (uint32_t)ring.me)) {
        xg_wait_backoff(&wait);
    }
    if (ring.me != 0) {
        XG_CHECK(xg_gas_lock_test_at(lock, home, &taken) == XG_OK && !taken,
                 "test took a lock others hold and wait for");
        XG_CHECK(xg_gas_lock_set_at("test", lock, home) == XG_OK, "set");
    } else {
        /* release once everyone is queued */
        xg_wait_init(&wait);
        while (tail(lock, home) != (uint32_t)ring.npes) {
            xg_wait_backoff(&wait);
        }
    }
    /* inside the lock: this PE's turn */
    i = (int)xg_gas_amo(&ctx, XG_GAS_AMO_ADD, next, sizeof(*next), 1, 0, home)
            .old;
    XG_CHECK(xg_gas_amo(&ctx, XG_GAS_AMO_SET, &order[i], sizeof(*order),
                        (uint64_t)ring.me, 0, home)
                     .status == XG_OK,
             "log");
    XG_CHECK(xg_gas_lock_clear_at(&ctx, lock, home) == XG_OK, "clear");
    XG_CHECK(xg_gas_lock_clear_at(&ctx, lock, home) != XG_OK,
             "clear of a lock this PE does not hold");
    xg_barrier();
    if (ring.me == home) {
        for (i = 0; i < ring.npes; i++) {
            XG_CHECK(order[i] == (uint64_t)i,
                     "turn %d went to PE %llu: "
                     "not in the order asked",
                     i, (unsigned long long)order[i]);
        }
        printf("unit_gas_lock_fifo: passed on %d PEs\n", ring.npes);
    }
    XG_CHECK(xg_fini() == XG_OK, "fini");
    return 0;
}
