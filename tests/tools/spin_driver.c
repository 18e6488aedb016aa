/*
 * A PsPIN-style simulation driver for the wrapper tests: it includes
 * pspinsim.h as PsPIN's drivers do, loads a handler file built with
 * `xgascc -spin-handler` (argv[1], examples/spin/handlers/pingpong.c),
 * injects 16 packets and checks that each came back with its addresses
 * swapped and was fed back.
 */
#include <stdio.h>
#include <string.h>

#include "packets.h"
#include "pspinsim.h"

static int feedbacks, pongs, swapped;

static void on_feedback(uint64_t u, uint64_t a, uint64_t b, uint64_t c)
{
    (void)u;
    (void)a;
    (void)b;
    (void)c;
    feedbacks++;
}

static void on_out(uint8_t *data, size_t len)
{
    const pkt_hdr_t *h = (const pkt_hdr_t *)data;

    pongs++;
    swapped +=
        (len == 100) && (h->ip_hdr.source_id == 2) && (h->ip_hdr.dest_id == 1);
}

int main(int argc, char **argv)
{
    spin_ec_t ec;
    spin_nic_addr_t ph = 0;
    uint8_t pkt[100];
    pkt_hdr_t *h = (pkt_hdr_t *)pkt;
    size_t size;
    int i;

    if (argc != 2) {
        fprintf(stderr, "usage: %s pingpong.so\n", argv[0]);
        return 1;
    }
    memset(&ec, 0, sizeof(ec));
    memset(pkt, 0, sizeof(pkt));
    h->ip_hdr.ihl       = 5;
    h->ip_hdr.length    = sizeof(pkt);
    h->ip_hdr.source_id = 1;
    h->ip_hdr.dest_id   = 2;
    if ((pspinsim_init(argc, argv, NULL) != SPIN_SUCCESS) ||
        (spin_find_handler_by_name(argv[1], "pingpong_ph", &ph, &size) !=
         SPIN_SUCCESS) ||
        (ph == 0)) {
        return 1;
    }
    ec.ph_addr = ph;
    ec.ph_size = (mem_size_t)size;
    pspinsim_cb_set_pkt_feedback(on_feedback);
    pspinsim_cb_set_pkt_out(on_out);
    for (i = 0; i < 16; i++) {
        pspinsim_packet_add(&ec, 0, pkt, sizeof(pkt), sizeof(pkt), i == 15, 0,
                            0);
    }
    pspinsim_packet_eos();
    pspinsim_run();
    pspinsim_fini();
    if ((feedbacks != 16) || (pongs != 16) || (swapped != 16)) {
        fprintf(stderr, "spin driver: %d feedbacks, %d pongs, %d swapped\n",
                feedbacks, pongs, swapped);
        return 1;
    }
    printf("spin driver: passed\n");
    return 0;
}
