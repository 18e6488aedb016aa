/*
 * The data operations of the global address space: every binding
 * (OpenSHMEM, the native API, xbrtime...) moves data, updates memory
 * atomically, waits and locks through these, and only checks arguments
 * and turns statuses into its own error policy.
 *
 * Each remote operation takes a context, a target PE (a world PE) and
 * symmetric addresses as the calling PE sees them.  It is routed per PE:
 * the namespace table row of the PE (xg_ns_entry_t) says how it is reached.
 * The direct route -- translate through the NLB, then a CPU load, store or
 * atomic on the target's memory -- is tried first, inline; the NLB only
 * ever caches rows of the direct route, so an NLB hit is the route
 * decision and costs nothing extra.  Everything else (NLB miss, globals,
 * other routes, bad arguments) goes to an out-of-line slow path that
 * returns a status.  A PE whose row says XG_GAS_ROUTE_NIC is reached
 * through the software NIC (or the network's RMA) when gas opened that
 * route (a job over several nodes, or XGAS_ROUTE=nic; see
 * gas/xg_gas_nic.h); otherwise it gives XG_ERR_UNREACHABLE: nothing
 * succeeds silently.
 *
 * Statuses, never aborts: an operation that fails moves nothing (except a
 * put-with-signal whose data arrived before its signal failed) and returns
 * the reason; xg_gas_diagnose gives details on translation failures.  The
 * caller decides what a failure means to its program.
 */
#ifndef XG_GAS_OPS_H
#define XG_GAS_OPS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/xg_compiler.h"
#include "base/xg_op.h"
#include "gas/xg_gas.h"

/*
 * Contexts: ordering and completion domains.  @pending counts operations
 * issued on the context that have not completed (operations of a route
 * that cannot complete them at once); fence and quiet complete them when
 * it is not 0.  The direct route completes every operation before it
 * returns.  The NIC route (gas/xg_gas_nic.h) counts its outstanding ones
 * in @nic_issued and retires them in bulk: a quiet reads @nic_issued,
 * completes everything issued through the NIC so far, and advances
 * @nic_retired to what it read, taking exactly that many off @pending --
 * several threads may quiet one shared context at once, and each
 * operation is retired once, by a thread that saw it complete.  Other
 * routes count in @ops (xg_gas_ctx_op_start) and complete each operation
 * themselves (xg_gas_ctx_op_done), which quiet waits for.  The lock kind
 * is chosen at creation: a private context (used by one thread) needs
 * none, a shared one updates its state with atomics.
 */
typedef enum xg_gas_ctx_lock {
    XG_GAS_CTX_LOCK_NONE,  /* one thread only */
    XG_GAS_CTX_LOCK_ATOMIC /* any thread: state updated with atomics */
} xg_gas_ctx_lock_t;

typedef struct xg_gas_ctx {
    uint64_t pending;
    uint64_t ops;         /* of those, completed one by one */
    uint64_t nic_issued;  /* through the NIC, ever */
    uint64_t nic_retired; /* ... and known complete */
    xg_gas_ctx_lock_t lock;
} xg_gas_ctx_t;

#define XG_GAS_CTX_INIT_SHARED                                     \
    {                                                              \
        .pending = 0, .ops = 0, .nic_issued = 0, .nic_retired = 0, \
        .lock = XG_GAS_CTX_LOCK_ATOMIC                             \
    }

void xg_gas_ctx_init(xg_gas_ctx_t *ctx, int is_private);

/* Completes every operation of @ctx (its end of life). */
void xg_gas_ctx_fini(xg_gas_ctx_t *ctx);

/* Bookkeeping of a route that leaves an operation outstanding and
 * completes it itself. */
static inline void xg_gas_ctx_op_start(xg_gas_ctx_t *ctx)
{
    if (ctx->lock == XG_GAS_CTX_LOCK_NONE) {
        ctx->ops++;
        ctx->pending++;
    } else {
        __atomic_add_fetch(&ctx->ops, 1, __ATOMIC_RELAXED);
        __atomic_add_fetch(&ctx->pending, 1, __ATOMIC_RELAXED);
    }
}

