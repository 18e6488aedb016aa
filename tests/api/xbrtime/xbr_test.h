/*
 * What the xbrtime API tests share: starting the job, and the uneven
 * counts and displacements of the scatter and gather tests.
 */
#ifndef XBR_TEST_H
#define XBR_TEST_H

#include "xbrtime.h"
#include "xg_test.h"

/* xbrtime_init, or the test fails; this PE and the PE count, and the PE
 * that failure messages name. */
static inline void xbr_test_start(int *me_p, int *npes_p)
{
    XG_CHECK(xbrtime_init() == 0, "xbrtime_init");
    *me_p      = xbrtime_mype();
    *npes_p    = xbrtime_num_pes();
    xg_test_pe = *me_p;
}

/* PE p's block holds p + 1 elements, the blocks laid out from the last
 * PE down, @gap unused elements after each; the elements in all. */
static inline int xbr_test_layout(int *counts, int *disps, int npes, int gap)
{
    int p, total = 0;

    for (p = npes - 1; p >= 0; p--) {
        counts[p] = p + 1;
        disps[p]  = total;
        total += counts[p] + gap;
    }
    return total;
}

#endif
