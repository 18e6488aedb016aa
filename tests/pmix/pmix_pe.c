/*
 * The PE program of the PMIx tests (pmix_test.sh), started by mpirun.
 *
 *   check            joined through the PMIx backend as the rank and job
 *                    size the launcher gave (mpirun's OMPI_COMM_WORLD_RANK,
 *                    _SIZE, _LOCAL_SIZE, or srun's SLURM_PROCID,
 *                    _NTASKS, _TASKS_PER_NODE: set apart from PMIx); the
 *                    memory of
 *                    every peer of this node is load/store reachable
 *                    (shmem_ptr), of no other, SHMEM_TEAM_SHARED is this
 *                    node's PEs, and a put/get/atomic round reaches every
 *                    PE; nothing of the job is left in /dev/shm
 *   exit R CODE      PE R exits with CODE once every PE has initialized;
 *                    the others wait in a barrier that cannot complete
 *   kill R           ... PE R kills itself with SIGKILL
 *   return R         ... PE R returns 0 from main without shmem_finalize
 *   abort R          ... PE R ends the job through boot's abort (what an
 *                    xgas error that cannot be recovered does), status 5
 *   hold DIR         every PE sends its stderr to DIR/pe.R.log, writes
 *                    DIR/pe.R.pid and waits for a signal: the test kills
 *                    mpirun, and each PE must end on its own, saying why
 */
#include <dirent.h>
#include <signal.h>
#include <shmem.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot/xg_boot.h"
#include "xg_test.h"

static long pe_counter;

/* What the launcher says apart from PMIx: Open MPI's variable @ompi, or
 * Slurm's @slurm (srun --mpi=pmix). */
static int pe_env_int(const char *ompi, const char *slurm)
{
    const char *text = getenv(ompi);

    if (text == NULL) {
        text = getenv(slurm);
    }
    XG_CHECK(text != NULL,
             "neither %s nor %s is set: not started by "
             "Open MPI's mpirun or Slurm's srun",
             ompi, slurm);
    return atoi(text);
}

/* No shared memory object named after the job's namespace remains. */
static void pe_check_dev_shm(void)
{
    const char *ns = getenv("PMIX_NAMESPACE");
    char prefix[128];
    struct dirent *entry;
    DIR *dir = opendir("/dev/shm");

    XG_CHECK((ns != NULL) && (dir != NULL), "PMIX_NAMESPACE or /dev/shm");
    snprintf(prefix, sizeof(prefix), "xgas-%s-", ns);
    while ((entry = readdir(dir)) != NULL) {
        XG_CHECK(strncmp(entry->d_name, prefix, strlen(prefix)) != 0,
                 "/dev/shm/%s is left after start-up", entry->d_name);
    }
    closedir(dir);
}

static void pe_check(void)
{
    int me = shmem_my_pe(), npes = shmem_n_pes(), pe;
    long *peer;

    XG_CHECK(strcmp(xg_boot.backend, "pmix") == 0, "joined through %s",
             xg_boot.backend);
    XG_CHECK(me == pe_env_int("OMPI_COMM_WORLD_RANK", "SLURM_PROCID"),
             "rank %d", me);
    XG_CHECK(npes == pe_env_int("OMPI_COMM_WORLD_SIZE", "SLURM_NTASKS"),
             "npes %d", npes);
    /* (Slurm's tasks on this node: SLURM_TASKS_PER_NODE begins with
     * them) */
    XG_CHECK(
        shmem_team_n_pes(SHMEM_TEAM_SHARED) ==
            pe_env_int("OMPI_COMM_WORLD_LOCAL_SIZE", "SLURM_TASKS_PER_NODE"),
        "SHMEM_TEAM_SHARED "
        "has %d PEs",
        shmem_team_n_pes(SHMEM_TEAM_SHARED));
    pe_check_dev_shm();
    for (pe = 0; pe < npes; pe++) {
        int shared = shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe,
                                             SHMEM_TEAM_SHARED) >= 0;

        peer = shmem_ptr(&pe_counter, pe);
        XG_CHECK(shared == xg_boot_same_node(pe),
                 "PE %d is %sin "
                 "SHMEM_TEAM_SHARED",
                 pe, shared ? "" : "not ");
        XG_CHECK((peer != NULL) == shared, "shmem_ptr to PE %d is %p", pe,
                 (void *)peer);
        shmem_long_atomic_add(&pe_counter, 1, pe);
    }
    shmem_barrier_all();
    XG_CHECK(pe_counter == npes, "counter %ld, expected %d", pe_counter, npes);
    shmem_barrier_all(); /* every PE has read its counter */
    shmem_long_p(&pe_counter, me, (me + 1) % npes);
    shmem_barrier_all();
    XG_CHECK(pe_counter == (me + npes - 1) % npes,
             "put from the left "
             "neighbour: %ld",
             pe_counter);
    XG_CHECK(shmem_long_g(&pe_counter, (me + 1) % npes) == me, "get");
    printf("pe %d of %d on node %d of %d: pmix check passed\n", me, npes,
           xg_boot.node, xg_boot.nnodes);
}

/* Sends stderr to a file of @dir (mpirun, which forwards it, is to be
 * killed), then writes the pid file the test waits for. */
static void pe_hold(const char *dir)
{
    char path[512], tmp[520];
    FILE *file;

    XG_CHECK(dir != NULL, "hold needs a directory");
    snprintf(path, sizeof(path), "%s/pe.%d.log", dir, shmem_my_pe());
    XG_CHECK(freopen(path, "w", stderr) != NULL, "cannot write %s", path);
    setvbuf(stderr, NULL, _IONBF, 0);
    snprintf(path, sizeof(path), "%s/pe.%d.pid", dir, shmem_my_pe());
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    file = fopen(tmp, "w");
    XG_CHECK(file != NULL, "cannot write %s", tmp);
    fprintf(file, "%d\n", (int)getpid());
    fclose(file);
    XG_CHECK(rename(tmp, path) == 0, "cannot rename %s", tmp);
}

int main(int argc, char **argv)
{
    int victim = (argc > 2) ? atoi(argv[2]) : -1; /* not for hold */

    XG_CHECK(argc >= 2, "usage: pmix_pe check | exit R CODE | kill R | "
                        "abort R");
    shmem_init();
    xg_test_pe = shmem_my_pe();
    if (strcmp(argv[1], "check") == 0) {
        pe_check();
        shmem_finalize();
        return 0;
    }
    shmem_barrier_all(); /* every PE has joined */
    if (strcmp(argv[1], "hold") == 0) {
        pe_hold(argv[2]);
        for (;;) {
            pause();
        }
    }
    if (shmem_my_pe() == victim) {
        if (strcmp(argv[1], "exit") == 0) {
            exit((argc > 3) ? atoi(argv[3]) : 1);
        } else if (strcmp(argv[1], "return") == 0) {
            return 0;
        } else if (strcmp(argv[1], "kill") == 0) {
            raise(SIGKILL);
        } else if (strcmp(argv[1], "abort") == 0) {
            fprintf(stderr, "pe %d: aborting the job\n", victim);
            xg_boot_abort(5);
        }
        XG_CHECK(0, "unknown case %s", argv[1]);
    }
    shmem_barrier_all();
    fprintf(stderr, "FAIL [pe %d]: returned from a barrier missing PE %d\n",
            shmem_my_pe(), victim);
    return XG_TEST_FAIL;
}
