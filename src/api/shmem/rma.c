/*
 * OpenSHMEM remote memory access: put and get (contiguous, elemental,
 * strided, blocked strided, non-blocking), typed, sized and in bytes.
 *
 * Every PE of the job is on this node and reaches the others' symmetric
 * memory through the shared region, so a transfer is: translate the whole
 * remote range once (PE range check, NLB hit, bounds check), then copy with
 * CPU loads and stores.  p and g are one translation and one typed store or
 * load.  The _nbi forms therefore complete before they return, which the
 * specification allows (it only requires completion at shmem_quiet).
 *
 * OpenSHMEM leaves bad arguments undefined; here a PE out of range, a range
 * outside the symmetric memory, a stride below 1 or a length that overflows
 * ends the job with a message naming the routine.  A transfer of nothing
 * (nelems, bsize or nblocks 0) only checks that the library is initialized;
 * its addresses, strides and PE are not looked at.
 */
#include <string.h>

#include "api/shmem/shmem_int.h"
#include "api/shmem/shmem_types.h"

XG_NORETURN XG_NOINLINE static void rma_too_large(const char *routine,
                                                  size_t count, size_t size)
{
    xg_shmem_fail(routine, "%zu elements of %zu bytes exceed the address "
                  "space: check the element count", count, size);
}

/* Bytes of @nelems elements of @size bytes; the job ends on overflow. */
static inline size_t rma_bytes(const char *routine, size_t nelems,
                               size_t size)
{
    size_t len;

    if (xg_unlikely(__builtin_mul_overflow(nelems, size, &len))) {
        rma_too_large(routine, nelems, size);
    }
    return len;
}

/*
 * The unusual transfers, off the fast path: nothing to move (@len 0: only
 * initialization is checked, the addresses may be anything), a NULL local
 * buffer with something to move (the job ends, naming it), and lengths of
 * 2^63 bytes or more (the translation reports them).
 */
XG_NOINLINE static void rma_edge(const char *routine, int put, void *dest,
                                 const void *source, size_t nelems,
                                 size_t len, int pe)
{
    xg_shmem_check_init(routine);
    if (len == 0) {
        return;
    }
    if ((put ? source : dest) == NULL) {
        xg_shmem_fail(routine, "%s is NULL but nelems is %zu: pass a local "
                      "buffer that holds the elements",
                      put ? "source" : "dest", nelems);
    }
    if (put) {
        xg_gas_copy(xg_shmem_target(routine, dest, len, pe), source, len);
    } else {
        xg_gas_copy(dest, xg_shmem_target(routine, source, len, pe), len);
    }
}

/* One test for "@len is 0 or @local is NULL" (either makes its operand
 * minus one negative; so do lengths and user addresses of 2^63 and up,
 * which the edge path handles too): no extra branch on the fast path. */
static XG_ALWAYS_INLINE int rma_unusual(size_t len, const void *local)
{
    return (intptr_t)((len - 1) | ((uintptr_t)local - 1)) < 0;
}

/*
 * Contiguous transfers translate the remote range and copy it.  A transfer
 * of nothing returns before the translation, as its addresses may be
 * anything (NULL included).
 */
static XG_ALWAYS_INLINE void rma_put(const char *routine, void *dest,
                                     const void *source, size_t nelems,
                                     size_t size, int pe)
{
    size_t len = rma_bytes(routine, nelems, size);

    if (xg_unlikely(rma_unusual(len, source))) {
        rma_edge(routine, 1, dest, source, nelems, len, pe);
        return;
    }
    xg_gas_copy(xg_shmem_target(routine, dest, len, pe), source, len);
}

static XG_ALWAYS_INLINE void rma_get(const char *routine, void *dest,
                                     const void *source, size_t nelems,
                                     size_t size, int pe)
{
    size_t len = rma_bytes(routine, nelems, size);

    if (xg_unlikely(rma_unusual(len, dest))) {
        rma_edge(routine, 0, dest, source, nelems, len, pe);
        return;
    }
    xg_gas_copy(dest, xg_shmem_target(routine, source, len, pe), len);
}

XG_NORETURN XG_NOINLINE static void rma_bad_stride(const char *routine,
                                                   ptrdiff_t dst,
                                                   ptrdiff_t sst)
{
    xg_shmem_fail(routine, "strides dst=%td and sst=%td: both must be at "
                  "least 1 (1 means contiguous)", dst, sst);
}

