/*
 * OpenSHMEM 1.6 initialization rules: shmem_init and shmem_init_thread may
 * be called several times, each matched by a shmem_finalize; the library
 * stays up until the last one, and may then be initialized again.
 * shmem_query_initialized reports the state at any time, before the first
 * initialization and after the last finalization included.  Across cycles
 * global variables keep their values (they are the program's own memory)
 * and the symmetric heap starts empty, every cycle fully usable.
 */
#include <shmem.h>

#include "xg_test.h"

#define CYCLES 4

static long cycles_seen; /* global: survives finalize */
static long ring_value;

static int initialized(void)
{
    int state = -1;

    shmem_query_initialized(&state);
    return state;
}

static void use_library(int cycle)
{
    int me = shmem_my_pe(), npes = shmem_n_pes(), provided;
    long *heap = shmem_malloc(1024 * sizeof(long));

    xg_test_pe = me;
    XG_CHECK(heap != NULL, "cycle %d: shmem_malloc", cycle);
    heap[0] = me;
    shmem_long_p(&ring_value, cycle * 100 + me, (me + 1) % npes);
    shmem_long_p(&heap[1], cycle * 1000 + me, (me + 1) % npes);
    shmem_barrier_all();
    XG_CHECK(ring_value == cycle * 100 + (me + npes - 1) % npes,
             "cycle %d: global %ld", cycle, ring_value);
    XG_CHECK(heap[1] == cycle * 1000 + (me + npes - 1) % npes,
             "cycle %d: heap %ld", cycle, heap[1]);
    (void)shmem_long_atomic_fetch_inc(&cycles_seen, 0);
    shmem_barrier_all();
    XG_CHECK(shmem_long_g(&cycles_seen, 0) == (long)npes * (cycle + 1),
             "cycle %d: counter kept across cycles", cycle);
    shmem_query_thread(&provided);
    shmem_barrier_all();
    shmem_free(heap);
}

int main(void)
{
    int cycle, provided;

    XG_CHECK(initialized() == 0, "initialized before shmem_init");
    for (cycle = 0; cycle < CYCLES; cycle++) {
        if (cycle % 2) {
            XG_CHECK(shmem_init_thread(SHMEM_THREAD_FUNNELED, &provided) == 0,
                     "cycle %d: shmem_init_thread", cycle);
        } else {
            shmem_init();
        }
        XG_CHECK(initialized() == 1, "cycle %d: after init", cycle);
        shmem_init(); /* nested: the library stays up until both finalize */
        use_library(cycle);
        shmem_finalize();
        XG_CHECK(initialized() == 1, "cycle %d: after inner finalize", cycle);
        shmem_finalize();
        XG_CHECK(initialized() == 0, "cycle %d: after finalize", cycle);
    }
    return XG_TEST_PASS;
}
