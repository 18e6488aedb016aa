/*
 * The native API's error policy: a bad call returns its status, moves
 * nothing and logs one message naming the routine, the global address and
 * the reason.  The messages are captured from stderr (a pipe on fd 2).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "xg_test.h"
#include "xgas.h"

static int saved_stderr, pipe_fds[2];

static void capture_start(void)
{
    XG_CHECK(pipe(pipe_fds) == 0, "pipe: %m");
    saved_stderr = dup(STDERR_FILENO);
    XG_CHECK(dup2(pipe_fds[1], STDERR_FILENO) >= 0, "dup2: %m");
}

/* What was logged since capture_start, into @buf. */
static void capture_end(char *buf, size_t size)
{
    ssize_t n;
    size_t used = 0;

    dup2(saved_stderr, STDERR_FILENO);
    close(pipe_fds[1]);
    while ((used + 1 < size) &&
           ((n = read(pipe_fds[0], buf + used, size - 1 - used)) > 0)) {
        used += (size_t)n;
    }
    buf[used] = '\0';
    close(pipe_fds[0]);
}

int main(void)
{
    static char log[8192];
    uint64_t *words, v = 5;
    xg_gaddr_t gaddr, far;
    char expect[256];
    int me, npes;

    XG_CHECK(xg_init() == XG_OK, "xg_init");
    me         = xg_rank();
    npes       = xg_size();
    xg_test_pe = me;
    XG_CHECK(xg_malloc(2 * sizeof(uint64_t), (void **)&words) == XG_OK,
             "alloc");
    words[0] = words[1] = 0;
    XG_CHECK(xg_gaddr(words, me, &gaddr) == XG_OK, "xg_gaddr");
    far.ns  = (uint64_t)npes + 1;
    far.off = 0;

    capture_start();
    XG_CHECK(xg_put64(xg_gaddr_add(gaddr, 4), v) == XG_ERR_MISALIGNED,
             "misaligned put64");
    XG_CHECK(xg_atomic_fetch_op32(far, XG_AMO_ADD, 1, NULL) == XG_ERR_PE_RANGE,
             "namespace out of range");
    XG_CHECK(xg_get(&v, xg_gaddr_add(gaddr, 8), 16) == XG_ERR_OUT_OF_BOUNDS,
             "get past the object");
    XG_CHECK(xg_atomic_fetch_op64(gaddr, (xg_amo_op_t)99, 1, NULL) ==
                 XG_ERR_INVALID_PARAM,
             "unknown operation");
    capture_end(log, sizeof(log));

    XG_CHECK((words[0] == 0) && (words[1] == 0) && (v == 5),
             "a failed call moved data");
    snprintf(expect, sizeof(expect),
             "xg_put64: global address (ns %d, "
             "offset %#llx) is not aligned to 8 bytes",
             me + 1, (unsigned long long)gaddr.off + 4);
    XG_CHECK(strstr(log, expect) != NULL, "no '%s' in:\n%s", expect, log);
    snprintf(expect, sizeof(expect),
             "xg_atomic_fetch_op32: global address "
             "(ns %d, offset 0), 4 bytes: ",
             npes + 1);
    XG_CHECK(strstr(log, expect) != NULL, "no '%s' in:\n%s", expect, log);
    snprintf(expect, sizeof(expect),
             "xg_get: global address (ns %d, "
             "offset %#llx), 16 bytes: ",
             me + 1, (unsigned long long)gaddr.off + 8);
    XG_CHECK(strstr(log, expect) != NULL, "no '%s' in:\n%s", expect, log);
    XG_CHECK(strstr(log, "xg_atomic_fetch_op64: unknown operation 99") != NULL,
             "no unknown-operation message in:\n%s", log);
    xg_barrier();
    XG_CHECK(xg_free(words) == XG_OK, "free");
    XG_CHECK(xg_fini() == XG_OK, "xg_fini");
    return 0;
}
