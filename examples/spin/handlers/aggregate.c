/*
 * aggregate: the sum of the uint32 items of each message (the paper's
 * "data aggregation").  Payload handlers add their packet's sum into the
 * message's own scratchpad; the completion handler writes the message's
 * total to the host, 8 bytes per message (slot flow_id).  The context
 * needs a per-message scratchpad of 8 bytes or more.
 */
#include <handler.h>
#include <packets.h>

__handler__ void aggregate_ph(handler_args_t *args)
{
    task_t *task             = args->task;
    volatile uint64_t *total = (volatile uint64_t *)task->xg_msg_scratchpad;
    uint8_t *pld;
    uint32_t len, i, v;
    uint64_t sum = 0;

    GET_IP_UDP_PLD(task->pkt_mem, pld, len);
    for (i = 0; i < len / 4; i++) {
        memcpy(&v, pld + 4 * i, 4);
        sum += v;
    }
    __atomic_fetch_add(total, sum, __ATOMIC_RELAXED);
}

__handler__ void aggregate_th(handler_args_t *args)
{
    task_t *task   = args->task;
    uint64_t host  = ((uint64_t)task->host_mem_high << 32) | task->host_mem_low;
    uint64_t slots = task->host_mem_size / 8;

    spin_write_to_host(
        host + 8 * (task->flow_id % slots),
        __atomic_load_n((uint64_t *)task->xg_msg_scratchpad, __ATOMIC_RELAXED),
        NULL);
}

void init_handlers(handler_fn *hh, handler_fn *ph, handler_fn *th,
                   void **handler_mem_ptr)
{
    volatile handler_fn handlers[] = {NULL, aggregate_ph, aggregate_th};

    *hh = handlers[0];
    *ph = handlers[1];
    *th = handlers[2];
    (void)handler_mem_ptr;
}
