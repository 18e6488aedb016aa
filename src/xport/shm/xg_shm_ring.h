/*
 * A bounded multi-producer, single-consumer packet ring in shared memory:
 * the inbound queue of one process.  Every process of the node may push
 * into it; only its owner pops.  The ring lives in a memfd, so it has no
 * name anywhere and disappears with the last process that maps it.
 *
 * Layout: a header page, then @slots slots of @slot_size bytes.  Each slot
 * starts with a sequence word (the classic bounded-queue scheme with
 * per-slot sequence numbers):
 *   seq == pos            slot free for the producer that claims pos
 *   seq == pos + 1        slot holds the packet of position pos
 *   seq == pos + slots    consumed; free for position pos + slots
 * Producers claim a position with a CAS on tail, write, then publish with
 * a release store of seq.  The consumer reads head privately.  Positions
 * are free-running 64-bit counters (no wrap in practice).
 *
 * Sleeping consumer: the owner announces `sleeping`, re-checks the ring and
 * waits on the futex `doorbell`; the producer that clears `sleeping` after
 * publishing bumps the doorbell and wakes it (one system call per sleep,
 * however many producers).  A receiver that is awake therefore costs
 * producers one shared load per packet and no system call.
 *
 * The memory is shared with other processes and not trusted: attach()
 * validates the header, the consumer checks every length.
 */
#ifndef XG_SHM_RING_H
#define XG_SHM_RING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "base/xg_compiler.h"
#include "xgas_status.h"

#define XG_SHM_RING_MAGIC   0x31676e6972736778ULL /* "xgsring1" */
#define XG_SHM_RING_VERSION 1u

typedef struct xg_shm_ring_hdr {
    uint64_t magic;
    uint32_t version;
    uint32_t slots;      /* power of two */
    uint32_t slot_size;  /* bytes per slot, header included, multiple of 64 */
    uint32_t owner_pid;
    uint64_t bytes;      /* whole mapping */

    _Atomic uint64_t tail XG_CACHE_ALIGNED;      /* next position to claim */
    _Atomic uint32_t sleeping XG_CACHE_ALIGNED;  /* consumer waits on bell */
    _Atomic uint32_t doorbell;                   /* futex word */
} xg_shm_ring_hdr_t;

typedef struct xg_shm_slot {
    _Atomic uint64_t seq;
    uint32_t         len;   /* packet bytes */
    uint32_t         pad;
    uint8_t          data[];
} xg_shm_slot_t;

#define XG_SHM_RING_HDR_BYTES 4096u
#define XG_SHM_SLOT_HDR_BYTES ((uint32_t)sizeof(xg_shm_slot_t))

/* A mapped ring, as seen by its owner or by a producer. */
typedef struct xg_shm_ring {
    xg_shm_ring_hdr_t *hdr;
    uint8_t           *slots;     /* first slot */
    uint64_t           mask;      /* slots - 1 */
    uint32_t           slot_size;
    uint32_t           max_packet;
    size_t             bytes;
    _Atomic uint64_t   head;      /* owner: next position to pop (one
                                     popper at a time; a sleeper reads it) */
    int                fd;        /* owner only, else -1 */
} xg_shm_ring_t;

/* Creates this process's ring (memfd + mapping).  @slots is rounded up to
 * a power of two, @slot_size up to a multiple of 64. */
xg_status_t xg_shm_ring_create(xg_shm_ring_t *ring, uint32_t slots,
                               uint32_t slot_size);

/* Maps another process's ring from @fd (which the caller closes) and
 * validates its header. */
xg_status_t xg_shm_ring_attach(xg_shm_ring_t *ring, int fd);

void xg_shm_ring_unmap(xg_shm_ring_t *ring);

static inline xg_shm_slot_t *xg_shm_ring_slot(const xg_shm_ring_t *ring,
                                              uint64_t pos)
{
    return (xg_shm_slot_t *)(ring->slots +
                             (size_t)(pos & ring->mask) * ring->slot_size);
}

/* Producer: claims room for a packet of @len bytes; returns its position
 * (fill xg_shm_ring_slot(ring, pos)->data), or UINT64_MAX when full. */
uint64_t xg_shm_ring_claim(xg_shm_ring_t *ring, size_t len);

/* Producer: publishes a claimed position; wakes a sleeping consumer unless
 * @defer_wake (then xg_shm_ring_ring_bell() does it later). */
void xg_shm_ring_publish(xg_shm_ring_t *ring, uint64_t pos, uint32_t len,
                         int defer_wake);

/* Wakes the consumer if it sleeps (after deferred publishes). */
void xg_shm_ring_ring_bell(xg_shm_ring_t *ring);

/* Owner: the packet at head, or NULL; *len_p is validated. */
const xg_shm_slot_t *xg_shm_ring_peek(xg_shm_ring_t *ring, uint32_t *len_p);

/* Owner: releases the slot returned by peek. */
void xg_shm_ring_pop(xg_shm_ring_t *ring);

/* Owner: sleeps until a packet may be there, a wake-up, or @timeout_ns.
 * After announcing the sleep it asks @may_sleep(@arg) (NULL: yes) and
 * stays awake if the answer is 0: work that xg_shm_ring_wake() announces
 * is then never missed, whenever it is posted. */
void xg_shm_ring_wait(xg_shm_ring_t *ring, uint64_t timeout_ns,
                      int (*may_sleep)(void *), void *arg);

/* Wakes the owner if it sleeps (shutdown, local work).  Post the work
 * first, then call this. */
void xg_shm_ring_wake(xg_shm_ring_t *ring);

#endif
