/*
 * xbrtime reductions: xbrtime_TYPENAME_reduce_F for F in sum, product,
 * min, max (every collective type) and and, or, xor (the integer types),
 * each the collective engine's reduction with the (operation, type) of
 * the typed-operation table (base/xg_op.h).  The engine leaves the result
 * in dest on every PE, root included, where the published runtime writes
 * only the root's.  Integer sums and products wrap around.
 *
 * With a stride above 1 the elements are packed into a contiguous
 * symmetric staging array on every PE, reduced there in place and
 * unpacked into dest (see coll.c).
 */
#include "api/xbrtime/xbrtime_coll.h"
#include "api/xbrtime/xbrtime_int.h"
#include "base/xg_op.h"

static void coll_reduce(const char *routine, void *dest, const void *src,
                        size_t nelems, int stride, int root, xg_op_t op,
                        xg_op_type_t type)
{
    size_t elem = xg_op_type_size(type);
    size_t span =
        xg_xbrtime_coll_rooted(routine, dest, src, nelems, stride, elem, root);
    uintptr_t d = (uintptr_t)dest, s = (uintptr_t)src;
    xg_coll_t coll;
    void *tmp;

    if ((span > 0) && (d != s) && (d < s + span) && (s < d + span)) {
        xg_xbrtime_fail(routine,
                        "dest %p and src %p overlap by part of "
                        "their %zu bytes: they must be the same array or "
                        "disjoint",
                        dest, src, span);
    }
    xg_coll_team(&coll, &xg_team_world, routine);
    if ((stride == 1) || (nelems <= 1)) {
        xg_coll_reduce(&coll, dest, src, nelems, op, type);
        return;
    }
    tmp = xg_xbrtime_stage(routine, nelems * elem);
    xg_xbrtime_stage_in(routine, tmp, src, nelems, stride, elem);
    xg_coll_reduce(&coll, tmp, tmp, nelems, op, type);
    xg_xbrtime_stage_out(routine, dest, tmp, nelems, stride, elem);
    xg_xbrtime_stage_free(tmp);
}

#define XBR_DEFINE_REDUCE(TYPE, NAME, F, OP)                              \
    XG_XBRTIME_API void xbrtime_##NAME##_reduce_##F(                      \
        TYPE *dest, const TYPE *src, size_t nelems, int stride, int root) \
    {                                                                     \
        coll_reduce(__func__, dest, src, nelems, stride, root, OP,        \
                    XG_TYPE_OF(TYPE));                                    \
    }
#define XBR_DEFINE_REDUCES(TYPE, NAME, COLL, BITS, AMO, UAMO)      \
    XBRTIME_IF_##COLL(                                             \
        XBR_DEFINE_REDUCE(TYPE, NAME, sum, XG_OP_SUM)              \
            XBR_DEFINE_REDUCE(TYPE, NAME, product, XG_OP_PROD)     \
                XBR_DEFINE_REDUCE(TYPE, NAME, min, XG_OP_MIN)      \
                    XBR_DEFINE_REDUCE(TYPE, NAME, max, XG_OP_MAX)) \
        XBRTIME_IF_##BITS(                                         \
            XBR_DEFINE_REDUCE(TYPE, NAME, and, XG_OP_BAND)         \
                XBR_DEFINE_REDUCE(TYPE, NAME, or, XG_OP_BOR)       \
                    XBR_DEFINE_REDUCE(TYPE, NAME, xor, XG_OP_BXOR))
XBRTIME_TYPE_TABLE(XBR_DEFINE_REDUCES)
#undef XBR_DEFINE_REDUCES
#undef XBR_DEFINE_REDUCE
