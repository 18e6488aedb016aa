/*
 * xbrtime set-up and queries: mype and num_pes answer -1 before
 * xbrtime_init and after xbrtime_close, xbrtime_close without init does
 * nothing (as in the published runtime), addr_accessible tells symmetric
 * memory of existing PEs from everything else, and the barrier holds.
 */
#include "xbr_test.h"

static long global_word;
static int barrier_round;

int main(void)
{
    int me, npes, pe, round, stack_word = 0;
    int *slots;

    xbrtime_close(); /* nothing to close yet */
    XG_CHECK(xbrtime_mype() == -1, "mype before init: %d", xbrtime_mype());
    XG_CHECK(xbrtime_num_pes() == -1, "num_pes before init: %d",
             xbrtime_num_pes());
    XG_CHECK(xbrtime_addr_accessible(&global_word, 0) == 0,
             "addr_accessible before init");

    xbr_test_start(&me, &npes);
    XG_CHECK((npes >= 1) && (me >= 0) && (me < npes), "PE %d of %d", me, npes);

    slots = xbrtime_malloc(sizeof(int) * (size_t)npes);
    XG_CHECK(slots != NULL, "malloc");
    for (pe = 0; pe < npes; pe++) {
        XG_CHECK(xbrtime_addr_accessible(slots, pe) == 1, "heap on PE %d", pe);
        XG_CHECK(xbrtime_addr_accessible(&global_word, pe) == 1,
                 "global on PE %d", pe);
        XG_CHECK(xbrtime_addr_accessible(&stack_word, pe) == 0,
                 "stack word is not symmetric (PE %d)", pe);
    }
    XG_CHECK(xbrtime_addr_accessible(slots, npes) == 0, "PE npes");
    XG_CHECK(xbrtime_addr_accessible(slots, -1) == 0, "PE -1");

    /* barrier: in round r every PE writes r into its slot on every PE;
     * after the barrier all of them hold r, before the next round's
     * barrier nobody has moved on */
    for (round = 1; round <= 20; round++) {
        barrier_round = round;
        for (pe = 0; pe < npes; pe++) {
            xbrtime_int_put(&slots[me], &barrier_round, 1, 1, pe);
        }
        xbrtime_barrier();
        for (pe = 0; pe < npes; pe++) {
            XG_CHECK(slots[pe] == round, "round %d: slot of PE %d holds %d",
                     round, pe, slots[pe]);
        }
        xbrtime_barrier();
    }
    xbrtime_free(slots);

    xbrtime_close();
    XG_CHECK(xbrtime_mype() == -1, "mype after close");
    XG_CHECK(xbrtime_num_pes() == -1, "num_pes after close");
    xbrtime_close(); /* closing twice does nothing */
    return XG_TEST_PASS;
}
