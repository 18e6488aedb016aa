/*
 * The ofi component's RMA (see xg_ofi.h): this PE's partition -- heap,
 * globals' window and internal area -- registered once for remote read
 * and write, its address and key published through boot; a peer's read
 * from boot the first time this PE reaches it.
 *
 * Keys: the provider's own when it picks them (FI_MR_PROV_KEY), else a
 * random one (getrandom), so another job cannot guess them.  The provider
 * checks every access against the registration at the target: nothing
 * outside the partition can be read or written.
 *
 * Completion: an operation whose caller waits carries a completion word
 * as its context; the others (non-blocking ones, completed by quiet)
 * carry an odd context naming the peer, and are counted (rma_issued,
 * rma_done).  Remote completion of writes: with a provider that keeps
 * reads after writes in order (FI_ORDER_RAW: xg_ofi.raw_order), a write
 * only waits for its source to be free (small ones are injected, with no
 * completion at all; a blocking one up to a send buffer's size is copied
 * into one, which its completion frees), marks its peer, and xg_ofi_rma_complete reads a
 * word of every marked peer -- the read completes after the writes before
 * it are visible there; without it, every write asks for delivery
 * (FI_DELIVERY_COMPLETE).  A provider with manual progress moves the
 * bytes when the target's packet poller (progress thread, or a thread
 * waiting in the NIC) reads its queues; a waiting initiator reads its
 * own.
 */
#include "xport/ofi/xg_ofi.h"

#include <stdio.h>
#include <string.h>

#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "base/xg_wait.h"
#include "boot/xg_boot.h"

#define OFI_KEY_MR "ofi.mr"

/* A long transfer goes as pieces of OFI_RMA_PIECE bytes (or the
 * provider's largest message, if smaller), a waited-for one with up to
 * OFI_RMA_WINDOW of them in flight: the provider then moves one piece
 * while the target's progress serves the one before.  Measured on tcp
 * between two virtual nodes: a 1 MiB get 3.3 -> 7.6 GB/s, a 4 MiB put
 * 4.2 -> 6.7 GB/s (64 KiB pieces were slower than none, 512 KiB ones
 * in between). */
#define OFI_RMA_PIECE  (256u * 1024u)
#define OFI_RMA_WINDOW 16u

/* What a PE publishes about its registration. */
typedef struct ofi_mr_record {
    uint64_t base; /* address of partition offset 0 for the provider */
    uint64_t key;
    uint64_t len;
} ofi_mr_record_t;

/* A waited-for operation's context (even: its address is 8-aligned). */
typedef struct ofi_rma_wait {
    _Atomic int state; /* 0 pending, 1 done, or the error + 2 */
    int peer;
} ofi_rma_wait_t;

xg_status_t xg_ofi_rma_expose(void *base, size_t len)
{
    ofi_mr_record_t rec;
    uint64_t key = 0;
    uint64_t mode;
    int ret;

    if (!xg_ofi.open) {
        return XG_OK; /* one node: nobody reaches this PE by RMA */
    }
    mode = xg_ofi.info->domain_attr->mr_mode;
    if (!(mode & FI_MR_PROV_KEY)) {
        key = xg_boot_random64();
        if (xg_ofi.info->domain_attr->mr_key_size < sizeof(key)) {
            key &= (1ull << (8 * xg_ofi.info->domain_attr->mr_key_size)) - 1;
        }
    }
    ret = fi_mr_reg(xg_ofi.domain, base, len,
                    FI_REMOTE_READ | FI_REMOTE_WRITE | FI_READ | FI_WRITE, 0,
                    key, 0, &xg_ofi.part_mr, NULL);
    if (ret != 0) {
        xg_error("ofi",
                 "cannot register this PE's symmetric memory (%zu "
                 "bytes at %p) with provider %s (%s): lower "
                 "SHMEM_SYMMETRIC_SIZE, or raise the locked-memory limit "
                 "(ulimit -l) if the provider pins memory",
                 len, base, xg_ofi.info->fabric_attr->prov_name,
                 fi_strerror(-ret));
        return XG_ERR_NO_RESOURCE;
    }
    xg_ofi.part_desc = fi_mr_desc(xg_ofi.part_mr);
    xg_ofi.part_lo   = (uintptr_t)base;
    xg_ofi.part_hi   = (uintptr_t)base + len;
    rec.base         = (mode & FI_MR_VIRT_ADDR) ? (uint64_t)(uintptr_t)base : 0;
    rec.key          = fi_mr_key(xg_ofi.part_mr);
    rec.len          = len;
    return xg_boot_kv_put(OFI_KEY_MR, &rec, sizeof(rec));
}

