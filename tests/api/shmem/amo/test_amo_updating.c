/*
 * The atomics without a result (add, inc, and, or, xor, set) complete at
 * quiet and are ordered by fence, also when they stay outstanding: across
 * nodes they are issued without waiting (docs/multinode.md), so this test
 * runs on one node, as 2x2 and as 4x1.  Each PE updates words of its right
 * neighbour, then:
 *   - fence, then a put of a flag: the neighbour, having seen the flag,
 *     must see every earlier update (the fence ordered them);
 *   - a context's updates, then shmem_ctx_quiet and a barrier: exact;
 *   - a mix of and/or/xor/set on one word: the value after quiet is the
 *     one the operations give in order.
 */
#include <shmem.h>
#include <stdint.h>

#include "xg_test.h"

#define UPDATES 3000

struct words {
    long sum;      /* atomic_add / atomic_inc from the left PE */
    uint64_t bits; /* and/or/xor/set from the left PE */
    long ctx_sum;  /* atomic_add on a created context */
    long flag;     /* put after a fence */
};

int main(void)
{
    struct words *w;
    shmem_ctx_t ctx;
    int me, npes, right, i;
    uint64_t expect_bits = 0;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    right      = (me + 1) % npes;
    w          = shmem_calloc(1, sizeof(*w));
    XG_CHECK(w != NULL, "allocation");
    shmem_barrier_all();

    for (i = 0; i < UPDATES; i++) {
        if ((i & 1) != 0) {
            shmem_long_atomic_inc(&w->sum, right);
        } else {
            shmem_long_atomic_add(&w->sum, 2, right);
        }
    }
    shmem_fence();
    shmem_long_p(&w->flag, 1, right);
    shmem_long_wait_until(&w->flag, SHMEM_CMP_EQ, 1);
    XG_CHECK(shmem_long_atomic_fetch(&w->sum, me) == 3L * UPDATES / 2,
             "after the flag: sum %ld, expected %ld (the fence did not "
             "order the updates before the put)",
             shmem_long_atomic_fetch(&w->sum, me), 3L * UPDATES / 2);

    XG_CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");
    for (i = 0; i < UPDATES; i++) {
        shmem_ctx_long_atomic_add(ctx, &w->ctx_sum, i, right);
    }
    for (i = 0; i < 64; i++) {
        uint64_t bit = (uint64_t)1 << i;

        switch (i % 4) {
        case 0: shmem_uint64_atomic_or(&w->bits, bit | 1, right); break;
        case 1: shmem_uint64_atomic_xor(&w->bits, bit, right); break;
        case 2: shmem_uint64_atomic_and(&w->bits, ~(bit >> 2), right); break;
        default: shmem_uint64_atomic_set(&w->bits, expect_bits | bit, right);
        }
        switch (i % 4) {
        case 0: expect_bits |= bit | 1; break;
        case 1: expect_bits ^= bit; break;
        case 2: expect_bits &= ~(bit >> 2); break;
        default: expect_bits |= bit;
        }
    }
    shmem_ctx_quiet(ctx);
    shmem_quiet();
    shmem_barrier_all();
    XG_CHECK(w->ctx_sum == (long)UPDATES * (UPDATES - 1) / 2,
             "context sum %ld, expected %ld after shmem_ctx_quiet", w->ctx_sum,
             (long)UPDATES * (UPDATES - 1) / 2);
    XG_CHECK(w->bits == expect_bits,
             "bits %#llx, expected %#llx (the updates applied out of order)",
             (unsigned long long)w->bits, (unsigned long long)expect_bits);
    shmem_ctx_destroy(ctx);
    shmem_free(w);
    shmem_finalize();
    return 0;
}
