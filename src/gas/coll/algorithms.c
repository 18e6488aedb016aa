/*
 * The algorithms of the collective engine (see xg_coll.h for them and the
 * signalling scheme); setting a call up, naming it and checking that the
 * members agree on it are in agreement.c.
 *
 * The algorithms talk only to the call's signal channel (engine_int.h):
 * signals, waits and reads of other members' data.  Invariants every
 * algorithm here keeps:
 *  - between two members, the signals one sends are exactly the ones the
 *    other waits for, in the same order (the algorithms are deterministic
 *    given the call's arguments, which all members pass alike), so a
 *    channel that counts per sender matches every wait with its signal
 *    even when a signal of a later call arrives early;
 *  - a member reads another member's memory (its source, dest, slot
 *    descriptor) only while that member cannot have left the call: it
 *    still waits for a signal the reader sends afterwards;
 *  - a member leaves a call only when no other member will read its dest
 *    or source for that call again;
 *  - a wait names every sender it expects a signal from at once (a tree
 *    node waits for all its children in one wait), so one back-off and
 *    one hang-watch description serve them all.
 */
#include "gas/coll/xg_coll.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "base/xg_wait.h"
#include "gas/coll/engine_int.h"
#include "gas/copy_int.h"
#include "gas/region/xg_gas_am.h"
#include "gas/xg_gas.h"

enum {
    COLL_SPIN         = 16,   /* polls before an oversubscribed wait yields */
    COLL_YIELDS       = 4000, /* yields before the usual back-off resumes */
    COLL_CHUNK        = 4096, /* bytes combined at a time (stays in L1) */
    COLL_REMOTE_CHUNK = 256 * 1024 /* ... across nodes: each piece of a
                                    * member's array is a round trip */
};

/* Copies of user data: a zero-length call may pass NULL buffers, which
 * memcpy and friends must not see (even for 0 bytes). */
static inline void coll_memcpy(void *dst, const void *src, size_t n)
{
    if (n > 0) {
        memcpy(dst, src, n);
    }
}

static inline void coll_memmove(void *dst, const void *src, size_t n)
{
    if (n > 0) {
        memmove(dst, src, n);
    }
}

static inline void coll_memset0(void *dst, size_t n)
{
    if (n > 0) {
        memset(dst, 0, n);
    }
}

/* ---- signals ------------------------------------------------------------ */

/* One poll failed: back off, yielding early when PEs outnumber CPUs. */
void xg_coll_backoff(xg_wait_t *wait)
{
    /* a PE waiting in a collective serves what waits for its thread */
    xg_gas_am_idle();
    if (xg_coll_cfg.yield_early && (wait->polls >= COLL_SPIN) &&
        (wait->polls < COLL_SPIN + COLL_YIELDS)) {
        wait->polls++;
        if (xg_unlikely(xg_gas.poll_remote)) {
            /* what the wait is for may be a write the network applies
             * only while this process reads its queues */
            (void)xg_gas_poll_remote();
        }
        sched_yield();
        return;
    }
    xg_gas_wait_backoff(wait);
}

/* Tells member @to one thing; @phase names what (a pSync word). */
static inline void coll_signal(const xg_coll_t *coll, int to, int phase)
{
    coll->chan->signal(coll, to, phase);
}

/* Waits for the next signal of @phase from member @from. */
static inline void coll_wait(const xg_coll_t *coll, int from, int phase)
{
    coll->chan->wait(coll, &from, 1, phase);
}

/* ---- trees -------------------------------------------------------------- */

/* Members in a radix-k heap rooted at @root: the member at position v
 * (counted from the root) has children at positions v*k+1 .. v*k+k. */
static inline int coll_at(const xg_coll_t *coll, long v, int root)
{
    return (int)((v + root) % coll->size);
}

static inline long coll_pos(const xg_coll_t *coll, int root)
{
    return (coll->rank - root + coll->size) % coll->size;
}

static inline void coll_children(const xg_coll_t *coll, long v, long *first_p,
                                 long *count_p)
{
    long k = xg_coll_cfg.radix, first = v * k + 1, n = coll->size;

    *first_p = first;
    *count_p = (first >= n) ? 0 : ((first + k <= n) ? k : n - first);
}

static inline long coll_parent(long v)
{
    return (v - 1) / xg_coll_cfg.radix;
}

/* Waits for one signal of @phase from each of @count children starting at
 * position @first. */
static void coll_wait_children(const xg_coll_t *coll, long first, long count,
                               int root, int phase)
{
    int from[COLL_RADIX_MAX];
    long i;

    for (i = 0; i < count; i++) {
        from[i] = coll_at(coll, first + i, root);
    }
    coll->chan->wait(coll, from, (int)count, phase);
}

static void coll_signal_children(const xg_coll_t *coll, long first, long count,
                                 int root, int chan)
{
    long i;

    for (i = 0; i < count; i++) {
        coll_signal(coll, coll_at(coll, first + i, root), chan);
    }
}

/* ---- barriers ----------------------------------------------------------- */

