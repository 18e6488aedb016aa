/*
 * OpenSHMEM remote memory access: put and get (contiguous, elemental,
 * strided, blocked strided, non-blocking), typed, sized and in bytes.
 *
 * Each routine checks its arguments and makes one gas operation
 * (gas/xg_gas_ops.h), which moves the data: on this node, translate the
 * whole remote range once (PE range check, NLB hit, bounds check), then
 * copy with CPU loads and stores; p and g are one translation and one
 * typed store or load.  The _nbi forms complete when the gas operation
 * says so: at once on this node, which the specification allows (it only
 * requires completion at shmem_quiet).  A status from gas ends the job
 * with a message naming the routine.
 *
 * OpenSHMEM leaves bad arguments undefined; here a PE out of range, a range
 * outside the symmetric memory, a stride below 1 or a length that overflows
 * ends the job with a message naming the routine.  A transfer of nothing
 * (nelems, bsize or nblocks 0) only checks that the library is initialized;
 * its addresses, strides and PE are not looked at.
 */
#include <stdint.h>

#include "api/shmem/shmem_int.h"
#include "api/shmem/shmem_types.h"

XG_NORETURN XG_NOINLINE static void rma_too_large(const char *routine,
                                                  size_t count, size_t size)
{
    xg_shmem_fail(routine,
                  "%zu elements of %zu bytes exceed the address "
                  "space: check the element count",
                  count, size);
}

/* Bytes of @nelems elements of @size bytes; the job ends on overflow. */
static inline size_t rma_bytes(const char *routine, size_t nelems, size_t size)
{
    size_t len;

    if (xg_unlikely(__builtin_mul_overflow(nelems, size, &len))) {
        rma_too_large(routine, nelems, size);
    }
    return len;
}

/*
 * The unusual transfers, off the fast path: nothing to move (@len 0: only
 * initialization is checked, the addresses may be anything, and the gas
 * operation moves nothing), a NULL local buffer with something to move
 * (the job ends, naming it), and lengths of 2^63 bytes or more (the gas
 * operation reports them).
 */
XG_NOINLINE static void rma_check_edge(const char *routine, int put,
                                       const void *local, size_t nelems,
                                       size_t len)
{
    xg_shmem_check_init(routine);
    if ((len != 0) && (local == NULL)) {
        xg_shmem_fail(routine,
                      "%s is NULL but nelems is %zu: pass a local "
                      "buffer that holds the elements",
                      put ? "source" : "dest", nelems);
    }
}

/* One test for "@len is 0 or @local is NULL" (either makes its operand
 * minus one negative; so do lengths and user addresses of 2^63 and up,
 * which the edge path handles too): no extra branch on the fast path. */
static XG_ALWAYS_INLINE int rma_unusual(size_t len, const void *local)
{
    return (intptr_t)((len - 1) | ((uintptr_t)local - 1)) < 0;
}

/* What a call site does, for its slow path. */
typedef struct rma_site {
    const char *routine;
    size_t size; /* bytes per element */
    int put;     /* 1: put, 0: get */
    int nbi;     /* 1: completes at quiet */
} rma_site_t;

/* The description of the routine being defined. */
#define XG_RMA_SITE(SIZE, PUT) \
    static const rma_site_t site = {__func__, SIZE, PUT, 0};
#define XG_RMA_SITE_NBI(SIZE, PUT) \
    static const rma_site_t site = {__func__, SIZE, PUT, 1};

/*
 * Everything but the direct route of a contiguous transfer of @nelems
 * elements: the unusual cases, NLB misses, globals, other routes, errors
 * (a status ends the job).  The parameters come in the registers the
 * routine received its own, so the fast path moves nothing before it
 * tail-calls this.
 */
XG_NOINLINE static void rma_slow(void *dest, const void *source, size_t nelems,
                                 int pe, xg_gas_ctx_t *gctx,
                                 const rma_site_t *site)
{
    size_t len        = nelems * site->size; /* rma_bytes checked it */
    const void *local = site->put ? source : (const void *)dest;
    xg_status_t status;

    if (rma_unusual(len, local)) {
        rma_check_edge(site->routine, site->put, local, nelems, len);
    }
    if (site->nbi) {
        status = site->put ? xg_gas_put_nbi(gctx, dest, source, len, pe)
                           : xg_gas_get_nbi(gctx, dest, source, len, pe);
    } else {
        status = site->put ? xg_gas_put(gctx, dest, source, len, pe)
                           : xg_gas_get(gctx, dest, source, len, pe);
    }
    if (xg_unlikely(status != XG_OK)) {
        xg_shmem_status_fail(site->routine, status,
                             site->put ? (const void *)dest : source, len, pe);
    }
}

