/*
 * A thread that writes a global while shmem_init moves the globals into
 * the symmetric data window (mem.c, "Moving the globals while other
 * threads run"): it increments a global in a loop from before shmem_init
 * to after it and counts its increments; the global must then hold every
 * one of them -- a store that landed in the original page after the copy
 * had read it used to be lost with the page.  16 MiB of zeroed globals
 * after the counter make the copy long enough for the thread to write in
 * it.  Afterwards the global is symmetric: the right neighbour reads the
 * same value.
 */
#include <pthread.h>
#include <sched.h>
#include <shmem.h>

#include "xg_test.h"

static volatile long written = 1; /* .data: copied first */
char ballast[16 << 20];           /* .bss, after it (kept: extern) */
static int started, stop;
static long final_written;

static void *writer(void *arg)
{
    long count = 0;

    (void)arg;
    while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
        written = written + 1;
        count++;
        if (count == 1) {
            __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
        }
        if ((count & 1023) == 0) {
            sched_yield(); /* 8 PEs share 2 cores */
        }
    }
    return (void *)count;
}

int main(void)
{
    pthread_t thread;
    void *count;
    int me, npes;

    XG_CHECK(pthread_create(&thread, NULL, writer, NULL) == 0,
             "pthread_create");
    while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE)) {
        sched_yield();
    }
    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
    XG_CHECK(pthread_join(thread, &count) == 0, "pthread_join");
    XG_CHECK(written == 1 + (long)count,
             "the global holds %ld increments, the thread made %ld: %ld "
             "lost while shmem_init moved the globals",
             written - 1, (long)count, (long)count - (written - 1));
    XG_CHECK(((volatile char *)ballast)[sizeof(ballast) - 1] == 0, "ballast");
    final_written = written;
    shmem_barrier_all();
    XG_CHECK(shmem_long_g((long *)&written, (me + 1) % npes) ==
                 shmem_long_g(&final_written, (me + 1) % npes),
             "the global is not symmetric after the move");
    shmem_barrier_all();
    shmem_finalize();
    return XG_TEST_PASS;
}