/* Round r: signal member rank + 2^r, wait for member rank - 2^r. */
static void coll_dissemination(const xg_coll_t *coll)
{
    long n = coll->size, dist;
    int round;

    for (round = 0, dist = 1; dist < n; round++, dist <<= 1) {
        coll_signal(coll, (int)((coll->rank + dist) % n), round);
        coll_wait(coll, (int)((coll->rank - dist + n) % n), round);
    }
}

/* Gather to member 0 up a radix-k tree, release down it.  A PE waits at
 * most twice, so an oversubscribed node schedules each PE about twice per
 * barrier instead of once per dissemination round. */
static void coll_tree_barrier(const xg_coll_t *coll)
{
    long v = coll->rank, first, count;

    coll_children(coll, v, &first, &count);
    coll_wait_children(coll, first, count, 0, XG_PSYNC_BAR_UP);
    if (v != 0) {
        coll_signal(coll, (int)coll_parent(v), XG_PSYNC_BAR_UP);
        coll_wait(coll, (int)coll_parent(v), XG_PSYNC_BAR_DOWN);
    }
    coll_signal_children(coll, first, count, 0, XG_PSYNC_BAR_DOWN);
}

/*
 * For nodes with more PEs than CPUs: every member adds its arrival to a
 * counter of member 0; the member whose addition completes the count
 * releases all the others with one store into member 0's release word,
 * which they wait on, so no PE has to be scheduled in between, and each is
 * scheduled about twice per barrier.  A member touches no slot but member
 * 0's (not every member's: each peer partition touched costs page-table
 * pages, 447 KB per PE at 64 PEs when the last arrival wrote every
 * member's word).  Every waiting member polls the one line: teams above
 * COLL_BAR_COUNTER_MAX use the tree.
 */
static void coll_counter_barrier(const xg_coll_t *coll)
{
    if (coll->chan->arrive(coll)) {
        coll->chan->release(coll);
    } else {
        coll->chan->wait_release(coll);
    }
}

/*
 * A team over several nodes: the members of each node meet at their
 * node's leader (its first member) through shared memory, the leaders
 * run a dissemination barrier among themselves through the network, and
 * each releases its node: 2 x log2(nodes) messages cross nodes per
 * leader, instead of rounds in which most messages do.  The signals use
 * the same words as the other algorithms (pairs of members never mix
 * roles: a leader pair is on two nodes, a member and its leader on one).
 */
static void coll_node_barrier(const xg_coll_t *coll,
                              const xg_team_nodes_t *nodes)
{
    int i, n = nodes->count, me = nodes->my_leader, round;
    long dist;

    if (nodes->my_leader < 0) {
        coll_signal(coll, nodes->leader, XG_PSYNC_BAR_UP);
        coll_wait(coll, nodes->leader, XG_PSYNC_BAR_DOWN);
        return;
    }
    for (i = 1; i < nodes->nlocal; i++) {
        coll_wait(coll, nodes->local[i], XG_PSYNC_BAR_UP);
    }
    for (round = 0, dist = 1; dist < n; round++, dist <<= 1) {
        coll_signal(coll, nodes->leaders[(me + dist) % n], round);
        coll_wait(coll, nodes->leaders[(me - dist + n) % n], round);
    }
    for (i = 1; i < nodes->nlocal; i++) {
        coll_signal(coll, nodes->local[i], XG_PSYNC_BAR_DOWN);
    }
}

void xg_coll_phase(xg_coll_t *coll)
{
    int algo = xg_coll_cfg.barrier;

    if (coll->size == 1) {
        return;
    }
    if ((coll->team != NULL) && (coll->team->nodes.count > 1) &&
        xg_coll_cfg.node_aware) {
        coll_node_barrier(coll, &coll->team->nodes);
        return;
    }
    /* the active-set channel has no counter barrier (xg_coll_chan_t) */
    if ((algo == COLL_BAR_COUNTER) &&
        ((coll->chan->arrive == NULL) || (coll->size > COLL_BAR_COUNTER_MAX))) {
        algo = COLL_BAR_TREE;
    }
    switch (algo) {
    case COLL_BAR_COUNTER: coll_counter_barrier(coll); break;
    case COLL_BAR_TREE: coll_tree_barrier(coll); break;
    default: coll_dissemination(coll); break;
    }
}

void xg_coll_barrier(xg_coll_t *coll)
{
    xg_coll_begin(coll, XG_COLL_SYNC, 0, 0, -1, 0);
    xg_coll_phase(coll);
}

/* ---- broadcast ---------------------------------------------------------- */

/* Whether the call writes members' @n bytes of @dest rather than each
 * member reading into its own: where the channel pushes and @dest is
 * symmetric (xbrtime's may be private), the same answer on every member
 * of a correct call. */
static int coll_pushes(const xg_coll_t *coll, const void *dest, size_t n)
{
    return (coll->chan->push != NULL) && (n > 0) &&
           (xg_gas_diagnose(dest, n, xg_gas.me) == XG_OK);
}

/*
 * Through the network: each member's data comes written by its parent
 * (data, the parent's descriptor, the signal: one way), and it writes its
 * children's in turn -- instead of a read of the root's source, a round
 * trip.  A member first tells its parent that it is in the call, so no
 * parent writes a dest that its owner may still be using (before the
 * call) or an inbox line it has not read (of the call before); the root
 * leaves once it has written its children's.
 */