/* Contiguous transfers: the checks, then the gas operation's direct route
 * inline and the rest out of line. */
static XG_ALWAYS_INLINE void rma_put(xg_gas_ctx_t *gctx, const rma_site_t *site,
                                     void *dest, const void *source,
                                     size_t nelems, int pe)
{
    size_t len = rma_bytes(site->routine, nelems, site->size);

    if (xg_likely(!rma_unusual(len, source)) &&
        xg_likely(xg_gas_put_direct(dest, source, len, pe))) {
        return;
    }
    rma_slow(dest, source, nelems, pe, gctx, site);
}

static XG_ALWAYS_INLINE void rma_get(xg_gas_ctx_t *gctx, const rma_site_t *site,
                                     void *dest, const void *source,
                                     size_t nelems, int pe)
{
    size_t len = rma_bytes(site->routine, nelems, site->size);

    if (xg_likely(!rma_unusual(len, dest)) &&
        xg_likely(xg_gas_get_direct(dest, source, len, pe))) {
        return;
    }
    rma_slow(dest, source, nelems, pe, gctx, site);
}

XG_NORETURN XG_NOINLINE static void rma_bad_stride(const char *routine,
                                                   ptrdiff_t dst, ptrdiff_t sst)
{
    xg_shmem_fail(routine,
                  "strides dst=%td and sst=%td: both must be at "
                  "least 1 (1 means contiguous)",
                  dst, sst);
}

XG_NORETURN XG_NOINLINE static void rma_bad_extent(const char *routine,
                                                   size_t nblocks,
                                                   ptrdiff_t stride,
                                                   size_t bsize, size_t size)
{
    xg_shmem_fail(routine,
                  "%zu blocks of %zu elements of %zu bytes, %td "
                  "elements apart, exceed the address space: check the "
                  "stride and counts",
                  nblocks, bsize, size, stride);
}

/*
 * Blocked strided transfer: @nblocks blocks of @bsize elements of @size
 * bytes; block i starts at element i * @dst of @dest and i * @sst of
 * @source (the strides of OpenSHMEM's iput/ibput, in elements).  iput and
 * iget are the case @bsize = 1.  The remote side (@dest for a put, @source
 * for a get) spans ((nblocks - 1) * stride + bsize) elements, which must
 * fit in the address space, as must either side's stride in bytes; gas
 * translates that extent once and copies.
 */
XG_NOINLINE static void rma_strided(const char *routine, xg_gas_ctx_t *gctx,
                                    int put, void *dest, const void *source,
                                    ptrdiff_t dst, ptrdiff_t sst, size_t bsize,
                                    size_t nblocks, size_t size, int pe)
{
    ptrdiff_t stride = put ? dst : sst;
    size_t span, extent, dstep, sstep;
    xg_status_t status;

    if ((nblocks == 0) || (bsize == 0)) {
        xg_shmem_check_init(routine);
        return;
    }
    if (xg_unlikely((put ? source : dest) == NULL)) {
        xg_shmem_fail(routine,
                      "%s is NULL but nelems is %zu: pass a local "
                      "buffer that holds the elements",
                      put ? "source" : "dest", nblocks * bsize);
    }
    if (xg_unlikely((dst < 1) || (sst < 1))) {
        rma_bad_stride(routine, dst, sst);
    }
    if (xg_unlikely(
            __builtin_mul_overflow(nblocks - 1, (size_t)stride, &span) ||
            __builtin_add_overflow(span, bsize, &span) ||
            __builtin_mul_overflow(span, size, &extent) ||
            __builtin_mul_overflow((size_t)dst, size, &dstep) ||
            __builtin_mul_overflow((size_t)sst, size, &sstep) ||
            (dstep > PTRDIFF_MAX) || (sstep > PTRDIFF_MAX))) {
        rma_bad_extent(routine, nblocks, stride, bsize, size);
    }
    if (put) {
        status = xg_gas_iput(gctx, dest, source, bsize * size, (ptrdiff_t)dstep,
                             (ptrdiff_t)sstep, nblocks, pe);
    } else {
        status = xg_gas_iget(gctx, dest, source, bsize * size, (ptrdiff_t)dstep,
                             (ptrdiff_t)sstep, nblocks, pe);
    }
    if (xg_unlikely(status != XG_OK)) {
        xg_shmem_status_fail(routine, status, put ? dest : source, extent, pe);
    }
}

