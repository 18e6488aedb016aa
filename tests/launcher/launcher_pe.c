/*
 * The PE program of the launcher tests (launcher_test.sh).  Each PE started
 * by xgasrun does what its arguments say:
 *
 *   ranks                      check the launcher variables and descriptors,
 *                              go through INITIALIZED and FINALIZED like a
 *                              well-behaved shmem program, print
 *                              "rank R of N"
 *   affinity                   print "rank R cpus LIST": the CPUs this
 *                              process may run on (sched_getaffinity), as
 *                              a list of ranges like 0-3,6
 *   lines                      write lines to stdout and stderr in pieces,
 *                              one line longer than the launcher's buffer,
 *                              and end both without a newline
 *   wait DIR                   write DIR/pe.<rank>.pid, then pause forever
 *   exit R CODE DIR            as wait, but once every PE has written its
 *                              pid file PE R exits with CODE
 *   kill R SIG DIR             ... PE R raises SIG
 *   no-finalize R DIR          ... PE R marks its control slot INITIALIZED
 *                              and exits 0
 *   global-exit R STATUS DIR   ... PE R requests the end of the job as
 *                              shmem_global_exit(STATUS) does, and exits
 *                              with STATUS
 *   consequence R P DIR        ... PE R records in its control slot that
 *                              it ends the job because PE P stopped
 *                              answering, and exits 1; PE P (which blocks
 *                              SIGTERM, as a PE busy dying would not see
 *                              it) raises SIGSEGV once PE R is reaped
 *   order A B DIR              ... PE B stops the launcher, sends SIGSEGV
 *                              to PE A, waits for A's death, exits 1 and
 *                              leaves a child that continues the
 *                              launcher once B is dead: both are dead when
 *                              the launcher looks, A first
 *   spawn CODE DIR             start two long sleeps (`sleep 1000`): a
 *                              child in a session of its own and a
 *                              double-forked daemon, write their pids to
 *                              DIR/orphan.<rank>.<n>.pid, then as wait,
 *                              but once every PE has written its pid file
 *                              every PE exits with CODE
 *
 * It talks to the control area directly through the xg_ctl.h layout, not
 * through libxgas, so that it tests the launcher alone.
 */
#include "boot/xg_ctl.h"
#include "xg_test.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PE_LONG_LINE       40000 /* bytes: more than xgasrun's line buffer */
#define PE_BARRIER_TIMEOUT 60000 /* ms without news from any peer */

static int pe_rank, pe_npes;

static int pe_env_int(const char *name)
{
    const char *text = getenv(name);
    char *end;
    long value;

    XG_CHECK(text != NULL, "%s is not set", name);
    value = strtol(text, &end, 10);
    XG_CHECK((end != text) && (*end == '\0'), "%s='%s'", name, text);
    return (int)value;
}

static xg_ctl_t *pe_map_ctl(void)
{
    int fd = pe_env_int("XGAS_CTL_FD");
    struct stat st;
    void *map;

    XG_CHECK(fstat(fd, &st) == 0, "XGAS_CTL_FD=%d: %s", fd, strerror(errno));
    map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
               0);
    XG_CHECK(map != MAP_FAILED, "mmap: %s", strerror(errno));
    XG_CHECK(xg_ctl_check(map, (size_t)st.st_size, (uint32_t)pe_npes) == 0,
             "the control area does not match %d PEs", pe_npes);
    return map;
}

static void pe_set_state(xg_ctl_t *ctl, xg_pe_state_t state)
{
    atomic_store_explicit(&ctl->pe[pe_rank].state, (uint32_t)state,
                          memory_order_release);
}

static void pe_write_all(int fd, const char *text, size_t len)
{
    ssize_t n;

    while (len > 0) {
        n = write(fd, text, len);
        XG_CHECK(n > 0, "write: %s", strerror(errno));
        text += n;
        len -= (size_t)n;
    }
}

static void pe_write(int fd, const char *text)
{
    pe_write_all(fd, text, strlen(text));
}

static int pe_ranks(void)
{
    xg_ctl_t *ctl = pe_map_ctl();
    struct stat st;
    int seg_fd = pe_env_int("XGAS_SEG_FD");

    XG_CHECK(ctl->npes == (uint32_t)pe_npes, "npes %u", ctl->npes);
    XG_CHECK(fstat(seg_fd, &st) == 0, "XGAS_SEG_FD=%d: %s", seg_fd,
             strerror(errno));
    pe_set_state(ctl, XG_PE_INITIALIZED);
    printf("rank %d of %d\n", pe_rank, pe_npes);
    pe_set_state(ctl, XG_PE_FINALIZED);
    return XG_TEST_PASS;
}

