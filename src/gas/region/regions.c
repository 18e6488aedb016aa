/*
 * Regions (xg_gas_region.h): agreed allocation, the direct route, and the
 * dispatch of every operation to its PE's route (the table of regions is
 * table.c, the NIC route region_nic.c).
 */
#include "gas/region/region_int.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "base/xg_wait.h"
#include "gas/copy_int.h"
#include "gas/xg_gas_nic.h"
#include "mem/xg_mem.h"

/* ---- agreed allocation --------------------------------------------------- */

/* The design points (XGAS_ACC, XGAS_CONSISTENCY): each row's second word
 * (xg_gas_config.h), the configuration table having refused any other,
 * by xgasrun too. */
static void region_config(void)
{
    xg_gas_region_acc_source  = xg_config.acc_mode == 1;    /* source */
    xg_gas_region_per_process = xg_config.consistency == 1; /* process */
}

/* Every member's heap has @need bytes free at the offset returned in
 * *off_p (the members agreed on it), or none has (XG_ERR_NO_MEMORY on
 * all).  Members propose their lowest fit at or above the candidate until
 * the largest proposal is every member's fit. */
static xg_status_t region_place(size_t need, uint64_t first_fit,
                                xg_gas_agree_fn_t agree, void *arg,
                                uint64_t *off_p)
{
    uint64_t cand = first_fit, fit, v;
    xg_status_t status;

    for (;;) {
        if ((cand == UINT64_MAX) ||
            (xg_heap_fit(&xg_mem.heap, need, REGION_LOCK_LINE, cand, &fit) !=
             XG_OK)) {
            fit = UINT64_MAX;
        }
        v      = fit;
        status = agree(&v, 1, arg);
        if (status != XG_OK) {
            return status;
        }
        if (v == UINT64_MAX) {
            return XG_ERR_NO_MEMORY;
        }
        if (v == cand) {
            *off_p = cand;
            return XG_OK;
        }
        cand = v;
    }
}

static size_t region_need(size_t size)
{
    return xg_align_up(size, REGION_LOCK_LINE) + REGION_LOCK_LINE;
}

xg_status_t xg_gas_region_alloc(size_t size, xg_gas_agree_fn_t agree, void *arg,
                                xg_gas_region_t **region_p)
{
    uint64_t v[2], off = 0;
    xg_gas_region_t *region;
    xg_status_t status;
    void *ptr;

    *region_p = NULL;
    if (xg_gas.npes == 0) {
        return XG_ERR_NOT_INITIALIZED;
    }
    region_config();
    /* the size and a first candidate for its place in one agreement */
    v[0] = size;
    v[1] = 0;
    if ((size == 0) || (xg_heap_fit(&xg_mem.heap, region_need(size),
                                    REGION_LOCK_LINE, 0, &v[1]) != XG_OK)) {
        v[1] = (size == 0) ? 0 : UINT64_MAX;
    }
    status = agree(v, 2, arg);
    if ((status != XG_OK) || (v[0] == 0)) {
        return status;
    }
    size = (size_t)v[0];
    if ((size > xg_mem.heap_size) ||
        ((status = region_place(region_need(size), v[1], agree, arg, &off)) ==
         XG_ERR_NO_MEMORY)) {
        return XG_ERR_NO_MEMORY;
    }
    if (status != XG_OK) {
        return status;
    }
    region = calloc(1, sizeof(*region));
    status = (region == NULL) ? XG_ERR_NO_MEMORY
                              : xg_gas_alloc_at(off, region_need(size), &ptr);
    if (status == XG_OK) {
        region->base = (uintptr_t)ptr;
        region->size = size;
        region->id   = off;
        region->lock =
            (uint64_t *)(region->base + xg_align_up(size, REGION_LOCK_LINE));
        __atomic_store_n(region->lock, 0, __ATOMIC_RELAXED);
        region->key = -1;
        status      = xg_gas_region_insert(region);
        if (status == XG_OK) {
            status = xg_gas_region_nic_open(region);
            if (status != XG_OK) {
                xg_gas_region_remove(region);
            }
        }
        if (status != XG_OK) {
            xg_gas_free(ptr);
        }
    }
    /* every member succeeded, or none keeps it */
    v[0] = (status == XG_OK) ? 0 : 1;
    if (agree(v, 1, arg) != XG_OK) {
        v[0] = 1;
    }
    if (v[0] != 0) {
        if (status == XG_OK) {
            xg_gas_region_nic_close(region);
            xg_gas_region_remove(region);
            xg_gas_free(ptr);
            status = XG_ERR_NO_RESOURCE;
        }
        free(region);
        return status;
    }
    *region_p = region;
    return XG_OK;
}

