/*
 * Unit test of regions (gas/region/xg_gas_region.h), the operations under
 * libarmci: agreed placement over heaps that differ, sizes that differ
 * per PE and all-zero allocations; contiguous put and get of odd sizes
 * (one byte to past the NIC's rendezvous limit); strided shapes of 1 to 8
 * levels with odd counts; vectors over two regions; accumulates of every
 * type from every PE onto the same elements, checked exactly; fetch-and-
 * add and swap from every PE; non-blocking transfers and location
 * consistency; and the bad calls, each returning its status and moving
 * nothing.  Run on the direct route and on the NIC route under each
 * design point (XGAS_ACC, XGAS_AM_THREAD, XGAS_REGION_CACHE,
 * XGAS_CONSISTENCY); on the NIC route the counters of the key cache and
 * of the active messages are checked against what the setting implies.
 */
#include <complex.h>
#include <stdint.h>
#include <string.h>

#include "base/xg_config.h"
#include "gas/coll/xg_coll.h"
#include "gas/coll/xg_team.h"
#include "gas/region/region_int.h"
#include "gas/xg_gas_nic.h"
#include "gas_test.h"

static gas_test_ring_t ring;
static uint64_t *agree_in, *agree_out; /* symmetric scratch */

static void reduce_u64(uint64_t *v, size_t n, xg_op_t op)
{
    xg_coll_t coll;

    memcpy(agree_in, v, n * sizeof(*v));
    xg_coll_team(&coll, &xg_team_world, "test_region");
    xg_coll_reduce(&coll, agree_out, agree_in, n, op, XG_TYPE_U64);
    memcpy(v, agree_out, n * sizeof(*v));
}

static xg_status_t agree_max(uint64_t *values, size_t n, void *arg)
{
    (void)arg;
    reduce_u64(values, n, XG_OP_MAX);
    return XG_OK;
}

static xg_gas_region_t *region_new(size_t size)
{
    xg_gas_region_t *region;

    XG_CHECK(xg_gas_region_alloc(size, agree_max, NULL, &region) == XG_OK,
             "region_alloc of %zu bytes", size);
    return region;
}

/* PE @pe's address of byte @off of @r: what operations name. */
static void *at(xg_gas_region_t *r, int pe, size_t off)
{
    return (char *)xg_gas_region_base_of(r, pe) + off;
}

/* A counter of xg_gas_region_stats (the NIC's thread updates them). */
static uint64_t stat(const uint64_t *counter)
{
    return __atomic_load_n(counter, __ATOMIC_RELAXED);
}

static int on_nic(void)
{
    return xg_gas_nic_reaches(ring.next);
}

static unsigned char byte_of(int pe, size_t i)
{
    return (unsigned char)(pe * 37 + i * 11 + 1);
}

/* ---- placement ---------------------------------------------------------- */

static void test_placement(void)
{
    xg_gas_region_t *r, *zero;
    uint64_t v[2];
    void *extra = NULL;

    /* odd PEs take a block the others do not: the heaps differ */
    if (ring.me % 2 == 1) {
        XG_CHECK(xg_gas_alloc(4096 + 64 * (size_t)ring.me, 16, &extra) == XG_OK,
                 "asymmetric block");
    }
    r = region_new(1000 + (size_t)ring.me);
    XG_CHECK(r != NULL, "region");
    XG_CHECK(xg_gas_region_size(r) == 1000 + (size_t)ring.npes - 1,
             "size %zu: the largest asked", xg_gas_region_size(r));
    /* the same offset in every partition */
    v[0] = r->id;
    v[1] = UINT64_MAX - v[0];
    reduce_u64(v, 2, XG_OP_MAX);
    XG_CHECK((v[0] == r->id) && (UINT64_MAX - v[1] == v[0]),
             "offsets differ between PEs");
    XG_CHECK(xg_gas_region_base_of(r, ring.me) == xg_gas_region_base(r),
             "this PE's base");
    XG_CHECK(xg_gas_region_find((char *)xg_gas_region_base(r) + 999) == r,
             "find inside");
    XG_CHECK(xg_gas_region_find((char *)xg_gas_region_base(r) +
                                xg_gas_region_size(r)) != r,
             "find past the end");
    /* only PE 0 asks for nothing: every PE still has the block */
    if (ring.npes > 1) {
        zero = region_new(ring.me == 0 ? 0 : 128);
        XG_CHECK(zero != NULL, "a region some PEs asked 0 bytes of");
        XG_CHECK(xg_gas_region_free(zero) == XG_OK, "free");
    }
    /* nobody asks: no region */
    zero = region_new(0);
    XG_CHECK(zero == NULL, "all zero sizes give no region");
    XG_CHECK(xg_gas_region_free(r) == XG_OK, "free");
    if (extra != NULL) {
        XG_CHECK(xg_gas_free(extra) == XG_OK, "free the block");
    }
}

