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
 * Contiguous transfers translate the remote range and copy it.  A transfer
 * of nothing returns before the translation, as its addresses may be
 * anything (NULL included).
 */
static XG_ALWAYS_INLINE void rma_put(const char *routine, void *dest,
                                     const void *source, size_t nelems,
                                     size_t size, int pe)
{
    size_t len = rma_bytes(routine, nelems, size);

    if (xg_unlikely(len == 0)) {
        xg_shmem_check_init(routine);
        return;
    }
    xg_gas_copy(xg_shmem_target(routine, dest, len, pe), source, len);
}

static XG_ALWAYS_INLINE void rma_get(const char *routine, void *dest,
                                     const void *source, size_t nelems,
                                     size_t size, int pe)
{
    size_t len = rma_bytes(routine, nelems, size);

    if (xg_unlikely(len == 0)) {
        xg_shmem_check_init(routine);
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

#define XG_RMA_DEFINE_TYPED(TYPE, TYPENAME)                                \
    XG_EXPORT void shmem_##TYPENAME##_put(TYPE *dest, const TYPE *source,  \
                                          size_t nelems, int pe)           \
    {                                                                      \
        rma_put(__func__, dest, source, nelems, sizeof(TYPE), pe);         \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_##TYPENAME##_get(TYPE *dest, const TYPE *source,  \
                                          size_t nelems, int pe)           \
    {                                                                      \
        rma_get(__func__, dest, source, nelems, sizeof(TYPE), pe);         \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_##TYPENAME##_put_nbi(TYPE *dest,                  \
                                              const TYPE *source,          \
                                              size_t nelems, int pe)       \
    {                                                                      \
        rma_put(__func__, dest, source, nelems, sizeof(TYPE), pe);         \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_##TYPENAME##_get_nbi(TYPE *dest,                  \
                                              const TYPE *source,          \
                                              size_t nelems, int pe)       \
    {                                                                      \
        rma_get(__func__, dest, source, nelems, sizeof(TYPE), pe);         \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_##TYPENAME##_p(TYPE *dest, TYPE value, int pe)    \
    {                                                                      \
        *(TYPE *)xg_shmem_target(__func__, dest, sizeof(TYPE), pe) =       \
            value;                                                         \
    }                                                                      \
                                                                           \
    XG_EXPORT TYPE shmem_##TYPENAME##_g(const TYPE *source, int pe)        \
    {                                                                      \
        return *(const TYPE *)xg_shmem_target(__func__, source,            \
                                              sizeof(TYPE), pe);           \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_##TYPENAME##_iput(TYPE *dest, const TYPE *source, \
                                           ptrdiff_t dst, ptrdiff_t sst,   \
                                           size_t nelems, int pe)          \
    {                                                                      \
        rma_strided(__func__, 1, dest, source, dst, sst, 1, nelems,        \
                    sizeof(TYPE), pe);                                     \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_##TYPENAME##_iget(TYPE *dest, const TYPE *source, \
                                           ptrdiff_t dst, ptrdiff_t sst,   \
                                           size_t nelems, int pe)          \
    {                                                                      \
        rma_strided(__func__, 0, dest, source, dst, sst, 1, nelems,        \
                    sizeof(TYPE), pe);                                     \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_##TYPENAME##_ibput(TYPE *dest,                    \
                                            const TYPE *source,            \
                                            ptrdiff_t dst, ptrdiff_t sst,  \
                                            size_t bsize, size_t nblocks,  \
                                            int pe)                        \
    {                                                                      \
        rma_strided(__func__, 1, dest, source, dst, sst, bsize, nblocks,   \
                    sizeof(TYPE), pe);                                     \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_##TYPENAME##_ibget(TYPE *dest,                    \
                                            const TYPE *source,            \
                                            ptrdiff_t dst, ptrdiff_t sst,  \
                                            size_t bsize, size_t nblocks,  \
                                            int pe)                        \
    {                                                                      \
        rma_strided(__func__, 0, dest, source, dst, sst, bsize, nblocks,   \
                    sizeof(TYPE), pe);                                     \
    }

XG_SHMEM_RMA_TYPES(XG_RMA_DEFINE_TYPED)

/* SIZE is in bits; the sized routines move elements of SIZE / 8 bytes. */
#define XG_RMA_DEFINE_SIZED(SIZE)                                          \
    XG_EXPORT void shmem_put##SIZE(void *dest, const void *source,         \
                                   size_t nelems, int pe)                  \
    {                                                                      \
        rma_put(__func__, dest, source, nelems, (SIZE) / 8, pe);           \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_get##SIZE(void *dest, const void *source,         \
                                   size_t nelems, int pe)                  \
    {                                                                      \
        rma_get(__func__, dest, source, nelems, (SIZE) / 8, pe);           \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_put##SIZE##_nbi(void *dest, const void *source,   \
                                         size_t nelems, int pe)            \
    {                                                                      \
        rma_put(__func__, dest, source, nelems, (SIZE) / 8, pe);           \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_get##SIZE##_nbi(void *dest, const void *source,   \
                                         size_t nelems, int pe)            \
    {                                                                      \
        rma_get(__func__, dest, source, nelems, (SIZE) / 8, pe);           \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_iput##SIZE(void *dest, const void *source,        \
                                    ptrdiff_t dst, ptrdiff_t sst,          \
                                    size_t nelems, int pe)                 \
    {                                                                      \
        rma_strided(__func__, 1, dest, source, dst, sst, 1, nelems,        \
                    (SIZE) / 8, pe);                                       \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_iget##SIZE(void *dest, const void *source,        \
                                    ptrdiff_t dst, ptrdiff_t sst,          \
                                    size_t nelems, int pe)                 \
    {                                                                      \
        rma_strided(__func__, 0, dest, source, dst, sst, 1, nelems,        \
                    (SIZE) / 8, pe);                                       \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_ibput##SIZE(void *dest, const void *source,       \
                                     ptrdiff_t dst, ptrdiff_t sst,         \
                                     size_t bsize, size_t nblocks, int pe) \
    {                                                                      \
        rma_strided(__func__, 1, dest, source, dst, sst, bsize, nblocks,   \
                    (SIZE) / 8, pe);                                       \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_ibget##SIZE(void *dest, const void *source,       \
                                     ptrdiff_t dst, ptrdiff_t sst,         \
                                     size_t bsize, size_t nblocks, int pe) \
    {                                                                      \
        rma_strided(__func__, 0, dest, source, dst, sst, bsize, nblocks,   \
                    (SIZE) / 8, pe);                                       \
    }

XG_SHMEM_RMA_SIZES(XG_RMA_DEFINE_SIZED)

XG_EXPORT void shmem_putmem(void *dest, const void *source, size_t nelems,
                            int pe)
{
    rma_put(__func__, dest, source, nelems, 1, pe);
}

XG_EXPORT void shmem_getmem(void *dest, const void *source, size_t nelems,
                            int pe)
{
    rma_get(__func__, dest, source, nelems, 1, pe);
}

XG_EXPORT void shmem_putmem_nbi(void *dest, const void *source,
                                size_t nelems, int pe)
{
    rma_put(__func__, dest, source, nelems, 1, pe);
}

XG_EXPORT void shmem_getmem_nbi(void *dest, const void *source,
                                size_t nelems, int pe)
{
    rma_get(__func__, dest, source, nelems, 1, pe);
}
