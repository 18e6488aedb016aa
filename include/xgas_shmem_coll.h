/**
 * @file xgas_shmem_coll.h
 * @brief OpenSHMEM 1.6 teams and collectives for xgas; included by shmem.h
 * (programs include shmem.h, not this file).
 *
 * Teams: SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED (every PE of the job is on
 * this node, so it has the same members as the world team) and the teams
 * split from them.  Collectives on a team: shmem_team_sync, broadcast,
 * collect, fcollect, alltoall, alltoalls, the reductions and (1.6) the sum
 * scans.  The deprecated active-set forms (PE_start, logPE_stride, PE_size,
 * pSync) are provided too.  See docs/collectives.md for the algorithms.
 *
 * Errors: a collective called with SHMEM_TEAM_INVALID or a destroyed team,
 * with a root outside the team, with buffers that are not symmetric or too
 * small for the call, or (detected cheaply at run time) with a count, root
 * or routine that differs between the members, ends the job with a message
 * naming the routine and the bad value.  Team creation that fails (bad
 * triplet, no free team slot: see XGAS_TEAMS_MAX) returns nonzero on every
 * PE of the parent team.
 */
#ifndef XGAS_SHMEM_COLL_H
#define XGAS_SHMEM_COLL_H

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- constants ------------------------------------------------------- */

/** Value every element of a pSync array holds before its first use (and
 *  again after every collective that used it). */
#define SHMEM_SYNC_VALUE 0L

/** Longs of a pSync array for each active-set collective; every size is
 *  SHMEM_SYNC_SIZE, so one array serves any of them. */
#define SHMEM_SYNC_SIZE           40
#define SHMEM_BARRIER_SYNC_SIZE   SHMEM_SYNC_SIZE
#define SHMEM_BCAST_SYNC_SIZE     SHMEM_SYNC_SIZE
#define SHMEM_COLLECT_SYNC_SIZE   SHMEM_SYNC_SIZE
#define SHMEM_REDUCE_SYNC_SIZE    SHMEM_SYNC_SIZE
#define SHMEM_ALLTOALL_SYNC_SIZE  SHMEM_SYNC_SIZE
#define SHMEM_ALLTOALLS_SYNC_SIZE SHMEM_SYNC_SIZE

/** Minimum elements of a pWrk array (xgas reads the sources directly and
 *  never touches pWrk). */
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 1

/* deprecated spellings */
#define _SHMEM_SYNC_VALUE              SHMEM_SYNC_VALUE
#define _SHMEM_BARRIER_SYNC_SIZE       SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE         SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE       SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE        SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

/* ==== teams ============================================================ */

/**
 * @brief This PE's number in @p team, 0..N-1; -1 for SHMEM_TEAM_INVALID.
 */
int shmem_team_my_pe(shmem_team_t team);

/**
 * @brief Number of PEs in @p team; -1 for SHMEM_TEAM_INVALID.
 */
int shmem_team_n_pes(shmem_team_t team);

/**
 * @brief Configuration of @p team at the time of the call.
 *
 * @param [in]  team         a team.
 * @param [in]  config_mask  which fields to return (SHMEM_TEAM_NUM_CONTEXTS);
 *                           0 returns nothing (and @p config may be NULL).
 * @param [out] config       receives the fields named by the mask.
 * @return 0; nonzero (and nothing done) for SHMEM_TEAM_INVALID.
 */
int shmem_team_get_config(shmem_team_t team, long config_mask,
                          shmem_team_config_t *config);

/**
 * @brief Number in @p dest_team of PE @p src_pe of @p src_team.
 * @return the PE number, or -1 if that PE is not in @p dest_team, if
 *         @p src_pe is not in @p src_team, or if a team is
 *         SHMEM_TEAM_INVALID.
 */
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe,
                            shmem_team_t dest_team);

