/*
 * xbrtime typed put and get for every type of the table: blocking and
 * _nb, contiguous and strided (the stride counts elements and applies to
 * both arrays; the elements in between stay untouched), into symmetric
 * memory of the next PE and from the previous one into plain local
 * memory, and zero elements.
 */
#include "xbr_test.h"

#define N             37
#define STRIDE        3
#define SPAN          (N * STRIDE)
#define SENT          101 /* never a value of VAL */
#define VAL(T, pe, i) ((T)(((pe)*31 + (i)) % 100))

static int me, npes, next, prev;

#define TEST_RMA(TYPE, NAME, COLL, BITS, AMO, UAMO)                           \
    static void test_##NAME(void)                                             \
    {                                                                         \
        TYPE *sym = xbrtime_malloc(sizeof(TYPE) * SPAN);                      \
        TYPE *src = xbrtime_malloc(sizeof(TYPE) * SPAN);                      \
        TYPE local[SPAN];                                                     \
        int i;                                                                \
                                                                              \
        XG_CHECK((sym != NULL) && (src != NULL), #NAME ": malloc");           \
        for (i = 0; i < SPAN; i++) {                                          \
            src[i] = VAL(TYPE, me, i);                                        \
            sym[i] = (TYPE)SENT;                                              \
        }                                                                     \
        xbrtime_barrier();                                                    \
        xbrtime_##NAME##_put(sym, src, N, 1, next);                           \
        xbrtime_barrier();                                                    \
        for (i = 0; i < SPAN; i++) {                                          \
            XG_CHECK(sym[i] == ((i < N) ? VAL(TYPE, prev, i) : (TYPE)SENT),   \
                     #NAME "_put: element %d", i);                            \
        }                                                                     \
        xbrtime_barrier();                                                    \
        for (i = 0; i < SPAN; i++) {                                          \
            sym[i] = (TYPE)SENT;                                              \
        }                                                                     \
        xbrtime_barrier();                                                    \
        xbrtime_##NAME##_put_nb(sym, src, N, STRIDE, next);                   \
        xbrtime_barrier();                                                    \
        for (i = 0; i < SPAN; i++) {                                          \
            XG_CHECK(sym[i] == ((i % STRIDE == 0) ? VAL(TYPE, prev, i)        \
                                                  : (TYPE)SENT),              \
                     #NAME "_put_nb stride %d: element %d", STRIDE, i);       \
        }                                                                     \
        for (i = 0; i < SPAN; i++) {                                          \
            local[i] = (TYPE)SENT;                                            \
        }                                                                     \
        xbrtime_##NAME##_get(local, src, N, 1, prev);                         \
        for (i = 0; i < SPAN; i++) {                                          \
            XG_CHECK(local[i] == ((i < N) ? VAL(TYPE, prev, i) : (TYPE)SENT), \
                     #NAME "_get: element %d", i);                            \
        }                                                                     \
        for (i = 0; i < SPAN; i++) {                                          \
            local[i] = (TYPE)SENT;                                            \
        }                                                                     \
        xbrtime_##NAME##_get_nb(local, src, N, STRIDE, next);                 \
        xbrtime_barrier();                                                    \
        for (i = 0; i < SPAN; i++) {                                          \
            XG_CHECK(local[i] == ((i % STRIDE == 0) ? VAL(TYPE, next, i)      \
                                                    : (TYPE)SENT),            \
                     #NAME "_get_nb stride %d: element %d", STRIDE, i);       \
        }                                                                     \
        xbrtime_##NAME##_put(sym, src, 0, 1, next);                           \
        xbrtime_##NAME##_get(local, src, 0, STRIDE, next);                    \
        xbrtime_free(src);                                                    \
        xbrtime_free(sym);                                                    \
    }
XBRTIME_TYPE_TABLE(TEST_RMA)

int main(void)
{
    xbr_test_start(&me, &npes);
    next = (me + 1) % npes;
    prev = (me + npes - 1) % npes;
#define RUN(TYPE, NAME, COLL, BITS, AMO, UAMO) test_##NAME();
    XBRTIME_TYPE_TABLE(RUN)
    xbrtime_close();
    return XG_TEST_PASS;
}