void xg_ofi_rma_unexpose(void)
{
    int pe;

    if (xg_ofi.part_mr != NULL) {
        (void)xg_ofi_rma_complete();
        fi_close(&xg_ofi.part_mr->fid);
        xg_ofi.part_mr = NULL;
        xg_ofi.part_lo = xg_ofi.part_hi = 0;
    }
    /* a later initialization registers again: read the peers anew */
    for (pe = 0; xg_ofi.open && (pe < xg_ofi.npes); pe++) {
        atomic_store_explicit(&xg_ofi.peers[pe].rma_state, 0,
                              memory_order_relaxed);
    }
}

/* @peer's registration, read from boot the first time; NULL if it has
 * none. */
static const xg_ofi_peer_t *ofi_rma_peer(int peer)
{
    xg_ofi_peer_t *p = &xg_ofi.peers[peer];
    ofi_mr_record_t rec;
    int state;

    /* acquire: the record's fields are stored before the state */
    state = atomic_load_explicit(&p->rma_state, memory_order_acquire);
    if (xg_unlikely(state == 0)) {
        pthread_mutex_lock(&xg_ofi.resolve_lock);
        state = atomic_load_explicit(&p->rma_state, memory_order_relaxed);
        if (state == 0) {
            if (xg_boot_kv_get(peer, OFI_KEY_MR, &rec, sizeof(rec)) == XG_OK) {
                p->rma_base = rec.base;
                p->rma_key  = rec.key;
                p->rma_len  = rec.len;
                state       = 1;
            } else {
                xg_error("ofi",
                         "PE %d on node %d published no memory "
                         "registration: it cannot be reached by RMA",
                         peer, xg_boot_node_of(peer));
                state = -1;
            }
            atomic_store_explicit(&p->rma_state, state, memory_order_release);
        }
        pthread_mutex_unlock(&xg_ofi.resolve_lock);
    }
    return (state == 1) ? p : NULL;
}

/* The local descriptor for @len bytes at @local, when the provider wants
 * one: this PE's partition has it; other memory has none (*ok_p 0). */
static void *ofi_rma_desc(const void *local, size_t len, int *ok_p)
{
    uintptr_t lo = (uintptr_t)local;

    *ok_p = 1;
    if (!(xg_ofi.info->domain_attr->mr_mode & FI_MR_LOCAL)) {
        return NULL;
    }
    if ((lo >= xg_ofi.part_lo) && (lo + len <= xg_ofi.part_hi)) {
        return xg_ofi.part_desc;
    }
    *ok_p = 0;
    return NULL;
}

int xg_ofi_rma_reaches(int peer, const void *local, size_t len)
{
    int ok;

    (void)ofi_rma_desc(local, len, &ok);
    return ok && xg_config.ofi_rma && xg_ofi.open && (xg_ofi.part_mr != NULL) &&
           !xg_boot_same_node(peer);
}

void xg_ofi_rma_done(void *ctx, int err)
{
    uintptr_t tag = (uintptr_t)ctx;
    ofi_rma_wait_t *wait;

    if (tag & 1) {
        /* counted: failures first, so a quiet that sees the completion
         * count sees them */
        if (err != 0) {
            xg_ofi_peer_failed((int)(tag >> 1), "an RMA operation", err);
            atomic_fetch_add_explicit(&xg_ofi.rma_failed, 1,
                                      memory_order_relaxed);
        }
        atomic_fetch_add_explicit(&xg_ofi.rma_done, 1, memory_order_release);
        return;
    }
    wait = ctx;
    if (err != 0) {
        xg_ofi_peer_failed(wait->peer, "an RMA operation", err);
    }
    atomic_store_explicit(&wait->state, (err == 0) ? 1 : err + 2,
                          memory_order_release);
}

/* Posts one operation of at most max_msg_size bytes with @flags;
 * retries while the provider has no room (reading completions
 * meanwhile).  @ctx NULL: an injected write, which completes nothing. */