/**
 * @brief Creates the team of PEs start, start + stride, ..., (size PEs,
 * numbered in the parent team) of @p parent_team.  Collective over the
 * parent team (which it synchronizes).
 *
 * @param [in]  parent_team  the team to split.
 * @param [in]  start        first member (parent numbering).
 * @param [in]  stride       distance between members: negative for a team
 *                           in reverse order; 0 only with size 1.
 * @param [in]  size         members, at least 1; every member must be in
 *                           the parent team (no wrap-around).
 * @param [in]  config       configuration (fields named by @p config_mask).
 * @param [in]  config_mask  0 or SHMEM_TEAM_NUM_CONTEXTS.
 * @param [out] new_team     the new team on its members,
 *                           SHMEM_TEAM_INVALID on the other parent PEs.
 * @return 0 on every parent PE on success; nonzero on every parent PE
 *         (and SHMEM_TEAM_INVALID) if the triplet is invalid, the parent is
 *         SHMEM_TEAM_INVALID, or no team slot is free (XGAS_TEAMS_MAX).
 */
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride,
                             int size, const shmem_team_config_t *config,
                             long config_mask, shmem_team_t *new_team);

/**
 * @brief Splits @p parent_team into a 2-D grid of @p xrange columns: PE p
 * (parent numbering) is at x = p mod xrange, y = p / xrange; its x team is
 * its row (numbered by x), its y team its column (numbered by y).
 * Collective over the parent team.
 *
 * @return 0 when both teams were created; nonzero otherwise (xrange < 1,
 *         invalid parent, no free team slots), on every parent PE, with
 *         both handles SHMEM_TEAM_INVALID.
 */
int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                        const shmem_team_config_t *xaxis_config,
                        long xaxis_mask, shmem_team_t *xaxis_team,
                        const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team);

/**
 * @brief Destroys @p team (collective over it; the handle becomes
 * invalid).  SHMEM_TEAM_INVALID: nothing happens.  The predefined teams
 * cannot be destroyed (the job ends with a message).
 */
void shmem_team_destroy(shmem_team_t team);

/**
 * @brief Local address of symmetric @p dest on PE @p pe of @p team, for
 * loads and stores; NULL if @p team is SHMEM_TEAM_INVALID or @p pe is not
 * in it.  Every PE of an xgas job is reachable this way.
 */
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);

/* ==== barriers and sync ================================================ */

/**
 * @brief Returns when every PE of @p team has called it (no completion of
 * remote updates: shmem_quiet first for that).
 * @return 0.
 */
int shmem_team_sync(shmem_team_t team);

/**
 * @brief Deprecated active-set forms: shmem_barrier completes this PE's
 * updates (shmem_quiet) and synchronizes the active set PE_start,
 * PE_start + 2^logPE_stride, ... (PE_size PEs); shmem_sync only
 * synchronizes.  @p pSync: SHMEM_BARRIER_SYNC_SIZE longs, initialized to
 * SHMEM_SYNC_VALUE; consecutive calls on the same active set may reuse it.
 */
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync);

/* ==== broadcast, collect, fcollect, alltoall(s) ======================== */

/**
 * @brief Team collectives that move data, for every standard RMA type
 * (the TYPE/TYPENAME rows of XG_SHMEM_RMA_TYPES):
 *
 *     int shmem_TYPENAME_broadcast(shmem_team_t team, TYPE *dest,
 *             const TYPE *source, size_t nelems, int PE_root);
 *     int shmem_TYPENAME_collect(shmem_team_t team, TYPE *dest,
 *             const TYPE *source, size_t nelems);
 *     int shmem_TYPENAME_fcollect(...as collect...);
 *     int shmem_TYPENAME_alltoall(...as collect...);
 *     int shmem_TYPENAME_alltoalls(shmem_team_t team, TYPE *dest,
 *             const TYPE *source, ptrdiff_t dst, ptrdiff_t sst,
 *             size_t nelems);
 *
 * and the byte forms shmem_broadcastmem, shmem_collectmem,
 * shmem_fcollectmem, shmem_alltoallmem, shmem_alltoallsmem.
 *
 * broadcast: @p dest on every PE (the root too) receives @p nelems
 * elements of @p source on team PE @p PE_root.  collect: @p dest receives
 * the @p source arrays of PE 0, 1, ... of the team, each PE giving its own
 * @p nelems; fcollect: the same with one @p nelems for all.  alltoall:
 * block j (@p nelems elements) of @p source on PE i lands in block i of
 * @p dest on PE j; alltoalls: the same with element strides @p dst and
 * @p sst (at least 1).  @p dest and @p source are symmetric; the root and
 * every count must be the same on every PE (collect: the element type).
 *
 * @return 0 on local completion (dest complete, source reusable).
 */
