/*
 * Handlers that check the engine's order rules and record what they saw
 * in handler memory (order_stats_t per message, by flow_id % ORDER_MSGS):
 *   - the header handler runs once, first, on the home cluster, and
 *     stamps the message's own scratchpad with its id;
 *   - payload handlers run after it (never before, never after the
 *     completion handler), each sees its message's stamp in the
 *     per-message scratchpad, and wait a pseudo-random while (so that
 *     payloads of one message overlap on several HPUs);
 *   - the completion handler runs once, last, on the home cluster, after
 *     every payload handler (their count is in the packet: word 0 of the
 *     payload is the message's packet count).
 * Any breach counts in `bad`; the test reads the statistics.
 */
#include <handler.h>
#include <packets.h>

#include "order.h"

static order_stats_t *stats_of(task_t *task)
{
    order_stats_t *all = (order_stats_t *)task->handler_mem;

    return &all[task->flow_id % ORDER_MSGS];
}

/* Busy-waits a pseudo-random number of rounds derived from @seed. */
static void jitter(uint32_t seed)
{
    volatile uint32_t x = seed * 2654435761u;
    uint32_t n          = (x >> 20) % 2048, i;

    for (i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
    }
}

__handler__ void order_hh(handler_args_t *args)
{
    task_t *task           = args->task;
    order_stats_t *st      = stats_of(task);
    volatile uint32_t *pad = (volatile uint32_t *)task->xg_msg_scratchpad;

    if ((amo_add(&st->headers, 1) != 0) || (st->payloads != 0) ||
        (st->completions != 0) || (args->cluster_id != task->home_cluster_id) ||
        (pad == NULL) || (pad[0] != 0)) {
        amo_add(&st->bad, 1);
    }
    jitter(task->flow_id);
    pad[0] = task->flow_id + 1; /* the stamp */
    asm_mem_fence();
    amo_store((volatile uint32_t *)&st->header_done, 1);
}

__handler__ void order_ph(handler_args_t *args)
{
    task_t *task           = args->task;
    order_stats_t *st      = stats_of(task);
    volatile uint32_t *pad = (volatile uint32_t *)task->xg_msg_scratchpad;
    uint8_t *pld;
    uint32_t len, word;

    if ((__atomic_load_n(&st->header_done, __ATOMIC_ACQUIRE) != 1) ||
        (st->completions != 0) || (pad[0] != task->flow_id + 1)) {
        amo_add(&st->bad, 1);
    }
    GET_IP_UDP_PLD(task->pkt_mem, pld, len);
    memcpy(&word, pld + 4, sizeof(word)); /* this packet's index */
    jitter(task->flow_id * 131u + word);
    amo_add(&st->bytes, (int32_t)len);
    amo_add(&st->payloads, 1);
}

__handler__ void order_th(handler_args_t *args)
{
    task_t *task           = args->task;
    order_stats_t *st      = stats_of(task);
    volatile uint32_t *pad = (volatile uint32_t *)task->xg_msg_scratchpad;
    uint8_t *pld;
    uint32_t len, count;

    GET_IP_UDP_PLD(task->pkt_mem, pld, len);
    memcpy(&count, pld, sizeof(count));
    (void)len;
    if ((st->payloads != (int32_t)count) || (st->headers != 1) ||
        (args->cluster_id != task->home_cluster_id) || !task->xg_eom ||
        (pad[0] != task->flow_id + 1)) {
        amo_add(&st->bad, 1);
    }
    amo_add(&st->completions, 1);
}

void init_handlers(handler_fn *hh, handler_fn *ph, handler_fn *th,
                   void **handler_mem_ptr)
{
    volatile handler_fn handlers[] = {order_hh, order_ph, order_th};

    *hh = handlers[0];
    *ph = handlers[1];
    *th = handlers[2];
    (void)handler_mem_ptr;
}
