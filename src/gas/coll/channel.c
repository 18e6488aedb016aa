/*
 * The signal channels of the collective engine (gas/coll/engine_int.h): the
 * team-slot channel and the pSync channel, which reach other members'
 * memory by load/store through the PVAS region, and their remote forms,
 * which reach it through gas operations on each member's route.
 */
#include "gas/coll/engine_int.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gas/coll/xg_internal_area.h"
#include "gas/copy_int.h"
#include "gas/xg_gas.h"
#include "gas/xg_gas_ops.h"

/* ---- shared: members' memory -------------------------------------------- */

/*
 * Where this PE reaches symmetric @ptr (heap, internal area or global
 * variable, already checked by the caller) of member @rank: the same
 * offset in the member's partition, or in its window of globals.
 */
static void *chan_peer(const xg_coll_t *coll, const void *ptr, int rank)
{
    uintptr_t off = (uintptr_t)ptr - xg_mem.my_part;
    int pe;

    if (rank == coll->rank) {
        return (void *)ptr;
    }
    pe = xg_coll_world(coll, rank);
    if (off < xg_mem.part_size) {
        return (void *)(xg_gas_part(pe) + off);
    }
    return (void *)(xg_gas_part(pe) + xg_gas.data_off +
                    ((uintptr_t)ptr - xg_gas.data_lo));
}

/* A zero-length call may pass NULL buffers, which memmove must not see. */
static void chan_read(const xg_coll_t *coll, void *dst, const void *ptr,
                      int rank, size_t n)
{
    if (n > 0) {
        memmove(dst, chan_peer(coll, ptr, rank), n);
    }
}

static void chan_read_end(const xg_coll_t *coll)
{
    (void)coll; /* every read is done when it returns */
}

static void chan_write(const xg_coll_t *coll, void *ptr, const void *src,
                       int rank, size_t n)
{
    if (n > 0) {
        memcpy(chan_peer(coll, ptr, rank), src, n);
    }
}

static void chan_combine(const xg_coll_t *coll, xg_op_kernel_t op, void *dst,
                         const void *ptr, int rank, size_t nelems,
                         size_t elem_size)
{
    (void)elem_size;
    if (nelems > 0) {
        op(dst, chan_peer(coll, ptr, rank), nelems);
    }
}

static void chan_read_strided(const xg_coll_t *coll, void *dst,
                              ptrdiff_t dst_stride, const void *ptr,
                              ptrdiff_t src_stride, int rank, size_t nelems,
                              size_t elem_size)
{
    xg_gas_copy_strided(dst, dst_stride * (ptrdiff_t)elem_size,
                        chan_peer(coll, ptr, rank),
                        src_stride * (ptrdiff_t)elem_size, elem_size, nelems);
}

/* ---- the team-slot channel ---------------------------------------------- */

/*
 * Each member's slot has one counter per member and direction
 * (gas/coll/xg_internal_area.h): a signal from r to s adds 1 to s's chan[r],
 * and s counts what it consumed from r in team->expected, so signals
 * between a pair match in order whatever algorithm sent them.  The
 * active-set calls signal the same way through slot 2 (xg_team_aset),
 * where a member's counter is its world PE's: a pair of PEs meets in the
 * same active-set calls in the same order, whatever the sets.
 */

/* The team whose slot counters carry the call's signals, and the counter
 * index of member @rank there. */
static inline xg_team_t *sig_team(const xg_coll_t *coll)
{
    return (coll->team != NULL) ? coll->team : &xg_team_aset;
}

static inline int sig_index(const xg_coll_t *coll, int rank)
{
    return (coll->team != NULL) ? rank : xg_coll_world(coll, rank);
}

/* The counters a phase maps to: signals that go down a tree, or the
 * others. */
static inline int team_dir(int phase)
{
    return ((phase == XG_PSYNC_DOWN) || (phase == XG_PSYNC_BAR_DOWN))
               ? XG_CHAN_DOWN
               : XG_CHAN_UP;
}

