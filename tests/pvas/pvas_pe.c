/*
 * The PE program of the PVAS loader tests (pvas_test.sh): plain C, no
 * libxgas, built as a static and as a dynamic PIE.  Each case is one mode
 * of the program, named by argv[1]:
 *
 *   hello   checks that the copy runs in its own segment (its code, its
 *           globals and its stack between base + rank * segment size and
 *           the next segment), that malloc works and does not move the
 *           shared program break, and that thread-local storage and a
 *           thread are private to the copy; prints "pvas pe R of N ok"
 *   exit    PE 1 exits with status 3, the others with 0
 *   segv    PE 2 dies of SIGSEGV, the others wait to be ended
 *   wait    writes its pid to $PVAS_TEST_DIR/pe.R.pid and waits forever
 *   big     touches a 32 MiB array in its bss (too large for a 16 MiB
 *           segment)
 *   fork    forks a child that writes a global and exits (the parent's
 *           copy is unchanged: fork copies the address space), then runs
 *           a command through system(); prints "pvas pe R of N ok"
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int initialized_global = 7;
static char bss_global[4096];
static __thread int tls_value = 42;
static char big[32 << 20];
/* where the segv case writes: nothing is mapped there */
static volatile int *volatile wild = (volatile int *)16;

static unsigned long env_number(const char *name, unsigned long fallback)
{
    const char *text = getenv(name);

    return (text != NULL) ? strtoul(text, NULL, 0) : fallback;
}

/* 1 if @addr lies in segment @rank. */
static int in_segment(const void *addr, int rank)
{
    uintptr_t base = env_number("XGAS_SYMMETRIC_BASE", 0x100000000000ul);
    uintptr_t seg  = env_number("XGAS_PVAS_SEGMENT_SIZE", 64ul << 30);
    uintptr_t lo   = base + (uintptr_t)rank * seg;

    return ((uintptr_t)addr >= lo) && ((uintptr_t)addr < lo + seg);
}

/* Allocations of many sizes, filled and checked: copies sharing one
 * break would hand out the same memory. */
static int check_malloc(int rank)
{
    enum {
        COUNT = 200
    };
    unsigned char *block[COUNT];
    size_t size[COUNT], i, j;
    void *brk_before = sbrk(0);
    int round;

    for (round = 0; round < 20; round++) {
        for (i = 0; i < COUNT; i++) {
            size[i]  = 16 + ((i * 7919 + (size_t)round * 104729) % 70000);
            block[i] = malloc(size[i]);
            if (block[i] == NULL) {
                return -1;
            }
            memset(block[i], rank + (int)i, size[i]);
        }
        sched_yield();
        for (i = 0; i < COUNT; i++) {
            for (j = 0; j < size[i]; j++) {
                if (block[i][j] != (unsigned char)(rank + (int)i)) {
                    fprintf(stderr, "pe %d: block %zu corrupted\n", rank, i);
                    return -1;
                }
            }
            free(block[i]);
        }
    }
    if (sbrk(0) != brk_before) {
        fprintf(stderr, "pe %d: the program break moved\n", rank);
        return -1;
    }
    return 0;
}

static void *thread_main(void *arg)
{
    int rank = *(int *)arg;

    tls_value = 1000 + rank;
    return (check_malloc(rank) == 0) ? arg : NULL;
}

static int hello(int rank, int npes)
{
    pthread_t thread;
    void *result = NULL;
    int local    = rank;

    if (!in_segment((void *)hello, rank) ||
        !in_segment(&initialized_global, rank) ||
        !in_segment(bss_global, rank) || !in_segment(&local, rank)) {
        fprintf(stderr,
                "pe %d: code %p, data %p, bss %p or stack %p is not "
                "in its segment\n",
                rank, (void *)hello, (void *)&initialized_global,
                (void *)bss_global, (void *)&local);
        return 1;
    }
    if ((initialized_global != 7) || (tls_value != 42) ||
        (check_malloc(rank) != 0)) {
        fprintf(stderr, "pe %d: globals, TLS or malloc wrong\n", rank);
        return 1;
    }
    if ((pthread_create(&thread, NULL, thread_main, &local) != 0) ||
        (pthread_join(thread, &result) != 0) || (result == NULL) ||
        (tls_value != 42)) {
        fprintf(stderr, "pe %d: thread or its TLS wrong\n", rank);
        return 1;
    }
    printf("pvas pe %d of %d ok\n", rank, npes);
    return 0;
}

static int wait_forever(int rank)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof(path), "%s/pe.%d.pid", getenv("PVAS_TEST_DIR"), rank);
    f = fopen(path, "w");
    if (f == NULL) {
        return 1;
    }
    fprintf(f, "%d\n", (int)getpid());
    fclose(f);
    for (;;) {
        pause();
    }
}

static int fork_and_system(int rank, int npes)
{
    int status = -1;
    pid_t pid  = fork();

    if (pid == 0) {
        initialized_global = 99;
        _exit((initialized_global == 99) ? 0 : 1);
    }
    if ((pid < 0) || (waitpid(pid, &status, 0) != pid) || !WIFEXITED(status) ||
        (WEXITSTATUS(status) != 0) || (initialized_global != 7)) {
        fprintf(stderr, "pe %d: fork: child status %#x, global %d\n", rank,
                status, initialized_global);
        return 1;
    }
    status = system("exit 5");
    if (!WIFEXITED(status) || (WEXITSTATUS(status) != 5)) {
        fprintf(stderr, "pe %d: system: status %#x\n", rank, status);
        return 1;
    }
    printf("pvas pe %d of %d ok\n", rank, npes);
    return 0;
}

int main(int argc, char **argv)
{
    int rank         = (int)env_number("XGAS_RANK", 0);
    int npes         = (int)env_number("XGAS_NPES", 1);
    const char *mode = (argc > 1) ? argv[1] : "hello";

    if (strcmp(mode, "hello") == 0) {
        return hello(rank, npes);
    }
    if (strcmp(mode, "exit") == 0) {
        return (rank == 1) ? 3 : 0;
    }
    if (strcmp(mode, "segv") == 0) {
        if (rank == 2) {
            *wild = 1; /* a real fault */
        }
        for (;;) {
            pause();
        }
    }
    if (strcmp(mode, "wait") == 0) {
        return wait_forever(rank);
    }
    if (strcmp(mode, "fork") == 0) {
        return fork_and_system(rank, npes);
    }
    if (strcmp(mode, "big") == 0) {
        memset(big, 1, sizeof(big));
        return 0;
    }
    fprintf(stderr, "unknown mode '%s'\n", mode);
    return 2;
}