static xg_status_t ofi_rma_post(int put, int peer, void *local, size_t len,
                                uint64_t raddr, uint64_t key, void *desc,
                                void *ctx, uint64_t flags)
{
    struct iovec iov       = {.iov_base = local, .iov_len = len};
    struct fi_rma_iov riov = {.addr = raddr, .len = len, .key = key};
    struct fi_msg_rma msg  = {.msg_iov       = &iov,
                              .desc          = &desc,
                              .iov_count     = 1,
                              .addr          = xg_ofi_addr(peer),
                              .rma_iov       = &riov,
                              .rma_iov_count = 1,
                              .context       = ctx};
    xg_wait_t wait;
    ssize_t ret;

    if (msg.addr == FI_ADDR_NOTAVAIL) {
        return XG_ERR_UNREACHABLE;
    }
    xg_wait_init(&wait);
    for (;;) {
        xg_ofi_in_provider++;
        if (ctx == NULL) {
            ret = fi_inject_write(xg_ofi.ep, local, len, msg.addr, raddr, key);
        } else {
            /* counted first: its completion may be read at once */
            atomic_fetch_add_explicit(&xg_ofi.tx_inflight, 1,
                                      memory_order_release);
            ret = put ? fi_writemsg(xg_ofi.ep, &msg, flags | FI_COMPLETION)
                      : fi_readmsg(xg_ofi.ep, &msg, flags | FI_COMPLETION);
            if (ret != 0) {
                atomic_fetch_sub_explicit(&xg_ofi.tx_inflight, 1,
                                          memory_order_relaxed);
            }
        }
        xg_ofi_in_provider--;
        if (ret != -FI_EAGAIN) {
            break;
        }
        if (atomic_load_explicit(&xg_ofi.peers[peer].state,
                                 memory_order_acquire) == XG_OFI_PEER_CLOSED) {
            /* it finalized: its endpoint may be gone with its process */
            return XG_ERR_UNREACHABLE;
        }
        xg_wait_net_backoff(&wait, xg_ofi_progress_stalled());
    }
    if (ret != 0) {
        xg_error("ofi", "%s of %zu bytes to PE %d failed (%s)",
                 put ? "an RMA write" : "an RMA read", len, peer,
                 fi_strerror((int)-ret));
        return XG_ERR_UNREACHABLE;
    }
    return XG_OK;
}

/* The flags of a put or get posted with a completion: without the
 * provider's read-after-write order, a write asks for delivery. */
static uint64_t ofi_rma_flags(int put)
{
    return (put && !xg_ofi.raw_order) ? FI_DELIVERY_COMPLETE : 0;
}

/* Waits for the completion of a posted operation whose context is @w. */
static xg_status_t ofi_rma_wait(ofi_rma_wait_t *w)
{
    xg_wait_t wait;

    xg_wait_init(&wait);
    while (atomic_load_explicit(&w->state, memory_order_acquire) == 0) {
        xg_wait_net_backoff(&wait, xg_ofi_progress());
    }
    return (atomic_load_explicit(&w->state, memory_order_relaxed) == 1)
               ? XG_OK
               : XG_ERR_UNREACHABLE;
}

/* A write to @peer may not be visible there yet: a later flush reads. */
static void ofi_rma_dirty(int peer)
{
    if (!atomic_exchange_explicit(&xg_ofi.peers[peer].rma_dirty, 1,
                                  memory_order_acq_rel)) {
        atomic_fetch_add_explicit(&xg_ofi.rma_dirty, 1, memory_order_release);
    }
}

/* The context of a counted operation to @peer (odd: no pointer). */
static void *ofi_rma_counted_ctx(int peer)
{
    return (void *)(((uintptr_t)peer << 1) | 1);
}

/*
 * One piece of an operation (at most max_msg_size bytes).  With the
 * provider's read-after-write order (xg_ofi.raw_order) a write asks for
 * no more than its source being free again: injected when small (no
 * completion at all), else a local completion; its visibility at the
 * target is what a later read of the target shows (ofi_rma_flush).
 * Without it, every write waits for delivery (FI_DELIVERY_COMPLETE).
 * @mode says what to wait for; a counted piece completes at
 * xg_ofi_rma_complete.
 */
