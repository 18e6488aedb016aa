/*
 * Order rules of the engine, under 8 HPUs (4 clusters x 2) on however many
 * cores there are, with handlers that wait random times (handlers/
 * order.c checks and counts, this test reads the counts):
 *   - header before payloads before completion, each message's handlers
 *     on its home cluster where they must be;
 *   - every payload handler runs once per packet, the completion handler
 *     once after all of them -- with messages interleaved packet by
 *     packet, random packet counts (1-40) and sizes;
 *   - many concurrent messages: 200 interleaved at any time;
 *   - each message's own scratchpad holds only its stamp (two messages
 *     never share one).
 * Run with XGAS_SPIN_CLUSTER_HPUS=2 (see CMakeLists.txt).
 */
#include <stdlib.h>
#include <string.h>

#include "handlers/order.h"
#include "spin_test.h"
#include "xgas_spin.h"

#define MSGS 600
#define ACTIVE \
    200 /* interleaved at a time (the MPQ table grows to
                         hold them if XGAS_SPIN_MPQS is smaller) */

static uint32_t rnd_state = 12345;

static uint32_t rnd(void)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return rnd_state >> 8;
}

typedef struct msg_plan {
    uint32_t id, count, sent, bytes;
} msg_plan_t;

int main(int argc, char **argv)
{
    static order_stats_t stats[ORDER_MSGS];
    xg_spin_ctx_params_t p;
    xg_spin_ctx_t *ctx;
    msg_plan_t active[ACTIVE];
    uint8_t pkt[1200];
    uint32_t next = 0, live = 0, i, len, word;
    uint64_t total_pkts = 0;
    order_stats_t *st;
    void *hmem;

    XG_CHECK(argc == 2, "usage: %s order.so", argv[0]);
    memset(&p, 0, sizeof(p));
    p.field_mask =
        XG_SPIN_CTX_FIELD_HANDLER_MEM | XG_SPIN_CTX_FIELD_MSG_SCRATCHPAD;
    p.handler_file        = argv[1];
    p.handler_mem_size    = sizeof(stats);
    p.msg_scratchpad_size = 64;
    XG_CHECK(xg_spin_ctx_create(&p, &ctx) == XG_OK, "context");

    memset(active, 0, sizeof(active));
    while ((next < MSGS) || (live > 0)) {
        /* fill the free places with new messages */
        for (i = 0; (i < ACTIVE) && (next < MSGS); i++) {
            if (active[i].count == 0) {
                active[i].id    = next++;
                active[i].count = 1 + rnd() % 40;
                active[i].sent  = 0;
                active[i].bytes = 0;
                live++;
            }
        }
        /* one packet of a random active message */
        i = rnd() % ACTIVE;
        if (active[i].count == 0) {
            continue;
        }
        len = (uint32_t)sizeof(pkt_hdr_t) + 8 + rnd() % 1000;
        st_packet(pkt, len, 0, 0, NULL);
        memcpy(pkt + sizeof(pkt_hdr_t), &active[i].count, 4);
        word = active[i].sent;
        memcpy(pkt + sizeof(pkt_hdr_t) + 4, &word, 4);
        active[i].sent++;
        active[i].bytes += len - (uint32_t)sizeof(pkt_hdr_t);
        XG_CHECK(xg_spin_ctx_inject(ctx, active[i].id, pkt, len,
                                    active[i].sent == active[i].count) == XG_OK,
                 "inject");
        total_pkts++;
        if (active[i].sent == active[i].count) {
            stats[active[i].id].bytes    = (int32_t)active[i].bytes; /* plan */
            stats[active[i].id].payloads = (int32_t)active[i].count;
            active[i].count              = 0;
            live--;
        }
    }
    XG_CHECK(xg_spin_ctx_quiet(ctx) == XG_OK, "quiet");
    hmem = xg_spin_ctx_handler_mem(ctx, NULL);
    for (i = 0; i < MSGS; i++) {
        st = &((order_stats_t *)hmem)[i];
        XG_CHECK(st->bad == 0, "message %u: %d order breaches", i, st->bad);
        XG_CHECK(st->headers == 1 && st->completions == 1,
                 "message %u: %d header and %d completion calls", i,
                 st->headers, st->completions);
        XG_CHECK(st->payloads == stats[i].payloads,
                 "message %u: %d payload calls for %d packets", i, st->payloads,
                 stats[i].payloads);
        XG_CHECK(st->bytes == stats[i].bytes,
                 "message %u: payload handlers saw %d bytes of %d", i,
                 st->bytes, stats[i].bytes);
    }
    XG_CHECK(xg_spin_ctx_desc(ctx)->errors == 0, "faults: %llu",
             (unsigned long long)xg_spin_ctx_desc(ctx)->errors);
    XG_CHECK(xg_spin_ctx_desc(ctx)->messages == MSGS,
             "descriptor counts %llu messages",
             (unsigned long long)xg_spin_ctx_desc(ctx)->messages);
    XG_CHECK(xg_spin_ctx_destroy(ctx) == XG_OK, "destroy");
    printf("order: %u messages, %llu packets, all in order\n", MSGS,
           (unsigned long long)total_pkts);
    return XG_TEST_PASS;
}