static void team_publish(xg_coll_t *coll)
{
    xg_coll_desc_t *desc;
    uint64_t seq;

    /* seqlock: odd while the fields change, so a reader never takes a
     * half-written descriptor for this call's */
    seq  = ++coll->team->seq;
    desc = xg_slot_desc(coll->slot, seq);
    atomic_store_explicit(&desc->seq2, 2 * seq - 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&desc->kind, coll->kind, memory_order_relaxed);
    atomic_store_explicit(&desc->code, coll->code, memory_order_relaxed);
    atomic_store_explicit(&desc->nelems, coll->nelems, memory_order_relaxed);
    atomic_store_explicit(&desc->root, coll->root, memory_order_relaxed);
    atomic_store_explicit(&desc->extra, coll->extra, memory_order_relaxed);
    atomic_store_explicit(&desc->seq2, 2 * seq, memory_order_release);
}

/* Member @rank's descriptor of the call this PE is in. */
static const xg_coll_desc_t *team_desc(const xg_coll_t *coll, int rank)
{
    return xg_slot_desc(xg_slot(xg_coll_world(coll, rank), coll->team->slot),
                        coll->team->seq);
}

/* Compares @peer's descriptor (if it has reached this call and not left
 * it) with this PE's: one read of the peer's descriptor line. */
static void team_check(const xg_coll_t *coll, int peer)
{
    const xg_coll_desc_t *desc;
    uint64_t want, kind, code, nelems, extra;
    int64_t root;

    if (peer == coll->rank) {
        return;
    }
    desc = team_desc(coll, peer);
    want = 2 * coll->team->seq;
    if (atomic_load_explicit(&desc->seq2, memory_order_acquire) != want) {
        return; /* the peer is in an earlier call */
    }
    kind   = atomic_load_explicit(&desc->kind, memory_order_relaxed);
    code   = atomic_load_explicit(&desc->code, memory_order_relaxed);
    nelems = atomic_load_explicit(&desc->nelems, memory_order_relaxed);
    root   = atomic_load_explicit(&desc->root, memory_order_relaxed);
    extra  = atomic_load_explicit(&desc->extra, memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&desc->seq2, memory_order_relaxed) != want) {
        return; /* rewritten meanwhile: the peer moved on */
    }
    xg_coll_compare(coll, peer, kind, code, nelems, root, extra);
}

static void team_check_list(const xg_coll_t *coll, const int *peers, int count)
{
    int i;

    for (i = 0; i < count; i++) {
        team_check(coll, peers[i]);
    }
}

static void team_signal(const xg_coll_t *coll, int to, int phase)
{
    /* release: everything this PE wrote before (data, results) is visible
     * to @to once it sees the count */
    atomic_fetch_add_explicit(
        xg_slot_chan(xg_slot(xg_coll_world(coll, to), sig_team(coll)->slot),
                     team_dir(phase), sig_index(coll, coll->rank)),
        1, memory_order_release);
}

/* How many of @from[seen..count-1], in order, have sent the signal this
 * PE expects next, from @seen on. */
static inline int team_seen(const xg_coll_t *coll, int dir,
                            const uint64_t *expected, const int *from,
                            int count, int seen)
{
    for (; seen < count; seen++) {
        int idx = sig_index(coll, from[seen]);

        if (atomic_load_explicit(xg_slot_chan(coll->slot, dir, idx),
                                 memory_order_acquire) < expected[idx] + 1) {
            break;
        }
    }
    return seen;
}

/* Each time the PE runs it looks at every sender not yet seen, so on an
 * oversubscribed node it is not woken once per sender. */
static void team_wait(const xg_coll_t *coll, const int *from, int count,
                      int phase)
{
    int dir            = team_dir(phase);
    xg_team_t *team    = sig_team(coll);
    uint64_t *expected = team->expected + dir * team->size;
    unsigned polls     = 0;
    xg_wait_what_t what;
    xg_wait_t wait;
    int i, seen = team_seen(coll, dir, expected, from, count, 0);

    if (xg_unlikely(seen < count)) {
        xg_coll_wait_start(coll, &wait, &what, from[seen]);
        while ((i = team_seen(coll, dir, expected, from, count, seen)) <
               count) {
            if (i != seen) {
                /* a member signalled: wait (and watch) for the next one
                 * afresh -- the one that signalled may leave the call */
                seen = i;
                xg_coll_wait_start(coll, &wait, &what, from[seen]);
            }
            xg_coll_backoff(&wait);
            /* a peer that never signals may be in another collective, or
             * in this one with other arguments: look at its descriptor
             * now and then */
            if ((++polls % XG_COLL_CHECK_EVERY) == 0) {
                coll->chan->watch(coll, from[seen]);
            }
        }
    }
    for (i = 0; i < count; i++) {
        expected[sig_index(coll, from[i])]++;
    }
}

