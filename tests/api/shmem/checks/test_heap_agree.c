/*
 * Correct programs pass the heap and collective agreement checks: every PE
 * makes the same sequence of symmetric heap calls (malloc, calloc, align,
 * realloc, free, with hints; sizes and objects chosen by a generator every
 * PE seeds alike) interleaved with barriers, broadcasts from varying roots
 * (members race ahead of each other there), reductions on a split team and
 * zero-size calls.  Each object is written by its right neighbour with a
 * put and checked, so an allocation that disagreed between PEs would show.
 */
#include <shmem.h>
#include <stdint.h>
#include <string.h>

#include "xg_test.h"

#define SLOTS 8
#define STEPS 300

static long bsrc[4], bdst[4], rsrc[4], rdst[4];

static uint64_t rng = 88172645463325252ull;

static unsigned next(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* The right neighbour fills my object with its PE number and step. */
static void fill_check(long *obj, size_t bytes, int step)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int left = (me + npes - 1) % npes, right = (me + 1) % npes;
    size_t n = bytes / sizeof(long), i;
    long buf[64];

    if (n > 64) {
        n = 64;
    }
    for (i = 0; i < n; i++) {
        buf[i] = (long)me * 100000 + step;
    }
    shmem_long_put(obj, buf, n, right);
    shmem_barrier_all();
    for (i = 0; i < n; i++) {
        XG_CHECK(obj[i] == (long)left * 100000 + step,
                 "step %d: word %zu is %ld, expected %ld", step, i, obj[i],
                 (long)left * 100000 + step);
    }
    shmem_barrier_all();
}

int main(void)
{
    long *obj[SLOTS]   = {NULL};
    int fills          = 0;
    size_t size[SLOTS] = {0};
    shmem_team_t half;
    int step, npes, k;

    shmem_init();
    xg_test_pe = shmem_my_pe();
    npes       = shmem_n_pes();
    XG_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, (npes + 1) / 2,
                                      NULL, 0, &half) == 0,
             "split");
    for (step = 0; step < STEPS; step++) {
        k = (int)next(SLOTS);
        switch (next(9)) {
        case 0:
        case 1:
            if (obj[k] == NULL) {
                size[k] = 8 * (1 + next(64));
                obj[k]  = shmem_malloc(size[k]);
            }
            break;
        case 2:
            if (obj[k] == NULL) {
                size[k] = 8 * (1 + next(16));
                obj[k]  = shmem_calloc(size[k] / 8, 8);
            }
            break;
        case 3:
            if (obj[k] == NULL) {
                size[k] = 64;
                obj[k]  = shmem_align((size_t)64 << next(6), size[k]);
            }
            break;
        case 4:
            size[k] = 8 * (1 + next(128));
            obj[k]  = shmem_realloc(obj[k], size[k]);
            break;
        case 5:
            shmem_free(obj[k]);
            obj[k] = NULL;
            break;
        case 6: {
            int root = (int)next((unsigned)npes), r;

            /* a chain of broadcasts: leaves move on before the root */
            for (r = 0; r < 4; r++) {
                shmem_long_broadcast(SHMEM_TEAM_WORLD, bdst, bsrc, 4,
                                     (root + r) % npes);
            }
            break;
        }
        case 7:
            if (half != SHMEM_TEAM_INVALID) {
                shmem_long_sum_reduce(half, rdst, rsrc, 4);
            }
            shmem_free(shmem_malloc_with_hints(
                0, (xg_test_pe % 2) ? SHMEM_MALLOC_ATOMICS_REMOTE : 0));
            break;
        default: shmem_barrier_all(); break;
        }
        if (obj[k] != NULL) {
            XG_CHECK(size[k] > 0, "step %d", step);
            fill_check(obj[k], size[k], step);
            fills++;
        }
    }
    XG_CHECK(fills > STEPS / 4, "only %d objects were checked", fills);
    for (k = 0; k < SLOTS; k++) {
        shmem_free(obj[k]);
    }
    if (half != SHMEM_TEAM_INVALID) {
        shmem_team_destroy(half);
    }
    shmem_finalize();
    return XG_TEST_PASS;
}
