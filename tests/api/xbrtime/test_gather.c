/*
 * xbrtime gather for every collective type, to the first and the last
 * PE: the root receives pe_msg_sz[p] = p + 1 elements of PE p's src at
 * dest[pe_disp[p]..], the blocks laid out in reverse PE order with a gap
 * of one element after each (so the displacements matter and nothing
 * else is written); dest is plain local memory and only the root's is
 * written.
 */
#include "xbr_test.h"

#define MAXPES        64
#define SENT          101
#define VAL(T, pe, i) ((T)(((pe)*13 + (i)) % 100))

static int me, npes, counts[MAXPES], disps[MAXPES], total;

#define TEST_GATHER(TYPE, NAME, COLL, BITS, AMO, UAMO)                     \
    XBRTIME_IF_##COLL(static void test_##NAME(int root) {                  \
        TYPE *src = xbrtime_malloc(sizeof(TYPE) * (size_t)npes);           \
        TYPE dest[MAXPES * (MAXPES + 3) / 2];                              \
        TYPE want;                                                         \
        int i, p;                                                          \
                                                                           \
        XG_CHECK(src != NULL, "malloc");                                   \
        for (i = 0; i < npes; i++) {                                       \
            src[i] = VAL(TYPE, me, i);                                     \
        }                                                                  \
        for (i = 0; i < total; i++) {                                      \
            dest[i] = (TYPE)SENT;                                          \
        }                                                                  \
        xbrtime_##NAME##_gather(dest, src, counts, disps, (size_t)total,   \
                                root);                                     \
        for (i = 0; i < total; i++) {                                      \
            want = (TYPE)SENT;                                             \
            for (p = 0; p < npes; p++) {                                   \
                if ((me == root) && (i >= disps[p]) &&                     \
                    (i < disps[p] + counts[p])) {                          \
                    want = VAL(TYPE, p, i - disps[p]);                     \
                }                                                          \
            }                                                              \
            XG_CHECK(dest[i] == want, #NAME "_gather root %d: element %d", \
                     root, i);                                             \
        }                                                                  \
        xbrtime_free(src);                                                 \
    })
XBRTIME_TYPE_TABLE(TEST_GATHER)

int main(void)
{
    xbr_test_start(&me, &npes);
    if (npes > MAXPES) {
        return XG_TEST_SKIP;
    }
    total = xbr_test_layout(counts, disps, npes, 1);
#define RUN(TYPE, NAME, COLL, BITS, AMO, UAMO) \
    XBRTIME_IF_##COLL(test_##NAME(0); test_##NAME(npes - 1);)
    XBRTIME_TYPE_TABLE(RUN)
    xbrtime_close();
    return XG_TEST_PASS;
}
