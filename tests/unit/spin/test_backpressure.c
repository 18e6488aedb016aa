/*
 * Back-pressure: with a packet buffer of 8 slots (XGAS_SPIN_PKT_BUFFER,
 * XGAS_SPIN_PKT_SIZE set by CMakeLists.txt) and handlers slower than the
 * driver, pspinsim_packet_add waits for room: never more than 8 packets
 * are in the engine, and every one of 20000 packets of 2000 interleaved
 * messages comes back exactly once (no packet lost, none duplicated).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "spin_test.h"

#define PKTS  20000
#define MSGS  2000
#define SLOTS 8

static _Atomic uint64_t started, fed_back, max_inside;
static _Atomic uint8_t seen[PKTS];

static void on_feedback(uint64_t user_ptr, uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t inside = atomic_load(&started) - atomic_load(&fed_back);
    uint64_t m      = atomic_load(&max_inside);

    (void)a;
    (void)b;
    (void)c;
    while ((inside > m) &&
           !atomic_compare_exchange_weak(&max_inside, &m, inside)) {
    }
    XG_CHECK(user_ptr < PKTS, "feedback for unknown packet %llu",
             (unsigned long long)user_ptr);
    atomic_fetch_add(&seen[user_ptr], 1);
    atomic_fetch_add(&fed_back, 1);
}

int main(int argc, char **argv)
{
    uint8_t pkt[512];
    spin_ec_t ec;
    uint32_t i;

    XG_CHECK(argc == 2, "usage: %s slow.so", argv[0]);
    st_init();
    pspinsim_cb_set_pkt_feedback(on_feedback);
    st_ec(&ec, argv[1], NULL, "slow_ph", NULL, 0);
    for (i = 0; i < PKTS; i++) {
        st_packet(pkt, sizeof(pkt), i, 0, NULL);
        atomic_fetch_add(&started, 1);
        /* messages interleaved ten at a time, each of ten packets */
        XG_CHECK(pspinsim_packet_add(&ec, (i / 100) * 10 + i % 10, pkt,
                                     sizeof(pkt), sizeof(pkt), (i % 100) >= 90,
                                     0, i) == SPIN_SUCCESS,
                 "add");
    }
    XG_CHECK(pspinsim_packet_eos() == SPIN_SUCCESS, "eos");
    XG_CHECK(pspinsim_run() == SPIN_SUCCESS, "run");
    XG_CHECK(atomic_load(&fed_back) == PKTS, "%llu feedbacks for %u packets",
             (unsigned long long)atomic_load(&fed_back), PKTS);
    for (i = 0; i < PKTS; i++) {
        XG_CHECK(atomic_load(&seen[i]) == 1, "packet %u came back %u times", i,
                 atomic_load(&seen[i]));
    }
    /* the one being added may be counted before it is in */
    XG_CHECK(atomic_load(&max_inside) <= SLOTS + 1,
             "%llu packets in an engine of %u slots",
             (unsigned long long)atomic_load(&max_inside), SLOTS);
    st_fini();
    printf("back-pressure: %u packets, at most %llu inside, none lost or "
           "duplicated\n",
           PKTS, (unsigned long long)atomic_load(&max_inside));
    return XG_TEST_PASS;
}
