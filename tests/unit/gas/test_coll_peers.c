/*
 * The counter barrier (the default when a node runs more PEs than it has
 * CPUs) touches O(1) peers: after ROUNDS barriers over the world team a PE
 * must have in its page tables no page of any other PE's world-team slot
 * but member 0's (where every member arrives and waits).  Each peer slot
 * a PE touches costs it page-table pages (the partitions are 2 MiB or more
 * apart); when the last arrival wrote every member's release word, each
 * PE that was ever last had all of them mapped -- at 64 PEs 447 KB of page
 * tables per PE.  Which pages are mapped is read from /proc/self/pagemap
 * (bit 63: present in this process's page tables), so nothing here
 * depends on timing.  Run with XGAS_COLL_BARRIER=counter on one node.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gas/coll/xg_coll.h"
#include "gas/coll/xg_internal_area.h"
#include "gas/coll/xg_team.h"
#include "gas/xg_gas.h"
#include "xg_test.h"
#include "xgas.h"

#define ROUNDS 300

/* Whether any page of [@lo, @lo + @len) is in this process's page tables
 * (the pagemap entry's present bit). */
static int mapped(FILE *pagemap, uintptr_t lo, size_t len)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), p;
    uint64_t entry;

    for (p = lo & ~(page - 1); p < lo + len; p += page) {
        XG_CHECK(fseek(pagemap, (long)(p / page * sizeof(entry)), SEEK_SET) ==
                     0,
                 "seek in /proc/self/pagemap");
        XG_CHECK(fread(&entry, sizeof(entry), 1, pagemap) == 1,
                 "read /proc/self/pagemap");
        if ((entry >> 63) & 1) {
            return 1;
        }
    }
    return 0;
}

int main(void)
{
    int me, npes, pe, round, touched = 0;
    FILE *pagemap;

    XG_CHECK(xg_init() == XG_OK, "xg_init");
    me         = xg_rank();
    npes       = xg_size();
    xg_test_pe = me;
    XG_CHECK(strcmp(xg_coll_barrier_name(), "counter") == 0,
             "the barrier is %s: run with XGAS_COLL_BARRIER=counter",
             xg_coll_barrier_name());
    for (pe = 0; pe < npes; pe++) {
        XG_CHECK(xg_gas.table[pe + 1].route == XG_GAS_ROUTE_DIRECT,
                 "PE %d is not on this node: run on one node", pe);
    }
    for (round = 0; round < ROUNDS; round++) {
        xg_gas_barrier();
    }
    pagemap = fopen("/proc/self/pagemap", "rb");
    XG_CHECK(pagemap != NULL, "open /proc/self/pagemap");
    for (pe = 1; pe < npes; pe++) {
        if ((pe != me) &&
            mapped(pagemap, (uintptr_t)xg_slot(pe, xg_team_world.slot),
                   xg_slot_layout.size)) {
            fprintf(stderr, "PE %d: PE %d's world slot is mapped\n", me, pe);
            touched++;
        }
    }
    fclose(pagemap);
    XG_CHECK(touched == 0,
             "after %d counter barriers this PE has %d other PEs' world "
             "slots in its page tables besides member 0's: the barrier "
             "must touch member 0's slot only",
             ROUNDS, touched);
    xg_gas_barrier();
    xg_fini();
    return XG_TEST_PASS;
}