XG_NORETURN XG_NOINLINE static void rma_bad_extent(const char *routine,
                                                   size_t nblocks,
                                                   ptrdiff_t stride,
                                                   size_t bsize, size_t size)
{
    xg_shmem_fail(routine, "%zu blocks of %zu elements of %zu bytes, %td "
                  "elements apart, exceed the address space: check the "
                  "stride and counts", nblocks, bsize, size, stride);
}

/* Copies @nblocks blocks of @block bytes that start @dstep bytes apart in
 * @to and @sstep bytes apart in @from. */
static inline void rma_copy_blocks(char *to, const char *from, size_t dstep,
                                   size_t sstep, size_t block,
                                   size_t nblocks)
{
    size_t i;

    for (i = 0; i < nblocks; i++) {
        memcpy(to + i * dstep, from + i * sstep, block);
    }
}

/*
 * Blocked strided transfer: @nblocks blocks of @bsize elements of @size
 * bytes; block i starts at element i * @dst of @dest and i * @sst of
 * @source (the strides of OpenSHMEM's iput/ibput, in elements).  iput and
 * iget are the case @bsize = 1.  The remote side (@dest for a put, @source
 * for a get) spans ((nblocks - 1) * stride + bsize) elements; that whole
 * extent is translated once, so the loop only copies.  One function serves
 * every type: blocks of 1, 2, 4, 8 or 16 bytes (each element of an iput)
 * are copied with a fixed-size move, longer ones with memcpy.
 */
XG_NOINLINE static void rma_strided(const char *routine, int put, void *dest,
                                    const void *source, ptrdiff_t dst,
                                    ptrdiff_t sst, size_t bsize,
                                    size_t nblocks, size_t size, int pe)
{
    ptrdiff_t stride = put ? dst : sst;
    size_t span, extent, block, dstep, sstep;
    char *to;
    const char *from;

    if ((nblocks == 0) || (bsize == 0)) {
        xg_shmem_check_init(routine);
        return;
    }
    if (xg_unlikely((put ? source : dest) == NULL)) {
        xg_shmem_fail(routine, "%s is NULL but nelems is %zu: pass a local "
                      "buffer that holds the elements",
                      put ? "source" : "dest", nblocks * bsize);
    }
    if (xg_unlikely((dst < 1) || (sst < 1))) {
        rma_bad_stride(routine, dst, sst);
    }
    if (xg_unlikely(__builtin_mul_overflow(nblocks - 1, (size_t)stride,
                                           &span) ||
                    __builtin_add_overflow(span, bsize, &span) ||
                    __builtin_mul_overflow(span, size, &extent))) {
        rma_bad_extent(routine, nblocks, stride, bsize, size);
    }
    if (put) {
        to   = xg_shmem_target(routine, dest, extent, pe);
        from = source;
    } else {
        to   = dest;
        from = xg_shmem_target(routine, source, extent, pe);
    }
    block = bsize * size;
    dstep = (size_t)dst * size;
    sstep = (size_t)sst * size;
    switch (block) {
    case 1:  rma_copy_blocks(to, from, dstep, sstep, 1, nblocks);  break;
    case 2:  rma_copy_blocks(to, from, dstep, sstep, 2, nblocks);  break;
    case 4:  rma_copy_blocks(to, from, dstep, sstep, 4, nblocks);  break;
    case 8:  rma_copy_blocks(to, from, dstep, sstep, 8, nblocks);  break;
    case 16: rma_copy_blocks(to, from, dstep, sstep, 16, nblocks); break;
    default: rma_copy_blocks(to, from, dstep, sstep, block, nblocks);
    }
}

/*
 * p and g: one translation and one typed store or load.  The slow path
 * (NLB miss, bad input) is a separate function that the fast path
 * tail-calls, so the fast path needs no stack frame.  Both return a value
 * (p a dummy 0) so that one macro serves both.
 */
