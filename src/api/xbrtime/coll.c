/*
 * xbrtime collectives: broadcast, scatter, gather and alltoall over every
 * PE of the job, each one call into the collective engine
 * (gas/coll/xg_coll.h) after the argument checks.  The engine reads the other
 * PEs' symmetric sources in place, so src must be symmetric (the same
 * object on every PE); a broadcast's dest too, as it may be staged.
 *
 * Strides count elements and apply to src and dest alike.  The engine's
 * broadcast moves contiguous bytes, so a strided broadcast goes through a
 * contiguous symmetric staging array: the root gathers its elements into
 * it (a strided gas get from itself), the engine broadcasts it, and every
 * other PE scatters it into dest (a strided gas put to itself).  Every PE
 * allocates and frees the staging array in the same call, so it has the
 * same offset everywhere, and nobody reads it after the engine returns.
 */
#include "api/xbrtime/xbrtime_int.h"
#include "api/xbrtime/xbrtime_coll.h"
#include "base/xg_log.h"
#include "mem/xg_heap.h"

/* ---- checks and staging (shared with reduce.c) -------------------------- */

static void coll_root(const char *routine, int root)
{
    if ((root < 0) || (root >= xg_gas.npes)) {
        xg_xbrtime_fail(routine,
                        "root %d is not a PE of this job, which "
                        "has PEs 0..%d",
                        root, xg_gas.npes - 1);
    }
}

/* @len bytes at @ptr are symmetric memory of this PE, or the job ends. */
static void coll_sym(const char *routine, const void *ptr, size_t len)
{
    xg_status_t status;

    if (len == 0) {
        return;
    }
    status = xg_gas_diagnose(ptr, len, xg_gas.me);
    if (status != XG_OK) {
        xg_xbrtime_access_fail(routine, status, ptr, len, xg_gas.me);
    }
}

size_t xg_xbrtime_coll_rooted(const char *routine, const void *dest,
                              const void *src, size_t nelems, int stride,
                              size_t elem, int root)
{
    size_t span;

    xg_xbrtime_check_running(routine);
    xg_xbrtime_check_stride(routine, "stride", stride);
    coll_root(routine, root);
    span = xg_xbrtime_span(routine, nelems, stride, elem);
    coll_sym(routine, dest, span);
    coll_sym(routine, src, span);
    return span;
}

void *xg_xbrtime_stage(const char *routine, size_t len)
{
    void *tmp = NULL;

    if (xg_gas_alloc(len, XG_HEAP_MIN_ALIGN, &tmp) != XG_OK) {
        xg_xbrtime_fail(routine,
                        "no room in the symmetric heap for the "
                        "%zu-byte staging array of a strided collective: "
                        "set SHMEM_SYMMETRIC_SIZE larger",
                        len);
    }
    return tmp;
}

void xg_xbrtime_stage_free(void *tmp)
{
    xg_status_t status = xg_gas_free(tmp);

    xg_assert(status == XG_OK);
    (void)status;
}

void xg_xbrtime_stage_in(const char *routine, void *tmp, const void *src,
                         size_t nelems, int stride, size_t elem)
{
    xg_status_t status =
        xg_gas_iget(&xg_xbrtime_ctx, tmp, src, elem, (ptrdiff_t)elem,
                    (ptrdiff_t)stride * (ptrdiff_t)elem, nelems, xg_gas.me);

    if (status != XG_OK) {
        xg_xbrtime_access_fail(routine, status, src,
                               xg_xbrtime_span(routine, nelems, stride, elem),
                               xg_gas.me);
    }
}

void xg_xbrtime_stage_out(const char *routine, void *dest, const void *tmp,
                          size_t nelems, int stride, size_t elem)
{
    xg_status_t status = xg_gas_iput(&xg_xbrtime_ctx, dest, tmp, elem,
                                     (ptrdiff_t)stride * (ptrdiff_t)elem,
                                     (ptrdiff_t)elem, nelems, xg_gas.me);

    if (status != XG_OK) {
        xg_xbrtime_access_fail(routine, status, dest,
                               xg_xbrtime_span(routine, nelems, stride, elem),
                               xg_gas.me);
    }
}

/* ---- broadcast ---------------------------------------------------------- */

static void coll_broadcast(const char *routine, void *dest, const void *src,
                           size_t nelems, int stride, size_t elem, int root)
{
    size_t span =
        xg_xbrtime_coll_rooted(routine, dest, src, nelems, stride, elem, root);
    size_t len;
    xg_coll_t coll;
    void *tmp;

    xg_coll_team(&coll, &xg_team_world, routine);
    /* the root's dest is not written, as in the published runtime */
    if ((stride == 1) || (nelems <= 1)) {
        xg_coll_broadcast(&coll, dest, src, span, root, 0);
        return;
    }
    len = nelems * elem;
    tmp = xg_xbrtime_stage(routine, len);
    if (xg_gas.me == root) {
        xg_xbrtime_stage_in(routine, tmp, src, nelems, stride, elem);
    }
    xg_coll_broadcast(&coll, tmp, tmp, len, root, 0);
    if (xg_gas.me != root) {
        xg_xbrtime_stage_out(routine, dest, tmp, nelems, stride, elem);
    }
    xg_xbrtime_stage_free(tmp);
}

/* ---- scatter and gather ------------------------------------------------- */