static void team_count_put(xg_coll_t *coll, size_t nbytes)
{
    atomic_store_explicit(&xg_slot_desc(coll->slot, coll->team->seq)->count,
                          nbytes, memory_order_relaxed);
}

static void team_count_read(const xg_coll_t *coll, int rank, uint64_t *count)
{
    *count = atomic_load_explicit(&team_desc(coll, rank)->count,
                                  memory_order_relaxed);
}

static void team_count_done(xg_coll_t *coll)
{
    (void)coll; /* the descriptor line is rewritten by a later call */
}

/* Member 0's barrier line: its arrival word counts size per barrier; the
 * last arrival stores the barrier's number into its release word, which
 * every member waits on -- so a member touches member 0's slot only, not
 * every member's (each peer's partition a PE touches costs it page-table
 * pages, docs/memory.md). */
static xg_coll_bar_t *team_bar0(const xg_coll_t *coll)
{
    return xg_slot_bar(xg_slot(xg_coll_world(coll, 0), coll->team->slot));
}

static int team_arrive(const xg_coll_t *coll)
{
    uint64_t b                = ++coll->team->bar_count;
    _Atomic uint64_t *arrived = &team_bar0(coll)->arrived;

    /* acq_rel: the last arrival acquires every earlier one (they form one
     * release sequence) and releases them all with its stores */
    return atomic_fetch_add_explicit(arrived, 1, memory_order_acq_rel) + 1 ==
           b * (uint64_t)coll->size;
}

static void team_release(const xg_coll_t *coll)
{
    atomic_store_explicit(&team_bar0(coll)->release, coll->team->bar_count,
                          memory_order_release);
}

static void team_wait_release(const xg_coll_t *coll)
{
    xg_coll_bar_t *bar0 = team_bar0(coll);
    uint64_t b          = coll->team->bar_count;
    xg_wait_what_t what;
    xg_wait_t wait;
    unsigned polls = 0;

    xg_coll_wait_start(coll, &wait, &what, -1);
    while (atomic_load_explicit(&bar0->release, memory_order_acquire) < b) {
        xg_coll_backoff(&wait);
        if ((++polls % XG_COLL_CHECK_EVERY) == 0) {
            coll->chan->watch(coll, 0);
        }
    }
}

const xg_coll_chan_t xg_coll_chan_team = {
    .publish      = team_publish,
    .check        = team_check_list,
    .watch        = team_check,
    .signal       = team_signal,
    .wait         = team_wait,
    .read         = chan_read,
    .read_start   = chan_read,
    .read_end     = chan_read_end,
    .write        = chan_write,
    .combine      = chan_combine,
    .read_strided = chan_read_strided,
    .count_put    = team_count_put,
    .count_read   = team_count_read,
    .count_done   = team_count_done,
    .arrive       = team_arrive,
    .release      = team_release,
    .wait_release = team_wait_release,
};

/* ---- the pSync channel -------------------------------------------------- */

/*
 * The deprecated active-set routines: signals through the active-set slot
 * (above), so no PE ever writes another's pSync.  A collect's count is
 * the only word of pSync in use: this PE's contribution, written by this
 * PE before the first barrier phase, read by the others between the
 * phases and reset to SHMEM_SYNC_VALUE after the last one, so the array
 * is as the call found it when the call returns.  No descriptors: nothing
 * to check; no counter barrier (its arrival count is per team).
 */

static void psync_publish(xg_coll_t *coll)
{
    (void)coll;
}

static void psync_check(const xg_coll_t *coll, const int *peers, int count)
{
    (void)coll;
    (void)peers;
    (void)count;
}

static void psync_watch(const xg_coll_t *coll, int peer)
{
    (void)coll;
    (void)peer;
}

static void psync_count_put(xg_coll_t *coll, size_t nbytes)
{
    __atomic_store_n(&coll->psync[XG_PSYNC_COUNT], (long)nbytes,
                     __ATOMIC_RELAXED);
}