/* Each write ends mid-line, so the launcher must join the pieces. */
static int pe_lines(void)
{
    char text[128], *line;

    snprintf(text, sizeof(text), "out %d fi", pe_rank);
    pe_write(STDOUT_FILENO, text);
    snprintf(text, sizeof(text), "rst\nout %d second\nout %d ta", pe_rank,
             pe_rank);
    pe_write(STDOUT_FILENO, text);
    snprintf(text, sizeof(text), "err %d first\nerr %d ta", pe_rank, pe_rank);
    pe_write(STDERR_FILENO, text);
    line = malloc(PE_LONG_LINE + 1);
    XG_CHECK(line != NULL, "out of memory");
    memset(line, 'L', PE_LONG_LINE);
    line[PE_LONG_LINE] = '\n';
    pe_write(STDOUT_FILENO, "il\n");
    pe_write_all(STDOUT_FILENO, line, PE_LONG_LINE + 1);
    free(line);
    snprintf(text, sizeof(text), "out %d last", pe_rank);
    pe_write(STDOUT_FILENO, text);
    pe_write(STDERR_FILENO, "il");
    return XG_TEST_PASS;
}

static void pe_pid_path(char *path, size_t size, const char *dir, int rank,
                        const char *suffix)
{
    snprintf(path, size, "%s/pe.%d.%s", dir, rank, suffix);
}

/* Publishes this PE's pid; the rename makes the file appear complete. */
static void pe_write_pid(const char *dir)
{
    char tmp[4096], path[4096];
    FILE *file;

    pe_pid_path(tmp, sizeof(tmp), dir, pe_rank, "tmp");
    pe_pid_path(path, sizeof(path), dir, pe_rank, "pid");
    file = fopen(tmp, "w");
    XG_CHECK(file != NULL, "%s: %s", tmp, strerror(errno));
    fprintf(file, "%d\n", (int)getpid());
    XG_CHECK(fclose(file) == 0, "%s: %s", tmp, strerror(errno));
    XG_CHECK(rename(tmp, path) == 0, "%s: %s", path, strerror(errno));
}

static int pe_count_pid_files(const char *dir)
{
    char path[4096];
    int rank, count = 0;

    for (rank = 0; rank < pe_npes; rank++) {
        pe_pid_path(path, sizeof(path), dir, rank, "pid");
        count += (access(path, F_OK) == 0);
    }
    return count;
}

/* Returns once every PE has written its pid file, so that the test knows
 * all the PEs it expects to be gone. */
static void pe_wait_for_peers(const char *dir)
{
    char events[4096];
    struct pollfd pfd = {.events = POLLIN};

    pfd.fd = inotify_init1(IN_CLOEXEC);
    XG_CHECK(pfd.fd >= 0, "inotify_init1: %s", strerror(errno));
    XG_CHECK(inotify_add_watch(pfd.fd, dir, IN_MOVED_TO) >= 0,
             "inotify_add_watch %s: %s", dir, strerror(errno));
    while (pe_count_pid_files(dir) < pe_npes) {
        XG_CHECK(poll(&pfd, 1, PE_BARRIER_TIMEOUT) == 1,
                 "the pid files of %d PEs did not appear", pe_npes);
        XG_CHECK(read(pfd.fd, events, sizeof(events)) > 0, "read: %s",
                 strerror(errno));
    }
    close(pfd.fd);
}

static XG_NORETURN void pe_pause(void)
{
    for (;;) {
        pause();
    }
}

/* The state letter of process @pid in /proc, or 0 if it is gone. */
static char pe_proc_state(pid_t pid)
{
    char path[64], text[512], *end;
    FILE *file;
    size_t n;

    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    file = fopen(path, "r");
    if (file == NULL) {
        return 0;
    }
    n = fread(text, 1, sizeof(text) - 1, file);
    fclose(file);
    text[n] = '\0';
    end     = strrchr(text, ')');
    return ((end != NULL) && (end[1] == ' ')) ? end[2] : 0;
}

/* Waits, backing off, until process @pid is in state @state (0: gone). */
static void pe_wait_state(pid_t pid, char state)
{
    useconds_t pause_us = 100;
    int waited_ms       = 0;

    while (pe_proc_state(pid) != state) {
        XG_CHECK(waited_ms < PE_BARRIER_TIMEOUT,
                 "process %d never reached "
                 "state '%c'",
                 (int)pid, state ? state : '0');
        usleep(pause_us);
        waited_ms += (int)(pause_us / 1000);
        if (pause_us < 10000) {
            pause_us *= 2;
        }
    }
}

