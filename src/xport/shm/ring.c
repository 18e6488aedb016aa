/*
 * The shared-memory packet ring (see xg_shm_ring.h for the protocol).
 */
#include "xport/shm/xg_shm_ring.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/xg_log.h"

static uint32_t ring_pow2(uint32_t value)
{
    uint32_t p = 2;

    while ((p < value) && (p < (1u << 30))) {
        p <<= 1;
    }
    return p;
}

static void ring_set_view(xg_shm_ring_t *ring, void *map, size_t bytes)
{
    ring->hdr        = map;
    ring->slots      = (uint8_t *)map + XG_SHM_RING_HDR_BYTES;
    ring->mask       = (uint64_t)ring->hdr->slots - 1;
    ring->slot_size  = ring->hdr->slot_size;
    ring->max_packet = ring->slot_size - XG_SHM_SLOT_HDR_BYTES;
    ring->bytes      = bytes;
    atomic_store_explicit(&ring->head, 0, memory_order_relaxed);
}

xg_status_t xg_shm_ring_create(xg_shm_ring_t *ring, uint32_t slots,
                               uint32_t slot_size, int bell)
{
    size_t bytes;
    void *map;
    uint32_t i;
    int fd;

    slots     = ring_pow2(slots);
    slot_size = (uint32_t)xg_align_up(slot_size, XG_CACHELINE);
    if (slot_size < 512) {
        slot_size = 512;
    }
    bytes = XG_SHM_RING_HDR_BYTES + (size_t)slots * slot_size;
    fd    = memfd_create("xgas-nic-ring", MFD_CLOEXEC);
    if (fd < 0) {
        xg_error("shm", "memfd_create for the packet ring failed (%m)");
        return XG_ERR_IO;
    }
    if (ftruncate(fd, (off_t)bytes) != 0) {
        xg_error("shm", "cannot size the packet ring to %zu bytes (%m)", bytes);
        close(fd);
        return XG_ERR_NO_MEMORY;
    }
    map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
        xg_error("shm", "cannot map the packet ring (%m)");
        close(fd);
        return XG_ERR_NO_MEMORY;
    }
    ring->hdr            = map;
    ring->hdr->magic     = XG_SHM_RING_MAGIC;
    ring->hdr->version   = XG_SHM_RING_VERSION;
    ring->hdr->slots     = slots;
    ring->hdr->slot_size = slot_size;
    ring->hdr->owner_pid = (uint32_t)getpid();
    ring->hdr->bytes     = bytes;
    ring->bell[0] = ring->bell[1] = -1;
    if (bell && (pipe2(ring->bell, O_NONBLOCK | O_CLOEXEC) != 0)) {
        xg_error("shm", "cannot create the packet ring's bell pipe (%m)");
        ring->bell[0] = ring->bell[1] = -1;
        munmap(map, bytes);
        close(fd);
        return XG_ERR_IO;
    }
    ring->hdr->bell_fd = (ring->bell[1] >= 0) ? ring->bell[1] + 1 : 0;
    atomic_init(&ring->hdr->tail, 0);
    atomic_init(&ring->hdr->sleeping, 0);
    atomic_init(&ring->hdr->doorbell, 0);
    ring_set_view(ring, map, bytes);
    for (i = 0; i < slots; i++) {
        atomic_init(&xg_shm_ring_slot(ring, i)->seq, i);
    }
    ring->fd = fd;
    return XG_OK;
}

xg_status_t xg_shm_ring_attach(xg_shm_ring_t *ring, int fd)
{
    struct stat st;
    const xg_shm_ring_hdr_t *hdr;
    void *map;

    if ((fstat(fd, &st) != 0) || (st.st_size < XG_SHM_RING_HDR_BYTES)) {
        return XG_ERR_UNREACHABLE;
    }
    map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
               0);
    if (map == MAP_FAILED) {
        return XG_ERR_UNREACHABLE;
    }
    hdr = map;
    /* the header is another process's: check every field we rely on */
    if ((hdr->magic != XG_SHM_RING_MAGIC) ||
        (hdr->version != XG_SHM_RING_VERSION) || !xg_is_pow2(hdr->slots) ||
        (hdr->slot_size < 512) || (hdr->slot_size % XG_CACHELINE != 0) ||
        (hdr->bytes != (uint64_t)st.st_size) ||
        (hdr->bytes !=
         XG_SHM_RING_HDR_BYTES + (uint64_t)hdr->slots * hdr->slot_size)) {
        munmap(map, (size_t)st.st_size);
        return XG_ERR_MISMATCH;
    }
    ring_set_view(ring, map, (size_t)st.st_size);
    ring->fd      = -1;
    ring->bell[0] = ring->bell[1] = -1;
    if (hdr->bell_fd > 0) {
        char path[64];

        snprintf(path, sizeof(path), "/proc/%u/fd/%d", hdr->owner_pid,
                 hdr->bell_fd - 1);
        ring->bell[1] = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (ring->bell[1] < 0) {
            munmap(map, (size_t)st.st_size);
            return XG_ERR_UNREACHABLE;
        }
    }
    return XG_OK;
}

