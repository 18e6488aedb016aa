/*
 * Multi-PE unit test of boot and mem: the key/value exchange, the PVAS
 * layout (same region base everywhere, partition i at base + i * size) and
 * the data window (a global written by its owner is visible through the
 * window from every PE, and a write through the window changes the owner's
 * global).
 */
#include <stdio.h>

#include "boot/xg_boot.h"
#include "mem/xg_mem.h"
#include "xg_test.h"
#include "xgas.h"

long owner_value = -1;         /* in .data */
static long zeroed_array[512]; /* in .bss */

int main(void)
{
    int pe, me, npes;
    uintptr_t base0;
    long theirs;
    char key[32];

    XG_CHECK(xg_init() == XG_OK, "xg_init");
    me         = xg_rank();
    npes       = xg_size();
    xg_test_pe = me;

    /* key/value exchange (boot) */
    snprintf(key, sizeof(key), "test.%d", me);
    XG_CHECK(xg_boot_kv_put("test.rank", &me, sizeof(me)) == XG_OK, "put");
    XG_CHECK(xg_boot_kv_put("test.rank", &npes, sizeof(npes)) == XG_OK,
             "second put of one key");
    XG_CHECK(xg_boot_kv_put(key, &xg_mem.region.base,
                            sizeof(xg_mem.region.base)) == XG_OK,
             "put base");
    XG_CHECK(xg_boot_fence() == XG_OK, "fence");
    for (pe = 0; pe < npes; pe++) {
        int value;

        XG_CHECK(xg_boot_kv_get(pe, "test.rank", &value, sizeof(value)) ==
                     XG_OK,
                 "get from %d", pe);
        XG_CHECK(value == npes, "the later put must win (got %d)", value);
        snprintf(key, sizeof(key), "test.%d", pe);
        XG_CHECK(xg_boot_kv_get(pe, key, &base0, sizeof(base0)) == XG_OK,
                 "get base of %d", pe);
        XG_CHECK(base0 == xg_mem.region.base,
                 "PE %d maps the region at %#lx, "
                 "we at %#lx",
                 pe, (unsigned long)base0, (unsigned long)xg_mem.region.base);
        XG_CHECK(xg_boot_kv_get(pe, "test.rank", &value, 2) == XG_ERR_MISMATCH,
                 "length mismatch not reported");
    }
    XG_CHECK(xg_boot_kv_get(0, "no.such.key", &pe, sizeof(pe)) != XG_OK,
             "missing key found");
    XG_CHECK(xg_boot_kv_get(npes, "test.rank", &pe, sizeof(pe)) ==
                 XG_ERR_PE_RANGE,
             "rank out of range");

    /* PVAS layout */
    XG_CHECK(xg_mem.part_size % (2u << 20) == 0, "partition not 2 MiB aligned");
    for (pe = 0; pe < npes; pe++) {
        XG_CHECK(xg_mem_part(pe) ==
                     xg_mem.region.base + (uintptr_t)pe * xg_mem.part_size,
                 "partition formula");
    }
    XG_CHECK(xg_mem.my_part == xg_mem_part(me), "own partition");
    XG_CHECK(((uintptr_t)&owner_value >= xg_mem.data_lo) &&
                 ((uintptr_t)&owner_value < xg_mem.data_lo + xg_mem.data_size),
             "a global is outside the data window");
    XG_CHECK(
        ((uintptr_t)&zeroed_array[511] >= xg_mem.data_lo) &&
            ((uintptr_t)&zeroed_array[511] < xg_mem.data_lo + xg_mem.data_size),
        "a .bss array is outside the data window");

    /* globals through the window */
    owner_value      = 1000 + me;
    zeroed_array[me] = me + 1;
    xg_barrier();
    for (pe = 0; pe < npes; pe++) {
        uintptr_t window = xg_mem_part(pe) + xg_mem.data_off;

        theirs = *(long *)(window + ((uintptr_t)&owner_value - xg_mem.data_lo));
        XG_CHECK(theirs == 1000 + pe, "PE %d's global reads %ld", pe, theirs);
        theirs =
            *(long *)(window + ((uintptr_t)&zeroed_array[pe] - xg_mem.data_lo));
        XG_CHECK(theirs == pe + 1, "PE %d's .bss reads %ld", pe, theirs);
    }
    xg_barrier();
    /* write into the next PE's global through the window */
    pe                                                    = (me + 1) % npes;
    *(long *)(xg_mem_part(pe) + xg_mem.data_off +
              ((uintptr_t)&owner_value - xg_mem.data_lo)) = -me;
    xg_barrier();
    XG_CHECK(owner_value == -((me + npes - 1) % npes),
             "global not updated by the previous PE: %ld", owner_value);
    XG_CHECK(xg_fini() == XG_OK, "xg_fini");
    return 0;
}
