/*
 * Which collective channels a PE picks (XGAS_COLL_CHANNEL and the route):
 * the program checks the name the engine reports against argv[1] and
 * passes a barrier on those channels.
 */
#include <string.h>

#include "gas/coll/xg_coll.h"
#include "xg_test.h"
#include "xgas.h"

int main(int argc, char **argv)
{
    const char *name;

    XG_CHECK(argc == 2, "usage: unit_gas_coll_channel direct|remote");
    XG_CHECK(xg_init() == XG_OK, "xg_init");
    xg_test_pe = xg_rank();
    name       = xg_coll_channel_name();
    XG_CHECK(strcmp(name, argv[1]) == 0, "the channels are %s, expected %s",
             name, argv[1]);
    xg_barrier();
    XG_CHECK(xg_fini() == XG_OK, "xg_fini");
    return XG_TEST_PASS;
}
