/*
 * xbrtime atomics for every operation and every type that has it, all
 * PEs on one word of the last PE at once: add, the bitwise land/lor/lxor,
 * unsigned min/max, and compare_swap as a claim (the word becomes
 * comp_val only while it holds 0: exactly one PE wins).  Expected values
 * are computed from the number of PEs.
 */
#include "xbr_test.h"

#define ITERS 500

static int me, npes, owner;

/* Sets the word on its owner, then lets every PE go. */
#define RESET(word, value)     \
    do {                       \
        xbrtime_barrier();     \
        if (me == owner) {     \
            *(word) = (value); \
        }                      \
        xbrtime_barrier();     \
    } while (0)

/* The word as the owner holds it, on every PE. */
#define FETCH(NAME, TYPE, word, out)                       \
    do {                                                   \
        xbrtime_barrier();                                 \
        xbrtime_##NAME##_get(&(out), (word), 1, 1, owner); \
    } while (0)

#define TEST_AMO(TYPE, NAME, COLL, BITS, AMO, UAMO)                           \
    XBRTIME_IF_##AMO(static void test_##NAME(TYPE *word) {                    \
        TYPE got, all = 0;                                                    \
        int i, p;                                                             \
                                                                              \
        RESET(word, (TYPE)0);                                                 \
        for (i = 0; i < ITERS; i++) {                                         \
            xbrtime_##NAME##_atomic_add(word, (TYPE)(me + 1), owner);         \
        }                                                                     \
        FETCH(NAME, TYPE, word, got);                                         \
        XG_CHECK(got == (TYPE)(ITERS * npes * (npes + 1) / 2),                \
                 #NAME "_atomic_add: %lld", (long long)got);                  \
        for (p = 0; p < npes; p++) {                                          \
            all |= (TYPE)((TYPE)1 << p);                                      \
        }                                                                     \
        RESET(word, (TYPE) ~(TYPE)0);                                         \
        xbrtime_##NAME##_atomic_land(word, (TYPE) ~((TYPE)1 << me), owner);   \
        FETCH(NAME, TYPE, word, got);                                         \
        XG_CHECK(got == (TYPE)~all, #NAME "_atomic_land: %#llx",              \
                 (unsigned long long)got);                                    \
        RESET(word, (TYPE)0);                                                 \
        xbrtime_##NAME##_atomic_lor(word, (TYPE)((TYPE)1 << me), owner);      \
        FETCH(NAME, TYPE, word, got);                                         \
        XG_CHECK(got == all, #NAME "_atomic_lor: %#llx",                      \
                 (unsigned long long)got);                                    \
        RESET(word, (TYPE)0);                                                 \
        for (i = 0; i < 3; i++) {                                             \
            xbrtime_##NAME##_atomic_lxor(word, (TYPE)((TYPE)1 << me), owner); \
        }                                                                     \
        FETCH(NAME, TYPE, word, got);                                         \
        XG_CHECK(got == all, #NAME "_atomic_lxor: %#llx",                     \
                 (unsigned long long)got);                                    \
        RESET(word, (TYPE)0);                                                 \
        xbrtime_##NAME##_atomic_compare_swap(word, (TYPE)(me + 1), owner);    \
        FETCH(NAME, TYPE, word, got);                                         \
        XG_CHECK((got >= 1) && (got <= (TYPE)npes),                           \
                 #NAME "_atomic_compare_swap: claimed by %lld",               \
                 (long long)got);                                             \
        xbrtime_##NAME##_atomic_compare_swap(word, (TYPE)(me + 100), owner);  \
        {                                                                     \
            TYPE again;                                                       \
                                                                              \
            FETCH(NAME, TYPE, word, again);                                   \
            XG_CHECK(again == got,                                            \
                     #NAME "_atomic_compare_swap: a "                         \
                           "claimed word changed from %lld to %lld",          \
                     (long long)got, (long long)again);                       \
        }                                                                     \
    }) XBRTIME_IF_##UAMO(static void test_minmax_##NAME(TYPE *word) {         \
        TYPE got, high = (TYPE)((TYPE)1 << (8 * sizeof(TYPE) - 1));           \
                                                                              \
        RESET(word, (TYPE)1000);                                              \
        xbrtime_##NAME##_atomic_min(word, (TYPE)(me + 5), owner);             \
        FETCH(NAME, TYPE, word, got);                                         \
        XG_CHECK(got == 5, #NAME "_atomic_min: %llu",                         \
                 (unsigned long long)got);                                    \
        RESET(word, (TYPE)3);                                                 \
        xbrtime_##NAME##_atomic_max(word, (TYPE)(high + me), owner);          \
        FETCH(NAME, TYPE, word, got);                                         \
        XG_CHECK(got == (TYPE)(high + npes - 1),                              \
                 #NAME "_atomic_max (unsigned): %llu",                        \
                 (unsigned long long)got);                                    \
    })
XBRTIME_TYPE_TABLE(TEST_AMO)

int main(void)
{
    unsigned long long *word;

    xbr_test_start(&me, &npes);
    owner = npes - 1;
    word  = xbrtime_malloc(sizeof(*word));
    XG_CHECK(word != NULL, "malloc");
#define RUN(TYPE, NAME, COLL, BITS, AMO, UAMO)   \
    XBRTIME_IF_##AMO(test_##NAME((TYPE *)word);) \
        XBRTIME_IF_##UAMO(test_minmax_##NAME((TYPE *)word);)
    XBRTIME_TYPE_TABLE(RUN)
    xbrtime_free(word);
    xbrtime_close();
    return XG_TEST_PASS;
}
