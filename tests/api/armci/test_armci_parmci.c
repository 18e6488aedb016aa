/*
 * The profiling interface: this program defines its own ARMCI_Put,
 * ARMCI_Get and ARMCI_Barrier, which count their calls and forward to
 * PARMCI_*.  libarmci's ARMCI_* are weak, so the program's win; the
 * counts and the data show every call went through the wrappers once.
 */
#include <string.h>

#include "armci_test.h"

static int puts_seen, gets_seen, barriers_seen;

int ARMCI_Put(void *src, void *dst, int size, int target)
{
    puts_seen++;
    return PARMCI_Put(src, dst, size, target);
}

int ARMCI_Get(void *src, void *dst, int size, int target)
{
    gets_seen++;
    return PARMCI_Get(src, dst, size, target);
}

void ARMCI_Barrier(void)
{
    barriers_seen++;
    PARMCI_Barrier();
}

int main(int argc, char **argv)
{
    void **base;
    int right, v, back;

    at_start(&argc, &argv);
    right = (at_me + 1) % at_np;
    base  = at_malloc(64);
    ARMCI_Barrier();
    v = 40 + at_me;
    ARMCI_Put(&v, base[right], sizeof(v), right);
    ARMCI_Barrier();
    ARMCI_Get(base[right], &back, sizeof(back), right);
    CHECK(back == v, "get through the wrapper: %d", back);
    /* at_free's ARMCI_Free and at_finish's ARMCI_Barrier are not wrapped
     * beyond the barrier */
    at_free(base);
    CHECK((puts_seen == 1) && (gets_seen == 1) && (barriers_seen == 2),
          "wrappers saw %d puts, %d gets, %d barriers", puts_seen, gets_seen,
          barriers_seen);
    return at_finish("test_armci_parmci");
}
