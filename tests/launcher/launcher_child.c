/*
 * Programs a PE starts do not inherit the job (issue 8 item 7).
 *
 *   launcher_child parent   every PE: after shmem_init no XGAS_* launcher
 *                           variable is left in the environment and every
 *                           memory object or anonymous descriptor above
 *                           stderr closes on exec; then
 *                           the PE runs `launcher_child child` through
 *                           system() and checks that it passed; the PEs
 *                           then still work together (a put and a barrier).
 *   launcher_child child    before shmem_init: no launcher variable and no
 *                           inherited xgas descriptor (memfd:xgas-*); then
 *                           runs as a job of its own: 1 PE, PE 0, and its
 *                           symmetric memory is its own.  Prints
 *                           "child npes 1".
 */
#include <shmem.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "xg_test.h"

static const char *const launcher_vars[] = {"XGAS_RANK", "XGAS_NPES",
                                            "XGAS_CTL_FD", "XGAS_SEG_FD"};

static long shared_word = -1;

static void check_no_launcher_vars(const char *who)
{
    size_t i;

    for (i = 0; i < sizeof(launcher_vars) / sizeof(launcher_vars[0]); i++) {
        XG_CHECK(getenv(launcher_vars[i]) == NULL, "%s: %s=%s is set", who,
                 launcher_vars[i], getenv(launcher_vars[i]));
    }
}

/* Calls @visit(fd, link target) for every open descriptor above stderr. */
static void for_each_fd(void (*visit)(int fd, const char *target))
{
    char path[64], target[256];
    struct dirent *entry;
    DIR *dir = opendir("/proc/self/fd");
    ssize_t len;
    int fd;

    XG_CHECK(dir != NULL, "cannot list /proc/self/fd");
    while ((entry = readdir(dir)) != NULL) {
        fd = atoi(entry->d_name);
        if ((entry->d_name[0] == '.') || (fd <= STDERR_FILENO) ||
            (fd == dirfd(dir))) {
            continue;
        }
        snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
        len = readlink(path, target, sizeof(target) - 1);
        target[(len > 0) ? len : 0] = '\0';
        visit(fd, target);
    }
    closedir(dir);
}

/* Descriptors the library may have opened (memory objects, event and
 * signal descriptors); others, e.g. a log file of the test driver, were
 * inherited by the PE and are not ours to judge. */
static void check_cloexec(int fd, const char *target)
{
    if ((strncmp(target, "memfd:", 6) != 0) &&
        (strncmp(target, "anon_inode:", 11) != 0) &&
        (strncmp(target, "/dev/shm/", 9) != 0)) {
        return;
    }
    XG_CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC,
             "descriptor %d (%s) would be inherited by a program the PE "
             "starts",
             fd, target);
}

static void check_not_inherited(int fd, const char *target)
{
    XG_CHECK(strstr(target, "xgas") == NULL,
             "descriptor %d (%s) was inherited from the parent job", fd,
             target);
}

static int run_child(void)
{
    check_no_launcher_vars("child before shmem_init");
    for_each_fd(check_not_inherited);
    shmem_init();
    xg_test_pe = shmem_my_pe();
    XG_CHECK(shmem_n_pes() == 1, "the child sees %d PEs", shmem_n_pes());
    XG_CHECK(shmem_my_pe() == 0, "the child is PE %d", shmem_my_pe());
    /* its symmetric memory is its own: the parent job's PE 0 wrote its
     * rank into its copy of shared_word before starting us */
    XG_CHECK(shared_word == -1, "the child's shared_word is %ld", shared_word);
    shmem_long_p(&shared_word, 42, 0);
    shmem_barrier_all();
    XG_CHECK(shared_word == 42, "a put to itself read back %ld", shared_word);
    printf("child npes %d\n", shmem_n_pes());
    fflush(stdout);
    shmem_finalize();
    return XG_TEST_PASS;
}

static int run_parent(void)
{
    char command[4200], self[4096];
    ssize_t len;
    int status, me, npes;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    check_no_launcher_vars("PE after shmem_init");
    for_each_fd(check_cloexec);
    shared_word = me;
    shmem_barrier_all();

    len = readlink("/proc/self/exe", self, sizeof(self) - 1);
    XG_CHECK(len > 0, "cannot find my own executable");
    self[len] = '\0';
    snprintf(command, sizeof(command), "'%s' child", self);
    status = system(command);
    XG_CHECK(WIFEXITED(status) && (WEXITSTATUS(status) == 0),
             "the child program failed (status %#x)", status);

    /* the job is intact: a put to the next PE and a barrier */
    XG_CHECK(shared_word == me, "the child changed the parent's memory");
    shmem_long_p(&shared_word, 1000 + me, (me + 1) % npes);
    shmem_barrier_all();
    XG_CHECK(shared_word == 1000 + (me + npes - 1) % npes,
             "shared_word %ld after the put", shared_word);
    shmem_finalize();
    return XG_TEST_PASS;
}

int main(int argc, char **argv)
{
    if ((argc == 2) && (strcmp(argv[1], "child") == 0)) {
        return run_child();
    }
    if ((argc == 2) && (strcmp(argv[1], "parent") == 0)) {
        return run_parent();
    }
    fprintf(stderr, "usage: launcher_child parent | child\n");
    return XG_TEST_FAIL;
}