xg_status_t xg_gas_region_free(xg_gas_region_t *region)
{
    xg_status_t status;

    if (region == NULL) {
        return XG_OK;
    }
    status = xg_gas_region_complete(region);
    xg_gas_region_nic_close(region);
    xg_gas_region_remove(region);
    if (xg_gas_free((void *)region->base) != XG_OK) {
        status = XG_ERR_INTERNAL;
    }
    free(region);
    return status;
}

void xg_gas_region_fini(void)
{
    xg_gas_region_table_clear(xg_gas_region_nic_close);
    xg_gas_region_nic_fini();
}

/* ---- checks --------------------------------------------------------------- */

/* The region of @len remote bytes at @addr. */
static xg_status_t region_range(const void *addr, size_t len,
                                xg_gas_region_t **region_p)
{
    xg_gas_region_t *region;

    if (xg_unlikely(xg_gas.npes == 0)) {
        return XG_ERR_NOT_INITIALIZED;
    }
    region = xg_gas_region_lookup(addr);
    if (xg_unlikely(region == NULL)) {
        return XG_ERR_NOT_SYMMETRIC;
    }
    if (xg_unlikely(len > region->base + region->size - (uintptr_t)addr)) {
        return XG_ERR_OUT_OF_BOUNDS;
    }
    *region_p = region;
    return XG_OK;
}

static xg_status_t region_check_acc(xg_gas_xfer_t kind, const xg_gas_acc_t *acc,
                                    size_t len)
{
    size_t elem;

    if (kind != XG_GAS_XFER_ACC) {
        return XG_OK;
    }
    if ((acc == NULL) || !xg_op_valid(XG_OP_ACC, acc->type)) {
        return XG_ERR_INVALID_PARAM;
    }
    elem = xg_op_type_size(acc->type);
    return ((elem == 0) || (len % elem != 0)) ? XG_ERR_INVALID_PARAM : XG_OK;
}

static int region_pe_direct(int pe)
{
    return xg_gas.table[pe + 1].route == XG_GAS_ROUTE_DIRECT;
}

int xg_gas_region_direct(int pe)
{
    return ((unsigned)pe < (unsigned)xg_gas.npes) && region_pe_direct(pe);
}

/* The direct route's pointer to @len bytes of @addr (in a region) on
 * @pe. */
static char *region_direct_ptr(const void *addr, size_t len, int pe)
{
    char *ptr = xg_gas_translate_fast(addr, len, pe);

    return (ptr != NULL) ? ptr : xg_gas_translate(addr, len, pe);
}

/* ---- the direct route ------------------------------------------------------ */