/* ---- contiguous, strided, vector ----------------------------------------- */

#define BIG (48 * 1024) /* past the NIC's eager limit: rendezvous */

static void test_contiguous(void)
{
    static const size_t sizes[] = {1, 3, 7, 8, 17, 1000, 8191, 9000, BIG};
    xg_gas_region_t *r          = region_new(BIG + 64);
    unsigned char *base         = xg_gas_region_base(r);
    static unsigned char src[BIG + 64], back[BIG + 64];
    size_t k, i, off = 5;

    for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        size_t n = sizes[k];

        memset(base, 0xee, BIG + 64);
        for (i = 0; i < n; i++) {
            src[i] = byte_of(ring.me, i + k);
        }
        xg_barrier();
        XG_CHECK(xg_gas_region_xfer(XG_GAS_XFER_PUT, NULL,
                                    at(r, ring.next, off), src, n, ring.next,
                                    NULL) == XG_OK,
                 "put %zu", n);
        /* the buffer may be reused at once */
        memset(src, 0, n);
        XG_CHECK(xg_gas_region_fence(ring.next) == XG_OK, "fence");
        xg_barrier();
        for (i = 0; i < BIG + 64; i++) {
            unsigned char want = ((i >= off) && (i < off + n))
                                     ? byte_of(ring.prev, i - off + k)
                                     : 0xee;

            XG_CHECK(base[i] == want, "put of %zu: byte %zu is %u, not %u", n,
                     i, base[i], want);
        }
        xg_barrier();
        XG_CHECK(xg_gas_region_xfer(XG_GAS_XFER_GET, NULL, back,
                                    at(r, ring.next, off), n, ring.next,
                                    NULL) == XG_OK,
                 "get");
        for (i = 0; i < n; i++) {
            XG_CHECK(back[i] == byte_of(ring.me, i + k), "get of %zu: byte %zu",
                     n, i);
        }
        xg_barrier();
    }
    XG_CHECK(xg_gas_region_free(r) == XG_OK, "free");
}

/* A shape of @levels levels with odd counts and padding between rows. */
static void make_shape(xg_gas_shape_t *s, int levels, size_t *span)
{
    static const size_t counts[] = {2, 3, 2, 2, 1, 2, 3, 2};
    int i;

    memset(s, 0, sizeof(*s));
    s->levels   = levels;
    s->count[0] = 5 + (size_t)levels; /* bytes per row, odd-ish */
    *span       = s->count[0];
    for (i = 0; i < levels; i++) {
        s->count[i + 1] = counts[i];
        /* remote rows packed with a gap, local ones with another */
        s->dst_stride[i] = *span + 3;
        s->src_stride[i] = *span + 1;
        *span            = s->dst_stride[i] * s->count[i + 1];
    }
}