static void coll_broadcast_push(const xg_coll_t *coll, void *dest,
                                const void *source, size_t nbytes, int root,
                                int root_copies)
{
    long v           = coll_pos(coll, root), first, count, i;
    int parent       = coll_at(coll, coll_parent(v), root);
    const void *data = source;

    coll_children(coll, v, &first, &count);
    if (v != 0) {
        coll_signal(coll, parent, XG_PSYNC_ACK);
        coll_wait(coll, parent, XG_PSYNC_DOWN);
        coll->chan->check_pushed(coll, parent);
        data = dest;
    } else if (root_copies && (dest != source)) {
        coll_memmove(dest, source, nbytes);
    }
    coll_wait_children(coll, first, count, root, XG_PSYNC_ACK);
    for (i = 0; i < count; i++) {
        coll->chan->push(coll, dest, data, nbytes,
                         coll_at(coll, first + i, root), XG_PSYNC_DOWN, 1);
    }
}

void xg_coll_broadcast(xg_coll_t *coll, void *dest, const void *source,
                       size_t nbytes, int root, int root_copies)
{
    long v     = coll_pos(coll, root), first, count;
    int parent = coll_at(coll, coll_parent(v), root);

    xg_coll_begin(coll, XG_COLL_BROADCAST, 1, nbytes, root, 0);
    if (coll_pushes(coll, dest, nbytes)) {
        coll_broadcast_push(coll, dest, source, nbytes, root, root_copies);
        return;
    }
    coll_children(coll, v, &first, &count);
    if (v != 0) {
        coll_wait(coll, parent, XG_PSYNC_DOWN);
        xg_coll_check(coll, parent);
    }
    /* pass "the root is in" on before copying, so the subtree copies in
     * parallel with this PE */
    coll_signal_children(coll, first, count, root, XG_PSYNC_DOWN);
    if (v != 0) {
        coll->chan->read(coll, dest, source, root, nbytes);
    } else if (root_copies && (dest != source)) {
        coll_memmove(dest, source, nbytes);
    }
    /* the root's source must stay until every member has copied it */
    coll_wait_children(coll, first, count, root, XG_PSYNC_ACK);
    if (v != 0) {
        coll_signal(coll, parent, XG_PSYNC_ACK);
    }
}

/* ---- reductions --------------------------------------------------------- */

/*
 * Combines the partial results of @count children from position @first
 * (their dest arrays) into @dest.  Through a remote channel a small
 * payload comes from every child at once, with the checks' reads, so the
 * round trips overlap; otherwise child after child, a chunk at a time.
 */
static void coll_reduce_children(const xg_coll_t *coll, void *dest,
                                 size_t nelems, size_t elem_size,
                                 xg_op_kernel_t op, long first, long count)
{
    size_t nbytes = nelems * elem_size;
    int children[COLL_RADIX_MAX];
    char *parts = NULL;
    long i;

    for (i = 0; i < count; i++) {
        children[i] = (int)(first + i);
    }
    if (coll->chan->remote && (count > 0) && (nbytes > 0) &&
        (nbytes <= COLL_CHUNK)) {
        parts = malloc((size_t)count * nbytes);
    }
    if (parts == NULL) {
        for (i = 0; i < count; i++) {
            xg_coll_check(coll, children[i]);
            coll->chan->combine(coll, op, dest, dest, children[i], nelems,
                                elem_size);
        }
        return;
    }
    for (i = 0; i < count; i++) {
        coll->chan->read_start(coll, parts + (size_t)i * nbytes, dest,
                               children[i], nbytes);
    }
    coll->chan->check(coll, children, (int)count);
    coll->chan->read_end(coll);
    for (i = 0; i < count; i++) {
        op(dest, parts + (size_t)i * nbytes, nelems);
    }
    free(parts);
}

/* Whether a reduction of @nbytes into @dest goes up the tree through the
 * members' stages: across nodes, where every child's partial result fits
 * its parent's stage (the same answer on every member). */
static int coll_reduce_staged(const xg_coll_t *coll, const void *dest,
                              size_t nbytes)
{
    return (nbytes <= coll->chan->stage_reduce / (size_t)xg_coll_cfg.radix) &&
           coll_pushes(coll, dest, nbytes);
}

/*
 * The small reduction across nodes: each member combines its children's
 * partial results, which they wrote into its stage, into its dest and
 * writes that into its parent's stage with a signal; the result then goes
 * down the tree written into the members' dest (a broadcast's push).  One
 * way per level up and one down, no reads: a child's stage part is
 * rewritten only in the next reduction, which the child starts once this
 * PE has written it the result; the child's dest is written only once it
 * has written its partial result from it.
 */
