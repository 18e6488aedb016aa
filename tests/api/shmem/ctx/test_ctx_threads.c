/*
 * Contexts under SHMEM_THREAD_MULTIPLE: several threads per PE, each with
 * a private context, plus one shared context used by all of them at once,
 * update counters on every PE with atomics and write their own slots with
 * puts.  Exact totals prove that no update was lost; ThreadSanitizer runs
 * this test in CI.
 */
#include <pthread.h>
#include <shmem.h>

#include "xg_test.h"

#define THREADS 4
#define ROUNDS  500

static long counter;
static long slots[64 * THREADS];
static shmem_ctx_t shared_ctx;
static int me, npes;

static void *worker(void *arg)
{
    int t = (int)(long)arg, r, pe;
    shmem_ctx_t mine;
    long value;

    XG_CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &mine) == 0,
             "thread %d: shmem_ctx_create", t);
    for (r = 0; r < ROUNDS; r++) {
        pe = (me + r) % npes;
        shmem_ctx_long_atomic_add(mine, &counter, 1, pe);
        (void)shmem_ctx_long_atomic_fetch_add(shared_ctx, &counter, 1, pe);
        value = (long)me * 1000000 + t * 1000 + r;
        shmem_ctx_long_p(mine, &slots[me * THREADS + t], value, pe);
    }
    shmem_ctx_quiet(mine);
    shmem_ctx_destroy(mine);
    return NULL;
}

int main(void)
{
    pthread_t threads[THREADS];
    int provided, t, pe;
    long total;

    XG_CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0 &&
                 provided == SHMEM_THREAD_MULTIPLE,
             "SHMEM_THREAD_MULTIPLE");
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    if (npes > 64) {
        shmem_finalize();
        return XG_TEST_SKIP;
    }
    XG_CHECK(shmem_ctx_create(0, &shared_ctx) == 0, "shared context");
    for (t = 0; t < THREADS; t++) {
        XG_CHECK(pthread_create(&threads[t], NULL, worker, (void *)(long)t) ==
                     0,
                 "pthread_create");
    }
    for (t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
    }
    shmem_ctx_quiet(shared_ctx);
    shmem_barrier_all();
    total = 0;
    for (pe = 0; pe < npes; pe++) {
        total += shmem_long_atomic_fetch(&counter, pe);
    }
    XG_CHECK(total == 2L * npes * THREADS * ROUNDS,
             "counters total %ld, expected %ld", total,
             2L * npes * THREADS * ROUNDS);
    /* the last put of each (PE, thread) went to the PE of its last round */
    for (pe = 0; pe < npes; pe++) {
        for (t = 0; t < THREADS; t++) {
            if ((pe + ROUNDS - 1) % npes == me) {
                XG_CHECK(slots[pe * THREADS + t] ==
                             (long)pe * 1000000 + t * 1000 + ROUNDS - 1,
                         "slot of pe %d thread %d", pe, t);
            }
        }
    }
    shmem_ctx_destroy(shared_ctx);
    shmem_finalize();
    return XG_TEST_PASS;
}