#define XG_SHMEM_DECLARE_COLL_DATA(TYPE, TYPENAME)                      \
    int shmem_##TYPENAME##_broadcast(shmem_team_t team, TYPE *dest,     \
                                     const TYPE *source, size_t nelems, \
                                     int PE_root);                      \
    int shmem_##TYPENAME##_collect(shmem_team_t team, TYPE *dest,       \
                                   const TYPE *source, size_t nelems);  \
    int shmem_##TYPENAME##_fcollect(shmem_team_t team, TYPE *dest,      \
                                    const TYPE *source, size_t nelems); \
    int shmem_##TYPENAME##_alltoall(shmem_team_t team, TYPE *dest,      \
                                    const TYPE *source, size_t nelems); \
    int shmem_##TYPENAME##_alltoalls(shmem_team_t team, TYPE *dest,     \
                                     const TYPE *source, ptrdiff_t dst, \
                                     ptrdiff_t sst, size_t nelems);
XG_SHMEM_RMA_TYPES(XG_SHMEM_DECLARE_COLL_DATA)
#undef XG_SHMEM_DECLARE_COLL_DATA

int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source,
                       size_t nelems, int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source,
                     size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source,
                      size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source,
                      size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source,
                       ptrdiff_t dst, ptrdiff_t sst, size_t nelems);

/**
 * @brief Deprecated active-set forms, elements of 32 or 64 bits: as the
 * team forms over the active set PE_start, PE_start + 2^logPE_stride, ...
 * (PE_size PEs), synchronizing through @p pSync (SHMEM_*_SYNC_SIZE longs,
 * SHMEM_SYNC_VALUE before the call and again after it).  PE_root is
 * numbered in the active set; the root's dest is not written.
 */
#define XG_SHMEM_DECLARE_COLL_SIZED(SIZE)                                     \
    void shmem_broadcast##SIZE(void *dest, const void *source, size_t nelems, \
                               int PE_root, int PE_start, int logPE_stride,   \
                               int PE_size, long *pSync);                     \
    void shmem_collect##SIZE(void *dest, const void *source, size_t nelems,   \
                             int PE_start, int logPE_stride, int PE_size,     \
                             long *pSync);                                    \
    void shmem_fcollect##SIZE(void *dest, const void *source, size_t nelems,  \
                              int PE_start, int logPE_stride, int PE_size,    \
                              long *pSync);                                   \
    void shmem_alltoall##SIZE(void *dest, const void *source, size_t nelems,  \
                              int PE_start, int logPE_stride, int PE_size,    \
                              long *pSync);                                   \
    void shmem_alltoalls##SIZE(void *dest, const void *source, ptrdiff_t dst, \
                               ptrdiff_t sst, size_t nelems, int PE_start,    \
                               int logPE_stride, int PE_size, long *pSync);
XG_SHMEM_DECLARE_COLL_SIZED(32)
XG_SHMEM_DECLARE_COLL_SIZED(64)
#undef XG_SHMEM_DECLARE_COLL_SIZED

/* ==== reductions and scans ============================================= */

/*
 * Type tables of the reductions (OpenSHMEM 1.6, "Reduction Types, Names and
 * Supporting Operations"), rows X(TYPE, TYPENAME):
 *   XG_SHMEM_REDUCE_BITWISE_TYPES   and, or, xor
 *   XG_SHMEM_REDUCE_MINMAX_TYPES    max, min
 *   XG_SHMEM_REDUCE_ARITH_TYPES     sum, prod, and the scans sum_inscan,
 *                                   sum_exscan (the minmax types and the
 *                                   complex ones)
 *   XG_SHMEM_TOALL_*                the same for the deprecated _to_all
 *                                   routines
 */
#define XG_SHMEM_REDUCE_BITWISE_TYPES(X) \
    X(unsigned char, uchar)              \
    X(unsigned short, ushort)            \
    X(unsigned int, uint)                \
    X(unsigned long, ulong)              \
    X(unsigned long long, ulonglong)     \
    X(int8_t, int8)                      \
    X(int16_t, int16)                    \
    X(int32_t, int32)                    \
    X(int64_t, int64)                    \
    X(uint8_t, uint8)                    \
    X(uint16_t, uint16)                  \
    X(uint32_t, uint32)                  \
    X(uint64_t, uint64)                  \
    X(size_t, size)

