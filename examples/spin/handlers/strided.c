/*
 * strided_ddt: a receiver-side datatype (the paper's "scatter"): the
 * message is a contiguous stream of blocks of `block` bytes that must
 * land in the host window `stride` bytes apart (an MPI vector type);
 * each payload handler scatters its packet's part of the stream with one
 * DMA per piece of a block, and the completion handler writes 1 to the
 * flag word once everything is in place.
 */
#include <handler.h>
#include <packets.h>

#include "usecase.h"

__handler__ void strided_ph(handler_args_t *args)
{
    task_t *task                = args->task;
    const uc_strided_mem_t *mem = (const uc_strided_mem_t *)task->handler_mem;
    uint64_t host = ((uint64_t)task->host_mem_high << 32) | task->host_mem_low;
    uint64_t b    = task->xg_msg_offset, in;
    uint8_t *pld;
    uint32_t len, n, done = 0;

    GET_IP_UDP_PLD(task->pkt_mem, pld, len);
    while (done < len) {
        in = b % mem->block; /* where in its block */
        n  = (uint32_t)MIN((uint64_t)(len - done), mem->block - in);
        spin_dma_to_host(host + (b / mem->block) * mem->stride + in,
                         (uint32_t)(uintptr_t)(pld + done), n, false, NULL);
        done += n;
        b += n;
    }
}

__handler__ void strided_th(handler_args_t *args)
{
    task_t *task                = args->task;
    const uc_strided_mem_t *mem = (const uc_strided_mem_t *)task->handler_mem;
    uint64_t host = ((uint64_t)task->host_mem_high << 32) | task->host_mem_low;

    spin_write_to_host(host + mem->flag_off, 1, NULL);
}

void init_handlers(handler_fn *hh, handler_fn *ph, handler_fn *th,
                   void **handler_mem_ptr)
{
    volatile handler_fn handlers[] = {NULL, strided_ph, strided_th};

    *hh = handlers[0];
    *ph = handlers[1];
    *th = handlers[2];
    (void)handler_mem_ptr;
}