static void coll_reduce_tree_staged(const xg_coll_t *coll, void *dest,
                                    const void *source, size_t nelems,
                                    size_t elem_size, xg_op_kernel_t op)
{
    size_t nbytes = nelems * elem_size;
    long v = coll->rank, k = xg_coll_cfg.radix, first, count, i;
    int parent = (int)coll_parent(v);

    coll_children(coll, v, &first, &count);
    if (dest != source) {
        coll_memcpy(dest, source, nbytes);
    }
    coll_wait_children(coll, first, count, 0, XG_PSYNC_UP);
    for (i = 0; i < count; i++) {
        op(dest, coll->chan->staged(coll, (size_t)i * nbytes), nelems);
    }
    if (v != 0) {
        coll->chan->stage(coll, (size_t)((v - 1) % k) * nbytes, dest, nbytes,
                          parent, XG_PSYNC_UP, 0);
        coll_wait(coll, parent, XG_PSYNC_DOWN);
        coll->chan->check_pushed(coll, parent);
    }
    for (i = 0; i < count; i++) {
        coll->chan->push(coll, dest, dest, nbytes, (int)(first + i),
                         XG_PSYNC_DOWN, 1);
    }
}

/*
 * Radix-k tree rooted at member 0.  Up: each member combines its
 * children's partial results (in their dest arrays) into its own dest and
 * tells its parent.  Down: member 0's dest holds the result; "ready" flows
 * down and every member copies it from member 0; "done" flows back up so
 * member 0 leaves last.  A child's dest is read by its parent before the
 * child is released, and overwritten only after.  Across nodes the result
 * is written down the tree instead (no copies from member 0, no "done").
 */
static void coll_reduce_tree(const xg_coll_t *coll, void *dest,
                             const void *source, size_t nelems,
                             size_t elem_size, xg_op_kernel_t op)
{
    size_t nbytes = nelems * elem_size;
    long v        = coll->rank, first, count, i;
    int parent    = (int)coll_parent(v);

    if (coll_reduce_staged(coll, dest, nbytes)) {
        coll_reduce_tree_staged(coll, dest, source, nelems, elem_size, op);
        return;
    }
    coll_children(coll, v, &first, &count);
    if (dest != source) {
        coll_memcpy(dest, source, nbytes);
    }
    coll_wait_children(coll, first, count, 0, XG_PSYNC_UP);
    coll_reduce_children(coll, dest, nelems, elem_size, op, first, count);
    if (v != 0) {
        coll_signal(coll, parent, XG_PSYNC_UP);
        coll_wait(coll, parent, XG_PSYNC_DOWN);
    }
    if (coll_pushes(coll, dest, nbytes)) {
        /* across nodes the result goes down written, as a broadcast's
         * data: the children are in the call and done with their dest
         * (this PE has read it), and nobody reads this PE's any more */
        if (v != 0) {
            coll->chan->check_pushed(coll, parent);
        }
        for (i = 0; i < count; i++) {
            coll->chan->push(coll, dest, dest, nbytes, (int)(first + i),
                             XG_PSYNC_DOWN, 1);
        }
        return;
    }
    coll_signal_children(coll, first, count, 0, XG_PSYNC_DOWN);
    if (v != 0) {
        coll->chan->read_start(coll, dest, dest, 0, nbytes);
        xg_coll_check(coll, parent);
        coll->chan->read_end(coll);
    }
    coll_wait_children(coll, first, count, 0, XG_PSYNC_ACK);
    if (v != 0) {
        coll_signal(coll, parent, XG_PSYNC_ACK);
    }
}

/* Member @rank's share of @nelems elements: whole cache lines where the
 * elements allow, so no two members write the same line. */
static void coll_slice(size_t nelems, size_t elem_size, int size, int rank,
                       size_t *lo_p, size_t *count_p)
{
    size_t line = (elem_size < 64) ? 64 / elem_size : 1;
    size_t per  = (nelems + (size_t)size - 1) / (size_t)size;
    size_t lo, hi;

    per = (per + line - 1) / line * line;
    lo  = per * (size_t)rank;
    if (lo > nelems) {
        lo = nelems;
    }
    hi       = (per > nelems - lo) ? nelems : lo + per;
    *lo_p    = lo;
    *count_p = hi - lo;
}

/*
 * Reduce-scatter + allgather, reading the sources directly: after a first
 * barrier phase (every source ready, every dest writable) member r reduces
 * its slice of all members' sources into its own dest, in chunks that stay
 * in cache; after a second, it copies the other slices from their owners'
 * dest; a third keeps every dest and source in place until all have read.
 * Each member reads about 2 x the payload whatever the team size.
 */
static void coll_reduce_split(xg_coll_t *coll, void *dest, const void *source,
                              size_t nelems, size_t elem_size,
                              xg_op_kernel_t op)
{
    char *d       = dest;
    const char *s = source;
    size_t lo, count, off, m;
    size_t chunk =
        (coll->chan->remote ? COLL_REMOTE_CHUNK : COLL_CHUNK) / elem_size;
    int n = coll->size, j, p;

    if (chunk == 0) {
        chunk = 1;
    }
    xg_coll_phase(coll);
    xg_coll_check(coll, (coll->rank + 1) % n);
    coll_slice(nelems, elem_size, n, coll->rank, &lo, &count);
    for (off = lo; off < lo + count; off += m) {
        m = (lo + count - off < chunk) ? lo + count - off : chunk;
        if (d != s) {
            coll_memcpy(d + off * elem_size, s + off * elem_size,
                        m * elem_size);
        }
        /* start at the next member: members read different sources */
        for (j = 1; j < n; j++) {
            p = (coll->rank + j) % n;
            coll->chan->combine(coll, op, d + off * elem_size,
                                s + off * elem_size, p, m, elem_size);
        }
    }
    xg_coll_phase(coll);
    for (j = 1; j < n; j++) {
        p = (coll->rank + j) % n;
        coll_slice(nelems, elem_size, n, p, &lo, &count);
        coll->chan->read(coll, d + lo * elem_size, d + lo * elem_size, p,
                         count * elem_size);
    }
    xg_coll_phase(coll);
}