/*
 * p and g: the gas element operation's direct route (one translation and
 * one typed store or load) inline; the whole operation is a separate
 * function that the fast path tail-calls, its parameters in the registers
 * the routine received its own, so the fast path needs no stack frame and
 * moves nothing.  Both return a value (p a dummy 0) so that one shape
 * serves both.
 */
#define XG_RMA_DEFINE_ELEMENT(TYPE, TYPENAME)                                  \
    static XG_NOINLINE int rma_p_slow_##TYPENAME(const char *routine,          \
                                                 TYPE *dest, TYPE value,       \
                                                 int pe, xg_gas_ctx_t *gctx)   \
    {                                                                          \
        xg_status_t status = xg_gas_p(gctx, dest, &value, sizeof(TYPE), pe);   \
                                                                               \
        if (xg_unlikely(status != XG_OK)) {                                    \
            xg_shmem_status_fail(routine, status, dest, sizeof(TYPE), pe);     \
        }                                                                      \
        return 0;                                                              \
    }                                                                          \
                                                                               \
    static XG_ALWAYS_INLINE int rma_p_##TYPENAME(                              \
        const char *routine, xg_gas_ctx_t *gctx, TYPE *dest, TYPE value,       \
        int pe)                                                                \
    {                                                                          \
        if (xg_likely(xg_gas_p_direct(dest, &value, sizeof(TYPE), pe))) {      \
            return 0;                                                          \
        }                                                                      \
        return rma_p_slow_##TYPENAME(routine, dest, value, pe, gctx);          \
    }                                                                          \
                                                                               \
    static XG_NOINLINE TYPE rma_g_slow_##TYPENAME(                             \
        const TYPE *source, int pe, xg_gas_ctx_t *gctx, const char *routine)   \
    {                                                                          \
        TYPE value;                                                            \
        xg_status_t status = xg_gas_g(gctx, &value, source, sizeof(TYPE), pe); \
                                                                               \
        if (xg_unlikely(status != XG_OK)) {                                    \
            xg_shmem_status_fail(routine, status, source, sizeof(TYPE), pe);   \
        }                                                                      \
        return value;                                                          \
    }                                                                          \
                                                                               \
    static XG_ALWAYS_INLINE TYPE rma_g_##TYPENAME(                             \
        const char *routine, xg_gas_ctx_t *gctx, const TYPE *source, int pe)   \
    {                                                                          \
        TYPE value;                                                            \
                                                                               \
        if (xg_likely(xg_gas_g_direct(&value, source, sizeof(TYPE), pe))) {    \
            return value;                                                      \
        }                                                                      \
        return rma_g_slow_##TYPENAME(source, pe, gctx, routine);               \
    }                                                                          \
                                                                               \
    XG_SHMEM_DEFINE(void, TYPENAME##_p, (TYPE * dest, TYPE value, int pe),     \
                    (void)rma_p_##TYPENAME(__func__, gctx, dest, value, pe);)  \
    XG_SHMEM_DEFINE(TYPE, TYPENAME##_g, (const TYPE *source, int pe),          \
                    return rma_g_##TYPENAME(__func__, gctx, source, pe);)

/* Contiguous, non-blocking and strided routines of TYPE: shmem_TYPENAME_put
 * and friends. */
#define XG_RMA_DEFINE_TYPED(TYPE, TYPENAME)                                   \
    XG_RMA_DEFINE_ELEMENT(TYPE, TYPENAME)                                     \
    XG_SHMEM_DEFINE(void, TYPENAME##_put,                                     \
                    (TYPE * dest, const TYPE *source, size_t nelems, int pe), \
                    XG_RMA_SITE(sizeof(TYPE), 1)                              \
                        rma_put(gctx, &site, dest, source, nelems, pe);)      \
    XG_SHMEM_DEFINE(void, TYPENAME##_get,                                     \
                    (TYPE * dest, const TYPE *source, size_t nelems, int pe), \
                    XG_RMA_SITE(sizeof(TYPE), 0)                              \
                        rma_get(gctx, &site, dest, source, nelems, pe);)      \
    XG_SHMEM_DEFINE(void, TYPENAME##_put_nbi,                                 \
                    (TYPE * dest, const TYPE *source, size_t nelems, int pe), \
                    XG_RMA_SITE_NBI(sizeof(TYPE), 1)                          \
                        rma_put(gctx, &site, dest, source, nelems, pe);)      \
    XG_SHMEM_DEFINE(void, TYPENAME##_get_nbi,                                 \
                    (TYPE * dest, const TYPE *source, size_t nelems, int pe), \
                    XG_RMA_SITE_NBI(sizeof(TYPE), 0)                          \
                        rma_get(gctx, &site, dest, source, nelems, pe);)      \
    XG_SHMEM_DEFINE(void, TYPENAME##_iput,                                    \
                    (TYPE * dest, const TYPE *source, ptrdiff_t dst,          \
                     ptrdiff_t sst, size_t nelems, int pe),                   \
                    rma_strided(__func__, gctx, 1, dest, source, dst, sst, 1, \
                                nelems, sizeof(TYPE), pe);)                   \
    XG_SHMEM_DEFINE(void, TYPENAME##_iget,                                    \
                    (TYPE * dest, const TYPE *source, ptrdiff_t dst,          \
                     ptrdiff_t sst, size_t nelems, int pe),                   \
                    rma_strided(__func__, gctx, 0, dest, source, dst, sst, 1, \
                                nelems, sizeof(TYPE), pe);)                   \
    XG_SHMEM_DEFINE(void, TYPENAME##_ibput,                                   \
                    (TYPE * dest, const TYPE *source, ptrdiff_t dst,          \
                     ptrdiff_t sst, size_t bsize, size_t nblocks, int pe),    \
                    rma_strided(__func__, gctx, 1, dest, source, dst, sst,    \
                                bsize, nblocks, sizeof(TYPE), pe);)           \
    XG_SHMEM_DEFINE(void, TYPENAME##_ibget,                                   \
                    (TYPE * dest, const TYPE *source, ptrdiff_t dst,          \
                     ptrdiff_t sst, size_t bsize, size_t nblocks, int pe),    \
                    rma_strided(__func__, gctx, 0, dest, source, dst, sst,    \
                                bsize, nblocks, sizeof(TYPE), pe);)

XG_SHMEM_RMA_TYPES(XG_RMA_DEFINE_TYPED)

/* SIZE is in bits; the sized routines move elements of SIZE / 8 bytes. */
#define XG_RMA_DEFINE_SIZED(SIZE)                                             \
    XG_SHMEM_DEFINE(void, put##SIZE,                                          \
                    (void *dest, const void *source, size_t nelems, int pe),  \
                    XG_RMA_SITE((SIZE) / 8, 1)                                \
                        rma_put(gctx, &site, dest, source, nelems, pe);)      \
    XG_SHMEM_DEFINE(void, get##SIZE,                                          \
                    (void *dest, const void *source, size_t nelems, int pe),  \
                    XG_RMA_SITE((SIZE) / 8, 0)                                \
                        rma_get(gctx, &site, dest, source, nelems, pe);)      \
    XG_SHMEM_DEFINE(void, put##SIZE##_nbi,                                    \
                    (void *dest, const void *source, size_t nelems, int pe),  \
                    XG_RMA_SITE_NBI((SIZE) / 8, 1)                            \
                        rma_put(gctx, &site, dest, source, nelems, pe);)      \
    XG_SHMEM_DEFINE(void, get##SIZE##_nbi,                                    \
                    (void *dest, const void *source, size_t nelems, int pe),  \
                    XG_RMA_SITE_NBI((SIZE) / 8, 0)                            \
                        rma_get(gctx, &site, dest, source, nelems, pe);)      \
    XG_SHMEM_DEFINE(void, iput##SIZE,                                         \
                    (void *dest, const void *source, ptrdiff_t dst,           \
                     ptrdiff_t sst, size_t nelems, int pe),                   \
                    rma_strided(__func__, gctx, 1, dest, source, dst, sst, 1, \
                                nelems, (SIZE) / 8, pe);)                     \
    XG_SHMEM_DEFINE(void, iget##SIZE,                                         \
                    (void *dest, const void *source, ptrdiff_t dst,           \
                     ptrdiff_t sst, size_t nelems, int pe),                   \
                    rma_strided(__func__, gctx, 0, dest, source, dst, sst, 1, \
                                nelems, (SIZE) / 8, pe);)                     \
    XG_SHMEM_DEFINE(void, ibput##SIZE,                                        \
                    (void *dest, const void *source, ptrdiff_t dst,           \
                     ptrdiff_t sst, size_t bsize, size_t nblocks, int pe),    \
                    rma_strided(__func__, gctx, 1, dest, source, dst, sst,    \
                                bsize, nblocks, (SIZE) / 8, pe);)             \
    XG_SHMEM_DEFINE(void, ibget##SIZE,                                        \
                    (void *dest, const void *source, ptrdiff_t dst,           \
                     ptrdiff_t sst, size_t bsize, size_t nblocks, int pe),    \
                    rma_strided(__func__, gctx, 0, dest, source, dst, sst,    \
                                bsize, nblocks, (SIZE) / 8, pe);)

XG_SHMEM_RMA_SIZES(XG_RMA_DEFINE_SIZED)

XG_SHMEM_DEFINE(void, putmem,
                (void *dest, const void *source, size_t nelems, int pe),
                XG_RMA_SITE(1, 1)
                    rma_put(gctx, &site, dest, source, nelems, pe);)
XG_SHMEM_DEFINE(void, getmem,
                (void *dest, const void *source, size_t nelems, int pe),
                XG_RMA_SITE(1, 0)
                    rma_get(gctx, &site, dest, source, nelems, pe);)
XG_SHMEM_DEFINE(void, putmem_nbi,
                (void *dest, const void *source, size_t nelems, int pe),
                XG_RMA_SITE_NBI(1, 1)
                    rma_put(gctx, &site, dest, source, nelems, pe);)
XG_SHMEM_DEFINE(void, getmem_nbi,
                (void *dest, const void *source, size_t nelems, int pe),
                XG_RMA_SITE_NBI(1, 0)
                    rma_get(gctx, &site, dest, source, nelems, pe);)

/*
 * Put-with-signal: gas puts the data, then updates the signal atomically,
 * release ordered after the data, so a PE that sees the signal -- through
 * shmem_signal_wait_until, shmem_signal_fetch or any wait routine -- also
 * sees the data.  A bad sig_op ends the job before any data moves.
 */
XG_NORETURN XG_NOINLINE static void rma_bad_sig_op(const char *routine,
                                                   int sig_op)
{
    xg_shmem_fail(routine,
                  "signal operation %d is neither SHMEM_SIGNAL_SET "
                  "(%d) nor SHMEM_SIGNAL_ADD (%d)",
                  sig_op, SHMEM_SIGNAL_SET, SHMEM_SIGNAL_ADD);
}

/* The gas form of @sig_op, which the caller checked. */
static XG_ALWAYS_INLINE xg_gas_signal_op_t rma_sig_op(int sig_op)
{
    return (sig_op == SHMEM_SIGNAL_SET) ? XG_GAS_SIGNAL_SET : XG_GAS_SIGNAL_ADD;
}

static XG_ALWAYS_INLINE void rma_signal(const char *routine, xg_gas_ctx_t *gctx,
                                        uint64_t *sig_addr, uint64_t signal,
                                        int sig_op, int pe)
{
    xg_status_t status;

    if (xg_unlikely((sig_op != SHMEM_SIGNAL_SET) &&
                    (sig_op != SHMEM_SIGNAL_ADD))) {
        rma_bad_sig_op(routine, sig_op);
    }
    status = xg_gas_signal(gctx, sig_addr, signal, rma_sig_op(sig_op), pe);
    if (xg_unlikely(status != XG_OK)) {
        xg_shmem_status_fail(routine, status, sig_addr, sizeof(*sig_addr), pe);
    }
}

/* Which of the two targets of a put-with-signal @status is about: the
 * data's unless the data's range is valid. */
XG_NORETURN XG_NOINLINE static void rma_put_signal_fail(const char *routine,
                                                        xg_status_t status,
                                                        void *dest, size_t len,
                                                        uint64_t *sig_addr,
                                                        int pe)
{
    if ((status != XG_ERR_MISALIGNED) &&
        (xg_gas_diagnose(dest, len, pe) != XG_OK)) {
        xg_shmem_status_fail(routine, status, dest, len, pe);
    }
    xg_shmem_status_fail(routine, status, sig_addr, sizeof(*sig_addr), pe);
}

static XG_ALWAYS_INLINE void rma_put_signal(const char *routine,
                                            xg_gas_ctx_t *gctx, void *dest,
                                            const void *source, size_t nelems,
                                            size_t size, uint64_t *sig_addr,
                                            uint64_t signal, int sig_op, int pe)
{
    size_t len = rma_bytes(routine, nelems, size);
    xg_status_t status;

    if (xg_unlikely((sig_op != SHMEM_SIGNAL_SET) &&
                    (sig_op != SHMEM_SIGNAL_ADD))) {
        rma_bad_sig_op(routine, sig_op); /* before any data moves */
    }
    if (xg_unlikely(rma_unusual(len, source))) {
        rma_check_edge(routine, 1, source, nelems, len);
    }
    status = xg_gas_put_signal(gctx, dest, source, len, sig_addr, signal,
                               rma_sig_op(sig_op), pe);
    if (xg_unlikely(status != XG_OK)) {
        rma_put_signal_fail(routine, status, dest, len, sig_addr, pe);
    }
}

#define XG_RMA_SIGNAL_PARAMS(TYPE)                                       \
    (TYPE * dest, const TYPE *source, size_t nelems, uint64_t *sig_addr, \
     uint64_t signal, int sig_op, int pe)

#define XG_RMA_DEFINE_PUT_SIGNAL(NAME, TYPE, SIZE)                             \
    XG_SHMEM_DEFINE(void, NAME##_signal, XG_RMA_SIGNAL_PARAMS(TYPE),           \
                    rma_put_signal(__func__, gctx, dest, source, nelems, SIZE, \
                                   sig_addr, signal, sig_op, pe);)             \
    XG_SHMEM_DEFINE(void, NAME##_signal_nbi, XG_RMA_SIGNAL_PARAMS(TYPE),       \
                    rma_put_signal(__func__, gctx, dest, source, nelems, SIZE, \
                                   sig_addr, signal, sig_op, pe);)

#define XG_RMA_DEFINE_PUT_SIGNAL_TYPED(TYPE, TYPENAME) \
    XG_RMA_DEFINE_PUT_SIGNAL(TYPENAME##_put, TYPE, sizeof(TYPE))
XG_SHMEM_RMA_TYPES(XG_RMA_DEFINE_PUT_SIGNAL_TYPED)

#define XG_RMA_DEFINE_PUT_SIGNAL_SIZED(SIZE) \
    XG_RMA_DEFINE_PUT_SIGNAL(put##SIZE, void, (SIZE) / 8)
XG_SHMEM_RMA_SIZES(XG_RMA_DEFINE_PUT_SIGNAL_SIZED)

XG_RMA_DEFINE_PUT_SIGNAL(putmem, void, 1)

/* Signal updates without data (OpenSHMEM 1.6). */
XG_SHMEM_DEFINE(void, signal_add,
                (uint64_t * sig_addr, uint64_t signal, int pe),
                rma_signal(__func__, gctx, sig_addr, signal, SHMEM_SIGNAL_ADD,
                           pe);)
XG_SHMEM_DEFINE(void, signal_set,
                (uint64_t * sig_addr, uint64_t signal, int pe),
                rma_signal(__func__, gctx, sig_addr, signal, SHMEM_SIGNAL_SET,
                           pe);)

XG_SHMEM_API uint64_t shmem_signal_fetch(const uint64_t *sig_addr)
{
    xg_gas_amo_result_t result =
        xg_gas_amo(XG_SHMEM_GAS_DEFAULT, XG_GAS_AMO_FETCH, (uint64_t *)sig_addr,
                   sizeof(*sig_addr), 0, 0, xg_gas.me);

    if (xg_unlikely(result.status != XG_OK)) {
        xg_shmem_status_fail(__func__, result.status, sig_addr,
                             sizeof(*sig_addr), xg_gas.me);
    }
    return result.old;
}
XG_PSHMEM(shmem_signal_fetch)