static inline void xg_gas_ctx_op_done(xg_gas_ctx_t *ctx)
{
    /* release: the operation's effects before the count that reports it */
    __atomic_sub_fetch(&ctx->pending, 1, __ATOMIC_RELEASE);
    __atomic_sub_fetch(&ctx->ops, 1, __ATOMIC_RELEASE);
}

/* An operation through the NIC route left outstanding in @ctx. */
static inline void xg_gas_ctx_nic_op(xg_gas_ctx_t *ctx)
{
    __atomic_add_fetch(&ctx->nic_issued, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&ctx->pending, 1, __ATOMIC_RELAXED);
}

static inline uint64_t xg_gas_ctx_pending(const xg_gas_ctx_t *ctx)
{
    return __atomic_load_n(&ctx->pending, __ATOMIC_ACQUIRE);
}

/* Waits (backing off) until @ctx has no outstanding operation, then
 * makes every access visible (a full fence). */
XG_NOINLINE void xg_gas_ctx_complete(xg_gas_ctx_t *ctx);

/* A fence of @ctx with operations outstanding (ops.c): they complete,
 * except puts by a network that keeps them in order. */
XG_NOINLINE void xg_gas_ctx_order(xg_gas_ctx_t *ctx);

/* fence: operations of @ctx to one PE become visible in order (a release
 * fence; x86 keeps stores ordered anyway).  quiet: every earlier operation
 * of @ctx is complete and visible before any later access (a full fence).
 * Outstanding operations are completed first in both -- but a fence
 * leaves the network's puts outstanding where the network delivers them,
 * and whatever follows them, in order (xg_gas_nic_fence). */
static inline void xg_gas_ctx_fence(xg_gas_ctx_t *ctx)
{
    if (xg_unlikely(xg_gas_ctx_pending(ctx) != 0)) {
        xg_gas_ctx_order(ctx);
        return;
    }
    xg_gas_fence();
}

static inline void xg_gas_ctx_quiet(xg_gas_ctx_t *ctx)
{
    if (xg_unlikely(xg_gas_ctx_pending(ctx) != 0)) {
        xg_gas_ctx_complete(ctx);
        return;
    }
    xg_gas_quiet();
}

/* Route of a PE's namespace row; XG_GAS_ROUTE_DIRECT is the default.
 * Routes are set between epochs (no operation in flight): every thread's
 * NLB is emptied. */
void xg_gas_set_route(int pe, xg_gas_route_t route);

/* ---- contiguous put and get ------------------------------------------- */

/* The slow paths: full translation and the route decision.  Nothing moves
 * unless XG_OK is returned.  A length of 0 moves nothing and succeeds once
 * the library runs, whatever the addresses. */
XG_NOINLINE xg_status_t xg_gas_put_slow(xg_gas_ctx_t *ctx, void *dst,
                                        const void *src, size_t len, int pe);
XG_NOINLINE xg_status_t xg_gas_get_slow(xg_gas_ctx_t *ctx, void *dst,
                                        const void *src, size_t len, int pe);
/* The same for the non-blocking forms: a route that cannot complete the
 * operation at once leaves it outstanding in @ctx. */
XG_NOINLINE xg_status_t xg_gas_put_nbi_slow(xg_gas_ctx_t *ctx, void *dst,
                                            const void *src, size_t len,
                                            int pe);
XG_NOINLINE xg_status_t xg_gas_get_nbi_slow(xg_gas_ctx_t *ctx, void *dst,
                                            const void *src, size_t len,
                                            int pe);

/*
 * Each hot operation comes in two forms.  xg_gas_X_direct is the direct
 * route alone: it returns 1 when it has done the operation, 0 (having done
 * nothing) when the slow path must decide; a binding that ends the job on
 * errors calls it inline and xg_gas_X from an out-of-line function, so its
 * fast path needs no stack frame.  xg_gas_X is the whole operation.
 */

/* Copies @len bytes from local @src to symmetric @dst on @pe. */
static XG_ALWAYS_INLINE int xg_gas_put_direct(void *dst, const void *src,
                                              size_t len, int pe)
{
    void *ptr = xg_gas_translate_fast(dst, len, pe);

    if (xg_unlikely(ptr == NULL)) {
        return 0;
    }
    xg_gas_copy(ptr, src, len);
    return 1;
}