void xg_shm_ring_unmap(xg_shm_ring_t *ring)
{
    int i;

    if (ring->hdr != NULL) {
        munmap(ring->hdr, ring->bytes);
        ring->hdr = NULL;
    }
    if (ring->fd >= 0) {
        close(ring->fd);
        ring->fd = -1;
    }
    for (i = 0; i < 2; i++) {
        if (ring->bell[i] >= 0) {
            close(ring->bell[i]);
            ring->bell[i] = -1;
        }
    }
}

uint64_t xg_shm_ring_claim(xg_shm_ring_t *ring, size_t len)
{
    xg_shm_ring_hdr_t *hdr = ring->hdr;
    xg_shm_slot_t *slot;
    uint64_t pos, seq;
    int64_t diff;
    unsigned tries;

    if (xg_unlikely(len > ring->max_packet)) {
        return XG_SHM_RING_FULL;
    }
    pos = atomic_load_explicit(&hdr->tail, memory_order_relaxed);
    /* bounded: a ring scribbled on by a broken peer reads as full */
    for (tries = 0; tries < (1u << 16); tries++) {
        if (xg_unlikely(pos & XG_SHM_RING_CLOSED)) {
            return XG_SHM_RING_CLOSED_POS;
        }
        slot = xg_shm_ring_slot(ring, pos);
        /* acquire: the consumer's release of this slot (its reads of the
         * previous packet) happens before we overwrite it */
        seq  = atomic_load_explicit(&slot->seq, memory_order_acquire);
        diff = (int64_t)(seq - pos);
        if (diff == 0) {
            if (atomic_compare_exchange_weak_explicit(&hdr->tail, &pos, pos + 1,
                                                      memory_order_relaxed,
                                                      memory_order_relaxed)) {
                return pos;
            }
        } else if (diff < 0) {
            /* the consumer has not freed this lap yet -- or closed */
            pos = atomic_load_explicit(&hdr->tail, memory_order_relaxed);
            return (pos & XG_SHM_RING_CLOSED) ? XG_SHM_RING_CLOSED_POS
                                              : XG_SHM_RING_FULL;
        } else {
            pos = atomic_load_explicit(&hdr->tail, memory_order_relaxed);
        }
    }
    return XG_SHM_RING_FULL;
}

uint64_t xg_shm_ring_close(xg_shm_ring_t *ring)
{
    /* the CAS of every later claim sees the bit and fails */
    return atomic_fetch_or_explicit(&ring->hdr->tail, XG_SHM_RING_CLOSED,
                                    memory_order_acq_rel) &
           ~XG_SHM_RING_CLOSED;
}

int xg_shm_ring_drained(xg_shm_ring_t *ring, uint64_t end)
{
    return atomic_load_explicit(&ring->head, memory_order_relaxed) >= end;
}

void xg_shm_ring_reopen(xg_shm_ring_t *ring)
{
    atomic_fetch_and_explicit(&ring->hdr->tail, ~XG_SHM_RING_CLOSED,
                              memory_order_acq_rel);
}

static long ring_futex(_Atomic uint32_t *word, int op, uint32_t value,
                       const struct timespec *timeout)
{
    /* not FUTEX_PRIVATE: the word is shared between processes */
    return syscall(SYS_futex, (uint32_t *)word, op, value, timeout, NULL, 0);
}

void xg_shm_ring_ring_bell(xg_shm_ring_t *ring)
{
    xg_shm_ring_hdr_t *hdr = ring->hdr;

    /* seq_cst fence: our slot publish is ordered before the load of
     * `sleeping`, pairing with the consumer's seq_cst store of `sleeping`
     * before it re-checks the ring (no lost wake-up) */
    atomic_thread_fence(memory_order_seq_cst);
    /* only the producer that clears `sleeping` rings: the others would
     * each pay a system call while the woken consumer is still on its way
     * (the consumer then finds every packet published meanwhile) */
    if ((atomic_load_explicit(&hdr->sleeping, memory_order_relaxed) != 0) &&
        (atomic_exchange_explicit(&hdr->sleeping, 0, memory_order_seq_cst) !=
         0)) {
        atomic_fetch_add_explicit(&hdr->doorbell, 1, memory_order_seq_cst);
        ring_futex(&hdr->doorbell, FUTEX_WAKE, 1, NULL);
        if (ring->bell[1] >= 0) {
            /* full pipe: a byte is there already, which is all it takes */
            (void)!write(ring->bell[1], "", 1);
        }
    }
}