#define XG_SHMEM_REDUCE_MINMAX_TYPES(X) \
    X(char, char)                       \
    X(signed char, schar)               \
    X(short, short)                     \
    X(int, int)                         \
    X(long, long)                       \
    X(long long, longlong)              \
    X(ptrdiff_t, ptrdiff)               \
    XG_SHMEM_REDUCE_BITWISE_TYPES(X)    \
    X(float, float)                     \
    X(double, double)                   \
    X(long double, longdouble)

/* The complex types: C's _Complex; in C++ (which has no _Complex) the
 * __complex__ extension of GCC and Clang, which is the same type as C's
 * (C++ programs may also pass std::complex arrays: see the end of this
 * file). */
#if !defined(__cplusplus) && !defined(__STDC_NO_COMPLEX__)
#define XG_SHMEM_REDUCE_COMPLEX_TYPES(X) \
    X(double _Complex, complexd)         \
    X(float _Complex, complexf)
#elif defined(__cplusplus) && defined(__GNUC__)
#define XG_SHMEM_REDUCE_COMPLEX_TYPES(X) \
    X(__complex__ double, complexd)      \
    X(__complex__ float, complexf)
#else
#define XG_SHMEM_REDUCE_COMPLEX_TYPES(X)
#endif

#define XG_SHMEM_REDUCE_ARITH_TYPES(X) \
    XG_SHMEM_REDUCE_MINMAX_TYPES(X)    \
    XG_SHMEM_REDUCE_COMPLEX_TYPES(X)

#define XG_SHMEM_TOALL_BITWISE_TYPES(X) \
    X(short, short)                     \
    X(int, int)                         \
    X(long, long)                       \
    X(long long, longlong)

#define XG_SHMEM_TOALL_MINMAX_TYPES(X) \
    XG_SHMEM_TOALL_BITWISE_TYPES(X)    \
    X(float, float)                    \
    X(double, double)                  \
    X(long double, longdouble)

#define XG_SHMEM_TOALL_ARITH_TYPES(X) \
    XG_SHMEM_TOALL_MINMAX_TYPES(X)    \
    XG_SHMEM_REDUCE_COMPLEX_TYPES(X)

/**
 * @brief Team reductions, for each type of the tables above:
 *
 *     int shmem_TYPENAME_OP_reduce(shmem_team_t team, TYPE *dest,
 *             const TYPE *source, size_t nreduce);
 *
 * OP in and, or, xor (bitwise types), max, min (minmax types), sum, prod
 * (arith types).  dest[i] on every PE = OP over the PEs of source[i],
 * i < nreduce.  @p dest and @p source are symmetric and either the same or
 * disjoint.  Signed integer sums and products wrap around (two's
 * complement) instead of overflowing.  Every PE gets the same result
 * bit for bit (floating point included).
 *
 * Scans (OpenSHMEM 1.6), for the arith types:
 *
 *     int shmem_TYPENAME_sum_inscan(shmem_team_t team, TYPE *dest,
 *             const TYPE *source, size_t nreduce);
 *     int shmem_TYPENAME_sum_exscan(...same...);
 *
 * dest[i] on team PE r = sum of source[i] over PEs 0..r (inscan) or
 * 0..r-1 (exscan; 0 on PE 0).
 *
 * @return 0 on local completion.
 */
#define XG_SHMEM_DECLARE_REDUCE(TYPE, TYPENAME, OP)                     \
    int shmem_##TYPENAME##_##OP##_reduce(shmem_team_t team, TYPE *dest, \
                                         const TYPE *source, size_t nreduce);
#define XG_SHMEM_DECLARE_REDUCE_BITWISE(TYPE, TYPENAME) \
    XG_SHMEM_DECLARE_REDUCE(TYPE, TYPENAME, and)        \
    XG_SHMEM_DECLARE_REDUCE(TYPE, TYPENAME, or)         \
    XG_SHMEM_DECLARE_REDUCE(TYPE, TYPENAME, xor)
#define XG_SHMEM_DECLARE_REDUCE_MINMAX(TYPE, TYPENAME) \
    XG_SHMEM_DECLARE_REDUCE(TYPE, TYPENAME, max)       \
    XG_SHMEM_DECLARE_REDUCE(TYPE, TYPENAME, min)
