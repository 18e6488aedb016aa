/*
 * Internals of the collective engine, private to gas/coll/: the signal
 * channel the algorithms (algorithms.c) talk to, implemented in
 * channel.c, and what agreement.c shares with both (the agreed
 * configuration, the mismatch check, waits named for hang reports, the
 * failure that ends the job).
 *
 * Every synchronization and every read of another member's data goes
 * through one of the channel tables, chosen once per call (xg_coll_team:
 * the team-slot channel; xg_coll_aset: the pSync channel), so the
 * algorithms hold no mode branches -- but one: where a channel pushes
 * (the remote ones, for members across the network), broadcast, fcollect,
 * alltoall and the small reduction write members' data instead of each
 * member reading it (coll_pushes).  docs/collectives.md describes the
 * contract and how a remote implementation fits in.
 *
 * A signal names a phase (XG_PSYNC_* or a dissemination round).  Between
 * two members, a receiver's waits for a phase match the sender's signals
 * of it in order; what a member wrote before a signal is
 * visible to the receiver after the matching wait returns.
 */
#ifndef XG_COLL_ENGINE_INT_H
#define XG_COLL_ENGINE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "base/xg_compiler.h"
#include "base/xg_wait.h"
#include "gas/coll/xg_coll.h"
#include "xgas_status.h"

struct xg_coll_chan {
    /* Signals are operations that complete one at a time (through gas
     * routes): a member may leave a call before another member's signal
     * to this PE has landed, so a wait for any member (a release, a pSync
     * count) must not take a member's leaving as proof of a mismatch (see
     * xg_coll_wait_start). */
    int remote;
    /* Publishes the call just begun (coll->kind ...) for the peers'
     * mismatch checks; compares member @peer's published call with this
     * PE's (no-op where the channel keeps no descriptors). */
    void (*publish)(xg_coll_t *coll);
    /* The comparison with each of members @peers[0..count-1] (count at
     * most COLL_CHECK_MAX), where none of them can leave this call (each
     * waits for a signal this PE sends later), so their descriptors hold
     * still. */
    void (*check)(const xg_coll_t *coll, const int *peers, int count);
    /* The same for one member from inside a wait (the hang watch), where
     * @peer may be in another call or rewriting its descriptor. */
    void (*watch)(const xg_coll_t *coll, int peer);
    /* One signal of @phase to member @to (release). */
    void (*signal)(const xg_coll_t *coll, int to, int phase);
    /* Waits for the next signal of @phase from each of @count members
     * @from[] (acquire); one back-off serves them all. */
    void (*wait)(const xg_coll_t *coll, const int *from, int count, int phase);
    /* Data of member @rank at its copy of symmetric @ptr (this PE's
     * address): @n bytes into private @dst (overlap allowed); @n bytes of
     * private @src into it; @dst OP= its @nelems elements of @elem_size
     * bytes; @nelems elements from it, every @src_stride-th, into every
     * @dst_stride-th of @dst (strides in elements). */
    void (*read)(const xg_coll_t *coll, void *dst, const void *ptr, int rank,
                 size_t n);
    /* A read as read's that may still be in flight when it returns: the
     * reads started by a PE are complete when its read_end returns (a
     * remote channel overlaps their round trips). */
    void (*read_start)(const xg_coll_t *coll, void *dst, const void *ptr,
                       int rank, size_t n);
    void (*read_end)(const xg_coll_t *coll);
    void (*write)(const xg_coll_t *coll, void *ptr, const void *src, int rank,
                  size_t n);
    /* For members reached through the network, where a write costs the
     * receiver less than a read (NULL: the channel reads instead): @n
     * bytes of private @src into member @rank's copy of symmetric @ptr,
     * if @with_desc this PE's descriptor of the call into its inbox, then
     * a signal of @phase, in that order at @rank; and, at the receiver,
     * after the wait for that signal, the comparison of @from's pushed
     * descriptor with this PE's call. */
    void (*push)(const xg_coll_t *coll, void *ptr, const void *src, size_t n,
                 int rank, int phase, int with_desc);
    void (*check_pushed)(const xg_coll_t *coll, int from);
    /* Remote channels only (no stage elsewhere: stage_reduce 0): @n
     * bytes of @src into member @rank's stage (xg_internal_area.h) at
     * offset @at, if @with_desc this PE's descriptor into its inbox (as
     * push), then a signal of @phase, in that order at @rank; and where
     * this PE's own stage holds what was written at @at.  The stage's
     * parts: @stage_reduce bytes from 0 for reductions, then two halves of
     * @stage_exchange / 2 for exchanges. */
    size_t stage_reduce, stage_exchange;
    void (*stage)(const xg_coll_t *coll, size_t at, const void *src, size_t n,
                  int rank, int phase, int with_desc);
    const void *(*staged)(const xg_coll_t *coll, size_t at);
    void (*combine)(const xg_coll_t *coll, xg_op_kernel_t op, void *dst,
                    const void *ptr, int rank, size_t nelems, size_t elem_size);
    void (*read_strided)(const xg_coll_t *coll, void *dst, ptrdiff_t dst_stride,
                         const void *ptr, ptrdiff_t src_stride, int rank,
                         size_t nelems, size_t elem_size);
    /* A collect's contributions: this PE's published -- before a
     * barrier phase, or, where the channel pushes, written to every
     * member with a signal of XG_PSYNC_UP -- the others' read after the
     * phase or the signals into *@count (complete at read_end, like
     * read_start), and the channel's state reset once every member has
     * read this PE's. */
    void (*count_put)(xg_coll_t *coll, size_t nbytes);
    void (*count_read)(const xg_coll_t *coll, int rank, uint64_t *count);
    void (*count_done)(xg_coll_t *coll);
    /* The counter barrier: adds this PE's arrival at member 0 and returns
     * nonzero for the last arrival, which then releases every member with
     * one store at member 0 (release) while they wait for it
     * (wait_release): each member touches member 0's slot only.  NULL
     * (the pSync channels): the tree barrier serves instead. */
    int (*arrive)(const xg_coll_t *coll);
    void (*release)(const xg_coll_t *coll);
    void (*wait_release)(const xg_coll_t *coll);
};