/* Offsets of the rows of @s on the dst (@dst_side) or the src side. */
static int shape_has(const xg_gas_shape_t *s, int dst_side, size_t at,
                     size_t *local_p)
{
    size_t idx[XG_GAS_SHAPE_MAX_LEVELS] = {0};
    int i;

    for (;;) {
        size_t d = 0, l = 0;

        for (i = 0; i < s->levels; i++) {
            d += idx[i] * (dst_side ? s->dst_stride[i] : s->src_stride[i]);
            l += idx[i] * (dst_side ? s->src_stride[i] : s->dst_stride[i]);
        }
        if ((at >= d) && (at < d + s->count[0])) {
            *local_p = l + (at - d);
            return 1;
        }
        for (i = 0; i < s->levels; i++) {
            if (++idx[i] < s->count[i + 1]) {
                break;
            }
            idx[i] = 0;
        }
        if (i == s->levels) {
            return 0;
        }
    }
}

static void test_strided(void)
{
    enum {
        AREA = 16384
    };
    xg_gas_region_t *r  = region_new(AREA);
    unsigned char *base = xg_gas_region_base(r);
    static unsigned char src[AREA], back[AREA];
    xg_gas_shape_t s;
    size_t span, i, l;
    int levels;

    for (levels = 0; levels <= XG_GAS_SHAPE_MAX_LEVELS; levels++) {
        make_shape(&s, levels, &span);
        XG_CHECK(span <= AREA, "shape of %d levels too large", levels);
        for (i = 0; i < AREA; i++) {
            src[i] = byte_of(ring.me, i + (size_t)levels);
        }
        memset(base, 0, AREA);
        xg_barrier();
        XG_CHECK(xg_gas_region_xfer_strided(XG_GAS_XFER_PUT, NULL,
                                            at(r, ring.next, 0), src, &s,
                                            ring.next, NULL) == XG_OK,
                 "strided put of %d levels", levels);
        XG_CHECK(xg_gas_region_fence(-1) == XG_OK, "fence");
        xg_barrier();
        for (i = 0; i < AREA; i++) {
            unsigned char want = shape_has(&s, 1, i, &l)
                                     ? byte_of(ring.prev, l + (size_t)levels)
                                     : 0;

            XG_CHECK(base[i] == want, "%d levels: byte %zu is %u, not %u",
                     levels, i, base[i], want);
        }
        /* the same shape back: get with the strides swapped */
        memset(back, 0, AREA);
        {
            xg_gas_shape_t g = s;

            memcpy(g.dst_stride, s.src_stride, sizeof(g.dst_stride));
            memcpy(g.src_stride, s.dst_stride, sizeof(g.src_stride));
            XG_CHECK(xg_gas_region_xfer_strided(XG_GAS_XFER_GET, NULL, back,
                                                at(r, ring.next, 0), &g,
                                                ring.next, NULL) == XG_OK,
                     "strided get of %d levels", levels);
            /* a local byte of the shape is the one this PE put at the
             * same row position */
            for (i = 0; i < AREA; i++) {
                unsigned char want = shape_has(&g, 1, i, &l)
                                         ? byte_of(ring.me, i + (size_t)levels)
                                         : 0;

                XG_CHECK(back[i] == want, "get %d levels: byte %zu", levels, i);
            }
        }
        xg_barrier();
    }
    XG_CHECK(xg_gas_region_free(r) == XG_OK, "free");
}