#define XG_SHMEM_DECLARE_REDUCE_ARITH(TYPE, TYPENAME)                      \
    XG_SHMEM_DECLARE_REDUCE(TYPE, TYPENAME, sum)                           \
    XG_SHMEM_DECLARE_REDUCE(TYPE, TYPENAME, prod)                          \
    int shmem_##TYPENAME##_sum_inscan(shmem_team_t team, TYPE *dest,       \
                                      const TYPE *source, size_t nreduce); \
    int shmem_##TYPENAME##_sum_exscan(shmem_team_t team, TYPE *dest,       \
                                      const TYPE *source, size_t nreduce);
XG_SHMEM_REDUCE_BITWISE_TYPES(XG_SHMEM_DECLARE_REDUCE_BITWISE)
XG_SHMEM_REDUCE_MINMAX_TYPES(XG_SHMEM_DECLARE_REDUCE_MINMAX)
XG_SHMEM_REDUCE_ARITH_TYPES(XG_SHMEM_DECLARE_REDUCE_ARITH)
#undef XG_SHMEM_DECLARE_REDUCE_BITWISE
#undef XG_SHMEM_DECLARE_REDUCE_MINMAX
#undef XG_SHMEM_DECLARE_REDUCE_ARITH
#undef XG_SHMEM_DECLARE_REDUCE

/**
 * @brief Deprecated active-set reductions:
 *
 *     void shmem_TYPENAME_OP_to_all(TYPE *dest, const TYPE *source,
 *             int nreduce, int PE_start, int logPE_stride, int PE_size,
 *             TYPE *pWrk, long *pSync);
 *
 * with the ops of the team reductions over the XG_SHMEM_TOALL_* types.
 * @p pSync: SHMEM_REDUCE_SYNC_SIZE longs of SHMEM_SYNC_VALUE; @p pWrk is
 * accepted and not used.
 */
#define XG_SHMEM_DECLARE_TOALL(TYPE, TYPENAME, OP)                 \
    void shmem_##TYPENAME##_##OP##_to_all(                         \
        TYPE *dest, const TYPE *source, int nreduce, int PE_start, \
        int logPE_stride, int PE_size, TYPE *pWrk, long *pSync);
#define XG_SHMEM_DECLARE_TOALL_BITWISE(TYPE, TYPENAME) \
    XG_SHMEM_DECLARE_TOALL(TYPE, TYPENAME, and)        \
    XG_SHMEM_DECLARE_TOALL(TYPE, TYPENAME, or)         \
    XG_SHMEM_DECLARE_TOALL(TYPE, TYPENAME, xor)
#define XG_SHMEM_DECLARE_TOALL_MINMAX(TYPE, TYPENAME) \
    XG_SHMEM_DECLARE_TOALL(TYPE, TYPENAME, max)       \
    XG_SHMEM_DECLARE_TOALL(TYPE, TYPENAME, min)
#define XG_SHMEM_DECLARE_TOALL_ARITH(TYPE, TYPENAME) \
    XG_SHMEM_DECLARE_TOALL(TYPE, TYPENAME, sum)      \
    XG_SHMEM_DECLARE_TOALL(TYPE, TYPENAME, prod)
XG_SHMEM_TOALL_BITWISE_TYPES(XG_SHMEM_DECLARE_TOALL_BITWISE)
XG_SHMEM_TOALL_MINMAX_TYPES(XG_SHMEM_DECLARE_TOALL_MINMAX)
XG_SHMEM_TOALL_ARITH_TYPES(XG_SHMEM_DECLARE_TOALL_ARITH)
#undef XG_SHMEM_DECLARE_TOALL_BITWISE
#undef XG_SHMEM_DECLARE_TOALL_MINMAX
#undef XG_SHMEM_DECLARE_TOALL_ARITH
#undef XG_SHMEM_DECLARE_TOALL

#ifdef __cplusplus
}
#endif

/*
 * C++: the complex reductions and scans also take std::complex<float> and
 * std::complex<double> arrays.  std::complex<T> is laid out as T[2], real
 * part first, as C's T _Complex is (C++ [complex.numbers]), so each
 * overload passes its arrays on unchanged.  extern "C++": shmem.h may be
 * included inside an extern "C" block.
 */