static void psync_count_read(const xg_coll_t *coll, int rank, uint64_t *count)
{
    *count = (uint64_t)__atomic_load_n(
        (long *)chan_peer(coll, &coll->psync[XG_PSYNC_COUNT], rank),
        __ATOMIC_RELAXED);
}

static void psync_count_done(xg_coll_t *coll)
{
    /* every member has read it: back to SHMEM_SYNC_VALUE */
    __atomic_store_n(&coll->psync[XG_PSYNC_COUNT], 0, __ATOMIC_RELAXED);
}

const xg_coll_chan_t xg_coll_chan_psync = {
    .publish      = psync_publish,
    .check        = psync_check,
    .watch        = psync_watch,
    .signal       = team_signal,
    .wait         = team_wait,
    .read         = chan_read,
    .read_start   = chan_read,
    .read_end     = chan_read_end,
    .write        = chan_write,
    .combine      = chan_combine,
    .read_strided = chan_read_strided,
    .count_put    = psync_count_put,
    .count_read   = psync_count_read,
    .count_done   = psync_count_done,
};

/* ---- the remote channels ------------------------------------------------ */

/*
 * For calls with members this PE may not reach by load and store: every
 * access to another member is a gas operation through that member's route
 * (gets, puts and atomics on symmetric memory; xg_gas_area_* on the team
 * slots), and every wait is a local load of this PE's own words, which the
 * senders' signals update.  The words are the direct channels' (a member
 * on either channel reads and writes the same ones the same way).  A read
 * completes before it returns (read_start's at read_end); a write once its
 * source is free, and before this PE's next signal, so what a member
 * writes before a signal is in place when the signal, or one it causes
 * elsewhere, arrives.  A signal is sent and not waited for (signal_ctx):
 * nothing at the sender depends on its arrival, and a round of a barrier
 * then costs the network one way instead of a round trip.  Any later
 * operation through the NIC, a quiet included, completes it.
 */

enum {
    REMOTE_CHUNK = 4096,        /* bytes fetched at a time on the stack */
    REMOTE_BIG   = 256u * 1024u /* ... or in a heap buffer, for longer
                                 * arrays: a round trip per 256 KiB rather
                                 * than per 4 KiB */
};

/* A private buffer for @n bytes of a member's array: @stack (REMOTE_CHUNK
 * bytes) for short ones, else one of up to REMOTE_BIG bytes from the heap
 * (the stack one if there is no memory); its size in *@cap_p.  Freed by
 * remote_buffer_free. */
static char *remote_buffer(char *stack, size_t n, size_t *cap_p)
{
    char *big;

    *cap_p = REMOTE_CHUNK;
    if (n <= REMOTE_CHUNK) {
        return stack;
    }
    n   = (n < REMOTE_BIG) ? n : REMOTE_BIG;
    big = malloc(n);
    if (big == NULL) {
        return stack;
    }
    *cap_p = n;
    return big;
}

static void remote_buffer_free(char *buf, const char *stack)
{
    if (buf != stack) {
        free(buf);
    }
}

static xg_gas_ctx_t remote_ctx = XG_GAS_CTX_INIT_SHARED;
static xg_gas_ctx_t signal_ctx = XG_GAS_CTX_INIT_SHARED;
/* A push's writes: complete for the channel once its ordered signal is
 * sent (the network delivers them before it), so no later signal waits
 * for them; only the fallback without that order completes them. */
static xg_gas_ctx_t push_ctx = XG_GAS_CTX_INIT_SHARED;

static void remote_ok(const xg_coll_t *coll, xg_status_t status, int rank)
{
    if (xg_unlikely(status != XG_OK)) {
        xg_coll_chan_failed(coll, rank, status);
    }
}

/* Whether @ptr lies in this PE's internal area (the team slots' scratch,
 * which team creation reduces), not in symmetric memory. */
static int remote_in_area(const void *ptr)
{
    return (uintptr_t)ptr - (xg_mem.my_part + xg_mem.internal_off) <
           xg_mem.part_size - xg_mem.internal_off;
}

