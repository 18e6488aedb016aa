/*
 * xg_fatal_api, the fatal error of the bindings that end the job: a child
 * process calls it with stdout unflushed; the parent checks the line on
 * stderr (word for word: the bindings' messages are tested through it),
 * the exit status 1, and that the pending stdout reached its pipe.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/xg_log.h"
#include "xg_test.h"

/* Reads @fd to its end into @buf (NUL-terminated). */
static void read_all(int fd, char *buf, size_t size)
{
    size_t used = 0;
    ssize_t n;

    while ((used + 1 < size) &&
           ((n = read(fd, buf + used, size - 1 - used)) > 0)) {
        used += (size_t)n;
    }
    buf[used] = '\0';
}

int main(void)
{
    int out[2], err[2], wstatus;
    char out_text[256], err_text[1024];
    pid_t pid;

    XG_CHECK((pipe(out) == 0) && (pipe(err) == 0), "pipe: %m");
    pid = fork();
    XG_CHECK(pid >= 0, "fork: %m");
    if (pid == 0) {
        dup2(out[1], STDOUT_FILENO);
        dup2(err[1], STDERR_FILENO);
        printf("before the error"); /* buffered: no newline, a pipe */
        xg_fatal_api("demo", "demo_put", "PE %d is out of range: use %s", 7,
                     "0..3");
    }
    close(out[1]);
    close(err[1]);
    read_all(out[0], out_text, sizeof(out_text));
    read_all(err[0], err_text, sizeof(err_text));
    XG_CHECK(waitpid(pid, &wstatus, 0) == pid, "waitpid: %m");
    XG_CHECK(WIFEXITED(wstatus) && (WEXITSTATUS(wstatus) == 1),
             "exit status %#x, expected an exit with status 1", wstatus);
    XG_CHECK(strcmp(err_text, "xgas error: demo: demo_put: PE 7 is out of "
                              "range: use 0..3\n") == 0,
             "stderr was '%s'", err_text);
    XG_CHECK(strcmp(out_text, "before the error") == 0,
             "stdout was '%s': not flushed before the exit", out_text);
    printf("fatal api error: ok\n");
    return 0;
}