int region_rows_next(region_rows_t *rows, char **remote_p, char **local_p,
                     size_t *len_p)
{
    int put = rows->kind != XG_GAS_XFER_GET;
    char *d;
    const char *s;
    int i;

    if (rows->shape == NULL) {
        for (; rows->vnext < rows->vcount; rows->vnext++) {
            size_t k = rows->vnext;

            char *remote =
                (put ? (char *)rows->vdst[k] : (char *)rows->vsrc[k]) +
                rows->delta;

            if ((rows->only != NULL) &&
                (xg_gas_region_lookup(remote) != rows->only)) {
                continue;
            }
            rows->vnext++;
            *remote_p = remote;
            *local_p  = put ? (char *)rows->vsrc[k] : (char *)rows->vdst[k];
            *len_p    = rows->vlen;
            return 1;
        }
        return 0;
    }
    /* the index vector counts rows like an odometer */
    if (rows->started) {
        for (i = 0; i < rows->shape->levels; i++) {
            if (++rows->idx[i] < rows->shape->count[i + 1]) {
                break;
            }
            rows->idx[i] = 0;
        }
        if (i == rows->shape->levels) {
            return 0;
        }
    }
    rows->started = 1;
    d             = rows->dst;
    s             = rows->src;
    for (i = 0; i < rows->shape->levels; i++) {
        d += rows->idx[i] * rows->shape->dst_stride[i];
        s += rows->idx[i] * rows->shape->src_stride[i];
    }
    *remote_p = put ? d : (char *)s;
    *local_p  = put ? (char *)s : d;
    *len_p    = rows->shape->count[0];
    return 1;
}

/* What turns PE @pe's address of data into this PE's address of its own
 * copy (the same offset in this PE's partition). */
static uintptr_t region_delta(int pe)
{
    return xg_gas.heap_lo - xg_gas.table[pe + 1].base;
}

/* The rows' bases, the remote one as this PE's address of its copy. */
static void region_rows_bases(region_rows_t *rows, void *dst, const void *src,
                              int pe)
{
    uintptr_t delta = region_delta(pe);

    rows->dst = (char *)dst + ((rows->kind == XG_GAS_XFER_GET) ? 0 : delta);
    rows->src =
        (const char *)src + ((rows->kind == XG_GAS_XFER_GET) ? delta : 0);
}

/* The rows of strided shape @s between the remote block at @r (a pointer
 * the direct route reaches, translated once for the whole extent) and
 * local @l: the rows of level 0 in a tight loop, the levels above by an
 * odometer. */
static void region_direct_shape(xg_gas_xfer_t kind, const xg_gas_acc_t *acc,
                                char *r, char *l, const xg_gas_shape_t *s)
{
    const size_t *rs =
        (kind == XG_GAS_XFER_GET) ? s->src_stride : s->dst_stride;
    const size_t *ls =
        (kind == XG_GAS_XFER_GET) ? s->dst_stride : s->src_stride;
    size_t idx[XG_GAS_SHAPE_MAX_LEVELS] = {0}, row = s->count[0];
    size_t n1  = (s->levels > 0) ? s->count[1] : 1;
    size_t rs0 = (s->levels > 0) ? rs[0] : 0, ls0 = (s->levels > 0) ? ls[0] : 0;
    size_t j;
    int i;

    for (;;) {
        char *rp = r, *lp = l;

        for (i = 1; i < s->levels; i++) {
            rp += idx[i] * rs[i];
            lp += idx[i] * ls[i];
        }
        switch (kind) {
        case XG_GAS_XFER_PUT:
            xg_gas_copy_strided(rp, (ptrdiff_t)rs0, lp, (ptrdiff_t)ls0, row,
                                n1);
            break;
        case XG_GAS_XFER_GET:
            xg_gas_copy_strided(lp, (ptrdiff_t)ls0, rp, (ptrdiff_t)rs0, row,
                                n1);
            break;
        default:
            for (j = 0; j < n1; j++) {
                xg_gas_region_acc_apply(acc, rp + j * rs0, lp + j * ls0, row);
            }
        }
        for (i = 1; i < s->levels; i++) {
            if (++idx[i] < s->count[i + 1]) {
                break;
            }
            idx[i] = 0;
        }
        if (i >= s->levels) {
            return;
        }
    }
}

/* The rows of a transfer to a PE of the direct route: copies, or element
 * updates under the target's region lock. */
