/*
 * xbrtime typed put and get, blocking and _nb, contiguous and strided.
 * The stride counts elements and applies to both arrays, as in the
 * published runtime (its assembly steps source and destination by the
 * same stride * sizeof(TYPE) bytes).  Stride 1 is one contiguous gas
 * transfer, anything larger one strided gas transfer.  Blocking forms are
 * complete when they return; _nb forms complete at xbrtime_barrier.
 */
#include <stdint.h>

#include "api/xbrtime/xbrtime_int.h"

enum {
    XBR_GET = 0,
    XBR_PUT = 1
};

static XG_NOINLINE void rma_strided(const char *routine, int put, int nb,
                                    void *dest, const void *src, size_t nelems,
                                    int stride, size_t elem, int pe)
{
    ptrdiff_t step;
    size_t span;
    xg_status_t status;

    xg_xbrtime_check_stride(routine, "stride", stride);
    span = xg_xbrtime_span(routine, nelems, stride, elem);
    step = (ptrdiff_t)stride * (ptrdiff_t)elem;
    (void)nb; /* the strided gas transfers complete before they return */
    status = put ? xg_gas_iput(&xg_xbrtime_ctx, dest, src, elem, step, step,
                               nelems, pe)
                 : xg_gas_iget(&xg_xbrtime_ctx, dest, src, elem, step, step,
                               nelems, pe);
    if (status != XG_OK) {
        xg_xbrtime_access_fail(routine, status, put ? dest : src, span, pe);
    }
}

static XG_NOINLINE void rma_too_long(const char *routine, size_t nelems,
                                     size_t elem)
{
    xg_xbrtime_fail(routine,
                    "%zu elements of %zu bytes overflow the "
                    "address space: check nelems",
                    nelems, elem);
}

static XG_ALWAYS_INLINE void rma(const char *routine, int put, int nb,
                                 void *dest, const void *src, size_t nelems,
                                 int stride, size_t elem, int pe)
{
    size_t len = nelems * elem;
    xg_status_t status;

    if (xg_unlikely(stride != 1)) {
        rma_strided(routine, put, nb, dest, src, nelems, stride, elem, pe);
        return;
    }
    if (xg_unlikely(nelems > SIZE_MAX / elem)) {
        rma_too_long(routine, nelems, elem);
    }
    if (put) {
        status = nb ? xg_gas_put_nbi(&xg_xbrtime_ctx, dest, src, len, pe)
                    : xg_gas_put(&xg_xbrtime_ctx, dest, src, len, pe);
    } else {
        status = nb ? xg_gas_get_nbi(&xg_xbrtime_ctx, dest, src, len, pe)
                    : xg_gas_get(&xg_xbrtime_ctx, dest, src, len, pe);
    }
    if (xg_unlikely(status != XG_OK)) {
        xg_xbrtime_access_fail(routine, status, put ? dest : src, len, pe);
    }
}

#define XBR_DEFINE_RMA(TYPE, NAME, COLL, BITS, AMO, UAMO)                  \
    XG_XBRTIME_API void xbrtime_##NAME##_put(                              \
        TYPE *dest, const TYPE *src, size_t nelems, int stride, int pe)    \
    {                                                                      \
        rma(__func__, XBR_PUT, 0, dest, src, nelems, stride, sizeof(TYPE), \
            pe);                                                           \
    }                                                                      \
    XG_XBRTIME_API void xbrtime_##NAME##_put_nb(                           \
        TYPE *dest, const TYPE *src, size_t nelems, int stride, int pe)    \
    {                                                                      \
        rma(__func__, XBR_PUT, 1, dest, src, nelems, stride, sizeof(TYPE), \
            pe);                                                           \
    }                                                                      \
    XG_XBRTIME_API void xbrtime_##NAME##_get(                              \
        TYPE *dest, const TYPE *src, size_t nelems, int stride, int pe)    \
    {                                                                      \
        rma(__func__, XBR_GET, 0, dest, src, nelems, stride, sizeof(TYPE), \
            pe);                                                           \
    }                                                                      \
    XG_XBRTIME_API void xbrtime_##NAME##_get_nb(                           \
        TYPE *dest, const TYPE *src, size_t nelems, int stride, int pe)    \
    {                                                                      \
        rma(__func__, XBR_GET, 1, dest, src, nelems, stride, sizeof(TYPE), \
            pe);                                                           \
    }
XBRTIME_TYPE_TABLE(XBR_DEFINE_RMA)
#undef XBR_DEFINE_RMA