/* Every PE's block lies within the nelems elements of the whole array. */
static void coll_blocks(const char *routine, const int *pe_msg_sz,
                        const int *pe_disp, size_t nelems)
{
    int p;

    if ((pe_msg_sz == NULL) || (pe_disp == NULL)) {
        xg_xbrtime_fail(routine,
                        "pe_msg_sz %p, pe_disp %p: both must be "
                        "arrays of xbrtime_num_pes() ints",
                        (const void *)pe_msg_sz, (const void *)pe_disp);
    }
    for (p = 0; p < xg_gas.npes; p++) {
        if ((pe_msg_sz[p] < 0) || (pe_disp[p] < 0) ||
            ((size_t)pe_disp[p] + (size_t)pe_msg_sz[p] > nelems)) {
            xg_xbrtime_fail(routine,
                            "the block of PE %d, pe_msg_sz[%d] = "
                            "%d elements from pe_disp[%d] = %d, is not "
                            "within the %zu elements of nelems: counts and "
                            "displacements are non-negative and nelems "
                            "counts the whole array",
                            p, p, pe_msg_sz[p], p, pe_disp[p], nelems);
        }
    }
}

/* Scatter (@gather 0) or gather: the engine reads the other PEs'
 * sources, the root's whole array or each PE's block. */
static void coll_blocked(const char *routine, int gather, void *dest,
                         const void *src, const int *pe_msg_sz,
                         const int *pe_disp, size_t nelems, size_t elem,
                         int root)
{
    xg_coll_t coll;

    xg_xbrtime_check_running(routine);
    coll_root(routine, root);
    coll_blocks(routine, pe_msg_sz, pe_disp, nelems);
    coll_sym(routine, src,
             xg_xbrtime_span(routine,
                             gather ? (size_t)pe_msg_sz[xg_gas.me] : nelems, 1,
                             elem));
    xg_coll_team(&coll, &xg_team_world, routine);
    if (gather) {
        xg_coll_gatherv(&coll, dest, src, pe_msg_sz, pe_disp, nelems, elem,
                        root);
    } else {
        xg_coll_scatterv(&coll, dest, src, pe_msg_sz, pe_disp, nelems, elem,
                         root);
    }
}

/* ---- alltoall ----------------------------------------------------------- */

static void coll_alltoall(const char *routine, void *dest, const void *src,
                          int src_stride, int dest_stride, size_t nelems,
                          size_t elem)
{
    size_t all;
    xg_coll_t coll;

    xg_xbrtime_check_running(routine);
    xg_xbrtime_check_stride(routine, "src_stride", src_stride);
    xg_xbrtime_check_stride(routine, "dest_stride", dest_stride);
    if (nelems > SIZE_MAX / (size_t)xg_gas.npes) {
        xg_xbrtime_fail(routine, "nelems %zu times %d PEs overflows size_t",
                        nelems, xg_gas.npes);
    }
    all = nelems * (size_t)xg_gas.npes;
    coll_sym(routine, src, xg_xbrtime_span(routine, all, src_stride, elem));
    xg_xbrtime_span(routine, all, dest_stride, elem);
    xg_coll_team(&coll, &xg_team_world, routine);
    if ((src_stride == 1) && (dest_stride == 1)) {
        xg_coll_alltoall(&coll, dest, src, nelems * elem);
    } else {
        xg_coll_alltoalls(&coll, dest, src, dest_stride, src_stride, nelems,
                          elem);
    }
}

#define XBR_DEFINE_COLL(TYPE, NAME, COLL, BITS, AMO, UAMO)                    \
    XBRTIME_IF_##COLL(                                                        \
        XG_XBRTIME_API void xbrtime_##NAME##_broadcast(                       \
            TYPE *dest, const TYPE *src, size_t nelems, int stride,           \
            int root) {                                                       \
            coll_broadcast(__func__, dest, src, nelems, stride, sizeof(TYPE), \
                           root);                                             \
        } XG_XBRTIME_API void xbrtime_##NAME##_scatter(TYPE *dest,            \
                                                       const TYPE *src,       \
                                                       int *pe_msg_sz,        \
                                                       int *pe_disp,          \
                                                       size_t nelems,         \
                                                       int root) {            \
            coll_blocked(__func__, 0, dest, src, pe_msg_sz, pe_disp, nelems,  \
                         sizeof(TYPE), root);                                 \
        } XG_XBRTIME_API void xbrtime_##NAME##_gather(TYPE *dest,             \
                                                      const TYPE *src,        \
                                                      int *pe_msg_sz,         \
                                                      int *pe_disp,           \
                                                      size_t nelems,          \
                                                      int root) {             \
            coll_blocked(__func__, 1, dest, src, pe_msg_sz, pe_disp, nelems,  \
                         sizeof(TYPE), root);                                 \
        } XG_XBRTIME_API void xbrtime_##NAME##_alltoall(TYPE *dest,           \
                                                        const TYPE *src,      \
                                                        int src_stride,       \
                                                        int dest_stride,      \
                                                        size_t nelems) {      \
            coll_alltoall(__func__, dest, src, src_stride, dest_stride,       \
                          nelems, sizeof(TYPE));                              \
        })
XBRTIME_TYPE_TABLE(XBR_DEFINE_COLL)
#undef XBR_DEFINE_COLL
