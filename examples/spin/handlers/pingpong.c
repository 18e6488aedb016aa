/*
 * ping_pong: every packet goes back where it came from: the IP source
 * and destination and the UDP ports are swapped and the packet is sent
 * (Portals contexts: to the initiator's PE, on the context's send
 * portal).
 */
#include <handler.h>
#include <packets.h>

__handler__ void pingpong_ph(handler_args_t *args)
{
    task_t *task   = args->task;
    pkt_hdr_t *hdr = (pkt_hdr_t *)task->pkt_mem;
    uint32_t id    = hdr->ip_hdr.source_id;
    uint16_t port  = hdr->udp_hdr.src_port;
    spin_cmd_t cmd;

    hdr->ip_hdr.source_id = hdr->ip_hdr.dest_id;
    hdr->ip_hdr.dest_id   = id;
    hdr->udp_hdr.src_port = hdr->udp_hdr.dst_port;
    hdr->udp_hdr.dst_port = port;
    spin_send_packet(task->pkt_mem, hdr->ip_hdr.length, &cmd);
    spin_cmd_wait(cmd);
}

void init_handlers(handler_fn *hh, handler_fn *ph, handler_fn *th,
                   void **handler_mem_ptr)
{
    volatile handler_fn handlers[] = {NULL, pingpong_ph, NULL};

    *hh = handlers[0];
    *ph = handlers[1];
    *th = handlers[2];
    (void)handler_mem_ptr;
}