static xg_status_t ofi_rma_piece(int put, int peer, const xg_ofi_peer_t *p,
                                 char *local, uint64_t off, size_t len,
                                 void *desc, int mode)
{
    ofi_rma_wait_t word = {.state = 0, .peer = peer};
    uint64_t flags      = ofi_rma_flags(put);
    xg_status_t status;
    xg_ofi_buf_t *copy;

    if (put && xg_ofi.raw_order && (len <= xg_ofi.info->tx_attr->inject_size)) {
        status = ofi_rma_post(1, peer, local, len, p->rma_base + off,
                              p->rma_key, NULL, NULL, 0);
    } else if (put && xg_ofi.raw_order && (mode == XG_XPORT_RMA_LOCAL) &&
               (len <= xg_ofi.buf_size) &&
               ((copy = xg_ofi_tx_take()) != NULL)) {
        /* a blocking put too large to inject: its bytes copied into a
         * free send buffer (registered), written from there and the
         * buffer freed by the completion -- the put returns at once, as
         * an injected one (none free: it waits for its source below) */
        memcpy(copy->data, local, len);
        copy->peer = peer;
        copy->len  = (uint32_t)len;
        copy->rma  = 1;
        status     = ofi_rma_post(1, peer, copy->data, len, p->rma_base + off,
                                  p->rma_key, xg_ofi.buf_desc, copy, 0);
        if (status != XG_OK) {
            xg_ofi_pkt_sent(copy, FI_ECANCELED);
        }
    } else if (mode == XG_XPORT_RMA_COUNT) {
        /* counted before it can complete */
        atomic_fetch_add_explicit(&xg_ofi.rma_issued, 1, memory_order_seq_cst);
        status =
            ofi_rma_post(put, peer, local, len, p->rma_base + off, p->rma_key,
                         desc, ofi_rma_counted_ctx(peer), flags);
        if (status != XG_OK) {
            atomic_fetch_sub_explicit(&xg_ofi.rma_issued, 1,
                                      memory_order_seq_cst);
        }
    } else {
        status = ofi_rma_post(put, peer, local, len, p->rma_base + off,
                              p->rma_key, desc, &word, flags);
        if (status == XG_OK) {
            status = ofi_rma_wait(&word);
        }
    }
    if ((status == XG_OK) && put && xg_ofi.raw_order) {
        ofi_rma_dirty(peer);
    }
    return status;
}

/*
 * A long operation that the caller waits for: its pieces posted ahead of
 * the first one's completion, up to OFI_RMA_WINDOW in flight, then waited
 * for in order (every posted one: their completion words are on this
 * stack).
 */
static xg_status_t ofi_rma_pipelined(int put, int peer, const xg_ofi_peer_t *p,
                                     char *local, uint64_t off, size_t len,
                                     size_t piece, void *desc)
{
    ofi_rma_wait_t words[OFI_RMA_WINDOW];
    uint64_t flags  = ofi_rma_flags(put);
    unsigned posted = 0, waited = 0;
    xg_status_t status = XG_OK;
    ofi_rma_wait_t *word;
    size_t done, chunk;

    for (done = 0; (status == XG_OK) && (done < len); done += chunk) {
        if (posted - waited == OFI_RMA_WINDOW) {
            status = ofi_rma_wait(&words[waited++ % OFI_RMA_WINDOW]);
            if (status != XG_OK) {
                break;
            }
        }
        chunk       = (len - done < piece) ? len - done : piece;
        word        = &words[posted % OFI_RMA_WINDOW];
        word->state = 0;
        word->peer  = peer;
        status      = ofi_rma_post(put, peer, local + done, chunk,
                                   p->rma_base + off + done, p->rma_key, desc, word,
                                   flags);
        if (status == XG_OK) {
            posted++;
        }
    }
    while (waited < posted) {
        if ((ofi_rma_wait(&words[waited++ % OFI_RMA_WINDOW]) != XG_OK) &&
            (status == XG_OK)) {
            status = XG_ERR_UNREACHABLE;
        }
    }
    if ((status == XG_OK) && put && xg_ofi.raw_order) {
        ofi_rma_dirty(peer);
    }
    return status;
}