static int coll_split_size(const xg_coll_t *coll, size_t nelems,
                           size_t elem_size)
{
    return (nelems * elem_size >= xg_coll_cfg.reduce_split) &&
           (nelems >= (size_t)coll->size);
}

/* What members publish for a reduction or scan: the (operation, type). */
static uint64_t coll_op_code(xg_op_t op, xg_op_type_t type)
{
    return ((uint64_t)op << 8) | (uint64_t)type;
}

void xg_coll_reduce(xg_coll_t *coll, void *dest, const void *source,
                    size_t nelems, xg_op_t op, xg_op_type_t type)
{
    size_t elem_size      = xg_op_type_size(type);
    xg_op_kernel_t kernel = xg_op_kernel(op, type);

    xg_coll_begin(coll, XG_COLL_REDUCE, coll_op_code(op, type), nelems, -1, 0);
    if (coll->size == 1) {
        if (dest != source) {
            coll_memcpy(dest, source, nelems * elem_size);
        }
    } else if (coll_split_size(coll, nelems, elem_size)) {
        coll_reduce_split(coll, dest, source, nelems, elem_size, kernel);
    } else {
        coll_reduce_tree(coll, dest, source, nelems, elem_size, kernel);
    }
}

void xg_coll_reduce_scratch(xg_coll_t *coll, uint64_t *words, size_t nelems,
                            xg_op_t op)
{
    if (coll->size > 1) {
        coll_reduce_tree(coll, words, words, nelems, sizeof(*words),
                         xg_op_kernel(op, XG_TYPE_U64));
    }
}

/* ---- scans -------------------------------------------------------------- */

/*
 * One step of the recursive-doubling scan with member distance @dist:
 * dest (this member's partial result) is read by member rank + dist after
 * "ready"; this member reads rank - dist's into @tmp and says "done"; dest
 * changes only after rank + dist said "done".  @combine: dest OP= tmp;
 * otherwise dest = tmp (or zeros on the first members: the exclusive
 * shift).
 */
static void coll_scan_step(const xg_coll_t *coll, void *dest, void *tmp,
                           size_t nelems, size_t elem_size, long dist,
                           xg_op_kernel_t op, int combine)
{
    size_t nbytes = nelems * elem_size;
    long r        = coll->rank;
    int right = (r + dist < coll->size), left = (r - dist >= 0);

    if (right) {
        coll_signal(coll, (int)(r + dist), XG_PSYNC_DOWN);
    }
    if (left) {
        coll_wait(coll, (int)(r - dist), XG_PSYNC_DOWN);
        xg_coll_check(coll, (int)(r - dist));
        coll->chan->read(coll, tmp, dest, (int)(r - dist), nbytes);
        coll_signal(coll, (int)(r - dist), XG_PSYNC_ACK);
    }
    if (right) {
        coll_wait(coll, (int)(r + dist), XG_PSYNC_ACK);
    }
    if (combine) {
        if (left && (nelems > 0)) {
            op(dest, tmp, nelems);
        }
    } else if (left) {
        coll_memcpy(dest, tmp, nbytes);
    } else {
        coll_memset0(dest, nbytes);
    }
}

static void coll_scan_doubling(const xg_coll_t *coll, void *dest,
                               const void *source, size_t nelems,
                               size_t elem_size, xg_op_kernel_t op,
                               int exclusive)
{
    size_t nbytes = nelems * elem_size;
    char stack_tmp[COLL_CHUNK];
    void *tmp = stack_tmp;
    long dist;

    if (nbytes > sizeof(stack_tmp)) {
        tmp = malloc(nbytes);
        if (tmp == NULL) {
            xg_coll_fail(coll, "no memory for a %zu-byte scan buffer", nbytes);
        }
    }
    if (dest != source) {
        coll_memcpy(dest, source, nbytes);
    }
    for (dist = 1; dist < coll->size; dist <<= 1) {
        coll_scan_step(coll, dest, tmp, nelems, elem_size, dist, op, 1);
    }
    if (exclusive) {
        coll_scan_step(coll, dest, tmp, nelems, elem_size, 1, op, 0);
    }
    if (tmp != stack_tmp) {
        free(tmp);
    }
}

/*
 * Large scans: member r owns a slice of the elements and, in member order,
 * accumulates every member's source slice, writing each member's prefix
 * into that member's dest -- each member reads and writes about the
 * payload once.  Bracketed by barrier phases like the split reduction.
 */
