/*
 * shmem_TYPENAME_wait_until and shmem_TYPENAME_test for every
 * point-to-point synchronization type and every comparison operator, plus
 * the deprecated shmem_wait, shmem_wait_until, shmem_TYPENAME_wait and
 * shmem_signal_wait_until.
 *
 * The PEs form a ring; each PE writes the flags of the next one.  PE 0
 * writes first and then waits, every other PE waits first and then writes,
 * so most waits really block until the previous PE runs.  The writer first
 * stores a value that does not satisfy the condition and then one that
 * does, so a wait that returns early is caught by the exact value check
 * after it.  test is checked before any writer starts (0) and after the
 * wait (1).  Nothing depends on timing.
 */
#include <shmem.h>

#include "xg_test.h"

#define CMP_VALUE 10

/* One column per comparison operator: the flag's initial value, the value
 * the writer stores first and the one it stores last.  Only the last
 * satisfies "flag op CMP_VALUE"; all fit every type. */
static const int ops[6]     = {SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT,
                               SHMEM_CMP_GE, SHMEM_CMP_LT, SHMEM_CMP_LE};
static const int initial[6] = {0, 10, 0, 0, 20, 20};
static const int step[6]    = {9, 10, 10, 9, 10, 11};
static const int last[6]    = {10, 11, 11, 10, 9, 10};

static int me, npes;

/* The expected result of "value op CMP_VALUE". */
static int holds(int value, int op)
{
    switch (op) {
    case SHMEM_CMP_EQ: return value == CMP_VALUE;
    case SHMEM_CMP_NE: return value != CMP_VALUE;
    case SHMEM_CMP_GT: return value > CMP_VALUE;
    case SHMEM_CMP_GE: return value >= CMP_VALUE;
    case SHMEM_CMP_LT: return value < CMP_VALUE;
    default: return value <= CMP_VALUE;
    }
}

#define DEFINE_TYPE_TEST(TYPE, TYPENAME)                                      \
    static TYPE flag_##TYPENAME[6];                                           \
                                                                              \
    static void write_##TYPENAME(int pe)                                      \
    {                                                                         \
        int i;                                                                \
                                                                              \
        for (i = 0; i < 6; i++) {                                             \
            shmem_##TYPENAME##_p(&flag_##TYPENAME[i], (TYPE)step[i], pe);     \
            shmem_fence();                                                    \
            shmem_##TYPENAME##_p(&flag_##TYPENAME[i], (TYPE)last[i], pe);     \
        }                                                                     \
    }                                                                         \
                                                                              \
    static void wait_##TYPENAME(void)                                         \
    {                                                                         \
        int i;                                                                \
                                                                              \
        for (i = 0; i < 6; i++) {                                             \
            shmem_##TYPENAME##_wait_until(&flag_##TYPENAME[i], ops[i],        \
                                          (TYPE)CMP_VALUE);                   \
            XG_CHECK(flag_##TYPENAME[i] == (TYPE)last[i],                     \
                     #TYPENAME " op %d returned before the last value",       \
                     ops[i]);                                                 \
            XG_CHECK(shmem_##TYPENAME##_test(&flag_##TYPENAME[i], ops[i],     \
                                             (TYPE)CMP_VALUE) == 1,           \
                     #TYPENAME " test after wait, op %d", ops[i]);            \
        }                                                                     \
    }                                                                         \
                                                                              \
    static void test_##TYPENAME(void)                                         \
    {                                                                         \
        volatile TYPE minus_one = (TYPE)-1;                                   \
        TYPE zero               = 0;                                          \
        int i, v, is_signed = minus_one < zero;                               \
                                                                              \
        /* signedness: (TYPE)-1 is below 0 or the largest value */            \
        flag_##TYPENAME[0] = minus_one;                                       \
        XG_CHECK(shmem_##TYPENAME##_test(&flag_##TYPENAME[0], SHMEM_CMP_LT,   \
                                         zero) == is_signed,                  \
                 #TYPENAME " compares with the wrong signedness");            \
        XG_CHECK(shmem_##TYPENAME##_test(&flag_##TYPENAME[0], SHMEM_CMP_GT,   \
                                         zero) != is_signed,                  \
                 #TYPENAME " compares with the wrong signedness");            \
        shmem_##TYPENAME##_wait_until(&flag_##TYPENAME[0], SHMEM_CMP_EQ,      \
                                      minus_one);                             \
        /* every operator on a value below, equal to and above */             \
        for (v = CMP_VALUE - 1; v <= CMP_VALUE + 1; v++) {                    \
            flag_##TYPENAME[0] = (TYPE)v;                                     \
            for (i = 0; i < 6; i++) {                                         \
                XG_CHECK(shmem_##TYPENAME##_test(&flag_##TYPENAME[0], ops[i], \
                                                 (TYPE)CMP_VALUE) ==          \
                             holds(v, ops[i]),                                \
                         #TYPENAME " test of %d, op %d", v, ops[i]);          \
            }                                                                 \
        }                                                                     \
                                                                              \
        for (i = 0; i < 6; i++) {                                             \
            flag_##TYPENAME[i] = (TYPE)initial[i];                            \
        }                                                                     \
        shmem_barrier_all();                                                  \
        for (i = 0; i < 6; i++) {                                             \
            XG_CHECK(shmem_##TYPENAME##_test(&flag_##TYPENAME[i], ops[i],     \
                                             (TYPE)CMP_VALUE) == 0,           \
                     #TYPENAME " test before the write, op %d", ops[i]);      \
        }                                                                     \
        shmem_barrier_all();                                                  \
        if (me == 0) {                                                        \
            write_##TYPENAME((me + 1) % npes);                                \
            wait_##TYPENAME();                                                \
        } else {                                                              \
            wait_##TYPENAME();                                                \
            write_##TYPENAME((me + 1) % npes);                                \
        }                                                                     \
        shmem_barrier_all();                                                  \
    }
