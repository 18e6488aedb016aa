/*
 * Handlers of test_portals.c (built like the use cases):
 *   bump_ph     adds 1 to every payload byte, in place (the context
 *               delivers: the changed bytes land in the entry);
 *   count_hh/th count header and completion calls of each message in
 *               handler memory, and check the packet's headers;
 *   crash_ph    faults on packets whose first payload byte is 0xff.
 */
#include <handler.h>
#include <packets.h>

typedef struct counts {
    volatile int32_t headers, completions, bad, payloads;
} counts_t;

__handler__ void count_hh(handler_args_t *args)
{
    task_t *task = args->task;
    counts_t *c  = (counts_t *)task->handler_mem;
    pkt_hdr_t *h = (pkt_hdr_t *)task->pkt_mem;

    if ((h->ip_hdr.ihl != 5) || (h->ip_hdr.source_id != task->xg_source) ||
        (h->ip_hdr.length != task->pkt_mem_size)) {
        amo_add(&c->bad, 1);
    }
    amo_add(&c->headers, 1);
}

__handler__ void bump_ph(handler_args_t *args)
{
    task_t *task = args->task;
    counts_t *c  = (counts_t *)task->handler_mem;
    uint8_t *pld;
    uint32_t len, i;

    GET_IP_UDP_PLD(task->pkt_mem, pld, len);
    for (i = 0; i < len; i++) {
        pld[i]++;
    }
    amo_add(&c->payloads, 1);
}

__handler__ void count_th(handler_args_t *args)
{
    counts_t *c = (counts_t *)args->task->handler_mem;

    amo_add(&c->completions, 1);
}

__handler__ void crash_ph(handler_args_t *args)
{
    uint8_t *pld;
    uint32_t len;

    GET_IP_UDP_PLD(args->task->pkt_mem, pld, len);
    if ((len > 0) && (pld[0] == 0xff)) {
        volatile int *volatile wild = (volatile int *)(uintptr_t)8;

        *wild = 1;
    }
}

void init_handlers(handler_fn *hh, handler_fn *ph, handler_fn *th,
                   void **handler_mem_ptr)
{
    volatile handler_fn handlers[] = {count_hh, bump_ph, count_th};

    *hh = handlers[0];
    *ph = handlers[1];
    *th = handlers[2];
    (void)handler_mem_ptr;
}