static void coll_scan_split(xg_coll_t *coll, void *dest, const void *source,
                            size_t nelems, size_t elem_size, xg_op_kernel_t op,
                            int exclusive)
{
    char acc[COLL_CHUNK], tmp[COLL_CHUNK];
    size_t lo, count, off, m, bytes, chunk = COLL_CHUNK / elem_size;
    int n = coll->size, p;

    xg_coll_phase(coll);
    xg_coll_check(coll, (coll->rank + 1) % n);
    coll_slice(nelems, elem_size, n, coll->rank, &lo, &count);
    for (off = lo; off < lo + count; off += m) {
        m     = (lo + count - off < chunk) ? lo + count - off : chunk;
        bytes = m * elem_size;
        for (p = 0; p < n; p++) {
            const char *src = (const char *)source + off * elem_size;
            char *dst       = (char *)dest + off * elem_size;

            if (!exclusive) {
                if (p == 0) {
                    coll->chan->read(coll, acc, src, p, bytes);
                } else {
                    coll->chan->combine(coll, op, acc, src, p, m, elem_size);
                }
                coll->chan->write(coll, dst, acc, p, bytes);
                continue;
            }
            /* exclusive: dst may be src (in place), so read it first */
            if (p == 0) {
                coll->chan->read(coll, acc, src, p, bytes);
                coll_memset0(tmp, bytes);
                coll->chan->write(coll, dst, tmp, p, bytes);
            } else {
                coll->chan->read(coll, tmp, src, p, bytes);
                coll->chan->write(coll, dst, acc, p, bytes);
                op(acc, tmp, m);
            }
        }
    }
    xg_coll_phase(coll);
}

void xg_coll_scan(xg_coll_t *coll, void *dest, const void *source,
                  size_t nelems, xg_op_t op, xg_op_type_t type, int exclusive)
{
    size_t elem_size      = xg_op_type_size(type);
    xg_op_kernel_t kernel = xg_op_kernel(op, type);

    xg_coll_begin(coll, XG_COLL_SCAN,
                  2 * coll_op_code(op, type) + (exclusive ? 1 : 0), nelems, -1,
                  0);
    if (coll->size == 1) {
        if (exclusive) {
            coll_memset0(dest, nelems * elem_size);
        } else if (dest != source) {
            coll_memcpy(dest, source, nelems * elem_size);
        }
    } else if (coll_split_size(coll, nelems, elem_size) &&
               (elem_size <= COLL_CHUNK)) {
        coll_scan_split(coll, dest, source, nelems, elem_size, kernel,
                        exclusive);
    } else {
        coll_scan_doubling(coll, dest, source, nelems, elem_size, kernel,
                           exclusive);
    }
}

/* ---- collect, fcollect, alltoall(s) ------------------------------------- */

/* Waits for a signal of @phase from every other member (one wait names
 * at most COLL_CHECK_MAX senders). */
static void coll_wait_all(const xg_coll_t *coll, int phase)
{
    int n = coll->size, j, from[COLL_CHECK_MAX];

    for (j = 1; j < n;) {
        int m = 0;

        for (; (j < n) && (m < COLL_CHECK_MAX); j++) {
            from[m++] = (coll->rank - j + n) % n;
        }
        coll->chan->wait(coll, from, m, phase);
    }
}

/*
 * Through the network, fcollect, collect and alltoall write: once every
 * member is in the call (after a barrier phase: its dest is free), each
 * member writes its block at offset @at of every other member's dest and
 * signals it, and leaves with every other member's block in its own --
 * one way instead of a read's round trip and a closing phase.  With its
 * block each member writes its descriptor to its right neighbour, which
 * checks it after its waits (each member compares one neighbour's, as the
 * reading form does).  The block for member p is @source + p * @stride
 * (0 for the same block to all, nbytes for alltoall).  With @stage_at 0
 * or more the blocks go into the members' stages at @stage_at + @at
 * instead (coll_exchange_stage); -1: into their dest.
 */
static void coll_push_blocks(xg_coll_t *coll, char *dest, size_t at,
                             const char *source, size_t stride, size_t nbytes,
                             ptrdiff_t stage_at)
{
    int n = coll->size, j, p;

    for (j = 0; j < n; j++) {
        const char *mine;

        p    = (coll->rank + j) % n;
        mine = source + (size_t)p * stride;
        /* the right neighbour gets this PE's descriptor too */
        if (p == coll->rank) {
            coll_memmove(dest + at, mine, nbytes);
        } else if (stage_at >= 0) {
            coll->chan->stage(coll, (size_t)stage_at + at, mine, nbytes, p,
                              XG_PSYNC_DOWN, j == 1);
        } else {
            coll->chan->push(coll, dest + at, mine, nbytes, p, XG_PSYNC_DOWN,
                             j == 1);
        }
    }
    coll_wait_all(coll, XG_PSYNC_DOWN);
    coll->chan->check_pushed(coll, (coll->rank - 1 + n) % n);
}

/* Whether an exchange of @nbytes per member goes through the stages:
 * across nodes on a team, where every member's block fits each half of
 * the stage's exchange part (the same answer on every member). */
static int coll_exchange_staged(const xg_coll_t *coll, const void *dest,
                                size_t nbytes)
{
    return (coll->team != NULL) && (nbytes > 0) &&
           ((size_t)coll->size * nbytes <= coll->chan->stage_exchange / 2) &&
           coll_pushes(coll, dest, (size_t)coll->size * nbytes);
}