static void remote_read(const xg_coll_t *coll, void *dst, const void *ptr,
                        int rank, size_t n)
{
    int pe = xg_coll_world(coll, rank);

    if (rank == coll->rank) {
        chan_read(coll, dst, ptr, rank, n);
    } else if (remote_in_area(ptr)) {
        remote_ok(coll, xg_gas_area_get(dst, ptr, n, pe), rank);
    } else if (n > 0) {
        remote_ok(coll, xg_gas_get(&remote_ctx, dst, ptr, n, pe), rank);
    }
}

static void remote_read_start(const xg_coll_t *coll, void *dst, const void *ptr,
                              int rank, size_t n)
{
    if ((rank == coll->rank) || remote_in_area(ptr)) {
        remote_read(coll, dst, ptr, rank, n);
    } else if (n > 0) {
        remote_ok(
            coll,
            xg_gas_get_nbi(&remote_ctx, dst, ptr, n, xg_coll_world(coll, rank)),
            rank);
    }
}

static void remote_read_end(const xg_coll_t *coll)
{
    (void)coll;
    xg_gas_ctx_quiet(&remote_ctx);
}

static void remote_put(const xg_coll_t *coll, xg_gas_ctx_t *ctx, void *ptr,
                       const void *src, int rank, size_t n)
{
    if (rank == coll->rank) {
        chan_write(coll, ptr, src, rank, n);
    } else if (n > 0) {
        /* a signal follows (a batch of word puts would wait for it) */
        remote_ok(
            coll,
            xg_gas_put_unbatched(ctx, ptr, src, n, xg_coll_world(coll, rank)),
            rank);
    }
}

static void remote_write(const xg_coll_t *coll, void *ptr, const void *src,
                         int rank, size_t n)
{
    remote_put(coll, &remote_ctx, ptr, src, rank, n);
}

/* The member's elements come into a private buffer a chunk at a time
 * (element types are at most 16 bytes). */
static void remote_combine(const xg_coll_t *coll, xg_op_kernel_t op, void *dst,
                           const void *ptr, int rank, size_t nelems,
                           size_t elem_size)
{
    char stack[REMOTE_CHUNK], *buf;
    size_t cap, per, i, m;

    if (rank == coll->rank) {
        chan_combine(coll, op, dst, ptr, rank, nelems, elem_size);
        return;
    }
    buf = remote_buffer(stack, nelems * elem_size, &cap);
    per = cap / elem_size;
    for (i = 0; i < nelems; i += m) {
        m = (nelems - i < per) ? nelems - i : per;
        remote_read(coll, buf, (const char *)ptr + i * elem_size, rank,
                    m * elem_size);
        op((char *)dst + i * elem_size, buf, m);
    }
    remote_buffer_free(buf, stack);
}

/* The member's elements a chunk of its array at a time, each chunk one
 * get into a private buffer, then spread out. */
static void remote_read_strided(const xg_coll_t *coll, void *dst,
                                ptrdiff_t dst_stride, const void *ptr,
                                ptrdiff_t src_stride, int rank, size_t nelems,
                                size_t elem_size)
{
    size_t sstep    = (size_t)src_stride * elem_size, per, i, m, cap;
    ptrdiff_t dstep = dst_stride * (ptrdiff_t)elem_size;
    char stack[REMOTE_CHUNK], *buf;

    if ((rank == coll->rank) || (nelems == 0)) {
        chan_read_strided(coll, dst, dst_stride, ptr, src_stride, rank, nelems,
                          elem_size);
        return;
    }
    buf = remote_buffer(stack, (nelems - 1) * sstep + elem_size, &cap);
    per = (sstep <= cap) ? cap / sstep : 1;
    for (i = 0; i < nelems; i += m) {
        m = (nelems - i < per) ? nelems - i : per;
        remote_read(coll, buf, (const char *)ptr + i * sstep, rank,
                    (m - 1) * sstep + elem_size);
        xg_gas_copy_strided((char *)dst + (ptrdiff_t)i * dstep, dstep, buf,
                            (ptrdiff_t)sstep, elem_size, m);
    }
    remote_buffer_free(buf, stack);
}

/* An atomic on the counterpart of this PE's slot word @word in member
 * @rank's slot; the word's prior value. */
