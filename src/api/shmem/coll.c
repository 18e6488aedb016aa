/*
 * OpenSHMEM collectives that synchronize or move data: shmem_team_sync,
 * broadcast, collect, fcollect, alltoall, alltoalls on teams, and the
 * deprecated active-set forms (shmem_barrier, shmem_sync, the 32- and
 * 64-bit forms).  Each routine checks its arguments and makes one call into
 * the collective engine (gas/coll/xg_coll.h); the typed forms are
 * generated from the RMA type table.
 */
#include <stdint.h>

#include "api/shmem/coll_int.h"

/* ---- shared checks ------------------------------------------------------ */

void xg_shmem_coll_overlap(const char *routine, const void *dest,
                           const void *source, size_t len)
{
    uintptr_t d = (uintptr_t)dest, s = (uintptr_t)source;

    if ((len > 0) && (d != s) && (d < s + len) && (s < d + len)) {
        xg_shmem_fail(routine,
                      "dest %p and source %p overlap by part of "
                      "their %zu bytes: they must be the same array or "
                      "disjoint",
                      dest, source, len);
    }
}

/*
 * A pSync array on entry: every word SHMEM_SYNC_VALUE (0).  No call writes
 * another PE's pSync (the signals go through the runtime's own slot,
 * gas/coll/xg_coll.h) and each restores its own before it returns, so anything
 * else is an array that was not initialized, or one in use by another
 * call at the same time (a collect's count); without this check a collect
 * would copy the wrong lengths.
 */
static void coll_psync_check(const char *routine, long *pSync)
{
    long v;
    int i;

    for (i = 0; i < XG_PSYNC_WORDS; i++) {
        v = __atomic_load_n(&pSync[i], __ATOMIC_RELAXED);
        if (v != SHMEM_SYNC_VALUE) {
            xg_shmem_fail(routine,
                          "pSync[%d] is %ld on entry, not "
                          "SHMEM_SYNC_VALUE (%ld): initialize every element "
                          "of pSync to SHMEM_SYNC_VALUE on every PE and "
                          "synchronize (shmem_barrier_all) before its first "
                          "use, and do not pass the same pSync to two calls "
                          "at once",
                          i, v, (long)SHMEM_SYNC_VALUE);
        }
    }
}

void xg_shmem_coll_aset(const char *routine, int PE_start, int logPE_stride,
                        int PE_size, long *pSync, xg_coll_t *coll)
{
    int npes, stride, diff;
    long long last;

    xg_shmem_check_init(routine);
    npes = xg_gas.npes;
    if ((logPE_stride < 0) || (logPE_stride > 30)) {
        xg_shmem_fail(routine, "logPE_stride %d is outside 0..30",
                      logPE_stride);
    }
    stride = 1 << logPE_stride;
    last   = (long long)PE_start + (long long)stride * ((long long)PE_size - 1);
    if ((PE_size < 1) || (PE_start < 0) || (last >= npes)) {
        xg_shmem_fail(routine,
                      "the active set PE_start %d, logPE_stride %d, "
                      "PE_size %d is not within the job's PEs 0..%d (it "
                      "needs PE_size >= 1 and PE_start + (PE_size - 1) * "
                      "2^logPE_stride < %d)",
                      PE_start, logPE_stride, PE_size, npes - 1, npes);
    }
    diff = xg_gas.me - PE_start;
    if ((diff < 0) || (diff % stride != 0) || (diff / stride >= PE_size)) {
        xg_shmem_fail(routine,
                      "this PE (%d) is not in the active set "
                      "PE_start %d, logPE_stride %d, PE_size %d: only its "
                      "members may call the routine",
                      xg_gas.me, PE_start, logPE_stride, PE_size);
    }
    if (pSync == NULL) {
        xg_shmem_fail(routine, "pSync is NULL: pass a symmetric array of "
                               "SHMEM_SYNC_SIZE longs set to SHMEM_SYNC_VALUE");
    }
    xg_shmem_coll_buf(routine, pSync, XG_PSYNC_WORDS * sizeof(long));
    coll_psync_check(routine, pSync);
    xg_coll_aset(coll, PE_start, stride, PE_size, diff / stride, pSync,
                 routine);
}

static void coll_root(const char *routine, int root, int size, const char *what)
{
    if ((root < 0) || (root >= size)) {
        xg_shmem_fail(routine,
                      "PE_root %d is not a PE of the %s, which has "
                      "PEs 0..%d (PE_root is numbered in it)",
                      root, what, size - 1);
    }
}

