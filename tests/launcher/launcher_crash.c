/*
 * The crashing PE program of the launcher tests (launcher_test.sh, cases
 * crash_* and global_exit_quiet): a real OpenSHMEM program, linked with
 * libxgas (which loads libfabric, and whatever that pulls in, in a job
 * over several nodes).
 *
 *     launcher_crash MODE RANK DIR
 *
 * Every PE writes DIR/pe.<rank>.pid and initializes; after a barrier PE
 * RANK does what MODE says while the others wait in barriers for it:
 *
 *   abort         abort()
 *   segv          a store through a null pointer on the main thread
 *   thread        the same on a thread of its own
 *   progress      shmem_getmem into a read-only buffer from the last PE:
 *                 with XGAS_ROUTE=nic (or across nodes) the NIC's progress
 *                 thread writes the reply, and faults
 *   exit_handler  as progress, after installing a SIGSEGV handler that
 *                 calls exit(1) (what libinfinipath's handlers do): the
 *                 exit handlers then run on the faulting thread
 *   startup       exit(3) before shmem_init, once every other PE has
 *                 written its pid file and installed a SIGTERM handler
 *                 that calls exit(1) (as libinfinipath's does): the others
 *                 get the launcher's SIGTERM in shmem_init, whose exit
 *                 handlers must not wait for the init they interrupted
 *   global_exit   shmem_global_exit(0) once every other PE is putting to
 *                 it, in a loop (so that the others' traffic meets the
 *                 requester's exit)
 *
 *     launcher_crash dispositions
 *
 * After shmem_init no crash signal may have a handler of libinfinipath;
 * exit 77 if that library is not loaded.  libxgas loads libfabric (and
 * with it libinfinipath) on first use: a singleton never does, a PE of
 * a job over (virtual) nodes does in shmem_init -- without
 * IPATH_NO_BACKTRACE, which this mode unsets first (xgasrun sets it).
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <shmem.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CRASH_BYTES 8192

static long crash_started; /* global_exit: PEs putting to the requester */

static void crash_check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "launcher_crash: %s (%s)\n", what, strerror(errno));
        exit(2);
    }
}

/* A store into a page that allows no access: a real SIGSEGV, and no
 * undefined behaviour for the sanitizers to catch before it. */
static void crash_null_store(void)
{
    volatile int *guard = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_NONE,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    crash_check(guard != MAP_FAILED, "mmap");
    *guard = 1;
}

static void *crash_thread(void *arg)
{
    (void)arg;
    crash_null_store();
    return NULL;
}

static void crash_exit_on_signal(int sig)
{
    (void)sig;
    exit(1);
}

static void crash_get_read_only(void *src)
{
    void *buf =
        mmap(NULL, CRASH_BYTES, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    crash_check(buf != MAP_FAILED, "mmap");
    shmem_getmem(buf, src, CRASH_BYTES, shmem_n_pes() - 1);
}

static void crash_do(const char *mode, void *src)
{
    pthread_t thread;

    if (strcmp(mode, "abort") == 0) {
        abort();
    } else if (strcmp(mode, "segv") == 0) {
        crash_null_store();
    } else if (strcmp(mode, "thread") == 0) {
        crash_check(pthread_create(&thread, NULL, crash_thread, NULL) == 0,
                    "pthread_create");
        pthread_join(thread, NULL);
    } else if (strcmp(mode, "progress") == 0) {
        crash_get_read_only(src);
    } else if (strcmp(mode, "exit_handler") == 0) {
        crash_check(signal(SIGSEGV, crash_exit_on_signal) != SIG_ERR, "signal");
        crash_get_read_only(src);
    } else if (strcmp(mode, "global_exit") == 0) {
        shmem_long_wait_until(&crash_started, SHMEM_CMP_EQ, shmem_n_pes() - 1);
        shmem_global_exit(0);
    }
    fprintf(stderr, "launcher_crash: mode %s did not end PE %d\n", mode,
            shmem_my_pe());
    exit(2);
}

/* The singleton check: no crash signal left to libinfinipath. */
static int crash_dispositions(void)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL,
                               SIGABRT, SIGINT, SIGTERM};
    struct sigaction action;
    Dl_info where;
    void *handler;
    int bad = 0;
    size_t i;

    unsetenv("IPATH_NO_BACKTRACE");
    shmem_init();
    if (dlopen("libinfinipath.so.4", RTLD_NOW | RTLD_NOLOAD) == NULL) {
        printf("SKIP: libinfinipath is not loaded\n");
        shmem_finalize();
        return 77;
    }
    for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
        crash_check(sigaction(sigs[i], NULL, &action) == 0, "sigaction");
        handler = (action.sa_flags & SA_SIGINFO) ? (void *)action.sa_sigaction
                                                 : (void *)action.sa_handler;
        if ((handler == (void *)SIG_DFL) || (handler == (void *)SIG_IGN)) {
            continue;
        }
        if ((dladdr(handler, &where) != 0) && (where.dli_fname != NULL) &&
            (strstr(where.dli_fname, "libinfinipath") != NULL)) {
            fprintf(stderr, "signal %d (%s) is handled by %s\n", sigs[i],
                    strsignal(sigs[i]), where.dli_fname);
            bad = 1;
        }
    }
    shmem_finalize();
    return bad;
}

