/*
 * Isolation and faults: a handler that touches memory it may not,
 * crashes, runs past the watchdog or issues a command outside its
 * context is stopped; its message fails; the fault (which handler, what)
 * is in the context's descriptor and comes as an event; and the engine,
 * the process and a well-behaved context running at the same time go on.
 * A message whose packets stop coming is reset after its threshold.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xg_wait.h"
#include "spin_test.h"
#include "xgas_spin.h"

typedef struct fault_case {
    const char *hh, *ph, *th;
    xg_spin_fault_t fault;
    uint32_t handler;
    unsigned msgs, pkts; /* messages of so many packets */
    int good_pkts;       /* good_ph calls expected */
} fault_case_t;

#define PH(name, f)                                           \
    {                                                         \
        NULL, name, NULL, f, XG_SPIN_HANDLER_PAYLOAD, 3, 1, 0 \
    }

static const fault_case_t cases[] = {
    PH("segv_ph", XG_SPIN_FAULT_MEMORY),
    PH("null_ph", XG_SPIN_FAULT_MEMORY),
    PH("stack_ph", XG_SPIN_FAULT_STACK),
    PH("loop_ph", XG_SPIN_FAULT_WATCHDOG),
    PH("libc_loop_ph", XG_SPIN_FAULT_WATCHDOG),
    PH("pause_ph", XG_SPIN_FAULT_WATCHDOG),
    PH("exit_ph", XG_SPIN_FAULT_EXIT),
    PH("_exit_ph", XG_SPIN_FAULT_EXIT),
    PH("pthread_exit_ph", XG_SPIN_FAULT_EXIT),
    PH("raise_hup_ph", XG_SPIN_FAULT_EXIT),
    PH("raise_kill_ph", XG_SPIN_FAULT_EXIT),
    PH("cmd_loop_ph", XG_SPIN_FAULT_WATCHDOG),
    PH("ill_ph", XG_SPIN_FAULT_ILLEGAL),
    PH("fpe_ph", XG_SPIN_FAULT_ARITH),
    PH("abort_ph", XG_SPIN_FAULT_ABORT),
    PH("bus_ph", XG_SPIN_FAULT_BUS),
    PH("dma_out_ph", XG_SPIN_FAULT_DMA),
    PH("nic_out_ph", XG_SPIN_FAULT_DMA),
    PH("write_out_ph", XG_SPIN_FAULT_DMA),
    PH("send_ph", XG_SPIN_FAULT_COMMAND),
    PH("terminate_ph", XG_SPIN_FAULT_TERMINATE),
    PH("assert_ph", XG_SPIN_FAULT_TERMINATE),
    /* one message: it runs for 0.6 s of CPU time */
    {NULL, "masked_ph", NULL, XG_SPIN_FAULT_WATCHDOG, XG_SPIN_HANDLER_PAYLOAD,
     1, 1, 0},
    /* messages of several packets: one report each, however many of
     * their packets were running when the first faulted */
    {NULL, "segv_ph", NULL, XG_SPIN_FAULT_MEMORY, XG_SPIN_HANDLER_PAYLOAD, 2, 6,
     0},
    /* a header handler's fault: the message's payloads never run */
    {"segv_hh", "good_ph", NULL, XG_SPIN_FAULT_MEMORY, XG_SPIN_HANDLER_HEADER,
     1, 5, 0},
    /* a completion handler's, after every payload ran */
    {NULL, "good_ph", "segv_ph", XG_SPIN_FAULT_MEMORY,
     XG_SPIN_HANDLER_COMPLETION, 1, 5, 5},
};

/* ThreadSanitizer holds asynchronous signals back until the thread calls
 * into its runtime: a loop that calls nothing cannot be interrupted
 * there (docs/spin.md, "Isolation"); the other watchdog cases can. */
#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif

static xg_spin_ctx_t *make_ctx(const char *file, const char *hh, const char *ph,
                               const char *th, uint64_t stall_ns)
{
    xg_spin_ctx_params_t p;
    xg_spin_ctx_t *ctx;

    memset(&p, 0, sizeof(p));
    p.field_mask = XG_SPIN_CTX_FIELD_HANDLERS | XG_SPIN_CTX_FIELD_HANDLER_MEM |
                   XG_SPIN_CTX_FIELD_HOST_MEM | XG_SPIN_CTX_FIELD_WATCHDOG |
                   XG_SPIN_CTX_FIELD_STALL;
    p.handler_file       = file;
    p.header_handler     = hh;
    p.payload_handler    = ph;
    p.completion_handler = th;
    p.handler_mem_size   = 64 * 1024;
    p.host_mem           = st_host;
    p.host_mem_size      = 4096;
    p.watchdog_ns        = 20 * 1000 * 1000;
    p.stall_ns           = stall_ns;
    XG_CHECK(xg_spin_ctx_create(&p, &ctx) == XG_OK, "context of %s",
             (ph != NULL) ? ph : hh);
    return ctx;
}

static void feed(xg_spin_ctx_t *ctx, uint32_t msgid, unsigned pkts, int eom)
{
    uint8_t pkt[256];
    unsigned i;

    for (i = 0; i < pkts; i++) {
        st_packet(pkt, sizeof(pkt), msgid, 0, NULL);
        XG_CHECK(xg_spin_ctx_inject(ctx, msgid, pkt, sizeof(pkt),
                                    eom && (i + 1 == pkts)) == XG_OK,
                 "inject");
    }
}

