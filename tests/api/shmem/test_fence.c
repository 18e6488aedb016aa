/*
 * Ordering by shmem_fence: each PE puts a 1 MiB block to its right
 * neighbour, calls shmem_fence, then puts a flag to the same PE.  The
 * neighbour polls the flag with an atomic fetch (yielding the CPU, as the
 * test runs oversubscribed) and, once the flag is up, the whole block must
 * be there.  Odd rounds use the non-blocking puts.
 */
#include <sched.h>
#include <shmem.h>
#include <stdlib.h>

#include "xg_test.h"

#define WORDS  (1u << 17)   /* 1 MiB of long */
#define ROUNDS 20

long flag;

static long word(int pe, int round, size_t i)
{
    return ((long)pe << 40) + ((long)round << 24) + (long)i;
}

int main(void)
{
    long *block, *source;
    int me, npes, right, left, r;
    size_t i;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    xg_test_pe = me;
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    block = shmem_malloc(WORDS * sizeof(long));
    source = malloc(WORDS * sizeof(long));
    XG_CHECK((block != NULL) && (source != NULL), "allocation");
    shmem_barrier_all();

    for (r = 1; r <= ROUNDS; r++) {
        for (i = 0; i < WORDS; i++) {
            source[i] = word(me, r, i);
        }
        if (r % 2 == 0) {
            shmem_long_put(block, source, WORDS, right);
            shmem_fence();
            shmem_long_p(&flag, r, right);
        } else {
            long up = r;

            shmem_putmem_nbi(block, source, WORDS * sizeof(long), right);
            shmem_fence();
            shmem_long_put_nbi(&flag, &up, 1, right);
            shmem_quiet();  /* before up goes out of scope */
        }
        while (shmem_long_atomic_fetch(&flag, me) != r) {
            sched_yield();
        }
        for (i = 0; i < WORDS; i++) {
            XG_CHECK(block[i] == word(left, r, i), "round %d: word %zu is "
                     "%#lx, expected %#lx: the flag overtook the data", r, i,
                     block[i], word(left, r, i));
        }
        shmem_barrier_all();
    }

    free(source);
    shmem_free(block);
    shmem_finalize();
    return 0;
}