/* Bytes an array of @nelems elements at stride @stride spans. */
static size_t coll_span(const char *routine, size_t nelems, ptrdiff_t stride,
                        size_t elem_size)
{
    size_t steps;

    if (nelems == 0) {
        return 0;
    }
    steps = xg_shmem_coll_bytes(routine, nelems - 1, (size_t)stride);
    if (steps > SIZE_MAX - 1) {
        xg_shmem_fail(routine, "%zu elements at stride %td overflow size_t",
                      nelems, stride);
    }
    return xg_shmem_coll_bytes(routine, steps + 1, elem_size);
}

/* ---- sync --------------------------------------------------------------- */

XG_SHMEM_API int shmem_team_sync(shmem_team_t team)
{
    xg_coll_t coll;

    xg_coll_team(&coll, xg_shmem_coll_team(__func__, team), __func__);
    xg_coll_barrier(&coll);
    return 0;
}
XG_PSHMEM(shmem_team_sync)

XG_SHMEM_API void shmem_barrier(int PE_start, int logPE_stride, int PE_size,
                                long *pSync)
{
    xg_coll_t coll;

    xg_shmem_coll_aset(__func__, PE_start, logPE_stride, PE_size, pSync, &coll);
    xg_gas_ctx_quiet(XG_SHMEM_GAS_DEFAULT);
    xg_coll_barrier(&coll);
}
XG_PSHMEM(shmem_barrier)

XG_SHMEM_API void shmem_sync(int PE_start, int logPE_stride, int PE_size,
                             long *pSync)
{
    xg_coll_t coll;

    xg_shmem_coll_aset(__func__, PE_start, logPE_stride, PE_size, pSync, &coll);
    xg_coll_barrier(&coll);
}
XG_PSHMEM(shmem_sync)

/* ---- team collectives --------------------------------------------------- */

static int coll_broadcast(const char *routine, shmem_team_t team, void *dest,
                          const void *source, size_t nelems, size_t elem_size,
                          int root)
{
    xg_team_t *t  = xg_shmem_coll_team(routine, team);
    size_t nbytes = xg_shmem_coll_bytes(routine, nelems, elem_size);
    xg_coll_t coll;

    coll_root(routine, root, t->size, "team");
    xg_shmem_coll_buf(routine, dest, nbytes);
    xg_shmem_coll_buf(routine, source, nbytes);
    xg_coll_team(&coll, t, routine);
    xg_coll_broadcast(&coll, dest, source, nbytes, root, 1);
    return 0;
}

static int coll_collect(const char *routine, shmem_team_t team, void *dest,
                        const void *source, size_t nelems, size_t elem_size)
{
    xg_team_t *t  = xg_shmem_coll_team(routine, team);
    size_t nbytes = xg_shmem_coll_bytes(routine, nelems, elem_size);
    xg_coll_t coll;

    /* dest's size needs every PE's count: the engine checks it */
    xg_shmem_coll_buf(routine, source, nbytes);
    xg_coll_team(&coll, t, routine);
    xg_coll_collect(&coll, dest, source, nbytes, elem_size);
    return 0;
}

static int coll_fcollect(const char *routine, shmem_team_t team, void *dest,
                         const void *source, size_t nelems, size_t elem_size)
{
    xg_team_t *t  = xg_shmem_coll_team(routine, team);
    size_t nbytes = xg_shmem_coll_bytes(routine, nelems, elem_size);
    xg_coll_t coll;

    xg_shmem_coll_buf(routine, source, nbytes);
    xg_shmem_coll_buf(routine, dest,
                      xg_shmem_coll_bytes(routine, nbytes, (size_t)t->size));
    xg_coll_team(&coll, t, routine);
    xg_coll_fcollect(&coll, dest, source, nbytes);
    return 0;
}

static int coll_alltoall(const char *routine, shmem_team_t team, void *dest,
                         const void *source, size_t nelems, size_t elem_size)
{
    xg_team_t *t  = xg_shmem_coll_team(routine, team);
    size_t nbytes = xg_shmem_coll_bytes(routine, nelems, elem_size);
    size_t total  = xg_shmem_coll_bytes(routine, nbytes, (size_t)t->size);
    xg_coll_t coll;

    xg_shmem_coll_buf(routine, source, total);
    xg_shmem_coll_buf(routine, dest, total);
    xg_coll_team(&coll, t, routine);
    xg_coll_alltoall(&coll, dest, source, nbytes);
    return 0;
}

static void coll_strides(const char *routine, ptrdiff_t dst, ptrdiff_t sst)
{
    if ((dst < 1) || (sst < 1)) {
        xg_shmem_fail(routine,
                      "strides dst=%td and sst=%td: both must be "
                      "at least 1 (1 = contiguous)",
                      dst, sst);
    }
}

