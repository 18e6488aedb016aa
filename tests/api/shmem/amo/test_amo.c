/*
 * Every atomic memory operation on every type the specification gives it,
 * with exact results: the standard operations (compare_swap, fetch_inc,
 * inc, fetch_add, add), the extended ones (fetch, set, swap, float and
 * double included), the bitwise ones (and, or, xor), all non-blocking
 * fetching forms and the deprecated 1.3 names.  Each PE works on global
 * variables of its right neighbour, which no other PE touches, so every
 * intermediate value is known.
 */
#include <shmem.h>
#include <stdint.h>

#include "xg_test.h"

static int me, npes, right;

/* One global per type: symmetric data outside the heap. */
#define DEFINE_VAR(TYPE, TYPENAME) TYPE var_##TYPENAME;
XG_SHMEM_AMO_EXTENDED_TYPES(DEFINE_VAR)

/* Checks that @got equals @want, naming the routine. */
#define EXPECT(TYPENAME, routine, got, want)                          \
    XG_CHECK((got) == (want), "shmem_%s_%s: got %lld, expected %lld", \
             #TYPENAME, routine, (long long)(got), (long long)(want))

#define TEST_STANDARD(TYPE, TYPENAME)                                         \
    static void test_standard_##TYPENAME(void)                                \
    {                                                                         \
        TYPE *obj = &var_##TYPENAME, f;                                       \
                                                                              \
        shmem_##TYPENAME##_atomic_set(obj, 10, right);                        \
        EXPECT(TYPENAME, "atomic_fetch",                                      \
               shmem_##TYPENAME##_atomic_fetch(obj, right), (TYPE)10);        \
        EXPECT(TYPENAME, "atomic_compare_swap (no match)",                    \
               shmem_##TYPENAME##_atomic_compare_swap(obj, 11, 20, right),    \
               (TYPE)10);                                                     \
        EXPECT(TYPENAME, "atomic_compare_swap (match)",                       \
               shmem_##TYPENAME##_atomic_compare_swap(obj, 10, 20, right),    \
               (TYPE)10);                                                     \
        shmem_##TYPENAME##_atomic_compare_swap_nbi(&f, obj, 20, 21, right);   \
        shmem_quiet();                                                        \
        EXPECT(TYPENAME, "atomic_compare_swap_nbi", f, (TYPE)20);             \
        EXPECT(TYPENAME, "atomic_swap",                                       \
               shmem_##TYPENAME##_atomic_swap(obj, 30, right), (TYPE)21);     \
        shmem_##TYPENAME##_atomic_swap_nbi(&f, obj, 31, right);               \
        shmem_quiet();                                                        \
        EXPECT(TYPENAME, "atomic_swap_nbi", f, (TYPE)30);                     \
        EXPECT(TYPENAME, "atomic_fetch_inc",                                  \
               shmem_##TYPENAME##_atomic_fetch_inc(obj, right), (TYPE)31);    \
        shmem_##TYPENAME##_atomic_inc(obj, right);                            \
        shmem_##TYPENAME##_atomic_fetch_inc_nbi(&f, obj, right);              \
        shmem_quiet();                                                        \
        EXPECT(TYPENAME, "atomic_inc + atomic_fetch_inc_nbi", f, (TYPE)33);   \
        EXPECT(TYPENAME, "atomic_fetch_add",                                  \
               shmem_##TYPENAME##_atomic_fetch_add(obj, 6, right), (TYPE)34); \
        shmem_##TYPENAME##_atomic_add(obj, 5, right);                         \
        shmem_##TYPENAME##_atomic_fetch_add_nbi(&f, obj, 5, right);           \
        shmem_quiet();                                                        \
        EXPECT(TYPENAME, "atomic_add + atomic_fetch_add_nbi", f, (TYPE)45);   \
        shmem_##TYPENAME##_atomic_fetch_nbi(&f, obj, right);                  \
        shmem_quiet();                                                        \
        EXPECT(TYPENAME, "atomic_fetch_nbi", f, (TYPE)50);                    \
        /* wraps around for unsigned types, goes negative for signed */       \
        shmem_##TYPENAME##_atomic_add(obj, (TYPE)-60, right);                 \
        EXPECT(TYPENAME, "atomic_add of -60",                                 \
               shmem_##TYPENAME##_atomic_fetch(obj, right), (TYPE)-10);       \
    }
XG_SHMEM_AMO_STANDARD_TYPES(TEST_STANDARD)

#define TEST_FLOATING(TYPE, TYPENAME)                                      \
    static void test_floating_##TYPENAME(void)                             \
    {                                                                      \
        TYPE *obj = &var_##TYPENAME, f;                                    \
                                                                           \
        shmem_##TYPENAME##_atomic_set(obj, (TYPE)1.5, right);              \
        XG_CHECK(shmem_##TYPENAME##_atomic_fetch(obj, right) == 1.5,       \
                 "shmem_" #TYPENAME "_atomic_set/fetch");                  \
        XG_CHECK(shmem_##TYPENAME##_atomic_swap(obj, (TYPE)2.25, right) == \
                     1.5,                                                  \
                 "shmem_" #TYPENAME "_atomic_swap");                       \
        shmem_##TYPENAME##_atomic_swap_nbi(&f, obj, (TYPE)-3.0, right);    \
        shmem_quiet();                                                     \
        XG_CHECK(f == 2.25, "shmem_" #TYPENAME "_atomic_swap_nbi");        \
        shmem_##TYPENAME##_atomic_fetch_nbi(&f, obj, right);               \
        shmem_quiet();                                                     \
        XG_CHECK(f == -3.0, "shmem_" #TYPENAME "_atomic_fetch_nbi");       \
        /* the deprecated names */                                         \
        shmem_##TYPENAME##_set(obj, (TYPE)0.125, right);                   \
        XG_CHECK(shmem_##TYPENAME##_swap(obj, (TYPE)8.0, right) == 0.125,  \
                 "shmem_" #TYPENAME "_set/swap");                          \
        XG_CHECK(shmem_##TYPENAME##_fetch(obj, right) == 8.0,              \
                 "shmem_" #TYPENAME "_fetch");                             \
    }
TEST_FLOATING(float, float)
TEST_FLOATING(double, double)

#define TEST_BITWISE(TYPE, TYPENAME)                                          \
    static void test_bitwise_##TYPENAME(void)                                 \
    {                                                                         \
        TYPE *obj = &var_##TYPENAME, f;                                       \
        TYPE top  = (TYPE)((uint64_t)1 << (sizeof(TYPE) * 8 - 1));            \
                                                                              \
        shmem_##TYPENAME##_atomic_set(obj, 0xF0F0, right);                    \
        EXPECT(TYPENAME, "atomic_fetch_and",                                  \
               shmem_##TYPENAME##_atomic_fetch_and(obj, 0xFF00, right),       \
               (TYPE)0xF0F0);                                                 \
        shmem_##TYPENAME##_atomic_and(obj, 0x3F00, right);                    \
        shmem_##TYPENAME##_atomic_fetch_and_nbi(&f, obj, 0xFFFF, right);      \
        shmem_quiet();                                                        \
        EXPECT(TYPENAME, "atomic_and + atomic_fetch_and_nbi", f,              \
               (TYPE)0x3000);                                                 \
        EXPECT(TYPENAME, "atomic_fetch_or",                                   \
               shmem_##TYPENAME##_atomic_fetch_or(obj, 0x000F, right),        \
               (TYPE)0x3000);                                                 \
        shmem_##TYPENAME##_atomic_or(obj, 0x0100, right);                     \
        shmem_##TYPENAME##_atomic_fetch_or_nbi(&f, obj, 0x8000, right);       \
        shmem_quiet();                                                        \
        EXPECT(TYPENAME, "atomic_or + atomic_fetch_or_nbi", f, (TYPE)0x310F); \
        EXPECT(TYPENAME, "atomic_fetch_xor",                                  \
               shmem_##TYPENAME##_atomic_fetch_xor(obj, 0xFFFF, right),       \
               (TYPE)0xB10F);                                                 \
        shmem_##TYPENAME##_atomic_xor(obj, 0x00FF, right);                    \
        shmem_##TYPENAME##_atomic_fetch_xor_nbi(&f, obj, 0x4E0F, right);      \
        shmem_quiet();                                                        \
        EXPECT(TYPENAME, "atomic_xor + atomic_fetch_xor_nbi", f,              \
               (TYPE)0x4E0F);                                                 \
        /* the top bit, and the whole width */                                \
        EXPECT(TYPENAME, "atomic_fetch_or (top bit)",                         \
               shmem_##TYPENAME##_atomic_fetch_or(obj, top, right), (TYPE)0); \
        shmem_##TYPENAME##_atomic_xor(obj, (TYPE) ~(TYPE)0, right);           \
        EXPECT(TYPENAME, "atomic_xor (all bits)",                             \
               shmem_##TYPENAME##_atomic_fetch(obj, right), (TYPE)~top);      \
    }
XG_SHMEM_AMO_BITWISE_TYPES(TEST_BITWISE)

#define TEST_DEPRECATED(TYPE, TYPENAME)                                        \
    static void test_deprecated_##TYPENAME(void)                               \
    {                                                                          \
        TYPE *obj = &var_##TYPENAME;                                           \
                                                                               \
        shmem_##TYPENAME##_set(obj, 100, right);                               \
        EXPECT(TYPENAME, "fetch", shmem_##TYPENAME##_fetch(obj, right),        \
               (TYPE)100);                                                     \
        EXPECT(TYPENAME, "cswap",                                              \
               shmem_##TYPENAME##_cswap(obj, 100, 200, right), (TYPE)100);     \
        EXPECT(TYPENAME, "swap", shmem_##TYPENAME##_swap(obj, 300, right),     \
               (TYPE)200);                                                     \
        EXPECT(TYPENAME, "finc", shmem_##TYPENAME##_finc(obj, right),          \
               (TYPE)300);                                                     \
        shmem_##TYPENAME##_inc(obj, right);                                    \
        EXPECT(TYPENAME, "inc + fadd", shmem_##TYPENAME##_fadd(obj, 8, right), \
               (TYPE)302);                                                     \
        shmem_##TYPENAME##_add(obj, -10, right);                               \
        EXPECT(TYPENAME, "add", shmem_##TYPENAME##_fetch(obj, right),          \
               (TYPE)300);                                                     \
    }
XG_SHMEM_AMO_DEPRECATED_TYPES(TEST_DEPRECATED)

int main(void)
{
    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    right      = (me + 1) % npes;

#define RUN_STANDARD(TYPE, TYPENAME)   test_standard_##TYPENAME();
#define RUN_BITWISE(TYPE, TYPENAME)    test_bitwise_##TYPENAME();
#define RUN_DEPRECATED(TYPE, TYPENAME) test_deprecated_##TYPENAME();
    XG_SHMEM_AMO_STANDARD_TYPES(RUN_STANDARD)
    XG_SHMEM_AMO_BITWISE_TYPES(RUN_BITWISE)
    XG_SHMEM_AMO_DEPRECATED_TYPES(RUN_DEPRECATED)
    test_floating_float();
    test_floating_double();

    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