static void test_vector(void)
{
    enum {
        N   = 8,
        LEN = 24
    };
    xg_gas_region_t *a = region_new(1024), *b = region_new(512);
    char *pa = xg_gas_region_base(a), *pb = xg_gas_region_base(b);
    void *remote[N], *local[N];
    static char src[N][LEN], back[N][LEN];
    int i, j;

    for (i = 0; i < N; i++) {
        remote[i] = (i % 2) ? at(a, ring.next, 100 * (size_t)i)
                            : at(b, ring.next, 50 * (size_t)i);
        local[i]  = src[i];
        for (j = 0; j < LEN; j++) {
            src[i][j] = (char)byte_of(ring.me, (size_t)(i * LEN + j));
        }
    }
    memset(pa, 0, 1024);
    memset(pb, 0, 512);
    xg_barrier();
    XG_CHECK(xg_gas_region_xfer_vector(XG_GAS_XFER_PUT, NULL, remote,
                                       (const void *const *)local, LEN, N,
                                       ring.next, NULL) == XG_OK,
             "putv");
    XG_CHECK(xg_gas_region_fence(-1) == XG_OK, "fence");
    xg_barrier();
    for (i = 0; i < N; i++) {
        const char *mine = (i % 2) ? pa + 100 * i : pb + 50 * i;

        for (j = 0; j < LEN; j++) {
            XG_CHECK(mine[j] == (char)byte_of(ring.prev, (size_t)(i * LEN + j)),
                     "putv segment %d byte %d", i, j);
        }
        local[i] = back[i];
    }
    xg_barrier();
    XG_CHECK(xg_gas_region_xfer_vector(XG_GAS_XFER_GET, NULL, local,
                                       (const void *const *)remote, LEN, N,
                                       ring.next, NULL) == XG_OK,
             "getv");
    for (i = 0; i < N; i++) {
        XG_CHECK(memcmp(back[i], src[i], LEN) == 0, "getv segment %d", i);
    }
    xg_barrier();
    XG_CHECK(xg_gas_region_free(a) == XG_OK, "free");
    XG_CHECK(xg_gas_region_free(b) == XG_OK, "free");
}

/* ---- accumulate ------------------------------------------------------------- */

/* Every PE adds scale * (pe + 1) * (i + 1) to element i of PE @target, as
 * a contiguous, a strided and a vector accumulate: integers of the sum are
 * exact in every type. */
#define ACC_N 300

static void set_elem(xg_op_type_t t, void *p, size_t i, double v)
{
    switch (t) {
    case XG_TYPE_I32: ((int32_t *)p)[i] = (int32_t)v; break;
    case XG_TYPE_I64: ((int64_t *)p)[i] = (int64_t)v; break;
    case XG_TYPE_FLOAT: ((float *)p)[i] = (float)v; break;
    case XG_TYPE_DOUBLE: ((double *)p)[i] = v; break;
    case XG_TYPE_CFLOAT:
        ((float *)p)[2 * i]     = (float)v;
        ((float *)p)[2 * i + 1] = (float)(2 * v);
        break;
    default:
        ((double *)p)[2 * i]     = v;
        ((double *)p)[2 * i + 1] = 2 * v;
        break;
    }
}

static double get_elem(xg_op_type_t t, const void *p, size_t i, int imag)
{
    switch (t) {
    case XG_TYPE_I32: return ((const int32_t *)p)[i];
    case XG_TYPE_I64: return (double)((const int64_t *)p)[i];
    case XG_TYPE_FLOAT: return ((const float *)p)[i];
    case XG_TYPE_DOUBLE: return ((const double *)p)[i];
    case XG_TYPE_CFLOAT: return ((const float *)p)[2 * i + imag];
    default: return ((const double *)p)[2 * i + imag];
    }
}