/*
 * A small fcollect or alltoall across nodes, without a barrier: each
 * member writes its block (for member p: @source + p * @stride) at its
 * rank's place into the half of every member's stage that this exchange's
 * parity names, with a signal, and copies the others' from its own stage
 * into its dest once it has every signal.  A member can be in exchange
 * e + 2 only once every member has entered e + 1, so has copied e's
 * blocks: two halves are enough.  One way across the network in all.
 */
static void coll_exchange_stage(xg_coll_t *coll, char *dest, const char *source,
                                size_t stride, size_t nbytes)
{
    size_t half = coll->chan->stage_exchange / 2;
    size_t base =
        coll->chan->stage_reduce + (coll->team->exchanges++ & 1) * half;
    int p;

    coll_push_blocks(coll, dest, (size_t)coll->rank * nbytes, source, stride,
                     nbytes, (ptrdiff_t)base);
    for (p = 0; p < coll->size; p++) {
        if (p != coll->rank) {
            coll_memcpy(dest + (size_t)p * nbytes,
                        coll->chan->staged(coll, base + (size_t)p * nbytes),
                        nbytes);
        }
    }
}

void xg_coll_fcollect(xg_coll_t *coll, void *dest, const void *source,
                      size_t nbytes)
{
    int n = coll->size, j, p;

    xg_coll_begin(coll, XG_COLL_FCOLLECT, 1, nbytes, -1, 0);
    if (coll_exchange_staged(coll, dest, nbytes)) {
        coll_exchange_stage(coll, dest, source, 0, nbytes);
        return;
    }
    if (coll_pushes(coll, dest, (size_t)n * nbytes)) {
        xg_coll_phase(coll);
        coll_push_blocks(coll, dest, (size_t)coll->rank * nbytes, source, 0,
                         nbytes, -1);
        return;
    }
    xg_coll_phase(coll);
    for (j = 0; j < n; j++) {
        p = (coll->rank + j) % n;
        coll->chan->read_start(coll, (char *)dest + (size_t)p * nbytes, source,
                               p, nbytes);
    }
    xg_coll_check(coll, (coll->rank + 1) % n);
    coll->chan->read_end(coll);
    xg_coll_phase(coll);
}

/* Members @base.. (@m of them, at most COLL_CHECK_MAX) contribute
 * counts[0..m) bytes to a collect; this PE @nbytes.  The first group's
 * reads travel with the check of the right neighbour's descriptor (once
 * per call: @check). */
static void coll_counts(xg_coll_t *coll, int base, int m, uint64_t *counts,
                        size_t nbytes, int check)
{
    int i;

    for (i = 0; i < m; i++) {
        if (base + i == coll->rank) {
            counts[i] = nbytes;
        } else {
            coll->chan->count_read(coll, base + i, &counts[i]);
        }
    }
    if (check) {
        xg_coll_check(coll, (coll->rank + 1) % coll->size);
    }
    coll->chan->read_end(coll);
}

/*
 * The counts may differ, so a member's block goes at the sum of the lower
 * members' counts.  Through the network (a channel that pushes) each
 * member writes its count to every member with a signal, waits for
 * everyone's, and writes its block into every member's dest
 * (coll_push_blocks, also when it is empty: its signal says that this
 * member has read the counts, so their words may be rewritten): two ways
 * across the network, no barrier, no read.  Elsewhere the counts are
 * published before a barrier phase and each member reads the blocks.
 */
void xg_coll_collect(xg_coll_t *coll, void *dest, const void *source,
                     size_t nbytes, size_t elem_size)
{
    uint64_t counts[COLL_CHECK_MAX];
    size_t total = 0, at = 0, off = 0;
    int n = coll->size, pushes = (coll->chan->push != NULL), base, m, i;

    /* only the element size is compared */
    xg_coll_begin(coll, XG_COLL_COLLECT, elem_size, 0, -1, 0);
    coll->chan->count_put(coll, nbytes);
    if (pushes) {
        coll_wait_all(coll, XG_PSYNC_UP);
    } else {
        /* the barrier's release/acquire publishes the counts */
        xg_coll_phase(coll);
    }
    for (base = 0; base < n; base += m) {
        m = (n - base < COLL_CHECK_MAX) ? n - base : COLL_CHECK_MAX;
        coll_counts(coll, base, m, counts, nbytes, !pushes && (base == 0));
        for (i = 0; i < m; i++) {
            at += (base + i < coll->rank) ? counts[i] : 0;
            total += counts[i];
        }
    }
    if ((total > 0) && (xg_gas_diagnose(dest, total, xg_gas.me) != XG_OK)) {
        xg_coll_fail(coll,
                     "dest %p cannot hold the %zu bytes the PEs "
                     "contribute: it must be a symmetric array of at least "
                     "the sum of every PE's nelems",
                     dest, total);
    }
    if (pushes) {
        coll_push_blocks(coll, dest, at, source, 0, nbytes, -1);
        coll->chan->count_done(coll);
        return;
    }
    for (base = 0; (total > 0) && (base < n); base += m) {
        m = (n - base < COLL_CHECK_MAX) ? n - base : COLL_CHECK_MAX;
        if (n > COLL_CHECK_MAX) { /* else counts holds them all */
            coll_counts(coll, base, m, counts, nbytes, 0);
        }
        for (i = 0; i < m; i++) {
            coll->chan->read_start(coll, (char *)dest + off, source, base + i,
                                   counts[i]);
            off += counts[i];
        }
    }
    coll->chan->read_end(coll);
    xg_coll_phase(coll);
    coll->chan->count_done(coll);
}

