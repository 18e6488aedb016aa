/*
 * SHMEM_THREAD_MULTIPLE: 4 threads per PE communicate at the same time.
 * Thread t of PE p owns row (p, t) of a heap table on every PE: it puts
 * values there, reads them back with gets, and increments per-thread and
 * shared counters with atomics on every PE.  After the threads join and a
 * barrier, each PE finds every row exactly as its writer left it and every
 * counter at its exact total.  Each thread has its own lookaside buffer,
 * so this also runs translation from several threads at once.
 */
#include <pthread.h>
#include <shmem.h>

#include "xg_test.h"

#define THREADS 4
#define WORDS   256
#define ITERS   2000

static long *table; /* [npes][THREADS][WORDS] on every PE */
static long thread_count[THREADS];
static long shared_count;
static int me, npes;

static long value(int pe, int t, int w)
{
    return (long)pe * 1000000 + t * 10000 + w + 1;
}

static long *row(int pe, int t)
{
    return &table[((size_t)pe * THREADS + (size_t)t) * WORDS];
}

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg, pe, w, i;
    long out[WORDS], back[WORDS];

    for (w = 0; w < WORDS; w++) {
        out[w] = value(me, t, w);
    }
    for (pe = 0; pe < npes; pe++) {
        shmem_long_put(row(me, t), out, WORDS / 2, pe);
        for (w = WORDS / 2; w < WORDS; w++) {
            shmem_long_p(&row(me, t)[w], out[w], pe);
        }
        shmem_quiet();
        shmem_long_get(back, row(me, t), WORDS, pe);
        for (w = 0; w < WORDS; w++) {
            XG_CHECK(back[w] == out[w], "thread %d: word %d on PE %d", t, w,
                     pe);
            XG_CHECK(shmem_long_g(&row(me, t)[w], pe) == out[w],
                     "thread %d: g of word %d on PE %d", t, w, pe);
        }
    }
    for (i = 0; i < ITERS; i++) {
        pe = (me + i) % npes;
        shmem_long_atomic_inc(&thread_count[t], pe);
        shmem_long_atomic_fetch_add(&shared_count, 1, pe);
    }
    return NULL;
}

int main(void)
{
    pthread_t threads[THREADS];
    int provided = -1, t, pe, w;
    long expect  = 0;

    XG_CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0,
             "shmem_init_thread");
    XG_CHECK(provided == SHMEM_THREAD_MULTIPLE, "provided %d", provided);
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    table      = shmem_malloc((size_t)npes * THREADS * WORDS * sizeof(long));
    XG_CHECK(table != NULL, "shmem_malloc");

    for (t = 0; t < THREADS; t++) {
        XG_CHECK(
            pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)t) == 0,
            "pthread_create");
    }
    for (t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
    }
    shmem_barrier_all();

    for (pe = 0; pe < npes; pe++) {
        for (t = 0; t < THREADS; t++) {
            for (w = 0; w < WORDS; w++) {
                XG_CHECK(row(pe, t)[w] == value(pe, t, w),
                         "row (%d, %d) word %d: %ld", pe, t, w, row(pe, t)[w]);
            }
        }
    }
    /* PE p sends its ITERS increments of each counter round-robin from
     * itself: ITERS / npes to each PE, plus one to the first
     * ITERS % npes PEs of its rotation */
    for (pe = 0; pe < npes; pe++) {
        expect +=
            ITERS / npes + ((((me - pe + npes) % npes) < ITERS % npes) ? 1 : 0);
    }
    for (t = 0; t < THREADS; t++) {
        XG_CHECK(thread_count[t] == expect,
                 "thread counter %d: %ld, "
                 "expected %ld",
                 t, thread_count[t], expect);
    }
    XG_CHECK(shared_count == THREADS * expect,
             "shared counter: %ld, "
             "expected %ld",
             shared_count, THREADS * expect);
    shmem_barrier_all();
    shmem_free(table);
    shmem_finalize();
    return XG_TEST_PASS;
}
