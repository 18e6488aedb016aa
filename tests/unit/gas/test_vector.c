/*
 * Unit test of gas's vector put and get (xg_gas_putv/getv, the shape of
 * ARMCI's armci_giov_t): segments scattered over two heap objects and a
 * global array of the next PE, gets of segments from the previous PE,
 * every element checked (moved ones hold the sender's pattern, the rest
 * keep their sentinel), and bad calls -- a NULL array, a NULL local
 * pointer, a last segment past the end of the heap, a non-symmetric
 * segment, a PE out of range -- that return their status and move
 * nothing.  Run on the direct route and with XGAS_ROUTE=nic.
 */
#include <stdint.h>

#include "gas_test.h"
#include "xg_test.h"
#include "xgas.h"

#define NA       64
#define NB       32
#define NG       16
#define SEG      3 /* longs per segment */
#define SENTINEL (-1L)

static long global_g[NG];
static xg_gas_ctx_t ctx;

static long pattern(int pe, int seg, int k)
{
    return 1000L * (pe + 1) + 10L * seg + k;
}

/* The symmetric segment starts: a few in each object, unordered. */
static long *segment_start(long *a, long *b, int seg)
{
    static const int where[][2] = {{0, 40}, {1, 5}, {2, 0}, {0, 3},
                                   {1, 29}, {0, 61}, {2, 13}, {0, 20}};

    switch (where[seg][0]) {
    case 0:  return a + where[seg][1];
    case 1:  return b + where[seg][1];
    default: return global_g + where[seg][1];
    }
}

#define NSEG 8

static void reset(long *a, long *b)
{
    int i;

    for (i = 0; i < NA; i++) {
        a[i] = SENTINEL;
    }
    for (i = 0; i < NB; i++) {
        b[i] = SENTINEL;
    }
    for (i = 0; i < NG; i++) {
        global_g[i] = SENTINEL;
    }
}

/* Whether element @p of our objects lies in a segment; its pattern if so. */
static int expected(long *a, long *b, long *p, int from, long *value_p)
{
    int seg, k;

    for (seg = 0; seg < NSEG; seg++) {
        long *start = segment_start(a, b, seg);

        for (k = 0; k < SEG; k++) {
            if (start + k == p) {
                *value_p = pattern(from, seg, k);
                return 1;
            }
        }
    }
    return 0;
}

static void check_objects(long *a, long *b, int from, const char *what)
{
    long *objects[3] = {a, b, global_g};
    int sizes[3] = {NA, NB, NG};
    int o, i;
    long want;

    for (o = 0; o < 3; o++) {
        for (i = 0; i < sizes[o]; i++) {
            if (!expected(a, b, &objects[o][i], from, &want)) {
                want = SENTINEL;
            }
            XG_CHECK(objects[o][i] == want, "%s: object %d [%d] = %ld, "
                     "expected %ld", what, o, i, objects[o][i], want);
        }
    }
}

/* No bad call moved anything into our objects. */
static void check_untouched(long *a, long *b)
{
    int i;

    for (i = 0; i < NA; i++) {
        XG_CHECK(a[i] == SENTINEL, "a bad call moved a[%d] = %ld", i, a[i]);
    }
    for (i = 0; i < NB; i++) {
        XG_CHECK(b[i] == SENTINEL, "a bad call moved b[%d] = %ld", i, b[i]);
    }
}

static void check_putv(long *a, long *b, int me, int next, int prev)
{
    long src[NSEG][SEG];
    const void *srcs[NSEG];
    void *dsts[NSEG];
    int seg, k;

    reset(a, b);
    xg_barrier();
    for (seg = 0; seg < NSEG; seg++) {
        for (k = 0; k < SEG; k++) {
            src[seg][k] = pattern(me, seg, k);
        }
        srcs[seg] = src[seg];
        dsts[seg] = segment_start(a, b, seg);
    }
    XG_CHECK(xg_gas_putv(&ctx, dsts, srcs, SEG * sizeof(long), NSEG, next) ==
             XG_OK, "putv");
    xg_barrier();
    check_objects(a, b, prev, "putv");
}

