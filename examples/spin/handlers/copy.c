/*
 * copy_to_host, copy_from_host and host_direct: data movement between
 * packets and the host window.
 *   copy_to_host_ph    DMAs the packet's payload to the host window at
 *                      its message offset (the message lands in order);
 *   copy_from_host_ph  fills the packet's payload from the host window at
 *                      its message offset, swaps its addresses and sends
 *                      it back (a get served by the NIC);
 *   host_direct_ph     writes the packet's first payload word to the host
 *                      (8 bytes at slot flow_id), a host-direct command.
 */
#include <handler.h>
#include <packets.h>

static uint64_t host_of(const task_t *task)
{
    return ((uint64_t)task->host_mem_high << 32) | task->host_mem_low;
}

__handler__ void copy_to_host_ph(handler_args_t *args)
{
    task_t *task = args->task;
    uint8_t *pld;
    uint32_t len;
    spin_cmd_t dma;
    bool done = false;

    GET_IP_UDP_PLD(task->pkt_mem, pld, len);
    spin_dma_to_host(host_of(task) + task->xg_msg_offset,
                     (uint32_t)(uintptr_t)pld, len, true, &dma);
    while (!done) {
        spin_cmd_test(dma, &done);
    }
}

__handler__ void copy_from_host_ph(handler_args_t *args)
{
    task_t *task   = args->task;
    pkt_hdr_t *hdr = (pkt_hdr_t *)task->pkt_mem;
    uint32_t id    = hdr->ip_hdr.source_id, len;
    uint8_t *pld;
    spin_cmd_t cmd;

    GET_IP_UDP_PLD(task->pkt_mem, pld, len);
    spin_dma_from_host(host_of(task) + task->xg_msg_offset,
                       (uint32_t)(uintptr_t)pld, len, true, &cmd);
    spin_cmd_wait(cmd);
    hdr->ip_hdr.source_id = hdr->ip_hdr.dest_id;
    hdr->ip_hdr.dest_id   = id;
    spin_send_packet(task->pkt_mem, hdr->ip_hdr.length, &cmd);
}

__handler__ void host_direct_ph(handler_args_t *args)
{
    task_t *task = args->task;
    uint8_t *pld;
    uint32_t len, word = 0;

    GET_IP_UDP_PLD(task->pkt_mem, pld, len);
    if (len >= 4) {
        memcpy(&word, pld, 4);
    }
    spin_write_to_host(host_of(task) +
                           8 * (task->flow_id % (task->host_mem_size / 8)),
                       word, NULL);
}

void init_handlers(handler_fn *hh, handler_fn *ph, handler_fn *th,
                   void **handler_mem_ptr)
{
    volatile handler_fn handlers[] = {NULL, copy_to_host_ph, NULL};

    *hh = handlers[0];
    *ph = handlers[1];
    *th = handlers[2];
    (void)handler_mem_ptr;
}
