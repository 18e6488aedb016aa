/*
 * A plain xbrtime program, built with xgascc by the tool test below: every
 * PE adds its number plus one into a counter on PE 0, which checks the sum
 * (printed like tests/tools/hello.c, so the same script checks both).
 */
#include <stdio.h>

#include "xbrtime.h"

int main(void)
{
    long *total;
    int me, npes;

    if (xbrtime_init() != 0) {
        return 1;
    }
    me     = xbrtime_mype();
    npes   = xbrtime_num_pes();
    total  = xbrtime_malloc(sizeof(long));
    *total = 0;
    xbrtime_barrier();
    xbrtime_long_atomic_add(total, me + 1, 0);
    xbrtime_barrier();
    if (me == 0) {
        printf("hello from %d PEs: total %ld\n", npes, *total);
        if (*total != (long)npes * (npes + 1) / 2) {
            return 1;
        }
    }
    xbrtime_free(total);
    xbrtime_close();
    return 0;
}