static void test_acc(void)
{
    static const xg_op_type_t types[] = {XG_TYPE_I32,    XG_TYPE_I64,
                                         XG_TYPE_FLOAT,  XG_TYPE_DOUBLE,
                                         XG_TYPE_CFLOAT, XG_TYPE_CDOUBLE};
    static unsigned char src[ACC_N * 16];
    xg_gas_region_t *r  = region_new(ACC_N * 16);
    unsigned char *base = xg_gas_region_base(r);
    size_t k, i;
    int target;

    for (k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
        xg_op_type_t t = types[k];
        size_t es      = xg_op_type_size(t);
        xg_gas_acc_t acc;
        xg_gas_shape_t s;
        void *vr[ACC_N / 2];
        const void *vl[ACC_N / 2];
        size_t third = ACC_N / 3;

        memset(&acc, 0, sizeof(acc));
        acc.type = t;
        set_elem(t, acc.scale, 0, 3); /* complex scale 3 + 6i */
        if ((t == XG_TYPE_CFLOAT) || (t == XG_TYPE_CDOUBLE)) {
            set_elem(t == XG_TYPE_CFLOAT ? XG_TYPE_FLOAT : XG_TYPE_DOUBLE,
                     acc.scale, 1, 0); /* real scale 3 for complex */
        }
        for (i = 0; i < ACC_N; i++) {
            set_elem(t, src, i, (double)(ring.me + 1) * (double)(i + 1));
        }
        memset(base, 0, ACC_N * 16);
        xg_barrier();
        for (target = 0; target < ring.npes; target++) {
            /* first third contiguous */
            XG_CHECK(xg_gas_region_xfer(XG_GAS_XFER_ACC, &acc, at(r, target, 0),
                                        src, third * es, target, NULL) == XG_OK,
                     "acc");
            /* second third strided: 1 element rows, stride 1 element */
            memset(&s, 0, sizeof(s));
            s.levels        = 1;
            s.count[0]      = es;
            s.count[1]      = third;
            s.dst_stride[0] = s.src_stride[0] = es;
            XG_CHECK(xg_gas_region_xfer_strided(
                         XG_GAS_XFER_ACC, &acc, at(r, target, third * es),
                         src + third * es, &s, target, NULL) == XG_OK,
                     "strided acc");
            /* the rest as a vector of one element each */
            for (i = 0; i < ACC_N - 2 * third; i++) {
                vr[i] = at(r, target, (2 * third + i) * es);
                vl[i] = src + (2 * third + i) * es;
            }
            XG_CHECK(xg_gas_region_xfer_vector(XG_GAS_XFER_ACC, &acc, vr, vl,
                                               es, ACC_N - 2 * third, target,
                                               NULL) == XG_OK,
                     "vector acc");
        }
        XG_CHECK(xg_gas_region_fence(-1) == XG_OK, "fence");
        xg_barrier();
        for (i = 0; i < ACC_N; i++) {
            /* sum over PEs of 3 (p + 1)(i + 1) */
            double want =
                3.0 * (double)(i + 1) * ring.npes * (ring.npes + 1) / 2;

            XG_CHECK(get_elem(t, base, i, 0) == want,
                     "type %d element %zu: %g, not %g", (int)t, i,
                     get_elem(t, base, i, 0), want);
            if ((t == XG_TYPE_CFLOAT) || (t == XG_TYPE_CDOUBLE)) {
                XG_CHECK(get_elem(t, base, i, 1) == 2 * want,
                         "type %d element %zu imag", (int)t, i);
            }
        }
        xg_barrier();
    }
    XG_CHECK(xg_gas_region_free(r) == XG_OK, "free");
}

/* A vector accumulate whose segments cycle through more regions than one
 * pass keeps apart (18): each segment must be applied exactly once. */
static void test_vector_acc(void)
{
    enum {
        NREG   = 18,
        ROUNDS = 3,
        SEGS   = NREG * ROUNDS
    };
    xg_gas_region_t *r[NREG];
    void *remote[SEGS];
    const void *local[SEGS];
    static int64_t one = 1;
    xg_gas_acc_t acc   = {.type = XG_TYPE_I64};
    int i, target;

    memcpy(acc.scale, &one, sizeof(one));
    for (i = 0; i < NREG; i++) {
        r[i] = region_new(64);
        memset(xg_gas_region_base(r[i]), 0, 64);
    }
    xg_barrier();
    for (target = 0; target < ring.npes; target++) {
        for (i = 0; i < SEGS; i++) {
            /* region i % NREG, word i / NREG */
            remote[i] = at(r[i % NREG], target, 8 * (size_t)(i / NREG));
            local[i]  = &one;
        }
        XG_CHECK(xg_gas_region_xfer_vector(XG_GAS_XFER_ACC, &acc, remote, local,
                                           8, SEGS, target, NULL) == XG_OK,
                 "vector acc over %d regions", NREG);
    }
    XG_CHECK(xg_gas_region_fence(-1) == XG_OK, "fence");
    xg_barrier();
    for (i = 0; i < SEGS; i++) {
        int64_t got = ((int64_t *)xg_gas_region_base(r[i % NREG]))[i / NREG];

        XG_CHECK(got == ring.npes, "segment %d applied %lld times, not %d", i,
                 (long long)got, ring.npes);
    }
    xg_barrier();
    for (i = 0; i < NREG; i++) {
        XG_CHECK(xg_gas_region_free(r[i]) == XG_OK, "free");
    }
}

