/*
 * xbrtime scatter for every collective type, from the first and the last
 * PE: PE p receives pe_msg_sz[p] = p + 1 elements of the root's src from
 * index pe_disp[p], the blocks laid out in reverse PE order (so the
 * displacements matter), into dest[0..]; the rest of dest is untouched.
 * dest is plain local memory.
 */
#include "xbr_test.h"

#define MAXPES        64
#define SENT          101
#define VAL(T, pe, i) ((T)(((pe)*13 + (i)) % 100))

static int me, npes, counts[MAXPES], disps[MAXPES], total;

#define TEST_SCATTER(TYPE, NAME, COLL, BITS, AMO, UAMO)                   \
    XBRTIME_IF_##COLL(static void test_##NAME(int root) {                 \
        TYPE *src = xbrtime_malloc(sizeof(TYPE) * (size_t)total);         \
        TYPE dest[MAXPES + 1];                                            \
        int i;                                                            \
                                                                          \
        XG_CHECK(src != NULL, "malloc");                                  \
        for (i = 0; i < total; i++) {                                     \
            src[i] = VAL(TYPE, me, i);                                    \
        }                                                                 \
        for (i = 0; i <= MAXPES; i++) {                                   \
            dest[i] = (TYPE)SENT;                                         \
        }                                                                 \
        xbrtime_##NAME##_scatter(dest, src, counts, disps, (size_t)total, \
                                 root);                                   \
        for (i = 0; i <= MAXPES; i++) {                                   \
            XG_CHECK(dest[i] == ((i < counts[me])                         \
                                     ? VAL(TYPE, root, disps[me] + i)     \
                                     : (TYPE)SENT),                       \
                     #NAME "_scatter root %d: element %d", root, i);      \
        }                                                                 \
        xbrtime_free(src);                                                \
    })
XBRTIME_TYPE_TABLE(TEST_SCATTER)

int main(void)
{
    xbr_test_start(&me, &npes);
    if (npes > MAXPES) {
        return XG_TEST_SKIP;
    }
    total = xbr_test_layout(counts, disps, npes, 0);
#define RUN(TYPE, NAME, COLL, BITS, AMO, UAMO) \
    XBRTIME_IF_##COLL(test_##NAME(0); test_##NAME(npes - 1);)
    XBRTIME_TYPE_TABLE(RUN)
    xbrtime_close();
    return XG_TEST_PASS;
}