xg_status_t xg_ofi_rma(int put, int peer, void *local, uint64_t off, size_t len,
                       int mode, int *counted_p)
{
    const xg_ofi_peer_t *p = ofi_rma_peer(peer);
    size_t chunk, max = xg_ofi.info->ep_attr->max_msg_size, done = 0;
    xg_status_t status = XG_OK;
    void *desc;
    int ok;

    *counted_p = 0;
    if (p == NULL) {
        return XG_ERR_UNREACHABLE;
    }
    if ((off > p->rma_len) || (len > p->rma_len - off)) {
        return XG_ERR_OUT_OF_BOUNDS;
    }
    desc = ofi_rma_desc(local, len, &ok);
    if (!ok) {
        return XG_ERR_UNSUPPORTED; /* the caller checked reaches() */
    }
    /* without the provider's order, a read waits for the writes before */
    if (!put && !xg_ofi.raw_order && xg_ofi_rma_outstanding() &&
        (xg_ofi_rma_complete() != XG_OK)) {
        return XG_ERR_UNREACHABLE;
    }
    if (max > OFI_RMA_PIECE) {
        max = OFI_RMA_PIECE;
    }
    if ((mode != XG_XPORT_RMA_COUNT) && (len > max)) {
        status = ofi_rma_pipelined(put, peer, p, local, off, len, max, desc);
    } else {
        for (; (status == XG_OK) && (done < len); done += chunk) {
            chunk  = (len - done < max) ? len - done : max;
            status = ofi_rma_piece(put, peer, p, (char *)local + done,
                                   off + done, chunk, desc, mode);
        }
    }
    if ((status == XG_OK) && (mode == XG_XPORT_RMA_WAIT) && put &&
        xg_ofi.raw_order) {
        status = xg_ofi_rma_complete(); /* visible at the target */
    }
    /* what xg_ofi_rma_complete still has to do for this operation */
    *counted_p = (mode == XG_XPORT_RMA_COUNT) ||
                 (put && xg_ofi.raw_order && (mode != XG_XPORT_RMA_WAIT));
    return status;
}

int xg_ofi_rma_ordered(void)
{
    return xg_ofi.open && xg_ofi.waw_order;
}

int xg_ofi_rma_outstanding(void)
{
    return (atomic_load_explicit(&xg_ofi.rma_done, memory_order_seq_cst) !=
            atomic_load_explicit(&xg_ofi.rma_issued, memory_order_seq_cst)) ||
           (atomic_load_explicit(&xg_ofi.rma_dirty, memory_order_acquire) != 0);
}

/* Reads a word of every peer written since the last flush: with the
 * provider's read-after-write order, a read completes after the writes
 * before it are visible at the target.  The reads are counted. */
static xg_status_t ofi_rma_flush(void)
{
    static uint64_t scratch; /* what the reads bring: not looked at */
    xg_status_t status = XG_OK;
    int pe;

    for (pe = 0;
         (pe < xg_ofi.npes) &&
         (atomic_load_explicit(&xg_ofi.rma_dirty, memory_order_acquire) != 0);
         pe++) {
        if (!atomic_load_explicit(&xg_ofi.peers[pe].rma_dirty,
                                  memory_order_relaxed) ||
            !atomic_exchange_explicit(&xg_ofi.peers[pe].rma_dirty, 0,
                                      memory_order_acq_rel)) {
            continue;
        }
        atomic_fetch_sub_explicit(&xg_ofi.rma_dirty, 1, memory_order_relaxed);
        if (atomic_load_explicit(&xg_ofi.peers[pe].state,
                                 memory_order_acquire) == XG_OFI_PEER_CLOSED) {
            continue; /* it finalized: nobody reads what it holds */
        }
        atomic_fetch_add_explicit(&xg_ofi.rma_issued, 1, memory_order_seq_cst);
        if (ofi_rma_post(0, pe, &scratch, sizeof(scratch),
                         xg_ofi.peers[pe].rma_base, xg_ofi.peers[pe].rma_key,
                         ofi_rma_desc(&scratch, sizeof(scratch), &(int){0}),
                         ofi_rma_counted_ctx(pe), 0) != XG_OK) {
            atomic_fetch_sub_explicit(&xg_ofi.rma_issued, 1,
                                      memory_order_seq_cst);
            status = XG_ERR_UNREACHABLE;
        }
    }
    return status;
}

/*
 * Complete when, at some moment, every counted operation is: the done
 * count is read before the issued count (an operation is counted issued
 * before it can complete), and the two being equal means none of those
 * is outstanding.
 */
xg_status_t xg_ofi_rma_complete(void)
{
    uint64_t done, failed;
    xg_status_t flushed = ofi_rma_flush();
    xg_wait_t wait;

    xg_wait_init(&wait);
    for (;;) {
        done = atomic_load_explicit(&xg_ofi.rma_done, memory_order_seq_cst);
        if (done ==
            atomic_load_explicit(&xg_ofi.rma_issued, memory_order_seq_cst)) {
            break;
        }
        xg_wait_net_backoff(&wait, xg_ofi_progress());
    }
    failed = atomic_load_explicit(&xg_ofi.rma_failed, memory_order_relaxed);
    if (failed != xg_ofi.rma_failed_seen) {
        xg_ofi.rma_failed_seen = failed;
        return XG_ERR_UNREACHABLE;
    }
    return flushed;
}
