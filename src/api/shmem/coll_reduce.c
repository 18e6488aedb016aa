/*
 * OpenSHMEM reductions and scans: shmem_TYPENAME_OP_reduce on teams, the
 * 1.6 sum scans, and the deprecated shmem_TYPENAME_OP_to_all.  One
 * combining kernel per (type, operation), generated from the type tables
 * of xgas_shmem_coll.h, is handed to the collective engine, which runs the
 * tree or the reduce-scatter algorithm (gas/xg_coll.h).
 *
 * Signed integer sums and products are computed in the matching unsigned
 * type and converted back, so they wrap around like the hardware instead of
 * overflowing (undefined in C); narrow types go through unsigned int, which
 * cannot overflow either.
 */
#include <limits.h>
#include <stdint.h>

#include "api/shmem/coll_int.h"

/* The type sums and products of TYPENAME are computed in. */
#define XG_RED_ARITH_char       unsigned int
#define XG_RED_ARITH_schar      unsigned int
#define XG_RED_ARITH_short      unsigned int
#define XG_RED_ARITH_int        unsigned int
#define XG_RED_ARITH_long       unsigned long
#define XG_RED_ARITH_longlong   unsigned long long
#define XG_RED_ARITH_ptrdiff    size_t
#define XG_RED_ARITH_uchar      unsigned int
#define XG_RED_ARITH_ushort     unsigned int
#define XG_RED_ARITH_uint       unsigned int
#define XG_RED_ARITH_ulong      unsigned long
#define XG_RED_ARITH_ulonglong  unsigned long long
#define XG_RED_ARITH_int8       unsigned int
#define XG_RED_ARITH_int16      unsigned int
#define XG_RED_ARITH_int32      uint32_t
#define XG_RED_ARITH_int64      uint64_t
#define XG_RED_ARITH_uint8      unsigned int
#define XG_RED_ARITH_uint16     unsigned int
#define XG_RED_ARITH_uint32     uint32_t
#define XG_RED_ARITH_uint64     uint64_t
#define XG_RED_ARITH_size       size_t
#define XG_RED_ARITH_float      float
#define XG_RED_ARITH_double     double
#define XG_RED_ARITH_longdouble long double
#define XG_RED_ARITH_complexd   double _Complex
#define XG_RED_ARITH_complexf   float _Complex

/* Class of TYPENAME for the mismatch check: 0 unsigned, 1 signed,
 * 2 real, 3 complex. */
#define XG_RED_CLASS_char       ((CHAR_MIN < 0) ? 1 : 0)
#define XG_RED_CLASS_schar      1
#define XG_RED_CLASS_short      1
#define XG_RED_CLASS_int        1
#define XG_RED_CLASS_long       1
#define XG_RED_CLASS_longlong   1
#define XG_RED_CLASS_ptrdiff    1
#define XG_RED_CLASS_uchar      0
#define XG_RED_CLASS_ushort     0
#define XG_RED_CLASS_uint       0
#define XG_RED_CLASS_ulong      0
#define XG_RED_CLASS_ulonglong  0
#define XG_RED_CLASS_int8       1
#define XG_RED_CLASS_int16      1
#define XG_RED_CLASS_int32      1
#define XG_RED_CLASS_int64      1
#define XG_RED_CLASS_uint8      0
#define XG_RED_CLASS_uint16     0
#define XG_RED_CLASS_uint32     0
#define XG_RED_CLASS_uint64     0
#define XG_RED_CLASS_size       0
#define XG_RED_CLASS_float      2
#define XG_RED_CLASS_double     2
#define XG_RED_CLASS_longdouble 2
#define XG_RED_CLASS_complexd   3
#define XG_RED_CLASS_complexf   3

#define XG_RED_OP_and  1
#define XG_RED_OP_or   2
#define XG_RED_OP_xor  3
#define XG_RED_OP_max  4
#define XG_RED_OP_min  5
#define XG_RED_OP_sum  6
#define XG_RED_OP_prod 7

