/*
 * Start-up state is O(1) mapped per PE (issue 8 item 8): after shmem_init a
 * PE maps the head of the job control area and its own key/value area, not
 * the 64 KiB area of every peer.  Sums this PE's mappings of the control
 * area (memfd:xgas-ctl in /proc/self/maps) and checks them against a bound
 * that does not grow with the job: 64 PEs used to map 4 MiB each.  The
 * start-up exchanges (layout agreement, region placement, collective
 * configuration, packet rings) must still work: a put around the ring.
 */
#include <shmem.h>

#include <stdio.h>
#include <string.h>

#include "xg_test.h"

#define CTL_MAPPED_MAX (256u * 1024u) /* head of 4096 slots + own area */

static long ring_word = -1;

static unsigned long ctl_mapped_bytes(void)
{
    char line[512];
    unsigned long lo, hi, total = 0;
    FILE *maps = fopen("/proc/self/maps", "r");

    XG_CHECK(maps != NULL, "cannot read /proc/self/maps");
    while (fgets(line, sizeof(line), maps) != NULL) {
        if ((strstr(line, "xgas-ctl") != NULL) &&
            (sscanf(line, "%lx-%lx", &lo, &hi) == 2)) {
            total += hi - lo;
        }
    }
    fclose(maps);
    return total;
}

int main(void)
{
    unsigned long mapped;
    int me, npes;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    mapped     = ctl_mapped_bytes();
    XG_CHECK(mapped <= CTL_MAPPED_MAX,
             "%lu bytes of the control area mapped with %d PEs (bound %u)",
             mapped, npes, CTL_MAPPED_MAX);
    shmem_long_p(&ring_word, me, (me + 1) % npes);
    shmem_barrier_all();
    XG_CHECK(ring_word == (me + npes - 1) % npes, "ring_word %ld", ring_word);
    shmem_finalize();
    return XG_TEST_PASS;
}