static int32_t good_count(xg_spin_ctx_t *ctx)
{
    return *(volatile int32_t *)xg_spin_ctx_handler_mem(ctx, NULL);
}

/* Takes the next event: it must be @want's, of context @ctx. */
static void expect_event(xg_spin_ctx_t *ctx, xg_spin_fault_t fault,
                         uint32_t handler, const char *what)
{
    xg_spin_event_t ev;

    XG_CHECK(xg_spin_event_get(&ev) == XG_OK, "%s: no event", what);
    XG_CHECK(ev.ctx == ctx && ev.fault == fault && ev.handler == handler,
             "%s: event of %s, fault %s, handler %u (wanted %s, handler "
             "%u)",
             what, (ev.ctx == ctx) ? "its context" : "another",
             xg_spin_fault_str(ev.fault), ev.handler, xg_spin_fault_str(fault),
             handler);
}

int main(int argc, char **argv)
{
    const xg_spin_ec_desc_t *d;
    xg_spin_ctx_t *good, *ctx;
    xg_spin_event_t ev;
    unsigned c, m, good_msgs = 0;
    xg_wait_t wait;

    XG_CHECK(argc == 2, "usage: %s faults.so", argv[0]);
    good = make_ctx(argv[1], NULL, "good_ph", NULL, 0);
    for (c = 0; c < XG_ARRAY_SIZE(cases); c++) {
        const fault_case_t *k = &cases[c];

#ifdef UNDER_TSAN
        if (strcmp(k->ph, "loop_ph") == 0) {
            continue;
        }
#endif
        ctx = make_ctx(argv[1], k->hh, k->ph, k->th, 0);
        for (m = 0; m < k->msgs; m++) {
            feed(ctx, m, k->pkts, 1);
            feed(good, good_msgs++, 2, 1); /* the other context goes on */
        }
        XG_CHECK(xg_spin_ctx_quiet(ctx) == XG_OK, "quiet");
        d = xg_spin_ctx_desc(ctx);
        XG_CHECK(d->errors == k->msgs, "%s: %llu faults for %u messages", k->ph,
                 (unsigned long long)d->errors, k->msgs);
        XG_CHECK(d->last_fault == (uint32_t)k->fault &&
                     d->last_handler == k->handler,
                 "%s: descriptor says %s in handler %u", k->ph,
                 xg_spin_fault_str(d->last_fault), d->last_handler);
        XG_CHECK(d->messages == 0, "%s: %llu messages completed", k->ph,
                 (unsigned long long)d->messages);
        XG_CHECK(good_count(ctx) == k->good_pkts,
                 "%s: %d good payload calls, %d expected", k->ph,
                 good_count(ctx), k->good_pkts);
        for (m = 0; m < k->msgs; m++) {
            expect_event(ctx, k->fault, k->handler, k->ph);
        }
        XG_CHECK(xg_spin_ctx_destroy(ctx) == XG_OK, "destroy");
    }

    /* a stalled message: reset after 50 ms, reported, and the next
     * message of the context is processed */
    ctx = make_ctx(argv[1], NULL, "good_ph", NULL, 50 * 1000 * 1000);
    feed(ctx, 7, 2, 0);
    d = xg_spin_ctx_desc(ctx);
    xg_wait_init(&wait);
    while (__atomic_load_n(&d->errors, __ATOMIC_ACQUIRE) == 0) {
        xg_wait_backoff(&wait);
    }
    XG_CHECK(d->last_fault == XG_SPIN_FAULT_STALL &&
                 d->last_handler == XG_SPIN_HANDLER_NONE && d->last_msg == 7,
             "stall: descriptor says %s, message %llu",
             xg_spin_fault_str(d->last_fault), (unsigned long long)d->last_msg);
    expect_event(ctx, XG_SPIN_FAULT_STALL, XG_SPIN_HANDLER_NONE, "stall");
    feed(ctx, 8, 3, 1);
    XG_CHECK(xg_spin_ctx_quiet(ctx) == XG_OK, "quiet");
    /* the stalled message's packets may or may not have run before the
     * reset; the next message's all run */
    XG_CHECK(d->messages == 1 && good_count(ctx) >= 3 && good_count(ctx) <= 5,
             "after the stall: %llu messages, %d payload calls",
             (unsigned long long)d->messages, good_count(ctx));
    XG_CHECK(xg_spin_ctx_destroy(ctx) == XG_OK, "destroy");

    XG_CHECK(xg_spin_ctx_quiet(good) == XG_OK, "quiet");
    XG_CHECK(good_count(good) == (int32_t)(2 * good_msgs) &&
                 xg_spin_ctx_desc(good)->errors == 0 &&
                 xg_spin_ctx_desc(good)->messages == good_msgs,
             "the good context: %d payload calls for %u messages, %llu "
             "faults",
             good_count(good), good_msgs,
             (unsigned long long)xg_spin_ctx_desc(good)->errors);
    XG_CHECK(xg_spin_event_get(&ev) == XG_INPROGRESS,
             "an event too many: %s in handler %u of message %llu",
             xg_spin_fault_str(ev.fault), ev.handler,
             (unsigned long long)ev.msg);
    XG_CHECK(xg_spin_ctx_destroy(good) == XG_OK, "destroy");
    printf("faults: %zu kinds stopped and reported, the engine went on\n",
           XG_ARRAY_SIZE(cases) + 1);
    return XG_TEST_PASS;
}
