/*
 * xbrtime broadcast for every collective type, from the first and the
 * last PE, contiguous and at stride 2: every other PE's dest holds the
 * root's src (only at the stride's elements), the root's dest is not
 * written (as in the published runtime), and zero elements do nothing.
 */
#include "xbr_test.h"

#define N             21
#define SPAN          (2 * N)
#define SENT          101
#define VAL(T, pe, i) ((T)(((pe)*17 + (i)) % 100))

static int me, npes;

#define TEST_BCAST(TYPE, NAME, COLL, BITS, AMO, UAMO)                        \
    XBRTIME_IF_##COLL(static void test_##NAME(int root, int stride) {        \
        TYPE *dest = xbrtime_malloc(sizeof(TYPE) * SPAN);                    \
        TYPE *src  = xbrtime_malloc(sizeof(TYPE) * SPAN);                    \
        int i, sent;                                                         \
                                                                             \
        XG_CHECK((dest != NULL) && (src != NULL), "malloc");                 \
        for (i = 0; i < SPAN; i++) {                                         \
            src[i]  = VAL(TYPE, me, i);                                      \
            dest[i] = (TYPE)SENT;                                            \
        }                                                                    \
        xbrtime_##NAME##_broadcast(dest, src, N, stride, root);              \
        for (i = 0; i < SPAN; i++) {                                         \
            sent = (me == root) || (i % stride != 0) || (i / stride >= N);   \
            XG_CHECK(dest[i] == (sent ? (TYPE)SENT : VAL(TYPE, root, i)),    \
                     #NAME "_broadcast root %d stride %d: element %d", root, \
                     stride, i);                                             \
        }                                                                    \
        xbrtime_##NAME##_broadcast(dest, src, 0, stride, root);              \
        xbrtime_free(src);                                                   \
        xbrtime_free(dest);                                                  \
    })
XBRTIME_TYPE_TABLE(TEST_BCAST)

int main(void)
{
    xbr_test_start(&me, &npes);
#define RUN(TYPE, NAME, COLL, BITS, AMO, UAMO) \
    XBRTIME_IF_##COLL(test_##NAME(0, 1); test_##NAME(npes - 1, 2);)
    XBRTIME_TYPE_TABLE(RUN)
    xbrtime_close();
    return XG_TEST_PASS;
}