static uint64_t remote_slot_amo(const xg_coll_t *coll, xg_gas_amo_t op,
                                _Atomic uint64_t *word, uint64_t value,
                                int rank)
{
    xg_gas_amo_result_t result =
        xg_gas_area_amo(op, (void *)word, value, xg_coll_world(coll, rank));

    remote_ok(coll, result.status, rank);
    return result.old;
}

static void remote_compare(const xg_coll_t *coll, int peer,
                           const xg_coll_desc_t *copy)
{
    xg_coll_compare(coll, peer,
                    atomic_load_explicit(&copy->kind, memory_order_relaxed),
                    atomic_load_explicit(&copy->code, memory_order_relaxed),
                    atomic_load_explicit(&copy->nelems, memory_order_relaxed),
                    atomic_load_explicit(&copy->root, memory_order_relaxed),
                    atomic_load_explicit(&copy->extra, memory_order_relaxed));
}

/* team_check through the route where the peers' descriptors hold still
 * (they are in this call and wait for this PE): one read of each line,
 * all in flight together -- and with the reads this PE started before
 * (read_start), which complete here too. */
static void remote_team_check(const xg_coll_t *coll, const int *peers,
                              int count)
{
    xg_coll_desc_t *mine = xg_slot_desc(coll->slot, coll->team->seq);
    xg_coll_desc_t copies[COLL_CHECK_MAX];
    int i;

    for (i = 0; i < count; i++) {
        if (peers[i] != coll->rank) {
            remote_ok(coll,
                      xg_gas_area_get_nbi(&remote_ctx, &copies[i], mine,
                                          sizeof(copies[i]),
                                          xg_coll_world(coll, peers[i])),
                      peers[i]);
        }
    }
    xg_gas_ctx_quiet(&remote_ctx);
    for (i = 0; i < count; i++) {
        if ((peers[i] != coll->rank) &&
            (atomic_load_explicit(&copies[i].seq2, memory_order_relaxed) ==
             2 * coll->team->seq)) {
            remote_compare(coll, peers[i], &copies[i]);
        }
    }
}

/* The seqlock read of team_check through the route, for a peer that may
 * be rewriting its descriptor: its sequence word, the line, the sequence
 * word again, one read each. */
static void remote_team_watch(const xg_coll_t *coll, int peer)
{
    xg_coll_desc_t *mine = xg_slot_desc(coll->slot, coll->team->seq);
    uint64_t want        = 2 * coll->team->seq, seq2;
    xg_coll_desc_t copy;

    if (peer == coll->rank) {
        return;
    }
    remote_ok(coll,
              xg_gas_area_get(&seq2, &mine->seq2, sizeof(seq2),
                              xg_coll_world(coll, peer)),
              peer);
    if (seq2 != want) {
        return;
    }
    remote_ok(
        coll,
        xg_gas_area_get(&copy, mine, sizeof(copy), xg_coll_world(coll, peer)),
        peer);
    remote_ok(coll,
              xg_gas_area_get(&seq2, &mine->seq2, sizeof(seq2),
                              xg_coll_world(coll, peer)),
              peer);
    if (seq2 == want) {
        remote_compare(coll, peer, &copy);
    }
}

/* A signal to a member of another node is a store of the number of
 * signals this PE has sent it (only this PE writes that word) by one
 * ordered network write, which the target's provider applies while any of
 * its threads reads its queues, where the network keeps that order; an
 * added 1 otherwise (an atomic, which the target's NIC must execute).
 * What this PE wrote before is in place first -- @to_only: at @to (the
 * network's order is enough for writes to @to); else everywhere, since
 * @to may pass the signal on. */