static XG_ALWAYS_INLINE xg_status_t xg_gas_put(xg_gas_ctx_t *ctx, void *dst,
                                               const void *src, size_t len,
                                               int pe)
{
    if (xg_likely(xg_gas_put_direct(dst, src, len, pe))) {
        return XG_OK;
    }
    return xg_gas_put_slow(ctx, dst, src, len, pe);
}

/* The put, never held back in a batch of word puts to another node
 * (gas/amo_batch.c): for a caller that sends something ordered after it
 * at once (the collectives' data before their signal), to which a batch
 * would add a round trip. */
xg_status_t xg_gas_put_unbatched(xg_gas_ctx_t *ctx, void *dst, const void *src,
                                 size_t len, int pe);

/* Copies @len bytes from symmetric @src on @pe to local @dst. */
static XG_ALWAYS_INLINE int xg_gas_get_direct(void *dst, const void *src,
                                              size_t len, int pe)
{
    const void *ptr = xg_gas_translate_fast(src, len, pe);

    if (xg_unlikely(ptr == NULL)) {
        return 0;
    }
    xg_gas_copy(dst, ptr, len);
    return 1;
}

static XG_ALWAYS_INLINE xg_status_t xg_gas_get(xg_gas_ctx_t *ctx, void *dst,
                                               const void *src, size_t len,
                                               int pe)
{
    if (xg_likely(xg_gas_get_direct(dst, src, len, pe))) {
        return XG_OK;
    }
    return xg_gas_get_slow(ctx, dst, src, len, pe);
}

/* Non-blocking forms: complete at the context's quiet.  The direct route
 * completes them before they return; the NIC route counts them in
 * ctx->pending. */
static XG_ALWAYS_INLINE xg_status_t xg_gas_put_nbi(xg_gas_ctx_t *ctx, void *dst,
                                                   const void *src, size_t len,
                                                   int pe)
{
    if (xg_likely(xg_gas_put_direct(dst, src, len, pe))) {
        return XG_OK;
    }
    return xg_gas_put_nbi_slow(ctx, dst, src, len, pe);
}

static XG_ALWAYS_INLINE xg_status_t xg_gas_get_nbi(xg_gas_ctx_t *ctx, void *dst,
                                                   const void *src, size_t len,
                                                   int pe)
{
    if (xg_likely(xg_gas_get_direct(dst, src, len, pe))) {
        return XG_OK;
    }
    return xg_gas_get_nbi_slow(ctx, dst, src, len, pe);
}

/*
 * One element of @size bytes (a compile-time constant): the value at @val
 * is stored to @dst on @pe, or @src on @pe is loaded into @val.  With the
 * size known, the direct route is one translation and one store or load.
 */
static XG_ALWAYS_INLINE int xg_gas_p_direct(void *dst, const void *val,
                                            size_t size, int pe)
{
    void *ptr = xg_gas_translate_fast(dst, size, pe);

    if (xg_unlikely(ptr == NULL)) {
        return 0;
    }
    memcpy(ptr, val, size);
    return 1;
}

static XG_ALWAYS_INLINE xg_status_t xg_gas_p(xg_gas_ctx_t *ctx, void *dst,
                                             const void *val, size_t size,
                                             int pe)
{
    if (xg_likely(xg_gas_p_direct(dst, val, size, pe))) {
        return XG_OK;
    }
    return xg_gas_put_slow(ctx, dst, val, size, pe);
}

static XG_ALWAYS_INLINE int xg_gas_g_direct(void *val, const void *src,
                                            size_t size, int pe)
{
    const void *ptr = xg_gas_translate_fast(src, size, pe);

    if (xg_unlikely(ptr == NULL)) {
        return 0;
    }
    memcpy(val, ptr, size);
    return 1;
}

static XG_ALWAYS_INLINE xg_status_t xg_gas_g(xg_gas_ctx_t *ctx, void *val,
                                             const void *src, size_t size,
                                             int pe)
{
    if (xg_likely(xg_gas_g_direct(val, src, size, pe))) {
        return XG_OK;
    }
    return xg_gas_get_slow(ctx, val, src, size, pe);
}