#if defined(__cplusplus) && defined(__GNUC__)
extern "C++" {
#include <complex>

#define XG_SHMEM_CXX_COMPLEX_TEAM(T, TYPENAME, NAME)                   \
    inline int shmem_##TYPENAME##_##NAME(                              \
        shmem_team_t team, std::complex<T> *dest,                      \
        const std::complex<T> *source, size_t nreduce)                 \
    {                                                                  \
        return shmem_##TYPENAME##_##NAME(                              \
            team, reinterpret_cast<__complex__ T *>(dest),             \
            reinterpret_cast<const __complex__ T *>(source), nreduce); \
    }
#define XG_SHMEM_CXX_COMPLEX_TOALL(T, TYPENAME, OP)                         \
    inline void shmem_##TYPENAME##_##OP##_to_all(                           \
        std::complex<T> *dest, const std::complex<T> *source, int nreduce,  \
        int PE_start, int logPE_stride, int PE_size, std::complex<T> *pWrk, \
        long *pSync)                                                        \
    {                                                                       \
        shmem_##TYPENAME##_##OP##_to_all(                                   \
            reinterpret_cast<__complex__ T *>(dest),                        \
            reinterpret_cast<const __complex__ T *>(source), nreduce,       \
            PE_start, logPE_stride, PE_size,                                \
            reinterpret_cast<__complex__ T *>(pWrk), pSync);                \
    }
#define XG_SHMEM_CXX_COMPLEX(T, TYPENAME)               \
    XG_SHMEM_CXX_COMPLEX_TEAM(T, TYPENAME, sum_reduce)  \
    XG_SHMEM_CXX_COMPLEX_TEAM(T, TYPENAME, prod_reduce) \
    XG_SHMEM_CXX_COMPLEX_TEAM(T, TYPENAME, sum_inscan)  \
    XG_SHMEM_CXX_COMPLEX_TEAM(T, TYPENAME, sum_exscan)  \
    XG_SHMEM_CXX_COMPLEX_TOALL(T, TYPENAME, sum)        \
    XG_SHMEM_CXX_COMPLEX_TOALL(T, TYPENAME, prod)
XG_SHMEM_CXX_COMPLEX(double, complexd)
XG_SHMEM_CXX_COMPLEX(float, complexf)
#undef XG_SHMEM_CXX_COMPLEX
#undef XG_SHMEM_CXX_COMPLEX_TOALL
#undef XG_SHMEM_CXX_COMPLEX_TEAM
}
#endif

/* ==== C11 type-generic forms =========================================== */

#if defined(__STDC_VERSION__) && (__STDC_VERSION__ >= 201112L) && \
    !defined(__cplusplus) && !defined(XGAS_INTERNAL_BUILD)

/* One association per distinct C type: the fixed-width and size types are
 * typedefs of these, so they select the routine of their underlying
 * type. */
#define XG_SHMEM_C11_STD(NAME)                                                                                                  \
    float                                                                                                                       \
        * : shmem_float_##NAME,                                                                                                 \
            double                                                                                                              \
                * : shmem_double_##NAME,                                                                                        \
                    long double                                                                                                 \
                        * : shmem_longdouble_##NAME,                                                                            \
                            char                                                                                                \
                                * : shmem_char_##NAME,                                                                          \
                                    signed char                                                                                 \
                                        * : shmem_schar_##NAME,                                                                 \
                                            short                                                                               \
                                                * : shmem_short_##NAME,                                                         \
                                                    int * : shmem_int_##NAME,                                                   \
                                                            long                                                                \
                                                                * : shmem_long_##NAME,                                          \
                                                                    long long                                                   \
                                                                        * : shmem_longlong_##NAME,                              \
                                                                            unsigned char                                       \
                                                                                * : shmem_uchar_##NAME,                         \
                                                                                    unsigned short                              \
                                                                                        * : shmem_ushort_##NAME,                \
                                                                                            unsigned int                        \
                                                                                                * : shmem_uint_##NAME,          \
                                                                                                    unsigned long               \
                                                                                                        * : shmem_ulong_##NAME, \
                                                                                                            unsigned long long  \
                                                                                                                * : shmem_ulonglong_##NAME