static void remote_signal(const xg_coll_t *coll, int to, int phase, int to_only)
{
    int dir         = team_dir(phase);
    xg_team_t *team = sig_team(coll);
    uint64_t sent =
        ++team->expected[(2 + dir) * team->size + sig_index(coll, to)];
    _Atomic uint64_t *word =
        xg_slot_chan(coll->slot, dir, sig_index(coll, coll->rank));
    int pe             = xg_coll_world(coll, to);
    xg_status_t status = XG_ERR_UNSUPPORTED;

    if (!to_only && (xg_gas_ctx_pending(&remote_ctx) != 0)) {
        xg_gas_ctx_quiet(&remote_ctx);
    }
    status = xg_gas_area_write_ordered(&signal_ctx, (void *)word, sent, pe);
    if (status == XG_ERR_UNSUPPORTED) {
        /* (a member reached by load/store got its data already) */
        if (xg_gas.table[pe + 1].route != XG_GAS_ROUTE_DIRECT) {
            if (xg_gas_ctx_pending(&remote_ctx) != 0) {
                xg_gas_ctx_quiet(&remote_ctx);
            }
            if (xg_gas_ctx_pending(&push_ctx) != 0) {
                xg_gas_ctx_quiet(&push_ctx);
            }
        }
        status = xg_gas_area_amo_nbi(&signal_ctx, XG_GAS_AMO_ADD, (void *)word,
                                     1, pe);
    }
    remote_ok(coll, status, to);
}

static void remote_team_signal(const xg_coll_t *coll, int to, int phase)
{
    remote_signal(coll, to, phase, 0);
}

/* This PE's descriptor of the call into member @rank's (world PE @pe)
 * inbox line. */
static void remote_push_desc(const xg_coll_t *coll, int pe, int rank)
{
    uint64_t seq = coll->team->seq;

    remote_ok(coll,
              xg_gas_area_put(&push_ctx, xg_slot_inbox(coll->slot, seq),
                              xg_slot_desc(coll->slot, seq),
                              sizeof(xg_coll_desc_t), pe),
              rank);
}

/* Data, descriptor and signal: writes to one member, which the network
 * keeps in order (remote_signal's fallback completes them otherwise). */
static void remote_team_push(const xg_coll_t *coll, void *ptr, const void *src,
                             size_t n, int rank, int phase, int with_desc)
{
    remote_put(coll, &push_ctx, ptr, src, rank, n);
    if (with_desc) {
        remote_push_desc(coll, xg_coll_world(coll, rank), rank);
    }
    remote_signal(coll, rank, phase, 1);
}

/* (the pusher waits for this PE before it may push again: the line holds
 * still) */
static void remote_team_check_pushed(const xg_coll_t *coll, int from)
{
    const xg_coll_desc_t *line = xg_slot_inbox(coll->slot, coll->team->seq);

    if ((from != coll->rank) &&
        (atomic_load_explicit(&line->seq2, memory_order_acquire) ==
         2 * coll->team->seq)) {
        remote_compare(coll, from, line);
    }
}

/* @n bytes of @src into the counterpart of @ptr (in this PE's slot) at
 * member @rank, if @with_desc this PE's descriptor into its inbox (only
 * on a team: the active-set calls have none), then a signal of @phase. */
static void remote_area_push(const xg_coll_t *coll, void *ptr, const void *src,
                             size_t n, int rank, int phase, int with_desc)
{
    int pe = xg_coll_world(coll, rank);

    remote_ok(coll, xg_gas_area_put(&push_ctx, ptr, src, n, pe), rank);
    if (with_desc && (coll->team != NULL)) {
        remote_push_desc(coll, pe, rank);
    }
    remote_signal(coll, rank, phase, 1);
}

static void remote_stage(const xg_coll_t *coll, size_t at, const void *src,
                         size_t n, int rank, int phase, int with_desc)
{
    remote_area_push(coll, xg_slot_stage(coll->slot) + at, src, n, rank, phase,
                     with_desc);
}

static const void *remote_staged(const xg_coll_t *coll, size_t at)
{
    return xg_slot_stage(coll->slot) + at;
}

/* No descriptors in the active-set calls: data and signal. */
static void remote_psync_push(const xg_coll_t *coll, void *ptr, const void *src,
                              size_t n, int rank, int phase, int with_desc)
{
    (void)with_desc;
    remote_put(coll, &push_ctx, ptr, src, rank, n);
    remote_signal(coll, rank, phase, 1);
}

static void remote_psync_check_pushed(const xg_coll_t *coll, int from)
{
    (void)coll;
    (void)from;
}

/* A collect's count goes to every member, each followed by a signal, so
 * the members wait for the signals instead of a barrier and then read
 * their own words; the source is this PE's own word, which stays put
 * until its next collect. */