/* ---- strided put and get ---------------------------------------------- */

/*
 * @count elements of @elem bytes; element i is at @dst + i * @dst_stride
 * and @src + i * @src_stride (strides in bytes, at least 1).  The remote
 * side's whole extent is translated once.  XG_ERR_INVALID_PARAM for a
 * stride below 1, XG_ERR_OUT_OF_BOUNDS for an extent that overflows.
 */
xg_status_t xg_gas_iput(xg_gas_ctx_t *ctx, void *dst, const void *src,
                        size_t elem, ptrdiff_t dst_stride, ptrdiff_t src_stride,
                        size_t count, int pe);
xg_status_t xg_gas_iget(xg_gas_ctx_t *ctx, void *dst, const void *src,
                        size_t elem, ptrdiff_t dst_stride, ptrdiff_t src_stride,
                        size_t count, int pe);

/* ---- atomics ----------------------------------------------------------- */

/*
 * Atomic operations on 4- or 8-byte naturally aligned words.  Operands are
 * passed as bits (a signed or floating-point value converted to the
 * same-size unsigned integer by the caller); add and the bitwise ones work
 * on any integer type that way.  Read-modify-write operations are
 * sequentially consistent, set a release store and fetch an acquire load.
 * Every PE reaches the word through the same physical page, so CPU atomics
 * are atomic against those of every other same-node PE.
 */
typedef enum xg_gas_amo {
    XG_GAS_AMO_ADD, /* old = *dst; *dst += value */
    XG_GAS_AMO_AND,
    XG_GAS_AMO_OR,
    XG_GAS_AMO_XOR,
    XG_GAS_AMO_SWAP,  /* old = *dst; *dst = value */
    XG_GAS_AMO_CSWAP, /* old = *dst; if old == cond, *dst = value */
    XG_GAS_AMO_SET,   /* *dst = value */
    XG_GAS_AMO_FETCH  /* old = *dst */
} xg_gas_amo_t;

/* Applies @op to the word at @ptr (already translated); returns the old
 * value (0 for set). */
static XG_ALWAYS_INLINE uint64_t xg_gas_amo_apply(xg_gas_amo_t op, void *ptr,
                                                  size_t size, uint64_t value,
                                                  uint64_t cond)
{
#define XG_GAS_AMO_CASES(T)                                                   \
    do {                                                                      \
        T *w = ptr, c = (T)cond;                                              \
                                                                              \
        switch (op) {                                                         \
        case XG_GAS_AMO_ADD:                                                  \
            return __atomic_fetch_add(w, (T)value, __ATOMIC_SEQ_CST);         \
        case XG_GAS_AMO_AND:                                                  \
            return __atomic_fetch_and(w, (T)value, __ATOMIC_SEQ_CST);         \
        case XG_GAS_AMO_OR:                                                   \
            return __atomic_fetch_or(w, (T)value, __ATOMIC_SEQ_CST);          \
        case XG_GAS_AMO_XOR:                                                  \
            return __atomic_fetch_xor(w, (T)value, __ATOMIC_SEQ_CST);         \
        case XG_GAS_AMO_SWAP:                                                 \
            return __atomic_exchange_n(w, (T)value, __ATOMIC_SEQ_CST);        \
        case XG_GAS_AMO_CSWAP:                                                \
            /* on failure c receives the current value; on success it     \
             * already equals it: either way, the old value */   \
            __atomic_compare_exchange_n(w, &c, (T)value, 0, __ATOMIC_SEQ_CST, \
                                        __ATOMIC_SEQ_CST);                    \
            return c;                                                         \
        case XG_GAS_AMO_SET:                                                  \
            __atomic_store_n(w, (T)value, __ATOMIC_RELEASE);                  \
            return 0;                                                         \
        default: return __atomic_load_n(w, __ATOMIC_ACQUIRE);                 \
        }                                                                     \
    } while (0)
    if (size == 4) {
        XG_GAS_AMO_CASES(uint32_t);
    }
    XG_GAS_AMO_CASES(uint64_t);
#undef XG_GAS_AMO_CASES
}