static int coll_alltoalls(const char *routine, shmem_team_t team, void *dest,
                          const void *source, ptrdiff_t dst, ptrdiff_t sst,
                          size_t nelems, size_t elem_size)
{
    xg_team_t *t = xg_shmem_coll_team(routine, team);
    size_t all   = xg_shmem_coll_bytes(routine, nelems, (size_t)t->size);
    xg_coll_t coll;

    coll_strides(routine, dst, sst);
    xg_shmem_coll_buf(routine, dest, coll_span(routine, all, dst, elem_size));
    xg_shmem_coll_buf(routine, source, coll_span(routine, all, sst, elem_size));
    xg_coll_team(&coll, t, routine);
    xg_coll_alltoalls(&coll, dest, source, dst, sst, nelems, elem_size);
    return 0;
}

#define XG_DEFINE_COLL_DATA(TYPE, TYPENAME)                                   \
    XG_SHMEM_API int shmem_##TYPENAME##_broadcast(                            \
        shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems,     \
        int PE_root)                                                          \
    {                                                                         \
        return coll_broadcast(__func__, team, dest, source, nelems,           \
                              sizeof(TYPE), PE_root);                         \
    }                                                                         \
    XG_PSHMEM(shmem_##TYPENAME##_broadcast)                                   \
    XG_SHMEM_API int shmem_##TYPENAME##_collect(                              \
        shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems)     \
    {                                                                         \
        return coll_collect(__func__, team, dest, source, nelems,             \
                            sizeof(TYPE));                                    \
    }                                                                         \
    XG_PSHMEM(shmem_##TYPENAME##_collect)                                     \
    XG_SHMEM_API int shmem_##TYPENAME##_fcollect(                             \
        shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems)     \
    {                                                                         \
        return coll_fcollect(__func__, team, dest, source, nelems,            \
                             sizeof(TYPE));                                   \
    }                                                                         \
    XG_PSHMEM(shmem_##TYPENAME##_fcollect)                                    \
    XG_SHMEM_API int shmem_##TYPENAME##_alltoall(                             \
        shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems)     \
    {                                                                         \
        return coll_alltoall(__func__, team, dest, source, nelems,            \
                             sizeof(TYPE));                                   \
    }                                                                         \
    XG_PSHMEM(shmem_##TYPENAME##_alltoall)                                    \
    XG_SHMEM_API int shmem_##TYPENAME##_alltoalls(                            \
        shmem_team_t team, TYPE *dest, const TYPE *source, ptrdiff_t dst,     \
        ptrdiff_t sst, size_t nelems)                                         \
    {                                                                         \
        return coll_alltoalls(__func__, team, dest, source, dst, sst, nelems, \
                              sizeof(TYPE));                                  \
    }                                                                         \
    XG_PSHMEM(shmem_##TYPENAME##_alltoalls)
XG_SHMEM_RMA_TYPES(XG_DEFINE_COLL_DATA)
#undef XG_DEFINE_COLL_DATA

XG_SHMEM_API int shmem_broadcastmem(shmem_team_t team, void *dest,
                                    const void *source, size_t nelems,
                                    int PE_root)
{
    return coll_broadcast(__func__, team, dest, source, nelems, 1, PE_root);
}
XG_PSHMEM(shmem_broadcastmem)

XG_SHMEM_API int shmem_collectmem(shmem_team_t team, void *dest,
                                  const void *source, size_t nelems)
{
    return coll_collect(__func__, team, dest, source, nelems, 1);
}
XG_PSHMEM(shmem_collectmem)

XG_SHMEM_API int shmem_fcollectmem(shmem_team_t team, void *dest,
                                   const void *source, size_t nelems)
{
    return coll_fcollect(__func__, team, dest, source, nelems, 1);
}
XG_PSHMEM(shmem_fcollectmem)

XG_SHMEM_API int shmem_alltoallmem(shmem_team_t team, void *dest,
                                   const void *source, size_t nelems)
{
    return coll_alltoall(__func__, team, dest, source, nelems, 1);
}
XG_PSHMEM(shmem_alltoallmem)

XG_SHMEM_API int shmem_alltoallsmem(shmem_team_t team, void *dest,
                                    const void *source, ptrdiff_t dst,
                                    ptrdiff_t sst, size_t nelems)
{
    return coll_alltoalls(__func__, team, dest, source, dst, sst, nelems, 1);
}
XG_PSHMEM(shmem_alltoallsmem)

/* ---- deprecated active-set forms ---------------------------------------- */

static void aset_broadcast(const char *routine, void *dest, const void *source,
                           size_t nelems, size_t elem_size, int root,
                           int PE_start, int logPE_stride, int PE_size,
                           long *pSync)
{
    size_t nbytes = xg_shmem_coll_bytes(routine, nelems, elem_size);
    xg_coll_t coll;

    xg_shmem_coll_aset(routine, PE_start, logPE_stride, PE_size, pSync, &coll);
    coll_root(routine, root, PE_size, "active set");
    xg_shmem_coll_buf(routine, dest, nbytes);
    xg_shmem_coll_buf(routine, source, nbytes);
    xg_coll_broadcast(&coll, dest, source, nbytes, root, 0);
}

static void aset_collect(const char *routine, int fixed, void *dest,
                         const void *source, size_t nelems, size_t elem_size,
                         int PE_start, int logPE_stride, int PE_size,
                         long *pSync)
{
    size_t nbytes = xg_shmem_coll_bytes(routine, nelems, elem_size);
    xg_coll_t coll;

    xg_shmem_coll_aset(routine, PE_start, logPE_stride, PE_size, pSync, &coll);
    xg_shmem_coll_buf(routine, source, nbytes);
    if (fixed) {
        xg_shmem_coll_buf(
            routine, dest,
            xg_shmem_coll_bytes(routine, nbytes, (size_t)PE_size));
        xg_coll_fcollect(&coll, dest, source, nbytes);
    } else {
        xg_coll_collect(&coll, dest, source, nbytes, elem_size);
    }
}

static void aset_alltoalls(const char *routine, void *dest, const void *source,
                           ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                           size_t elem_size, int PE_start, int logPE_stride,
                           int PE_size, long *pSync)
{
    size_t all = xg_shmem_coll_bytes(routine, nelems, (size_t)PE_size);
    xg_coll_t coll;

    xg_shmem_coll_aset(routine, PE_start, logPE_stride, PE_size, pSync, &coll);
    coll_strides(routine, dst, sst);
    xg_shmem_coll_buf(routine, dest, coll_span(routine, all, dst, elem_size));
    xg_shmem_coll_buf(routine, source, coll_span(routine, all, sst, elem_size));
    if ((dst == 1) && (sst == 1)) {
        xg_coll_alltoall(&coll, dest, source, nelems * elem_size);
    } else {
        xg_coll_alltoalls(&coll, dest, source, dst, sst, nelems, elem_size);
    }
}

#define XG_DEFINE_COLL_SIZED(SIZE)                                            \
    XG_SHMEM_API void shmem_broadcast##SIZE(                                  \
        void *dest, const void *source, size_t nelems, int PE_root,           \
        int PE_start, int logPE_stride, int PE_size, long *pSync)             \
    {                                                                         \
        aset_broadcast(__func__, dest, source, nelems, (SIZE) / 8, PE_root,   \
                       PE_start, logPE_stride, PE_size, pSync);               \
    }                                                                         \
    XG_PSHMEM(shmem_broadcast##SIZE)                                          \
    XG_SHMEM_API void shmem_collect##SIZE(                                    \
        void *dest, const void *source, size_t nelems, int PE_start,          \
        int logPE_stride, int PE_size, long *pSync)                           \
    {                                                                         \
        aset_collect(__func__, 0, dest, source, nelems, (SIZE) / 8, PE_start, \
                     logPE_stride, PE_size, pSync);                           \
    }                                                                         \
    XG_PSHMEM(shmem_collect##SIZE)                                            \
    XG_SHMEM_API void shmem_fcollect##SIZE(                                   \
        void *dest, const void *source, size_t nelems, int PE_start,          \
        int logPE_stride, int PE_size, long *pSync)                           \
    {                                                                         \
        aset_collect(__func__, 1, dest, source, nelems, (SIZE) / 8, PE_start, \
                     logPE_stride, PE_size, pSync);                           \
    }                                                                         \
    XG_PSHMEM(shmem_fcollect##SIZE)                                           \
    XG_SHMEM_API void shmem_alltoall##SIZE(                                   \
        void *dest, const void *source, size_t nelems, int PE_start,          \
        int logPE_stride, int PE_size, long *pSync)                           \
    {                                                                         \
        aset_alltoalls(__func__, dest, source, 1, 1, nelems, (SIZE) / 8,      \
                       PE_start, logPE_stride, PE_size, pSync);               \
    }                                                                         \
    XG_PSHMEM(shmem_alltoall##SIZE)                                           \
    XG_SHMEM_API void shmem_alltoalls##SIZE(                                  \
        void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,         \
        size_t nelems, int PE_start, int logPE_stride, int PE_size,           \
        long *pSync)                                                          \
    {                                                                         \
        aset_alltoalls(__func__, dest, source, dst, sst, nelems, (SIZE) / 8,  \
                       PE_start, logPE_stride, PE_size, pSync);               \
    }                                                                         \
    XG_PSHMEM(shmem_alltoalls##SIZE)
XG_DEFINE_COLL_SIZED(32)
XG_DEFINE_COLL_SIZED(64)
#undef XG_DEFINE_COLL_SIZED
