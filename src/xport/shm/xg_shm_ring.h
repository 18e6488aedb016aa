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
 * A consumer that must sleep on other things too (a network endpoint's
 * descriptor: a job over several nodes) creates its ring with a bell pipe
 * instead: the header names the pipe's write end (`bell_fd`), a producer
 * opens it through /proc/<owner>/fd when it attaches, and the producer
 * that clears `sleeping` writes a byte into it besides the futex wake-up;
 * the consumer polls the read end with its other descriptors
 * (xg_shm_ring_sleep_fd).
 *
 * Closing: the owner sets XG_SHM_RING_CLOSED in tail (one atomic OR).  A
 * producer's claim is a CAS on tail, so no position can be claimed after
 * the close; the owner then consumes every position claimed before it and
 * the ring is empty for good, until reopened.  A peer that finalized (or
 * exited) thus refuses packets at once instead of filling up and stalling
 * its senders.
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
#define XG_SHM_RING_VERSION 2u

typedef struct xg_shm_ring_hdr {
    uint64_t magic;
    uint32_t version;
    uint32_t slots;     /* power of two */
    uint32_t slot_size; /* bytes per slot, header included, multiple of 64 */
    uint32_t owner_pid;
    uint64_t bytes;  /* whole mapping */
    int32_t bell_fd; /* the owner's bell pipe write end + 1, or 0 */
    uint32_t pad;

    _Atomic uint64_t tail XG_CACHE_ALIGNED;     /* next position to claim */
    _Atomic uint32_t sleeping XG_CACHE_ALIGNED; /* consumer waits on bell */
    _Atomic uint32_t doorbell;                  /* futex word */
} xg_shm_ring_hdr_t;

typedef struct xg_shm_slot {
    _Atomic uint64_t seq;
    uint32_t len; /* packet bytes */
    uint32_t pad;
    uint8_t data[];
} xg_shm_slot_t;

/* tail bit: the owner accepts no more packets */
#define XG_SHM_RING_CLOSED (1ull << 63)
/* xg_shm_ring_claim(): full (try later) or closed (give up) */
#define XG_SHM_RING_FULL       UINT64_MAX
#define XG_SHM_RING_CLOSED_POS (UINT64_MAX - 1)

#define XG_SHM_RING_HDR_BYTES 4096u
#define XG_SHM_SLOT_HDR_BYTES ((uint32_t)sizeof(xg_shm_slot_t))

/* A mapped ring, as seen by its owner or by a producer. */
typedef struct xg_shm_ring {
    xg_shm_ring_hdr_t *hdr;
    uint8_t *slots; /* first slot */
    uint64_t mask;  /* slots - 1 */
    uint32_t slot_size;
    uint32_t max_packet;
    size_t bytes;
    _Atomic uint64_t head; /* owner: next position to pop (one
                                     popper at a time; a sleeper reads it) */
    int fd;                /* owner only, else -1 */
    int bell[2];           /* owner: the bell pipe; producer: [1],
                                   * its write end; -1 if none */
} xg_shm_ring_t;

/* Creates this process's ring (memfd + mapping), with a bell pipe if
 * @bell.  @slots is rounded up to a power of two, @slot_size up to a
 * multiple of 64. */
xg_status_t xg_shm_ring_create(xg_shm_ring_t *ring, uint32_t slots,
                               uint32_t slot_size, int bell);

/* Maps another process's ring from @fd (which the caller closes) and
 * validates its header; opens its bell pipe, if it has one, from
 * /proc/<owner>/fd. */
xg_status_t xg_shm_ring_attach(xg_shm_ring_t *ring, int fd);

void xg_shm_ring_unmap(xg_shm_ring_t *ring);

static inline xg_shm_slot_t *xg_shm_ring_slot(const xg_shm_ring_t *ring,
                                              uint64_t pos)
{
    return (xg_shm_slot_t *)(ring->slots +
                             (size_t)(pos & ring->mask) * ring->slot_size);
}

/* Producer: claims room for a packet of @len bytes; returns its position
 * (fill xg_shm_ring_slot(ring, pos)->data), XG_SHM_RING_FULL when full, or
 * XG_SHM_RING_CLOSED_POS when the owner closed the ring. */
uint64_t xg_shm_ring_claim(xg_shm_ring_t *ring, size_t len);

/* Owner: accepts no more packets; returns the end of what was claimed
 * before (consume up to there: xg_shm_ring_drained()). */
uint64_t xg_shm_ring_close(xg_shm_ring_t *ring);

/* Owner: every position claimed before the close has been popped. */
int xg_shm_ring_drained(xg_shm_ring_t *ring, uint64_t end);

/* Owner: accepts packets again. */
void xg_shm_ring_reopen(xg_shm_ring_t *ring);

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

/* Owner of a ring with a bell pipe, about to sleep on it beside other
 * descriptors: announces the sleep and returns the pipe's read end to poll
 * for input, or -1 if a packet is already there (no sleep).  After the
 * poll (or the -1), xg_shm_ring_sleep_end() empties the pipe and ends the
 * announcement. */
int xg_shm_ring_sleep_fd(xg_shm_ring_t *ring);
void xg_shm_ring_sleep_end(xg_shm_ring_t *ring);

#endif
