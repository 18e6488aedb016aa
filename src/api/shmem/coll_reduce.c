/*
 * OpenSHMEM reductions and scans: shmem_TYPENAME_OP_reduce on teams, the
 * 1.6 sum scans, and the deprecated shmem_TYPENAME_OP_to_all.  Each routine
 * names its (operation, type) of the typed-operation table (base/xg_op.h),
 * whose combining loops the collective engine runs in the tree or the
 * reduce-scatter algorithm (gas/coll/xg_coll.h).  Signed integer sums and
 * products wrap around like the hardware.
 */
#include "api/shmem/coll_int.h"

/* The table's operation for each OP of the routine names. */
#define XG_RED_OP_and  XG_OP_BAND
#define XG_RED_OP_or   XG_OP_BOR
#define XG_RED_OP_xor  XG_OP_BXOR
#define XG_RED_OP_max  XG_OP_MAX
#define XG_RED_OP_min  XG_OP_MIN
#define XG_RED_OP_sum  XG_OP_SUM
#define XG_RED_OP_prod XG_OP_PROD

/* ---- team reductions and scans ------------------------------------------ */

static int coll_reduce(const char *routine, shmem_team_t team, void *dest,
                       const void *source, size_t nreduce, xg_op_t op,
                       xg_op_type_t type)
{
    xg_team_t *t = xg_shmem_coll_team(routine, team);
    size_t nbytes =
        xg_shmem_coll_bytes(routine, nreduce, xg_op_type_size(type));
    xg_coll_t coll;

    xg_shmem_coll_buf(routine, dest, nbytes);
    xg_shmem_coll_buf(routine, source, nbytes);
    xg_shmem_coll_overlap(routine, dest, source, nbytes);
    xg_coll_team(&coll, t, routine);
    xg_coll_reduce(&coll, dest, source, nreduce, op, type);
    return 0;
}

static int coll_scan(const char *routine, shmem_team_t team, void *dest,
                     const void *source, size_t nreduce, xg_op_type_t type,
                     int exclusive)
{
    xg_team_t *t = xg_shmem_coll_team(routine, team);
    size_t nbytes =
        xg_shmem_coll_bytes(routine, nreduce, xg_op_type_size(type));
    xg_coll_t coll;

    xg_shmem_coll_buf(routine, dest, nbytes);
    xg_shmem_coll_buf(routine, source, nbytes);
    xg_shmem_coll_overlap(routine, dest, source, nbytes);
    xg_coll_team(&coll, t, routine);
    xg_coll_scan(&coll, dest, source, nreduce, XG_OP_SUM, type, exclusive);
    return 0;
}

#define XG_DEFINE_REDUCE(TYPE, TYPENAME, OP)                               \
    XG_SHMEM_API int shmem_##TYPENAME##_##OP##_reduce(                     \
        shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce) \
    {                                                                      \
        return coll_reduce(__func__, team, dest, source, nreduce,          \
                           XG_RED_OP_##OP, XG_TYPE_OF(TYPE));              \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_##OP##_reduce)
#define XG_DEFINE_SCAN(TYPE, TYPENAME, KIND, EXCLUSIVE)                    \
    XG_SHMEM_API int shmem_##TYPENAME##_sum_##KIND(                        \
        shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce) \
    {                                                                      \
        return coll_scan(__func__, team, dest, source, nreduce,            \
                         XG_TYPE_OF(TYPE), EXCLUSIVE);                     \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_sum_##KIND)
#define XG_DEFINE_REDUCE_BITWISE(TYPE, TYPENAME) \
    XG_DEFINE_REDUCE(TYPE, TYPENAME, and)        \
    XG_DEFINE_REDUCE(TYPE, TYPENAME, or)         \
    XG_DEFINE_REDUCE(TYPE, TYPENAME, xor)
#define XG_DEFINE_REDUCE_MINMAX(TYPE, TYPENAME) \
    XG_DEFINE_REDUCE(TYPE, TYPENAME, max)       \
    XG_DEFINE_REDUCE(TYPE, TYPENAME, min)
#define XG_DEFINE_REDUCE_ARITH(TYPE, TYPENAME) \
    XG_DEFINE_REDUCE(TYPE, TYPENAME, sum)      \
    XG_DEFINE_REDUCE(TYPE, TYPENAME, prod)     \
    XG_DEFINE_SCAN(TYPE, TYPENAME, inscan, 0)  \
    XG_DEFINE_SCAN(TYPE, TYPENAME, exscan, 1)
XG_SHMEM_REDUCE_BITWISE_TYPES(XG_DEFINE_REDUCE_BITWISE)
XG_SHMEM_REDUCE_MINMAX_TYPES(XG_DEFINE_REDUCE_MINMAX)
XG_SHMEM_REDUCE_ARITH_TYPES(XG_DEFINE_REDUCE_ARITH)

/* ---- deprecated active-set reductions ----------------------------------- */

static void coll_to_all(const char *routine, void *dest, const void *source,
                        int nreduce, int PE_start, int logPE_stride,
                        int PE_size, long *pSync, xg_op_t op, xg_op_type_t type)
{
    size_t nbytes;
    xg_coll_t coll;

    xg_shmem_coll_aset(routine, PE_start, logPE_stride, PE_size, pSync, &coll);
    if (nreduce < 0) {
        xg_shmem_fail(routine, "nreduce %d is negative", nreduce);
    }
    nbytes =
        xg_shmem_coll_bytes(routine, (size_t)nreduce, xg_op_type_size(type));
    xg_shmem_coll_buf(routine, dest, nbytes);
    xg_shmem_coll_buf(routine, source, nbytes);
    xg_shmem_coll_overlap(routine, dest, source, nbytes);
    xg_coll_reduce(&coll, dest, source, (size_t)nreduce, op, type);
}

#define XG_DEFINE_TOALL(TYPE, TYPENAME, OP)                                  \
    XG_SHMEM_API void shmem_##TYPENAME##_##OP##_to_all(                      \
        TYPE *dest, const TYPE *source, int nreduce, int PE_start,           \
        int logPE_stride, int PE_size, TYPE *pWrk, long *pSync)              \
    {                                                                        \
        (void)pWrk; /* the sources are read in place */                      \
        coll_to_all(__func__, dest, source, nreduce, PE_start, logPE_stride, \
                    PE_size, pSync, XG_RED_OP_##OP, XG_TYPE_OF(TYPE));       \
    }                                                                        \
    XG_PSHMEM(shmem_##TYPENAME##_##OP##_to_all)
#define XG_DEFINE_TOALL_BITWISE(TYPE, TYPENAME) \
    XG_DEFINE_TOALL(TYPE, TYPENAME, and)        \
    XG_DEFINE_TOALL(TYPE, TYPENAME, or)         \
    XG_DEFINE_TOALL(TYPE, TYPENAME, xor)
#define XG_DEFINE_TOALL_MINMAX(TYPE, TYPENAME) \
    XG_DEFINE_TOALL(TYPE, TYPENAME, max)       \
    XG_DEFINE_TOALL(TYPE, TYPENAME, min)
#define XG_DEFINE_TOALL_ARITH(TYPE, TYPENAME) \
    XG_DEFINE_TOALL(TYPE, TYPENAME, sum)      \
    XG_DEFINE_TOALL(TYPE, TYPENAME, prod)
XG_SHMEM_TOALL_BITWISE_TYPES(XG_DEFINE_TOALL_BITWISE)
XG_SHMEM_TOALL_MINMAX_TYPES(XG_DEFINE_TOALL_MINMAX)
XG_SHMEM_TOALL_ARITH_TYPES(XG_DEFINE_TOALL_ARITH)
