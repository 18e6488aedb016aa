/*
 * The OpenSHMEM profiling interface: this program plays a profiling tool.
 * It defines its own shmem_long_p, shmem_putmem and shmem_barrier_all,
 * which count their calls and forward to the library through the pshmem_
 * names; its "application" part then uses the standard names.  The calls
 * must land in the wrappers (the library's shmem_ symbols are weak, so the
 * program's definitions win, with the shared and with the static library)
 * and still do their work (the pshmem_ names reach the library's code).
 * shmem_pcontrol must exist and do nothing.
 */
#include <pshmem.h>
#include <shmem.h>
#include <string.h>

#include "xg_test.h"

static int long_p_calls, putmem_calls, barrier_calls;

void shmem_long_p(long *dest, long value, int pe)
{
    long_p_calls++;
    pshmem_long_p(dest, value, pe);
}

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe)
{
    putmem_calls++;
    pshmem_putmem(dest, source, nelems, pe);
}

void shmem_barrier_all(void)
{
    barrier_calls++;
    pshmem_barrier_all();
}

static long cell;
static char text[32];

int main(void)
{
    int me, npes, right;
    char expect[32];

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    right      = (me + 1) % npes;
    shmem_pcontrol(1);

    shmem_long_p(&cell, 100 + me, right);
    snprintf(expect, sizeof(expect), "from pe %d", me);
    shmem_putmem(text, expect, sizeof(expect), right);
    shmem_barrier_all();

    XG_CHECK(cell == 100 + (me + npes - 1) % npes, "cell is %ld", cell);
    snprintf(expect, sizeof(expect), "from pe %d", (me + npes - 1) % npes);
    XG_CHECK(strcmp(text, expect) == 0, "text is '%s'", text);
    XG_CHECK(long_p_calls == 1, "shmem_long_p wrapper ran %d times",
             long_p_calls);
    XG_CHECK(putmem_calls == 1, "shmem_putmem wrapper ran %d times",
             putmem_calls);
    XG_CHECK(barrier_calls == 1, "shmem_barrier_all wrapper ran %d times",
             barrier_calls);
    /* an unwrapped routine through its pshmem_ name */
    XG_CHECK(pshmem_long_g(&cell, me) == cell, "pshmem_long_g");
    shmem_finalize();
    return XG_TEST_PASS;
}
