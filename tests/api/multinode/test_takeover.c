/*
 * The progress thread takes the network back.  Between nodes a waiting
 * application thread serves the network itself and the NIC's progress
 * thread stays off it while it does (base/xg_wait.h, nic/progress.c).
 * Once that thread stops waiting and computes -- it calls nothing of the
 * library -- the progress thread must serve the PEs that access it again:
 *
 *   - the last PE waits in a barrier (its thread polls the network, the
 *     progress thread steps aside), then computes: it spins on plain loads
 *     of a word of its own, calling nothing, until that word changes;
 *   - every other PE, after the barrier, gets from it, adds to a counter
 *     of it (through its NIC), puts into it, and finally puts the word the
 *     computing PE waits for.
 *
 * Nothing of the library runs on the computing PE's application thread
 * meanwhile, so each of those operations -- and the word it waits for --
 * lands only if its progress thread took the network back.  If it did
 * not, the job hangs and CTest's timeout reports it.  Then the computing
 * PE checks what the others left, and the rounds repeat with the roles
 * the same (a progress thread that stepped aside again must come back
 * again).
 */
#include <sched.h>
#include <shmem.h>

#include "xg_test.h"

#define ROUNDS  20
#define MAX_PES 64

static long go;              /* on the computing PE: the others' signal */
static long counter;         /* on the computing PE: their adds */
static long slots[MAX_PES];  /* on the computing PE: their puts */
static long source[MAX_PES]; /* on the computing PE: what they get */

int main(void)
{
    int me, npes, last, round, pe;
    long got, i;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    XG_CHECK(npes <= MAX_PES, "at most %d PEs", MAX_PES);
    last = npes - 1;
    for (i = 0; i < MAX_PES; i++) {
        source[i] = 1000 * me + i;
    }
    shmem_barrier_all();
    for (round = 1; round <= ROUNDS; round++) {
        shmem_barrier_all();
        if (me == last) {
            /* computing: no library call until every other PE said go */
            while (__atomic_load_n(&go, __ATOMIC_ACQUIRE) <
                   (long)(npes - 1) * round) {
                sched_yield();
            }
            XG_CHECK(counter == (long)(npes - 1) * round,
                     "round %d: the counter is %ld, not %ld", round, counter,
                     (long)(npes - 1) * round);
            for (pe = 0; pe < last; pe++) {
                XG_CHECK(slots[pe] == 100L * round + pe,
                         "round %d: PE %d's put is %ld", round, pe, slots[pe]);
            }
        } else {
            got = shmem_long_g(&source[me], last);
            XG_CHECK(got == 1000L * last + me,
                     "round %d: got %ld from the computing PE", round, got);
            shmem_long_atomic_add(&counter, 1, last);
            shmem_long_p(&slots[me], 100L * round + me, last);
            shmem_fence();
            shmem_long_atomic_add(&go, 1, last);
            shmem_quiet();
        }
    }
    shmem_barrier_all();
    if (me == 0) {
        printf("takeover: %d rounds, the computing PE served every time\n",
               ROUNDS);
    }
    shmem_finalize();
    return 0;
}
