/*
 * The PE program of the hang tests (hang_test.sh): each case makes the PEs
 * of a job diverge or deadlock in one way, through the public API only.
 *
 *   exit_early        the last PE exits 0 in the middle; the others wait in
 *                     shmem_barrier_all
 *   finalize_early    PE 0 calls shmem_finalize; the others a barrier first
 *   extra_barrier     PE 0 calls one more shmem_barrier_all than the others
 *   malloc_one        PE 0 calls shmem_malloc; the others shmem_finalize
 *   finalize_vs_coll  PE 0 calls shmem_finalize; the others a reduction
 *   aset_vs_finalize  PE 0 calls shmem_finalize; the others the deprecated
 *                     active-set shmem_barrier over all PEs
 *   threads DIR       every PE waits for a variable; a second thread of
 *                     PE 0 sets it on every PE once DIR/go exists: the
 *                     watch may report but must not end the job
 *   wait_deadlock     every PE waits for a variable nobody sets
 *   fork_child DIR    before shmem_init every PE starts a child program
 *                     (sleep, through system) and appends its pid to
 *                     DIR/children; after shmem_init each writes
 *                     DIR/init.<PE> and waits forever
 *   loaded DIR        every PE writes its pid to DIR/pid.<PE>, waits until
 *                     DIR/go exists, then as wait_deadlock
 *   wait_vs_finalize  PE 0 calls shmem_finalize; the others wait for a
 *                     variable nobody sets
 *   lock_deadlock     PE 0 takes a lock and waits forever; the others ask
 *                     for the lock
 *   reinit            every PE finalizes and initializes again, the last one
 *                     after a nap: a finalized PE is not a PE that left
 *   compute DIR       PE 0 computes (user code) until DIR/go exists, the
 *                     others wait in shmem_barrier_all; then all finish
 *                     normally.  PE 0 writes DIR/started after shmem_init.
 *
 * Without OpenSHMEM (Portals and PMI only; the NIC runs its progress
 * thread):
 *   eq_deadlock       every process waits in PtlEQWait for an event that
 *                     never comes
 *   ct_deadlock       every process waits in PtlCTWait for a counter
 *                     nobody increments
 *   pmi_deadlock      rank 0 waits in PtlEQWait, the others in PMI_Barrier
 *
 * Waiting for DIR/go is bounded (120 s); user-code phases sleep in short
 * steps so that the machine stays usable.
 */
#include <pmi.h>
#include <portals4.h>
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long never_set;
static long lock_word;
static long src_value, dst_value;
static long psync[SHMEM_BARRIER_SYNC_SIZE];
static const char *go_dir;

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

    nanosleep(&ts, NULL);
}

static void touch(const char *dir, const char *name)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "w");
    if (f != NULL) {
        fclose(f);
    }
}

static int exists(const char *dir, const char *name)
{
    char path[4096];

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

/* The second thread of PE 0 (case threads): releases every PE. */
static void *release_all(void *arg)
{
    int pe, i;

    (void)arg;
    for (i = 0; (i < 1200) && !exists(go_dir, "go"); i++) {
        nap_ms(100);
    }
    for (pe = 0; pe < shmem_n_pes(); pe++) {
        shmem_long_atomic_set(&never_set, 1, pe);
    }
    return NULL;
}

static void ptl_check(int ret, const char *call)
{
    if (ret != PTL_OK) {
        fprintf(stderr, "hang_pe: %s failed (%d)\n", call, ret);
        exit(2);
    }
}

/* The cases without OpenSHMEM; returns only after an error (status 2). */
static int ptl_pmi_case(const char *mode)
{
    ptl_handle_ni_t ni;
    ptl_handle_eq_t eq;
    ptl_handle_ct_t ct;
    ptl_ct_event_t ct_event;
    ptl_event_t event;
    int spawned, rank = 0;

    if (strcmp(mode, "pmi_deadlock") == 0) {
        if ((PMI_Init(&spawned) != PMI_SUCCESS) ||
            (PMI_Get_rank(&rank) != PMI_SUCCESS)) {
            fprintf(stderr, "hang_pe: PMI_Init failed\n");
            return 2;
        }
    }
    ptl_check(PtlInit(), "PtlInit");
    ptl_check(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                        PTL_PID_ANY, NULL, NULL, &ni),
              "PtlNIInit");
    if (strcmp(mode, "ct_deadlock") == 0) {
        ptl_check(PtlCTAlloc(ni, &ct), "PtlCTAlloc");
        ptl_check(PtlCTWait(ct, 1, &ct_event), "PtlCTWait");
    } else {
        ptl_check(PtlEQAlloc(ni, 16, &eq), "PtlEQAlloc");
        if (rank != 0) {
            /* rank 0 never arrives */
            if (PMI_Barrier() != PMI_SUCCESS) {
                return 2;
            }
        }
        ptl_check(PtlEQWait(eq, &event), "PtlEQWait");
    }
    fprintf(stderr, "hang_pe: a wait of case %s ended\n", mode);
    return 2;
}

