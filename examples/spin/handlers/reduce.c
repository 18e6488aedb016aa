/*
 * reduce: element-wise sum of int32 vectors carried by messages (the
 * paper's "data reduction").  Payload handlers add each packet's words
 * into the partial vector of their HPU -- in their cluster's scratchpad,
 * NB_CORES vectors of `elems` each, so no two HPUs share one and plain
 * adds do (PsPIN's example shares one per cluster with an atomic add per
 * word) -- at the packet's element position; the completion handler of
 * the last expected message adds every partial and DMAs the result to the
 * host, then writes the message count: only the result reaches the host.
 * The context's scratchpad must hold NB_CORES * elems int32 per cluster.
 */
#include <handler.h>
#include <packets.h>

#include "usecase.h"

__handler__ void reduce_ph(handler_args_t *args)
{
    task_t *task         = args->task;
    uc_reduce_mem_t *mem = (uc_reduce_mem_t *)task->handler_mem;
    int32_t *part        = (int32_t *)task->scratchpad[args->cluster_id] +
                    (size_t)args->hpu_id * mem->elems;
    uint8_t *pld;
    uint32_t len, i, at;
    int32_t word;

    GET_IP_UDP_PLD(task->pkt_mem, pld, len);
    at = (uint32_t)(task->xg_msg_offset / 4) % mem->elems;
    for (i = 0; i < len / 4; i++) {
        memcpy(&word, pld + 4 * i, 4);
        part[at] += word;
        if (++at == mem->elems) {
            at = 0;
        }
    }
}

__handler__ void reduce_th(handler_args_t *args)
{
    task_t *task         = args->task;
    uc_reduce_mem_t *mem = (uc_reduce_mem_t *)task->handler_mem;
    uint64_t host = ((uint64_t)task->host_mem_high << 32) | task->host_mem_low;
    int32_t done  = amo_add(&mem->done, 1) + 1;
    uint32_t i, c, h;
    int32_t sum;

    /* (the atomic add orders the other messages' payload handlers,
     * whose completion handlers counted before this one, before here) */
    if ((uint32_t)done != mem->expected) {
        return;
    }
    for (i = 0; i < mem->elems; i++) {
        sum = 0;
        for (c = 0; c < NB_CLUSTERS; c++) {
            for (h = 0; h < NB_CORES; h++) {
                sum += ((int32_t *)
                            task->scratchpad[c])[(size_t)h * mem->elems + i];
            }
        }
        mem->result[i] = sum;
    }
    spin_dma_to_host(host + UC_RESULT_OFF, (uint32_t)(uintptr_t)mem->result,
                     mem->elems * 4, false, NULL);
    spin_write_to_host(host, (uint64_t)done, NULL);
}

void init_handlers(handler_fn *hh, handler_fn *ph, handler_fn *th,
                   void **handler_mem_ptr)
{
    volatile handler_fn handlers[] = {NULL, reduce_ph, reduce_th};

    *hh = handlers[0];
    *ph = handlers[1];
    *th = handlers[2];
    (void)handler_mem_ptr;
}