/* ---- read-modify-write ------------------------------------------------------ */

static void test_rmw(void)
{
    enum {
        ROUNDS = 50
    };
    xg_gas_region_t *r = region_new(64);
    int64_t *words     = xg_gas_region_base(r);
    uint64_t sums[2]   = {0, 0}, v[2];
    xg_gas_amo_result_t res;
    int i;

    memset(words, 0, 64);
    xg_barrier();
    for (i = 0; i < ROUNDS; i++) {
        res = xg_gas_region_rmw(XG_GAS_AMO_ADD, at(r, 0, 0), 8, 1, 0);
        XG_CHECK(res.status == XG_OK, "fetch-add");
        sums[0] += res.old;
        res = xg_gas_region_rmw(XG_GAS_AMO_ADD, at(r, ring.npes - 1, 8), 4, 2,
                                ring.npes - 1);
        XG_CHECK(res.status == XG_OK, "fetch-add int");
        sums[1] += res.old;
    }
    /* swap: each PE puts its number into the next PE's word 2 */
    res = xg_gas_region_rmw(XG_GAS_AMO_SWAP, at(r, ring.next, 16), 8,
                            (uint64_t)ring.me + 100, ring.next);
    XG_CHECK(res.status == XG_OK, "swap");
    xg_barrier();
    v[0] = sums[0];
    v[1] = sums[1];
    {
        xg_coll_t coll;

        memcpy(agree_in, v, sizeof(v));
        xg_coll_team(&coll, &xg_team_world, "test_region");
        xg_coll_reduce(&coll, agree_out, agree_in, 2, XG_OP_SUM, XG_TYPE_U64);
        memcpy(v, agree_out, sizeof(v));
    }
    /* the fetched values are 0..total-1, each once */
    {
        uint64_t total = (uint64_t)ROUNDS * (uint64_t)ring.npes;

        XG_CHECK(v[0] == total * (total - 1) / 2,
                 "fetch-add results sum "
                 "to %llu",
                 (unsigned long long)v[0]);
        XG_CHECK(v[1] == total * (total - 1), "int fetch-add results");
        if (ring.me == 0) {
            XG_CHECK(words[0] == (int64_t)total, "counter %lld",
                     (long long)words[0]);
        }
        if (ring.me == ring.npes - 1) {
            XG_CHECK(((int32_t *)&words[1])[0] == (int32_t)(2 * total),
                     "int counter");
        }
    }
    XG_CHECK(words[2] == ring.prev + 100, "swap left %lld",
             (long long)words[2]);
    xg_barrier();
    XG_CHECK(xg_gas_region_free(r) == XG_OK, "free");
}

/* ---- non-blocking, consistency ------------------------------------------------ */

