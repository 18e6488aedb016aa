/*
 * xbrtime alltoall for every collective type, contiguous and with
 * src_stride 2 and dest_stride 3: element k of block p of dest on PE q,
 * at (p * nelems + k) * dest_stride, is element (q * nelems + k) *
 * src_stride of src on PE p; the elements between the strided ones stay
 * untouched.  dest is plain local memory.
 */
#include "xbr_test.h"

#define NELEMS        3
#define MAXPES        16
#define SENT          101
#define VAL(T, pe, i) ((T)(((pe)*11 + (i)) % 100))

static int me, npes;

#define TEST_ALLTOALL(TYPE, NAME, COLL, BITS, AMO, UAMO)                \
    XBRTIME_IF_##COLL(static void test_##NAME(int sst, int dst) {       \
        int all   = NELEMS * npes, i, p, k;                             \
        TYPE *src = xbrtime_malloc(sizeof(TYPE) * (size_t)(all * sst)); \
        TYPE dest[NELEMS * MAXPES * 3];                                 \
        TYPE want;                                                      \
                                                                        \
        XG_CHECK(src != NULL, "malloc");                                \
        for (i = 0; i < all * sst; i++) {                               \
            src[i] = VAL(TYPE, me, i);                                  \
        }                                                               \
        for (i = 0; i < all * dst; i++) {                               \
            dest[i] = (TYPE)SENT;                                       \
        }                                                               \
        xbrtime_##NAME##_alltoall(dest, src, sst, dst, NELEMS);         \
        for (i = 0; i < all * dst; i++) {                               \
            want = (TYPE)SENT;                                          \
            if (i % dst == 0) {                                         \
                p    = (i / dst) / NELEMS;                              \
                k    = (i / dst) % NELEMS;                              \
                want = VAL(TYPE, p, (me * NELEMS + k) * sst);           \
            }                                                           \
            XG_CHECK(dest[i] == want,                                   \
                     #NAME "_alltoall strides %d/%d: "                  \
                           "element %d",                                \
                     sst, dst, i);                                      \
        }                                                               \
        xbrtime_free(src);                                              \
    })
XBRTIME_TYPE_TABLE(TEST_ALLTOALL)

int main(void)
{
    xbr_test_start(&me, &npes);
    if (npes > MAXPES) {
        return XG_TEST_SKIP;
    }
#define RUN(TYPE, NAME, COLL, BITS, AMO, UAMO) \
    XBRTIME_IF_##COLL(test_##NAME(1, 1); test_##NAME(2, 3);)
    XBRTIME_TYPE_TABLE(RUN)
    xbrtime_close();
    return XG_TEST_PASS;
}