/* and/or/xor: the unsigned types and the signed fixed-width ones */
#define XG_SHMEM_C11_BITWISE(NAME)                                                      \
    unsigned char                                                                       \
        * : shmem_uchar_##NAME,                                                         \
            unsigned short                                                              \
                * : shmem_ushort_##NAME,                                                \
                    unsigned int                                                        \
                        * : shmem_uint_##NAME,                                          \
                            unsigned long                                               \
                                * : shmem_ulong_##NAME,                                 \
                                    unsigned long long                                  \
                                        * : shmem_ulonglong_##NAME,                     \
                                            int8_t                                      \
                                                * : shmem_int8_##NAME,                  \
                                                    int16_t                             \
                                                        * : shmem_int16_##NAME,         \
                                                            int32_t                     \
                                                                * : shmem_int32_##NAME, \
                                                                    int64_t             \
                                                                        * : shmem_int64_##NAME

#if !defined(__STDC_NO_COMPLEX__)
#define XG_SHMEM_C11_ARITH(NAME)                   \
    XG_SHMEM_C11_STD(NAME),                        \
        double _Complex * : shmem_complexd_##NAME, \
                            float _Complex * : shmem_complexf_##NAME
#else
#define XG_SHMEM_C11_ARITH(NAME) XG_SHMEM_C11_STD(NAME)
#endif

#define shmem_broadcast(team, dest, source, nelems, root)                     \
    _Generic((dest), XG_SHMEM_C11_STD(broadcast))(team, dest, source, nelems, \
                                                  root)
#define shmem_collect(team, dest, source, nelems) \
    _Generic((dest), XG_SHMEM_C11_STD(collect))(team, dest, source, nelems)
#define shmem_fcollect(team, dest, source, nelems) \
    _Generic((dest), XG_SHMEM_C11_STD(fcollect))(team, dest, source, nelems)
#define shmem_alltoall(team, dest, source, nelems) \
    _Generic((dest), XG_SHMEM_C11_STD(alltoall))(team, dest, source, nelems)
#define shmem_alltoalls(team, dest, source, dst, sst, nelems)              \
    _Generic((dest), XG_SHMEM_C11_STD(alltoalls))(team, dest, source, dst, \
                                                  sst, nelems)

#define shmem_and_reduce(team, dest, source, nreduce)                      \
    _Generic((dest), XG_SHMEM_C11_BITWISE(and_reduce))(team, dest, source, \
                                                       nreduce)
#define shmem_or_reduce(team, dest, source, nreduce)                      \
    _Generic((dest), XG_SHMEM_C11_BITWISE(or_reduce))(team, dest, source, \
                                                      nreduce)
#define shmem_xor_reduce(team, dest, source, nreduce)                      \
    _Generic((dest), XG_SHMEM_C11_BITWISE(xor_reduce))(team, dest, source, \
                                                       nreduce)
#define shmem_max_reduce(team, dest, source, nreduce) \
    _Generic((dest), XG_SHMEM_C11_STD(max_reduce))(team, dest, source, nreduce)
#define shmem_min_reduce(team, dest, source, nreduce) \
    _Generic((dest), XG_SHMEM_C11_STD(min_reduce))(team, dest, source, nreduce)
#define shmem_sum_reduce(team, dest, source, nreduce)                    \
    _Generic((dest), XG_SHMEM_C11_ARITH(sum_reduce))(team, dest, source, \
                                                     nreduce)
#define shmem_prod_reduce(team, dest, source, nreduce)                    \
    _Generic((dest), XG_SHMEM_C11_ARITH(prod_reduce))(team, dest, source, \
                                                      nreduce)
#define shmem_sum_inscan(team, dest, source, nreduce)                    \
    _Generic((dest), XG_SHMEM_C11_ARITH(sum_inscan))(team, dest, source, \
                                                     nreduce)
#define shmem_sum_exscan(team, dest, source, nreduce)                    \
    _Generic((dest), XG_SHMEM_C11_ARITH(sum_exscan))(team, dest, source, \
                                                     nreduce)

/* shmem_sync(team) is shmem_team_sync; the deprecated four-argument
 * shmem_sync(PE_start, logPE_stride, PE_size, pSync) keeps working (other
 * argument counts name an undeclared function: a compile error). */
#define XG_SHMEM_SYNC_PICK(_1, _2, _3, _4, NAME, ...) NAME
#define shmem_sync(...)                                                  \
    XG_SHMEM_SYNC_PICK(__VA_ARGS__, shmem_sync, shmem_sync_takes_1_or_4, \
                       shmem_sync_takes_1_or_4, shmem_team_sync, )       \
    (__VA_ARGS__)

#endif /* C11 */

#endif