/* The old value and the status, returned in two registers. */
typedef struct xg_gas_amo_result {
    uint64_t old;
    xg_status_t status;
} xg_gas_amo_result_t;

/* Alignment, full translation, route; then the operation. */
XG_NOINLINE xg_gas_amo_result_t xg_gas_amo_slow(xg_gas_ctx_t *ctx,
                                                xg_gas_amo_t op, void *dst,
                                                size_t size, uint64_t value,
                                                uint64_t cond, int pe);

/*
 * @op on the @size-byte word (4 or 8; a constant) at symmetric @dst on @pe:
 * the old value (as bits, zero-extended) and XG_OK, or the status
 * (XG_ERR_MISALIGNED when @dst is not aligned to @size).  The direct form
 * stores the old value to *@old_p.
 */
static XG_ALWAYS_INLINE int xg_gas_amo_direct(xg_gas_amo_t op, void *dst,
                                              size_t size, uint64_t value,
                                              uint64_t cond, uint64_t *old_p,
                                              int pe)
{
    void *ptr;

    if (xg_unlikely(((uintptr_t)dst & (size - 1)) != 0)) {
        return 0;
    }
    ptr = xg_gas_translate_fast(dst, size, pe);
    if (xg_unlikely(ptr == NULL)) {
        return 0;
    }
    *old_p = xg_gas_amo_apply(op, ptr, size, value, cond);
    return 1;
}

static XG_ALWAYS_INLINE xg_gas_amo_result_t xg_gas_amo(xg_gas_ctx_t *ctx,
                                                       xg_gas_amo_t op,
                                                       void *dst, size_t size,
                                                       uint64_t value,
                                                       uint64_t cond, int pe)
{
    xg_gas_amo_result_t result = {0, XG_OK};

    if (xg_likely(
            xg_gas_amo_direct(op, dst, size, value, cond, &result.old, pe))) {
        return result;
    }
    return xg_gas_amo_slow(ctx, op, dst, size, value, cond, pe);
}

/*
 * xg_gas_amo without a result (a non-fetching atomic: add, and, or, xor,
 * set): on the direct route the same CPU atomic; through the NIC it may
 * stay outstanding in @ctx until its quiet (xg_gas_nic_amo_nbi), so a
 * stream of them is pipelined instead of one round trip each.  Statuses
 * as xg_gas_amo.
 */
XG_NOINLINE xg_status_t xg_gas_amo_nbi_slow(xg_gas_ctx_t *ctx, xg_gas_amo_t op,
                                            void *dst, size_t size,
                                            uint64_t value, int pe);

/*
 * Any atomic operation of the typed-operation table (base/xg_op.h) on the
 * element of @type at symmetric @dst on @pe: @src is its operand, the
 * prior value goes to @fetch (NULL: not wanted).  Statuses as xg_gas_amo,
 * and XG_ERR_INVALID_PARAM for a pair the table does not define,
 * XG_ERR_UNSUPPORTED for a type wider than a CPU atomic.
 */
xg_status_t xg_gas_amo_op(xg_gas_ctx_t *ctx, xg_op_t op, xg_op_type_t type,
                          void *dst, const void *src, void *fetch, int pe);

/* ---- signals ----------------------------------------------------------- */

typedef enum xg_gas_signal_op {
    XG_GAS_SIGNAL_SET,
    XG_GAS_SIGNAL_ADD
} xg_gas_signal_op_t;

/* Sets or adds @signal to the 8-byte word @sig on @pe, atomically, release
 * ordered after this thread's earlier stores. */
static XG_ALWAYS_INLINE xg_status_t xg_gas_signal(xg_gas_ctx_t *ctx,
                                                  uint64_t *sig,
                                                  uint64_t signal,
                                                  xg_gas_signal_op_t op, int pe)
{
    return xg_gas_amo(
               ctx, (op == XG_GAS_SIGNAL_SET) ? XG_GAS_AMO_SET : XG_GAS_AMO_ADD,
               sig, sizeof(*sig), signal, 0, pe)
        .status;
}