static xg_status_t region_direct_rows(xg_gas_region_t *region, int pe,
                                      const xg_gas_acc_t *acc,
                                      region_rows_t *rows)
{
    uint64_t *lock = NULL;
    char *remote, *local;
    size_t len;

    if (rows->kind == XG_GAS_XFER_ACC) {
        lock = (uint64_t *)region_direct_ptr(region->lock, sizeof(*lock), pe);
        xg_gas_region_lock_word(lock);
    }
    if (rows->shape != NULL) {
        xg_status_t ignore;
        int get       = rows->kind == XG_GAS_XFER_GET;
        size_t extent = xg_gas_shape_extent(rows->kind, rows->shape, &ignore);

        region_direct_shape(
            rows->kind, acc,
            region_direct_ptr(get ? rows->src : rows->dst, extent, pe),
            get ? rows->dst : (char *)rows->src, rows->shape);
    } else {
        while (region_rows_next(rows, &remote, &local, &len)) {
            char *ptr = region_direct_ptr(remote, len, pe);

            switch (rows->kind) {
            case XG_GAS_XFER_PUT: xg_gas_copy(ptr, local, len); break;
            case XG_GAS_XFER_GET: xg_gas_copy(local, ptr, len); break;
            default: xg_gas_region_acc_apply(acc, ptr, local, len);
            }
        }
    }
    if (lock != NULL) {
        __atomic_store_n(lock, 0, __ATOMIC_RELEASE);
    }
    return XG_OK;
}

static xg_status_t region_rows_xfer(xg_gas_region_t *region, int pe,
                                    const xg_gas_acc_t *acc,
                                    region_rows_t *rows,
                                    xg_gas_region_t **pending_p)
{
    xg_status_t status;

    if (region_pe_direct(pe)) {
        return region_direct_rows(region, pe, acc, rows);
    }
    status = xg_gas_region_nic_xfer(region, pe, acc, rows, pending_p != NULL);
    if ((status == XG_OK) && (pending_p != NULL) &&
        !xg_gas_region_nic_idle(region)) {
        *pending_p = (*pending_p == NULL) ? region : XG_GAS_PENDING_MANY;
    }
    return status;
}

/* ---- operations -------------------------------------------------------------- */

static xg_status_t region_check_pe(int pe)
{
    if (xg_unlikely((unsigned)pe >= (unsigned)xg_gas.npes)) {
        return (xg_gas.npes == 0) ? XG_ERR_NOT_INITIALIZED : XG_ERR_PE_RANGE;
    }
    return XG_OK;
}

xg_status_t xg_gas_region_xfer(xg_gas_xfer_t kind, const xg_gas_acc_t *acc,
                               void *dst, const void *src, size_t len, int pe,
                               xg_gas_region_t **pending_p)
{
    const char *remote = (kind == XG_GAS_XFER_GET) ? src : dst;
    xg_gas_region_t *region;
    xg_gas_shape_t shape;
    region_rows_t rows;
    xg_status_t status;
    void *ptr;

    if (pending_p != NULL) {
        *pending_p = NULL;
    }
    status = region_check_pe(pe);
    if (xg_unlikely(status != XG_OK)) {
        return status;
    }
    if (xg_unlikely(len == 0)) {
        return XG_OK;
    }
    status = region_range(remote + region_delta(pe), len, &region);
    if (xg_unlikely(status != XG_OK)) {
        return status;
    }
    /* the same-node put and get: the address is mapped here, one copy */
    if (xg_likely(kind != XG_GAS_XFER_ACC) && region_pe_direct(pe)) {
        ptr = (void *)remote;
        if (kind == XG_GAS_XFER_PUT) {
            xg_gas_copy(ptr, src, len);
        } else {
            xg_gas_copy(dst, ptr, len);
        }
        return XG_OK;
    }
    status = region_check_acc(kind, acc, len);
    if (status != XG_OK) {
        return status;
    }
    memset(&rows, 0, sizeof(rows));
    memset(&shape, 0, sizeof(shape));
    shape.count[0] = len;
    rows.kind      = kind;
    rows.shape     = &shape;
    region_rows_bases(&rows, dst, src, pe);
    return region_rows_xfer(region, pe, acc, &rows, pending_p);
}