static void test_nb_consistency(void)
{
    xg_gas_region_t *a = region_new(BIG), *b = region_new(256);
    char *pa = xg_gas_region_base(a), *pb = xg_gas_region_base(b);
    static char src[BIG], back[BIG];
    xg_gas_region_t *pending = NULL;
    uint64_t fences;
    int i;

    memset(pa, 0, BIG);
    memset(pb, 7, 256);
    for (i = 0; i < BIG; i++) {
        src[i] = (char)byte_of(ring.me, (size_t)i);
    }
    xg_barrier();
    /* learn the keys first (a get answers with the key) */
    XG_CHECK(xg_gas_region_xfer(XG_GAS_XFER_GET, NULL, back,
                                at(a, ring.next, 0), 8, ring.next,
                                NULL) == XG_OK,
             "warm-up");
    XG_CHECK(xg_gas_region_xfer(XG_GAS_XFER_GET, NULL, back,
                                at(b, ring.next, 0), 8, ring.next,
                                NULL) == XG_OK,
             "warm-up");
    XG_CHECK(xg_gas_region_xfer(XG_GAS_XFER_PUT, NULL, at(a, ring.next, 0), src,
                                BIG, ring.next, &pending) == XG_OK,
             "nb put");
    fences = stat(&xg_gas_region_stats.get_fences);
    /* a get of the other region needs no fence ... */
    XG_CHECK(xg_gas_region_xfer(XG_GAS_XFER_GET, NULL, back,
                                at(b, ring.next, 0), 256, ring.next,
                                NULL) == XG_OK,
             "get b");
    for (i = 0; i < 256; i++) {
        XG_CHECK(back[i] == 7, "b byte %d", i);
    }
    /* (per process, it fences if the put is still in flight) */
    XG_CHECK(
        stat(&xg_gas_region_stats.get_fences) - fences <=
            (xg_gas_region_per_process ? 1u : 0u),
        "a get of another region fenced %llu times",
        (unsigned long long)(stat(&xg_gas_region_stats.get_fences) - fences));
    /* ... one of the same region sees the put (location consistency) */
    memset(back, 0, BIG);
    XG_CHECK(xg_gas_region_xfer(XG_GAS_XFER_GET, NULL, back,
                                at(a, ring.next, 0), BIG, ring.next,
                                NULL) == XG_OK,
             "get a");
    XG_CHECK(memcmp(back, src, BIG) == 0, "a get after a put to the same "
                                          "region does not see it");
    XG_CHECK(xg_gas_region_complete(pending) == XG_OK, "complete");
    XG_CHECK(xg_gas_region_test(pending), "test after complete");
    xg_barrier();
    XG_CHECK(xg_gas_region_free(a) == XG_OK, "free");
    XG_CHECK(xg_gas_region_free(b) == XG_OK, "free");
}

/* ---- bad calls ------------------------------------------------------------------- */

static void test_errors(void)
{
    xg_gas_region_t *r = region_new(256);
    char *base         = xg_gas_region_base(r);
    char stack[64];
    void *remote[2]      = {at(r, ring.next, 0), stack};
    const void *local[2] = {stack, stack};
    xg_gas_shape_t s;
    xg_gas_acc_t acc = {.type = XG_TYPE_DOUBLE};

    memset(base, 1, 256);
    xg_barrier();
    XG_CHECK(xg_gas_region_xfer(XG_GAS_XFER_PUT, NULL, stack, stack, 8,
                                ring.next, NULL) == XG_ERR_NOT_SYMMETRIC,
             "put to the stack");
    XG_CHECK(xg_gas_region_xfer(XG_GAS_XFER_GET, NULL, stack,
                                at(r, ring.next, 250), 8, ring.next,
                                NULL) == XG_ERR_OUT_OF_BOUNDS,
             "get past the end");
    XG_CHECK(xg_gas_region_xfer(XG_GAS_XFER_PUT, NULL, base, stack, 8,
                                ring.npes, NULL) == XG_ERR_PE_RANGE,
             "bad PE");
    XG_CHECK(xg_gas_region_xfer(XG_GAS_XFER_ACC, &acc, at(r, ring.next, 0),
                                stack, 12, ring.next,
                                NULL) == XG_ERR_INVALID_PARAM,
             "acc of 12 bytes of doubles");
    memset(&s, 0, sizeof(s));
    s.levels        = 2;
    s.count[0]      = 8;
    s.count[1]      = 2;
    s.count[2]      = 3;
    s.dst_stride[0] = 16;
    s.dst_stride[1] = SIZE_MAX / 2;
    s.src_stride[0] = 8;
    s.src_stride[1] = 16;
    XG_CHECK(xg_gas_region_xfer_strided(
                 XG_GAS_XFER_PUT, NULL, at(r, ring.next, 0), stack, &s,
                 ring.next, NULL) == XG_ERR_OUT_OF_BOUNDS,
             "stride overflow");
    s.levels = XG_GAS_SHAPE_MAX_LEVELS + 1;
    XG_CHECK(xg_gas_region_xfer_strided(
                 XG_GAS_XFER_PUT, NULL, at(r, ring.next, 0), stack, &s,
                 ring.next, NULL) == XG_ERR_INVALID_PARAM,
             "9 levels");
    XG_CHECK(
        xg_gas_region_rmw(XG_GAS_AMO_ADD, at(r, ring.next, 4), 8, 1, ring.next)
                .status == XG_ERR_MISALIGNED,
        "misaligned rmw");
    /* the second segment is bad: the first must not move either */
    memset(stack, 9, sizeof(stack));
    XG_CHECK(xg_gas_region_xfer_vector(XG_GAS_XFER_PUT, NULL, remote, local, 8,
                                       2, ring.next,
                                       NULL) == XG_ERR_NOT_SYMMETRIC,
             "vector with a bad segment");
    XG_CHECK(xg_gas_region_fence(-1) == XG_OK, "fence");
    xg_barrier();
    XG_CHECK(base[0] == 1, "a failing vector moved its good segment");
    xg_barrier();
    XG_CHECK(xg_gas_region_free(r) == XG_OK, "free");
}

