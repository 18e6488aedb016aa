/*
 * The engine runs the empty handler on every packet of many messages and
 * gives one feedback per packet.
 */
#include <stdlib.h>

#include "spin_test.h"

int main(int argc, char **argv)
{
    uint8_t pkt[1024];
    spin_ec_t ec;
    uint32_t m, p;

    XG_CHECK(argc == 2, "usage: %s empty.so", argv[0]);
    st_init();
    st_ec(&ec, argv[1], NULL, "empty_ph", NULL, 0);
    for (m = 0; m < 100; m++) {
        for (p = 0; p < 32; p++) {
            st_packet(pkt, sizeof(pkt), m, 0, NULL);
            XG_CHECK(pspinsim_packet_add(&ec, m, pkt, sizeof(pkt), sizeof(pkt),
                                         p == 31, 0, p) == SPIN_SUCCESS,
                     "packet_add");
        }
    }
    st_run(100 * 32);
    st_fini();
    return XG_TEST_PASS;
}