extern const xg_coll_chan_t xg_coll_chan_team;
extern const xg_coll_chan_t xg_coll_chan_psync;
/* The same over gas operations, for members not reached by load/store. */
extern const xg_coll_chan_t xg_coll_chan_team_remote;
extern const xg_coll_chan_t xg_coll_chan_psync_remote;

enum {
    COLL_CHECK_MAX = 64 /* members one check compares at most */
};

/* The check of one member (xg_coll_chan_t.check). */
static inline void xg_coll_check(const xg_coll_t *coll, int peer)
{
    coll->chan->check(coll, &peer, 1);
}

/* World PE of member @rank of the call. */
static inline int xg_coll_world(const xg_coll_t *coll, int rank)
{
    if (xg_unlikely(coll->members != NULL)) {
        return coll->members[rank];
    }
    return coll->start + rank * coll->stride;
}

/* For the channels: a wait of this call, named for hang reports (on
 * member @from, -1: any; agreement.c) and backing off as the
 * configuration says (algorithms.c); the comparison of a peer's
 * descriptor with this PE's call (agreement.c). */
void xg_coll_wait_start(const xg_coll_t *coll, xg_wait_t *wait,
                        xg_wait_what_t *what, int from);
void xg_coll_backoff(xg_wait_t *wait);
void xg_coll_compare(const xg_coll_t *coll, int peer, uint64_t kind,
                     uint64_t code, uint64_t nelems, int64_t root,
                     uint64_t extra);

/* A remote channel's operation on member @rank failed with @status: ends
 * the job with a message naming the call. */
XG_NORETURN void xg_coll_chan_failed(const xg_coll_t *coll, int rank,
                                     xg_status_t status);

enum {
    XG_COLL_CHECK_EVERY = 256
}; /* slow polls between descriptor checks */

/* ---- the configuration (agreement.c) ------------------------------------ */

/* Barrier algorithms (XGAS_COLL_BARRIER). */
enum {
    COLL_BAR_DISSEMINATION = 0,
    COLL_BAR_TREE          = 1,
    COLL_BAR_COUNTER       = 2,
    COLL_BAR_COUNTER_MAX   = 64 /* larger teams use the tree instead */
};

/* Children per tree node at most (XGAS_COLL_RADIX). */
enum {
    COLL_RADIX_MAX = 64
};

/* Agreed by every PE at start-up (PE 0's values), except the fields
 * marked local. */
typedef struct xg_coll_cfg {
    int barrier;           /* COLL_BAR_* */
    int node_aware;        /* teams over nodes: the node barrier */
    int radix;             /* children per tree node */
    uint64_t reduce_split; /* bytes from which reductions split */
    int yield_early;       /* local: yield after a few polls */
    int remote;            /* local: the remote channels */
} xg_coll_cfg_t;

extern xg_coll_cfg_t xg_coll_cfg;

/* Ends the job with the message @fmt about @coll, naming its routine,
 * call number and team (the binding's fail, xg_coll_naming_t). */
XG_NORETURN XG_PRINTF(2, 3) void xg_coll_fail(const xg_coll_t *coll,
                                              const char *fmt, ...);

#endif