static void remote_count_put(xg_coll_t *coll, size_t nbytes)
{
    _Atomic uint64_t *mine =
        xg_slot_count(coll->slot, sig_index(coll, coll->rank));
    int j;

    atomic_store_explicit(mine, nbytes, memory_order_relaxed);
    for (j = 1; j < coll->size; j++) {
        remote_area_push(coll, (void *)mine, (const void *)mine, sizeof(*mine),
                         (coll->rank + j) % coll->size, XG_PSYNC_UP, 0);
    }
}

/* (after @rank's signal: its word holds still until this PE has pushed
 * its block, which @rank waits for before its next collect) */
static void remote_count_read(const xg_coll_t *coll, int rank, uint64_t *count)
{
    *count = atomic_load_explicit(
        xg_slot_count(coll->slot, sig_index(coll, rank)), memory_order_relaxed);
}

static void remote_count_done(xg_coll_t *coll)
{
    (void)coll; /* pSync untouched; each word is rewritten by its owner */
}

static int remote_team_arrive(const xg_coll_t *coll)
{
    uint64_t b = ++coll->team->bar_count;

    return remote_slot_amo(coll, XG_GAS_AMO_ADD,
                           &xg_slot_bar(coll->slot)->arrived, 1, 0) +
               1 ==
           b * (uint64_t)coll->size;
}

static void remote_team_release(const xg_coll_t *coll)
{
    (void)remote_slot_amo(coll, XG_GAS_AMO_SET,
                          &xg_slot_bar(coll->slot)->release,
                          coll->team->bar_count, 0);
}

/* Member 0's release word read through the route, one read per back-off
 * step. */
static void remote_team_wait_release(const xg_coll_t *coll)
{
    _Atomic uint64_t *release = &xg_slot_bar(coll->slot)->release;
    uint64_t b                = coll->team->bar_count;
    xg_wait_what_t what;
    xg_wait_t wait;
    unsigned polls = 0;

    if (remote_slot_amo(coll, XG_GAS_AMO_FETCH, release, 0, 0) >= b) {
        return;
    }
    xg_coll_wait_start(coll, &wait, &what, -1);
    do {
        xg_coll_backoff(&wait);
        if ((++polls % XG_COLL_CHECK_EVERY) == 0) {
            coll->chan->watch(coll, 0);
        }
    } while (remote_slot_amo(coll, XG_GAS_AMO_FETCH, release, 0, 0) < b);
}

const xg_coll_chan_t xg_coll_chan_team_remote = {
    .remote         = 1,
    .publish        = team_publish,
    .check          = remote_team_check,
    .watch          = remote_team_watch,
    .push           = remote_team_push,
    .check_pushed   = remote_team_check_pushed,
    .stage_reduce   = XG_COLL_STAGE_REDUCE,
    .stage_exchange = XG_COLL_STAGE_EXCHANGE,
    .stage          = remote_stage,
    .staged         = remote_staged,
    .signal         = remote_team_signal,
    .wait           = team_wait,
    .read           = remote_read,
    .read_start     = remote_read_start,
    .read_end       = remote_read_end,
    .write          = remote_write,
    .combine        = remote_combine,
    .read_strided   = remote_read_strided,
    .count_put      = remote_count_put,
    .count_read     = remote_count_read,
    .count_done     = remote_count_done,
    .arrive         = remote_team_arrive,
    .release        = remote_team_release,
    .wait_release   = remote_team_wait_release,
};

const xg_coll_chan_t xg_coll_chan_psync_remote = {
    .remote         = 1,
    .publish        = psync_publish,
    .check          = psync_check,
    .watch          = psync_watch,
    .push           = remote_psync_push,
    .check_pushed   = remote_psync_check_pushed,
    .stage_reduce   = XG_COLL_STAGE_REDUCE,
    .stage_exchange = XG_COLL_STAGE_EXCHANGE,
    .stage          = remote_stage,
    .staged         = remote_staged,
    .signal         = remote_team_signal,
    .wait           = team_wait,
    .read           = remote_read,
    .read_start     = remote_read_start,
    .read_end       = remote_read_end,
    .write          = remote_write,
    .combine        = remote_combine,
    .read_strided   = remote_read_strided,
    .count_put      = remote_count_put,
    .count_read     = remote_count_read,
    .count_done     = remote_count_done,
};