int main(int argc, char **argv)
{
    const char *mode = (argc > 1) ? argv[1] : "";
    const char *dir  = (argc > 2) ? argv[2] : ".";
    int me, npes, i;

    if (strcmp(mode, "fork_child") == 0) {
        char cmd[4096 + 64];

        snprintf(cmd, sizeof(cmd),
                 "sleep 300 </dev/null >/dev/null 2>&1 & "
                 "echo $! >> '%s/children'",
                 dir);
        if (system(cmd) != 0) {
            fprintf(stderr, "hang_pe: cannot start a child\n");
            return 2;
        }
        shmem_init();
        snprintf(cmd, sizeof(cmd), "init.%d", shmem_my_pe());
        touch(dir, cmd);
        shmem_long_wait_until(&never_set, SHMEM_CMP_EQ, 5);
        return 2;
    }
    if ((strcmp(mode, "eq_deadlock") == 0) ||
        (strcmp(mode, "ct_deadlock") == 0) ||
        (strcmp(mode, "pmi_deadlock") == 0)) {
        return ptl_pmi_case(mode);
    }
    if (strcmp(mode, "threads") == 0) {
        int provided;

        shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    } else {
        shmem_init();
    }
    me   = shmem_my_pe();
    npes = shmem_n_pes();
    if (strcmp(mode, "exit_early") == 0) {
        if (me == npes - 1) {
            nap_ms(2000); /* user code, while the others block */
            exit(0);
        }
        shmem_barrier_all();
    } else if (strcmp(mode, "finalize_early") == 0) {
        if (me != 0) {
            shmem_barrier_all();
        }
    } else if (strcmp(mode, "extra_barrier") == 0) {
        if (me == 0) {
            shmem_barrier_all();
        }
    } else if (strcmp(mode, "malloc_one") == 0) {
        if (me == 0) {
            shmem_malloc(64);
        }
    } else if (strcmp(mode, "finalize_vs_coll") == 0) {
        if (me != 0) {
            src_value = me;
            shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &dst_value, &src_value, 1);
        }
    } else if (strcmp(mode, "aset_vs_finalize") == 0) {
        for (i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++) {
            psync[i] = SHMEM_SYNC_VALUE;
        }
        shmem_barrier_all();
        if (me != 0) {
            shmem_barrier(0, 0, npes, psync);
        }
    } else if (strcmp(mode, "threads") == 0) {
        pthread_t thread;

        if (me == 0) {
            go_dir = dir;
            if (pthread_create(&thread, NULL, release_all, NULL) != 0) {
                fprintf(stderr, "hang_pe: cannot start a thread\n");
                return 1;
            }
        }
        shmem_long_wait_until(&never_set, SHMEM_CMP_EQ, 1);
        if (me == 0) {
            pthread_join(thread, NULL);
        }
        shmem_barrier_all();
    } else if (strcmp(mode, "loaded") == 0) {
        char name[4096];
        FILE *f;

        snprintf(name, sizeof(name), "%s/pid.%d", dir, me);
        f = fopen(name, "w");
        if (f != NULL) {
            fprintf(f, "%d\n", (int)getpid());
            fclose(f);
        }
        for (i = 0; (i < 1200) && !exists(dir, "go"); i++) {
            nap_ms(100);
        }
        shmem_long_wait_until(&never_set, SHMEM_CMP_EQ, 5);
    } else if (strcmp(mode, "wait_deadlock") == 0) {
        shmem_long_wait_until(&never_set, SHMEM_CMP_EQ, 5);
    } else if (strcmp(mode, "wait_vs_finalize") == 0) {
        if (me != 0) {
            shmem_long_wait_until(&never_set, SHMEM_CMP_NE, 0);
        }
    } else if (strcmp(mode, "lock_deadlock") == 0) {
        if (me == 0) {
            shmem_set_lock(&lock_word);
        }
        shmem_barrier_all();
        if (me == 0) {
            shmem_long_wait_until(&never_set, SHMEM_CMP_EQ, 1);
        } else {
            shmem_set_lock(&lock_word);
        }
    } else if (strcmp(mode, "reinit") == 0) {
        shmem_finalize();
        if (me == npes - 1) {
            nap_ms(1500);
        }
        shmem_init();
        shmem_barrier_all();
    } else if (strcmp(mode, "compute") == 0) {
        if (me == 0) {
            touch(dir, "started");
            for (i = 0; (i < 1200) && !exists(dir, "go"); i++) {
                nap_ms(100);
            }
        }
        shmem_barrier_all();
    } else {
        fprintf(stderr, "hang_pe: unknown case '%s'\n", mode);
        return 2;
    }
    shmem_finalize();
    return 0;
}
