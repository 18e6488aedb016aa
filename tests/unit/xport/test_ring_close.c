/*
 * Closing a packet ring while producers push: every claim either succeeds
 * before the close -- and its packet is consumed before the owner's drain
 * ends -- or fails with "closed" (never "full", so no sender waits for
 * room that will never come).  After the drain nothing is left, and a
 * reopened ring accepts packets again.
 */
#include <pthread.h>
#include <sched.h>
#include <string.h>

#include "base/xg_wait.h"
#include "xport/shm/xg_shm_ring.h"
#include "xg_test.h"

#define PRODUCERS 3

static xg_shm_ring_t ring;
static _Atomic uint64_t sent; /* packets claimed and published */
static _Atomic int closed_seen[PRODUCERS];

static void *producer(void *arg)
{
    int id = (int)(intptr_t)arg;
    uint64_t pos;

    for (;;) {
        pos = xg_shm_ring_claim(&ring, 8);
        if (pos == XG_SHM_RING_CLOSED_POS) {
            atomic_store(&closed_seen[id], 1);
            return NULL;
        }
        if (pos == XG_SHM_RING_FULL) {
            sched_yield(); /* the owner catches up */
            continue;
        }
        memcpy(xg_shm_ring_slot(&ring, pos)->data, &pos, 8);
        xg_shm_ring_publish(&ring, pos, 8, 1);
        atomic_fetch_add(&sent, 1);
    }
}

static uint64_t consume(void)
{
    uint32_t len;
    uint64_t n = 0;

    while (xg_shm_ring_peek(&ring, &len) != NULL) {
        XG_CHECK(len == 8, "length %u", len);
        xg_shm_ring_pop(&ring);
        n++;
    }
    return n;
}

int main(void)
{
    pthread_t threads[PRODUCERS];
    uint64_t got = 0, end, pos;
    xg_wait_t wait;
    int i;

    XG_CHECK(xg_shm_ring_create(&ring, 16, 512, 0) == XG_OK, "create");
    for (i = 0; i < PRODUCERS; i++) {
        XG_CHECK(pthread_create(&threads[i], NULL, producer,
                                (void *)(intptr_t)i) == 0,
                 "thread");
    }
    while (got < 5000) {
        got += consume();
        sched_yield();
    }
    end = xg_shm_ring_close(&ring);
    xg_wait_init(&wait);
    while (!xg_shm_ring_drained(&ring, end)) {
        if (consume() == 0) {
            xg_wait_backoff(&wait); /* a producer between claim and publish */
        } else {
            xg_wait_init(&wait);
        }
    }
    got = end;
    for (i = 0; i < PRODUCERS; i++) {
        pthread_join(threads[i], NULL);
        XG_CHECK(atomic_load(&closed_seen[i]), "producer %d not refused", i);
    }
    XG_CHECK(atomic_load(&sent) == got, "claimed %llu, consumed %llu",
             (unsigned long long)atomic_load(&sent), (unsigned long long)got);
    XG_CHECK(xg_shm_ring_peek(&ring, &(uint32_t){0}) == NULL, "left over");
    XG_CHECK(xg_shm_ring_claim(&ring, 8) == XG_SHM_RING_CLOSED_POS,
             "claim after close");
    xg_shm_ring_reopen(&ring);
    pos = xg_shm_ring_claim(&ring, 8);
    XG_CHECK(pos == end, "reopened ring claims at %llu (want %llu)",
             (unsigned long long)pos, (unsigned long long)end);
    xg_shm_ring_publish(&ring, pos, 8, 1);
    XG_CHECK(consume() == 1, "packet after reopen");
    xg_shm_ring_unmap(&ring);
    return 0;
}
