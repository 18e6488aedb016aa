/*
 * Elemental put and get (shmem_TYPENAME_p / _g) for every standard RMA
 * type, and transfers into symmetric data that is not heap: initialized
 * globals (.data), zero-initialized globals (.bss), file-scope statics and
 * function-scope statics.  Every PE writes to its right neighbour and reads
 * from it; the values depend on the writer, so a value from the wrong PE
 * or a write that went nowhere is caught.  (The right neighbour's copy
 * holds what this PE wrote, which is what its g must read.)
 */
#include <shmem.h>
#include <stdint.h>
#include <string.h>

#include "xg_test.h"

#define BLOCK 1000

static int me, npes, right, left;

/* One .data global, one .bss global and one file-scope static per type. */
#define DEFINE_VARS(TYPE, TYPENAME) \
    TYPE data_##TYPENAME = (TYPE)1; \
    TYPE bss_##TYPENAME;            \
    static TYPE static_##TYPENAME;
XG_SHMEM_RMA_TYPES(DEFINE_VARS)

long global_block[BLOCK];
static int static_block[BLOCK] = {7};

static int value(int pe, int round)
{
    return 3 + pe * 5 + round; /* <= 100 for 8 PEs: fits signed char */
}

#define TEST_P_G(TYPE, TYPENAME)                                               \
    static void test_##TYPENAME(void)                                          \
    {                                                                          \
        static TYPE local_static_##TYPENAME;                                   \
        TYPE *vars[] = {&data_##TYPENAME, &bss_##TYPENAME, &static_##TYPENAME, \
                        &local_static_##TYPENAME};                             \
        size_t v;                                                              \
                                                                               \
        for (v = 0; v < sizeof(vars) / sizeof(vars[0]); v++) {                 \
            shmem_##TYPENAME##_p(vars[v], (TYPE)value(me, (int)v), right);     \
            shmem_barrier_all();                                               \
            XG_CHECK(*vars[v] == (TYPE)value(left, (int)v),                    \
                     "shmem_" #TYPENAME "_p to variable %zu", v);              \
            XG_CHECK(shmem_##TYPENAME##_g(vars[v], right) ==                   \
                         (TYPE)value(me, (int)v),                              \
                     "shmem_" #TYPENAME "_g of variable %zu", v);              \
            shmem_barrier_all();                                               \
        }                                                                      \
    }
XG_SHMEM_RMA_TYPES(TEST_P_G)

/* put, get and iput into global and static arrays. */
static void test_blocks(void)
{
    static long source[BLOCK];
    int local[BLOCK];
    int i;

    for (i = 0; i < BLOCK; i++) {
        source[i] = (long)me * 100000 + i;
    }
    shmem_long_put(global_block, source, BLOCK, right);
    shmem_int_iput(static_block, &me, 2, 1, 1, right);
    shmem_barrier_all();
    for (i = 0; i < BLOCK; i++) {
        XG_CHECK(global_block[i] == (long)left * 100000 + i,
                 "global_block[%d] = %ld", i, global_block[i]);
    }
    XG_CHECK(static_block[0] == left, "static_block[0] = %d", static_block[0]);

    for (i = 0; i < BLOCK; i++) {
        static_block[i] = me * 1000 + i;
    }
    shmem_barrier_all();
    shmem_int_get(local, static_block, BLOCK, right);
    for (i = 0; i < BLOCK; i++) {
        XG_CHECK(local[i] == right * 1000 + i,
                 "static_block[%d] of the "
                 "right neighbour = %d",
                 i, local[i]);
    }
    XG_CHECK(shmem_long_g(&global_block[BLOCK - 1], right) ==
                 (long)me * 100000 + BLOCK - 1,
             "last element of global_block");
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    right      = (me + 1) % npes;
    left       = (me + npes - 1) % npes;

#define RUN(TYPE, TYPENAME) test_##TYPENAME();
    XG_SHMEM_RMA_TYPES(RUN)
#undef RUN
    test_blocks();

    shmem_finalize();
    return 0;
}