size_t xg_gas_shape_extent(xg_gas_xfer_t kind, const xg_gas_shape_t *shape,
                           xg_status_t *status_p)
{
    const size_t *stride =
        (kind == XG_GAS_XFER_GET) ? shape->src_stride : shape->dst_stride;
    size_t extent = shape->count[0], step;
    int i;

    *status_p = XG_OK;
    for (i = 0; i < shape->levels; i++) {
        if (shape->count[i + 1] == 0) {
            return 0;
        }
        if (__builtin_mul_overflow(shape->count[i + 1] - 1, stride[i], &step) ||
            __builtin_add_overflow(extent, step, &extent)) {
            *status_p = XG_ERR_OUT_OF_BOUNDS;
            return 0;
        }
    }
    return extent;
}

/* Folds levels whose rows are contiguous on both sides into longer rows
 * (a 2-D patch of full rows is one copy). */
static void region_shape_fold(xg_gas_shape_t *shape)
{
    while ((shape->levels > 0) && (shape->dst_stride[0] == shape->count[0]) &&
           (shape->src_stride[0] == shape->count[0]) &&
           (shape->count[1] <= SIZE_MAX / shape->count[0])) {
        int i;

        shape->count[0] *= shape->count[1];
        for (i = 1; i < shape->levels; i++) {
            shape->count[i]          = shape->count[i + 1];
            shape->dst_stride[i - 1] = shape->dst_stride[i];
            shape->src_stride[i - 1] = shape->src_stride[i];
        }
        shape->levels--;
    }
}

xg_status_t xg_gas_region_xfer_strided(xg_gas_xfer_t kind,
                                       const xg_gas_acc_t *acc, void *dst,
                                       const void *src,
                                       const xg_gas_shape_t *shape, int pe,
                                       xg_gas_region_t **pending_p)
{
    const char *remote = (kind == XG_GAS_XFER_GET) ? src : dst;
    xg_gas_region_t *region;
    xg_gas_shape_t folded;
    region_rows_t rows;
    xg_status_t status;
    size_t extent;

    if (pending_p != NULL) {
        *pending_p = NULL;
    }
    status = region_check_pe(pe);
    if (status != XG_OK) {
        return status;
    }
    if ((shape == NULL) || (shape->levels < 0) ||
        (shape->levels > XG_GAS_SHAPE_MAX_LEVELS)) {
        return XG_ERR_INVALID_PARAM;
    }
    extent = xg_gas_shape_extent(kind, shape, &status);
    if ((status != XG_OK) || (extent == 0)) {
        return status;
    }
    status = region_range(remote + region_delta(pe), extent, &region);
    if (status == XG_OK) {
        status = region_check_acc(kind, acc, shape->count[0]);
    }
    if (status != XG_OK) {
        return status;
    }
    folded = *shape;
    region_shape_fold(&folded);
    memset(&rows, 0, sizeof(rows));
    rows.kind  = kind;
    rows.shape = &folded;
    region_rows_bases(&rows, dst, src, pe);
    return region_rows_xfer(region, pe, acc, &rows, pending_p);
}