/* Identifies (operation, element size, class) across PEs. */
#define XG_RED_ID(TYPE, TYPENAME, OP)                                      \
    (((uint64_t)XG_RED_OP_##OP << 16) | ((uint64_t)sizeof(TYPE) << 8) |    \
     (uint64_t)(XG_RED_CLASS_##TYPENAME))

#define XG_RED_EXPR_and(T, A, x, y)  ((T)((x) & (y)))
#define XG_RED_EXPR_or(T, A, x, y)   ((T)((x) | (y)))
#define XG_RED_EXPR_xor(T, A, x, y)  ((T)((x) ^ (y)))
#define XG_RED_EXPR_max(T, A, x, y)  (((y) > (x)) ? (y) : (x))
#define XG_RED_EXPR_min(T, A, x, y)  (((y) < (x)) ? (y) : (x))
#define XG_RED_EXPR_sum(T, A, x, y)  ((T)((A)(x) + (A)(y)))
#define XG_RED_EXPR_prod(T, A, x, y) ((T)((A)(x) * (A)(y)))

/* ---- kernels ------------------------------------------------------------ */

#define XG_RED_KERNEL(TYPE, TYPENAME, OP)                                  \
    static void red_##TYPENAME##_##OP(void *acc, const void *in, size_t n) \
    {                                                                      \
        TYPE *restrict a = acc;                                            \
        const TYPE *restrict b = in;                                       \
        size_t i;                                                          \
                                                                           \
        for (i = 0; i < n; i++) {                                          \
            a[i] = XG_RED_EXPR_##OP(TYPE, XG_RED_ARITH_##TYPENAME, a[i],   \
                                    b[i]);                                 \
        }                                                                  \
    }
#define XG_RED_KERNELS_BITWISE(TYPE, TYPENAME)                             \
    XG_RED_KERNEL(TYPE, TYPENAME, and)                                     \
    XG_RED_KERNEL(TYPE, TYPENAME, or)                                      \
    XG_RED_KERNEL(TYPE, TYPENAME, xor)
#define XG_RED_KERNELS_MINMAX(TYPE, TYPENAME)                              \
    XG_RED_KERNEL(TYPE, TYPENAME, max)                                     \
    XG_RED_KERNEL(TYPE, TYPENAME, min)
#define XG_RED_KERNELS_ARITH(TYPE, TYPENAME)                               \
    XG_RED_KERNEL(TYPE, TYPENAME, sum)                                     \
    XG_RED_KERNEL(TYPE, TYPENAME, prod)
XG_SHMEM_REDUCE_BITWISE_TYPES(XG_RED_KERNELS_BITWISE)
XG_SHMEM_TOALL_BITWISE_TYPES(XG_RED_KERNELS_BITWISE) /* short..long long */
XG_SHMEM_REDUCE_MINMAX_TYPES(XG_RED_KERNELS_MINMAX)
XG_SHMEM_REDUCE_ARITH_TYPES(XG_RED_KERNELS_ARITH)

/* ---- team reductions and scans ------------------------------------------ */

static int coll_reduce(const char *routine, shmem_team_t team, void *dest,
                       const void *source, size_t nreduce, size_t elem_size,
                       xg_coll_op_t op, uint64_t opid)
{
    xg_team_t *t = xg_shmem_coll_team(routine, team);
    size_t nbytes = xg_shmem_coll_bytes(routine, nreduce, elem_size);
    xg_coll_t coll;

    xg_shmem_coll_buf(routine, dest, nbytes);
    xg_shmem_coll_buf(routine, source, nbytes);
    xg_shmem_coll_overlap(routine, dest, source, nbytes);
    xg_coll_team(&coll, t, routine);
    xg_coll_reduce(&coll, dest, source, nreduce, elem_size, op, opid);
    return 0;
}

static int coll_scan(const char *routine, shmem_team_t team, void *dest,
                     const void *source, size_t nreduce, size_t elem_size,
                     xg_coll_op_t op, uint64_t opid, int exclusive)
{
    xg_team_t *t = xg_shmem_coll_team(routine, team);
    size_t nbytes = xg_shmem_coll_bytes(routine, nreduce, elem_size);
    xg_coll_t coll;

    xg_shmem_coll_buf(routine, dest, nbytes);
    xg_shmem_coll_buf(routine, source, nbytes);
    xg_shmem_coll_overlap(routine, dest, source, nbytes);
    xg_coll_team(&coll, t, routine);
    xg_coll_scan(&coll, dest, source, nreduce, elem_size, op, opid,
                 exclusive);
    return 0;
}

#define XG_DEFINE_REDUCE(TYPE, TYPENAME, OP)                               \
    XG_SHMEM_API int shmem_##TYPENAME##_##OP##_reduce(                     \
        shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce) \
    {                                                                      \
        return coll_reduce(__func__, team, dest, source, nreduce,          \
                           sizeof(TYPE), red_##TYPENAME##_##OP,            \
                           XG_RED_ID(TYPE, TYPENAME, OP));                 \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_##OP##_reduce)
#define XG_DEFINE_SCAN(TYPE, TYPENAME, KIND, EXCLUSIVE)                    \
    XG_SHMEM_API int shmem_##TYPENAME##_sum_##KIND(                        \
        shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce) \
    {                                                                      \
        return coll_scan(__func__, team, dest, source, nreduce,            \
                         sizeof(TYPE), red_##TYPENAME##_sum,               \
                         XG_RED_ID(TYPE, TYPENAME, sum), EXCLUSIVE);       \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_sum_##KIND)
#define XG_DEFINE_REDUCE_BITWISE(TYPE, TYPENAME)                           \
    XG_DEFINE_REDUCE(TYPE, TYPENAME, and)                                  \
    XG_DEFINE_REDUCE(TYPE, TYPENAME, or)                                   \
    XG_DEFINE_REDUCE(TYPE, TYPENAME, xor)
#define XG_DEFINE_REDUCE_MINMAX(TYPE, TYPENAME)                            \
    XG_DEFINE_REDUCE(TYPE, TYPENAME, max)                                  \
    XG_DEFINE_REDUCE(TYPE, TYPENAME, min)
#define XG_DEFINE_REDUCE_ARITH(TYPE, TYPENAME)                             \
    XG_DEFINE_REDUCE(TYPE, TYPENAME, sum)                                  \
    XG_DEFINE_REDUCE(TYPE, TYPENAME, prod)                                 \
    XG_DEFINE_SCAN(TYPE, TYPENAME, inscan, 0)                              \
    XG_DEFINE_SCAN(TYPE, TYPENAME, exscan, 1)
XG_SHMEM_REDUCE_BITWISE_TYPES(XG_DEFINE_REDUCE_BITWISE)
XG_SHMEM_REDUCE_MINMAX_TYPES(XG_DEFINE_REDUCE_MINMAX)
XG_SHMEM_REDUCE_ARITH_TYPES(XG_DEFINE_REDUCE_ARITH)

/* ---- deprecated active-set reductions ----------------------------------- */

static void coll_to_all(const char *routine, void *dest, const void *source,
                        int nreduce, int PE_start, int logPE_stride,
                        int PE_size, long *pSync, size_t elem_size,
                        xg_coll_op_t op, uint64_t opid)
{
    size_t nbytes;
    xg_coll_t coll;

    xg_shmem_coll_aset(routine, PE_start, logPE_stride, PE_size, pSync,
                       &coll);
    if (nreduce < 0) {
        xg_shmem_fail(routine, "nreduce %d is negative", nreduce);
    }
    nbytes = xg_shmem_coll_bytes(routine, (size_t)nreduce, elem_size);
    xg_shmem_coll_buf(routine, dest, nbytes);
    xg_shmem_coll_buf(routine, source, nbytes);
    xg_shmem_coll_overlap(routine, dest, source, nbytes);
    xg_coll_reduce(&coll, dest, source, (size_t)nreduce, elem_size, op, opid);
}

#define XG_DEFINE_TOALL(TYPE, TYPENAME, OP)                                \
    XG_SHMEM_API void shmem_##TYPENAME##_##OP##_to_all(                    \
        TYPE *dest, const TYPE *source, int nreduce, int PE_start,         \
        int logPE_stride, int PE_size, TYPE *pWrk, long *pSync)            \
    {                                                                      \
        (void)pWrk; /* the sources are read in place */                    \
        coll_to_all(__func__, dest, source, nreduce, PE_start,             \
                    logPE_stride, PE_size, pSync, sizeof(TYPE),            \
                    red_##TYPENAME##_##OP, XG_RED_ID(TYPE, TYPENAME, OP)); \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_##OP##_to_all)
#define XG_DEFINE_TOALL_BITWISE(TYPE, TYPENAME)                            \
    XG_DEFINE_TOALL(TYPE, TYPENAME, and)                                   \
    XG_DEFINE_TOALL(TYPE, TYPENAME, or)                                    \
    XG_DEFINE_TOALL(TYPE, TYPENAME, xor)
#define XG_DEFINE_TOALL_MINMAX(TYPE, TYPENAME)                             \
    XG_DEFINE_TOALL(TYPE, TYPENAME, max)                                   \
    XG_DEFINE_TOALL(TYPE, TYPENAME, min)
#define XG_DEFINE_TOALL_ARITH(TYPE, TYPENAME)                              \
    XG_DEFINE_TOALL(TYPE, TYPENAME, sum)                                   \
    XG_DEFINE_TOALL(TYPE, TYPENAME, prod)
XG_SHMEM_TOALL_BITWISE_TYPES(XG_DEFINE_TOALL_BITWISE)
XG_SHMEM_TOALL_MINMAX_TYPES(XG_DEFINE_TOALL_MINMAX)
XG_SHMEM_TOALL_ARITH_TYPES(XG_DEFINE_TOALL_ARITH)