void xg_coll_alltoall(xg_coll_t *coll, void *dest, const void *source,
                      size_t nbytes)
{
    int n = coll->size, j, p;

    xg_coll_begin(coll, XG_COLL_ALLTOALL, 1, nbytes, -1, 0);
    if (coll_exchange_staged(coll, dest, nbytes)) {
        coll_exchange_stage(coll, dest, source, nbytes, nbytes);
        return;
    }
    if (coll_pushes(coll, dest, (size_t)n * nbytes)) {
        xg_coll_phase(coll);
        coll_push_blocks(coll, dest, (size_t)coll->rank * nbytes, source,
                         nbytes, nbytes, -1);
        return;
    }
    xg_coll_phase(coll);
    for (j = 0; j < n; j++) {
        p = (coll->rank + j) % n;
        coll->chan->read_start(
            coll, (char *)dest + (size_t)p * nbytes,
            (const char *)source + (size_t)coll->rank * nbytes, p, nbytes);
    }
    xg_coll_check(coll, (coll->rank + 1) % n);
    coll->chan->read_end(coll);
    xg_coll_phase(coll);
}

/*
 * Through the network, an alltoalls whose destination blocks are
 * contiguous (@dst 1) writes like alltoall: this PE's block for each
 * member, gathered from @source's stride into one buffer first where
 * @sst is not 1.  Zero when it does not apply (other strides, no memory
 * for the gathered blocks): the caller reads instead.
 */
static int coll_alltoalls_push(xg_coll_t *coll, void *dest, const void *source,
                               ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                               size_t elem_size)
{
    size_t block  = nelems * elem_size;
    int n         = coll->size, p;
    char *packed  = NULL;
    const char *s = source;

    if ((dst != 1) || !coll_pushes(coll, dest, (size_t)n * block)) {
        return 0;
    }
    if (sst != 1) {
        packed = malloc((size_t)n * block);
        if (packed == NULL) {
            return 0;
        }
        for (p = 0; p < n; p++) {
            xg_gas_copy_strided(
                packed + (size_t)p * block, (ptrdiff_t)elem_size,
                s + (size_t)p * nelems * (size_t)sst * elem_size,
                sst * (ptrdiff_t)elem_size, elem_size, nelems);
        }
        s = packed;
    }
    xg_coll_phase(coll);
    coll_push_blocks(coll, dest, (size_t)coll->rank * block, s, block, block,
                     -1);
    free(packed);
    return 1;
}

void xg_coll_alltoalls(xg_coll_t *coll, void *dest, const void *source,
                       ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                       size_t elem_size)
{
    int n            = coll->size, j, p;
    uint64_t strides = ((uint64_t)dst << 32) ^ (uint64_t)sst;

    xg_coll_begin(coll, XG_COLL_ALLTOALLS, elem_size, nelems, -1, strides);
    if (coll_alltoalls_push(coll, dest, source, dst, sst, nelems, elem_size)) {
        return;
    }
    xg_coll_phase(coll);
    xg_coll_check(coll, (coll->rank + 1) % n);
    for (j = 0; j < n; j++) {
        p = (coll->rank + j) % n;
        coll->chan->read_strided(
            coll, (char *)dest + (size_t)p * nelems * (size_t)dst * elem_size,
            dst,
            (const char *)source +
                (size_t)coll->rank * nelems * (size_t)sst * elem_size,
            sst, p, nelems, elem_size);
    }
    xg_coll_phase(coll);
}

/* ---- scatter and gather with counts and displacements ------------------- */

void xg_coll_scatterv(xg_coll_t *coll, void *dest, const void *source,
                      const int *counts, const int *displs, size_t nelems,
                      size_t elem_size, int root)
{
    xg_coll_begin(coll, XG_COLL_SCATTER, elem_size, nelems, root, 0);
    /* the root's source is ready */
    xg_coll_phase(coll);
    xg_coll_check(coll, (coll->rank + 1) % coll->size);
    coll->chan->read(coll, dest,
                     (const char *)source +
                         (size_t)displs[coll->rank] * elem_size,
                     root, (size_t)counts[coll->rank] * elem_size);
    /* the root's source stays until every member has its block */
    xg_coll_phase(coll);
}

void xg_coll_gatherv(xg_coll_t *coll, void *dest, const void *source,
                     const int *counts, const int *displs, size_t nelems,
                     size_t elem_size, int root)
{
    int j, p;

    xg_coll_begin(coll, XG_COLL_GATHER, elem_size, nelems, root, 0);
    /* every member's source is ready */
    xg_coll_phase(coll);
    if (coll->rank == root) {
        for (j = 0; j < coll->size; j++) {
            p = (root + j) % coll->size;
            coll->chan->read_start(coll,
                                   (char *)dest + (size_t)displs[p] * elem_size,
                                   source, p, (size_t)counts[p] * elem_size);
        }
    }
    xg_coll_check(coll, (coll->rank + 1) % coll->size);
    coll->chan->read_end(coll);
    /* the sources stay until the root has read them */
    xg_coll_phase(coll);
}