#define XG_RMA_DEFINE_ELEMENT(TYPE, TYPENAME)                              \
    static XG_NOINLINE int rma_p_slow_##TYPENAME(const char *routine,      \
                                                 TYPE *dest, TYPE value,   \
                                                 int pe)                   \
    {                                                                      \
        *(TYPE *)xg_shmem_target_slow(routine, dest, sizeof(TYPE), pe) =   \
            value;                                                         \
        return 0;                                                          \
    }                                                                      \
                                                                           \
    static XG_ALWAYS_INLINE int rma_p_##TYPENAME(const char *routine,      \
                                                 TYPE *dest, TYPE value,   \
                                                 int pe)                   \
    {                                                                      \
        TYPE *ptr = xg_gas_translate_fast(dest, sizeof(TYPE), pe);         \
                                                                           \
        if (xg_unlikely(ptr == NULL)) {                                    \
            return rma_p_slow_##TYPENAME(routine, dest, value, pe);        \
        }                                                                  \
        *ptr = value;                                                      \
        return 0;                                                          \
    }                                                                      \
                                                                           \
    static XG_NOINLINE TYPE rma_g_slow_##TYPENAME(const char *routine,     \
                                                  const TYPE *source,      \
                                                  int pe)                  \
    {                                                                      \
        return *(const TYPE *)xg_shmem_target_slow(routine, source,        \
                                                   sizeof(TYPE), pe);      \
    }                                                                      \
                                                                           \
    static XG_ALWAYS_INLINE TYPE rma_g_##TYPENAME(const char *routine,     \
                                                  const TYPE *source,      \
                                                  int pe)                  \
    {                                                                      \
        const TYPE *ptr = xg_gas_translate_fast(source, sizeof(TYPE), pe); \
                                                                           \
        if (xg_unlikely(ptr == NULL)) {                                    \
            return rma_g_slow_##TYPENAME(routine, source, pe);             \
        }                                                                  \
        return *ptr;                                                       \
    }                                                                      \
                                                                           \
    XG_SHMEM_DEFINE(void, TYPENAME##_p, (TYPE *dest, TYPE value, int pe),  \
                    (void)rma_p_##TYPENAME(__func__, dest, value, pe);)    \
    XG_SHMEM_DEFINE(TYPE, TYPENAME##_g, (const TYPE *source, int pe),      \
                    return rma_g_##TYPENAME(__func__, source, pe);)

/* Contiguous, non-blocking and strided routines of TYPE: shmem_TYPENAME_put
 * and friends. */
#define XG_RMA_DEFINE_TYPED(TYPE, TYPENAME)                                \
    XG_RMA_DEFINE_ELEMENT(TYPE, TYPENAME)                                  \
    XG_SHMEM_DEFINE(void, TYPENAME##_put, (TYPE *dest, const TYPE *source, \
                                           size_t nelems, int pe),         \
                    rma_put(__func__, dest, source, nelems, sizeof(TYPE), \
                            pe);)                                          \
    XG_SHMEM_DEFINE(void, TYPENAME##_get, (TYPE *dest, const TYPE *source, \
                                           size_t nelems, int pe),         \
                    rma_get(__func__, dest, source, nelems, sizeof(TYPE), \
                            pe);)                                          \
    XG_SHMEM_DEFINE(void, TYPENAME##_put_nbi,                              \
                    (TYPE *dest, const TYPE *source, size_t nelems,        \
                     int pe),                                              \
                    rma_put(__func__, dest, source, nelems, sizeof(TYPE), \
                            pe);)                                          \
    XG_SHMEM_DEFINE(void, TYPENAME##_get_nbi,                              \
                    (TYPE *dest, const TYPE *source, size_t nelems,        \
                     int pe),                                              \
                    rma_get(__func__, dest, source, nelems, sizeof(TYPE), \
                            pe);)                                          \
    XG_SHMEM_DEFINE(void, TYPENAME##_iput,                                 \
                    (TYPE *dest, const TYPE *source, ptrdiff_t dst,        \
                     ptrdiff_t sst, size_t nelems, int pe),                \
                    rma_strided(__func__, 1, dest, source, dst, sst, 1,    \
                                nelems, sizeof(TYPE), pe);)                \
    XG_SHMEM_DEFINE(void, TYPENAME##_iget,                                 \
                    (TYPE *dest, const TYPE *source, ptrdiff_t dst,        \
                     ptrdiff_t sst, size_t nelems, int pe),                \
                    rma_strided(__func__, 0, dest, source, dst, sst, 1,    \
                                nelems, sizeof(TYPE), pe);)                \
    XG_SHMEM_DEFINE(void, TYPENAME##_ibput,                                \
                    (TYPE *dest, const TYPE *source, ptrdiff_t dst,        \
                     ptrdiff_t sst, size_t bsize, size_t nblocks, int pe), \
                    rma_strided(__func__, 1, dest, source, dst, sst,       \
                                bsize, nblocks, sizeof(TYPE), pe);)        \
    XG_SHMEM_DEFINE(void, TYPENAME##_ibget,                                \
                    (TYPE *dest, const TYPE *source, ptrdiff_t dst,        \
                     ptrdiff_t sst, size_t bsize, size_t nblocks, int pe), \
                    rma_strided(__func__, 0, dest, source, dst, sst,       \
                                bsize, nblocks, sizeof(TYPE), pe);)