XG_SHMEM_SYNC_TYPES(DEFINE_TYPE_TEST)
XG_SHMEM_SYNC_DEPRECATED_TYPES(DEFINE_TYPE_TEST)

static short dep_short;
static int dep_int;
static long dep_long, dep_wait, dep_wait_until;
static long long dep_longlong;
static uint64_t signal_word;

static void write_deprecated(int pe)
{
    shmem_short_p(&dep_short, 1, pe);
    shmem_int_p(&dep_int, 2, pe);
    shmem_long_p(&dep_long, 3, pe);
    shmem_longlong_p(&dep_longlong, 4, pe);
    shmem_long_p(&dep_wait, 5, pe);
    shmem_long_p(&dep_wait_until, 6, pe);
    shmem_fence();
    shmem_long_p(&dep_wait_until, 7, pe);
    shmem_uint64_atomic_set(&signal_word, 40, pe);
    shmem_uint64_atomic_set(&signal_word, 42, pe);
}

static void wait_deprecated(void)
{
    shmem_short_wait(&dep_short, 0);
    XG_CHECK(dep_short == 1, "shmem_short_wait");
    shmem_int_wait(&dep_int, 0);
    XG_CHECK(dep_int == 2, "shmem_int_wait");
    shmem_long_wait(&dep_long, 0);
    XG_CHECK(dep_long == 3, "shmem_long_wait");
    shmem_longlong_wait(&dep_longlong, 0);
    XG_CHECK(dep_longlong == 4, "shmem_longlong_wait");
    shmem_wait(&dep_wait, 0);
    XG_CHECK(dep_wait == 5, "shmem_wait");
    shmem_wait_until(&dep_wait_until, SHMEM_CMP_GT, 6);
    XG_CHECK(dep_wait_until == 7, "shmem_wait_until");
    XG_CHECK(shmem_signal_wait_until(&signal_word, SHMEM_CMP_GT, 40) == 42,
             "shmem_signal_wait_until returns the satisfying value");
}

int main(void)
{
    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;

#define RUN_TYPE_TEST(TYPE, TYPENAME) test_##TYPENAME();
    XG_SHMEM_SYNC_TYPES(RUN_TYPE_TEST)
    XG_SHMEM_SYNC_DEPRECATED_TYPES(RUN_TYPE_TEST)
#undef RUN_TYPE_TEST

    shmem_barrier_all();
    if (me == 0) {
        write_deprecated((me + 1) % npes);
        wait_deprecated();
    } else {
        wait_deprecated();
        write_deprecated((me + 1) % npes);
    }

    shmem_finalize();
    return XG_TEST_PASS;
}