static pid_t pe_pid_of(const char *dir, int rank)
{
    char path[4096];
    FILE *file;
    int pid = 0;

    pe_pid_path(path, sizeof(path), dir, rank, "pid");
    file = fopen(path, "r");
    XG_CHECK(file != NULL, "%s: %s", path, strerror(errno));
    XG_CHECK(fscanf(file, "%d", &pid) == 1, "%s: no pid", path);
    fclose(file);
    return (pid_t)pid;
}

/* "consequence R P DIR" (see the top of the file). */
static int pe_consequence(int target, int peer, const char *dir)
{
    xg_ctl_t *ctl = pe_map_ctl();
    sigset_t term;

    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    if (pe_rank == peer) {
        XG_CHECK(sigprocmask(SIG_BLOCK, &term, NULL) == 0, "sigprocmask");
    }
    pe_write_pid(dir);
    if ((pe_rank != target) && (pe_rank != peer)) {
        pe_pause();
    }
    pe_wait_for_peers(dir);
    if (pe_rank == target) {
        pe_set_state(ctl, XG_PE_INITIALIZED);
        atomic_store_explicit(&ctl->pe[pe_rank].cause, 1 + peer,
                              memory_order_release);
        _exit(1);
    }
    pe_wait_state(pe_pid_of(dir, target), 0);
    raise(SIGSEGV);
    XG_CHECK(0, "survived SIGSEGV");
    return XG_TEST_FAIL;
}

/* "order A B DIR" (see the top of the file). */
static int pe_order(int first, int second, const char *dir)
{
    pid_t launcher = getppid(), me, child;

    pe_write_pid(dir);
    if (pe_rank != second) {
        pe_pause();
    }
    pe_wait_for_peers(dir);
    XG_CHECK(kill(launcher, SIGSTOP) == 0, "SIGSTOP: %s", strerror(errno));
    pe_wait_state(launcher, 'T');
    XG_CHECK(kill(pe_pid_of(dir, first), SIGSEGV) == 0, "kill: %s",
             strerror(errno));
    pe_wait_state(pe_pid_of(dir, first), 'Z');
    me    = getpid();
    child = fork();
    XG_CHECK(child >= 0, "fork: %s", strerror(errno));
    if (child == 0) {
        pe_wait_state(me, 'Z');
        kill(launcher, SIGCONT);
        _exit(0);
    }
    _exit(1);
}

static int pe_arg_int(const char *text)
{
    char *end;
    long value = strtol(text, &end, 10);

    XG_CHECK((end != text) && (*end == '\0'), "bad number '%s'", text);
    return (int)value;
}

/* Runs "MODE R [VALUE] DIR": everyone but PE R waits to be killed. */
static int pe_fail(const char *mode, int argc, char **argv)
{
    const char *dir = argv[argc - 1];
    int target      = pe_arg_int(argv[2]);
    int value       = (argc == 5) ? pe_arg_int(argv[3]) : 0;
    xg_ctl_t *ctl   = pe_map_ctl();
    int32_t none    = 0;

    pe_write_pid(dir);
    if (pe_rank != target) {
        pe_pause();
    }
    pe_wait_for_peers(dir);
    if (strcmp(mode, "exit") == 0) {
        _exit(value);
    } else if (strcmp(mode, "kill") == 0) {
        raise(value);
        XG_CHECK(0, "survived signal %d", value);
    } else if (strcmp(mode, "no-finalize") == 0) {
        pe_set_state(ctl, XG_PE_INITIALIZED);
        _exit(0);
    } else if (strcmp(mode, "global-exit") == 0) {
        pe_set_state(ctl, XG_PE_INITIALIZED);
        XG_CHECK(atomic_compare_exchange_strong(&ctl->exit_requested, &none,
                                                1 + pe_rank),
                 "exit already requested by %d", none);
        atomic_store(&ctl->exit_status, value);
        _exit(value);
    }
    XG_CHECK(0, "unknown mode '%s'", mode);
    return XG_TEST_FAIL;
}

/* Starts `sleep 1000` in a session of its own, from a child that exits
 * first when @daemon (so the sleep is nobody's child); returns its pid. */