/* Writes DIR/pe.<rank>.pid (renamed into place: complete when seen). */
static void crash_write_pid(const char *dir, int me)
{
    char tmp[4096], path[4096];
    FILE *file;

    snprintf(tmp, sizeof(tmp), "%s/pe.%d.tmp", dir, me);
    snprintf(path, sizeof(path), "%s/pe.%d.pid", dir, me);
    file = fopen(tmp, "w");
    crash_check(file != NULL, tmp);
    fprintf(file, "%d\n", (int)getpid());
    crash_check(fclose(file) == 0, tmp);
    crash_check(rename(tmp, path) == 0, path);
}

/* "startup": the PEs have not initialized; XGAS_RANK says who is who. */
static int crash_startup(int rank, const char *dir)
{
    const char *env_rank = getenv("XGAS_RANK"), *env_npes = getenv("XGAS_NPES");
    int me   = (env_rank != NULL) ? atoi(env_rank) : 0;
    int npes = (env_npes != NULL) ? atoi(env_npes) : 1;
    char path[4096];
    useconds_t pause_us = 100;
    int peer;

    if (me != rank) {
        crash_check(signal(SIGTERM, crash_exit_on_signal) != SIG_ERR, "signal");
        crash_write_pid(dir, me);
        shmem_init(); /* waits for PE @rank, which never comes */
        fprintf(stderr, "launcher_crash: shmem_init returned on PE %d\n", me);
        return 2;
    }
    crash_write_pid(dir, me);
    for (peer = 0; peer < npes; peer++) {
        snprintf(path, sizeof(path), "%s/pe.%d.pid", dir, peer);
        while (access(path, F_OK) != 0) {
            usleep(pause_us);
            if (pause_us < 10000) {
                pause_us *= 2;
            }
        }
    }
    exit(3);
}

int main(int argc, char **argv)
{
    void *src;
    int rank;

    if ((argc == 2) && (strcmp(argv[1], "dispositions") == 0)) {
        return crash_dispositions();
    }
    if (argc != 4) {
        fprintf(stderr, "usage: launcher_crash MODE RANK DIR\n");
        return 2;
    }
    rank = atoi(argv[2]);
    if (strcmp(argv[1], "startup") == 0) {
        return crash_startup(rank, argv[3]);
    }
    shmem_init();
    crash_write_pid(argv[3], shmem_my_pe());
    src = shmem_malloc(CRASH_BYTES);
    crash_check(src != NULL, "shmem_malloc");
    shmem_barrier_all();
    if (shmem_my_pe() == rank) {
        crash_do(argv[1], src);
    }
    if (strcmp(argv[1], "global_exit") == 0) {
        shmem_long_atomic_inc(&crash_started, rank);
        for (;;) {
            shmem_putmem(src, src, CRASH_BYTES, rank);
            shmem_quiet();
        }
    }
    /* wait for the failing PE, which never comes */
    for (;;) {
        shmem_barrier_all();
    }
}