XG_SHMEM_RMA_TYPES(XG_RMA_DEFINE_TYPED)

/* SIZE is in bits; the sized routines move elements of SIZE / 8 bytes. */
#define XG_RMA_DEFINE_SIZED(SIZE)                                          \
    XG_SHMEM_DEFINE(void, put##SIZE, (void *dest, const void *source,      \
                                      size_t nelems, int pe),              \
                    rma_put(__func__, dest, source, nelems, (SIZE) / 8,    \
                            pe);)                                          \
    XG_SHMEM_DEFINE(void, get##SIZE, (void *dest, const void *source,      \
                                      size_t nelems, int pe),              \
                    rma_get(__func__, dest, source, nelems, (SIZE) / 8,    \
                            pe);)                                          \
    XG_SHMEM_DEFINE(void, put##SIZE##_nbi,                                 \
                    (void *dest, const void *source, size_t nelems,        \
                     int pe),                                              \
                    rma_put(__func__, dest, source, nelems, (SIZE) / 8,    \
                            pe);)                                          \
    XG_SHMEM_DEFINE(void, get##SIZE##_nbi,                                 \
                    (void *dest, const void *source, size_t nelems,        \
                     int pe),                                              \
                    rma_get(__func__, dest, source, nelems, (SIZE) / 8,    \
                            pe);)                                          \
    XG_SHMEM_DEFINE(void, iput##SIZE,                                      \
                    (void *dest, const void *source, ptrdiff_t dst,        \
                     ptrdiff_t sst, size_t nelems, int pe),                \
                    rma_strided(__func__, 1, dest, source, dst, sst, 1,    \
                                nelems, (SIZE) / 8, pe);)                  \
    XG_SHMEM_DEFINE(void, iget##SIZE,                                      \
                    (void *dest, const void *source, ptrdiff_t dst,        \
                     ptrdiff_t sst, size_t nelems, int pe),                \
                    rma_strided(__func__, 0, dest, source, dst, sst, 1,    \
                                nelems, (SIZE) / 8, pe);)                  \
    XG_SHMEM_DEFINE(void, ibput##SIZE,                                     \
                    (void *dest, const void *source, ptrdiff_t dst,        \
                     ptrdiff_t sst, size_t bsize, size_t nblocks, int pe), \
                    rma_strided(__func__, 1, dest, source, dst, sst,       \
                                bsize, nblocks, (SIZE) / 8, pe);)          \
    XG_SHMEM_DEFINE(void, ibget##SIZE,                                     \
                    (void *dest, const void *source, ptrdiff_t dst,        \
                     ptrdiff_t sst, size_t bsize, size_t nblocks, int pe), \
                    rma_strided(__func__, 0, dest, source, dst, sst,       \
                                bsize, nblocks, (SIZE) / 8, pe);)

XG_SHMEM_RMA_SIZES(XG_RMA_DEFINE_SIZED)

XG_SHMEM_DEFINE(void, putmem, (void *dest, const void *source, size_t nelems,
                               int pe),
                rma_put(__func__, dest, source, nelems, 1, pe);)
XG_SHMEM_DEFINE(void, getmem, (void *dest, const void *source, size_t nelems,
                               int pe),
                rma_get(__func__, dest, source, nelems, 1, pe);)
XG_SHMEM_DEFINE(void, putmem_nbi, (void *dest, const void *source,
                                   size_t nelems, int pe),
                rma_put(__func__, dest, source, nelems, 1, pe);)
XG_SHMEM_DEFINE(void, getmem_nbi, (void *dest, const void *source,
                                   size_t nelems, int pe),
                rma_get(__func__, dest, source, nelems, 1, pe);)

/*
 * Put-with-signal: the data, then the signal, each reaching the target's
 * memory directly.  The signal update is atomic (a release store for
 * SHMEM_SIGNAL_SET, an atomic add for SHMEM_SIGNAL_ADD), and release
 * ordered after the data, so a PE that sees the signal -- through
 * shmem_signal_wait_until, shmem_signal_fetch or any wait routine -- also
 * sees the data.  (Large copies may use non-temporal stores; the C library's
 * memcpy ends those with a store fence, which the release then orders.)
 */