/*
 * Put-with-signal: the data, then the signal.  A PE that sees the signal
 * (by any wait or fetch) also sees the data: the signal's update is
 * release ordered after the copy (a large memcpy may use non-temporal
 * stores; the C library ends those with a store fence, which the release
 * then orders).  If the data cannot be put, nothing moves.
 */
static XG_ALWAYS_INLINE xg_status_t
xg_gas_put_signal(xg_gas_ctx_t *ctx, void *dst, const void *src, size_t len,
                  uint64_t *sig, uint64_t signal, xg_gas_signal_op_t op, int pe)
{
    xg_status_t status = xg_gas_put(ctx, dst, src, len, pe);

    if (xg_unlikely(status != XG_OK)) {
        return status;
    }
    return xg_gas_signal(ctx, sig, signal, op, pe);
}

/* ---- gas's own words in the internal area ----------------------------- */

/*
 * The runtime's words in a PE's internal area (the team slots,
 * gas/coll/xg_internal_area.h) reached through the PE's route, named by
 * this PE's copy (@word, @src: the same partition offset in this PE's
 * area): an atomic on an aligned 64-bit word, a get of @len bytes.  Both
 * complete before they return.  For the collective channels
 * (coll/channel.c), which know the addresses are valid: nothing is
 * checked.
 */
xg_gas_amo_result_t xg_gas_area_amo(xg_gas_amo_t op, void *word, uint64_t value,
                                    int pe);
xg_status_t xg_gas_area_get(void *dst, const void *src, size_t len, int pe);
/* A put of @len bytes into such words: returns once @src is free; through
 * the NIC, its completion at the target is counted in @ctx. */
xg_status_t xg_gas_area_put(xg_gas_ctx_t *ctx, void *dst, const void *src,
                            size_t len, int pe);
/* The get without waiting: through the NIC it stays outstanding in @ctx
 * (complete at its quiet), so gets to several PEs overlap. */
xg_status_t xg_gas_area_get_nbi(xg_gas_ctx_t *ctx, void *dst, const void *src,
                                size_t len, int pe);
/* An update of such a word that nobody waits for at the sender (a
 * collective's signal): through the NIC it stays outstanding in @ctx
 * (xg_gas_nic_amo_nbi), so the sender goes on at once and the signal
 * costs the network one way, not a round trip. */
xg_status_t xg_gas_area_amo_nbi(xg_gas_ctx_t *ctx, xg_gas_amo_t op, void *word,
                                uint64_t value, int pe);
/* A store of @value into such a word of a PE of another node by one
 * write of the network's RMA, ordered after this PE's earlier writes and
 * packets to @pe and outstanding in @ctx: a signal whose count only this
 * PE changes needs no atomic at the target, whose CPU then has nothing to
 * do for it but read its queues.  XG_ERR_UNSUPPORTED where the network
 * does not keep that order or does not reach @pe (the caller uses an
 * atomic instead): for a given @pe always the same answer. */
xg_status_t xg_gas_area_write_ordered(xg_gas_ctx_t *ctx, void *word,
                                      uint64_t value, int pe);

/* ---- waiting on local memory ------------------------------------------ */

/* Comparisons (the values of OpenSHMEM's SHMEM_CMP_*). */
typedef enum xg_gas_cmp {
    XG_GAS_CMP_EQ,
    XG_GAS_CMP_NE,
    XG_GAS_CMP_GT,
    XG_GAS_CMP_GE,
    XG_GAS_CMP_LT,
    XG_GAS_CMP_LE
} xg_gas_cmp_t;

#define XG_GAS_CMP_VALID(cmp) ((unsigned)(cmp) <= (unsigned)XG_GAS_CMP_LE)

/* The integer type of the variables waited on: 2, 4 or 8 bytes, signed or
 * not; @name is the binding's name of it, for hang reports. */
typedef struct xg_gas_int {
    size_t size;
    int is_signed;
    const char *name;
} xg_gas_int_t;