xg_status_t xg_gas_region_xfer_vector(xg_gas_xfer_t kind,
                                      const xg_gas_acc_t *acc, void *const *dst,
                                      const void *const *src, size_t len,
                                      size_t count, int pe,
                                      xg_gas_region_t **pending_p)
{
    enum {
        VECTOR_REGIONS = 16
    };
    xg_gas_region_t *region, *seen[VECTOR_REGIONS];
    region_rows_t rows;
    xg_status_t status;
    uintptr_t delta;
    size_t i, nseen = 0;

    if (pending_p != NULL) {
        *pending_p = NULL;
    }
    status = region_check_pe(pe);
    if ((status != XG_OK) || (count == 0) || (len == 0)) {
        return status;
    }
    delta = region_delta(pe);
    if ((dst == NULL) || (src == NULL)) {
        return XG_ERR_INVALID_PARAM;
    }
    status = region_check_acc(kind, acc, len);
    /* every segment first: a failing call moves nothing */
    for (i = 0; (i < count) && (status == XG_OK); i++) {
        if ((kind == XG_GAS_XFER_GET ? dst[i] : src[i]) == NULL) {
            return XG_ERR_INVALID_PARAM;
        }
        status = region_range(
            (const char *)(kind == XG_GAS_XFER_GET ? src[i] : dst[i]) + delta,
            len, &region);
    }
    if (status != XG_OK) {
        return status;
    }
    memset(&rows, 0, sizeof(rows));
    rows.kind   = kind;
    rows.vdst   = dst;
    rows.vsrc   = src;
    rows.vlen   = len;
    rows.vcount = count;
    rows.delta  = delta;
    /* one pass per region the segments touch (usually one); past
     * VECTOR_REGIONS distinct regions, segments of the others one by
     * one */
    for (i = 0; (i < count) && (status == XG_OK); i++) {
        size_t k;

        region = xg_gas_region_lookup(
            (const char *)(kind == XG_GAS_XFER_GET ? src[i] : dst[i]) + delta);
        for (k = 0; (k < nseen) && (seen[k] != region); k++) {
        }
        if (k < nseen) {
            continue; /* its pass took every one of its segments */
        }
        rows.only   = region;
        rows.vnext  = i;
        rows.vcount = count;
        if (nseen < VECTOR_REGIONS) {
            seen[nseen++] = region;
        } else {
            rows.vcount = i + 1;
        }
        status = region_rows_xfer(region, pe, acc, &rows, pending_p);
    }
    return status;
}

xg_gas_amo_result_t xg_gas_region_rmw(xg_gas_amo_t op, void *dst, size_t size,
                                      uint64_t value, int pe)
{
    xg_gas_amo_result_t result = {0, XG_OK};
    xg_gas_region_t *region;

    result.status = region_check_pe(pe);
    if (result.status == XG_OK) {
        result.status =
            region_range((char *)dst + region_delta(pe), size, &region);
    }
    if ((result.status == XG_OK) &&
        ((((size != 4) && (size != 8))) ||
         ((op != XG_GAS_AMO_ADD) && (op != XG_GAS_AMO_SWAP)))) {
        result.status = XG_ERR_INVALID_PARAM;
    }
    if ((result.status == XG_OK) && (((uintptr_t)dst & (size - 1)) != 0)) {
        result.status = XG_ERR_MISALIGNED;
    }
    if (result.status != XG_OK) {
        return result;
    }
    if (region_pe_direct(pe)) {
        result.old = xg_gas_amo_apply(op, dst, size, value, 0);
        return result;
    }
    return xg_gas_region_nic_rmw(
        region, pe, op, (uintptr_t)dst + region_delta(pe) - region->base, size,
        value);
}

/* ---- completion ---------------------------------------------------------- */

xg_status_t xg_gas_region_complete(xg_gas_region_t *region)
{
    if (region == XG_GAS_PENDING_MANY) {
        region = NULL;
    }
    return xg_gas_region_nic_complete(region);
}

int xg_gas_region_test(xg_gas_region_t *region)
{
    if (region == XG_GAS_PENDING_MANY) {
        region = NULL;
    }
    return xg_gas_region_nic_idle(region);
}

xg_status_t xg_gas_region_fence(int pe)
{
    (void)pe; /* the NIC route counts per region, not per target */
    xg_gas_am_idle();
    return xg_gas_region_nic_complete(NULL);
}

void xg_gas_region_print_stats(void)
{
    const xg_gas_region_stats_t *s = &xg_gas_region_stats;

    fprintf(stderr,
            "xgas[pe %d] stats: region keys hit %" PRIu64 " missed %" PRIu64
            " evicted %" PRIu64 "; active messages "
            "sent %" PRIu64 " served %" PRIu64 " (deferred to the "
            "application %" PRIu64 "); gets that waited for writes %" PRIu64
            "\n",
            xg_gas.me, s->key_hits, s->key_misses, s->key_evictions, s->am_sent,
            s->am_served, s->am_deferred, s->get_fences);
}