XG_NORETURN XG_NOINLINE static void rma_bad_sig_op(const char *routine,
                                                   int sig_op)
{
    xg_shmem_fail(routine, "signal operation %d is neither SHMEM_SIGNAL_SET "
                  "(%d) nor SHMEM_SIGNAL_ADD (%d)", sig_op, SHMEM_SIGNAL_SET,
                  SHMEM_SIGNAL_ADD);
}

static XG_ALWAYS_INLINE void rma_signal(const char *routine,
                                        uint64_t *sig_addr, uint64_t signal,
                                        int sig_op, int pe)
{
    uint64_t *sig = xg_shmem_atomic_target(routine, sig_addr,
                                           sizeof(*sig_addr), pe);

    if (sig_op == SHMEM_SIGNAL_SET) {
        __atomic_store_n(sig, signal, __ATOMIC_RELEASE);
    } else if (xg_likely(sig_op == SHMEM_SIGNAL_ADD)) {
        __atomic_add_fetch(sig, signal, __ATOMIC_SEQ_CST);
    } else {
        rma_bad_sig_op(routine, sig_op);
    }
}

static XG_ALWAYS_INLINE void rma_put_signal(const char *routine, void *dest,
                                            const void *source,
                                            size_t nelems, size_t size,
                                            uint64_t *sig_addr,
                                            uint64_t signal, int sig_op,
                                            int pe)
{
    if (xg_unlikely((sig_op != SHMEM_SIGNAL_SET) &&
                    (sig_op != SHMEM_SIGNAL_ADD))) {
        rma_bad_sig_op(routine, sig_op); /* before any data moves */
    }
    rma_put(routine, dest, source, nelems, size, pe);
    rma_signal(routine, sig_addr, signal, sig_op, pe);
}

#define XG_RMA_SIGNAL_PARAMS(TYPE)                                         \
    (TYPE *dest, const TYPE *source, size_t nelems, uint64_t *sig_addr,    \
     uint64_t signal, int sig_op, int pe)

#define XG_RMA_DEFINE_PUT_SIGNAL(NAME, TYPE, SIZE)                         \
    XG_SHMEM_DEFINE(void, NAME##_signal, XG_RMA_SIGNAL_PARAMS(TYPE),       \
                    rma_put_signal(__func__, dest, source, nelems, SIZE,   \
                                   sig_addr, signal, sig_op, pe);)         \
    XG_SHMEM_DEFINE(void, NAME##_signal_nbi, XG_RMA_SIGNAL_PARAMS(TYPE),   \
                    rma_put_signal(__func__, dest, source, nelems, SIZE,   \
                                   sig_addr, signal, sig_op, pe);)

#define XG_RMA_DEFINE_PUT_SIGNAL_TYPED(TYPE, TYPENAME)                     \
    XG_RMA_DEFINE_PUT_SIGNAL(TYPENAME##_put, TYPE, sizeof(TYPE))
XG_SHMEM_RMA_TYPES(XG_RMA_DEFINE_PUT_SIGNAL_TYPED)

#define XG_RMA_DEFINE_PUT_SIGNAL_SIZED(SIZE)                               \
    XG_RMA_DEFINE_PUT_SIGNAL(put##SIZE, void, (SIZE) / 8)
XG_SHMEM_RMA_SIZES(XG_RMA_DEFINE_PUT_SIGNAL_SIZED)

XG_RMA_DEFINE_PUT_SIGNAL(putmem, void, 1)

/* Signal updates without data (OpenSHMEM 1.6). */
XG_SHMEM_DEFINE(void, signal_add, (uint64_t *sig_addr, uint64_t signal,
                                   int pe),
                rma_signal(__func__, sig_addr, signal, SHMEM_SIGNAL_ADD,
                           pe);)
XG_SHMEM_DEFINE(void, signal_set, (uint64_t *sig_addr, uint64_t signal,
                                   int pe),
                rma_signal(__func__, sig_addr, signal, SHMEM_SIGNAL_SET,
                           pe);)

XG_SHMEM_API uint64_t shmem_signal_fetch(const uint64_t *sig_addr)
{
    const uint64_t *sig = xg_shmem_atomic_target(
        __func__, sig_addr, sizeof(*sig_addr), xg_gas.me);

    return __atomic_load_n(sig, __ATOMIC_ACQUIRE);
}
XG_PSHMEM(shmem_signal_fetch)
