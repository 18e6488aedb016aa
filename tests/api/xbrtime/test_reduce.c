/*
 * xbrtime reductions: every operation (sum, product, min, max; and, or,
 * xor on the integer types) for every type that has it, with roots 0 and
 * the last PE, contiguous and at stride 3 (the elements in between stay
 * untouched).  The expected result is computed here from the values
 * every PE contributes; xgas leaves it in dest on every PE.
 */
#include "xbr_test.h"

#define N    13
#define SPAN (3 * N)
#define SENT 101

static int me, npes;

/* What PE @pe contributes at element @i for each operation: small values,
 * so no sum or product overflows even a signed char at 4 PEs. */
#define IN_sum(T, pe, i)     ((T)(((pe) + (i)) % 5))
#define IN_product(T, pe, i) ((T)(1 + ((pe) + (i)) % 2))
#define IN_min(T, pe, i)     ((T)(((pe)*3 + (i)) % 7))
#define IN_max(T, pe, i)     ((T)(((pe)*3 + (i)) % 7))
#define IN_and(T, pe, i)     ((T)(0x7f & ~(1 << (((pe) + (i)) % 7))))
#define IN_or(T, pe, i)      ((T)(1 << (((pe) + (i)) % 7)))
#define IN_xor(T, pe, i)     ((T)(((pe)*5 + (i)) % 64))

#define COMBINE_sum(a, b)     ((a) + (b))
#define COMBINE_product(a, b) ((a) * (b))
#define COMBINE_min(a, b)     (((b) < (a)) ? (b) : (a))
#define COMBINE_max(a, b)     (((b) > (a)) ? (b) : (a))
#define COMBINE_and(a, b)     ((a) & (b))
#define COMBINE_or(a, b)      ((a) | (b))
#define COMBINE_xor(a, b)     ((a) ^ (b))

#define TEST_OP(TYPE, NAME, OP)                                             \
    static void test_##NAME##_##OP(int root, int stride)                    \
    {                                                                       \
        TYPE *dest = xbrtime_malloc(sizeof(TYPE) * SPAN);                   \
        TYPE *src  = xbrtime_malloc(sizeof(TYPE) * SPAN);                   \
        TYPE want;                                                          \
        int i, p, k;                                                        \
                                                                            \
        XG_CHECK((dest != NULL) && (src != NULL), "malloc");                \
        for (i = 0; i < SPAN; i++) {                                        \
            src[i]  = IN_##OP(TYPE, me, i);                                 \
            dest[i] = (TYPE)SENT;                                           \
        }                                                                   \
        xbrtime_##NAME##_reduce_##OP(dest, src, N, stride, root);           \
        for (i = 0; i < SPAN; i++) {                                        \
            k = i / stride;                                                 \
            if ((i % stride != 0) || (k >= N)) {                            \
                XG_CHECK(dest[i] == (TYPE)SENT,                             \
                         #NAME                                              \
                         "_reduce_" #OP                                     \
                         " stride %d: element %d between the strided ones " \
                         "changed",                                         \
                         stride, i);                                        \
                continue;                                                   \
            }                                                               \
            want = IN_##OP(TYPE, 0, i);                                     \
            for (p = 1; p < npes; p++) {                                    \
                want = (TYPE)COMBINE_##OP(want, IN_##OP(TYPE, p, i));       \
            }                                                               \
            XG_CHECK(dest[i] == want,                                       \
                     #NAME "_reduce_" #OP " root %d "                       \
                           "stride %d: element %d is %lld, want %lld",      \
                     root, stride, i, (long long)dest[i], (long long)want); \
        }                                                                   \
        xbrtime_free(src);                                                  \
        xbrtime_free(dest);                                                 \
    }
#define TEST_REDUCE(TYPE, NAME, COLL, BITS, AMO, UAMO)                       \
    XBRTIME_IF_##COLL(TEST_OP(TYPE, NAME, sum) TEST_OP(TYPE, NAME, product)  \
                          TEST_OP(TYPE, NAME, min) TEST_OP(TYPE, NAME, max)) \
        XBRTIME_IF_##BITS(TEST_OP(TYPE, NAME, and) TEST_OP(TYPE, NAME, or)   \
                              TEST_OP(TYPE, NAME, xor))
XBRTIME_TYPE_TABLE(TEST_REDUCE)

int main(void)
{
    xbr_test_start(&me, &npes);
#define RUN_OP(NAME, OP)      \
    test_##NAME##_##OP(0, 1); \
    test_##NAME##_##OP(npes - 1, 3);
#define RUN(TYPE, NAME, COLL, BITS, AMO, UAMO)                 \
    XBRTIME_IF_##COLL(RUN_OP(NAME, sum) RUN_OP(NAME, product)  \
                          RUN_OP(NAME, min) RUN_OP(NAME, max)) \
        XBRTIME_IF_##BITS(RUN_OP(NAME, and) RUN_OP(NAME, or)   \
                              RUN_OP(NAME, xor))
    XBRTIME_TYPE_TABLE(RUN)
    xbrtime_close();
    return XG_TEST_PASS;
}