void xg_shm_ring_publish(xg_shm_ring_t *ring, uint64_t pos, uint32_t len,
                         int defer_wake)
{
    xg_shm_slot_t *slot = xg_shm_ring_slot(ring, pos);

    slot->len = len;
    /* release: the packet bytes are visible before the slot is ready */
    atomic_store_explicit(&slot->seq, pos + 1, memory_order_release);
    if (!defer_wake) {
        xg_shm_ring_ring_bell(ring);
    }
}

/* Whether the slot at the consumer's head holds a published packet.  Only
 * the sequence word is read: a thread that merely decides whether to sleep
 * (xg_shm_ring_wait) may run beside the consumer that pops, and must not
 * read the slot's payload fields while a producer refills it. */
static xg_shm_slot_t *ring_head_ready(xg_shm_ring_t *ring)
{
    uint64_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
    xg_shm_slot_t *slot = xg_shm_ring_slot(ring, head);

    /* acquire: pairs with the producer's release of seq */
    if (atomic_load_explicit(&slot->seq, memory_order_acquire) != head + 1) {
        return NULL;
    }
    return slot;
}

const xg_shm_slot_t *xg_shm_ring_peek(xg_shm_ring_t *ring, uint32_t *len_p)
{
    xg_shm_slot_t *slot = ring_head_ready(ring);
    uint32_t len;

    if (slot == NULL) {
        return NULL;
    }
    len    = slot->len;
    *len_p = (len <= ring->max_packet) ? len : 0; /* 0: malformed */
    return slot;
}

void xg_shm_ring_pop(xg_shm_ring_t *ring)
{
    uint64_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
    xg_shm_slot_t *slot = xg_shm_ring_slot(ring, head);

    /* release: our reads of the packet finish before a producer reuses
     * the slot on the next lap */
    atomic_store_explicit(&slot->seq, head + ring->mask + 1,
                          memory_order_release);
    atomic_store_explicit(&ring->head, head + 1, memory_order_relaxed);
}

void xg_shm_ring_wait(xg_shm_ring_t *ring, uint64_t timeout_ns,
                      int (*may_sleep)(void *), void *arg)
{
    xg_shm_ring_hdr_t *hdr = ring->hdr;
    struct timespec ts;
    uint32_t bell;

    /* the ticket is read before `sleeping` is announced and before the
     * checks: a wake-up posted after any of them moves the doorbell past
     * it, and FUTEX_WAIT then returns at once */
    bell = atomic_load_explicit(&hdr->doorbell, memory_order_acquire);
    atomic_store_explicit(&hdr->sleeping, 1, memory_order_seq_cst);
    atomic_thread_fence(memory_order_seq_cst);
    if ((ring_head_ready(ring) == NULL) &&
        ((may_sleep == NULL) || may_sleep(arg))) {
        ts.tv_sec  = (time_t)(timeout_ns / 1000000000ull);
        ts.tv_nsec = (long)(timeout_ns % 1000000000ull);
        ring_futex(&hdr->doorbell, FUTEX_WAIT, bell, &ts);
    }
    atomic_store_explicit(&hdr->sleeping, 0, memory_order_relaxed);
}

void xg_shm_ring_wake(xg_shm_ring_t *ring)
{
    xg_shm_ring_hdr_t *hdr = ring->hdr;

    /* the doorbell always moves (a sleeper that took its ticket before
     * returns at once); the system call only if the owner announced a
     * sleep and nobody has woken it yet */
    atomic_fetch_add_explicit(&hdr->doorbell, 1, memory_order_seq_cst);
    if ((atomic_load_explicit(&hdr->sleeping, memory_order_seq_cst) != 0) &&
        (atomic_exchange_explicit(&hdr->sleeping, 0, memory_order_seq_cst) !=
         0)) {
        ring_futex(&hdr->doorbell, FUTEX_WAKE, 1, NULL);
    }
}

int xg_shm_ring_sleep_fd(xg_shm_ring_t *ring)
{
    xg_shm_ring_hdr_t *hdr = ring->hdr;

    /* as xg_shm_ring_wait: the announcement is ordered before the
     * re-check, and a producer's publish before its look at `sleeping` */
    atomic_store_explicit(&hdr->sleeping, 1, memory_order_seq_cst);
    atomic_thread_fence(memory_order_seq_cst);
    return (ring_head_ready(ring) == NULL) ? ring->bell[0] : -1;
}

void xg_shm_ring_sleep_end(xg_shm_ring_t *ring)
{
    char drain[64];

    atomic_store_explicit(&ring->hdr->sleeping, 0, memory_order_relaxed);
    while (read(ring->bell[0], drain, sizeof(drain)) > 0) {
    }
}
