/*
 * histogram: counts the values of the int32 items that messages carry
 * (UC_HIST_BINS bins, value modulo the bins), per HPU in its cluster's
 * scratchpad (NB_CORES sets of bins per cluster, plain adds); the
 * completion handler of the last expected message adds all the bins and
 * DMAs the histogram to the host.  The context's scratchpad must hold
 * NB_CORES * UC_HIST_BINS int32 per cluster.
 */
#include <handler.h>
#include <packets.h>

#include "usecase.h"

__handler__ void histogram_ph(handler_args_t *args)
{
    task_t *task  = args->task;
    int32_t *bins = (int32_t *)task->scratchpad[args->cluster_id] +
                    (size_t)args->hpu_id * UC_HIST_BINS;
    uint8_t *pld;
    uint32_t len, i, v;

    GET_IP_UDP_PLD(task->pkt_mem, pld, len);
    for (i = 0; i < len / 4; i++) {
        memcpy(&v, pld + 4 * i, 4);
        bins[v % UC_HIST_BINS]++;
    }
}

__handler__ void histogram_th(handler_args_t *args)
{
    task_t *task         = args->task;
    uc_reduce_mem_t *mem = (uc_reduce_mem_t *)task->handler_mem;
    uint64_t host = ((uint64_t)task->host_mem_high << 32) | task->host_mem_low;
    int32_t done  = amo_add(&mem->done, 1) + 1;
    uint32_t i, c, h;

    if ((uint32_t)done != mem->expected) {
        return;
    }
    for (i = 0; i < UC_HIST_BINS; i++) {
        mem->result[i] = 0;
        for (c = 0; c < NB_CLUSTERS; c++) {
            for (h = 0; h < NB_CORES; h++) {
                mem->result[i] +=
                    ((int32_t *)
                         task->scratchpad[c])[(size_t)h * UC_HIST_BINS + i];
            }
        }
    }
    spin_dma_to_host(host + UC_RESULT_OFF, (uint32_t)(uintptr_t)mem->result,
                     UC_HIST_BINS * 4, false, NULL);
    spin_write_to_host(host, (uint64_t)done, NULL);
}

void init_handlers(handler_fn *hh, handler_fn *ph, handler_fn *th,
                   void **handler_mem_ptr)
{
    volatile handler_fn handlers[] = {NULL, histogram_ph, histogram_th};

    *hh = handlers[0];
    *ph = handlers[1];
    *th = handlers[2];
    (void)handler_mem_ptr;
}
