/*
 * start_gate: the published runtime's start-up pattern, which --start-gate
 * makes safe.  Every PE resets its own barrier word at start (as
 * xbrtime_init does), then touches its right neighbour's word remotely
 * and waits for its own to be touched.  The PEs above 0 first compute for
 * a while, so PE 0's touch would reach PE 1 before PE 1's reset without
 * the gate, and be lost.  With "exit" PE 1 ends at once without any
 * remote access: the gate counts its exit, and PE 0 goes on.
 */
#include <string.h>

#include "guest.h"

#define RESET   0xfffffffffull
#define TOUCHED 1ull

static volatile uint64_t word;
static volatile uint64_t sink;

int main(int argc, char **argv)
{
    int right = (guest_me + 1) % guest_npes;
    uint64_t i;

    if ((argc > 1) && (strcmp(argv[1], "exit") == 0) && (guest_me == 1)) {
        return 0;
    }
    if (guest_me != 0) {
        for (i = 0; i < 2000000; i++) {
            sink += i; /* the late starter */
        }
    }
    word = RESET;
    if ((argc > 1) && (strcmp(argv[1], "exit") == 0)) {
        /* PE 0 alone: its one remote access waits for PE 1's exit */
        xbgas_esd(xbgas_ns(right), &sink, 7);
        xbgas_fence();
        printf("start_gate: passed\n");
        return 0;
    }
    xbgas_esd(xbgas_ns(right), &word, TOUCHED);
    xbgas_fence();
    while (word != TOUCHED) {
        sched_yield();
    }
    guest_barrier();
    if (guest_me == 0) {
        printf("start_gate: passed\n");
    }
    return 0;
}
