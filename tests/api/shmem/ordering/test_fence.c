/*
 * Ordering by shmem_fence: each PE writes a 1 MiB block to its right
 * neighbour, calls shmem_fence, then puts a flag to the same PE.  The
 * neighbour polls the flag with an atomic fetch (yielding the CPU, as the
 * test runs oversubscribed) and, once the flag is up, the whole block must
 * be there -- its last words first, the ones most likely still in flight.
 *
 * The block goes three ways in turn: a blocking put, a non-blocking put,
 * and stores through shmem_ptr (OpenSHMEM orders "memory stores" to
 * symmetric data by fence too).  On x86-64 those stores are non-temporal
 * (movnti): x86 keeps ordinary stores in order whatever the library does,
 * so the first two ways cannot fail there, but non-temporal stores may be
 * overtaken by a later store unless a store fence (sfence) separates them:
 * the third way fails on x86 when shmem_fence does not order stores.  (A
 * weakly ordered CPU, arm64, can reorder all three.)
 *
 * A neighbour on another node (a job over several nodes) has no
 * shmem_ptr: the third way is then a blocking put too.
 *
 * With the argument "no-fence" the test shows that it can fail: it makes
 * the third way without shmem_fence until the flag overtakes the data
 * (exit 0) or gives up after many rounds (exit 77, skipped: the PEs may
 * have shared one core, which keeps its own stores in order).
 */
#include <sched.h>
#include <shmem.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "xg_test.h"

#define WORDS       (1u << 17) /* 1 MiB of long */
#define ROUNDS      30
#define BITE_ROUNDS 3000
#define TAIL        64     /* words checked first */
#define SPINS       100000 /* polls of the flag before yielding */

long flag;
int overtaken_seen; /* on PE 0: some PE saw the flag overtake the data */

static long word(int pe, int round, size_t i)
{
    return ((long)pe << 40) + ((long)round << 24) + (long)i;
}

/* Stores @source to the remote @dest directly: non-temporal where the CPU
 * has them. */
static void store_block(long *dest, const long *source, size_t words)
{
    size_t i;

    for (i = 0; i < words; i++) {
#if defined(__x86_64__)
        _mm_stream_si64((long long *)&dest[i], source[i]);
#else
        __atomic_store_n(&dest[i], source[i], __ATOMIC_RELAXED);
#endif
    }
}

/* The first word of the block that is not from round @r of @left (its
 * value in *seen_p), or WORDS; the tail first. */
static size_t first_stale(const long *block, int left, int r, long *seen_p)
{
    size_t i;

    for (i = WORDS - TAIL; i < WORDS; i++) {
        if ((*seen_p = block[i]) != word(left, r, i)) {
            return i;
        }
    }
    for (i = 0; i < WORDS - TAIL; i++) {
        if ((*seen_p = block[i]) != word(left, r, i)) {
            return i;
        }
    }
    return WORDS;
}

int main(int argc, char **argv)
{
    int no_fence = (argc > 1) && (strcmp(argv[1], "no-fence") == 0);
    int rounds   = no_fence ? BITE_ROUNDS : ROUNDS;
    long *block, *source, *remote;
    int me, npes, right, left, r, overtaken = 0;
    size_t i, stale;
    long spins, seen;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    right      = (me + 1) % npes;
    left       = (me + npes - 1) % npes;
    block      = shmem_malloc(WORDS * sizeof(long));
    source     = malloc(WORDS * sizeof(long));
    XG_CHECK((block != NULL) && (source != NULL), "allocation");
    remote = shmem_ptr(block, right);
    XG_CHECK((remote != NULL) ||
                 (shmem_team_translate_pe(SHMEM_TEAM_WORLD, right,
                                          SHMEM_TEAM_SHARED) < 0),
             "shmem_ptr to PE %d on this node", right);
    if (no_fence && ((npes < 2) || (remote == NULL))) {
        shmem_finalize();
        return XG_TEST_SKIP;
    }
    shmem_barrier_all();

    for (r = 1; r <= rounds; r++) {
        long up = r;

        for (i = 0; i < WORDS; i++) {
            source[i] = word(me, r, i);
        }
        if ((no_fence || (r % 3 == 0)) && (remote != NULL)) {
            store_block(remote, source, WORDS);
            if (!no_fence) {
                shmem_fence();
            }
            shmem_long_p(&flag, r, right);
        } else if (r % 3 != 2) {
            shmem_long_put(block, source, WORDS, right);
            shmem_fence();
            shmem_long_p(&flag, r, right);
        } else {
            shmem_putmem_nbi(block, source, WORDS * sizeof(long), right);
            shmem_fence();
            shmem_long_put_nbi(&flag, &up, 1, right);
            shmem_quiet(); /* before up goes out of scope */
        }
        /* spin a while before yielding: a reader that looks late sees
         * every store land, whatever the order */
        for (spins = 0; shmem_long_atomic_fetch(&flag, me) != r; spins++) {
            if (spins > SPINS) {
                sched_yield();
            }
        }
        stale = first_stale(block, left, r, &seen);
        if (no_fence) {
            overtaken |= (stale != WORDS);
        } else {
            XG_CHECK(stale == WORDS,
                     "round %d (%s): word %zu was %#lx, "
                     "expected %#lx: the flag overtook the data",
                     r,
                     ((r % 3 == 0) && (remote != NULL))
                         ? "stores through shmem_ptr"
                     : (r % 3 == 1) ? "put"
                                    : "put_nbi",
                     stale, seen, word(left, r, stale));
        }
        /* every PE stops in the round in which one saw the overtaking */
        shmem_barrier_all();
        if (no_fence) {
            if (overtaken) {
                shmem_int_atomic_set(&overtaken_seen, 1, 0);
            }
            shmem_barrier_all();
            if (shmem_int_atomic_fetch(&overtaken_seen, 0)) {
                break;
            }
        }
    }
    if (no_fence && (me == 0)) {
        printf("without shmem_fence %s\n",
               (r <= rounds)
                   ? "the flag overtook the data: the test can fail"
                   : "the flag never overtook the data\nSKIPPED: this "
                     "machine never reordered the stores in its rounds, so "
                     "the test could not show that it fails without a fence");
    }

    free(source);
    shmem_free(block);
    shmem_finalize();
    return (no_fence && (r > rounds)) ? XG_TEST_SKIP : XG_TEST_PASS;
}
