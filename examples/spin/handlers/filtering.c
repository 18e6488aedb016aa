/*
 * filtering: packet filtering and rewriting (the paper's "filtering").
 * Each packet's IP source id is looked up in a hash table in handler
 * memory; a packet that matches gets its UDP destination port rewritten
 * to the table's value and is DMAed to the next slot of the host window;
 * the others are dropped (counted).
 */
#include <handler.h>
#include <packets.h>

#include "usecase.h"

__handler__ void filtering_ph(handler_args_t *args)
{
    task_t *task         = args->task;
    uc_filter_mem_t *mem = (uc_filter_mem_t *)task->handler_mem;
    pkt_hdr_t *hdr       = (pkt_hdr_t *)task->pkt_mem;
    uint32_t key         = hdr->ip_hdr.source_id + 1;
    uint32_t i           = uc_filter_hash(key) & (mem->slots - 1), n, slot;
    uint64_t host = ((uint64_t)task->host_mem_high << 32) | task->host_mem_low;

    for (n = 0; n < mem->slots; n++) {
        if (mem->table[i].key == key) {
            hdr->udp_hdr.dst_port = (uint16_t)mem->table[i].value;
            slot                  = (uint32_t)amo_add(&mem->matched, 1) %
                   (uint32_t)(task->host_mem_size / UC_FILTER_SLOT);
            spin_dma_to_host(host + (uint64_t)slot * UC_FILTER_SLOT,
                             (uint32_t)(uintptr_t)task->pkt_mem,
                             (uint32_t)MIN(task->pkt_mem_size, UC_FILTER_SLOT),
                             false, NULL);
            return;
        }
        if (mem->table[i].key == 0) {
            break;
        }
        i = (i + 1) & (mem->slots - 1);
    }
    amo_add(&mem->dropped, 1);
}

void init_handlers(handler_fn *hh, handler_fn *ph, handler_fn *th,
                   void **handler_mem_ptr)
{
    volatile handler_fn handlers[] = {NULL, filtering_ph, NULL};

    *hh = handlers[0];
    *ph = handlers[1];
    *th = handlers[2];
    (void)handler_mem_ptr;
}