static pid_t pe_start_sleeper(int daemon)
{
    int fds[2];
    pid_t pid, sleeper = -1;

    XG_CHECK(pipe2(fds, O_CLOEXEC) == 0, "pipe: %s", strerror(errno));
    pid = fork();
    XG_CHECK(pid >= 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        if (daemon && (fork() != 0)) {
            _exit(0);
        }
        setsid();
        sleeper = getpid();
        pe_write_all(fds[1], (const char *)&sleeper, sizeof(sleeper));
        execlp("sleep", "sleep", "1000", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    XG_CHECK(read(fds[0], &sleeper, sizeof(sleeper)) ==
                 (ssize_t)sizeof(sleeper),
             "no pid from the sleeper");
    close(fds[0]);
    if (daemon) {
        XG_CHECK(waitpid(pid, NULL, 0) == pid, "waitpid: %s", strerror(errno));
    }
    return sleeper;
}

static int pe_spawn(int code, const char *dir)
{
    char path[4096];
    FILE *file;
    int n;

    for (n = 0; n < 2; n++) {
        snprintf(path, sizeof(path), "%s/orphan.%d.%d.pid", dir, pe_rank, n);
        file = fopen(path, "w");
        XG_CHECK(file != NULL, "%s: %s", path, strerror(errno));
        fprintf(file, "%d\n", (int)pe_start_sleeper(n));
        XG_CHECK(fclose(file) == 0, "%s: %s", path, strerror(errno));
    }
    pe_write_pid(dir);
    pe_wait_for_peers(dir);
    _exit(code);
}

/* "affinity": the CPUs xgasrun bound this PE to. */
static int pe_affinity(void)
{
    cpu_set_t set;
    char list[1024];
    size_t len = 0;
    int cpu, first;

    XG_CHECK(sched_getaffinity(0, sizeof(set), &set) == 0,
             "sched_getaffinity: %s", strerror(errno));
    list[0] = '\0';
    for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &set)) {
            continue;
        }
        for (first = cpu; (cpu + 1 < CPU_SETSIZE) && CPU_ISSET(cpu + 1, &set);
             cpu++) {
        }
        len += (size_t)snprintf(list + len, sizeof(list) - len,
                                (first == cpu) ? "%s%d" : "%s%d-%d",
                                (len > 0) ? "," : "", first, cpu);
        XG_CHECK(len < sizeof(list), "CPU list longer than %zu bytes",
                 sizeof(list));
    }
    printf("rank %d cpus %s\n", pe_rank, list);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = (argc > 1) ? argv[1] : "";

    pe_rank    = pe_env_int("XGAS_RANK");
    pe_npes    = pe_env_int("XGAS_NPES");
    xg_test_pe = pe_rank;
    XG_CHECK((pe_npes >= 1) && (pe_rank >= 0) && (pe_rank < pe_npes),
             "rank %d of %d", pe_rank, pe_npes);
    if ((strcmp(mode, "ranks") == 0) && (argc == 2)) {
        return pe_ranks();
    }
    if ((strcmp(mode, "affinity") == 0) && (argc == 2)) {
        return pe_affinity();
    }
    if ((strcmp(mode, "lines") == 0) && (argc == 2)) {
        return pe_lines();
    }
    if ((strcmp(mode, "spawn") == 0) && (argc == 4)) {
        return pe_spawn(pe_arg_int(argv[2]), argv[3]);
    }
    if ((strcmp(mode, "consequence") == 0) && (argc == 5)) {
        return pe_consequence(pe_arg_int(argv[2]), pe_arg_int(argv[3]),
                              argv[4]);
    }
    if ((strcmp(mode, "order") == 0) && (argc == 5)) {
        return pe_order(pe_arg_int(argv[2]), pe_arg_int(argv[3]), argv[4]);
    }
    if ((strcmp(mode, "wait") == 0) && (argc == 3)) {
        pe_write_pid(argv[2]);
        pe_pause();
    }
    if ((((strcmp(mode, "exit") == 0) || (strcmp(mode, "kill") == 0) ||
          (strcmp(mode, "global-exit") == 0)) &&
         (argc == 5)) ||
        ((strcmp(mode, "no-finalize") == 0) && (argc == 4))) {
        return pe_fail(mode, argc, argv);
    }
    fprintf(stderr, "usage: launcher_pe ranks | lines | wait DIR | "
                    "exit R CODE DIR | kill R SIG DIR | no-finalize R DIR | "
                    "global-exit R STATUS DIR | consequence R P DIR | "
                    "order A B DIR | spawn CODE DIR\n");
    return XG_TEST_FAIL;
}