/* ---- the design points' counters ----------------------------------------------- */

static void test_counters(void)
{
    const xg_gas_region_stats_t *st = &xg_gas_region_stats;
    xg_gas_region_t *a = region_new(64), *b = region_new(64);
    uint64_t hits, evictions, sent;
    char buf[8] = {0};
    int i;

    if (!on_nic()) {
        XG_CHECK((stat(&st->am_sent) == 0) && (stat(&st->key_misses) == 0),
                 "the direct route sent active messages");
        goto out;
    }
    hits      = stat(&st->key_hits);
    evictions = stat(&st->key_evictions);
    sent      = stat(&st->am_sent);
    for (i = 0; i < 20; i++) {
        XG_CHECK(xg_gas_region_xfer(XG_GAS_XFER_GET, NULL, buf,
                                    at(i % 2 ? a : b, ring.next, 0), 8,
                                    ring.next, NULL) == XG_OK,
                 "get");
    }
    if (xg_config.region_cache == 0) {
        XG_CHECK(stat(&st->key_hits) == hits, "a disabled cache hit");
        XG_CHECK(stat(&st->am_sent) >= sent + 20, "gets without keys are "
                                                  "active messages");
    } else if (xg_config.region_cache == 1) {
        /* two regions alternate in one entry: each miss evicts */
        XG_CHECK(stat(&st->key_evictions) > evictions,
                 "no eviction with "
                 "one entry for two regions");
    } else {
        XG_CHECK(stat(&st->key_hits) >= hits + 16,
                 "keys were not cached: "
                 "%llu hits",
                 (unsigned long long)(stat(&st->key_hits) - hits));
    }
out:
    xg_barrier();
    XG_CHECK(xg_gas_region_free(a) == XG_OK, "free");
    XG_CHECK(xg_gas_region_free(b) == XG_OK, "free");
}

int main(void)
{
    xg_gas_ctx_t ctx;

    ring = gas_test_start(&ctx);
    XG_CHECK(xg_malloc(16 * sizeof(uint64_t), (void **)&agree_in) == XG_OK,
             "scratch");
    XG_CHECK(xg_malloc(16 * sizeof(uint64_t), (void **)&agree_out) == XG_OK,
             "scratch");
    test_placement();
    test_contiguous();
    test_strided();
    test_vector();
    test_acc();
    test_vector_acc();
    test_rmw();
    test_nb_consistency();
    test_errors();
    test_counters();
    xg_barrier();
    if (ring.me == 0) {
        printf("unit_gas_region: passed on %d PEs (%s route)\n", ring.npes,
               on_nic() ? "nic" : "direct");
    }
    XG_CHECK(xg_fini() == XG_OK, "fini");
    return 0;
}
