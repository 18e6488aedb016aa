/*
 * A PE of another node dies while the others are busy with it: PE R (the
 * argument) kills itself once every PE is past a barrier, while every
 * other PE keeps issuing fetch-adds to PE R's counter and puts to its
 * memory (through the network from other nodes, by load and store from
 * its own) and waits in barriers that PE R never reaches.  Nothing may
 * hang on the dead PE: the job must end, its status that of the killed
 * PE, with a message naming it (the launcher's, or the network's when a
 * connection breaks first).
 */
#include <shmem.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "xg_test.h"

static long counter, data[512];

int main(int argc, char **argv)
{
    int victim = (argc > 1) ? atoi(argv[1]) : 1;
    struct timespec now;
    long i;

    shmem_init();
    xg_test_pe = shmem_my_pe();
    XG_CHECK((victim > 0) && (victim < shmem_n_pes()),
             "PE %d to kill in a "
             "job of %d",
             victim, shmem_n_pes());
    shmem_barrier_all();
    if (shmem_my_pe() == victim) {
        /* when, for whoever measures how soon the job ends */
        clock_gettime(CLOCK_REALTIME, &now);
        fprintf(stderr, "PE %d dies at %ld.%03ld\n", victim, (long)now.tv_sec,
                now.tv_nsec / 1000000);
        raise(SIGKILL);
    }
    for (i = 0;; i++) {
        shmem_long_atomic_fetch_add(&counter, 1, victim);
        shmem_long_put(data, data, 512, victim);
        if (i % 64 == 0) {
            shmem_barrier_all(); /* the victim never comes */
        }
    }
    return XG_TEST_FAIL; /* not reached */
}
