/*
 * Messages the stall threshold resets (docs/spin.md, "Faults and
 * isolation"), through a native context's own flow:
 *   - with every MPQ of the table taken by messages that wait for more
 *     packets (16384, the table's largest), the next message's packet
 *     waits until the threshold resets them, then goes in (it used to
 *     wait forever: the flow still held the reset messages' MPQs);
 *   - a late packet of a reset message is dropped and counted, not taken
 *     for a new message; after its eom, the msgid starts a new message.
 * Nothing here depends on timing: the test waits for the resets however
 * long they take, and a reset message's one packet may or may not have
 * run before its reset dropped it (a loaded machine runs late).
 */
#include <string.h>

#include "base/xg_wait.h"
#include "spin_test.h"
#include "xgas_spin.h"

#define OPEN 16384u /* XG_SPIN_MPQ_MAX: the default table at its largest */

static void inject(xg_spin_ctx_t *ctx, uint32_t msgid, int eom)
{
    uint8_t pkt[64];

    st_packet(pkt, sizeof(pkt), msgid, 0, NULL);
    XG_CHECK(xg_spin_ctx_inject(ctx, msgid, pkt, sizeof(pkt), eom) == XG_OK,
             "inject a packet of message %u", msgid);
}

int main(int argc, char **argv)
{
    const xg_spin_ec_desc_t *d;
    xg_spin_ctx_params_t p;
    xg_spin_ctx_t *ctx;
    volatile int32_t *calls;
    xg_spin_event_t ev;
    uint64_t events = 0;
    int32_t ran;
    xg_wait_t wait;
    uint32_t m;

    XG_CHECK(argc == 2, "usage: %s faults.so", argv[0]);
    memset(&p, 0, sizeof(p));
    p.field_mask = XG_SPIN_CTX_FIELD_HANDLERS | XG_SPIN_CTX_FIELD_HANDLER_MEM |
                   XG_SPIN_CTX_FIELD_STALL;
    p.handler_file     = argv[1];
    p.payload_handler  = "good_ph"; /* counts its calls */
    p.handler_mem_size = 4096;
    p.stall_ns         = 20 * 1000 * 1000;
    XG_CHECK(xg_spin_ctx_create(&p, &ctx) == XG_OK, "context");
    d     = xg_spin_ctx_desc(ctx);
    calls = xg_spin_ctx_handler_mem(ctx, NULL);

    /* OPEN messages open at once, then one more: it waits for resets */
    for (m = 0; m < OPEN; m++) {
        inject(ctx, m, 0);
    }
    inject(ctx, OPEN, 1);
    XG_CHECK(xg_spin_ctx_quiet(ctx) == XG_OK, "quiet");
    /* the first OPEN are reset, each counted once (the event queue keeps
     * the latest 4096); the last completed */
    xg_wait_init(&wait);
    while (__atomic_load_n(&d->errors, __ATOMIC_ACQUIRE) < OPEN) {
        xg_wait_backoff(&wait);
    }
    while (xg_spin_event_get(&ev) == XG_OK) {
        XG_CHECK(ev.ctx == ctx && ev.fault == XG_SPIN_FAULT_STALL, "event: %s",
                 xg_spin_fault_str(ev.fault));
        events++;
    }
    ran = *calls; /* the last message's packet, and those reset late */
    XG_CHECK(d->errors == OPEN && events >= 1 && events <= OPEN &&
                 d->messages == 1 && ran >= 1 && ran <= (int32_t)OPEN + 1 &&
                 d->dropped == 0,
             "after the resets: %llu errors, %llu events, %llu messages, "
             "%d payload calls, %llu dropped (wanted %u, 1-%u, 1, 1-%u, 0)",
             (unsigned long long)d->errors, (unsigned long long)events,
             (unsigned long long)d->messages, ran,
             (unsigned long long)d->dropped, OPEN, OPEN, OPEN + 1);

    /* late packets of reset message 0, its eom last: dropped */
    inject(ctx, 0, 0);
    inject(ctx, 0, 1);
    XG_CHECK(xg_spin_ctx_quiet(ctx) == XG_OK, "quiet");
    XG_CHECK(d->dropped == 2 && d->messages == 1 && *calls == ran &&
                 d->errors == OPEN,
             "late packets: %llu dropped, %llu messages, %d payload calls, "
             "%llu errors (wanted 2 dropped, 1 message, %d calls)",
             (unsigned long long)d->dropped, (unsigned long long)d->messages,
             *calls, (unsigned long long)d->errors, ran);
    /* after its eom, msgid 0 is a new message */
    inject(ctx, 0, 1);
    XG_CHECK(xg_spin_ctx_quiet(ctx) == XG_OK, "quiet");
    XG_CHECK(d->messages == 2 && *calls == ran + 1 && d->dropped == 2,
             "msgid 0 again: %llu messages, %d payload calls, %llu dropped",
             (unsigned long long)d->messages, *calls,
             (unsigned long long)d->dropped);
    XG_CHECK(xg_spin_event_get(&ev) == XG_INPROGRESS, "an event too many");
    XG_CHECK(xg_spin_ctx_destroy(ctx) == XG_OK, "destroy");
    printf("reset: %u messages reset with every MPQ taken, injection "
           "went on; late packets dropped\n",
           OPEN);
    return XG_TEST_PASS;
}