/*
 * Waits and tests on local variables (@ivars: @nelems naturally aligned
 * variables of @type) that other PEs or threads update.  Each read is an
 * acquire load.  A comparison value is values[i * stride] (stride 0: one
 * value for all), of @type too; a single @value is converted from @type
 * to uint64_t as C converts (sign-extended if signed).  @status (may be
 * NULL) excludes element i
 * when status[i] != 0.  @routine names the caller in hang reports.  The
 * caller has checked the arguments (xg_gas_diagnose for the variables).
 *
 *   wait:       until *ivar holds; returns the value (as bits) that did;
 *   wait_all:   each element of the set in turn;
 *   wait_any:   an index that holds (SIZE_MAX for an empty set); successive
 *               calls of a thread rotate their start so none starves;
 *   wait_some:  the indices that hold into @indices, how many (0: empty);
 *   test, test_all, test_any, test_some: the same, one scan, no wait
 *               (test_all of an empty set: 1).
 */
uint64_t xg_gas_wait(const char *routine, const void *ivar, xg_gas_int_t type,
                     xg_gas_cmp_t cmp, uint64_t value);
void xg_gas_wait_all(const char *routine, const void *ivars, size_t nelems,
                     const int *status, xg_gas_int_t type, xg_gas_cmp_t cmp,
                     const void *values, size_t stride);
size_t xg_gas_wait_any(const char *routine, const void *ivars, size_t nelems,
                       const int *status, xg_gas_int_t type, xg_gas_cmp_t cmp,
                       const void *values, size_t stride);
size_t xg_gas_wait_some(const char *routine, const void *ivars, size_t nelems,
                        size_t *indices, const int *status, xg_gas_int_t type,
                        xg_gas_cmp_t cmp, const void *values, size_t stride);
int xg_gas_test(const void *ivar, xg_gas_int_t type, xg_gas_cmp_t cmp,
                uint64_t value);
int xg_gas_test_all(const void *ivars, size_t nelems, const int *status,
                    xg_gas_int_t type, xg_gas_cmp_t cmp, const void *values,
                    size_t stride);
size_t xg_gas_test_any(const void *ivars, size_t nelems, const int *status,
                       xg_gas_int_t type, xg_gas_cmp_t cmp, const void *values,
                       size_t stride);
size_t xg_gas_test_some(const void *ivars, size_t nelems, size_t *indices,
                        const int *status, xg_gas_int_t type, xg_gas_cmp_t cmp,
                        const void *values, size_t stride);

/* ---- locks ------------------------------------------------------------- */

/*
 * Distributed MCS queue locks in a symmetric 8-byte object that starts at
 * 0 on every PE (see lock.c).  @routine names the caller in hang reports.
 * Translation statuses as for atomics (the object is used on this PE and
 * on PE 0), and:
 *   set, test: XG_GAS_LOCK_REENTERED   this PE already holds or awaits
 *                                      it (the queue is left untouched);
 *   clear: XG_GAS_LOCK_FREE        no PE holds it,
 *          XG_GAS_LOCK_NOT_MINE    another PE holds it (or this one still
 *                                  waits for it).
 * test returns XG_OK with *@taken_p 1 if it took the lock, 0 if busy.
 * clear completes @ctx's operations first.
 */
#define XG_GAS_LOCK_REENTERED XG_ERR_INVALID_PARAM
#define XG_GAS_LOCK_FREE      XG_ERR_INVALID_PARAM
#define XG_GAS_LOCK_NOT_MINE  XG_ERR_MISMATCH

xg_status_t xg_gas_lock_set(const char *routine, void *lock);
xg_status_t xg_gas_lock_test(void *lock, int *taken_p);
xg_status_t xg_gas_lock_clear(xg_gas_ctx_t *ctx, void *lock);

/* The same for a lock whose queue tail lives on PE @home instead of PE 0
 * (ARMCI's mutexes: one object per mutex and hosting process).  Exported
 * for libarmci. */
XG_EXPORT xg_status_t xg_gas_lock_set_at(const char *routine, void *lock,
                                         int home);
XG_EXPORT xg_status_t xg_gas_lock_test_at(void *lock, int home, int *taken_p);
XG_EXPORT xg_status_t xg_gas_lock_clear_at(xg_gas_ctx_t *ctx, void *lock,
                                           int home);

#endif