static void check_getv(long *a, long *b, int me, int next)
{
    long dst[NSEG][SEG];
    const void *srcs[NSEG];
    void *dsts[NSEG];
    int seg, k;

    reset(a, b);
    for (seg = 0; seg < NSEG; seg++) {
        long *start = segment_start(a, b, seg);

        for (k = 0; k < SEG; k++) {
            start[k] = pattern(me, seg, k);
            dst[seg][k] = SENTINEL;
        }
        srcs[seg] = start;
        dsts[seg] = dst[seg];
    }
    xg_barrier();
    XG_CHECK(xg_gas_getv(&ctx, dsts, srcs, SEG * sizeof(long), NSEG, next) ==
             XG_OK, "getv");
    for (seg = 0; seg < NSEG; seg++) {
        for (k = 0; k < SEG; k++) {
            XG_CHECK(dst[seg][k] == pattern(next, seg, k),
                     "getv: segment %d [%d] = %ld", seg, k, dst[seg][k]);
        }
    }
    xg_barrier();
}

/* Each bad call returns @want and, because the checks come first, the
 * good segment 0 in front of the bad one is not moved either. */
static void check_errors(long *a, long *b, int npes, int next)
{
    long src[SEG] = {7, 8, 9}, local[SEG];
    const void *srcs[2] = {src, src};
    void *dsts[2];
    const void *nulls[2] = {src, NULL};
    xg_status_t status;

    reset(a, b);
    xg_barrier();
    dsts[0] = a;
    XG_CHECK(xg_gas_putv(&ctx, NULL, srcs, sizeof(src), 2, next) ==
             XG_ERR_INVALID_PARAM, "NULL destination array");
    XG_CHECK(xg_gas_putv(&ctx, dsts, NULL, sizeof(src), 2, next) ==
             XG_ERR_INVALID_PARAM, "NULL source array");
    dsts[1] = a + 1;
    XG_CHECK(xg_gas_putv(&ctx, dsts, nulls, sizeof(src), 2, next) ==
             XG_ERR_INVALID_PARAM, "NULL local segment");
    /* the last long below the heap's top: 3 longs run past the end */
    dsts[1] = (char *)xg_gas.heap_lo + xg_gas.table[next + 1].heap_top -
              sizeof(long);
    status = xg_gas_putv(&ctx, dsts, srcs, sizeof(src), 2, next);
    XG_CHECK(status == XG_ERR_OUT_OF_BOUNDS, "segment past the end: %d",
             (int)status);
    dsts[1] = local; /* the stack is not symmetric */
    status = xg_gas_putv(&ctx, dsts, srcs, sizeof(src), 2, next);
    XG_CHECK(status == XG_ERR_NOT_SYMMETRIC, "stack segment: %d",
             (int)status);
    dsts[1] = a + 4;
    status = xg_gas_putv(&ctx, dsts, srcs, sizeof(src), 2, npes);
    XG_CHECK(status == XG_ERR_PE_RANGE, "PE %d: %d", npes, (int)status);
    status = xg_gas_getv(&ctx, (void *const *)nulls, (const void *const *)dsts,
                         sizeof(src), 2, next);
    XG_CHECK(status == XG_ERR_INVALID_PARAM, "getv into NULL: %d",
             (int)status);
    XG_CHECK(xg_gas_putv(&ctx, dsts, srcs, 0, 2, next) == XG_OK,
             "zero length");
    XG_CHECK(xg_gas_putv(&ctx, dsts, srcs, sizeof(src), 0, next) == XG_OK,
             "zero segments");
    xg_barrier();
    check_untouched(a, b);
}

int main(void)
{
    long *a, *b;
    gas_test_ring_t ring;

    ring = gas_test_start(&ctx);
    XG_CHECK(xg_malloc(NA * sizeof(long), (void **)&a) == XG_OK, "alloc a");
    XG_CHECK(xg_malloc(NB * sizeof(long), (void **)&b) == XG_OK, "alloc b");

    check_putv(a, b, ring.me, ring.next, ring.prev);
    check_getv(a, b, ring.me, ring.next);
    check_errors(a, b, ring.npes, ring.next);

    xg_barrier();
    XG_CHECK(xg_free(b) == XG_OK, "free b");
    XG_CHECK(xg_free(a) == XG_OK, "free a");
    XG_CHECK(xg_fini() == XG_OK, "xg_fini");
    return XG_TEST_PASS;
}
