/*
 * A PE whose namespace row has no direct route (as an off-node PE will
 * have): OpenSHMEM routines addressed to it end the job with a message
 * that names the routine and the PE and says why, instead of touching
 * memory.  argv[1] picks the routine; run on 2 PEs, PE 0 calls it on PE 1.
 */
#include <string.h>

#include "gas/xg_gas_ops.h"
#include "shmem.h"
#include "xg_test.h"

int main(int argc, char **argv)
{
    static long obj;
    long v = 1;

    XG_CHECK(argc == 2, "usage: test_route_shmem p|putmem|fadd|g");
    shmem_init();
    xg_test_pe = shmem_my_pe();
    if (shmem_my_pe() == 0) {
        xg_gas_set_route(1, XG_GAS_ROUTE_NIC);
        if (strcmp(argv[1], "p") == 0) {
            shmem_long_p(&obj, v, 1);
        } else if (strcmp(argv[1], "putmem") == 0) {
            shmem_putmem(&obj, &v, sizeof(v), 1);
        } else if (strcmp(argv[1], "fadd") == 0) {
            v = shmem_long_atomic_fetch_add(&obj, v, 1);
        } else {
            v = shmem_long_g(&obj, 1);
        }
        XG_CHECK(0, "%s on an unreachable PE returned (%ld)", argv[1], v);
    }
    shmem_finalize();
    return XG_TEST_PASS;
}
