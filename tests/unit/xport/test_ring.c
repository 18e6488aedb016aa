/*
 * The shared-memory packet ring: several producer threads push numbered
 * packets while one consumer pops; every packet arrives once, each
 * producer's in order, and the ring reports full instead of overwriting.
 * A mapping with a damaged header is refused.
 */
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "xport/shm/xg_shm_ring.h"
#include "xg_test.h"

#define PRODUCERS 4
#define PER       20000

static xg_shm_ring_t ring;

static void *producer(void *arg)
{
    uint32_t id = (uint32_t)(uintptr_t)arg, i, msg[2];
    uint64_t pos;

    for (i = 0; i < PER; i++) {
        while ((pos = xg_shm_ring_claim(&ring, sizeof(msg))) == UINT64_MAX) {
            sched_yield(); /* full: the consumer catches up */
        }
        msg[0] = id;
        msg[1] = i;
        memcpy(xg_shm_ring_slot(&ring, pos)->data, msg, sizeof(msg));
        xg_shm_ring_publish(&ring, pos, sizeof(msg), (i % 7) != 0);
    }
    return NULL;
}

int main(void)
{
    pthread_t threads[PRODUCERS];
    uint32_t next[PRODUCERS] = {0}, msg[2], len;
    const xg_shm_slot_t *slot;
    xg_shm_ring_t view;
    long got = 0;
    int i, fd;

    XG_CHECK(xg_shm_ring_create(&ring, 60, 100, 0) == XG_OK, "create");
    XG_CHECK(ring.hdr->slots == 64 && ring.slot_size == 512,
             "rounded to %u slots of %u", ring.hdr->slots, ring.slot_size);
    /* full after 64 claims */
    for (i = 0; i < 64; i++) {
        uint64_t pos = xg_shm_ring_claim(&ring, 8);

        XG_CHECK(pos != UINT64_MAX, "claim %d", i);
        xg_shm_ring_publish(&ring, pos, 8, 1);
    }
    XG_CHECK(xg_shm_ring_claim(&ring, 8) == UINT64_MAX, "not full");
    XG_CHECK(xg_shm_ring_claim(&ring, 100000) == UINT64_MAX, "too long");
    for (i = 0; i < 64; i++) {
        XG_CHECK(xg_shm_ring_peek(&ring, &len) != NULL && len == 8, "pop");
        xg_shm_ring_pop(&ring);
    }
    XG_CHECK(xg_shm_ring_peek(&ring, &len) == NULL, "empty");
    for (i = 0; i < PRODUCERS; i++) {
        pthread_create(&threads[i], NULL, producer, (void *)(uintptr_t)i);
    }
    while (got < (long)PRODUCERS * PER) {
        slot = xg_shm_ring_peek(&ring, &len);
        if (slot == NULL) {
            xg_shm_ring_wait(&ring, 1000000, NULL, NULL);
            continue;
        }
        XG_CHECK(len == sizeof(msg), "length %u", len);
        memcpy(msg, slot->data, sizeof(msg));
        XG_CHECK(msg[0] < PRODUCERS && msg[1] == next[msg[0]],
                 "producer %u: packet %u, want %u", msg[0], msg[1],
                 next[msg[0] % PRODUCERS]);
        next[msg[0]]++;
        xg_shm_ring_pop(&ring);
        got++;
    }
    for (i = 0; i < PRODUCERS; i++) {
        pthread_join(threads[i], NULL);
    }
    /* another process's view through the descriptor; then a bad header */
    fd = dup(ring.fd);
    XG_CHECK(xg_shm_ring_attach(&view, fd) == XG_OK, "attach");
    xg_shm_ring_unmap(&view);
    ring.hdr->slots = 63;
    XG_CHECK(xg_shm_ring_attach(&view, fd) == XG_ERR_MISMATCH,
             "a damaged header was accepted");
    ring.hdr->slots = 64;
    close(fd);
    xg_shm_ring_unmap(&ring);
    return 0;
}
